//! The reader, as a specification: what it reads, what it forgives and says, how it recovers.
#![allow(clippy::unwrap_used, missing_docs)]

mod common;

use common::Trickle;
use notation::{
    DiagnosticKind, GameReader, GameResult, LineId, Nag, RawMove, RawRules, ReadGame, ReadOptions,
    Reader, Severity, read_games,
};

fn read(input: &[u8]) -> Vec<ReadGame<RawMove>> {
    read_games(&RawRules::PGN, input, ReadOptions::default())
}

fn read_pdn(input: &[u8]) -> Vec<ReadGame<RawMove>> {
    read_games(&RawRules::PDN, input, ReadOptions::default())
}

fn moves(game: &ReadGame<RawMove>, line: LineId) -> Vec<&str> {
    game.game.moves(line).map(|n| n.mv.0.as_str()).collect()
}

fn kinds(game: &ReadGame<RawMove>) -> Vec<&DiagnosticKind> {
    game.diagnostics.iter().map(|d| &d.kind).collect()
}

const MODEL: &[u8] = br#"[Event "F/S Return Match"]
[Site "Belgrade, Serbia JUG"]
[Date "1992.11.04"]
[Round "29"]
[White "Fischer, Robert J."]
[Black "Spassky, Boris V."]
[Result "1/2-1/2"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {This opening is called the Ruy Lopez.} 4. Ba4 Nf6
5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. c4 c6 12.
cxb5 axb5 13. Nc3 Bb7 14. Bg5 b4 15. Nb1 h6 16. Bh4 c5 17. dxe5 Nxe4 18. Bxe7
Qxe7 19. exd6 Qf6 20. Nbd2 Nxd6 21. Nc4 Nxc4 22. Bxc4 Nb6 23. Ne5 Rae8 24.
Bxf7+ Rxf7 25. Nxf7 Rxe1+ 26. Qxe1 Kxf7 27. Qe3 Qg5 28. Qxg5 hxg5 29. b3 Ke6
30. a3 Kd6 31. axb4 cxb4 32. Ra5 Nd5 33. f3 Bc8 34. Kf2 Bf5 35. Ra7 g6 36.
Ra6+ Kc5 37. Ke1 Nf4 38. g3 Nxh3 39. Kd2 Kb5 40. Rd6 Kc5 41. Ra6 Nf2 42. g4
Bd3 43. Re6 1/2-1/2
"#;

#[test]
fn the_standards_model_game_reads_clean() {
    let games = read(MODEL);
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert!(g.diagnostics.is_empty(), "{:?}", g.diagnostics);
    assert_eq!(g.game.tags.len(), 7);
    assert_eq!(g.game.tags.get("Site"), Some("Belgrade, Serbia JUG"));
    assert_eq!(g.game.mainline().count(), 85);
    assert_eq!(g.game.result, GameResult::Draw);
    let a6 = g.game.line(LineId::MAIN).moves[5];
    assert_eq!(
        g.game.node(a6).comments,
        ["This opening is called the Ruy Lopez."]
    );
}

#[test]
fn byte_at_a_time_input_reads_the_same() {
    let input = [MODEL, b"\n", MODEL, b"{x} 1. d4 (1. c4 $1) d5 *"].concat();
    let whole = read(&input);
    let trickled = read_games(&RawRules::PGN, Trickle(&input), ReadOptions::default());
    assert_eq!(whole.len(), 3);
    assert_eq!(trickled.len(), 3);
    for (a, b) in whole.iter().zip(&trickled) {
        assert_eq!(a.game, b.game);
        assert_eq!(a.diagnostics, b.diagnostics);
        assert_eq!(a.span, b.span);
    }
}

#[test]
fn variations_nest_and_attach_to_the_move_they_replace() {
    let g = &read(b"1. e4 (1. d4 d5 (1... Nf6 2. c4)) 1... e5 *")[0];
    assert_eq!(moves(g, LineId::MAIN), ["e4", "e5"]);
    let e4 = g.game.line(LineId::MAIN).moves[0];
    let d4_line = g.game.node(e4).variations[0];
    assert_eq!(moves(g, d4_line), ["d4", "d5"]);
    let d5 = g.game.line(d4_line).moves[1];
    assert_eq!(moves(g, g.game.node(d5).variations[0]), ["Nf6", "c4"]);
}

#[test]
fn suffix_annotations_become_glyphs() {
    let g = &read(b"1. e4! e5? 2. Nf3!! Nc6?? 3. Bb5!? a6?! $14 *")[0];
    let nags: Vec<Vec<Nag>> = g.game.mainline().map(|n| n.nags.clone()).collect();
    assert_eq!(
        nags,
        [
            vec![Nag(1)],
            vec![Nag(2)],
            vec![Nag(3)],
            vec![Nag(4)],
            vec![Nag(5)],
            vec![Nag(6), Nag(14)]
        ]
    );
}

#[test]
fn a_game_with_a_missing_marker_takes_the_result_tag() {
    let games = read(b"[Result \"1-0\"]\n\n1. e4 e5\n[Result \"0-1\"]\n\n1. d4 0-1\n");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].game.result, GameResult::FirstWins);
    assert!(matches!(
        kinds(&games[0])[..],
        [DiagnosticKind::MissingResult { .. }]
    ));
    assert_eq!(games[1].game.result, GameResult::SecondWins);
}

