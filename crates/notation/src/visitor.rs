//! The callback interface of the streaming reader.

use std::ops::ControlFlow;

use crate::diagnostic::Diagnostic;
use crate::location::Location;
use crate::nag::Nag;
use crate::outcome::GameResult;
use crate::span::Span;

/// Whether to skip a variation: `Skip(true)` skips it with everything nested in it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Skip(pub bool);

/// Where a token stands: its span, and its line and column computed on demand.
///
/// Computing a line number costs a scan of the game's bytes before the token, so the
/// reader hands out this handle instead of a [`Location`]; call [`At::location`] only
/// where a diagnostic needs it.
#[derive(Clone, Copy)]
pub struct At<'r> {
    pub(crate) span: Span,
    /// What the tokens read from one place share: a token's handle stays three words.
    pub(crate) origin: &'r Origin<'r>,
}

/// The input that tokens are located in: their game, and the text from a point of
/// known location up to (at least) the tokens.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Origin<'r> {
    pub(crate) game: u64,
    pub(crate) text: &'r [u8],
    /// The location of `text[0]`.
    pub(crate) text_location: Location,
}

impl<'r> Origin<'r> {
    /// The handle of a token with this span.
    pub(crate) fn at(&'r self, start: u64, end: u64) -> At<'r> {
        At {
            span: Span::new(start, end),
            origin: self,
        }
    }
}

impl<'r> At<'r> {
    /// The token's byte span in the input.
    pub fn span(&self) -> Span {
        self.span
    }

    /// The token's bytes as written (empty for a position with no token, such as the end
    /// of a game without a termination marker).
    pub fn bytes(&self) -> &'r [u8] {
        let origin = self.origin;
        let offset = |at: u64| {
            usize::try_from(at.saturating_sub(origin.text_location.offset)).unwrap_or(usize::MAX)
        };
        let (from, to) = (offset(self.span.start), offset(self.span.end));
        origin.text.get(from..to).unwrap_or(&[])
    }

    /// The 0-based index of the game in the input.
    pub fn game(&self) -> u64 {
        self.origin.game
    }

    /// The token's line and column.
    pub fn location(&self) -> Location {
        crate::location::locate(self.origin.text, self.origin.text_location, self.span.start)
    }

    /// The same place in the input with another span: an earlier token of the same game
    /// (a move cut short, `1-` of `1- 7`) or that token joined with this one. Visitors
    /// outside this crate need it to report a joined move where the tree builder does.
    pub fn with_span(&self, span: Span) -> At<'r> {
        At { span, ..*self }
    }
}

impl std::fmt::Debug for At<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("At")
            .field("span", &self.span)
            .field("game", &self.origin.game)
            .finish()
    }
}

/// A tag value as written: still escaped, not yet decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawValue<'a>(pub &'a [u8]);

impl<'a> RawValue<'a> {
    /// The value with `\"` and `\\` unescaped, still as bytes, and each ASCII control
    /// character (a tab, say) as a space: the export format has no control characters in
    /// strings, so the value read is the value written back.
    pub fn unescaped(&self) -> std::borrow::Cow<'a, [u8]> {
        // Nearly every value has neither an escape nor a control character: one pass
        // over its few bytes, eight at a time, tells.
        if is_plain_value(self.0) {
            return std::borrow::Cow::Borrowed(self.0);
        }
        let mut value = crate::lexer::unescape(self.0);
        if value.iter().any(u8::is_ascii_control) {
            for b in value.to_mut() {
                if b.is_ascii_control() {
                    *b = b' ';
                }
            }
        }
        value
    }

    /// The value unescaped and decoded (UTF-8, else Windows-1252).
    pub fn decode(&self) -> String {
        crate::encoding::decode(&self.unescaped()).0.into_owned()
    }
}

/// Whether a tag value has no `\\` and no ASCII control character (below a space, or
/// DEL): what [`RawValue::unescaped`] gives back as it is.
fn is_plain_value(bytes: &[u8]) -> bool {
    crate::swar::free_of_controls_and(bytes, [b'\\'])
}

/// A game's bytes as written, from its first token to its termination marker.
#[derive(Clone, Copy, Debug)]
pub struct RawGame<'a> {
    /// The bytes: all of them when [`RawGame::held`], else none.
    pub bytes: &'a [u8],
    /// Where they are in the input.
    pub span: Span,
    /// The 0-based index of the game in the input.
    pub index: u64,
    /// Whether the reader held the game whole: not when it skipped it as too large to
    /// hold ([`DiagnosticKind::GameTooLarge`](crate::DiagnosticKind::GameTooLarge),
    /// [`DiagnosticKind::GameOutOfMemory`](crate::DiagnosticKind::GameOutOfMemory)), after
    /// telling the visitor what it had read of it, which is not the game as written.
    pub held: bool,
    /// Whether its first byte begins a line of the input, where a `%` starts an escape
    /// line: its text read again alone is read so ([`Reader::game_text`](crate::Reader::game_text)).
    pub starts_line: bool,
}

