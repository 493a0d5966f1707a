//! The position of a PDN game with its open readings ([`PdnPosition`]): the game types
//! (and the candidates of an ambiguous capture) the moves so far may still be read in,
//! the preferred one played at once and the others following lazily.

use std::sync::{Arc, OnceLock};

use crate::forgiven::{Fit, fit};
use crate::gametype::GameType;
use crate::geometry::{NotationKind, Square, SquareName};
use crate::moves::Move;
use crate::one_reading::{Read, try_read_in};
use crate::pdn_move::{MAX_READINGS, PdnMove};
use crate::position::Position;
use crate::setups::start_in;

/// Why a board reads moves in more than one game type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Inference {
    /// The tags declare the game type in its standard form: nothing is inferred.
    None,
    /// The tags declare no game type.
    Undeclared,
    /// The tags declare a game type with a numbering of its own.
    Numbering(GameType),
}

/// The position of a PDN game, as the notation layer keeps it: a draughts
/// [`Position`], and, while the game may still be read otherwise, its other readings.
///
/// A game has several readings while its type is inferred (one per game type that
/// still reads all its moves) and after an ambiguous capture (one per candidate), until
/// later moves rule all but one out. The preferred reading is the first one left.
///
/// The other readings follow the moves lazily: a move the preferred reading reads as
/// PDN 3.0 writes it (the common case) is played there alone and noted, and the other
/// readings replay the noted moves only when a move needs them (one the preferred
/// reading cannot read, or reads only leniently), so that a game whose type is inferred
/// costs little more than one that declares it. Each reading ends up where reading
/// every move in every reading would have left it.
#[derive(Debug)]
pub struct PdnPosition {
    position: Position,
    /// The other readings, in order of preference, before the pending moves.
    others: Vec<Position>,
    /// Whether the other readings had the preferred reading's pieces and side to move
    /// when they were last brought up to date (vacuously when there are none).
    others_alike: bool,
    inference: Inference,
    /// The other game types a game may start in, not yet set up; before the pending
    /// moves, which are then all its moves.
    start: Option<Arc<Start>>,
    /// The moves the preferred reading read as written since `others` and `start`
    /// were last brought up to date: the other readings are to replay them.
    pending: Vec<Pending>,
    /// The other readings after the pending moves, once replayed, and how many of the
    /// last of them are held in reserve: reading a move and playing it both need them.
    /// Emptied whenever the board changes.
    replayed: OnceLock<(Vec<Position>, usize)>,
    /// How many of the last readings (of `others`, then of the game types still to set
    /// up) are held in reserve: readings a game's first reading leaves out (another
    /// game type's capture separator, the game types it does not infer), which a second
    /// reading keeps behind the others, for when none of those reads a move (see
    /// [`DraughtsRules::second_reading`](notation::Rules::second_reading)). A board keeps at
    /// most [`MAX_READINGS`] readings and a game type of each variant: a byte holds it.
    reserve: u8,
    /// Whether readings are held in reserve rather than dropped: a second reading.
    keeps_reserve: bool,
}

/// A move the preferred reading read as PDN 3.0 writes it, kept for the other readings
/// to replay: its text is rebuilt from its squares.
#[derive(Clone, Copy, Debug)]
enum Pending {
    /// A move, by its first and last squares.
    Step {
        from: Square,
        to: Square,
        capture: bool,
    },
    /// The next square of the whole path the capture before was written with: one for
    /// each square after its first, the last its end. A capture written with its ends
    /// only has none.
    Through(Square),
}

/// A count of a board's readings, which a byte holds (see [`PdnPosition`]'s `reserve`).
fn small(count: usize) -> u8 {
    u8::try_from(count).unwrap_or(u8::MAX)
}

/// The most moves a board lets its other readings fall behind by: copying the board
/// (as the readers do before each move) copies them.
const MAX_PENDING: usize = 256;

/// The other game types a game may start in, not yet set up.
#[derive(Debug)]
pub(crate) struct Start {
    /// In order of preference, after the board's position's.
    candidates: Vec<GameType>,
    /// The FEN they start from (the standard start without one).
    fen: Option<String>,
    /// Each candidate's start position once set up (`None` inside if the set-up fails):
    /// reading the first move and playing it both need them, and a FEN costs more to
    /// read than the move. Made when one is first set up: most games need none.
    set_up: OnceLock<Box<[OnceLock<Option<Position>>]>>,
}