#[test]
fn games_without_a_blank_line_between_them() {
    let games = read(b"[Event \"a\"]\n\n1. e4 *\n[Event \"b\"]\n\n1. d4 *\n");
    assert_eq!(games.len(), 2);
    assert!(matches!(
        kinds(&games[1])[..],
        [DiagnosticKind::MissingBlankLine]
    ));
}

#[test]
fn blank_line_inside_tags_versus_a_game_without_movetext() {
    let games = read(b"[Event \"a\"]\n\n[Site \"s\"]\n\n1. e4 *\n");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].game.tags.len(), 2);
    assert!(matches!(
        kinds(&games[0])[..],
        [DiagnosticKind::BlankLineInTags]
    ));

    let games = read(b"[Event \"a\"]\n[Result \"1-0\"]\n\n[Event \"b\"]\n\n1. e4 *\n");
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].game.result, GameResult::FirstWins);
    assert!(matches!(kinds(&games[0])[..], [DiagnosticKind::NoMovetext]));
    assert_eq!(moves(&games[1], LineId::MAIN), ["e4"]);
}

#[test]
fn bom_crlf_lone_cr_and_tabs_are_noted_once() {
    let games =
        read(b"\xef\xbb\xbf[Event \"a\"]\r\n\r\n1.\te4 *\r\n\r\n[Event \"b\"]\r\r1. d4 *\r");
    assert_eq!(games.len(), 2);
    assert!(matches!(
        kinds(&games[0])[..],
        [DiagnosticKind::ByteOrderMark, DiagnosticKind::Tab]
    ));
    assert!(matches!(
        kinds(&games[1])[..],
        [DiagnosticKind::LoneCarriageReturn]
    ));
    let d = &games[1].diagnostics[0];
    assert_eq!((d.location.line, d.location.column), (7, 1));
}

#[test]
fn odd_tags_are_read_and_reported() {
    let g = &read(
        b"[white \"A\"]\n[Black-Elo \"2000\"]\n[Result 1-0]\n[Site \"Foo]\n[Round]\n\n1. e4 1-0",
    )[0];
    assert_eq!(g.game.tags.get("White"), Some("A"));
    assert_eq!(g.game.tags.get("Black-Elo"), Some("2000"));
    assert_eq!(g.game.tags.get("Result"), Some("1-0"));
    assert_eq!(g.game.tags.get("Site"), Some("Foo"));
    assert!(matches!(
        kinds(g)[..],
        [
            DiagnosticKind::TagNameCase { .. },
            DiagnosticKind::OddTagName { .. },
            DiagnosticKind::UnquotedTagValue { .. },
            DiagnosticKind::UnterminatedString,
            DiagnosticKind::MissingTagValue { .. },
        ]
    ));
}

