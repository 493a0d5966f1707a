//! Capture rules of every variant, checked on constructed positions.

use pdn::MoveError;
use pdn::{Color, GameType, Outcome, Piece, Position, Role, Variant};

fn pos(variant: Variant, fen: &str) -> Position {
    Position::from_fen_str(variant, fen).expect(fen)
}

fn pos_gt(game_type: &str, fen: &str) -> Position {
    let gt = GameType::parse(game_type).expect(game_type);
    Position::from_fen(gt, fen).expect(fen).0
}

/// The legal moves, written with their full paths, sorted.
fn moves(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p
        .legal_moves()
        .iter()
        .map(|m| p.move_to_text_full(m))
        .collect();
    v.sort();
    v
}

fn play(p: &mut Position, text: &str) {
    let (m, _) = p.parse_move(text).expect(text);
    p.play(&m).expect(text);
}

// International ---------------------------------------------------------

#[test]
fn international_majority_capture() {
    // 33 can take two men, 39 only one: the larger capture is compulsory.
    let p = pos(Variant::International, "W:W33,39:B28,18,34");
    assert_eq!(moves(&p), ["33x22x13"]);
    // Brazilian and Canadian share the rule; Russian lets the player choose.
    let r = pos_gt("25,W,10,10,N2,0", "W:W33,39:B28,18,34");
    assert_eq!(moves(&r), ["33:22:13", "39:30"]);
}

#[test]
fn international_men_capture_backwards() {
    let p = pos(Variant::International, "W:W23:B28");
    assert_eq!(moves(&p), ["23x32"]);
}

#[test]
fn international_no_promotion_when_passing() {
    // The man reaches the far row on 2 but must jump on backwards to 13.
    let mut p = pos(Variant::International, "W:W11:B7,8");
    assert_eq!(moves(&p), ["11x2x13"]);
    let m = p.legal_moves().remove(0);
    assert!(!m.promotes());
    p.play(&m).expect("legal");
    assert_eq!(p.piece_on(13), Some(Piece::new(Color::White, Role::Man)));
}

#[test]
fn international_flying_king() {
    // Eight squares along the long diagonal.
    let p = pos(Variant::International, "W:WK46:B5");
    assert_eq!(p.legal_moves().len(), 8);
    // A capture may land on any free square behind the piece.
    let p = pos(Variant::International, "W:WK46:B23");
    assert_eq!(moves(&p), ["46x10", "46x14", "46x19", "46x5"]);
}

#[test]
fn king_must_land_where_the_capture_goes_on() {
    // After taking c3 the king may stop on d4 to h8, but only from e5 can
    // it take d6, so it must land there and go on, even with free choice.
    let p = pos(Variant::Russian, "W:WKa1:Bc3,d6");
    assert_eq!(moves(&p), ["a1:e5:b8", "a1:e5:c7"]);
    // Without the second piece every landing square is a move.
    let p = pos(Variant::Russian, "W:WKa1:Bc3");
    assert_eq!(moves(&p), ["a1:d4", "a1:e5", "a1:f6", "a1:g7", "a1:h8"]);
}

#[test]
fn international_pdn3_ambiguity_diagram() {
    // The diagram of PDN 3.0 grammar.rst: 47x36 can take two sets of pieces.
    let p = pos(Variant::International, "W:WK47:B42,29,19,14,27");
    let all = moves(&p);
    assert!(all.contains(&"47x38x24x13x36".to_owned()), "{all:?}");
    assert!(all.contains(&"47x38x20x9x36".to_owned()), "{all:?}");
    assert!(matches!(
        p.parse_move("47x36"),
        Err(MoveError::Ambiguous { .. })
    ));
    let (m, w) = p.parse_move("47x38x24x13x36").expect("disambiguated");
    assert!(w.is_empty());
    assert_eq!(p.move_to_text(&m), "47x38x24x13x36");
    // 13 alone tells the two routes apart (lenient reading).
    assert!(p.parse_move("47x13x36").is_ok());
}

