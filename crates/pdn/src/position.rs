//! Positions: pieces on a board, the side to move, legal moves.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use crate::bits::Bits;
use crate::board::{Engine, NO_SQUARE, RawMove, State};
use crate::color::{Color, Piece, Role};
use crate::gametype::GameType;
use crate::geometry::{Geometry, Square};
use crate::movegen::{FullSink, dedup};
use crate::moves::{Move, Squares};
use crate::result::DraughtsResult;
use crate::variant::{BoardKind, Precedence, Variant};

/// Everything that does not change during a game: rules, board, tables.
///
/// Aligned apart from the reference counts an `Arc` puts in front of it (see
/// [`Tables`]): each copy of a position writes the count, which would otherwise evict the
/// tables it shares a cache line with from the caches of other threads reading games.
#[derive(Debug)]
#[repr(align(128))]
pub(crate) struct Shared<B> {
    pub game_type: GameType,
    pub geometry: Geometry,
    pub engine: Engine<B>,
}

impl<B: Bits> Shared<B> {
    fn new(game_type: GameType) -> Shared<B> {
        let geometry = game_type.geometry();
        let engine = Engine::new(&geometry, game_type.variant().rules());
        Shared {
            game_type,
            geometry,
            engine,
        }
    }

    /// The generator side of a colour: 0 for the colour that starts.
    fn side(&self, color: Color) -> usize {
        usize::from(color != self.game_type.start())
    }

    fn color(&self, side: usize) -> Color {
        if side == 0 {
            self.game_type.start()
        } else {
            !self.game_type.start()
        }
    }

    fn bit(&self, sq: Square) -> Option<u32> {
        self.engine
            .layout
            .bit_of
            .get(sq.index())
            .map(|&b| u32::from(b))
    }

    fn square(&self, bit: u32) -> Square {
        let idx = self
            .engine
            .layout
            .square_of
            .get(bit as usize)
            .copied()
            .unwrap_or(NO_SQUARE);
        Square::from_index(idx)
    }
}

/// A game type's [`Shared`] tables. Those of the first game types asked for are kept
/// for the life of the program, so that copying a position copies a pointer: no count is
/// written that the threads reading games at once would fight over (`check --jobs 2` on
/// PDN archives: 4% faster than counted tables, themselves 7% faster once aligned apart
/// from their counts). Beyond them (odd input naming many custom game types), tables are
/// counted and dropped with their last position.
#[derive(Debug)]
pub(crate) enum Tables<B: 'static> {
    Kept(&'static Shared<B>),
    Counted(Arc<Shared<B>>),
}

impl<B> Clone for Tables<B> {
    fn clone(&self) -> Tables<B> {
        match self {
            Tables::Kept(shared) => Tables::Kept(shared),
            Tables::Counted(shared) => Tables::Counted(Arc::clone(shared)),
        }
    }
}

impl<B> std::ops::Deref for Tables<B> {
    type Target = Shared<B>;

    fn deref(&self) -> &Shared<B> {
        match self {
            Tables::Kept(shared) => shared,
            Tables::Counted(shared) => shared,
        }
    }
}