#[test]
fn latin1_values_are_decoded_and_kept_raw() {
    let g = &read(b"[White \"R\xe9ti\"]\n\n{Caf\xe9} 1. e4 *")[0];
    let tag = g.game.tags.find("White").unwrap();
    assert_eq!(tag.value, "Réti");
    assert_eq!(tag.raw.as_deref(), Some(&b"R\xe9ti"[..]));
    assert_eq!(g.game.line(LineId::MAIN).comments, ["Café"]);
    assert!(kinds(g).iter().all(|k| **k == DiagnosticKind::NotUtf8));
}

#[test]
fn unterminated_comment_does_not_swallow_the_next_game() {
    let games = read(b"[Event \"a\"]\n\n1. e4 {oops 1-0\n\n[Event \"b\"]\n\n1. d4 *\n");
    assert_eq!(games.len(), 2);
    assert_eq!(
        games[0].diagnostics[0].kind,
        DiagnosticKind::UnterminatedComment
    );
    assert_eq!(games[0].diagnostics[0].severity, Severity::Error);
    assert_eq!(moves(&games[1], LineId::MAIN), ["d4"]);
}

#[test]
fn unterminated_things_at_end_of_input() {
    for input in [&b"1. e4 {no end"[..], b"[Event \"no end", b"1. e4 (1. d4"] {
        let games = read(input);
        assert_eq!(games.len(), 1, "{:?}", String::from_utf8_lossy(input));
        assert!(!games[0].diagnostics.is_empty());
    }
    // A tag cut off before its value is no game, and is said so.
    let mut reader =
        notation::GameReader::new(&RawRules::PGN, &b"[Event"[..], ReadOptions::default());
    assert!(reader.next().is_none());
    assert!(!reader.take_orphans().is_empty());
}

#[test]
fn stray_wrappers_belong_to_no_game() {
    let mut reader = notation::GameReader::new(
        &RawRules::PGN,
        &b"[pgn] 1. e4 e5 [/pgn]"[..],
        ReadOptions::default(),
    );
    let games: Vec<_> = (&mut reader).map(Result::unwrap).collect();
    assert_eq!(games.len(), 1);
    assert_eq!(moves(&games[0], LineId::MAIN), ["e4", "e5"]);
    let orphans = reader.take_orphans();
    assert!(
        orphans
            .iter()
            .any(|d| matches!(d.kind, DiagnosticKind::OutsideGame(_)))
    );
}

#[test]
fn empty_input_is_reported() {
    let mut reader =
        notation::GameReader::new(&RawRules::PGN, &b"\n\n"[..], ReadOptions::default());
    assert!(reader.next().is_none());
    assert_eq!(reader.take_orphans()[0].kind, DiagnosticKind::EmptyInput);
}

#[test]
fn deep_nesting_needs_no_recursion() {
    let depth = 100_000;
    let mut input = b"1. e4 ".to_vec();
    for _ in 0..depth {
        input.extend_from_slice(b"(1. d4 ");
    }
    input.extend(std::iter::repeat_n(b')', depth));
    input.extend_from_slice(b" *");
    let games = read(&input);
    assert_eq!(games[0].game.line_count(), depth + 1);
    // A game with no tags, on one line of 700 KB: that is all there is to say.
    assert!(games[0].diagnostics.iter().all(|d| matches!(
        d.kind,
        DiagnosticKind::NoTags | DiagnosticKind::LongLine { .. }
    )));
}

#[test]
fn move_numbers_in_every_form() {
    let g = &read(b"1.e4 1... e5 2 . Nf3 2 ... Nc6 3 Bb5 *")[0];
    assert_eq!(moves(g, LineId::MAIN), ["e4", "e5", "Nf3", "Nc6", "Bb5"]);
}

#[test]
fn lenient_markers_and_evaluation_symbols() {
    let games = read("1. e4 ½-½\n\n1. d4 += 1–0".as_bytes());
    assert_eq!(games[0].game.result, GameResult::Draw);
    assert_eq!(games[1].game.result, GameResult::FirstWins);
    assert_eq!(games[1].game.mainline().next().unwrap().nags, [Nag(14)]);
}

