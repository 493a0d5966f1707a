//! Checking chess games without building them: a [`Visitor`] that resolves every move of
//! the main line and of every variation on the fly.
//!
//! [`Validator`] keeps one position (and the one before the last move) per open variation,
//! on a stack: no tree, no allocation per move. It reports what the tree builder
//! ([`GameReader`](crate::GameReader)) reports, with the same messages, so that a checker
//! can use either; it counts the moves it played.

use std::ops::ControlFlow;

use notation::{
    At, Diagnostic, DiagnosticKind, Dialect, GameDiagnostics, GameResult, LineStack, Nag, OpenLine,
    RawGame, RawValue, ReadOptions, Rules, SetupError, Skip, TagNames, Validate, Visitor,
};

// The notation layer's, shared with the other game crate's validator.
pub use notation::ValidatedGame;

use crate::Forgiven;
use crate::rules::{MoveError, StartTags, start_position};
use crate::{ChessRules, Move, Position};

/// What a [`Validator`] asked for it ([`Validator::outlining`]) keeps of the last game it
/// read: its main line, and how much is written around it. Enough to tell duplicates
/// apart (the same start and moves, or the same end) and to rank them, without a tree.
#[derive(Clone, Debug, Default)]
pub struct GameOutline {
    /// The position the main line starts from.
    pub start: Position,
    /// The main line's moves, up to the first error if any.
    pub moves: Vec<Move>,
    /// The position after them.
    pub end: Position,
    /// Tag pairs.
    pub tags: u32,
    /// Comments, anywhere in the movetext.
    pub comments: u32,
    /// Variations, at any depth.
    pub variations: u32,
}

/// A tag value kept for the start position.
#[derive(Default)]
struct StartTag {
    value: String,
    present: bool,
}

impl StartTag {
    fn set(&mut self, value: &str) {
        self.value.clear();
        self.value.push_str(value);
        self.present = true;
    }

    fn get(&self) -> Option<&str> {
        self.present.then_some(self.value.as_str())
    }
}

/// A [`Visitor`] that checks chess games: every move of the main line and of every
/// variation is resolved and played, and everything forgiven or wrong is reported, as the
/// tree builder reports it, without building a tree.
///
/// Drive it with a [`Reader`](notation::Reader) (or use [`ValidatingReader`]):
///
/// ```
/// use notation::{Dialect, ReadOptions, Reader};
/// use pgn::{Severity, Validator};
///
/// let pgn = b"[Round \"1\"]\n\n1. e4 e5 (1... c5 2. Nf3) 2. Nf3 Nc6 3. Bb5 *\n\n\
///             [Round \"2\"]\n\n1. e4 Ke7 2. d4 *\n";
/// let options = ReadOptions::default();
/// let mut reader = Reader::new(&pgn[..], Dialect::PGN, options);
/// let mut validator = Validator::new(options);
///
/// let first = reader.read_game(&mut validator)?.unwrap();
/// assert_eq!((first.plies, first.errors()), (7, 0));
///
/// let second = reader.read_game(&mut validator)?.unwrap();
/// assert_eq!((second.plies, second.errors()), (1, 1));
/// assert_eq!(second.diagnostics[0].severity, Severity::Error);
/// assert_eq!(
///     second.diagnostics[0].to_string(),
///     "7:7: error: Ke7: illegal move: no black king can move to e7 \
///      (position rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1) (game 2)"
/// );
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct Validator {
    /// Whether moves are no longer read: after an error, or for an unsupported game.
    stopped: bool,
    plies: u64,
    /// The game's diagnostics, those given between games, and what the set-up said.
    diagnostics: GameDiagnostics,
    /// The open lines: the main line, and a line per open variation.
    lines: LineStack<Position>,
    /// The move number written before the next move.
    number: Option<u64>,
    names: TagNames,
    /// Where the last tag pair ended.
    tags_end: u64,
    variant: StartTag,
    set_up: StartTag,
    fen: StartTag,
    /// The initial position, made once.
    initial: Position,
    /// The outline of the game being read, when asked for.
    outline: Option<GameOutline>,
    /// The move the last move token was read as, and what was forgiven in it.
    last: Option<(Move, Forgiven)>,
    /// Whether the last tag pair repeated an earlier one's name (and was left out).
    duplicate_tag: bool,
}

impl Validator {
    /// A validator reporting with these options' severities.
    pub fn new(options: ReadOptions) -> Validator {
        Validator {
            stopped: false,
            plies: 0,
            diagnostics: GameDiagnostics::new(options),
            lines: LineStack::new(),
            number: None,
            names: TagNames::default(),
            tags_end: 0,
            variant: StartTag::default(),
            set_up: StartTag::default(),
            fen: StartTag::default(),
            initial: Position::new(),
            outline: None,
            last: None,
            duplicate_tag: false,
        }
    }