impl<B> Tables<B> {
    fn same(&self, other: &Tables<B>) -> bool {
        match (self, other) {
            (Tables::Kept(a), Tables::Kept(b)) => std::ptr::eq(*a, *b),
            (Tables::Counted(a), Tables::Counted(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

/// How many game types' tables are kept: far more than real files name.
const KEPT_TABLES: usize = 256;

/// The shared part of a position, in the bit width its board needs.
#[derive(Debug, Clone)]
enum Handle {
    Small(Tables<u64>),
    Large(Tables<u128>),
}

impl Handle {
    fn game_type(&self) -> GameType {
        match self {
            Handle::Small(s) => s.game_type,
            Handle::Large(s) => s.game_type,
        }
    }

    /// The tables for a game type, built once per game type and kept.
    fn get(game_type: GameType) -> Handle {
        static CACHE: Mutex<Vec<Handle>> = Mutex::new(Vec::new());
        let mut cache = CACHE.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(h) = cache.iter().find(|h| h.game_type() == game_type) {
            return h.clone();
        }
        let (w, h) = (
            usize::from(game_type.width()),
            usize::from(game_type.height()),
        );
        let bits = match game_type.variant().rules().board {
            BoardKind::Diagonal => ((h - 1) * (w + 1) + w - 1) / 2 + 1,
            BoardKind::Full => w * h,
        };
        // Custom game types are rare; the cap keeps odd input from growing the cache.
        let keep = cache.len() < KEPT_TABLES;
        let handle = match (bits <= 64, keep) {
            (true, true) => {
                Handle::Small(Tables::Kept(Box::leak(Box::new(Shared::new(game_type)))))
            }
            (true, false) => Handle::Small(Tables::Counted(Arc::new(Shared::new(game_type)))),
            (false, true) => {
                Handle::Large(Tables::Kept(Box::leak(Box::new(Shared::new(game_type)))))
            }
            (false, false) => Handle::Large(Tables::Counted(Arc::new(Shared::new(game_type)))),
        };
        if keep {
            cache.push(handle.clone());
        }
        handle
    }
}

enum Inner {
    Small(Tables<u64>, State<u64>),
    Large(Tables<u128>, State<u128>),
}

impl Clone for Inner {
    fn clone(&self) -> Inner {
        match self {
            Inner::Small(sh, st) => Inner::Small(sh.clone(), *st),
            Inner::Large(sh, st) => Inner::Large(sh.clone(), *st),
        }
    }

    /// Copying a position over one of the same game type (a validator keeps the position
    /// before each move this way) copies the pieces only.
    fn clone_from(&mut self, source: &Inner) {
        match (self, source) {
            (Inner::Small(sh, st), Inner::Small(from, src)) if sh.same(from) => {
                *st = *src;
            }
            (Inner::Large(sh, st), Inner::Large(from, src)) if sh.same(from) => {
                *st = *src;
            }
            (this, source) => *this = source.clone(),
        }
    }
}

/// Runs `$body` with `$sh: &Shared<B>` and `$st: &State<B>` for whichever
/// bit width the position uses.
macro_rules! dispatch {
    ($inner:expr, |$sh:ident, $st:ident| $body:expr) => {
        match $inner {
            Inner::Small($sh, $st) => $body,
            Inner::Large($sh, $st) => $body,
        }
    };
}

/// Why a set of pieces is not a possible position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// Two pieces on one square.
    #[error("square {square} is given twice")]
    SquareTwice {
        /// The square, as written in the game's notation.
        square: String,
    },
    /// A man standing where it would have been crowned.
    #[error("a {color} man on {square}, on the row where {color} men are crowned")]
    ManOnPromotionRow {
        /// The square, as written in the game's notation.
        square: String,
        /// The man's colour.
        color: Color,
    },
    /// A square of another board.
    #[error("square index {0} is not on this board")]
    NotOnBoard(usize),
}

/// The end of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One side won.
    Decisive {
        /// The winner.
        winner: Color,
    },
    /// A draw.
    Draw,
}

impl Outcome {
    /// The game result of this outcome.
    pub const fn result(self) -> DraughtsResult {
        match self {
            Outcome::Decisive { winner } => DraughtsResult::win(winner),
            Outcome::Draw => DraughtsResult::Draw,
        }
    }
}

/// A move that is not legal in the position it was played in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the move is not legal in this position")]
pub struct IllegalMove;

/// A draughts position: the game type, the pieces, the side to move.
///
/// ```
/// use pdn::{Color, Position, Variant};
///
/// let mut pos = Position::new(Variant::International);
/// assert_eq!(pos.turn(), Color::White);
/// assert_eq!(pos.legal_moves().len(), 9);
///
/// let (m, _) = pos.parse_move("32-28")?;
/// pos.play(&m)?;
/// assert_eq!(pos.turn(), Color::Black);
/// assert_eq!(pos.piece_on(28).map(|p| p.color), Some(Color::White));
/// assert_eq!(Position::new(Variant::International).perft(2), 81);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Position {
    inner: Inner,
    fullmove: u32,
    halfmove: u32,
}

impl Clone for Position {
    fn clone(&self) -> Position {
        Position {
            inner: self.inner.clone(),
            fullmove: self.fullmove,
            halfmove: self.halfmove,
        }
    }

    fn clone_from(&mut self, source: &Position) {
        self.inner.clone_from(&source.inner);
        self.fullmove = source.fullmove;
        self.halfmove = source.halfmove;
    }
}

impl Position {
    /// The start position of a variant's standard game type.
    pub fn new(variant: Variant) -> Position {
        Position::start(GameType::new(variant))
    }

    /// The start position of a game type: the start colour's pieces at the
    /// bottom, that colour to move.
    pub fn start(game_type: GameType) -> Position {
        // The standard game types' start positions are set up once and copied: a game
        // whose type is inferred starts in several of them.
        static STANDARD: [OnceLock<Position>; Variant::ALL.len()] =
            [const { OnceLock::new() }; Variant::ALL.len()];
        let variant = game_type.variant();
        if game_type == GameType::new(variant) {
            if let Some(cell) = Variant::ALL
                .iter()
                .position(|&v| v == variant)
                .and_then(|i| STANDARD.get(i))
            {
                return cell.get_or_init(|| Position::set_up(game_type)).clone();
            }
        }
        Position::set_up(game_type)
    }

    /// The start position of a game type, set up.
    fn set_up(game_type: GameType) -> Position {
        let inner = match Handle::get(game_type) {
            Handle::Small(sh) => {
                let st = sh.engine.start();
                Inner::Small(sh, st)
            }
            Handle::Large(sh) => {
                let st = sh.engine.start();
                Inner::Large(sh, st)
            }
        };
        Position {
            inner,
            fullmove: 1,
            halfmove: 0,
        }
    }

    /// An empty board with `turn` to move.
    pub fn empty(game_type: GameType, turn: Color) -> Position {
        let mut pos = Position::start(game_type);
        match &mut pos.inner {
            Inner::Small(sh, st) => *st = empty_state(sh, turn),
            Inner::Large(sh, st) => *st = empty_state(sh, turn),
        }
        pos
    }

    /// A position from a list of pieces.
    ///
    /// # Errors
    ///
    /// If a square is given twice, a man stands on the row where it would be
    /// crowned, or a square belongs to another board.
    pub fn from_pieces(
        game_type: GameType,
        turn: Color,
        pieces: impl IntoIterator<Item = (Square, Piece)>,
    ) -> Result<Position, PositionError> {
        let mut pos = Position::empty(game_type, turn);
        pos.fill(pieces)?;
        Ok(pos)
    }

    /// Puts a piece on an empty square of this board (a FEN's reader checks that it is
    /// empty). A man on its crowning row is crowned if `crowning`, else left off the
    /// board; either way the answer is `false`.
    pub(crate) fn put(&mut self, sq: Square, piece: Piece, crowning: bool) -> bool {
        dispatch!(&mut self.inner, |sh, st| put(sh, st, sq, piece, crowning))
    }

    /// Puts pieces on the board, as [`Position::from_pieces`] does.
    pub(crate) fn fill(
        &mut self,
        pieces: impl IntoIterator<Item = (Square, Piece)>,
    ) -> Result<(), PositionError> {
        match &mut self.inner {
            Inner::Small(sh, st) => fill(sh, st, pieces),
            Inner::Large(sh, st) => fill(sh, st, pieces),
        }
    }

    /// The game type: rules, board and notation.
    pub fn game_type(&self) -> GameType {
        dispatch!(&self.inner, |sh, _st| sh.game_type)
    }

    /// The variant whose rules are played.
    pub fn variant(&self) -> Variant {
        self.game_type().variant()
    }

    /// The board and its square names.
    pub fn geometry(&self) -> &Geometry {
        dispatch!(&self.inner, |sh, _st| &sh.geometry)
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        dispatch!(&self.inner, |sh, st| sh.color(usize::from(st.side)))
    }

    /// The number of the current move: 1 at the start, counting up after
    /// the second player has moved.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// Sets the move number (for a position read from a FEN with a move
    /// number).
    pub fn set_fullmove_number(&mut self, n: u32) {
        self.fullmove = n.max(1);
    }

    /// Plies since the last capture or move of a man.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// Sets the half-move clock.
    pub fn set_halfmove_clock(&mut self, n: u32) {
        self.halfmove = n;
    }

    /// The piece on a square.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        dispatch!(&self.inner, |sh, st| {
            let bit = sh.bit(sq)?;
            for side in 0..2 {
                let color = sh.color(side);
                if st.men[side].has(bit) {
                    return Some(Piece::new(color, Role::Man));
                }
                if st.kings[side].has(bit) {
                    return Some(Piece::new(color, Role::King));
                }
            }
            None
        })
    }

    /// The piece on the square with the given number (see
    /// [`Geometry::number`]).
    pub fn piece_on(&self, number: u32) -> Option<Piece> {
        self.piece_at(self.geometry().square_by_number(number)?)
    }

    /// Whether another position has the same pieces on the same squares and the same
    /// side to move, on the same board numbered alike (its game type may be another).
    pub(crate) fn same_placement(&self, other: &Position) -> bool {
        fn same<B: Bits>(a: &Shared<B>, s: &State<B>, b: &Shared<B>, t: &State<B>) -> bool {
            a.geometry == b.geometry
                && a.color(usize::from(s.side)) == b.color(usize::from(t.side))
                && Color::ALL.iter().all(|&c| {
                    let (i, j) = (a.side(c), b.side(c));
                    s.men[i] == t.men[j] && s.kings[i] == t.kings[j]
                })
        }
        match (&self.inner, &other.inner) {
            (Inner::Small(a, s), Inner::Small(b, t)) => same(a, s, b, t),
            (Inner::Large(a, s), Inner::Large(b, t)) => same(a, s, b, t),
            _ => false,
        }
    }

    /// All pieces, in square order.
    pub fn pieces(&self) -> Vec<(Square, Piece)> {
        self.geometry()
            .squares()
            .filter_map(|sq| self.piece_at(sq).map(|p| (sq, p)))
            .collect()
    }

    /// How many pieces of a colour and role are on the board.
    pub fn count(&self, color: Color, role: Role) -> u32 {
        dispatch!(&self.inner, |sh, st| {
            let side = sh.side(color);
            match role {
                Role::Man => st.men[side].count(),
                Role::King => st.kings[side].count(),
            }
        })
    }

    /// All legal moves. Captures are compulsory, so if there is one, only
    /// captures (of the highest precedence) are listed. Captures with the
    /// same start, end and captured pieces are listed once, except in
    /// Frisian draughts, whose rules count each path.
    pub fn legal_moves(&self) -> Vec<Move> {
        dispatch!(&self.inner, |sh, st| legal_moves(sh, st))
    }

    /// The step from `from` to `to`, if it is a legal move here: no capture is
    /// compulsory and the piece on `from` (of the side to move) steps or, a flying king,
    /// flies to `to`. The same move [`Position::legal_moves`] lists, found without
    /// listing them (no allocation): the fast path of reading a move.
    pub(crate) fn quiet_step(&self, from: Square, to: Square) -> Option<Move> {
        dispatch!(&self.inner, |sh, st| quiet_step(sh, st, from, to))
    }

    /// The capture from `from` to `to`, if exactly one legal capture goes there (or
    /// several that take the same pieces, as [`Position::legal_moves`] merges them): the
    /// same move `legal_moves` lists, found without listing the others.
    pub(crate) fn single_capture(&self, from: Square, to: Square) -> Option<Move> {
        dispatch!(&self.inner, |sh, st| single_capture(sh, st, from, to))
    }

    /// Whether the side to move must capture.
    pub fn must_capture(&self) -> bool {
        dispatch!(&self.inner, |sh, st| sh.engine.has_capture(st))
    }

    /// Whether the side to move has a legal move.
    pub fn has_legal_moves(&self) -> bool {
        dispatch!(&self.inner, |sh, st| {
            let mut out = Vec::new();
            sh.engine.legal(st, &mut out);
            !out.is_empty()
        })
    }

    /// Whether the game is over: the side to move cannot move (it has no
    /// pieces left or they are all blocked), which loses in every variant
    /// here.
    pub fn is_game_over(&self) -> bool {
        !self.has_legal_moves()
    }

    /// The outcome, if the game is over by the rules of play: the side to
    /// move loses when it cannot move. Draws by agreement, repetition or the
    /// variants' endgame counts are not tracked.
    pub fn outcome(&self) -> Option<Outcome> {
        self.is_game_over().then(|| Outcome::Decisive {
            winner: !self.turn(),
        })
    }

    /// Whether a move is legal here.
    pub fn is_legal(&self, m: &Move) -> bool {
        self.legal_moves().contains(m)
    }

    /// Plays a legal move.
    ///
    /// # Errors
    ///
    /// If the move is not one of [`Position::legal_moves`]; the position is
    /// left unchanged.
    pub fn play(&mut self, m: &Move) -> Result<(), IllegalMove> {
        if !self.is_legal(m) {
            return Err(IllegalMove);
        }
        self.play_unchecked(m);
        Ok(())
    }

    /// Plays a move without checking that it is legal. A move whose squares
    /// are not on this board is ignored.
    pub fn play_unchecked(&mut self, m: &Move) {
        // Side 0 is the colour that starts: the mover is the second player on side 1
        // (read before the move, which passes the turn).
        let (mover_is_second, played) = match &mut self.inner {
            Inner::Small(sh, st) => (st.side != 0, play_raw(sh, st, m)),
            Inner::Large(sh, st) => (st.side != 0, play_raw(sh, st, m)),
        };
        if played {
            self.count_move(m, mover_is_second);
        }
    }

    /// Becomes `from` after a move played without checking that it is legal:
    /// [`Position::play_unchecked`] of a copy of `from`, with the pieces written here
    /// once, as they are after the move.
    pub(crate) fn play_from(&mut self, from: &Position, m: &Move) {
        let played = match (&mut self.inner, &from.inner) {
            (Inner::Small(sh, st), Inner::Small(fsh, fst)) if sh.same(fsh) => {
                Some((fst.side != 0, play_raw_from(sh, fst, st, m)))
            }
            (Inner::Large(sh, st), Inner::Large(fsh, fst)) if sh.same(fsh) => {
                Some((fst.side != 0, play_raw_from(sh, fst, st, m)))
            }
            _ => None,
        };
        let Some((mover_is_second, played)) = played else {
            // Another game type: a copy, then the move.
            self.clone_from(from);
            self.play_unchecked(m);
            return;
        };
        self.fullmove = from.fullmove;
        self.halfmove = from.halfmove;
        if played {
            self.count_move(m, mover_is_second);
        }
    }

    /// Counts a move played: the full-move number after the second player's, and the
    /// moves since a capture or a man's move.
    fn count_move(&mut self, m: &Move, mover_is_second: bool) {
        if mover_is_second {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        let resets = m.is_capture() || m.role() == Role::Man;
        self.halfmove = if resets {
            0
        } else {
            self.halfmove.saturating_add(1)
        };
    }

    /// Counts the leaves of the move tree `depth` plies deep (captures with
    /// the same start, end and captured pieces counted once, except in
    /// Frisian draughts).
    pub fn perft(&self, depth: u32) -> u64 {
        dispatch!(&self.inner, |sh, st| sh.engine.perft(
            st,
            depth as usize,
            sh.engine.rules.dedup
        ))
    }

    /// Perft choosing whether duplicate captures (same start, end and
    /// captured pieces, different path) count once or once per path.
    pub(crate) fn perft_duplicates(&self, depth: u32, merge: bool) -> u64 {
        dispatch!(&self.inner, |sh, st| sh.engine.perft(
            st,
            depth as usize,
            merge
        ))
    }

    /// The position after a move, for perft's divide.
    pub(crate) fn after(&self, m: &Move) -> Position {
        let mut p = self.clone();
        p.play_unchecked(m);
        p
    }

    /// Whether a man of `color` on `sq` would stand on its promotion row.
    pub fn is_promotion_square(&self, color: Color, sq: Square) -> bool {
        dispatch!(&self.inner, |sh, _st| {
            let side = sh.side(color);
            sh.bit(sq)
                .is_some_and(|b| sh.engine.layout.promo[side].has(b))
        })
    }
}