#[test]
fn duplicate_captures_counted_once_except_frisian() {
    // A man can take the four men around 28 clockwise or anticlockwise and
    // come back to 38: one move in international draughts, two in Frisian.
    let p = pos(Variant::International, "W:W38:B33,23,22,32");
    assert_eq!(p.legal_moves().len(), 1);
    assert_eq!(p.legal_moves()[0].captured().len(), 4);
    let f = pos(Variant::Frisian, "W:W38:B33,23,22,32");
    assert_eq!(f.legal_moves().len(), 2);
    assert!(f.legal_moves()[0].same_effect(&f.legal_moves()[1]));
    // Both read as the same move.
    assert!(f.parse_move("38x38").is_ok());
}

#[test]
fn game_over_when_blocked_or_empty() {
    let p = pos(Variant::International, "W:W46:B41,37");
    assert!(p.is_game_over());
    assert_eq!(
        p.outcome(),
        Some(Outcome::Decisive {
            winner: Color::Black
        })
    );
    let p = pos(Variant::International, "B:W46:B");
    assert_eq!(
        p.outcome(),
        Some(Outcome::Decisive {
            winner: Color::White
        })
    );
    assert!(!Position::new(Variant::Thai).is_game_over());
}

// English, Italian ---------------------------------------------------------

#[test]
fn english_short_king_and_free_choice() {
    let p = pos(Variant::English, "W:WK18:B");
    assert_eq!(p.legal_moves().len(), 4);
    let p = pos(Variant::English, "W:WK18:B15,23");
    assert_eq!(moves(&p), ["18x11", "18x27"]);
}

#[test]
fn english_man_crowned_ends_the_move() {
    // The white man reaches the king row on 2; as a king it could take 6,
    // but a crowning ends the move.
    let p = pos(Variant::English, "W:W11:B7,6");
    assert_eq!(moves(&p), ["11x2"]);
    assert!(p.legal_moves()[0].promotes());
}

#[test]
fn english_men_capture_forwards_only() {
    // Black men move up the board (towards 29-32); a black man on 14 with a
    // white man on 10 behind it cannot take backwards.
    let p = pos(Variant::English, "B:W10,25:B14");
    assert!(!p.must_capture());
}

#[test]
fn italian_men_do_not_capture_kings() {
    let p = pos(Variant::Italian, "W:W22:BK18");
    assert_eq!(moves(&p), ["22-19"]);
    let p = pos(Variant::Italian, "W:W22:B18");
    assert_eq!(moves(&p), ["22x13"]);
}

#[test]
fn italian_king_before_man() {
    let p = pos(Variant::Italian, "W:W22,K30:B18,27");
    assert_eq!(moves(&p), ["30x23"]);
    // English rules: free choice.
    let e = pos_gt("21,W,8,8,N2,1", "W:W22,K30:B18,27");
    assert_eq!(moves(&e).len(), 2);
}

#[test]
fn italian_most_kings() {
    let p = pos(Variant::Italian, "W:WK19:BK15,14");
    assert_eq!(moves(&p), ["19x12"]);
}

#[test]
fn italian_earliest_king() {
    // Both routes take two pieces with the king, one of them a king; the
    // route meeting the king first must be taken.
    let p = pos(Variant::Italian, "W:WK19:BK15,7,14,K5");
    assert_eq!(moves(&p), ["19x12x3"]);
    let e = pos_gt("21,W,8,8,N2,1", "W:WK19:BK15,7,14,K5");
    assert_eq!(moves(&e), ["19x10x1", "19x12x3"]);
}

#[test]
fn italian_most_pieces_first() {
    // A man taking two men beats a king taking one king.
    let p = pos(Variant::Italian, "W:W27,K30:B22,14,K26");
    assert_eq!(moves(&p), ["27x18x11"]);
}

// Russian, Brazilian, Pool ------------------------------------------------------

