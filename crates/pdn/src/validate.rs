//! Checking draughts games without building them: a [`Visitor`] that resolves every move
//! of the main line and of every variation on the fly.
//!
//! [`Validator`] keeps one board (and the one before the last move) per open variation,
//! on a stack: no tree. It reads, plays and sets up through the same [`DraughtsRules`] rules
//! the tree builder ([`notation::GameReader`]) uses, so game-type inference, ambiguous
//! captures and set-ups behave alike; it reports what the tree builder reports, with the
//! same messages, and counts the moves it played.

use std::ops::ControlFlow;

use notation::{
    At, Diagnostic, DiagnosticKind, Forgiveness, GameDiagnostics, GameResult, LineStack,
    MoveContext, Nag, OpenLine, RawGame, RawValue, ReadOptions, Reader, Rules, SecondReading,
    Severity, Skip, Span, Tag, TagNames, Tags, Validate, Visitor,
};

// The notation layer's, shared with the other game crate's validator.
pub use notation::ValidatedGame;

use crate::{DraughtsRules, PdnMove, PdnPosition};

/// What a line keeps besides its boards: the set-up written at its current place (after
/// its last move), if any, and the board before it: a later set-up in the same place
/// replaces it, and is played from there (the tree keeps one set-up per place and
/// reports the one it replaces).
#[derive(Default)]
struct LineSetup {
    setup: Option<(u64, String)>,
    unset: Option<PdnPosition>,
}

/// An open line: its boards, and its set-up.
type Line = OpenLine<PdnPosition, LineSetup>;

/// Plays a move in a line: the board after it becomes the position, the position the
/// board before it. A board of one reading is played into the other board; a board with
/// several is copied there and played in place, which reuses what each holds.
#[inline]
fn play(line: &mut Line, rules: &DraughtsRules, mv: &PdnMove) {
    let (position, other) = line.slots_mut();
    if DraughtsRules::play_position_into(position, other, mv) {
        line.played_into_other();
    } else {
        other.clone_from(position);
        rules.play(position, mv);
        line.played_in_place();
    }
}

/// Whether [`DraughtsRules`] looks at a tag: the start position's and the result's. The
/// others are checked and forgotten.
fn kept(name: &[u8]) -> bool {
    matches!(
        name,
        b"GameType" | b"Variant" | b"FEN" | b"SetUp" | b"Setup" | b"Result" | b"ResultFormat"
    )
}

/// A [`Visitor`] that checks draughts games: every move of the main line and of every
/// variation is read and played with the [`DraughtsRules`] rules, and everything forgiven or
/// wrong is reported as the tree builder reports it, without building a tree.
///
/// Drive it with a [`Reader`] (or use [`ValidatingReader`]):
///
/// ```
/// use notation::{Dialect, ReadOptions, Reader, Severity};
/// use pdn::{DraughtsRules, Validator};
///
/// let pdn = b"[GameType \"20\"]\n\n1. 32-28 19-23 2. 28x19 14x23 (2... 13x24) 2-0\n\n\
///             [GameType \"20\"]\n\n1. 32-28 28-23 2. 33-29 *\n";
/// let options = ReadOptions::default();
/// let mut reader = Reader::new(&pdn[..], Dialect::PDN, options);
/// let mut validator = Validator::new(DraughtsRules::new(), options);
///
/// let first = reader.read_game(&mut validator)?.unwrap();
/// assert_eq!((first.plies, first.errors()), (5, 0));
///
/// let second = reader.read_game(&mut validator)?.unwrap();
/// assert_eq!((second.plies, second.errors()), (1, 1));
/// assert_eq!(second.diagnostics[0].severity, Severity::Error);
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct Validator {
    rules: DraughtsRules,
    /// Whether moves are no longer read: after an error, or for an unsupported game.
    stopped: bool,
    plies: u64,
    /// The game's diagnostics, those given between games, and what the set-up said.
    diagnostics: GameDiagnostics,
    /// The open lines: the main line, and a line per open variation.
    lines: LineStack<PdnPosition, LineSetup>,
    /// The move number (and ellipsis) written before the next move.
    context: MoveContext,
    names: TagNames,
    /// Where the last tag pair ended.
    tags_end: u64,
    /// The tags the rules read, in file order.
    tags: Tags,
    /// The span of a move token cut short (`1-` of `1- 7`), to be joined with the next.
    held: Option<Span>,
    /// The game's second reading, as the tree builder reads one
    /// ([`Rules::second_reading`]).
    second: SecondReading<PdnPosition>,
}