fn empty_state<B: Bits>(sh: &Shared<B>, turn: Color) -> State<B> {
    State {
        men: [B::ZERO; 2],
        kings: [B::ZERO; 2],
        side: sh.side(turn) as u8,
        run: Default::default(),
    }
}

fn put<B: Bits>(
    sh: &Shared<B>,
    st: &mut State<B>,
    sq: Square,
    piece: Piece,
    crowning: bool,
) -> bool {
    let Some(bit) = sh.bit(sq) else { return true };
    let side = sh.side(piece.color);
    match piece.role {
        Role::Man if sh.engine.layout.promo[side].has(bit) => {
            if crowning {
                st.kings[side] |= B::bit(bit);
            }
            false
        }
        Role::Man => {
            st.men[side] |= B::bit(bit);
            true
        }
        Role::King => {
            st.kings[side] |= B::bit(bit);
            true
        }
    }
}

fn fill<B: Bits>(
    sh: &Shared<B>,
    st: &mut State<B>,
    pieces: impl IntoIterator<Item = (Square, Piece)>,
) -> Result<(), PositionError> {
    for (sq, piece) in pieces {
        let bit = sh.bit(sq).ok_or(PositionError::NotOnBoard(sq.index()))?;
        let name = || sh.geometry.name(sq).to_string();
        if st.occupied().has(bit) {
            return Err(PositionError::SquareTwice { square: name() });
        }
        let side = sh.side(piece.color);
        match piece.role {
            Role::Man => {
                if sh.engine.layout.promo[side].has(bit) {
                    return Err(PositionError::ManOnPromotionRow {
                        square: name(),
                        color: piece.color,
                    });
                }
                st.men[side] |= B::bit(bit);
            }
            Role::King => st.kings[side] |= B::bit(bit),
        }
    }
    Ok(())
}