    /// Keeps an outline of each game ([`GameOutline`]: its main line and counts of its
    /// tags, comments and variations), read with [`Validator::outline`].
    ///
    /// ```
    /// use notation::{Dialect, ReadOptions, Reader};
    /// use pgn::{Position, Validator};
    ///
    /// let pgn = b"[Event \"e\"]\n\n1. e4 {best} e5 (1... c5 2. Nf3) 2. Nf3 *\n";
    /// let options = ReadOptions::default();
    /// let mut reader = Reader::new(&pgn[..], Dialect::PGN, options);
    /// let mut validator = Validator::new(options).outlining();
    /// reader.read_game(&mut validator)?;
    /// let outline = validator.outline().unwrap();
    /// assert_eq!(outline.moves.len(), 3);
    /// assert_eq!(outline.start, Position::new());
    /// assert_eq!(
    ///     outline.end.to_fen(),
    ///     "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    /// );
    /// assert_eq!((outline.tags, outline.comments, outline.variations), (1, 1, 1));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn outlining(mut self) -> Validator {
        self.outline = Some(GameOutline::default());
        self
    }

    /// The outline of the game read last, when asked for ([`Validator::outlining`]).
    pub fn outline(&self) -> Option<&GameOutline> {
        self.outline.as_ref()
    }

    /// How many lines are open: 1 on the main line, more in a variation, 0 before the
    /// movetext or when the start position could not be set up. A program that reads
    /// along ([`Validator::last_move`]) tells the main line's moves from the others'.
    pub fn depth(&self) -> usize {
        self.lines.depth()
    }

    /// Whether the moves are no longer read: after an error, or a start that could not be
    /// set up.
    pub fn is_stopped(&self) -> bool {
        self.stopped
    }

    /// The position the current line's moves have reached.
    pub fn position(&self) -> Option<&Position> {
        self.lines.current().map(OpenLine::position)
    }

    /// The position the main line's moves have reached (at the game's end: its final
    /// position).
    pub fn main_line_position(&self) -> Option<&Position> {
        self.lines.main_line().map(OpenLine::position)
    }

    /// Whether the last tag pair read repeated an earlier pair's name: it is reported, and
    /// left out as the tree builder leaves it out. Names compare as written.
    pub fn tag_was_duplicate(&self) -> bool {
        self.duplicate_tag
    }

    /// The move the last move token was read as, what was forgiven in it, and the
    /// positions before and after it; `None` when the token was not read as a move. For a
    /// program that reads along: it asks right after [`Visitor::move_token`].
    ///
    /// ```
    /// use notation::{Dialect, ReadOptions, Reader};
    /// use pgn::{Validator};
    /// use pgn::Forgiven;
    ///
    /// struct Sans(Validator, Vec<String>);
    /// impl notation::Visitor for Sans {
    ///     type Output = ();
    ///     fn begin_game(&mut self) {
    ///         self.0.begin_game();
    ///     }
    ///     fn begin_movetext(&mut self) -> std::ops::ControlFlow<()> {
    ///         self.0.begin_movetext()
    ///     }
    ///     fn move_token(&mut self, token: &[u8], at: notation::At<'_>) -> std::ops::ControlFlow<()> {
    ///         let flow = self.0.move_token(token, at);
    ///         if let Some((mv, forgiven, before, _after)) = self.0.last_move() {
    ///             assert_eq!(forgiven, Forgiven::empty());
    ///             self.1.push(before.san(&mv).to_string());
    ///         }
    ///         flow
    ///     }
    ///     fn end_game(&mut self, raw: notation::RawGame<'_>) {
    ///         self.0.end_game(raw);
    ///     }
    /// }
    /// let mut sans = Sans(Validator::default(), Vec::new());
    /// let mut reader = Reader::new(&b"1. e4 e5 2. Nf3 *"[..], Dialect::PGN, ReadOptions::default());
    /// reader.read_game(&mut sans)?;
    /// assert_eq!(sans.1, ["e4", "e5", "Nf3"]);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn last_move(&self) -> Option<(Move, Forgiven, &Position, &Position)> {
        let (mv, forgiven) = self.last?;
        let line = self.lines.current()?;
        Some((mv, forgiven, line.before(), line.position()))
    }

    /// Takes the diagnostics given outside any game (text after the last game, an empty
    /// input).
    pub fn take_orphans(&mut self) -> Vec<Diagnostic> {
        self.diagnostics.take_orphans()
    }

    fn report(&mut self, kind: DiagnosticKind, at: &At<'_>) {
        self.diagnostics.report(kind, at);
    }

    /// Reports the start position's diagnostics at the first movetext token.
    #[inline]
    fn flush_setup_at(&mut self, at: &At<'_>) {
        self.diagnostics.flush_setup_at(at);
    }

    fn stop_at(&mut self, at: &At<'_>) -> ControlFlow<()> {
        self.flush_setup_at(at);
        self.stopped = true;
        ControlFlow::Break(())
    }
}

