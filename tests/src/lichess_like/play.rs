//! A game played from its opening: the book moves, then plausible random legal moves until
//! the board ends the game (checkmate, stalemate, insufficient material, threefold
//! repetition, fifty moves), a player down a lot of material resigns, or the length drawn
//! for the game is reached.
//!
//! A move is drawn among the legal moves with a weight of `exp(score / temperature)`: the
//! score prefers captures by the value won (less what the square's attackers take back),
//! checks and mates, castling, developing the minor pieces and the centre pawns early,
//! centralising pieces, saving an attacked piece and pushing pawns in the endgame; a weaker
//! player's temperature is higher, their moves more random. The score looks at the board
//! only, one move deep (no move is played but to test a check for mate), so that a move
//! costs little more than generating the legal moves.

use crate::Rng;
use pgn::attacks;
use pgn::{
    Bitboard, Board, CastlingRights, Color, Move, Position, RepetitionTracker, Role, Square,
};

/// How a game's moves ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can mate.
    InsufficientMaterial,
    /// The position occurred a third time (lichess draws at once).
    Repetition,
    /// Fifty moves each without a capture or a pawn move (a draw claimed).
    FiftyMoves,
    /// The side to move resigned, far behind in material.
    Resigned,
    /// The game's length was reached with the board deciding nothing.
    Length,
}

/// A game's moves and how they ended.
#[derive(Clone, Debug)]
pub struct Played {
    /// The moves from the standard start.
    pub moves: Vec<Move>,
    /// How many of the first moves came from the opening book.
    pub book_plies: usize,
    /// The position after the last move.
    pub end: Position,
    /// How the moves ended.
    pub ending: Ending,
}

/// How far behind in material (centipawns) a player resigns, and from which ply.
const RESIGN_BEHIND: i32 = 900;
const RESIGN_FROM_PLY: usize = 30;

/// Plays `book` (as far as its moves are legal) then plausible moves, for at most `length`
/// plies; `temperature` is White's and Black's (see the module's documentation).
pub fn play(rng: &mut Rng, book: &[Move], length: usize, temperature: [f64; 2]) -> Played {
    let mut pos = Position::new();
    let mut repetitions = RepetitionTracker::new(&pos);
    let mut moves = Vec::with_capacity(length.min(400));
    let mut book_plies = 0;
    let ending = loop {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break if pos.is_check() {
                Ending::Checkmate
            } else {
                Ending::Stalemate
            };
        }
        if pos.is_insufficient_material() {
            break Ending::InsufficientMaterial;
        }
        if repetitions.is_threefold() {
            break Ending::Repetition;
        }
        if pos.is_fifty_moves() {
            break Ending::FiftyMoves;
        }
        if moves.len() >= length {
            break Ending::Length;
        }
        if moves.len() >= RESIGN_FROM_PLY
            && balance(pos.board(), pos.turn()) <= -RESIGN_BEHIND
            && rng.one_in(8)
        {
            break Ending::Resigned;
        }
        let from_book = book
            .get(moves.len())
            .filter(|mv| book_plies == moves.len() && legal.contains(*mv));
        let mv = match from_book {
            Some(mv) => {
                book_plies += 1;
                *mv
            }
            None => {
                let t = temperature[pos.turn().index()];
                choose(rng, &pos, &legal, moves.len(), t)
            }
        };
        pos.play_mut(&mv);
        repetitions.push(&pos);
        moves.push(mv);
    };
    Played {
        moves,
        book_plies,
        end: pos,
        ending,
    }
}

/// A piece's value in centipawns (the king's is not counted).
fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight => 300,
        Role::Bishop => 310,
        Role::Rook => 500,
        Role::Queen => 900,
        Role::King => 0,
    }
}

/// `color`'s material less the other side's, in centipawns.
pub fn balance(board: &Board, color: Color) -> i32 {
    let material = board.material();
    let sum = |c: Color| -> i32 {
        Role::ALL
            .iter()
            .map(|&r| value(r) * material.get(c)[r.index()] as i32)
            .sum()
    };
    sum(color) - sum(!color)
}

/// Whether the pieces but kings and pawns are worth little enough for an endgame.
fn is_endgame(board: &Board) -> bool {
    let worth: i32 = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .map(|role| value(role) * board.by_role(role).count() as i32)
        .sum();
    worth <= 1800
}