fn quiet_step<B: Bits>(sh: &Shared<B>, st: &State<B>, from: Square, to: Square) -> Option<Move> {
    let (f, t) = (sh.bit(from)?, sh.bit(to)?);
    let s = usize::from(st.side);
    let eng = &sh.engine;
    let lay = &eng.layout;
    let rules = &eng.rules;
    let king = st.kings[s].has(f);
    if !king && !st.men[s].has(f) {
        return None;
    }
    let empty = lay.valid & !st.occupied();
    if !empty.has(t) {
        return None;
    }
    if eng.has_capture(st) {
        return None;
    }
    let reaches = if king {
        if eng.restricted_king(st).has(f) {
            return None;
        }
        let mut dirs = rules.king_move;
        let mut found = false;
        while dirs != 0 && !found {
            let d = dirs.trailing_zeros() as usize;
            dirs &= dirs - 1;
            let mut ray = lay.step(B::bit(f), d) & empty;
            while ray.any() {
                if ray.has(t) {
                    found = true;
                    break;
                }
                if !rules.flying {
                    break;
                }
                ray = lay.step(ray, d) & empty;
            }
        }
        found
    } else {
        let mut dirs = rules.man_move[s];
        let mut found = false;
        while dirs != 0 {
            let d = dirs.trailing_zeros() as usize;
            dirs &= dirs - 1;
            found |= lay.step(B::bit(f), d).has(t);
        }
        found
    };
    reaches.then(|| Move {
        role: if king { Role::King } else { Role::Man },
        from,
        to,
        promotes: !king && lay.promo[s].has(t),
        path: Squares::new(),
        captured: Squares::new(),
    })
}