impl Start {
    /// The game types `candidates`, to start from `fen` (the standard start without one).
    pub(crate) fn new(candidates: Vec<GameType>, fen: Option<String>) -> Start {
        Start {
            candidates,
            fen,
            set_up: OnceLock::new(),
        }
    }

    /// The start position of candidate `i`, set up on first use.
    fn position(&self, i: usize) -> Option<&Position> {
        let &game_type = self.candidates.get(i)?;
        let set_up = self
            .set_up
            .get_or_init(|| self.candidates.iter().map(|_| OnceLock::new()).collect());
        set_up
            .get(i)?
            .get_or_init(|| {
                start_in(game_type, self.fen.as_deref())
                    .ok()
                    .map(|(p, _)| p)
            })
            .as_ref()
    }
}

impl Clone for PdnPosition {
    fn clone(&self) -> PdnPosition {
        PdnPosition {
            position: self.position.clone(),
            others: self.others.clone(),
            others_alike: self.others_alike,
            inference: self.inference,
            start: self.start.clone(),
            pending: self.pending.clone(),
            replayed: OnceLock::new(),
            reserve: self.reserve,
            keeps_reserve: self.keeps_reserve,
        }
    }

    /// Field by field, so that keeping the board before each move reuses what the old
    /// copy holds (see [`Position`]'s `clone_from`).
    fn clone_from(&mut self, source: &PdnPosition) {
        self.position.clone_from(&source.position);
        self.inference = source.inference;
        self.reserve = source.reserve;
        self.keeps_reserve = source.keeps_reserve;
        if self.single() && source.single() {
            // One reading each: no other reading, and so no pending move, on either.
            return;
        }
        self.others.clone_from(&source.others);
        self.others_alike = source.others_alike;
        let same_start = match (&self.start, &source.start) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        };
        if !same_start {
            self.start.clone_from(&source.start);
        }
        self.pending.clone_from(&source.pending);
        if self.replayed.get().is_some() {
            self.replayed = OnceLock::new();
        }
    }
}

impl PdnPosition {
    /// A board of a declared game type.
    pub fn new(position: Position) -> PdnPosition {
        PdnPosition {
            position,
            others: Vec::new(),
            others_alike: true,
            inference: Inference::None,
            start: None,
            pending: Vec::new(),
            replayed: OnceLock::new(),
            reserve: 0,
            keeps_reserve: false,
        }
    }

    /// The position, in the preferred reading.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The game type of the preferred reading.
    pub fn game_type(&self) -> GameType {
        self.position.game_type()
    }