#[test]
fn russian_crowned_mid_capture_continues_as_king() {
    let p = pos(Variant::Russian, "W:Wb6:Bc7,e7");
    assert_eq!(moves(&p), ["b6:d8:f6", "b6:d8:g5", "b6:d8:h4"]);
    assert!(p.legal_moves().iter().all(|m| m.promotes()));
    let mut after = p.clone();
    play(&mut after, "b6:h4");
    assert_eq!(
        after
            .piece_at(after.geometry().parse_square("h4").expect("h4"))
            .map(|x| x.role),
        Some(Role::King)
    );
}

#[test]
fn brazilian_and_pool_men_jump_on_as_men() {
    let p = pos(Variant::Brazilian, "W:Wb6:Bc7,e7");
    assert_eq!(moves(&p), ["b6xd8xf6"]);
    assert!(!p.legal_moves()[0].promotes());
    // Unified pool checkers, written algebraically.
    let pool = pos_gt("23,W,8,8,A0,0", "W:Wb6:Bc7,e7");
    assert_eq!(moves(&pool), ["b6xd8xf6"]);
}

#[test]
fn russian_free_choice_flying_kings() {
    // Men capture backwards (e5 takes f4) and nobody must take the most.
    let p = pos(Variant::Russian, "W:Wc1,e5,Kh8:Bd2,f4,g7");
    assert_eq!(moves(&p), ["c1:e3:g5", "e5:g3", "h8:f6"]);
}

#[test]
fn spantsiretti_board() {
    let p = Position::new(Variant::Spantsiretti);
    assert_eq!(p.geometry().width(), 10);
    assert_eq!(p.geometry().height(), 8);
    assert_eq!(p.count(Color::White, Role::Man), 15);
    let r = pos(Variant::Spantsiretti, "W:Wb6:Bc7,e7");
    assert_eq!(
        moves(&r),
        ["b6:d8:f6", "b6:d8:g5", "b6:d8:h4", "b6:d8:i3", "b6:d8:j2"]
    );
}

// Czech, Spanish, Portuguese ------------------------------------------------------

#[test]
fn czech_king_capture_first() {
    // The king takes one piece, a man could take two: the king must.
    let p = pos(Variant::Czech, "W:Wc1,e5,Kh8:Bd2,f4,g7");
    assert_eq!(moves(&p), ["h8xf6"]);
    // Without a king capture, free choice among the men (which cannot
    // capture backwards: e5 does not take f4).
    let p = pos(Variant::Czech, "W:Wc1,e5,a5:Bd2,f4,b6");
    assert_eq!(moves(&p), ["a5xc7", "c1xe3xg5"]);
}

#[test]
fn spanish_quantity_then_quality() {
    let p = pos(Variant::Spanish, "W:W14,11:B18,K15");
    assert_eq!(moves(&p), ["11x20"]);
    let q = pos(Variant::Portuguese, "W:W14,11:B18,K15");
    assert_eq!(moves(&q), ["11x20"]);
    // Spanish men do not capture backwards.
    let p = pos(Variant::Spanish, "W:W18:B14");
    assert!(!p.must_capture());
}

// Turkish ------------------------------------------------------

#[test]
fn turkish_men_capture_forwards_and_sideways() {
    let p = pos(Variant::Turkish, "W:Wd4:Bd5,e4,c4,d3");
    assert_eq!(moves(&p), ["d4xb4", "d4xd6", "d4xf4"]);
    let q = pos(Variant::Turkish, "W:Wd4:Bd8");
    assert_eq!(moves(&q), ["d4-c4", "d4-d5", "d4-e4"]);
}

#[test]
fn turkish_pieces_leave_at_once() {
    // The king crosses a3, where it took the first piece, and lands there.
    let p = pos(Variant::Turkish, "W:WKa1:Ba3,c5,d4,b3");
    assert_eq!(moves(&p), ["a1xa5xd5xd3xa3"]);
}

#[test]
fn turkish_no_180_degree_turn() {
    let p = pos(Variant::Turkish, "W:WKd4:Bd6,d2");
    assert_eq!(moves(&p), ["d4xd1", "d4xd7", "d4xd8"]);
}