/// Keeps the captures of the highest precedence key that go from one square to another.
/// A capture's raw move, and its path and pieces taken as squares of the board.
type Found<B> = (RawMove<B>, Squares, Squares);

struct Between<'a, B> {
    shared: &'a Shared<B>,
    from: u8,
    to: u8,
    best: u64,
    any: bool,
    /// The first capture from `from` to `to` of the best key so far, its squares held
    /// inline (no allocation per capture found), and how many there are.
    first: Option<Found<B>>,
    count: usize,
    /// Whether every one of them is the first's raw move (same pieces taken, same
    /// crowning), which `legal_moves` merges into one.
    same: bool,
}

impl<B: Bits> crate::movegen::Sink<B> for Between<'_, B> {
    fn capture(&mut self, c: &crate::movegen::Capture<'_, B>) {
        if self.any && c.key < self.best {
            return;
        }
        if !self.any || c.key > self.best {
            self.first = None;
            self.count = 0;
            self.same = true;
            self.best = c.key;
            self.any = true;
        }
        if c.raw.from == self.from && c.raw.to == self.to {
            self.count += 1;
            match &self.first {
                Some((raw, ..)) => self.same &= *raw == c.raw,
                None => {
                    let square = |&b: &u8| self.shared.square(u32::from(b));
                    let path = Squares::map_slice(c.path, square);
                    let taken = Squares::map_slice(c.taken, square);
                    self.first = Some((c.raw, path, taken));
                }
            }
        }
    }
}