#[test]
fn strict_mode_turns_every_forgiveness_into_an_error() {
    let games = read_games(&RawRules::PGN, &b"1. e4 e5"[..], ReadOptions::strict());
    assert!(
        games[0]
            .diagnostics
            .iter()
            .all(|d| d.severity == Severity::Error)
    );
    assert!(games[0].has_errors());
}

#[test]
fn locations_count_lines_and_characters() {
    let g = &read("[Event \"é\"]\n\n1. e4 é5 $300 *".as_bytes())[0];
    let d = g
        .diagnostics
        .iter()
        .find(|d| matches!(d.kind, DiagnosticKind::NagOutOfRange(300)))
        .unwrap();
    assert_eq!((d.location.line, d.location.column), (3, 10));
}

#[test]
fn pdn_dialect_tokens() {
    let games = read_pdn(b"1. 32-28 19-23* 2. 28x19 14x23 (2... 13x24!) 1-1\n1-10 2-0\n");
    assert_eq!(games.len(), 2);
    assert_eq!(
        moves(&games[0], LineId::MAIN),
        ["32-28", "19-23", "28x19", "14x23"]
    );
    assert_eq!(games[0].game.mainline().nth(1).unwrap().nags, [Nag::FORCED]);
    assert_eq!(games[0].game.result, GameResult::DrawTwo);
    assert_eq!(moves(&games[1], LineId::MAIN), ["1-10"]);
    assert_eq!(games[1].game.result, GameResult::FirstWinsTwo);
    assert!(games.iter().all(|g| g.diagnostics.is_empty()));
}

#[test]
fn pdn_inline_setup_and_separator() {
    let games = read_pdn(b"/FEN \"W:W31:B1\"/ 31-27 1-5 *\n1. 32-28 *");
    assert_eq!(games.len(), 2);
    assert_eq!(
        games[0].game.line(LineId::MAIN).setup.as_deref(),
        Some("FEN \"W:W31:B1\"")
    );
}

#[test]
fn broken_games_keep_their_raw_text() {
    let input = b"[Event \"a\"]\n\n1. e4 {open\n\n[Event \"b\"]\n\n1. d4 *\n";
    let games = read(input);
    assert_eq!(
        games[0].raw.as_deref(),
        Some(&b"[Event \"a\"]\n\n1. e4 {open\n\n"[..])
    );
    assert_eq!(games[1].raw, None);
}

#[test]
fn huge_games_are_skipped_and_reported() {
    let mut input = b"[Event \"big\"]\n\n1. e4 {".to_vec();
    input.extend(std::iter::repeat_n(b'x', 200_000));
    input.extend_from_slice(b"} *\n\n[Event \"small\"]\n\n1. d4 *\n");
    let options = ReadOptions {
        max_game_bytes: 100_000,
        ..ReadOptions::default()
    };
    let games = read_games(&RawRules::PGN, &input[..], options);
    assert!(
        games[0]
            .diagnostics
            .iter()
            .any(|d| matches!(d.kind, DiagnosticKind::GameTooLarge { .. }))
    );
    assert_eq!(games.last().unwrap().game.tags.get("Event"), Some("small"));
}

/// The moves read of a game before the reader gave up holding it are not the game: kept,
/// they would pass for a shorter game. It holds its tags and result only, and is not
/// written from its text, which is not there.
#[test]
fn a_game_too_large_to_hold_is_its_tags_and_result_alone() {
    let mut input = b"[Event \"big\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 {".to_vec();
    input.extend(std::iter::repeat_n(b'x', 200_000));
    input.extend_from_slice(b"} a6 1-0\n\n[Event \"small\"]\n\n1. d4 *\n");
    let options = ReadOptions {
        max_game_bytes: 100_000,
        ..ReadOptions::default()
    };
    for large_after in [u64::MAX, 0] {
        let games: Vec<_> = GameReader::new(&RawRules::PGN, &input[..], options)
            .large_after(large_after)
            .map(Result::unwrap)
            .collect();
        let big = &games[0];
        assert!(!big.held);
        assert!(!big.streams);
        assert_eq!(big.game.tags.get("Event"), Some("big"));
        assert_eq!(big.game.result, GameResult::FirstWins);
        assert_eq!(big.game.node_count(), 0);
        assert!(big.game.tail.is_none());
        let small = &games[1];
        assert!(small.held);
        assert_eq!(small.game.node_count(), usize::from(large_after != 0));
    }
}