    /// The positions of the other readings still consistent with the moves, in order of
    /// preference: empty once the game reads one way only.
    ///
    /// ```
    /// use notation::{MoveContext, Rules, Tags};
    /// use pdn::DraughtsRules;
    ///
    /// let rules = DraughtsRules::new();
    /// let mut board = rules.start_position(&Tags::new())?.position;
    /// // No GameType tag: international draughts, unless the moves say otherwise.
    /// assert!(board.is_open());
    /// let (mv, _) = rules.read_move(&board, b"11-15", MoveContext::default())?;
    /// rules.play(&mut board, &mv);
    /// // Not an international move: English draughts, or another 8×8 game that
    /// // numbers its squares so.
    /// assert_eq!(board.game_type().variant(), pdn::Variant::English);
    /// assert!(!board.alternatives().is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn alternatives(&self) -> Vec<Position> {
        self.with_readings(|r| r.others.to_vec())
    }

    /// Whether the game may still be read otherwise: its type is inferred and not
    /// settled, or an ambiguous capture is not resolved.
    pub fn is_open(&self) -> bool {
        !self.single() && self.with_readings(|r| r.count() > 1)
    }

    /// A board of these readings: `position` the preferred one, then `others`, then the
    /// game types of `start` still to set up; the last `reserve` of them held in reserve
    /// where the board `keeps_reserve` (a second reading).
    pub(crate) fn from_readings(
        position: Position,
        others: Vec<Position>,
        start: Option<Arc<Start>>,
        inference: Inference,
        reserve: usize,
        keeps_reserve: bool,
    ) -> PdnPosition {
        PdnPosition {
            others_alike: alike(&position, &others),
            position,
            others,
            inference,
            start,
            pending: Vec::new(),
            replayed: OnceLock::new(),
            reserve: small(reserve),
            keeps_reserve,
        }
    }

    /// Why the board reads moves in more than one game type, if it does.
    pub(crate) fn inference(&self) -> Inference {
        self.inference
    }

    /// Whether readings are held in reserve rather than dropped: a second reading.
    pub(crate) fn keeps_reserve(&self) -> bool {
        self.keeps_reserve
    }

    /// Whether the other readings may fall another move behind the preferred one, to
    /// follow it later (see [`MAX_PENDING`]).
    #[inline]
    pub(crate) fn may_defer_others(&self) -> bool {
        self.pending.len() < MAX_PENDING
    }

    /// Plays a move read on this board: in the preferred reading alone, noted for the
    /// other readings to follow, when it was read there as written; else in each reading
    /// that read it, as its [`Reading`](crate::pdn_move::Reading) records.
    pub(crate) fn play(&mut self, mv: &PdnMove) {
        let Some(reading) = &mv.reading else {
            if self.single() {
                self.position.play_unchecked(&mv.mv);
                return;
            }
            if self.replayed.get().is_some() {
                self.replayed = OnceLock::new();
            }
            let first_capture = mv.mv.is_capture()
                && !self
                    .pending
                    .iter()
                    .any(|p| matches!(p, Pending::Step { capture: true, .. }));
            self.pending.push(Pending::Step {
                from: mv.mv.from(),
                to: mv.mv.to(),
                capture: mv.mv.is_capture(),
            });
            if mv.whole_path {
                let path = mv.mv.path().iter();
                self.pending
                    .extend(path.map(|&square| Pending::Through(square)));
            }
            self.position.play_unchecked(&mv.mv);
            // A second reading keeps them in reserve: the replay moves them there.
            if first_capture && self.others_alike && !self.others.is_empty() && !self.keeps_reserve
            {
                self.keep_capture_separator();
            }
            return;
        };
        let (position, others, reserve) = self.with_readings(|readings| {
            let after = |i: u16, m: &Move| {
                readings.get(usize::from(i)).map(|p| {
                    let mut p = p.clone();
                    p.play_unchecked(m);
                    p
                })
            };
            let in_play = reading.others.len() - usize::from(reading.reserve);
            let (playing, reserved) = reading.others.split_at(in_play);
            let mut others: Vec<Position> =
                playing.iter().filter_map(|(i, m)| after(*i, m)).collect();
            let before_reserve = others.len();
            others.extend(reserved.iter().filter_map(|(i, m)| after(*i, m)));
            let reserve = others.len() - before_reserve;
            (after(reading.from, &mv.mv), others, reserve)
        });
        match position {
            Some(position) => {
                self.others_alike = alike(&position, &others);
                self.position = position;
                self.others = others;
                self.reserve = small(reserve);
            }
            None => {
                self.position.play_unchecked(&mv.mv);
                self.others.clear();
                self.reserve = 0;
            }
        }
        self.start = None;
        self.pending.clear();
        self.replayed = OnceLock::new();
    }

    /// Plays a move from this board into another, leaving this one as it was, where only
    /// the position changes: a move read as written, from a board of one reading onto
    /// another such board (a validator's two boards of a line). `to` is then what copying
    /// this board there and playing the move would make it. `false`, with nothing done,
    /// otherwise.
    #[inline]
    pub(crate) fn play_into(&self, to: &mut PdnPosition, mv: &PdnMove) -> bool {
        if mv.reading.is_none() && self.single() && to.single() {
            to.position.play_from(&self.position, &mv.mv);
            to.inference = self.inference;
            return true;
        }
        false
    }

    /// Drops, once the first capture since the other readings were brought up to date is
    /// pending, the readings that would drop out replaying it: they are no longer copied
    /// with every move until something needs the readings.
    ///
    /// For the caller to call only when the other readings had the preferred reading's
    /// pieces then, and so still have: the pending moves before the capture are steps,
    /// which move a piece alike in every game type (or drop the reading that cannot make
    /// them). In the same position, a reading reads the capture as a capture or not at
    /// all; written with `x` or `:`, the preferred reading's separator, it is a departure
    /// for a reading that writes captures otherwise, and a reading that needs one is
    /// dropped. (A capture written with `-`, Thai draughts', is no departure: `-` is read
    /// for any capture.) The game types still to set up, if any, are left to the replay:
    /// they cost nothing to carry.
    fn keep_capture_separator(&mut self) {
        let separator = self.game_type().capture_separator();
        if separator == '-' {
            return;
        }
        let before = self.others.len();
        self.others
            .retain(|p| p.game_type().capture_separator() == separator);
        if self.others.len() != before {
            self.replayed = OnceLock::new();
            if self.single() {
                self.pending.clear();
            }
        }
    }

    /// Whether there is one reading only.
    pub(crate) fn single(&self) -> bool {
        self.others.is_empty() && self.start.is_none()
    }

    /// Calls `f` with the board's readings, the other readings brought up to date.
    pub(crate) fn with_readings<T>(&self, f: impl FnOnce(Readings<'_>) -> T) -> T {
        if self.pending.is_empty() {
            return f(Readings {
                preferred: &self.position,
                others: &self.others,
                start: self.start.as_deref(),
                reserve: usize::from(self.reserve),
            });
        }
        let (others, reserve) = self.replayed.get_or_init(|| self.replay());
        f(Readings {
            preferred: &self.position,
            others,
            start: None,
            reserve: *reserve,
        })
    }

    /// The other readings after the pending moves, and how many of the last of them are
    /// held in reserve: each reads them as the preferred reading did (as written, in the
    /// same notation), or is dropped, as it would have been had it read them one by one.
    /// A board that keeps a reserve moves there the readings that read a move only with
    /// another game type's capture separator, behind the others.
    fn replay(&self) -> (Vec<Position>, usize) {
        let geometry = self.position.geometry();
        let algebraic = geometry.notation().kind == NotationKind::Alphanumeric;
        let same_notation = |p: &Position| {
            (p.game_type().notation().kind == NotationKind::Alphanumeric) == algebraic
        };
        let mut readings: Vec<Position> = self.others.clone();
        // Where the reserve begins among the readings, before and after the game types
        // still to set up are filtered.
        let mut reserve_from = self.others.len();
        if let Some(start) = &self.start {
            let total = self.others.len() + start.candidates.len();
            let boundary = total.saturating_sub(usize::from(self.reserve));
            reserve_from = reserve_from.min(boundary);
            for i in 0..start.candidates.len() {
                let kind = start.candidates[i].notation().kind;
                if (kind == NotationKind::Alphanumeric) != algebraic {
                    continue;
                }
                if let Some(position) = start.position(i) {
                    if self.others.len() + i < boundary {
                        reserve_from += 1;
                    }
                    readings.push(position.clone());
                }
            }
        } else {
            reserve_from = readings.len().saturating_sub(usize::from(self.reserve));
        }
        let preferred = self.position.game_type();
        let capture_separator = preferred.capture_separator();
        let mut text = String::new();
        let mut entries = self.pending.iter().peekable();
        while let Some(&entry) = entries.next() {
            let Pending::Step { from, to, capture } = entry else {
                // A path's squares are read with its capture.
                continue;
            };
            if readings.is_empty() {
                break;
            }
            let separator = if capture { capture_separator } else { '-' };
            text.clear();
            push_name(&mut text, geometry.name(from));
            let mut whole_path = false;
            while let Some(&&Pending::Through(square)) = entries.peek() {
                entries.next();
                whole_path = true;
                text.push(separator);
                push_name(&mut text, geometry.name(square));
            }
            if !whole_path {
                text.push(separator);
                push_name(&mut text, geometry.name(to));
            }
            let mut next = Vec::with_capacity(readings.len());
            let mut next_reserve = Vec::new();
            for (k, position) in readings.iter().enumerate() {
                if !same_notation(position) {
                    continue;
                }
                // Where the squares have the same names, the text's squares are the
                // step's: read from them.
                let read = if !whole_path && position.game_type().names_squares_as(&preferred) {
                    position
                        .read_pair((from, to, separator))
                        .map(|mv| (Read::One(mv), Vec::new()))
                        .or_else(|| try_read_in(position, &text))
                } else {
                    try_read_in(position, &text)
                };
                let Some((read, forgiven)) = read else {
                    continue;
                };
                let to_reserve = match (fit(&forgiven), k >= reserve_from) {
                    (Fit::Fits, false) => false,
                    (Fit::Fits | Fit::Separator, true) => true,
                    (Fit::Separator, false) if self.keeps_reserve => true,
                    _ => continue,
                };
                for mv in read.as_slice() {
                    // The preferred reading is one of the readings a board keeps.
                    if next.len() + next_reserve.len() + 1 >= MAX_READINGS {
                        break;
                    }
                    let mut after = position.clone();
                    after.play_unchecked(mv);
                    if to_reserve {
                        next_reserve.push(after);
                    } else {
                        next.push(after);
                    }
                }
            }
            reserve_from = next.len();
            next.append(&mut next_reserve);
            readings = next;
        }
        let reserve = readings.len() - reserve_from.min(readings.len());
        (readings, reserve)
    }
}

