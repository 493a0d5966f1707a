//! Zobrist hashing: a 64-bit key per position, updated move by move.
//!
//! The key mixes one random number per (piece, square), per castling-rights combination, per
//! en-passant file (only when an en-passant capture is legal) and one for black to move. The
//! numbers are fixed (computed at compile time), so keys are stable across runs and builds.

use crate::{CastlingRights, Color, File, Role, Square};

const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const PIECES: usize = 12 * 64;
const CASTLING: usize = PIECES;
const EP: usize = CASTLING + 16;
const TURN: usize = EP + 8;
/// Crazyhouse: a key per (colour, role in hand, count 1..=16); more than 16 of a role share
/// the last.
const POCKETS: usize = TURN + 1;
const PROMOTED: usize = POCKETS + 2 * 5 * 16;
/// Three-check: a key per (colour, checks remaining 0..=2); 3 remaining has none.
const CHECKS: usize = PROMOTED + 64;
const KEYS: usize = CHECKS + 2 * 3;

const fn keys() -> [u64; KEYS] {
    let mut out = [0; KEYS];
    let mut state = 0x5eed_cafe_f00d_d00d_u64;
    let mut i = 0;
    while i < KEYS {
        out[i] = splitmix(&mut state);
        i += 1;
    }
    // No rights: no key, so that a position without castling hashes the same whatever the
    // table says.
    out[CASTLING] = 0;
    out
}

static ZOBRIST: [u64; KEYS] = keys();

/// The key of a piece on a square.
#[inline]
pub(crate) fn piece(color: Color, role: Role, sq: Square) -> u64 {
    ZOBRIST[(color.index() * 6 + role.index()) * 64 + sq.index()]
}

/// The key of a set of castling rights.
#[inline]
pub(crate) fn castling(rights: CastlingRights) -> u64 {
    ZOBRIST[CASTLING + (rights.bits() & 15) as usize]
}

/// The key of a legal en-passant capture on `file`.
#[inline]
pub(crate) fn ep(file: File) -> u64 {
    ZOBRIST[EP + file.index() as usize]
}

/// The key of black to move.
#[inline]
pub(crate) fn black_to_move() -> u64 {
    ZOBRIST[TURN]
}

/// The key of `color` holding `count` pieces of `role` (none for an empty hand).
#[inline]
pub(crate) fn pocket(color: Color, role: Role, count: u8) -> u64 {
    if count == 0 || role == Role::King {
        return 0;
    }
    let count = usize::from(count.min(16)) - 1;
    ZOBRIST[POCKETS + (color.index() * 5 + role.index()) * 16 + count]
}

/// The key of a promoted piece on `sq` (crazyhouse).
#[inline]
pub(crate) fn promoted(sq: Square) -> u64 {
    ZOBRIST[PROMOTED + sq.index()]
}

/// The key of `color` having `remaining` checks left to give (three-check; none for 3).
#[inline]
pub(crate) fn remaining_checks(color: Color, remaining: u8) -> u64 {
    match remaining {
        0..=2 => ZOBRIST[CHECKS + color.index() * 3 + usize::from(remaining)],
        _ => 0,
    }
}
