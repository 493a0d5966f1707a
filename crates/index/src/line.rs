//! A game's main line as a segment keeps it: how it starts, then its moves, about a byte
//! each ([`IndexRules::put_line_move`]), so that a query can play the game again.
//!
//! Why: most positions of a collection are reached by one game alone (in a million
//! lichess-like games, 59 million of 59.3 million). Keeping each under its whole key took
//! two thirds of an index's size. A segment keeps such rare positions as
//! [tails](crate::segment): the key's high 32 bits beside the game, and a query plays each
//! game that the 32 bits name through its kept line, keeping the plies whose whole key is
//! the one asked. A game whose line cannot be kept (set up from a FEN, a set-up inside its
//! moves, or rules that keep none: draughts) has its positions kept whole.

use crate::key::PositionKey;
use crate::rules::{IndexRules, MoveCode};

/// A line being written, while the game is walked.
pub(crate) struct LineWriter {
    bytes: Vec<u8>,
}

impl LineWriter {
    /// The line of a game from `start`, if the rules can keep it.
    pub(crate) fn new<R: IndexRules>(rules: &R, start: &R::Position) -> Option<LineWriter> {
        LineWriter::new_in(rules, start, Vec::with_capacity(96))
    }

    /// [`LineWriter::new`], written in `bytes` (emptied first), whose room is kept.
    pub(crate) fn new_in<R: IndexRules>(
        rules: &R,
        start: &R::Position,
        mut bytes: Vec<u8>,
    ) -> Option<LineWriter> {
        bytes.clear();
        rules
            .put_line_start(start, &mut bytes)
            .then_some(LineWriter { bytes })
    }

    /// Adds a move played from `position`.
    pub(crate) fn push<R: IndexRules>(&mut self, rules: &R, position: &R::Position, mv: &R::Move) {
        rules.put_line_move(position, mv, &mut self.bytes);
    }

    pub(crate) fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

/// Plays a kept line again and gives the move played from every ply whose position has
/// the key `wanted` ([`MoveCode::NONE`] at the line's end), in the order played; `None`
/// when the line does not read (a damaged segment).
pub(crate) fn plies_at<R: IndexRules>(
    rules: &R,
    mut bytes: &[u8],
    wanted: PositionKey,
    out: &mut Vec<MoveCode>,
) -> Option<()> {
    let mut position = rules.line_start(&mut bytes)?;
    while !bytes.is_empty() {
        let mv = rules.line_move(&position, &mut bytes)?;
        if rules.key(&position) == wanted {
            out.push(rules.move_code(&position, &mv));
        }
        rules.play(&mut position, &mv);
    }
    if rules.key(&position) == wanted {
        out.push(MoveCode::NONE);
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use notation::Rules;

    /// Games of pseudo-random legal moves (with promotions, castling and en passant along
    /// the way), from the start of every chess ruleset.
    fn random_games(seed: u64) -> Vec<(pgn::Position, Vec<pgn::Move>)> {
        let mut state = seed;
        let mut games = Vec::new();
        for ruleset in pgn::Ruleset::ALL {
            for _ in 0..40 {
                let start = pgn::Position::start(ruleset);
                let mut position = start;
                let mut moves = Vec::new();
                for _ in 0..160 {
                    let legal = position.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    let mv = legal[(state >> 33) as usize % legal.len()];
                    position.play_mut(&mv);
                    moves.push(mv);
                }
                games.push((start, moves));
            }
        }
        games
    }

    #[test]
    fn a_kept_line_plays_again_to_every_position_of_the_game() {
        let rules = pgn::ChessRules;
        let mut escaped = 0;
        let mut moves_kept = 0;
        for (start, moves) in random_games(7) {
            let mut line = LineWriter::new(&rules, &start).expect("a ruleset's start");
            let mut position = start;
            let mut keys = Vec::new();
            for mv in &moves {
                keys.push((rules.key(&position), rules.move_code(&position, mv)));
                let before = line.bytes.len();
                line.push(&rules, &position, mv);
                escaped += usize::from(line.bytes.len() - before > 1);
                rules.play(&mut position, mv);
            }
            keys.push((rules.key(&position), MoveCode::NONE));
            let bytes = line.into_bytes();
            moves_kept += moves.len();
            for &(key, _) in &keys {
                let mut found = Vec::new();
                plies_at(&rules, &bytes, key, &mut found).expect("the line reads");
                let expected: Vec<MoveCode> = keys
                    .iter()
                    .filter(|(k, _)| *k == key)
                    .map(|&(_, code)| code)
                    .collect();
                assert_eq!(found, expected);
            }
        }
        // Nearly every move takes one byte.
        assert!(
            escaped * 20 < moves_kept,
            "{escaped} of {moves_kept} moves escaped"
        );
    }

    #[test]
    fn a_game_set_up_from_a_fen_keeps_no_line() {
        let rules = pgn::ChessRules;
        let fen = "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/1PPBBPPP/R3K2R w KQkq - 0 1";
        let position = pgn::Position::from_fen(fen).expect("a FEN");
        assert!(LineWriter::new(&rules, &position).is_none());
        let draughts = pdn::DraughtsRules::new();
        let start = draughts
            .start_position(&draughts.setup_tags(None, None))
            .expect("the start")
            .position;
        assert!(LineWriter::new(&draughts, &start).is_none());
    }

    #[test]
    fn damaged_lines_do_not_read() {
        let rules = pgn::ChessRules;
        let wanted = rules.key(&pgn::Position::new());
        let mut out = Vec::new();
        // No ruleset 9; a byte above the escape; e2 to e5 is no move; a cut code.
        for bytes in [&[9_u8][..], &[0, 0xc5], &[0, 36], &[0, 0xc0, 1]] {
            assert!(
                plies_at(&rules, bytes, wanted, &mut out).is_none(),
                "{bytes:?}"
            );
        }
    }
}
