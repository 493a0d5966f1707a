//! A position as `notate select --position` gives it — pieces on squares and, when said,
//! the side to move — looked up in an index: the keys of every position that has it, and
//! the games that reached one of them (`select --index`).
//!
//! The index knows a position by all of it (castling rights, a legal en-passant capture,
//! three-check's counters, the ruleset or the draughts game type), a placement by none of
//! that: so every position that a game of the index could have reached with that
//! placement is set up and looked up — each side to move (unless said), every castling
//! right the placement leaves possible, every en-passant square it does, every count of
//! checks, in each ruleset (or game type) the inputs hold. Crazyhouse is the exception: its
//! positions hold pieces in hand, which a placement says nothing of and which cannot be
//! counted out, so that an index of crazyhouse games cannot answer a placement.

use std::collections::BTreeSet;

use collection::select::{Boards, ChessPattern};
use pgn::fen::{CastlingToken, Setup};
use pgn::{Bitboard, ByColor, CastlingMode, Color, Position, Rank, Role, Ruleset, Square};

use crate::error::IndexError;
use crate::key::{self, PositionKey};
use crate::query::Index;
use crate::record::GameId;
use crate::rules::Game;

impl Index {
    /// The games of the index that reached a position with the placement `pattern` (a
    /// FEN as `select --position` reads it: chess, placement and side to move, or the
    /// placement alone for either side; draughts, either square notation, `?` for either
    /// side, read in each game's game type), among the positions of the games of the
    /// `kinds` given ([`SourceEntry::kinds`](crate::manifest::SourceEntry::kinds)), in the
    /// order they were indexed; `None` when `pattern` is not a FEN of the index's game.
    ///
    /// Every game that has such a position is among them (and, but for a collision of
    /// keys, only those: a caller that must be exact checks the games it reads again).
    ///
    /// # Errors
    /// Crazyhouse among the kinds ([`IndexError::Query`]), a kind that does not read, a
    /// damaged index.
    pub fn find_placement(
        &self,
        pattern: &str,
        kinds: &[String],
    ) -> Result<Option<Vec<GameId>>, IndexError> {
        let keys = match self.game() {
            Game::Chess => {
                let Ok(pattern) = pgn::ChessRules.pattern(pattern) else {
                    return Ok(None);
                };
                chess_keys(&pattern, &rulesets(kinds)?)
            }
            Game::Draughts => {
                let rules = collection::rules::draughts(None);
                let Ok(pattern) = rules.pattern(pattern) else {
                    return Ok(None);
                };
                let mut keys = BTreeSet::new();
                for kind in kinds {
                    let game_type: pdn::GameType = kind.parse().map_err(|e| {
                        IndexError::Input(format!("the index lists a game type {kind:?}: {e}"))
                    })?;
                    let start =
                        pdn::PdnPosition::new(pdn::Position::empty(game_type, pdn::Color::White));
                    // A FEN no game of this type reads: no game of it matches.
                    let Some(ready) = rules.ready(&pattern, &start) else {
                        continue;
                    };
                    let turns = match ready.turn() {
                        Some(turn) => vec![turn],
                        None => vec![pdn::Color::White, pdn::Color::Black],
                    };
                    for turn in turns {
                        let pieces = ready.pieces().iter().copied();
                        if let Ok(position) = pdn::Position::from_pieces(game_type, turn, pieces) {
                            keys.insert(key::draughts(&position));
                        }
                    }
                }
                keys
            }
        };
        let mut games = Vec::new();
        for key in keys {
            games.extend(self.find(key)?);
        }
        games.sort_unstable();
        games.dedup();
        Ok(Some(games))
    }
}

/// The rulesets the kinds name; crazyhouse is refused.
fn rulesets(kinds: &[String]) -> Result<Vec<Ruleset>, IndexError> {
    let mut rulesets = Vec::new();
    for kind in kinds {
        let ruleset = Ruleset::ALL
            .into_iter()
            .find(|r| r.name() == kind)
            .ok_or_else(|| IndexError::Input(format!("the index lists a ruleset {kind:?}")))?;
        if ruleset == Ruleset::Crazyhouse {
            return Err(IndexError::Query(
                "the index holds crazyhouse games, whose positions it knows with the pieces in \
                 hand, which a placement does not say: select them without --index"
                    .into(),
            ));
        }
        rulesets.push(ruleset);
    }
    Ok(rulesets)
}