/// Games read from a reader that took `input` over as its buffer ([`Reader::from_vec`]),
/// then `rest` from a stream.
fn read_in_place(
    input: &[u8],
    rest: &[u8],
    cut_short: bool,
    options: ReadOptions,
) -> (Vec<ReadGame<RawMove>>, Vec<notation::Diagnostic>) {
    let mut reader = Reader::from_vec(rest, input.to_vec(), notation::Dialect::PGN, options);
    if cut_short {
        reader = reader.cut_short();
    }
    let mut games = GameReader::from_reader(&RawRules::PGN, reader);
    let mut out = Vec::new();
    while let Some(game) = games.read_game().unwrap() {
        out.push(game);
    }
    let orphans = games.take_orphans();
    (out, orphans)
}

#[test]
fn bytes_read_in_place_read_as_a_stream_of_them() {
    let mut big = b"[Event \"big\"]\n\n1. e4 {".to_vec();
    big.extend(std::iter::repeat_n(b'x', 300_000));
    big.extend_from_slice(b"} e5 *\n\n");
    let inputs: [&[u8]; 4] = [
        b"\xef\xbb\xbf[Event \"a\"]\r\n\r\n1. e4 {open\n\n[Event \"b\"]\n\n1. d4 *\n",
        b"1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n{after}",
        &big,
        b"",
    ];
    for limit in [256 << 20, 100_000] {
        let options = ReadOptions {
            max_game_bytes: limit,
            ..ReadOptions::default()
        };
        for input in inputs {
            let mut whole = input.to_vec();
            whole.extend_from_slice(b"[Event \"last\"]\n\n1. c4 *\n");
            let streamed = read_games(&RawRules::PGN, &whole[..], options);
            let (in_place, _) = read_in_place(&whole, b"", false, options);
            assert_eq!(format!("{streamed:?}"), format!("{in_place:?}"));
            // The same bytes, the first ones in place and the others from the stream.
            let (in_place, _) =
                read_in_place(input, b"[Event \"last\"]\n\n1. c4 *\n", false, options);
            assert_eq!(format!("{streamed:?}"), format!("{in_place:?}"));
        }
    }
}

#[test]
fn the_bytes_of_the_game_just_read_are_its_raw_text() {
    let mut big = b"[Event \"big\"]\n\n1. e4 {".to_vec();
    big.extend(std::iter::repeat_n(b'y', 200_000));
    big.extend_from_slice(b"} e5 *\n\n");
    let inputs: [&[u8]; 3] = [
        b"\xef\xbb\xbf[Event \"a\"]\r\n\r\n1. e4 {open\n\n[Event \"b\"]\n\n1. d4 *\n{after}",
        b"1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n[A \"b\"] 1. e4 (",
        &big,
    ];
    for input in inputs {
        let mut games = GameReader::new(&RawRules::PGN, input, ReadOptions::default())
            .keep_raw(notation::KeepRaw::Always);
        let mut n = 0;
        while let Some(game) = games.read_game().unwrap() {
            assert_eq!(games.buffered(game.span), game.raw.as_deref());
            n += 1;
        }
        assert!(n >= 1);
    }
}