/// How central a square is: 0 in a corner to 6 in the four centre squares.
fn centrality(sq: Square) -> i32 {
    let (file, rank) = (sq.file().index() as i32, sq.rank().index() as i32);
    6 - (3 - file).max(file - 4) - (3 - rank).max(rank - 4)
}

/// The value of the cheapest of `attackers` (a defended piece loses what it is worth less
/// this when taken); a king counts for more than any piece, since it cannot take a
/// defended one.
fn cheapest(board: &Board, attackers: Bitboard) -> i32 {
    // Pawn first, king last.
    Role::ALL
        .into_iter()
        .find(|&r| attackers.intersects(board.by_role(r)))
        .map_or(0, |r| if r == Role::King { 1000 } else { value(r) })
}

/// What a piece worth `worth` on `sq` stands to lose there, the board's pieces `occupied`:
/// all of it if the other side attacks it undefended, else what its cheapest attacker is
/// worth less.
fn at_risk(board: &Board, us: Color, sq: Square, worth: i32, occupied: Bitboard) -> i32 {
    let attackers = board.attackers_to(sq, !us, occupied) & occupied;
    if attackers.is_empty() {
        return 0;
    }
    let defenders = board.attackers_to(sq, us, occupied) & occupied;
    if defenders.is_empty() {
        worth
    } else {
        (worth - cheapest(board, attackers)).max(0)
    }
}

/// The squares `color`'s pieces attack on `board`.
fn attacked_by(board: &Board, color: Color) -> Bitboard {
    let occupied = board.occupied();
    Role::ALL.into_iter().fold(Bitboard::EMPTY, |all, role| {
        let piece = role.of(color);
        board
            .by_piece(piece)
            .fold(all, |all, sq| all | attacks::attacks(piece, sq, occupied))
    })
}

/// `2^(i/8)` for `i` in `0..8`.
const EIGHTHS: [f64; 8] = [
    1.0,
    1.090_507_732_665_257_7,
    1.189_207_115_002_721,
    1.296_839_554_651_009_6,
    std::f64::consts::SQRT_2,
    1.542_210_825_407_940_7,
    1.681_792_830_507_429,
    1.834_008_086_409_342_4,
];

/// `e^(score / temperature)` to within 5% (the score rounded to an eighth of a power of
/// 2), for the weights of moves: the library's `exp`, exact to the last bit, would be a
/// tenth of a move's cost. `per_eighth` is `8 log2(e) / temperature`.
fn weight(score: i32, per_eighth: f64) -> f64 {
    let x = f64::from(score) * per_eighth;
    // Rounded by truncation (`round` is a library call on the baseline x86-64).
    let eighths = ((x + 0.5f64.copysign(x)) as i64).clamp(-8000, 8000);
    let power = f64::from_bits((((eighths >> 3) + 1023) as u64) << 52);
    power * EIGHTHS[(eighths & 7) as usize]
}

/// What the position tells of the moves: computed once per position.
struct Context<'p> {
    pos: &'p Position,
    board: &'p Board,
    us: Color,
    their_king: Option<Square>,
    ply: usize,
    endgame: bool,
    /// The squares the other side attacks: a move elsewhere risks nothing (the lines a
    /// move opens are not looked at), and only a piece on one may be lost where it stands.
    threatened: Bitboard,
}

