//! What differs between the notations this layer reads, as data: [`Dialect`].

use crate::outcome::GameResult;

/// The lexical choices that differ between notations sharing this layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dialect {
    /// The termination markers that end a game (and are not move tokens).
    pub results: &'static [GameResult],
    /// Whether `*` written right after a move, with no space, marks a forced move
    /// (`$7`) rather than ending the game.
    pub attached_asterisk_is_annotation: bool,
    /// Whether `/…/` in the movetext is an inline set-up.
    pub inline_setups: bool,
    /// Whether a game is expected to have a tag section, an empty line before its
    /// movetext, and a termination marker (PGN); a departure is a warning.
    pub strict_layout: bool,
    /// The largest annotation glyph the standard allows.
    pub max_nag: u16,
    /// The tag names of the standard, to correct the case of names written otherwise.
    pub known_tags: &'static [&'static str],
    /// Words that files glue to a move and that belong to its token, for the rules to
    /// read: PGN's `e.p.`, with which old files mark en passant captures (`exd6e.p.`).
    pub move_marks: &'static [&'static str],
}

/// The tag names of the PGN standard (seven tag roster and supplemental tags) and the
/// common additions of chess servers.
const PGN_TAGS: &[&str] = &[
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "WhiteTitle",
    "BlackTitle",
    "WhiteElo",
    "BlackElo",
    "WhiteUSCF",
    "BlackUSCF",
    "WhiteNA",
    "BlackNA",
    "WhiteType",
    "BlackType",
    "EventDate",
    "EventSponsor",
    "Section",
    "Stage",
    "Board",
    "Opening",
    "Variation",
    "SubVariation",
    "ECO",
    "NIC",
    "Time",
    "UTCTime",
    "UTCDate",
    "TimeControl",
    "SetUp",
    "FEN",
    "Termination",
    "Annotator",
    "Mode",
    "PlyCount",
    "Variant",
    "WhiteFideId",
    "BlackFideId",
    "WhiteTeam",
    "BlackTeam",
];

/// The tag names of PDN 3.0 (`pdntags.rst`).
const PDN_TAGS: &[&str] = &[
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "GameType",
    "FEN",
    "PlyCount",
    "Termination",
    "WhiteRating",
    "BlackRating",
    "WhiteFmjdId",
    "BlackFmjdId",
    "WhiteTitle",
    "BlackTitle",
    "WhiteNA",
    "BlackNA",
    "WhiteType",
    "BlackType",
    "EventDate",
    "EventSponsor",
    "Section",
    "Stage",
    "Board",
    "WhiteClock",
    "BlackClock",
    "WhiteTime",
    "BlackTime",
    "TimeControl",
    "Time",
    "UTCTime",
    "UTCDate",
    "Annotator",
    "Mode",
    "Opening",
    "Variation",
    "SubVariation",
];

impl Dialect {
    /// The PGN standard: `1-0`, `0-1`, `1/2-1/2`, `*`.
    pub const PGN: Dialect = Dialect {
        results: &[
            GameResult::FirstWins,
            GameResult::SecondWins,
            GameResult::Draw,
            GameResult::Unknown,
        ],
        attached_asterisk_is_annotation: false,
        inline_setups: false,
        strict_layout: true,
        max_nag: 255,
        known_tags: PGN_TAGS,
        move_marks: &["e.p."],
    };

    /// The PDN 3.0 reading grammar: the chess markers, the two-point markers
    /// `2-0`, `0-2`, `1-1`, the double forfeit `0-0`, forced-move asterisks and
    /// inline set-ups.
    pub const PDN: Dialect = Dialect {
        results: &GameResult::ALL,
        attached_asterisk_is_annotation: true,
        inline_setups: true,
        strict_layout: false,
        max_nag: u16::MAX,
        known_tags: PDN_TAGS,
        move_marks: &[],
    };

    /// Reads a termination marker: a standard one of this dialect, or a lenient form.
    /// The flag tells whether the lenient form was used.
    #[inline]
    pub fn read_result(&self, token: &[u8]) -> Option<(GameResult, bool)> {
        // Every marker, standard or lenient, starts with a digit, `*`, `-` or `½` (0xC2
        // 0xBD in UTF-8, 0xBD in Latin-1): most tokens (moves) are told apart by their
        // first byte.
        if !matches!(token.first(), Some(b'0'..=b'9' | b'*' | b'-' | 0xbd | 0xc2)) {
            return None;
        }
        self.read_result_spelled(token)
    }

    fn read_result_spelled(&self, token: &[u8]) -> Option<(GameResult, bool)> {
        // Every marker written in ASCII, standard or lenient, is 1, 3 or 7 bytes long
        // (`*`, `1-0`, `1:0`, `1/2-1/2`, `0.5-0.5`): most moves are told apart by length.
        if !matches!(token.len(), 1 | 3 | 7) && token.is_ascii() {
            return None;
        }
        if let Some(r) = GameResult::from_token(token) {
            return self.results.contains(&r).then_some((r, false));
        }
        GameResult::from_lenient_token(token)
            .filter(|r| self.results.contains(r))
            .map(|r| (r, true))
    }
}

impl Default for Dialect {
    fn default() -> Self {
        Dialect::PGN
    }
}