#[test]
fn bytes_cut_short_report_the_game_they_cut_and_read_on() {
    let held = b"[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 {a very long";
    let rest = b" comment\n[Event \"c\"]\n\n1. c4 *\n";
    let (games, _) = read_in_place(held, rest, true, ReadOptions::default());
    let events: Vec<_> = games.iter().map(|g| g.game.tags.get("Event")).collect();
    assert_eq!(events, [Some("a"), Some("b"), Some("c")]);
    let lost = &games[1];
    assert_eq!(
        kinds(lost),
        [&DiagnosticKind::GameOutOfMemory { held: 31 }],
        "{lost:?}"
    );
    assert_eq!(lost.diagnostics[0].severity, Severity::Error);
    assert_eq!(lost.diagnostics[0].location.line, 5);
    // What was held is not the game as written: no raw text is kept for it.
    assert_eq!(lost.raw.as_deref(), Some(&b""[..]));
    assert!(kinds(&games[0]).is_empty() && kinds(&games[2]).is_empty());
}

#[test]
fn unparsable_tag_values_are_kept_with_a_warning() {
    let g = &read(b"[Date \"1992.13.45\"]\n[Round \"3.1\"]\n[WhiteElo \"strong\"]\n\n1. e4 *")[0];
    assert_eq!(g.game.tags.get("Date"), Some("1992.13.45"));
    let names: Vec<_> = g
        .diagnostics
        .iter()
        .map(|d| match &d.kind {
            DiagnosticKind::BadTagValue { name, .. } => name.as_str(),
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    assert_eq!(names, ["Date", "WhiteElo"]);
    assert_eq!(g.diagnostics[1].location.line, 3);
}

/// A file written by a draughts program that writes each carriage return out as the two
/// characters `\r`: before every line end but the first tag's, and alone on a line.
const LITERAL_CR: &[u8] = b"[Event \"Open\"]\n[Site \"Montpellier\"]\\r\n[Result \"2-0\"]\\r\n\\r\n\
1. 32-28 19-23 2. 28x19\\r\n14x23 2-0\\r\n\\r\n[Event \"Open\"]\n[Result \"*\"]\\r\n\\r\n1. 33-28\\r\n*\\r\n";

#[test]
fn a_literal_cr_before_a_line_end_is_read_as_the_line_end_with_one_warning() {
    let games = read_pdn(LITERAL_CR);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].game.tags.get("Site"), Some("Montpellier"));
    assert_eq!(games[0].game.tags.get("Result"), Some("2-0"));
    assert_eq!(
        moves(&games[0], LineId::MAIN),
        ["32-28", "19-23", "28x19", "14x23"]
    );
    assert_eq!(games[0].game.result, GameResult::FirstWinsTwo);
    assert_eq!(moves(&games[1], LineId::MAIN), ["33-28"]);
    assert_eq!(games[1].game.result, GameResult::Unknown);
    // Once per input, where it is first seen; nothing else is forgiven.
    assert!(matches!(
        kinds(&games[0])[..],
        [DiagnosticKind::LiteralCarriageReturn]
    ));
    let d = &games[0].diagnostics[0];
    assert_eq!((d.location.line, d.location.column), (2, 21));
    assert!(games[1].diagnostics.is_empty());
    // Across buffer edges too.
    let trickled = read_games(&RawRules::PDN, Trickle(LITERAL_CR), ReadOptions::default());
    for (a, b) in games.iter().zip(&trickled) {
        assert_eq!((&a.game, &a.diagnostics), (&b.game, &b.diagnostics));
    }
    // PGN too; a strict reader calls it an error.
    let pgn = b"[Event \"x\"]\\r\n\\r\n1. e4 e5\\r\n2. Nf3 *\\r\n";
    let games = read_games(&RawRules::PGN, &pgn[..], ReadOptions::strict());
    assert_eq!(moves(&games[0], LineId::MAIN), ["e4", "e5", "Nf3"]);
    assert!(matches!(
        kinds(&games[0])[..],
        [DiagnosticKind::LiteralCarriageReturn]
    ));
    assert!(games[0].has_errors());
}

