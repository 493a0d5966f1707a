//! The key of a position: 128 bits, Zobrist-style, equal for equal positions of the same
//! game and different for different ones but with a chance of about one in 2^128 per pair.
//!
//! A year of lichess holds about 10^11 positions; with 128 bits the chance that any two
//! of them share a key is about 10^22 / 2^128, nothing in practice (lila's explorer takes
//! 96 bits for the same reason).
//!
//! - Chess: the high half is the `pgn` crate's own Zobrist hash (pieces, side to move,
//!   castling rights, a legal en-passant capture, crazyhouse pockets and promoted pieces,
//!   three-check counters); the low half is a second, independent hash of the board's
//!   eight bitboards, the castling rooks, the en-passant square and the side to move,
//!   salted with the ruleset, so that a crazyhouse position never shares a key with a
//!   standard one. It mixes the bitboards by multiplication, as fast hashes of ten words
//!   do (in pairs, then the products in pairs), where a Zobrist hash looks up a number
//!   for each piece: a build makes a key for every position it reads, and those lookups
//!   took 6% of its CPU time.
//! - Draughts: both halves from one table of 128-bit numbers per (colour, man or king,
//!   square) and the side to move, salted with the game type (its number, board size,
//!   start colour and whether the board is inverted): the same squares mean different
//!   positions on different boards.

use std::fmt;

/// The key of a position, as the index files hold it (big-endian bytes, so that the
/// stored order is the numeric order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct PositionKey(pub u128);

impl PositionKey {
    /// The key as 16 big-endian bytes.
    pub fn to_bytes(self) -> [u8; 16] {
        self.0.to_be_bytes()
    }

    /// The key of 16 big-endian bytes.
    pub fn from_bytes(bytes: [u8; 16]) -> PositionKey {
        PositionKey(u128::from_be_bytes(bytes))
    }
}

impl fmt::Display for PositionKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:032x}", self.0)
    }
}

const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Random numbers fixed at compile time, so that keys are the same in every build and
/// every index written stays readable.
const fn table<const N: usize>(seed: u64) -> [u128; N] {
    let mut out = [0; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let high = splitmix(&mut state) as u128;
        let low = splitmix(&mut state) as u128;
        out[i] = (high << 64) | low;
        i += 1;
    }
    out
}

/// Draughts: 2 colours × 2 roles × 256 squares (any board the `pdn` crate allows), then
/// the side to move.
const DRAUGHTS_SQUARES: usize = 256;
const DRAUGHTS_TURN: usize = 4 * DRAUGHTS_SQUARES;
const DRAUGHTS_KEYS: usize = DRAUGHTS_TURN + 1;
static DRAUGHTS: [u128; DRAUGHTS_KEYS] = table(0x6b8a_0f2e_4d1c_3b5a);

/// A salt from a name: FNV-1a over its bytes, spread by two rounds of splitmix.
fn salt(text: &str) -> u128 {
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    let mut state = hash;
    let high = splitmix(&mut state) as u128;
    let low = splitmix(&mut state) as u128;
    (high << 64) | low
}

/// The salt of each chess ruleset, in the order of [`pgn::Ruleset::ALL`]: made once, as
/// a key is made for every position a build reads.
static CHESS_SALTS: std::sync::LazyLock<[u64; pgn::Ruleset::ALL.len()]> =
    std::sync::LazyLock::new(|| pgn::Ruleset::ALL.map(|ruleset| salt(ruleset.name()) as u64));

/// Odd numbers of 64 bits, fixed at compile time: one for each word the low half of a
/// chess key mixes, then one for each product of products.
static CHESS_MIX: [u64; 14] = {
    let mut out = [0; 14];
    let mut state = 0x1d3c_5e7f_9a0b_2c4d;
    let mut i = 0;
    while i < out.len() {
        out[i] = splitmix(&mut state) | 1;
        i += 1;
    }
    out
};

/// The 128-bit product of `a` and `b`, its halves folded into 64 bits.
#[inline]
fn fold(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    (product as u64) ^ (product >> 64) as u64
}

/// The key of a chess position (any ruleset the `pgn` crate plays).
pub fn chess(position: &pgn::Position) -> PositionKey {
    use pgn::{CastlingSide, Color, Role};
    let board = position.board();
    let ruleset = position.ruleset();
    let salt = match pgn::Ruleset::ALL.iter().position(|&r| r == ruleset) {
        Some(place) => CHESS_SALTS[place],
        None => salt(ruleset.name()) as u64,
    };
    // A castling rook stands on its own side's first rank: one bitboard holds both sides'.
    let mut castling = 0_u64;
    for color in [Color::White, Color::Black] {
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            if let Some(rook) = position.castles().rook(color, side) {
                castling |= 1 << rook.index();
            }
        }
    }
    let ep = position.ep_square().map_or(0, |sq| sq.index() as u64 + 1);
    let turn = u64::from(position.turn() == Color::Black) << 7;
    let words = [
        board.by_color(Color::White).0,
        board.by_color(Color::Black).0,
        board.by_role(Role::Pawn).0,
        board.by_role(Role::Knight).0,
        board.by_role(Role::Bishop).0,
        board.by_role(Role::Rook).0,
        board.by_role(Role::Queen).0,
        board.by_role(Role::King).0,
        castling,
        ep | turn,
    ];
    // The words are multiplied in pairs, each first xored with a fixed number, and the
    // products in pairs again, the salt with the first: a tree of products, which the
    // processor multiplies side by side, where a chain of eleven (each step waiting for
    // the one before) took 6% of a build's CPU time. A factor is 0, and a word lost, only
    // if the word is its fixed number (no set of 16 squares or fewer is: a test), or a
    // product happens to be (a chance of 2^-64).
    let m = &CHESS_MIX;
    let pair = |i: usize| fold(words[i] ^ m[i], words[i + 1] ^ m[i + 1]);
    let (a, b, c, d, e) = (pair(0), pair(2), pair(4), pair(6), pair(8));
    let ab = fold(a ^ salt, b ^ m[10]);
    let cd = fold(c ^ m[11], d ^ m[12]);
    let low = fold(ab ^ e, cd ^ m[13]);
    PositionKey((u128::from(position.zobrist_hash()) << 64) | u128::from(low))
}