#[test]
fn turkish_majority() {
    let p = pos(Variant::Turkish, "W:Wa4,h4:Ba5,a7,h5");
    assert_eq!(moves(&p), ["a4xa6xa8"]);
}

// Thai ------------------------------------------------------

#[test]
fn thai_king_lands_right_behind() {
    let p = pos(Variant::Thai, "B:BK29:W18");
    assert_eq!(moves(&p), ["29-15"]);
    // Flying kings elsewhere would have four landing squares.
    let i = pos_gt("25,B,8,8,N2,0", "B:BK29:W18");
    assert_eq!(i.legal_moves().len(), 4);
}

#[test]
fn thai_pieces_leave_at_once_and_king_may_turn_back() {
    let p = pos(Variant::Thai, "B:BK22:W18,25");
    assert_eq!(moves(&p), ["22-15-29", "22-29-15"]);
}

#[test]
fn thai_start() {
    let p = Position::new(Variant::Thai);
    assert_eq!(p.turn(), Color::Black);
    assert_eq!(p.count(Color::Black, Role::Man), 8);
    assert_eq!(p.to_fen(), "B:W1,2,3,4,5,6,7,8:B25,26,27,28,29,30,31,32");
}

// Frisian ------------------------------------------------------

#[test]
fn frisian_orthogonal_capture() {
    let p = pos(Variant::Frisian, "W:W33:B23");
    assert_eq!(moves(&p), ["33x13"]);
    let p = pos(Variant::Frisian, "W:W33:B34");
    assert_eq!(moves(&p), ["33x35"]);
}

#[test]
fn frisian_value_two_men_beat_a_king() {
    let p = pos(Variant::Frisian, "W:W33,45:B28,18,K40");
    assert_eq!(moves(&p), ["33x22x13"]);
}

#[test]
fn frisian_value_king_beats_a_man() {
    let p = pos(Variant::Frisian, "W:W33,45:B28,K40");
    assert_eq!(moves(&p), ["45x34"]);
}

#[test]
fn frisian_king_captures_first_at_equal_value() {
    let p = pos(Variant::Frisian, "W:W33,K50:B44,28");
    assert_eq!(moves(&p), ["50x39"]);
}

#[test]
fn frisian_kings_move_diagonally_only() {
    let p = pos(Variant::Frisian, "W:WK46:BK5");
    assert_eq!(p.legal_moves().len(), 8);
}

#[test]
fn frisian_king_move_limit() {
    let mut p = pos(Variant::Frisian, "W:W35,K46:BK1");
    for (w, b) in [("46-41", "1-6"), ("41-46", "6-1"), ("46-41", "1-6")] {
        play(&mut p, w);
        play(&mut p, b);
    }
    // The king on 41 has moved three times in a row: only the man may move.
    assert_eq!(moves(&p), ["35-30"]);
    play(&mut p, "35-30");
    play(&mut p, "6-1");
    assert!(p.legal_moves().len() > 1);
    // Without men the limit does not apply.
    let mut k = pos(Variant::Frisian, "W:WK46:BK1");
    for (w, b) in [("46-41", "1-6"), ("41-46", "6-1"), ("46-41", "1-6")] {
        play(&mut k, w);
        play(&mut k, b);
    }
    assert!(
        k.legal_moves()
            .iter()
            .any(|m| k.geometry().number(m.from()) == 41)
    );
}

// Start positions and custom boards ------------------------------------------------------