/// The keys of every position with the pattern's placement (and side to move, if said) in
/// the rulesets: each that can be set up.
fn chess_keys(pattern: &ChessPattern, rulesets: &[Ruleset]) -> BTreeSet<PositionKey> {
    let board = *pattern.board();
    let turns = match pattern.turn() {
        Some(turn) => vec![turn],
        None => vec![Color::White, Color::Black],
    };
    let mut keys = BTreeSet::new();
    for &ruleset in rulesets {
        let checks: Vec<Option<ByColor<u8>>> = if ruleset == Ruleset::ThreeCheck {
            (0..16)
                .map(|n| {
                    Some(ByColor {
                        white: n / 4,
                        black: n % 4,
                    })
                })
                .collect()
        } else {
            vec![None]
        };
        let castlings = castlings(&board, ruleset);
        for &turn in &turns {
            for ep_square in ep_squares(&board, turn) {
                for castling in &castlings {
                    for &remaining_checks in &checks {
                        let setup = Setup {
                            board,
                            turn,
                            castling: castling.clone(),
                            ep_square,
                            halfmoves: 0,
                            fullmoves: 1,
                            pockets: None,
                            promoted: Bitboard::EMPTY,
                            remaining_checks,
                        };
                        // A set-up refused is no position a game reaches.
                        if let Ok(position) =
                            Position::from_setup_in(ruleset, &setup, CastlingMode::Chess960)
                        {
                            keys.insert(key::chess(&position));
                        }
                    }
                }
            }
        }
    }
    keys
}

/// Every set of castling rights the placement leaves possible: for each side, none or a
/// rook of its first rank on either side of its king there (Chess960's rights name the
/// rook, and a standard game's are among them).
fn castlings(board: &pgn::Board, ruleset: Ruleset) -> Vec<Vec<CastlingToken>> {
    let mut sets: Vec<Vec<CastlingToken>> = vec![Vec::new()];
    if !ruleset.castles() {
        return sets;
    }
    for color in [Color::White, Color::Black] {
        let backrank = Bitboard::backrank(color);
        let Some(king) = board.king_of(color).filter(|k| backrank.contains(*k)) else {
            continue;
        };
        let rooks = board.by_piece(Role::Rook.of(color)) & backrank;
        let sides: [Vec<Square>; 2] = [
            rooks.filter(|r| r.file() > king.file()).collect(),
            rooks.filter(|r| r.file() < king.file()).collect(),
        ];
        for side in sides {
            let mut more = Vec::new();
            for set in &sets {
                more.push(set.clone());
                for rook in &side {
                    let mut with = set.clone();
                    with.push(CastlingToken::File(color, rook.file()));
                    more.push(with);
                }
            }
            sets = more;
        }
    }
    sets
}

/// Every en-passant square the placement leaves possible with `turn` to move (a pawn of
/// the other side that may have just come two squares, past an empty square), and none.
fn ep_squares(board: &pgn::Board, turn: Color) -> Vec<Option<Square>> {
    let mut squares = vec![None];
    let occupied = board.occupied();
    let pawns = board.by_piece(Role::Pawn.of(!turn));
    for file in pgn::File::ALL {
        let ep = Square::from_coords(file, Rank::Sixth.relative_to(turn));
        let from = Square::from_coords(file, Rank::Seventh.relative_to(turn));
        let pushed = Square::from_coords(file, Rank::Fifth.relative_to(turn));
        if !occupied.contains(ep) && !occupied.contains(from) && pawns.contains(pushed) {
            squares.push(Some(ep));
        }
    }
    squares
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> pgn::Board {
        Setup::from_fen(fen).expect("a FEN").board
    }

    #[test]
    fn every_castling_right_the_placement_leaves_possible() {
        let start = board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
        // None or the rook on each side, for each colour.
        assert_eq!(castlings(&start, Ruleset::Chess).len(), 16);
        assert_eq!(castlings(&start, Ruleset::Antichess).len(), 1);
        // A king off its first rank has none; two rooks on one side, either.
        let moved = board("4krr1/8/8/8/8/8/4K3/R6R w - - 0 1");
        assert_eq!(castlings(&moved, Ruleset::Chess).len(), 3);
    }

    #[test]
    fn every_en_passant_square_the_placement_leaves_possible() {
        let two = board("4k3/8/8/3pPp2/8/8/8/4K3 w - - 0 1");
        assert_eq!(
            ep_squares(&two, Color::White),
            [None, Some(Square::D6), Some(Square::F6)]
        );
        assert_eq!(ep_squares(&two, Color::Black), [None]);
    }

    #[test]
    fn a_placement_is_looked_up_in_every_position_that_has_it() {
        let pattern = pgn::ChessRules
            .pattern("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w")
            .expect("a pattern");
        let keys = chess_keys(&pattern, &[Ruleset::Chess]);
        for rest in ["KQkq d6 0 3", "KQkq - 0 3", "Kq - 0 3", "- - 0 3"] {
            let fen = format!("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w {rest}");
            let position = Position::from_fen(&fen).expect("a FEN");
            assert!(keys.contains(&key::chess(&position)), "{fen}");
        }
        let black = Position::from_fen("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b - - 0 3")
            .expect("a FEN");
        assert!(!keys.contains(&key::chess(&black)));
        assert!(matches!(
            rulesets(&["Crazyhouse".to_owned()]),
            Err(IndexError::Query(_))
        ));
    }
}
