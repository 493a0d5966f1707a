//! What the reader forgave or could not read, with where it happened.

use std::fmt;

use crate::location::Location;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// Something departed from the standard and was forgiven; nothing was lost.
    Warning,
    /// Something could not be read; the game is incomplete or was skipped.
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// What a diagnostic is about.
///
/// Variants that the lenient reader forgives are warnings; in strict mode
/// ([`ReadOptions::strict`](crate::ReadOptions::strict)) every departure from the standard
/// is an error. [`DiagnosticKind::default_severity`] tells which is which.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DiagnosticKind {
    // ---- file and character level ----
    /// The input starts with a UTF-8 byte order mark.
    #[error("byte order mark at the start of the input")]
    ByteOrderMark,
    /// A carriage return not followed by a line feed ends a line.
    #[error("line ends with a lone carriage return")]
    LoneCarriageReturn,
    /// The two characters `\r` (a backslash and `r`) before a line end, outside strings
    /// and comments: a carriage return some program wrote out as text. Read as part of
    /// the line end.
    #[error("\\r written as text before a line end; read as a line end")]
    LiteralCarriageReturn,
    /// A tab character outside comments and strings.
    #[error("tab character used as white space")]
    Tab,
    /// A line longer than the standard's 255 bytes.
    #[error("line of {length} bytes is longer than 255")]
    LongLine {
        /// The line's length in bytes, without its end.
        length: u64,
    },
    /// Bytes that are not UTF-8, decoded as Windows-1252 (a superset of Latin-1).
    #[error("text is not UTF-8; decoded as Windows-1252")]
    NotUtf8,
    /// A control character or byte with no meaning in the format.
    #[error("unexpected byte 0x{byte:02x}")]
    UnexpectedByte {
        /// The byte.
        byte: u8,
    },

    // ---- game boundaries ----
    /// A new game starts right after the previous one, without an empty line.
    #[error("no empty line between games")]
    MissingBlankLine,
    /// An empty line splits the tag section.
    #[error("empty line inside the tag section")]
    BlankLineInTags,
    /// The movetext does not end with a game termination marker.
    #[error("no game termination marker; took {result} from {origin}")]
    MissingResult {
        /// The marker that was assumed.
        result: String,
        /// Where it came from: the Result tag, or nothing (`*`).
        origin: &'static str,
    },
    /// The movetext's marker differs from the Result tag.
    #[error("termination marker {marker} differs from the Result tag \"{tag}\"")]
    ResultMismatch {
        /// The marker in the movetext.
        marker: String,
        /// The Result tag's value.
        tag: String,
    },
    /// A termination marker written in a form the standard does not have.
    #[error("non-standard termination marker {found}; read as {result}")]
    LenientResult {
        /// The token as written.
        found: String,
        /// The standard marker it was read as.
        result: String,
    },
    /// A game with movetext but no tag section.
    #[error("game has no tag section")]
    NoTags,
    /// A game with a tag section but no movetext.
    #[error("game has no movetext")]
    NoMovetext,

    // ---- tags ----
    /// A tag name that is not capitalised as the standard writes it.
    #[error("tag name {found} read as {canonical}")]
    TagNameCase {
        /// The name as written.
        found: String,
        /// The standard name.
        canonical: String,
    },
    /// A tag name with characters outside letters, digits and `_`.
    #[error("tag name {name:?} has characters the standard does not allow")]
    OddTagName {
        /// The name as written.
        name: String,
    },
    /// A tag whose value is not quoted: `[Result 1-0]`.
    #[error("tag {name} has an unquoted value")]
    UnquotedTagValue {
        /// The tag's name.
        name: String,
    },
    /// No empty line between the tag section and the movetext.
    #[error("no empty line between the tags and the movetext")]
    NoBlankLineBeforeMovetext,
    /// Text outside any game (before the first, between two, or after the last) that
    /// belongs to no game.
    #[error("{0} outside any game; ignored")]
    OutsideGame(String),
    /// An input that holds no game at all.
    #[error("no game in the input")]
    EmptyInput,
    /// A tag with no name: `[ "value"]`.
    #[error("tag has no name")]
    MissingTagName,
    /// A tag whose value is not a quoted string.
    #[error("tag {name} has no quoted value")]
    MissingTagValue {
        /// The tag's name.
        name: String,
    },
    /// A tag section entry with no closing `]`.
    #[error("tag {name} has no closing ]")]
    UnclosedTag {
        /// The tag's name.
        name: String,
    },
    /// A string with no closing quote before the end of its line.
    #[error("string has no closing quote")]
    UnterminatedString,
    /// A tag appears twice in one game; the first value is kept.
    #[error("tag {name} appears twice; kept the first value")]
    DuplicateTag {
        /// The tag's name.
        name: String,
    },
    /// A tag value that does not have the form its tag prescribes.
    #[error("tag {name}: {message}")]
    BadTagValue {
        /// The tag's name.
        name: String,
        /// What is wrong.
        message: String,
    },

    // ---- movetext ----
    /// A brace comment with no closing `}`.
    #[error("comment has no closing }}")]
    UnterminatedComment,
    /// A `)` with no open variation.
    #[error(") closes no variation")]
    UnmatchedParenthesis,
    /// Variations left open at the end of the game.
    #[error("{count} variation(s) not closed")]
    UnclosedVariation {
        /// How many.
        count: usize,
    },
    /// A variation with no move in it.
    #[error("variation has no move")]
    EmptyVariation,
    /// `<` or `>`, reserved by the standard.
    #[error("reserved token {0:?}")]
    ReservedToken(char),
    /// A NAG above the largest the standard allows (255 in PGN).
    #[error("annotation glyph ${0} is out of range")]
    NagOutOfRange(u64),
    /// A move number that does not match the move it stands before.
    #[error("move number {found} where {expected} was expected")]
    WrongMoveNumber {
        /// The number as written.
        found: u64,
        /// The number of the move that follows.
        expected: u64,
    },
    /// A move number written with leading zeros (`01.`, a PDN 2.0 habit).
    #[error("move number {found} has a leading zero")]
    MoveNumberLeadingZero {
        /// The move number as written.
        found: String,
    },
    /// A run of `!` and `?` with no glyph of its own, read as the nearest one.
    #[error("annotation {found} read as {read_as}")]
    UnusualAnnotation {
        /// The annotation as written.
        found: String,
        /// The glyph it was read as.
        read_as: crate::nag::Nag,
    },
    /// A token that has no place where it stands; it was skipped.
    #[error("unexpected {0}; skipped")]
    UnexpectedToken(String),
    /// A token longer than the reader accepts.
    #[error("token of more than {limit} bytes")]
    TokenTooLong {
        /// The limit in bytes.
        limit: usize,
    },
    /// A game larger than the reader accepts; it was skipped.
    #[error("game of more than {limit} bytes; skipped")]
    GameTooLarge {
        /// The limit in bytes.
        limit: usize,
    },
    /// A game that did not fit in the memory the reader could get: a buffer to hold more
    /// of it could not be allocated (or the bytes before it were all that could be held).
    /// It was skipped, as a game too large is; the games after it are read.
    #[error("not enough memory to hold the game past its first {held} bytes; skipped")]
    GameOutOfMemory {
        /// The bytes of the game that were held when no more could be.
        held: usize,
    },
    /// A part of a game (a comment, say) that did not fit in the memory left: it was left
    /// out of the game read, and the rest of the game was read.
    #[error("not enough memory to hold {what} ({bytes} bytes); left out")]
    TextOutOfMemory {
        /// What could not be held: `a comment`, `the movetext kept as text`, ….
        what: &'static str,
        /// Its size in bytes.
        bytes: usize,
    },
    /// A `%` escape line in the middle of a game.
    #[error("% escape line inside a game")]
    EscapeInGame,
    /// An inline set-up (`/FEN …/`) that is not closed.
    #[error("set-up has no closing /")]
    UnterminatedSetup,

    // ---- game rules ----
    /// The start position given by the tags cannot be set up.
    #[error("cannot set up the start position: {message}")]
    BadSetup {
        /// Why.
        message: String,
    },
    /// A set-up that was read with something forgiven.
    #[error("set-up: {message}")]
    LenientSetup {
        /// What was forgiven.
        message: String,
    },
    /// The game's rules are recognised but not supported; its moves are kept as text.
    #[error("{message}; the game is kept as text")]
    Unsupported {
        /// What is not supported.
        message: String,
    },
    /// A move token that the game's rules could not read or play.
    #[error("{token}: {message}")]
    BadMove {
        /// The token as written.
        token: String,
        /// Why it cannot be played, from the game's rules.
        message: String,
    },
    /// A move token that was read, with something forgiven.
    #[error("{token}: {message}")]
    LenientMove {
        /// The token as written.
        token: String,
        /// What was forgiven.
        message: String,
    },
    /// An I/O error of the underlying reader.
    #[error("read error: {0}")]
    Io(String),
}

impl DiagnosticKind {
    /// The severity in the lenient reader.
    pub fn default_severity(&self) -> Severity {
        use DiagnosticKind::*;
        match self {
            TokenTooLong { .. }
            | GameTooLarge { .. }
            | GameOutOfMemory { .. }
            | TextOutOfMemory { .. }
            | BadSetup { .. }
            | BadMove { .. }
            | Io(_)
            | UnterminatedComment => Severity::Error,
            _ => Severity::Warning,
        }
    }
}

/// A diagnostic: what happened, how bad it is, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Warning or error.
    pub severity: Severity,
    /// Where it happened.
    pub location: Location,
    /// The 0-based index of the game in its input.
    pub game: u64,
    /// What happened.
    pub kind: DiagnosticKind,
}

impl fmt::Display for Diagnostic {
    /// `line:column: severity: message (game N)`, with a 1-based game number.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}: {} (game {})",
            self.location,
            self.severity,
            self.kind,
            self.game + 1
        )
    }
}