impl Validator {
    /// A validator with these rules, reporting with these options' severities.
    pub fn new(rules: DraughtsRules, options: ReadOptions) -> Validator {
        Validator {
            rules,
            stopped: false,
            plies: 0,
            diagnostics: GameDiagnostics::new(options),
            lines: LineStack::new(),
            context: MoveContext::default(),
            names: TagNames::default(),
            tags_end: 0,
            tags: Tags::new(),
            held: None,
            second: SecondReading::default(),
        }
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

    /// Reads a move token (joined or not) and plays it.
    fn read_token(&mut self, token: &[u8], at: At<'_>) -> ControlFlow<()> {
        self.flush_setup_at(&at);
        let context = std::mem::take(&mut self.context);
        let rules = self.rules;
        let Some(line) = self.lines.current_mut() else {
            return self.stop_at(&at);
        };
        rules.follow_move_number(line.position_mut(), context);
        match rules.read_move(line.position(), token, context) {
            Ok((mv, forgiven)) => {
                let expected = rules.move_number(line.position());
                play(line, &rules, &mv);
                line.extra.unset = None;
                self.plies += 1;
                if let Some(found) = context.number.filter(|&n| n != expected) {
                    self.report(DiagnosticKind::WrongMoveNumber { found, expected }, &at);
                }
                if !forgiven.is_none() {
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
                    message: error.to_string(),
                };
                self.report(kind, &at);
                self.stop_at(&at)
            }
        }
    }

    /// Reads a move token cut short alone, when what follows it is not a move.
    fn flush_held(&mut self, at: &At<'_>) -> ControlFlow<()> {
        match self.held.take() {
            Some(span) => {
                let held = at.with_span(span);
                self.read_token(held.bytes(), held)
            }
            None => ControlFlow::Continue(()),
        }
    }

    /// What every movetext token but a move does first: stop if stopped, read a move
    /// cut short, report the set-up's diagnostics.
    #[inline]
    fn before_token(&mut self, at: &At<'_>) -> ControlFlow<()> {
        if self.stopped {
            return self.stop_at(at);
        }
        if self.held.is_some() && self.flush_held(at).is_break() {
            return ControlFlow::Break(());
        }
        self.flush_setup_at(at);
        ControlFlow::Continue(())
    }

    /// Whether the tree builder keeps the second reading of a game, whose text this is
    /// ([`Rules::keeps_second_reading`]): it decides on the tree, once settled, which
    /// this validator does not build. The game is read into one, as its second reading.
    #[cold]
    fn tree_keeps_second_reading(&self, text: &[u8]) -> bool {
        let rules = self.rules.reading_second();
        let options = self.diagnostics.options();
        let mut reader = Reader::with_buffer(text, rules.dialect(), options, text.len() + 1);
        let mut builder = notation::GameBuilder::new(&rules, options);
        match reader.read_game(&mut builder) {
            Ok(Some(game)) => rules.keeps_second_reading(&game.game),
            _ => false,
        }
    }
}

impl Default for Validator {
    fn default() -> Self {
        Validator::new(DraughtsRules::new(), ReadOptions::default())
    }
}

impl Visitor for Validator {
    type Output = ValidatedGame;

    fn begin_game(&mut self) {
        self.diagnostics.begin_game();
        self.stopped = false;
        self.plies = 0;
        self.lines.clear();
        self.context = MoveContext::default();
        self.names.clear();
        self.tags_end = 0;
        self.tags = Tags::new();
        self.held = None;
        self.second.begin_game();
    }