#[test]
fn start_positions() {
    let cases = [
        (Variant::International, 20, Color::White),
        (Variant::English, 12, Color::Black),
        (Variant::Italian, 12, Color::White),
        (Variant::Pool, 12, Color::Black),
        (Variant::Spanish, 12, Color::White),
        (Variant::Russian, 12, Color::White),
        (Variant::Brazilian, 12, Color::White),
        (Variant::Canadian, 30, Color::White),
        (Variant::Portuguese, 12, Color::White),
        (Variant::Czech, 12, Color::White),
        (Variant::Turkish, 16, Color::White),
        (Variant::Thai, 8, Color::Black),
        (Variant::Frisian, 20, Color::White),
        (Variant::Spantsiretti, 15, Color::White),
    ];
    for (v, men, first) in cases {
        let p = Position::new(v);
        assert_eq!(p.count(Color::White, Role::Man), men, "{v}");
        assert_eq!(p.count(Color::Black, Role::Man), men, "{v}");
        assert_eq!(p.turn(), first, "{v}");
        assert!(!p.is_game_over());
    }
    // English: black on 1-12, white on 21-32; Italian: white on 21-32.
    assert_eq!(
        Position::new(Variant::English).piece_on(1).map(|p| p.color),
        Some(Color::Black)
    );
    assert_eq!(
        Position::new(Variant::Italian)
            .piece_on(32)
            .map(|p| p.color),
        Some(Color::White)
    );
    assert_eq!(
        Position::new(Variant::Spanish).piece_on(1).map(|p| p.color),
        Some(Color::White)
    );
}

#[test]
fn move_numbers_count_after_the_second_player() {
    let mut p = Position::new(Variant::English);
    assert_eq!(p.fullmove_number(), 1);
    play(&mut p, "11-15");
    assert_eq!(p.fullmove_number(), 1);
    play(&mut p, "23-19");
    assert_eq!(p.fullmove_number(), 2);
}

#[test]
fn illegal_play_is_refused() {
    let mut p = Position::new(Variant::International);
    let other = Position::new(Variant::English);
    let m = other.legal_moves().remove(0);
    let before = p.clone();
    assert!(p.play(&m).is_err());
    assert_eq!(p, before);
}

/// `must_capture` finds captures with masks, without the capture search: it must say
/// what the legal moves say in every variant, on positions of played-out games (kings,
/// flying or not, men that may or may not take backwards or take kings).
#[test]
fn must_capture_agrees_with_the_legal_moves() {
    for variant in Variant::ALL {
        for seed in 0..8u64 {
            let mut p = Position::new(variant);
            let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
            for _ in 0..200 {
                let legal = p.legal_moves();
                assert_eq!(
                    p.must_capture(),
                    legal.iter().any(|m| m.is_capture()),
                    "{variant:?}: {}",
                    p.to_fen()
                );
                if legal.is_empty() {
                    break;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let m = &legal[(state % legal.len() as u64) as usize];
                p.play(m).expect("a legal move");
            }
        }
    }
}

/// Where the capture is free, a shorter capture's full path also lies along a longer one:
/// the full path names the shorter capture, and every capture's written form reads back
/// to it (found by the property tests).
#[test]
fn full_path_names_a_capture_that_a_longer_one_passes_through() {
    let cases = [
        (Variant::Russian, "B:Wb2,d2,b4,d4,f4:Bc5", "c5:e3:g5"),
        (Variant::Thai, "W:WK18:B15,25,7", "18-11-2"),
        (
            Variant::Pool,
            "W:W19,20,23,24,25,26,28,32:B1,5,6,7,8,10,14,15,16",
            "20x11x4",
        ),
        (
            Variant::Spantsiretti,
            "B:Wg1,i1,b2,d2,f2,e3,b4,f4:Ba5,c5,j6,c7,i7,b8,d8,h8,j8",
            "a5:c3:a1",
        ),
    ];
    for (variant, fen, text) in cases {
        let p = pos(variant, fen);
        let (m, warnings) = p.parse_move(text).expect(text);
        assert_eq!(p.move_to_text_full(&m), text, "{variant:?}");
        assert!(warnings.is_empty(), "{variant:?}: {warnings:?}");
        for legal in p.legal_moves() {
            let (back, _) = p.parse_move(&p.move_to_text(&legal)).expect(fen);
            assert!(back.same_effect(&legal), "{variant:?}");
        }
    }
}