impl Context<'_> {
    /// A move's score in centipawns: what it wins, risks and builds.
    fn score(&self, rng: &mut Rng, mv: &Move) -> i32 {
        let (role, from, to, capture, promotion) = match *mv {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => (role, from, to, capture, promotion),
            Move::EnPassant { from, to } => (Role::Pawn, from, to, Some(Role::Pawn), None),
            Move::Castle { .. } => return if self.ply < 40 { 120 } else { 20 },
            Move::Put { .. } | Move::Null => return 0,
        };
        let board = self.board;
        let occupied = board.occupied();
        let after = (occupied & !Bitboard::from_square(from)) | Bitboard::from_square(to);
        let becomes = promotion.unwrap_or(role);
        let worth = value(becomes);
        let mut score = capture.map_or(0, value) + promotion.map_or(0, |p| value(p) - 100);
        // Risked where it goes, saved from where it was.
        if role != Role::King {
            let risk = if self.threatened.contains(to) {
                at_risk(board, self.us, to, worth, after)
            } else {
                0
            };
            score -= risk * 9 / 10;
            if risk == 0 && capture.is_none() && self.threatened.contains(from) {
                score += at_risk(board, self.us, from, value(role), occupied) * 6 / 10;
            }
        }
        // A check, and a mate above all.
        if let Some(king) = self.their_king {
            let piece = becomes.of(self.us);
            let gives = match becomes {
                Role::Pawn => attacks::pawn_attacks(self.us, to).contains(king),
                _ => attacks::attacks(piece, to, after).contains(king),
            };
            if gives {
                score += 50;
                if self.pos.play(mv).is_checkmate() && rng.below(10) != 0 {
                    score += 5000;
                }
            }
        }
        score + self.shape(role, from, to)
    }

    /// What a move does for development, the centre and the endgame.
    fn shape(&self, role: Role, from: Square, to: Square) -> i32 {
        let ply = self.ply;
        let home = Bitboard::backrank(self.us);
        let central = centrality(to) - centrality(from);
        match role {
            Role::Knight | Role::Bishop => {
                let developing = if ply < 24 && home.contains(from) {
                    45
                } else {
                    0
                };
                let retreating = if ply < 30 && home.contains(to) {
                    -40
                } else {
                    0
                };
                developing + retreating + 10 * central
            }
            Role::Queen => (if ply < 16 { -35 } else { 0 }) + 6 * central,
            Role::Rook => {
                if ply < 20
                    && self
                        .pos
                        .castling_rights()
                        .intersects(CastlingRights::color(self.us))
                {
                    -25
                } else {
                    0
                }
            }
            Role::King => {
                if self.endgame {
                    12 * central
                } else {
                    -90
                }
            }
            Role::Pawn => {
                let file = from.file().index();
                let rank = i32::try_from(to.rank().relative_to(self.us).index()).unwrap_or(0);
                if self.endgame {
                    10 * rank
                } else if ply < 16 {
                    match file {
                        3 | 4 => 35,
                        2 => 15,
                        5 | 6 => -15,
                        _ => -10,
                    }
                } else {
                    0
                }
            }
        }
    }
}

/// Room for the weights of a position's legal moves: a position of standard chess has at
/// most 218 (any beyond are never drawn).
const MOST_MOVES: usize = 256;

/// A plausible move: drawn among `legal` by `exp(score / temperature)`.
fn choose(rng: &mut Rng, pos: &Position, legal: &[Move], ply: usize, temperature: f64) -> Move {
    let board = pos.board();
    let us = pos.turn();
    let context = Context {
        pos,
        board,
        us,
        their_king: board.king_of(!us),
        ply,
        endgame: is_endgame(board),
        threatened: attacked_by(board, !us),
    };
    // Scores are below 10,000 centipawns, and a temperature above 50: the weights stay
    // far inside a float's range without subtracting the best score.
    let per_eighth = 8.0 * std::f64::consts::LOG2_E / temperature;
    let mut weights = [0f64; MOST_MOVES];
    let mut total = 0.0;
    for (slot, mv) in weights.iter_mut().zip(legal) {
        *slot = weight(context.score(rng, mv), per_eighth);
        total += *slot;
    }
    let mut ticket = rng.unit() * total;
    for (mv, weight) in legal.iter().zip(&weights) {
        if ticket < *weight {
            return *mv;
        }
        ticket -= weight;
    }
    legal.first().copied().unwrap_or(Move::Null)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_weight_is_near_the_exponential_of_its_score() {
        for temperature in [60.0, 137.5, 250.0] {
            let per_eighth = 8.0 * std::f64::consts::LOG2_E / temperature;
            for score in (-3000..=6000).step_by(7) {
                let exact = (f64::from(score) / temperature).exp();
                let quick = weight(score, per_eighth);
                assert!(
                    (quick / exact - 1.0).abs() < 0.05,
                    "{score}: {quick} {exact}"
                );
            }
        }
        for (i, eighth) in EIGHTHS.iter().enumerate() {
            assert!((eighth - 2f64.powf(i as f64 / 8.0)).abs() < 1e-12);
        }
    }
}
