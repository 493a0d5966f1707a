//! The rules of a position, chosen by its ruleset: checks, legal moves, playing a move, and
//! (in [`setup`]) which set-ups are legal positions.
//!
//! Standard chess goes to the move generator (`movegen`), every other ruleset to
//! `variants`. The choice is made once per entry point, here, above both: standard chess's
//! speed does not depend on the variants, and neither of them needs to know the other.

mod end;
mod setup;

use crate::movegen;
use crate::variants;
use crate::{Bitboard, IllegalMoveError, Move, MoveList, Position, Ruleset};

impl Position {
    /// The pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        if self.ruleset() != Ruleset::Chess {
            return variants::checkers(self);
        }
        let board = self.board();
        match board.king_of(self.turn()) {
            Some(king) => board.attackers_to(king, !self.turn(), board.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// `true` if the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        if self.ruleset() != Ruleset::Chess {
            return variants::is_check(self);
        }
        self.checkers().any()
    }

    /// All legal moves.
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.ruleset() != Ruleset::Chess {
            variants::legal_moves(self, &mut list);
        } else {
            movegen::legal_moves(self, &mut list);
        }
        list
    }

    /// The number of legal moves, counted without listing them.
    pub fn count_legal_moves(&self) -> usize {
        if self.ruleset() != Ruleset::Chess {
            let mut list = MoveList::new();
            variants::legal_moves(self, &mut list);
            return list.len();
        }
        movegen::count_legal_moves(self)
    }

    /// `true` if the side to move has a legal move.
    pub fn has_legal_moves(&self) -> bool {
        if self.ruleset() != Ruleset::Chess {
            return variants::has_legal_moves(self);
        }
        movegen::has_legal_moves(self)
    }

    /// `true` if some pawn can legally take en passant on the en-passant square.
    // Out of line: asked only after a double step beside a pawn, and kept out of
    // `play_mut`, which inlines `keep_legal_ep_square` (and so the test it is given).
    #[inline(never)]
    fn has_legal_en_passant(&self) -> bool {
        if self.ruleset() != Ruleset::Chess {
            return variants::has_legal_en_passant(self);
        }
        movegen::has_legal_en_passant(self)
    }

    /// `true` if `m` is legal in this position.
    pub fn is_legal(&self, m: &Move) -> bool {
        match m {
            Move::Null => false,
            _ => self.legal_moves().contains(m),
        }
    }

    /// `true` if the game is over by a rule of the variant (a king exploded, on the hill or
    /// at the finish, a third check, horde's white gone), whatever the legal moves; always
    /// `false` in standard chess and crazyhouse.
    pub fn is_variant_end(&self) -> bool {
        self.ruleset() != Ruleset::Chess && variants::is_variant_end(self)
    }

    /// Plays a legal move and returns the new position.
    ///
    /// `m` must come from this position (from [`Position::legal_moves`], SAN or UCI read in
    /// it). Playing anything else does not panic, but gives a meaningless position; use
    /// [`Position::try_play`] for moves of unknown origin. [`Move::Null`] passes the turn.
    #[inline]
    #[must_use]
    pub fn play(&self, m: &Move) -> Position {
        let mut pos = *self;
        pos.play_mut(m);
        pos
    }

    /// Plays `m` after checking that it is legal.
    ///
    /// # Errors
    /// [`IllegalMoveError`] if `m` is not a legal move here.
    pub fn try_play(&self, m: &Move) -> Result<Position, IllegalMoveError> {
        if self.is_legal(m) {
            Ok(self.play(m))
        } else {
            Err(IllegalMoveError { mv: *m })
        }
    }

    /// Plays a legal move in place; see [`Position::play`].
    #[inline]
    pub fn play_mut(&mut self, m: &Move) {
        if self.ruleset() != Ruleset::Chess {
            return variants::play_mut(self, m);
        }
        let double_step = self.play_board_mut(m);
        if let Some(ep) = double_step {
            self.keep_legal_ep_square(ep, Position::has_legal_en_passant);
        }
    }
}
