//! The lines of a game open as it is read, for a reader that plays every line's moves
//! without building a tree: [`LineStack`], one [`OpenLine`] per open variation.

use crate::diagnostic::DiagnosticKind;

/// One open line of a game being read: the position its moves reached, the one before
/// its last move (where a variation of that move starts), how many moves it has, and
/// what else its reader keeps for it (`extra`).
///
/// The two positions take turns in two slots: a move is played from the position into
/// the other slot ([`OpenLine::slots_mut`]), which then becomes the position, so that a
/// move costs at most one copy of a position.
#[derive(Clone, Copy, Debug)]
pub struct OpenLine<P, X = ()> {
    slots: [P; 2],
    /// The slot of the position after the last move.
    current: usize,
    moves: u64,
    /// What the reader keeps for the line besides.
    pub extra: X,
}

impl<P: Clone, X: Default> OpenLine<P, X> {
    /// A line with no move yet, from `start`.
    pub fn new(start: P) -> OpenLine<P, X> {
        OpenLine {
            slots: [start.clone(), start],
            current: 0,
            moves: 0,
            extra: X::default(),
        }
    }
}

impl<P, X> OpenLine<P, X> {
    /// The position after the line's last move.
    #[inline]
    pub fn position(&self) -> &P {
        &self.slots[self.current & 1]
    }

    /// The position after the line's last move, to change (a move number that says
    /// whose turn it is, say).
    #[inline]
    pub fn position_mut(&mut self) -> &mut P {
        &mut self.slots[self.current & 1]
    }

    /// The position before the line's last move (its start before any move).
    #[inline]
    pub fn before(&self) -> &P {
        &self.slots[(self.current & 1) ^ 1]
    }

    /// How many moves the line has.
    #[inline]
    pub fn moves(&self) -> u64 {
        self.moves
    }

    /// The position and the other slot, to play the next move from the one into the
    /// other; then [`OpenLine::played_into_other`] or [`OpenLine::played_in_place`].
    #[inline]
    pub fn slots_mut(&mut self) -> (&mut P, &mut P) {
        let [first, second] = &mut self.slots;
        if self.current & 1 == 0 {
            (first, second)
        } else {
            (second, first)
        }
    }

    /// A move was played from the position into the other slot, which becomes the
    /// position (the position it was played from, the one before it).
    #[inline]
    pub fn played_into_other(&mut self) {
        self.current ^= 1;
        self.moves += 1;
    }

    /// A move was played on the position itself, after the position was copied into
    /// the other slot (which so holds the position before it).
    #[inline]
    pub fn played_in_place(&mut self) {
        self.moves += 1;
    }

    /// Starts the line afresh from a set-up's position, keeping its count of moves.
    pub fn set_up(&mut self, position: P)
    where
        P: Clone,
    {
        let current = self.current & 1;
        self.slots[current ^ 1] = position.clone();
        self.slots[current] = position;
    }
}

/// Why a variation could not begin ([`LineStack::begin_variation`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoVariation {
    /// No line is open (the game's start position could not be had).
    NoLine,
    /// The current line has no move for the variation to be one of.
    NoMove,
}

impl NoVariation {
    /// What a reader reports of it, if anything: a variation before any move is skipped
    /// with a diagnostic; with no line open, the game's start is what was reported.
    pub fn diagnostic(self) -> Option<DiagnosticKind> {
        match self {
            NoVariation::NoLine => None,
            NoVariation::NoMove => Some(DiagnosticKind::UnexpectedToken(
                "variation before any move; skipped".to_owned(),
            )),
        }
    }
}

/// The lines of a game open as it is read: the main line, then one line per open
/// variation, the innermost last. A variation starts from the position before its
/// line's last move, and ends with its line.
///
/// ```
/// use notation::{LineStack, NoVariation};
///
/// // Positions as the moves that reached them.
/// let mut lines: LineStack<Vec<&str>> = LineStack::new();
/// lines.start(Vec::new());
/// assert_eq!(lines.begin_variation(), Err(NoVariation::NoMove));
/// for mv in ["e4", "e5"] {
///     let line = lines.current_mut().unwrap();
///     let (position, next) = line.slots_mut();
///     next.clone_from(position);
///     next.push(mv);
///     line.played_into_other();
/// }
/// // A variation of the last move, 1... c5.
/// assert_eq!(lines.begin_variation(), Ok(()));
/// assert_eq!(lines.current().unwrap().position(), &["e4"]);
/// assert_eq!(lines.depth(), 2);
/// let variation = lines.end_variation().unwrap();
/// assert_eq!(variation.moves(), 0);
/// // The main line does not end as a variation.
/// assert!(lines.end_variation().is_none());
/// assert_eq!(lines.main_line().unwrap().position(), &["e4", "e5"]);
/// ```
#[derive(Clone, Debug)]
pub struct LineStack<P, X = ()> {
    lines: Vec<OpenLine<P, X>>,
}

impl<P, X> Default for LineStack<P, X> {
    fn default() -> Self {
        LineStack { lines: Vec::new() }
    }
}

impl<P: Clone, X: Default> LineStack<P, X> {
    /// No line open.
    pub fn new() -> LineStack<P, X> {
        LineStack::default()
    }

    /// Closes every line, for the next game.
    #[inline]
    pub fn clear(&mut self) {
        self.lines.clear();
    }

    /// The main line begins, from `start`.
    pub fn start(&mut self, start: P) {
        self.lines.push(OpenLine::new(start));
    }

    /// How many lines are open: 1 on the main line, more in a variation, 0 before the
    /// movetext or when the start position could not be had.
    #[inline]
    pub fn depth(&self) -> usize {
        self.lines.len()
    }

    /// The line being read: the innermost open one.
    #[inline]
    pub fn current(&self) -> Option<&OpenLine<P, X>> {
        self.lines.last()
    }

    /// The line being read, to play a move in.
    #[inline]
    pub fn current_mut(&mut self) -> Option<&mut OpenLine<P, X>> {
        self.lines.last_mut()
    }

    /// The main line.
    #[inline]
    pub fn main_line(&self) -> Option<&OpenLine<P, X>> {
        self.lines.first()
    }

    /// Whether the line being read has a move.
    #[inline]
    pub fn has_move(&self) -> bool {
        self.lines.last().is_some_and(|line| line.moves > 0)
    }

    /// A variation of the current line's last move begins, from the position before it.
    ///
    /// # Errors
    /// When no line is open, or the current one has no move yet.
    pub fn begin_variation(&mut self) -> Result<(), NoVariation> {
        let line = self.lines.last().ok_or(NoVariation::NoLine)?;
        if line.moves == 0 {
            return Err(NoVariation::NoMove);
        }
        let start = line.before().clone();
        self.lines.push(OpenLine::new(start));
        Ok(())
    }

    /// The innermost variation ends: its line, or `None` on the main line (which ends
    /// with the game, not with a variation).
    pub fn end_variation(&mut self) -> Option<OpenLine<P, X>> {
        if self.lines.len() > 1 {
            self.lines.pop()
        } else {
            None
        }
    }
}