fn single_capture<B: Bits>(
    sh: &Shared<B>,
    st: &State<B>,
    from: Square,
    to: Square,
) -> Option<Move> {
    let (f, t) = (sh.bit(from)?, sh.bit(to)?);
    let mut sink = Between {
        shared: sh,
        from: u8::try_from(f).ok()?,
        to: u8::try_from(t).ok()?,
        best: 0,
        any: false,
        first: None,
        count: 0,
        same: true,
    };
    if sh.engine.rules.precedence == Precedence::Free {
        // Any capture may be chosen: the others need not be found.
        sh.engine.captures_by(st, B::bit(f), &mut sink);
    } else {
        sh.engine.captures(st, &mut sink);
    }
    let (raw, path, captured) = sink.first?;
    // As legal_moves: captures with the same start, end, pieces and crowning are one
    // (the first found), unless the variant counts each path.
    let one = if sh.engine.rules.dedup {
        sink.same
    } else {
        sink.count == 1
    };
    if !one {
        return None;
    }
    let s = usize::from(st.side);
    Some(Move {
        role: if st.kings[s].has(u32::from(raw.from)) {
            Role::King
        } else {
            Role::Man
        },
        from,
        to,
        promotes: raw.promote,
        path,
        captured,
    })
}

fn legal_moves<B: Bits>(sh: &Shared<B>, st: &State<B>) -> Vec<Move> {
    let eng = &sh.engine;
    let s = usize::from(st.side);
    let mut sink = FullSink {
        out: Vec::new(),
        best: 0,
    };
    eng.captures(st, &mut sink);
    if sink.out.is_empty() {
        let mut raw = Vec::new();
        eng.quiet(st, &mut raw);
        return raw
            .iter()
            .map(|r| Move {
                role: if st.kings[s].has(u32::from(r.from)) {
                    Role::King
                } else {
                    Role::Man
                },
                from: sh.square(u32::from(r.from)),
                to: sh.square(u32::from(r.to)),
                promotes: r.promote,
                path: Squares::new(),
                captured: Squares::new(),
            })
            .collect();
    }
    let mut caps = sink.out;
    if eng.rules.dedup {
        let mut raws: Vec<RawMove<B>> = caps.iter().map(|c| c.raw).collect();
        dedup(&mut raws);
        if raws.len() != caps.len() {
            let mut kept: Vec<RawMove<B>> = Vec::with_capacity(raws.len());
            caps.retain(|c| {
                if kept.contains(&c.raw) {
                    false
                } else {
                    kept.push(c.raw);
                    true
                }
            });
        }
    }
    caps.iter()
        .map(|c| Move {
            role: if st.kings[s].has(u32::from(c.raw.from)) {
                Role::King
            } else {
                Role::Man
            },
            from: sh.square(u32::from(c.raw.from)),
            to: sh.square(u32::from(c.raw.to)),
            promotes: c.raw.promote,
            path: Squares::map_slice(&c.path, |&b| sh.square(u32::from(b))),
            captured: Squares::map_slice(&c.taken, |&b| sh.square(u32::from(b))),
        })
        .collect()
}