/// A game's text as written, held to be read again alone ([`Reader::lend`](crate::Reader::lend)):
/// its bytes, and whether they began a line where they were read (a `%` there starts an
/// escape line, one mid-line does not).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameText {
    /// The bytes, from the game's first token to its last.
    pub bytes: Vec<u8>,
    /// Whether they begin a line ([`RawGame::starts_line`]).
    pub starts_line: bool,
}

/// Receives a game token by token from a [`Reader`](crate::Reader).
///
/// Every method has a default that does nothing, so a visitor implements only what it
/// needs. Returning `ControlFlow::Break(())` from any callback skips the rest of the
/// game: the reader finds its end and calls [`Visitor::end_game`].
///
/// ```
/// use std::ops::ControlFlow;
/// use notation::{At, Dialect, ReadOptions, Reader, Visitor};
///
/// #[derive(Default)]
/// struct CountMoves(usize);
///
/// impl Visitor for CountMoves {
///     type Output = usize;
///     fn begin_game(&mut self) { self.0 = 0; }
///     fn move_token(&mut self, _token: &[u8], _at: At<'_>) -> ControlFlow<()> {
///         self.0 += 1;
///         ControlFlow::Continue(())
///     }
///     fn end_game(&mut self, _raw: notation::RawGame<'_>) -> usize { self.0 }
/// }
///
/// let pgn = b"1. e4 e5 (1... c5) 2. Nf3 *\n\n1. d4 *\n";
/// let mut reader = Reader::new(&pgn[..], Dialect::PGN, ReadOptions::default());
/// let mut visitor = CountMoves::default();
/// assert_eq!(reader.read_game(&mut visitor).unwrap(), Some(4));
/// assert_eq!(reader.read_game(&mut visitor).unwrap(), Some(1));
/// assert_eq!(reader.read_game(&mut visitor).unwrap(), None);
/// ```
#[allow(unused_variables)]
pub trait Visitor {
    /// What [`Visitor::end_game`] returns for each game.
    type Output;

    /// A game begins.
    fn begin_game(&mut self) {}

    /// A tag pair. `name` is as written.
    fn tag(&mut self, name: &[u8], value: RawValue<'_>, at: At<'_>) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    /// The tag section is over; the movetext begins (also for a game with no tags).
    fn begin_movetext(&mut self) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    /// A move number indication: the number and whether it had three periods.
    fn move_number(&mut self, number: u64, ellipsis: bool, at: At<'_>) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    /// A move token, as written (suffix annotations are reported separately).
    fn move_token(&mut self, token: &[u8], at: At<'_>) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    /// An annotation glyph (a suffix annotation arrives as its glyph).
    fn nag(&mut self, nag: Nag, at: At<'_>) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    /// A brace or `;` comment's text, as written.
    fn comment(&mut self, text: &[u8], at: At<'_>) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    /// A variation opens. Return `Skip(true)` to skip it.
    fn begin_variation(&mut self, at: At<'_>) -> ControlFlow<(), Skip> {
        ControlFlow::Continue(Skip(false))
    }

    /// The innermost open variation closes.
    fn end_variation(&mut self, at: At<'_>) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    /// An inline set-up (`/…/` in PDN), its text without the slashes.
    fn setup(&mut self, text: &[u8], at: At<'_>) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    /// The game termination marker (assumed, with a diagnostic, when missing).
    fn result(&mut self, result: GameResult, at: At<'_>) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    /// Something the reader forgave or could not read.
    fn diagnostic(&mut self, diagnostic: Diagnostic) {}

    /// The game is over.
    fn end_game(&mut self, raw: RawGame<'_>) -> Self::Output;

    /// Asked once a game is over (after [`Visitor::end_game`]): whether to read it again,
    /// from the stream offset `from` where the reader began reading it. A visitor that
    /// read a game one way and wants it read another (with rules that keep more ways of
    /// reading it, say) says yes; the reader then reads the same text again, giving the
    /// visitor the same calls as the first time, the diagnostics it gave since `from`
    /// among them (not those about text before `from`, given earlier, which the visitor
    /// keeps), and returns the output of that reading instead of the first, which it
    /// drops first. A game is read again at most twice (a second reading, and the first
    /// again when the second is not kept); one the reader could not keep whole (larger
    /// than [`ReadOptions::max_game_bytes`](crate::ReadOptions)) is not read again.
    ///
    /// The default: never.
    fn read_again(&mut self, from: u64) -> bool {
        false
    }
}