/// Writes a square's name as [`SquareName`]'s `Display` does, without its machinery: the
/// other readings of a game replay many moves.
fn push_name(out: &mut String, name: SquareName) {
    let (letter, number) = match name {
        SquareName::Number(n) => (None, u32::from(n)),
        SquareName::Alpha { file, rank } => (
            Some(char::from(b'a'.saturating_add(file))),
            u32::from(rank) + 1,
        ),
    };
    out.extend(letter);
    if number >= 100 {
        out.push(char::from(b'0' + (number / 100 % 10) as u8));
    }
    if number >= 10 {
        out.push(char::from(b'0' + (number / 10 % 10) as u8));
    }
    out.push(char::from(b'0' + (number % 10) as u8));
}

/// Whether the other readings have the preferred reading's pieces, on a board numbered
/// alike, and side to move.
fn alike(preferred: &Position, others: &[Position]) -> bool {
    others.iter().all(|other| other.same_placement(preferred))
}

/// A board's readings, the preferred first, with the other readings up to date.
#[derive(Clone, Copy)]
pub(crate) struct Readings<'a> {
    preferred: &'a Position,
    others: &'a [Position],
    /// Game types to set up, after `others`: only before the first move.
    start: Option<&'a Start>,
    /// How many of the last readings are held in reserve (see [`PdnPosition`]).
    reserve: usize,
}