/// Plays a public move on a generator state; false if its squares are not
/// on this board.
fn play_raw<B: Bits>(sh: &Shared<B>, st: &mut State<B>, m: &Move) -> bool {
    match raw_move(sh, m) {
        Some(raw) => {
            *st = sh.engine.make(st, &raw);
            true
        }
        None => false,
    }
}

/// [`play_raw`] from `from`'s pieces into `st`: `st` holds `from`'s pieces after the
/// move, or as they were if the move is not on this board.
fn play_raw_from<B: Bits>(sh: &Shared<B>, from: &State<B>, st: &mut State<B>, m: &Move) -> bool {
    match raw_move(sh, m) {
        Some(raw) => {
            *st = sh.engine.make(from, &raw);
            true
        }
        None => {
            *st = *from;
            false
        }
    }
}

/// A move in generator form; `None` if one of its squares is not on this board.
fn raw_move<B: Bits>(sh: &Shared<B>, m: &Move) -> Option<RawMove<B>> {
    let (from, to) = (sh.bit(m.from)?, sh.bit(m.to)?);
    let mut captured = B::ZERO;
    for &sq in m.captured.iter() {
        captured |= B::bit(sh.bit(sq)?);
    }
    Some(RawMove {
        from: from as u8,
        to: to as u8,
        promote: m.promotes,
        captured,
    })
}