#[test]
fn a_lone_dash_is_an_unknown_result_where_the_next_game_or_the_end_follows() {
    // Federation files: `[Result "-"]` and a lone `-` after the last move, no blank lines.
    let input = b"[Result \"-\"]\n1.32-28 19-23 2.28x19 14x23 -\n[Result \"-\"]\n1.33-28 -";
    let games = read_pdn(input);
    assert_eq!(games.len(), 2);
    for game in &games {
        assert_eq!(game.game.result, GameResult::Unknown);
        assert!(matches!(
            kinds(game)[..],
            [
                DiagnosticKind::BadTagValue { .. },
                DiagnosticKind::LenientResult { .. }
            ]
        ));
    }
    assert_eq!(moves(&games[1], LineId::MAIN), ["33-28"]);
    assert_eq!(
        games[0].diagnostics[1].to_string(),
        "2:29: warning: non-standard termination marker -; read as * (game 1)"
    );
    // Across buffer edges too: what follows a `-` is looked at as more input comes.
    let trickled = read_games(&RawRules::PDN, Trickle(input), ReadOptions::default());
    for (a, b) in games.iter().zip(&trickled) {
        assert_eq!((&a.game, &a.diagnostics), (&b.game, &b.diagnostics));
    }
    let with_cr = b"1.33-28 - \\r\n\\r\n[Result \"*\"]\n1.32-28 *";
    let trickled = read_games(&RawRules::PDN, Trickle(with_cr), ReadOptions::default());
    assert_eq!(trickled.len(), 2);
    assert_eq!(trickled[0].game.result, GameResult::Unknown);
    assert_eq!(read_pdn(with_cr)[0].diagnostics, trickled[0].diagnostics);
    // Strictly, both are errors.
    let strict = read_games(&RawRules::PDN, &input[..], ReadOptions::strict());
    assert!(
        strict
            .iter()
            .all(|g| g.diagnostics.iter().all(|d| d.severity == Severity::Error))
    );
    // Anywhere else a `-` is no result: the game goes on (it is a move token here).
    let g = &read(b"1. e4 - e5 (1. d4 -) *")[0];
    assert_eq!(moves(g, LineId::MAIN), ["e4", "-", "e5"]);
    assert_eq!(g.game.result, GameResult::Unknown);
}

#[test]
fn bytes_that_are_the_whole_input_are_read_where_they_are() {
    // A chunk of a larger input read on its own: read as a stream of those bytes reads
    // it, and its buffer is handed back as it was given, neither grown nor moved.
    let mut text = Vec::with_capacity(4096);
    for i in 0..40 {
        text.extend_from_slice(
            format!("[Event \"{i}\"]\n\n1. e4 e5 2. Nf3 {{a}} Nc6 *\n\n").as_bytes(),
        );
    }
    let streamed = read(&text);
    let (capacity, pointer) = (text.capacity(), text.as_ptr());
    let reader = Reader::from_vec(
        std::io::empty(),
        text,
        notation::Dialect::PGN,
        ReadOptions::default(),
    )
    .ends_with_bytes();
    let mut games = GameReader::from_reader(&RawRules::PGN, reader);
    let mut read_here = Vec::new();
    while let Some(game) = games.read_game().unwrap() {
        read_here.push(game);
    }
    assert_eq!(format!("{streamed:?}"), format!("{read_here:?}"));
    let buffer = games.into_reader().into_vec();
    assert_eq!((buffer.capacity(), buffer.as_ptr()), (capacity, pointer));
}

#[test]
fn a_game_says_whether_its_movetext_ended_with_a_marker() {
    let games = read(
        b"[Result \"1-0\"]\n\n1. e4 1-0\n\n[Result \"1-0\"]\n\n1. e4\n\n[Round \"3\"]\n\n1. d4 *\n",
    );
    let marked: Vec<(bool, GameResult)> = games.iter().map(|g| (g.marked, g.game.result)).collect();
    assert_eq!(
        marked,
        [
            (true, GameResult::FirstWins),
            (false, GameResult::FirstWins),
            (true, GameResult::Unknown)
        ]
    );
    // PDN says nothing of a missing marker: the game says it still.
    let games = read_pdn(b"[Result \"2-0\"]\n\n1. 32-28\n\n[Result \"2-0\"]\n\n1. 32-28 2-0\n");
    let marked: Vec<bool> = games.iter().map(|g| g.marked).collect();
    assert_eq!(marked, [false, true]);
    assert!(
        games
            .iter()
            .all(|g| g.game.result == GameResult::FirstWinsTwo)
    );
}