impl Default for Validator {
    fn default() -> Self {
        Validator::new(ReadOptions::default())
    }
}

impl Visitor for Validator {
    type Output = ValidatedGame;

    fn begin_game(&mut self) {
        self.diagnostics.begin_game();
        self.stopped = false;
        self.plies = 0;
        self.lines.clear();
        self.number = None;
        self.names.clear();
        self.tags_end = 0;
        self.variant.present = false;
        self.set_up.present = false;
        self.fen.present = false;
        self.last = None;
        if let Some(outline) = &mut self.outline {
            outline.moves.clear();
            outline.start = Position::new();
            outline.end = Position::new();
            (outline.tags, outline.comments, outline.variations) = (0, 0, 0);
        }
    }

    fn tag(&mut self, name: &[u8], value: RawValue<'_>, at: At<'_>) -> ControlFlow<()> {
        self.tags_end = at.span().end;
        if let Some(outline) = &mut self.outline {
            outline.tags += 1;
        }
        let tag = self.names.check(name, value);
        self.duplicate_tag = tag.duplicate;
        if tag.not_utf8 {
            self.report(DiagnosticKind::NotUtf8, &at);
        }
        if tag.duplicate {
            let name = String::from_utf8_lossy(&tag.name).into_owned();
            self.report(DiagnosticKind::DuplicateTag { name }, &at);
            return ControlFlow::Continue(());
        }
        let (name, unescaped) = (&*tag.name, &*tag.value);
        if let Some(kind) = notation::check_tag_value(&Dialect::PGN, name, unescaped) {
            self.report(kind, &at);
        }
        let slot = match name {
            b"Variant" => &mut self.variant,
            b"SetUp" => &mut self.set_up,
            b"FEN" => &mut self.fen,
            _ => return ControlFlow::Continue(()),
        };
        slot.set(&notation::decode(unescaped).0);
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self) -> ControlFlow<()> {
        let tags = StartTags {
            variant: self.variant.get(),
            set_up: self.set_up.get(),
            fen: self.fen.get(),
        };
        if tags.variant.is_none() && tags.set_up.is_none() && tags.fen.is_none() {
            self.lines.start(self.initial);
            return ControlFlow::Continue(());
        }
        match start_position(tags) {
            Ok(setup) => {
                self.diagnostics.hold_setup_warnings(setup.warnings);
                if let Some(outline) = &mut self.outline {
                    outline.start = setup.position;
                }
                self.lines.start(setup.position);
            }
            Err(error) => {
                self.stopped = true;
                self.diagnostics.hold_setup_error(error);
            }
        }
        ControlFlow::Continue(())
    }

    fn move_number(&mut self, number: u64, _ellipsis: bool, at: At<'_>) -> ControlFlow<()> {
        if self.stopped {
            return self.stop_at(&at);
        }
        self.flush_setup_at(&at);
        let written = at.bytes();
        if written.len() > 1 && written[0] == b'0' && written[1].is_ascii_digit() {
            let found = String::from_utf8_lossy(written).into_owned();
            self.report(DiagnosticKind::MoveNumberLeadingZero { found }, &at);
        }
        self.number = Some(number);
        ControlFlow::Continue(())
    }

    fn move_token(&mut self, token: &[u8], at: At<'_>) -> ControlFlow<()> {
        self.last = None;
        if self.stopped {
            return self.stop_at(&at);
        }
        self.flush_setup_at(&at);
        let number = self.number.take();
        let main_line = self.lines.depth() == 1;
        let Some(line) = self.lines.current_mut() else {
            return self.stop_at(&at);
        };
        let (position, next) = line.slots_mut();
        *next = *position;
        match next.play_san(token) {
            Ok((mv, forgiven)) => {
                self.last = Some((mv, forgiven));
                if let Some(outline) = &mut self.outline
                    && main_line
                {
                    outline.moves.push(mv);
                }
                let expected = u64::from(position.fullmoves());
                line.played_into_other();
                self.plies += 1;
                if let Some(found) = number.filter(|&n| n != expected) {
                    self.report(DiagnosticKind::WrongMoveNumber { found, expected }, &at);
                }
                if !forgiven.is_empty() {
                    let kind = DiagnosticKind::LenientMove {
                        token: String::from_utf8_lossy(token).into_owned(),
                        message: forgiven.to_string(),
                    };
                    self.report(kind, &at);
                }
                ControlFlow::Continue(())
            }
            Err(error) => {
                let kind = DiagnosticKind::BadMove {
                    token: String::from_utf8_lossy(token).into_owned(),
                    message: MoveError::new(error, line.position()).to_string(),
                };
                self.report(kind, &at);
                self.stop_at(&at)
            }
        }
    }