impl PartialEq for Position {
    /// Same game type, pieces, side to move and (Frisian) king-move counts;
    /// the move number and half-move clock are ignored.
    fn eq(&self, other: &Position) -> bool {
        match (&self.inner, &other.inner) {
            (Inner::Small(a, s), Inner::Small(b, t)) => a.game_type == b.game_type && s == t,
            (Inner::Large(a, s), Inner::Large(b, t)) => a.game_type == b.game_type && s == t,
            _ => false,
        }
    }
}

impl Eq for Position {}

impl Hash for Position {
    fn hash<H: Hasher>(&self, state: &mut H) {
        dispatch!(&self.inner, |sh, st| {
            sh.game_type.hash(state);
            st.hash(state);
        })
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Position")
            .field("game_type", &self.game_type().to_string())
            .field("fen", &self.to_fen())
            .finish()
    }
}

impl fmt::Display for Position {
    /// A diagram seen from the starting player: `w`/`b` men, `W`/`B` kings,
    /// `.` empty playing squares, blanks for the others.
    ///
    /// ```
    /// use pdn::{Position, Variant};
    ///
    /// let pos = Position::from_fen_str(Variant::English, "B:WK1,21:B5,26")?;
    /// let diagram = [
    ///     " . . . .", ". . b . ", " . . . w", ". . . . ",
    ///     " . . . .", ". . . . ", " . . . b", ". . . W ",
    /// ];
    /// assert_eq!(pos.to_string().lines().collect::<Vec<_>>(), diagram);
    /// # Ok::<(), pdn::fen::FenError>(())
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = self.geometry();
        for y in (0..g.height()).rev() {
            for x in 0..g.width() {
                let c = match g.square_at(x, y) {
                    None => ' ',
                    Some(sq) => match self.piece_at(sq) {
                        None => '.',
                        Some(p) => {
                            let c = p.color.char();
                            if p.is_king() {
                                c
                            } else {
                                c.to_ascii_lowercase()
                            }
                        }
                    },
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Past the tables kept for the life of the program, game types get counted tables:
    /// their positions set up, play, copy and compare as any other.
    #[test]
    fn game_types_beyond_the_kept_tables() {
        let mut game_types = Vec::new();
        for variant in ["20", "21", "25"] {
            for size in [6, 8, 10, 12] {
                for start in ["W", "B"] {
                    for notation in ["N0", "N1", "N2", "N3", "A0", "A1", "A2", "A3"] {
                        for invert in ["0", "1"] {
                            let text =
                                format!("{variant},{start},{size},{size},{notation},{invert}");
                            game_types.extend(GameType::parse(&text).ok());
                        }
                    }
                }
            }
        }
        assert!(game_types.len() > KEPT_TABLES, "{}", game_types.len());
        let mut previous: Option<Position> = None;
        for game_type in game_types {
            let start = Position::start(game_type);
            let mut position = start.clone();
            let moves = position.legal_moves();
            if let Some(mv) = moves.first() {
                position.play(mv).expect("a legal move");
                assert_ne!(position, start, "{game_type}");
            }
            let mut copy = previous.take().unwrap_or_else(|| start.clone());
            copy.clone_from(&position);
            assert_eq!(copy, position, "{game_type}");
            assert_eq!(copy.game_type(), game_type);
            previous = Some(copy);
        }
    }
}