#[test]
fn a_game_whose_tags_are_not_wanted_is_passed_over() {
    let input: &[u8] = b"[White \"Carlsen\"]\n\n1. e4 {a comment} e5 (1... c5) 1-0\n\n\
        [White \"Anand\"]\n\n1. d4 d5 $1 2. c4 {x} 1/2-1/2\n\n\
        [White \"Carlsen\"]\n\n1. c4 *\n";
    let wanted = |tags: &notation::RawTags| tags.get("White").as_deref() == Some("Carlsen");
    let reader = Reader::new(input, notation::Dialect::PGN, ReadOptions::default());
    let mut games = GameReader::from_reader(&RawRules::PGN, reader).movetext_only_if(&wanted);
    let mut read = Vec::new();
    while let Some(game) = games.read_game().unwrap() {
        read.push(game);
    }
    let outline: Vec<(bool, Vec<&str>, GameResult)> = read
        .iter()
        .map(|g| (g.passed_over, moves(g, LineId::MAIN), g.game.result))
        .collect();
    assert_eq!(
        outline,
        [
            (false, vec!["e4", "e5"], GameResult::FirstWins),
            // Nothing of it is kept: not its tags, its moves, comments and variations.
            (true, vec![], GameResult::Unknown),
            (false, vec!["c4"], GameResult::Unknown),
        ]
    );
    assert!(read[1].game.tags.is_empty());
    assert_eq!(
        (read[1].game.node_count(), read[1].game.line_count()),
        (0, 1)
    );
    assert!(read.iter().all(|g| g.diagnostics.is_empty()));
    assert_eq!(read[2].index, 2);
    // The games wanted are read whole, as without a filter.
    let whole = read_games(&RawRules::PGN, input, ReadOptions::default());
    assert_eq!(format!("{:?}", read[0]), format!("{:?}", whole[0]));
    assert_eq!(format!("{:?}", read[2]), format!("{:?}", whole[2]));
}

/// A source that gives `good` bytes of `text`, a few at a time, then fails.
struct FailsAfter<'a> {
    text: &'a [u8],
    good: usize,
}

impl std::io::Read for FailsAfter<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.good == 0 {
            return Err(std::io::Error::other("the disk failed"));
        }
        let n = buf.len().min(self.good).min(7);
        buf[..n].copy_from_slice(&self.text[..n]);
        self.text = &self.text[n..];
        self.good -= n;
        Ok(n)
    }
}

#[test]
fn an_input_that_fails_gives_its_games_and_the_one_it_cut_then_the_error() {
    let text = b"[Event \"1\"]\n\n1. e4 e5 1-0\n\n[Event \"2\"]\n\n1. d4 d5 2. c4 0-1\n";
    // Cut in the second game's moves: the first whole, the second up to the cut, then
    // the error; as a reader of the bytes before the cut reads them.
    let cut = text.len() - 12;
    let mut reader = GameReader::new(
        &RawRules::PGN,
        FailsAfter { text, good: cut },
        ReadOptions::default(),
    );
    let first = reader.next().expect("a game").expect("read");
    assert_eq!(moves(&first, LineId::MAIN), ["e4", "e5"]);
    assert!(reader.input_error().is_none());
    let second = reader.next().expect("a game").expect("read");
    let before_the_cut = read(&text[..cut]);
    assert_eq!(moves(&second, LineId::MAIN), ["d4", "d"]);
    assert_eq!(
        moves(&second, LineId::MAIN),
        moves(&before_the_cut[1], LineId::MAIN)
    );
    assert_eq!(second.diagnostics, before_the_cut[1].diagnostics);
    // The game the error cut says so before the error is given.
    assert!(reader.input_error().is_some());
    let error = reader.next().expect("the error").expect_err("an error");
    assert_eq!(error.to_string(), "the disk failed");
    assert!(reader.next().is_none());
}