    fn nag(&mut self, nag: Nag, at: At<'_>) -> ControlFlow<()> {
        if self.stopped {
            return self.stop_at(&at);
        }
        self.flush_setup_at(&at);
        if !self.lines.has_move() {
            let kind = DiagnosticKind::UnexpectedToken(format!("annotation {nag} before any move"));
            self.report(kind, &at);
        }
        ControlFlow::Continue(())
    }

    fn comment(&mut self, text: &[u8], at: At<'_>) -> ControlFlow<()> {
        // A comment from before the tags (the reader holds those until it has read them)
        // is not movetext: it is read even when the moves are not.
        if self.stopped && at.span().start >= self.tags_end {
            return self.stop_at(&at);
        }
        self.flush_setup_at(&at);
        if let Some(outline) = &mut self.outline {
            outline.comments += 1;
        }
        if !text.is_ascii() && std::str::from_utf8(text).is_err() {
            self.report(DiagnosticKind::NotUtf8, &at);
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, at: At<'_>) -> ControlFlow<(), Skip> {
        if self.stopped {
            let _ = self.stop_at(&at);
            return ControlFlow::Break(());
        }
        self.flush_setup_at(&at);
        match self.lines.begin_variation() {
            Ok(()) => {
                if let Some(outline) = &mut self.outline {
                    outline.variations += 1;
                }
                ControlFlow::Continue(Skip(false))
            }
            Err(no) => {
                if let Some(kind) = no.diagnostic() {
                    self.report(kind, &at);
                }
                ControlFlow::Continue(Skip(true))
            }
        }
    }

    fn end_variation(&mut self, at: At<'_>) -> ControlFlow<()> {
        if self.stopped {
            return self.stop_at(&at);
        }
        self.flush_setup_at(&at);
        if let Some(line) = self.lines.end_variation() {
            if line.moves() == 0 {
                self.report(DiagnosticKind::EmptyVariation, &at);
            }
        }
        ControlFlow::Continue(())
    }

    fn setup(&mut self, text: &[u8], at: At<'_>) -> ControlFlow<()> {
        if self.stopped {
            return self.stop_at(&at);
        }
        self.flush_setup_at(&at);
        let Some(line) = self.lines.current_mut() else {
            return self.stop_at(&at);
        };
        let (text, _) = notation::decode(text);
        match ChessRules.inline_setup(line.position(), &text) {
            Ok(setup) => {
                line.set_up(setup.position);
                for message in setup.warnings {
                    self.report(DiagnosticKind::LenientSetup { message }, &at);
                }
                ControlFlow::Continue(())
            }
            Err(error) => {
                let kind = match error {
                    SetupError::Unsupported(message) => DiagnosticKind::Unsupported { message },
                    SetupError::Invalid(message) => DiagnosticKind::BadSetup { message },
                };
                self.report(kind, &at);
                self.stop_at(&at)
            }
        }
    }

    fn result(&mut self, _result: GameResult, at: At<'_>) -> ControlFlow<()> {
        self.flush_setup_at(&at);
        ControlFlow::Continue(())
    }

    fn diagnostic(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    fn end_game(&mut self, raw: RawGame<'_>) -> ValidatedGame {
        if let (Some(outline), Some(main)) = (&mut self.outline, self.lines.main_line()) {
            outline.end = *main.position();
        }
        ValidatedGame {
            index: raw.index,
            span: raw.span,
            plies: self.plies,
            diagnostics: self.diagnostics.end_game(raw.index),
        }
    }
}

impl Validate for Validator {
    type Rules = ChessRules;

    fn with_rules(_rules: ChessRules, options: ReadOptions) -> Validator {
        Validator::new(options)
    }

    fn take_orphans(&mut self) -> Vec<Diagnostic> {
        Validator::take_orphans(self)
    }
}

/// Checks chess games one by one from any [`io::Read`](std::io::Read) with a
/// [`Validator`]: the fast way to know whether games are valid, and what was forgiven in
/// them. The notation layer's [`ValidatingReader`](notation::ValidatingReader), for
/// chess.
///
/// ```
/// use pgn::ValidatingReader;
/// let input = b"[Round \"1\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n\
///               [Round \"2\"]\n\n1. d4 d5 2. Nc3 Nc6 3. Bf4 Bf5 *\n";
/// let games: Vec<_> = ValidatingReader::new(&input[..]).collect::<Result<_, _>>()?;
/// assert_eq!(games.iter().map(|g| g.plies).collect::<Vec<_>>(), [4, 6]);
/// assert!(games.iter().all(|g| g.diagnostics.is_empty()));
/// # Ok::<(), std::io::Error>(())
/// ```
pub type ValidatingReader<R> = notation::ValidatingReader<R, Validator>;
