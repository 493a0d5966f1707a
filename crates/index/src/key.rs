//! The key of a position: 128 bits, Zobrist-style, equal for equal positions of the same
//! game and different for different ones but with a chance of about one in 2^128 per pair.
//!
//! A year of lichess holds about 10^11 positions; with 128 bits the chance that any two
//! of them share a key is about 10^22 / 2^128, nothing in practice (lila's explorer takes
//! 96 bits for the same reason).
//!
//! - Chess: the high half is the `pgn` crate's own Zobrist hash (pieces, side to move,
//!   castling rights, a legal en-passant capture, crazyhouse pockets and promoted pieces,
//!   three-check counters); the low half is a second, independent Zobrist hash of the
//!   pieces, the side to move, the castling rooks and the en-passant square, salted with
//!   the ruleset, so that a crazyhouse position never shares a key with a standard one.
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

/// Chess: 12 pieces × 64 squares, then 64 castling-rook squares per colour (128), 64
/// en-passant squares, the side to move.
const CHESS_PIECES: usize = 0;
const CHESS_CASTLING: usize = CHESS_PIECES + 12 * 64;
const CHESS_EP: usize = CHESS_CASTLING + 128;
const CHESS_TURN: usize = CHESS_EP + 64;
const CHESS_KEYS: usize = CHESS_TURN + 1;
static CHESS: [u128; CHESS_KEYS] = table(0x1d3c_5e7f_9a0b_2c4d);

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

/// The key of a chess position (any ruleset the `pgn` crate plays).
pub fn chess(position: &pgn::Position) -> PositionKey {
    use pgn::{CastlingSide, Color, Role};
    let board = position.board();
    let ruleset = position.ruleset();
    let mut low = match pgn::Ruleset::ALL.iter().position(|&r| r == ruleset) {
        Some(place) => CHESS_SALTS[place],
        None => salt(ruleset.name()) as u64,
    };
    for (ci, color) in [Color::White, Color::Black].into_iter().enumerate() {
        for (ri, role) in [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ]
        .into_iter()
        .enumerate()
        {
            let pieces = board.by_color(color) & board.by_role(role);
            for sq in pieces {
                low ^= CHESS[CHESS_PIECES + (ci * 6 + ri) * 64 + sq.index()] as u64;
            }
        }
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            if position.castles().has(color, side)
                && let Some(rook) = position.castles().rook(color, side)
            {
                low ^= CHESS[CHESS_CASTLING + ci * 64 + rook.index()] as u64;
            }
        }
    }
    if let Some(ep) = position.ep_square() {
        low ^= CHESS[CHESS_EP + ep.index()] as u64;
    }
    if position.turn() == Color::Black {
        low ^= CHESS[CHESS_TURN] as u64;
    }
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
