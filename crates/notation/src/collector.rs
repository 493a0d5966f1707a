//! The diagnostics of one game as a [`Visitor`](crate::Visitor) gathers them: shared by the
//! tree builder and by the game crates' tree-less validators, so that all of them report
//! the same things in the same places.

use crate::diagnostic::{Diagnostic, DiagnosticKind, Severity};
use crate::location::Location;
use crate::options::ReadOptions;
use crate::rules::SetupError;
use crate::span::Span;
use crate::visitor::At;

impl From<SetupError> for DiagnosticKind {
    /// The diagnostic for a start position or set-up that could not be had.
    fn from(error: SetupError) -> DiagnosticKind {
        match error {
            SetupError::Unsupported(message) => DiagnosticKind::Unsupported { message },
            SetupError::Invalid(message) => DiagnosticKind::BadSetup { message },
        }
    }
}

/// Gathers a game's diagnostics: routes those given outside any game to the next game (or
/// to the caller), and holds what the start position's set-up said until the first
/// movetext token gives it a location.
///
/// ```
/// use notation::{DiagnosticKind, GameDiagnostics, ReadOptions};
/// let mut d = GameDiagnostics::new(ReadOptions::default());
/// d.begin_game();
/// d.hold_setup_warnings(vec!["FEN without SetUp".to_owned()]);
/// let diagnostics = d.end_game(0);
/// assert!(matches!(diagnostics[0].kind, DiagnosticKind::LenientSetup { .. }));
/// ```
#[derive(Clone, Debug)]
pub struct GameDiagnostics {
    options: ReadOptions,
    diagnostics: Vec<Diagnostic>,
    /// Diagnostics given outside any game, for the next game or the caller.
    orphans: Vec<Diagnostic>,
    in_game: bool,
    /// The diagnostics given outside any game that the current game took when it began,
    /// for a second reading of it ([`GameDiagnostics::read_again`]).
    carried: Vec<Diagnostic>,
    /// What the start position's set-up forgave.
    pending_warnings: Vec<String>,
    /// Why the start position could not be had.
    pending_error: Option<SetupError>,
    /// The last place located, and the known place it was counted from: the next
    /// diagnostic of the same text is counted on from there, not from the start again
    /// (games with many warnings would cost the square of their length).
    last_located: Option<(Location, Location)>,
}

impl GameDiagnostics {
    /// Diagnostics with these options' severities.
    pub fn new(options: ReadOptions) -> GameDiagnostics {
        GameDiagnostics {
            options,
            diagnostics: Vec::new(),
            orphans: Vec::new(),
            in_game: false,
            carried: Vec::new(),
            pending_warnings: Vec::new(),
            pending_error: None,
            last_located: None,
        }
    }

    /// The options whose severities apply.
    pub fn options(&self) -> ReadOptions {
        self.options
    }

    /// A game begins: it takes the diagnostics given since the last one.
    pub fn begin_game(&mut self) {
        self.diagnostics = std::mem::take(&mut self.orphans);
        // Most games take none.
        if !(self.diagnostics.is_empty() && self.carried.is_empty()) {
            self.carried.clone_from(&self.diagnostics);
        }
        self.in_game = true;
        self.pending_warnings.clear();
        self.pending_error = None;
        self.last_located = None;
    }

    /// A diagnostic the reader gave: the game's if one is open, else the next game's.
    pub fn push(&mut self, diagnostic: Diagnostic) {
        if self.in_game {
            self.diagnostics.push(diagnostic);
        } else {
            self.orphans.push(diagnostic);
        }
    }

    /// Reports `kind` at `at`, with the options' severity.
    #[cold]
    pub fn report(&mut self, kind: DiagnosticKind, at: &At<'_>) {
        let location = self.locate(at);
        self.diagnostics.push(Diagnostic {
            severity: self.options.severity(&kind),
            location,
            game: at.game(),
            kind,
        });
    }

    /// The line and column of `at`, counted on from the last place located when it is
    /// in the same text and not after `at`.
    fn locate(&mut self, at: &At<'_>) -> Location {
        let base = at.origin.text_location;
        let target = at.span().start;
        let skip_to = |place: Location| {
            let skip = usize::try_from(place.offset.saturating_sub(base.offset));
            skip.ok().and_then(|skip| at.origin.text.get(skip..))
        };
        let resume = self.last_located.and_then(|(known, last)| {
            let text = skip_to(last)?;
            // Not between the CR and the LF of a line end, which counts once.
            (known == base && last.offset <= target && text.first() != Some(&b'\n'))
                .then_some((last, text))
        });
        let (from, text) = resume.unwrap_or((base, at.origin.text));
        let location = crate::location::locate(text, from, target);
        self.last_located = Some((base, location));
        location
    }

