//! Self-consistency along pseudo-random games in every variant: the bulk
//! perft agrees with playing the public moves, FENs round-trip, and every
//! legal move's text reads back as that move.

use pdn::{Position, Variant};

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Perft through the public API: legal_moves and play.
fn slow_perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    pos.legal_moves()
        .iter()
        .map(|m| {
            let mut next = pos.clone();
            next.play_unchecked(m);
            slow_perft(&next, depth - 1)
        })
        .sum()
}

#[test]
fn random_games() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut positions = 0;
    let mut with_kings = 0;
    for variant in Variant::ALL {
        for _game in 0..12 {
            let mut pos = Position::new(variant);
            for _ply in 0..160 {
                positions += 1;
                if pos.pieces().iter().any(|(_, p)| p.is_king()) {
                    with_kings += 1;
                }
                // FEN round trip (king-move counters are not part of FEN).
                let fen = pos.to_fen();
                let (back, warnings) =
                    Position::from_fen(pos.game_type(), &fen).expect("own FEN reads");
                assert!(warnings.is_empty(), "{variant} {fen}: {warnings:?}");
                assert_eq!(back.to_fen(), fen);

                let moves = pos.legal_moves();
                for m in &moves {
                    let short = pos.move_to_text(m);
                    let (read, warnings) = pos.parse_move(&short).expect("own text reads");
                    assert!(warnings.is_empty(), "{variant} {fen} {short}: {warnings:?}");
                    assert!(read.same_effect(m), "{variant} {fen} {short}");
                    let full = pos.move_to_text_full(m);
                    let (read, _) = pos.parse_move(&full).expect("full text reads");
                    assert!(read.same_effect(m), "{variant} {fen} {full}");
                }
                assert_eq!(pos.perft(2), slow_perft(&pos, 2), "{variant} {fen}");
                if moves.is_empty() {
                    assert!(pos.is_game_over());
                    break;
                }
                let m = &moves[rng.below(moves.len())];
                pos.play(m).expect("legal move plays");
            }
        }
    }
    assert!(positions > 10_000, "{positions}");
    assert!(with_kings > 1_000, "{with_kings}");
}

/// Reading a step written as PDN 3.0 writes it takes a fast path that does not list the
/// legal moves: it must find exactly the legal step, and nothing that is not one.
#[test]
fn steps_read_as_the_legal_moves_say() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for variant in Variant::ALL {
        for _game in 0..3 {
            let mut pos = Position::new(variant);
            for _ply in 0..120 {
                let moves = pos.legal_moves();
                let g = pos.geometry();
                let squares: Vec<_> = g.squares().collect();
                for &from in &squares {
                    if pos.piece_at(from).is_none_or(|p| p.color != pos.turn()) {
                        continue;
                    }
                    for &to in &squares {
                        let text = format!("{}-{}", g.name(from), g.name(to));
                        let step = moves
                            .iter()
                            .find(|m| !m.is_capture() && m.from() == from && m.to() == to);
                        match (pos.parse_move(&text), step) {
                            (Ok((read, warnings)), Some(step)) => {
                                assert_eq!(&read, step, "{variant} {} {text}", pos.to_fen());
                                assert!(warnings.is_empty());
                            }
                            (Ok((read, _)), None) => {
                                // Only a capture written with `-` may read.
                                assert!(read.is_capture(), "{variant} {} {text}", pos.to_fen());
                            }
                            (Err(_), Some(_)) => panic!("{variant} {} {text}", pos.to_fen()),
                            (Err(_), None) => {}
                        }
                    }
                }
                // Captures written by their ends read as the first legal move with
                // those ends and that effect.
                for m in moves.iter().filter(|m| m.is_capture()) {
                    let text = pos.move_to_text(m);
                    let (read, _) = pos.parse_move(&text).expect("own text reads");
                    let first = moves
                        .iter()
                        .find(|o| o.from() == m.from() && o.to() == m.to() && o.same_effect(m));
                    assert_eq!(Some(&read), first, "{variant} {} {text}", pos.to_fen());
                }
                if moves.is_empty() {
                    break;
                }
                let m = &moves[rng.below(moves.len())];
                pos.play(m).expect("legal move plays");
            }
        }
    }
}