    fn tag(&mut self, name: &[u8], value: RawValue<'_>, at: At<'_>) -> ControlFlow<()> {
        self.tags_end = at.span().end;
        let tag = self.names.check(name, value);
        if tag.not_utf8 {
            self.report(DiagnosticKind::NotUtf8, &at);
        }
        if tag.duplicate {
            let name = String::from_utf8_lossy(&tag.name).into_owned();
            self.report(DiagnosticKind::DuplicateTag { name }, &at);
            return ControlFlow::Continue(());
        }
        let (name, unescaped) = (&*tag.name, &*tag.value);
        if let Some(kind) = notation::check_tag_value(&self.rules.dialect(), name, unescaped) {
            self.report(kind, &at);
        }
        if kept(name) {
            self.tags.push(Tag {
                name: String::from_utf8_lossy(name).into_owned(),
                value: notation::decode(unescaped).0.into_owned(),
                raw: None,
            });
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self) -> ControlFlow<()> {
        match self.second.start(&self.rules, &self.tags) {
            Ok(setup) => {
                // Reported at the first movetext token, where a location is known.
                self.diagnostics.hold_setup_warnings(setup.warnings);
                self.lines.start(setup.position);
            }
            Err(error) => {
                self.stopped = true;
                self.diagnostics.hold_setup_error(error);
            }
        }
        ControlFlow::Continue(())
    }

    fn move_number(&mut self, number: u64, ellipsis: bool, at: At<'_>) -> ControlFlow<()> {
        self.before_token(&at)?;
        let written = at.bytes();
        if written.len() > 1 && written[0] == b'0' && written[1].is_ascii_digit() {
            let found = String::from_utf8_lossy(written).into_owned();
            self.report(DiagnosticKind::MoveNumberLeadingZero { found }, &at);
        }
        self.context = MoveContext {
            number: Some(number),
            ellipsis,
        };
        ControlFlow::Continue(())
    }

    fn move_token(&mut self, token: &[u8], at: At<'_>) -> ControlFlow<()> {
        if self.stopped {
            return self.stop_at(&at);
        }
        if let Some(held) = self.held.take() {
            // `1-` then `7`: one move written with a space inside, read as written.
            let joined = at.with_span(Span::new(held.start, at.span().end));
            return self.read_token(joined.bytes(), joined);
        }
        if self.rules.move_continues(token) {
            self.held = Some(at.span());
            return ControlFlow::Continue(());
        }
        self.read_token(token, at)
    }

    fn nag(&mut self, nag: Nag, at: At<'_>) -> ControlFlow<()> {
        self.before_token(&at)?;
        if !self.lines.has_move() {
            let kind = DiagnosticKind::UnexpectedToken(format!("annotation {nag} before any move"));
            self.report(kind, &at);
        }
        ControlFlow::Continue(())
    }

    fn comment(&mut self, text: &[u8], at: At<'_>) -> ControlFlow<()> {
        if self.stopped && at.span().start < self.tags_end {
            // A comment from before the tags (the reader holds those until it has read
            // them) is not movetext: it is read even when the moves are not.
            self.flush_setup_at(&at);
        } else {
            self.before_token(&at)?;
        }
        if !text.is_ascii() && std::str::from_utf8(text).is_err() {
            self.report(DiagnosticKind::NotUtf8, &at);
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, at: At<'_>) -> ControlFlow<(), Skip> {
        if self.before_token(&at).is_break() {
            return ControlFlow::Break(());
        }
        match self.lines.begin_variation() {
            Ok(()) => ControlFlow::Continue(Skip(false)),
            Err(no) => {
                if let Some(kind) = no.diagnostic() {
                    self.report(kind, &at);
                }
                ControlFlow::Continue(Skip(true))
            }
        }
    }

    fn end_variation(&mut self, at: At<'_>) -> ControlFlow<()> {
        self.before_token(&at)?;
        if let Some(line) = self.lines.end_variation() {
            if line.moves() == 0 {
                self.report(DiagnosticKind::EmptyVariation, &at);
            }
        }
        ControlFlow::Continue(())
    }

    fn setup(&mut self, text: &[u8], at: At<'_>) -> ControlFlow<()> {
        self.before_token(&at)?;
        let text = notation::decode(text).0.into_owned();
        let Some(line) = self.lines.current() else {
            return self.stop_at(&at);
        };
        let base = line.extra.unset.as_ref().unwrap_or(line.position());
        match self.rules.inline_setup(base, &text) {
            Ok(setup) => {
                for message in setup.warnings {
                    self.report(DiagnosticKind::LenientSetup { message }, &at);
                }
                let Some(line) = self.lines.current_mut() else {
                    return ControlFlow::Continue(());
                };
                if line.extra.unset.is_none() {
                    line.extra.unset = Some(line.position().clone());
                }
                line.set_up(setup.position);
                // The tree keeps one set-up per place (after a move, or at the start of
                // a line) and reports the one a later set-up there replaces.
                let place = line.moves();
                let replaced = match line.extra.setup.replace((place, text)) {
                    Some((at_place, replaced)) if at_place == place => Some(replaced),
                    _ => None,
                };
                if let Some(replaced) = replaced {
                    let what = format!("set-up /{replaced}/ followed by another set-up");
                    self.report(DiagnosticKind::UnexpectedToken(what), &at);
                }
                ControlFlow::Continue(())
            }
            Err(error) => {
                self.report(DiagnosticKind::from(error), &at);
                self.stop_at(&at)
            }
        }
    }

    fn result(&mut self, result: GameResult, at: At<'_>) -> ControlFlow<()> {
        let _ = self.flush_held(&at);
        self.flush_setup_at(&at);
        let end = self.lines.main_line().map(OpenLine::position);
        let (_, forgiven) = self.rules.game_result(&self.tags, end, result);
        for kind in forgiven {
            self.report(kind, &at);
        }
        ControlFlow::Continue(())
    }

    fn diagnostic(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    fn end_game(&mut self, raw: RawGame<'_>) -> ValidatedGame {
        let diagnostics = self.diagnostics.end_game(raw.index);
        let has_errors = diagnostics.iter().any(|d| d.severity == Severity::Error);
        let second = self.second.is_second();
        self.second.end_game(&self.rules, &self.tags, has_errors);
        if second && !self.tree_keeps_second_reading(raw.bytes) {
            // The first reading stands: the reader reads it again.
            self.second.refuse();
        }
        ValidatedGame {
            index: raw.index,
            span: raw.span,
            plies: self.plies,
            diagnostics,
        }
    }

    fn read_again(&mut self, from: u64) -> bool {
        let again = self.second.read_again();
        if again {
            self.diagnostics.read_again(from);
        }
        again
    }
}

impl Validate for Validator {
    type Rules = DraughtsRules;

    fn with_rules(rules: DraughtsRules, options: ReadOptions) -> Validator {
        Validator::new(rules, options)
    }

    fn take_orphans(&mut self) -> Vec<Diagnostic> {
        Validator::take_orphans(self)
    }
}

/// Checks draughts games one by one from any [`io::Read`](std::io::Read) with a
/// [`Validator`]: the fast way to know whether games are valid, and what was forgiven in
/// them. The notation layer's [`ValidatingReader`](notation::ValidatingReader), for
/// draughts: made with PDN's rules ([`DraughtsRules::new`]) unless given others
/// ([`ValidatingReader::with_rules`](notation::ValidatingReader::with_rules)).
///
/// ```
/// use pdn::ValidatingReader;
/// let input = b"[GameType \"20\"]\n\n1. 32-28 19-23 2. 28x19 14x23 2-0\n\n\
///               1. 11-15 23-19 2. 8-11 22-17 *\n";
/// let games: Vec<_> = ValidatingReader::new(&input[..]).collect::<Result<_, _>>()?;
/// assert_eq!(games.iter().map(|g| g.plies).collect::<Vec<_>>(), [4, 4]);
/// assert!(games[0].diagnostics.is_empty());
/// // The second game declares no type: read as English draughts, with a warning.
/// assert_eq!(games[1].warnings(), 1);
/// # Ok::<(), std::io::Error>(())
/// ```
pub type ValidatingReader<R> = notation::ValidatingReader<R, Validator>;