/// The key of a draughts position, salted with its game type.
pub fn draughts(position: &pdn::Position) -> PositionKey {
    use pdn::{Color, Role};
    let game_type = position.game_type();
    let mut key = salt(&format!(
        "draughts {} {}x{} {:?} {}",
        game_type.number(),
        game_type.width(),
        game_type.height(),
        game_type.start(),
        game_type.invert(),
    ));
    for (sq, piece) in position.pieces() {
        let color = usize::from(piece.color == Color::Black);
        let role = usize::from(piece.role == Role::King);
        let index = sq.index() % DRAUGHTS_SQUARES;
        key ^= DRAUGHTS[(color * 2 + role) * DRAUGHTS_SQUARES + index];
    }
    if position.turn() == Color::Black {
        key ^= DRAUGHTS[DRAUGHTS_TURN];
    }
    PositionKey(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(moves: &[&str]) -> pgn::Position {
        let mut position = pgn::Position::new();
        for san in moves {
            position.play_san(san.as_bytes()).expect("legal");
        }
        position
    }

    #[test]
    fn transpositions_share_a_key_and_other_positions_do_not() {
        let a = chess(&after(&["e4", "e5", "Nf3", "Nc6"]));
        let b = chess(&after(&["Nf3", "Nc6", "e4", "e5"]));
        assert_eq!(a, b);
        // The same pieces with the other side to move.
        let c = chess(&after(&["Nf3", "Nf6", "Ng1", "Ng8"]));
        assert_eq!(c, chess(&pgn::Position::new()));
        let d = chess(&after(&["Nf3", "Nf6", "Ng1"]));
        assert_ne!(chess(&after(&["Nf3", "Nf6"])), d);
        assert_ne!(a, chess(&pgn::Position::new()));
    }

    #[test]
    fn castling_rights_and_en_passant_count() {
        // Kings and rooks back home: the same pieces, without the castling rights.
        let moved = chess(&after(&[
            "Nf3", "Nf6", "Rg1", "Rg8", "Rh1", "Rh8", "Ng1", "Ng8",
        ]));
        assert_ne!(moved, chess(&pgn::Position::new()));
        // A double step with no pawn to take en passant is the same position as the
        // pawn arriving in two steps; with one that can take, it is not.
        let fen = |f: &str| chess(&pgn::Position::from_fen(f).expect("a FEN"));
        assert_eq!(
            fen("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1"),
            fen("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1")
        );
        assert_ne!(
            fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1"),
            fen("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1")
        );
    }

    #[test]
    fn no_mixing_number_can_multiply_a_bitboard_away() {
        // A word is multiplied by its number xor itself: 0 only if the word were the
        // number. Each number has more than 16 squares: outside horde no side has more
        // than 16 pieces nor a role more than 16 squares (in horde a word is the number
        // by a chance of 2^-64 at most).
        for mix in CHESS_MIX {
            assert!(mix.count_ones() > 16, "{mix:#x}");
        }
    }

    #[test]
    fn the_low_half_alone_tells_apart_every_position_five_plies_deep() {
        // The 898,812 positions one to five plies from the start: no two share the low
        // half, as none should but by a chance of about 2^-25 (a mix that left out the
        // side to move would fail here).
        let mut lows = std::collections::HashMap::new();
        let mut level = vec![pgn::Position::new()];
        for _ in 0..5 {
            let mut next = Vec::new();
            for position in &level {
                for mv in position.legal_moves() {
                    next.push(position.play(&mv));
                }
            }
            level = next;
            for position in &level {
                let key = chess(position);
                let low = key.0 as u64;
                if let Some(&other) = lows.get(&low) {
                    assert_eq!(other, key, "two positions with one low half");
                }
                lows.insert(low, key);
            }
        }
        assert_eq!(lows.len(), 898_812);
    }

    #[test]
    fn draughts_keys_depend_on_the_game_type() {
        let international = draughts(&pdn::Position::new(pdn::Variant::International));
        let frisian = draughts(&pdn::Position::new(pdn::Variant::Frisian));
        let russian = draughts(&pdn::Position::new(pdn::Variant::Russian));
        let brazilian = draughts(&pdn::Position::new(pdn::Variant::Brazilian));
        assert_ne!(international, frisian);
        assert_ne!(russian, brazilian);
        assert_eq!(
            international,
            draughts(&pdn::Position::new(pdn::Variant::International))
        );
    }
}