impl Readings<'_> {
    /// How many readings there are (before the first move of a game whose type is
    /// inferred, counting every game type still to try).
    pub(crate) fn count(&self) -> usize {
        1 + self.others.len() + self.start.map_or(0, |s| s.candidates.len())
    }

    /// How many readings are not held in reserve: the first ones, the preferred among
    /// them.
    pub(crate) fn in_play(&self) -> usize {
        self.count().saturating_sub(self.reserve).max(1)
    }

    /// The reading with this index, the preferred first. The other game types of a game
    /// whose first move is still to come are set up here; `None` if the set-up fails.
    pub(crate) fn get(&self, index: usize) -> Option<&Position> {
        match index.checked_sub(1) {
            None => Some(self.preferred),
            Some(i) if i < self.others.len() => Some(&self.others[i]),
            Some(i) => self.start?.position(i - self.others.len()),
        }
    }

    /// Whether the reading with this index writes squares by algebraic names.
    pub(crate) fn is_algebraic(&self, index: usize) -> Option<bool> {
        let game_type = match index.checked_sub(1) {
            None => self.preferred.game_type(),
            Some(i) if i < self.others.len() => self.others[i].game_type(),
            Some(i) => *self.start?.candidates.get(i - self.others.len())?,
        };
        Some(game_type.notation().kind == NotationKind::Alphanumeric)
    }

    /// The game types of the readings not held in reserve.
    pub(crate) fn game_types(&self) -> impl Iterator<Item = GameType> + '_ {
        std::iter::once(self.preferred.game_type())
            .chain(self.others.iter().map(Position::game_type))
            .chain(self.start.iter().flat_map(|s| s.candidates.iter().copied()))
            .take(self.in_play())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::DraughtsRules;
    use crate::variant::Variant;
    use notation::{Forgiveness, MoveContext, Rules, Tags};

    /// A board open between two readings whose pieces differ: in the preferred one the
    /// capture `45x7x16x49` is the only one from 45 to 49, in the other there are two.
    fn open_board() -> (PdnPosition, Position) {
        let fen = |text| Position::from_fen_str(Variant::International, text).expect(text);
        let preferred = fen("W:WK45:B11,20,40,41,43");
        let other = fen("W:WK45:B11,20,33,40,41,43");
        let board = PdnPosition {
            position: preferred,
            others: vec![other.clone()],
            others_alike: false,
            inference: Inference::Undeclared,
            start: None,
            pending: Vec::new(),
            replayed: OnceLock::new(),
            reserve: 0,
            keeps_reserve: false,
        };
        (board, other)
    }

    /// A capture written with its whole path is read on the fast path in an open game,
    /// and the other readings follow it by that path, not by its ends alone: the other
    /// reading here, where `45x49` is ambiguous, reads the one capture the path takes.
    #[test]
    fn open_readings_follow_a_capture_by_its_whole_path() {
        let rules = DraughtsRules::new();
        let (mut board, other) = open_board();
        let (mv, forgiven) = rules
            .read_move(&board, b"45x7x16x49", MoveContext::default())
            .expect("the only capture between its ends");
        assert!(forgiven.is_none());
        assert!(mv.reading.is_none() && mv.whole_path);
        let mut text = String::new();
        rules.write_move(&board, &mv, &mut text);
        assert_eq!(text, "45x7x16x49");
        rules.play(&mut board, &mv);
        // The capture, then the three squares of its path.
        assert!(matches!(
            board.pending[..],
            [
                Pending::Step { capture: true, .. },
                Pending::Through(_),
                Pending::Through(_),
                Pending::Through(_)
            ]
        ));

        let (path_move, _) = other.parse_move("45x7x16x49").expect("a capture");
        let mut expected = other.clone();
        expected.play_unchecked(&path_move);
        let followed = board.alternatives();
        assert_eq!(followed.len(), 1);
        assert_eq!(followed[0].to_fen(), expected.to_fen());

        // Written with its ends only, the capture is ambiguous in the other reading,
        // which goes on with each candidate.
        let (mut board, _) = open_board();
        let (mv, _) = rules
            .read_move(&board, b"45x49", MoveContext::default())
            .expect("the only capture between its ends");
        assert!(!mv.whole_path);
        rules.play(&mut board, &mv);
        assert_eq!(board.alternatives().len(), 2);
    }

    /// A capture written with the preferred reading's separator drops, when it is played,
    /// the other readings that write captures otherwise, as replaying it would: they are
    /// not carried to the end of the game.
    #[test]
    fn a_capture_drops_the_readings_of_another_separator() {
        let rules = DraughtsRules::new();
        let mut board = rules
            .start_position(&Tags::new())
            .expect("the standard start")
            .position;
        let play = |board: &mut PdnPosition, token: &str| {
            let (mv, _) = rules
                .read_move(board, token.as_bytes(), MoveContext::default())
                .expect(token);
            rules.play(board, &mv);
        };
        for token in ["c3-d4", "f6-g5", "d4-e5"] {
            play(&mut board, token);
        }
        // Not international: Russian draughts, with the other algebraic game types open.
        assert_eq!(board.game_type().variant(), Variant::Russian);
        let open: Vec<Variant> = board.others.iter().map(Position::variant).collect();
        assert!(open.contains(&Variant::Czech), "{open:?}");
        let replayed: Vec<GameType> = board
            .alternatives()
            .iter()
            .map(Position::game_type)
            .collect();

        play(&mut board, "d6:f4");
        assert!(board.others.is_empty() && board.start.is_none());
        assert!(board.pending.is_empty());
        // Those that write `:` would have stayed: here none does.
        assert!(
            replayed.iter().all(|gt| gt.capture_separator() != ':'),
            "{replayed:?}"
        );
    }

    /// Readings are dropped at a capture only when they had the preferred reading's
    /// pieces: in another position, the capture may be a step there, which the other
    /// separator does not rule out.
    #[test]
    fn readings_of_other_pieces_are_left_to_the_replay() {
        let rules = DraughtsRules::new();
        let at = |variant, text| {
            Position::from_fen(GameType::new(variant), text)
                .expect(text)
                .0
        };
        let russian = at(Variant::Russian, "W:WKc1:Be3,h8");
        for (other, kept) in [
            // The same pieces: c1:f4 is a capture in Czech draughts too, written with the
            // other separator.
            (at(Variant::Czech, "W:WKc1:Be3,h8"), false),
            // No piece on e3: c1:f4 is a step of the king, which Czech draughts reads.
            (at(Variant::Czech, "W:WKc1:Bh8"), true),
        ] {
            let others = vec![other];
            let mut board = PdnPosition {
                others_alike: alike(&russian, &others),
                position: russian.clone(),
                others,
                inference: Inference::Undeclared,
                start: None,
                pending: Vec::new(),
                replayed: OnceLock::new(),
                reserve: 0,
                keeps_reserve: false,
            };
            let (mv, _) = rules
                .read_move(&board, b"c1:f4", MoveContext::default())
                .expect("a capture");
            rules.play(&mut board, &mv);
            assert_eq!(board.alternatives().len(), usize::from(kept));
        }
    }

    /// Dropping the readings of another capture separator at once changes nothing that
    /// reading the game shows: games of every variant, read with no GameType tag, leave
    /// the same readings after every move as when the readings are only dropped replaying
    /// the moves.
    #[test]
    fn dropping_readings_at_a_capture_is_what_the_replay_does() {
        let rules = DraughtsRules::new();
        let fen = |p: &Position| p.to_fen();
        let readings = |board: &PdnPosition| -> Vec<(GameType, String)> {
            std::iter::once(board.position())
                .chain(&board.alternatives())
                .map(|p| (p.game_type(), fen(p)))
                .collect()
        };
        for variant in Variant::ALL {
            for stride in [1, 2, 3, 5, 7] {
                let mut position = Position::new(variant);
                let start = rules
                    .start_position(&Tags::new())
                    .expect("the standard start")
                    .position;
                let (mut dropping, mut replaying) = (start.clone(), start);
                for ply in 0..60 {
                    let moves = position.legal_moves();
                    let Some(mv) = moves.get((ply * stride) % moves.len().max(1)) else {
                        break;
                    };
                    let text = position.move_to_text(mv);
                    position.play_unchecked(mv);
                    // Without the drop: the readings are not known to be alike.
                    replaying.others_alike = false;
                    let read = |board: &PdnPosition| {
                        rules.read_move(board, text.as_bytes(), MoveContext::default())
                    };
                    match (read(&dropping), read(&replaying)) {
                        (Ok((a, _)), Ok((b, _))) => {
                            assert_eq!(a, b, "{variant} {stride} {ply}: {text}");
                            rules.play(&mut dropping, &a);
                            rules.play(&mut replaying, &b);
                        }
                        (Err(a), Err(b)) => {
                            assert_eq!(a.to_string(), b.to_string());
                            break;
                        }
                        (a, b) => panic!("{variant} {stride} {ply}: {text}: {a:?} {b:?}"),
                    }
                    assert_eq!(
                        readings(&dropping),
                        readings(&replaying),
                        "{variant} {stride} {ply}: {text}"
                    );
                }
            }
        }
    }

    /// Playing a move into another board gives what copying the board there and playing
    /// the move gives, whatever that board held: games of every variant, declared (one
    /// reading) and not (several, which are copied and played), played into the board of
    /// two moves before, as the validator does.
    #[test]
    fn playing_into_another_board_is_copying_and_playing() {
        let rules = DraughtsRules::new();
        let state = |board: &PdnPosition| -> Vec<(GameType, String, u32)> {
            std::iter::once(board.position())
                .chain(&board.alternatives())
                .map(|p| (p.game_type(), p.to_fen(), p.fullmove_number()))
                .collect()
        };
        for variant in Variant::ALL {
            for declared in [true, false] {
                let mut tags = Tags::new();
                if declared {
                    tags.set("GameType", GameType::new(variant).to_short_string());
                }
                let start = rules.start_position(&tags).expect("a start").position;
                let mut boards = [start.clone(), start];
                let mut position = Position::new(variant);
                for ply in 0..40 {
                    let moves = position.legal_moves();
                    let Some(mv) = moves.get((ply * 3) % moves.len().max(1)) else {
                        break;
                    };
                    let text = position.move_to_text(mv);
                    position.play_unchecked(mv);
                    let [from, to] = &mut boards;
                    let Ok((mv, _)) =
                        rules.read_move(from, text.as_bytes(), MoveContext::default())
                    else {
                        break;
                    };
                    let mut expected = from.clone();
                    rules.play(&mut expected, &mv);
                    if !DraughtsRules::play_position_into(from, to, &mv) {
                        to.clone_from(from);
                        rules.play(to, &mv);
                    }
                    assert_eq!(
                        state(to),
                        state(&expected),
                        "{variant} {declared} {ply}: {text}"
                    );
                    boards.swap(0, 1);
                }
            }
        }
    }
}