    /// Holds what the start position's set-up forgave until [`flush_setup_at`](Self::flush_setup_at).
    pub fn hold_setup_warnings(&mut self, warnings: Vec<String>) {
        self.pending_warnings = warnings;
    }

    /// Holds why the start position could not be had until [`flush_setup_at`](Self::flush_setup_at).
    pub fn hold_setup_error(&mut self, error: SetupError) {
        self.pending_error = Some(error);
    }

    /// Reports what the set-up said, if anything is held, at `at`: the first movetext token.
    #[inline]
    pub fn flush_setup_at(&mut self, at: &At<'_>) {
        if !self.pending_warnings.is_empty() || self.pending_error.is_some() {
            let location = self.locate(at);
            self.flush_setup(location, at.game());
        }
    }

    #[cold]
    fn flush_setup(&mut self, location: Location, game: u64) {
        let warnings = std::mem::take(&mut self.pending_warnings);
        let kinds = warnings
            .into_iter()
            .map(|message| DiagnosticKind::LenientSetup { message })
            .chain(self.pending_error.take().map(DiagnosticKind::from));
        for kind in kinds {
            self.diagnostics.push(Diagnostic {
                severity: self.options.severity(&kind),
                location,
                game,
                kind,
            });
        }
    }

    /// The game's diagnostics so far.
    pub fn current(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The game ends: what the set-up said in a game without movetext is reported (with no
    /// location), and the game's diagnostics are handed over.
    pub fn end_game(&mut self, game: u64) -> Vec<Diagnostic> {
        if !self.pending_warnings.is_empty() || self.pending_error.is_some() {
            self.flush_setup(Location::default(), game);
        }
        self.in_game = false;
        std::mem::take(&mut self.diagnostics)
    }

    /// The game that just ended is read again from the stream offset `from` (see
    /// [`Visitor::read_again`](crate::Visitor::read_again)): the diagnostics about text
    /// before `from` that it took when it began are held for it again, as the reader
    /// does not give them twice.
    pub fn read_again(&mut self, from: u64) {
        let mut carried = std::mem::take(&mut self.carried);
        carried.retain(|d| d.location.offset < from);
        carried.append(&mut self.orphans);
        self.orphans = carried;
    }

    /// Takes the diagnostics given outside any game (text after the last game, an empty input).
    pub fn take_orphans(&mut self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.orphans)
    }
}

/// What checking one game without building it found: a tree-less validator's output (the
/// chess and draughts crates' `Validator`s).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ValidatedGame {
    /// The 0-based index of the game in the input.
    pub index: u64,
    /// Where the game is in the input.
    pub span: Span,
    /// The moves played, in the main line and in every variation (the tree builder's
    /// [`node_count`](crate::GameTree::node_count)).
    pub plies: u64,
    /// Warnings and errors, in input order, as the tree builder gives them.
    pub diagnostics: Vec<Diagnostic>,
}

impl ValidatedGame {
    /// The number of error diagnostics.
    pub fn errors(&self) -> usize {
        self.count(Severity::Error)
    }

    /// The number of warnings.
    pub fn warnings(&self) -> usize {
        self.count(Severity::Warning)
    }

    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.errors() > 0
    }

    fn count(&self, severity: Severity) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == severity)
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::visitor::Origin;

    /// Locating each diagnostic on from the last gives what counting from the start
    /// gives, across LF, CR LF and lone CR line ends and characters of several bytes.
    #[test]
    fn locating_on_from_the_last_place_counts_as_from_the_start() {
        let text = "ab\ncd\r\nef\rgh\r\n\r\né♘x\n\ny\rz\r\n".as_bytes();
        let base = Location {
            line: 7,
            column: 3,
            offset: 100,
        };
        let origin = Origin {
            game: 0,
            text,
            text_location: base,
        };
        let at =
            |offset: usize| origin.at(base.offset + offset as u64, base.offset + offset as u64);
        for step in 1..4 {
            let mut diagnostics = GameDiagnostics::new(ReadOptions::default());
            for offset in (0..=text.len()).step_by(step) {
                let expected = crate::location::locate(text, base, base.offset + offset as u64);
                assert_eq!(diagnostics.locate(&at(offset)), expected, "offset {offset}");
            }
        }
    }
}
