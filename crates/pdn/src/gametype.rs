//! The PDN `GameType` tag and the lidraughts `Variant` tag.

use std::fmt;
use std::str::FromStr;

use crate::color::Color;
use crate::geometry::{Corner, Geometry, GeometryError, Notation, NotationKind};
use crate::result::ResultType;
use crate::variant::{BoardKind, Variant};

/// A game the `GameType` or `Variant` tag names but this crate does not play.
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error)]
pub enum UnsupportedGame {
    /// `GameType` 0.
    #[error("GameType 0 is chess, not draughts")]
    Chess,
    /// `GameType` 1.
    #[error("GameType 1 is Chinese chess, not draughts")]
    ChineseChess,
    /// `GameType` 2–19.
    #[error("GameType {0} is reserved for chess variants")]
    ChessExpansion(u16),
    /// `GameType` 32–39 and 42–49.
    #[error("GameType {0} is reserved for future draughts variants and has no rules yet")]
    DraughtsExpansion(u16),
    /// `GameType` 50.
    #[error("GameType 50 is Othello, not draughts")]
    Othello,
    /// Any other number.
    #[error("GameType {0} is not assigned to any game")]
    Unknown(u16),
    /// lidraughts' antidraughts (lose all pieces to win).
    #[error("antidraughts (lidraughts) is not supported")]
    Antidraughts,
    /// lidraughts' breakthrough (first king wins).
    #[error("breakthrough draughts (lidraughts) is not supported")]
    Breakthrough,
    /// A `Variant` tag value that names no known game.
    #[error("variant `{0}` is not a known draughts variant")]
    UnknownName(String),
}

impl UnsupportedGame {
    fn from_number(number: u16) -> UnsupportedGame {
        match number {
            0 => UnsupportedGame::Chess,
            1 => UnsupportedGame::ChineseChess,
            2..=19 => UnsupportedGame::ChessExpansion(number),
            32..=39 | 42..=49 => UnsupportedGame::DraughtsExpansion(number),
            50 => UnsupportedGame::Othello,
            96 => UnsupportedGame::Breakthrough,
            98 => UnsupportedGame::Antidraughts,
            _ => UnsupportedGame::Unknown(number),
        }
    }
}

/// Why a `GameType` value cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameTypeError {
    /// Nothing but white space.
    #[error("the GameType value is empty")]
    Empty,
    /// The type is not a number.
    #[error("the game type `{0}` is not a number")]
    Number(String),
    /// A game other than a supported draughts variant.
    #[error(transparent)]
    Unsupported(#[from] UnsupportedGame),
    /// The full form has the wrong number of fields.
    #[error(
        "the GameType value has {0} fields; expected 1 (type), 5 or 6 (type,start,width,height,notation[,invert])"
    )]
    FieldCount(usize),
    /// The start colour is not `W` or `B`.
    #[error("start colour `{0}` is not W or B")]
    Start(String),
    /// A width or height that is not a number from 1 to 255.
    #[error("board size `{0}` is not a number from 1 to 255")]
    Size(String),
    /// The notation is not `A`, `N` or `S` followed by 0–3.
    #[error("notation `{0}` is not A, N or S followed by a corner 0-3")]
    Notation(String),
    /// The invert flag is not `0` or `1`.
    #[error("invert flag `{0}` is not 0 or 1")]
    Invert(String),
    /// The board described cannot be played.
    #[error("the board of GameType `{text}` cannot be used: {source}")]
    Board {
        /// The value given.
        text: String,
        /// Why not.
        source: GeometryError,
    },
}

/// What a lenient reading of a `GameType` value forgave.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameTypeWarning {
    /// Spaces around or inside the fields.
    #[error("spaces in the GameType value were ignored")]
    Spaces,
    /// Lower-case letters for the start colour or notation.
    #[error("lower-case letters in the GameType value were read as upper case")]
    LowerCase,
    /// Some but not all board fields; the rest were taken from the type's
    /// defaults.
    #[error(
        "the GameType value stops after {0} fields; the other fields take the defaults of the type"
    )]
    Truncated(usize),
    /// Fields after the invert flag.
    #[error("fields after the invert flag were ignored")]
    ExtraFields,
    /// A lidraughts-only type number, mapped to a standard variant.
    #[error("GameType {number} is lidraughts' own number for {name}; read as GameType {mapped}")]
    Lidraughts {
        /// The number given.
        number: u16,
        /// lidraughts' name for it.
        name: &'static str,
        /// The standard number used instead.
        mapped: u16,
    },
}

/// A supported draughts game type: the variant's rules plus the board
/// description of the `GameType` tag.
///
/// `[GameType "Type[,Start,Width,Height,Notation[,Invert]]"]` names the game
/// by number and may describe the board: who starts, its size, how squares
/// are written and whether the bottom-left corner is a playing square. The
/// bare form (`"20"`) takes the defaults of the type; a file without the tag
/// plays international draughts.
///
/// | Type | Game | Full form | Result type | Capture separator |
/// |------|------|-----------|-------------|-------------------|
/// | 20 | International | `20,W,10,10,N2,0` | International | `x` |
/// | 21 | English | `21,B,8,8,N1,0` | Default | `x` |
/// | 22 | Italian | `22,W,8,8,N2,1` | Default | `x` |
/// | 23 | American pool | `23,B,8,8,N1,0` | Default | `x` |
/// | 23 | Pool (unified), Zimbabwean | `23,W,8,8,A0,0` | Default | `x` |
/// | 23 | Jamaican | `23,B,8,8,A1,1` | Default | `x` |
/// | 24 | Spanish | `24,W,8,8,N1,1` | Default | `x` |
/// | 25 | Russian | `25,W,8,8,A0,0` | Default | `:` |
/// | 26 | Brazilian | `26,W,8,8,A0,0` | Default | `x` |
/// | 27 | Canadian | `27,W,12,12,N2,0` | International | `x` |
/// | 28 | Portuguese | `28,W,8,8,N1,1` | Default | `x` |
/// | 29 | Czech | `29,W,8,8,A0,0` | Default | `x` |
/// | 30 | Turkish | `30,W,8,8,A0,0` | Default | `x` |
/// | 31 | Thai | `31,B,8,8,N2,0` | Default | `-` |
/// | 40 | Frisian | `40,W,10,10,N2,0` | Default | `x` |
/// | 41 | Spantsiretti | `41,W,10,8,A0,0` | Default | `:` |
///
/// Types 0 (chess), 1 (Chinese chess), 2–19 (chess expansions), 50
/// (Othello) and the unassigned numbers are recognised and reported as
/// [`UnsupportedGame`].
///
/// ```
/// use pdn::{GameType, Variant, NotationKind};
///
/// let gt: GameType = "21".parse()?;
/// assert_eq!(gt.variant(), Variant::English);
/// assert_eq!(gt.to_string(), "21,B,8,8,N1,0");
///
/// let pool = GameType::parse("23,W,8,8,A0,0")?;
/// assert_eq!(pool.variant(), Variant::Pool);
/// assert_eq!(pool.notation().kind, NotationKind::Alphanumeric);
///
/// assert!(GameType::parse("0").is_err()); // chess
/// # Ok::<(), pdn::GameTypeError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GameType {
    variant: Variant,
    start: Color,
    width: u8,
    height: u8,
    notation: Notation,
    invert: bool,
}

impl Default for GameType {
    /// International draughts, the game of a PDN file without a `GameType`.
    fn default() -> GameType {
        GameType::new(Variant::International)
    }
}

impl GameType {
    /// The standard game type of a variant (the full form of its bare
    /// number).
    pub const fn new(variant: Variant) -> GameType {
        use Corner::*;
        use NotationKind::*;
        let (start, width, height, kind, corner, invert) = match variant {
            Variant::International => (Color::White, 10, 10, Numeric, TopLeft, false),
            Variant::English => (Color::Black, 8, 8, Numeric, BottomRight, false),
            Variant::Italian => (Color::White, 8, 8, Numeric, TopLeft, true),
            Variant::Pool => (Color::Black, 8, 8, Numeric, BottomRight, false),
            Variant::Spanish => (Color::White, 8, 8, Numeric, BottomRight, true),
            Variant::Russian => (Color::White, 8, 8, Alphanumeric, BottomLeft, false),
            Variant::Brazilian => (Color::White, 8, 8, Alphanumeric, BottomLeft, false),
            Variant::Canadian => (Color::White, 12, 12, Numeric, TopLeft, false),
            Variant::Portuguese => (Color::White, 8, 8, Numeric, BottomRight, true),
            Variant::Czech => (Color::White, 8, 8, Alphanumeric, BottomLeft, false),
            Variant::Turkish => (Color::White, 8, 8, Alphanumeric, BottomLeft, false),
            Variant::Thai => (Color::Black, 8, 8, Numeric, TopLeft, false),
            Variant::Frisian => (Color::White, 10, 10, Numeric, TopLeft, false),
            Variant::Spantsiretti => (Color::White, 10, 8, Alphanumeric, BottomLeft, false),
        };
        GameType {
            variant,
            start,
            width,
            height,
            notation: Notation::new(kind, corner),
            invert,
        }
    }

    /// A game type with the rules of `variant` on a board of your choice.
    ///
    /// # Errors
    ///
    /// If the board cannot be used (see [`Geometry::new`]).
    pub fn custom(
        variant: Variant,
        start: Color,
        width: u8,
        height: u8,
        notation: Notation,
        invert: bool,
    ) -> Result<GameType, GeometryError> {
        let gt = GameType {
            variant,
            start,
            width,
            height,
            notation,
            invert,
        };
        gt.try_geometry()?;
        Ok(gt)
    }

    /// Parses a `GameType` value strictly, by the PDN 3.0 regular expression
    /// `[0-9]+(,[WB],[0-9]+,[0-9]+,[ANS][0123](,[01])?)?`.
    ///
    /// # Errors
    ///
    /// If the value does not match, names a game other than a supported
    /// draughts variant, or describes an unusable board.
    pub fn parse(s: &str) -> Result<GameType, GameTypeError> {
        parse(s, false).map(|(gt, _)| gt)
    }

    /// Parses a `GameType` value, forgiving spaces, lower case, missing
    /// trailing fields (taken from the type's defaults), extra fields and
    /// lidraughts' own numbers 97 (Frysk!, read as Frisian) and 99 (from
    /// position, read as international). Returns what was forgiven.
    ///
    /// ```
    /// use pdn::{GameType, GameTypeWarning};
    ///
    /// let (gt, warnings) = GameType::parse_lenient(" 20, w, 10, 10 ")?;
    /// assert_eq!(gt, GameType::parse("20")?);
    /// assert!(warnings.contains(&GameTypeWarning::Spaces));
    /// assert!(warnings.contains(&GameTypeWarning::Truncated(4)));
    /// # Ok::<(), pdn::GameTypeError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// If a field cannot be read even leniently, the game is not a
    /// supported draughts variant, or the board cannot be used.
    pub fn parse_lenient(s: &str) -> Result<(GameType, Vec<GameTypeWarning>), GameTypeError> {
        parse(s, true)
    }

    /// Maps the value of a lidraughts-style `Variant` tag (`Standard`,
    /// `Frisian`, `Frysk!`, `Russian`, `Brazilian`, `From Position`, …) or a
    /// plain variant name (`English`, `Italian`, …) to a game type.
    ///
    /// `Frysk!` plays Frisian rules from a different start position, given in
    /// [`VariantTag::start_fen`].
    ///
    /// ```
    /// use pdn::{GameType, UnsupportedGame, Variant};
    ///
    /// assert_eq!(GameType::from_variant_tag("Standard")?.game_type.variant(), Variant::International);
    /// assert_eq!(GameType::from_variant_tag("russian")?.game_type.variant(), Variant::Russian);
    /// assert_eq!(GameType::from_variant_tag("Antidraughts"), Err(UnsupportedGame::Antidraughts));
    /// # Ok::<(), UnsupportedGame>(())
    /// ```
    ///
    /// # Errors
    ///
    /// For antidraughts, breakthrough and unknown names.
    pub fn from_variant_tag(value: &str) -> Result<VariantTag, UnsupportedGame> {
        let key: String = value
            .trim()
            .chars()
            .filter(|c| !matches!(c, ' ' | '_' | '-' | '!'))
            .flat_map(char::to_lowercase)
            .collect();
        let plain = |v| VariantTag {
            game_type: GameType::new(v),
            start_fen: None,
        };
        match key.as_str() {
            "standard" | "international" | "fromposition" | "frompos" | "fen" => {
                Ok(plain(Variant::International))
            }
            "frysk" => Ok(VariantTag {
                game_type: GameType::new(Variant::Frisian),
                start_fen: Some("W:W46,47,48,49,50:B1,2,3,4,5"),
            }),
            "antidraughts" | "anti" | "giveaway" => Err(UnsupportedGame::Antidraughts),
            "breakthrough" | "bt" => Err(UnsupportedGame::Breakthrough),
            "chess" => Err(UnsupportedGame::Chess),
            _ => value
                .parse::<Variant>()
                .map(plain)
                .map_err(|_| UnsupportedGame::UnknownName(value.trim().to_owned())),
        }
    }

    /// The variant whose rules are played.
    pub const fn variant(&self) -> Variant {
        self.variant
    }

    /// The `GameType` number.
    pub const fn number(&self) -> u16 {
        self.variant.game_type_number()
    }

    /// The colour that moves first, and whose pieces start at the bottom of
    /// the board the notation is read from.
    pub const fn start(&self) -> Color {
        self.start
    }

    /// Board width in squares.
    pub const fn width(&self) -> u8 {
        self.width
    }

    /// Board height in squares.
    pub const fn height(&self) -> u8 {
        self.height
    }

    /// How squares are written.
    pub const fn notation(&self) -> Notation {
        self.notation
    }

    /// Whether a game of `other` names the squares as this one does: the same board,
    /// numbered and named from the same corner (so that a square's name is the same
    /// square in both).
    pub(crate) fn names_squares_as(&self, other: &GameType) -> bool {
        self.width == other.width
            && self.height == other.height
            && self.notation == other.notation
            && self.invert == other.invert
            && self.variant.rules().board == other.variant.rules().board
    }

    /// How many squares the game is played on: the dark squares of a diagonal board,
    /// every square of a full one.
    pub(crate) fn playing_squares(&self) -> u32 {
        let all = u32::from(self.width) * u32::from(self.height);
        match self.variant.rules().board {
            BoardKind::Diagonal => all / 2,
            BoardKind::Full => all,
        }
    }

    /// Whether the bottom-left corner is not a playing square.
    pub const fn invert(&self) -> bool {
        self.invert
    }

    /// Whether this is the standard game type of its variant, which can be
    /// written as the bare number.
    pub fn is_standard(&self) -> bool {
        *self == GameType::new(self.variant)
    }

    /// The board and its square names.
    pub fn geometry(&self) -> Geometry {
        // Every constructor validated the board already.
        Geometry::build(
            self.width,
            self.height,
            self.variant.rules().board,
            self.invert,
            self.notation,
        )
    }

    fn try_geometry(&self) -> Result<Geometry, GeometryError> {
        Geometry::new(
            self.width,
            self.height,
            self.variant.rules().board,
            self.invert,
            self.notation,
        )
    }

    /// Which result values the game uses.
    pub const fn result_type(&self) -> ResultType {
        match self.variant {
            Variant::International | Variant::Canadian => ResultType::International,
            _ => ResultType::Default,
        }
    }

    /// The character written between the squares of a capture.
    pub const fn capture_separator(&self) -> char {
        match self.variant {
            Variant::Russian | Variant::Spantsiretti => ':',
            Variant::Thai => '-',
            _ => 'x',
        }
    }

    /// The shortest value for the tag: the bare number if the game type is
    /// standard, the full form otherwise.
    pub fn to_short_string(&self) -> String {
        if self.is_standard() {
            self.number().to_string()
        } else {
            self.to_string()
        }
    }
}

impl fmt::Display for GameType {
    /// The full form, e.g. `20,W,10,10,N2,0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{},{},{},{},{},{}",
            self.number(),
            self.start.char(),
            self.width,
            self.height,
            self.notation,
            u8::from(self.invert)
        )
    }
}

impl FromStr for GameType {
    type Err = GameTypeError;

    fn from_str(s: &str) -> Result<GameType, GameTypeError> {
        GameType::parse(s)
    }
}

/// The game a `Variant` tag names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VariantTag {
    /// The rules and board.
    pub game_type: GameType,
    /// A start position other than the variant's usual one, as a FEN.
    pub start_fen: Option<&'static str>,
}

fn parse(s: &str, lenient: bool) -> Result<(GameType, Vec<GameTypeWarning>), GameTypeError> {
    let mut warnings = Vec::new();
    let text = s.trim();
    if text.is_empty() {
        return Err(GameTypeError::Empty);
    }
    if text.len() != s.len() {
        if !lenient {
            return Err(GameTypeError::Number(s.to_owned()));
        }
        warnings.push(GameTypeWarning::Spaces);
    }
    let raw: Vec<&str> = text.split(',').collect();
    let mut fields = Vec::with_capacity(raw.len());
    for f in &raw {
        let t = f.trim();
        if t.len() != f.len() || t.contains(char::is_whitespace) {
            if !lenient {
                return Err(GameTypeError::FieldCount(raw.len()));
            }
            if !warnings.contains(&GameTypeWarning::Spaces) {
                warnings.push(GameTypeWarning::Spaces);
            }
        }
        fields.push(t);
    }

    let number_text = fields[0];
    let number: u16 = if number_text.bytes().all(|b| b.is_ascii_digit()) && !number_text.is_empty()
    {
        number_text
            .parse()
            .map_err(|_| GameTypeError::Number(number_text.to_owned()))?
    } else {
        return Err(GameTypeError::Number(number_text.to_owned()));
    };
    let variant = match Variant::from_game_type_number(number) {
        Some(v) => v,
        None if lenient && (number == 97 || number == 99) => {
            let (name, v) = if number == 97 {
                ("Frysk!", Variant::Frisian)
            } else {
                ("from position", Variant::International)
            };
            warnings.push(GameTypeWarning::Lidraughts {
                number,
                name,
                mapped: v.game_type_number(),
            });
            v
        }
        None => return Err(UnsupportedGame::from_number(number).into()),
    };
    let mut gt = GameType::new(variant);
    if fields.len() == 1 {
        return Ok((gt, warnings));
    }
    if !(lenient || fields.len() == 5 || fields.len() == 6) {
        return Err(GameTypeError::FieldCount(fields.len()));
    }
    if lenient && fields.len() < 5 {
        warnings.push(GameTypeWarning::Truncated(fields.len()));
    }
    if lenient && fields.len() > 6 {
        warnings.push(GameTypeWarning::ExtraFields);
    }
    let mut lower = false;
    let mut upper = |t: &str| -> String {
        if lenient && t.chars().any(|c| c.is_ascii_lowercase()) {
            lower = true;
            t.to_ascii_uppercase()
        } else {
            t.to_owned()
        }
    };

    if let Some(&start) = fields.get(1) {
        let start_up = upper(start);
        gt.start = match start_up.as_str() {
            "W" => Color::White,
            "B" => Color::Black,
            _ => return Err(GameTypeError::Start(start.to_owned())),
        };
    }
    let size = |t: &str| -> Result<u8, GameTypeError> {
        if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
            match t.parse::<u8>() {
                Ok(n) if n > 0 => return Ok(n),
                _ => {}
            }
        }
        Err(GameTypeError::Size(t.to_owned()))
    };
    if let Some(&w) = fields.get(2) {
        gt.width = size(w)?;
    }
    if let Some(&h) = fields.get(3) {
        gt.height = size(h)?;
    }
    if let Some(&n) = fields.get(4) {
        let up = upper(n);
        let mut chars = up.chars();
        let kind = chars.next().and_then(NotationKind::from_char);
        let corner = chars
            .next()
            .and_then(|c| c.to_digit(10))
            .and_then(|d| Corner::from_digit(d as u8));
        match (kind, corner, chars.next()) {
            (Some(kind), Some(corner), None) => gt.notation = Notation::new(kind, corner),
            _ => return Err(GameTypeError::Notation(n.to_owned())),
        }
    }
    if let Some(&i) = fields.get(5) {
        gt.invert = match i {
            "0" => false,
            "1" => true,
            _ => return Err(GameTypeError::Invert(i.to_owned())),
        };
    }
    if lower {
        warnings.push(GameTypeWarning::LowerCase);
    }
    gt.try_geometry().map_err(|source| GameTypeError::Board {
        text: text.to_owned(),
        source,
    })?;
    Ok((gt, warnings))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_forms_expand_to_the_table() {
        let table = [
            ("20", "20,W,10,10,N2,0"),
            ("21", "21,B,8,8,N1,0"),
            ("22", "22,W,8,8,N2,1"),
            ("23", "23,B,8,8,N1,0"),
            ("24", "24,W,8,8,N1,1"),
            ("25", "25,W,8,8,A0,0"),
            ("26", "26,W,8,8,A0,0"),
            ("27", "27,W,12,12,N2,0"),
            ("28", "28,W,8,8,N1,1"),
            ("29", "29,W,8,8,A0,0"),
            ("30", "30,W,8,8,A0,0"),
            ("31", "31,B,8,8,N2,0"),
            ("40", "40,W,10,10,N2,0"),
            ("41", "41,W,10,8,A0,0"),
        ];
        for (bare, full) in table {
            let a = GameType::parse(bare).expect(bare);
            let b = GameType::parse(full).expect(full);
            assert_eq!(a, b, "{bare}");
            assert_eq!(a.to_string(), full);
            assert!(a.is_standard());
            assert_eq!(a.to_short_string(), bare);
        }
    }

    #[test]
    fn pool_flavours() {
        let unified = GameType::parse("23,W,8,8,A0,0").expect("unified pool");
        assert_eq!(unified.variant(), Variant::Pool);
        assert_eq!(unified.start(), Color::White);
        assert!(!unified.is_standard());
        let jamaican = GameType::parse("23,B,8,8,A1,1").expect("jamaican");
        assert!(jamaican.invert());
        assert_eq!(jamaican.notation().corner, Corner::BottomRight);
        // Five fields: the invert flag is optional.
        assert_eq!(GameType::parse("21,B,8,8,N1"), GameType::parse("21"));
    }

    #[test]
    fn unsupported_games() {
        use UnsupportedGame::*;
        let err = |s| match GameType::parse(s) {
            Err(GameTypeError::Unsupported(u)) => u,
            other => panic!("{s}: {other:?}"),
        };
        assert_eq!(err("0"), Chess);
        assert_eq!(err("0,W,8,8,S0"), Chess);
        assert_eq!(err("1"), ChineseChess);
        assert_eq!(err("7"), ChessExpansion(7));
        assert_eq!(err("33"), DraughtsExpansion(33));
        assert_eq!(err("50"), Othello);
        assert_eq!(err("77"), Unknown(77));
        assert_eq!(err("98"), Antidraughts);
        assert!(
            GameType::parse("0")
                .expect_err("chess")
                .to_string()
                .contains("chess")
        );
    }

    #[test]
    fn syntax_errors() {
        assert_eq!(GameType::parse(""), Err(GameTypeError::Empty));
        assert!(matches!(
            GameType::parse("x"),
            Err(GameTypeError::Number(_))
        ));
        assert!(matches!(
            GameType::parse("20,W,10"),
            Err(GameTypeError::FieldCount(3))
        ));
        assert!(matches!(
            GameType::parse("20,X,10,10,N2,0"),
            Err(GameTypeError::Start(_))
        ));
        assert!(matches!(
            GameType::parse("20,W,0,10,N2,0"),
            Err(GameTypeError::Size(_))
        ));
        assert!(matches!(
            GameType::parse("20,W,10,10,Q2,0"),
            Err(GameTypeError::Notation(_))
        ));
        assert!(matches!(
            GameType::parse("20,W,10,10,N4,0"),
            Err(GameTypeError::Notation(_))
        ));
        assert!(matches!(
            GameType::parse("20,W,10,10,N2,2"),
            Err(GameTypeError::Invert(_))
        ));
        assert!(matches!(
            GameType::parse("20,W,9,10,N2,0"),
            Err(GameTypeError::Board { .. })
        ));
        assert!(matches!(
            GameType::parse("20,W,10,10,S2,0"),
            Err(GameTypeError::Board { .. })
        ));
        assert!(GameType::parse(" 20").is_err());
        assert!(GameType::parse("20, W,10,10,N2,0").is_err());
    }

    #[test]
    fn lenient() {
        let (gt, w) = GameType::parse_lenient("20,w,10,10,n2,0").expect("lenient");
        assert_eq!(gt, GameType::new(Variant::International));
        assert_eq!(w, vec![GameTypeWarning::LowerCase]);
        let (gt, w) = GameType::parse_lenient("97").expect("frysk");
        assert_eq!(gt.variant(), Variant::Frisian);
        assert_eq!(w.len(), 1);
        let (_, w) = GameType::parse_lenient("20,W,10,10,N2,0,9").expect("extra");
        assert_eq!(w, vec![GameTypeWarning::ExtraFields]);
        assert!(GameType::parse("97").is_err());
    }

    #[test]
    fn custom_boards() {
        let gt = GameType::parse("20,W,8,8,N2,0").expect("international on 8x8");
        assert_eq!(gt.geometry().len(), 32);
        let notation = Notation::new(NotationKind::Numeric, Corner::TopLeft);
        assert!(GameType::custom(Variant::Turkish, Color::White, 8, 8, notation, false).is_ok());
        assert!(
            GameType::custom(Variant::International, Color::White, 7, 7, notation, false).is_err()
        );
    }

    #[test]
    fn separators_and_results() {
        assert_eq!(GameType::new(Variant::Russian).capture_separator(), ':');
        assert_eq!(GameType::new(Variant::Thai).capture_separator(), '-');
        assert_eq!(GameType::new(Variant::English).capture_separator(), 'x');
        assert_eq!(
            GameType::new(Variant::Canadian).result_type(),
            ResultType::International
        );
        assert_eq!(
            GameType::new(Variant::Frisian).result_type(),
            ResultType::Default
        );
    }

    #[test]
    fn variant_tags() {
        let v = |s| GameType::from_variant_tag(s).map(|t| t.game_type.variant());
        assert_eq!(v("Standard"), Ok(Variant::International));
        assert_eq!(v("From Position"), Ok(Variant::International));
        assert_eq!(v("fromPosition"), Ok(Variant::International));
        assert_eq!(v("Frisian"), Ok(Variant::Frisian));
        assert_eq!(v("Russian"), Ok(Variant::Russian));
        assert_eq!(v("Brazilian"), Ok(Variant::Brazilian));
        assert_eq!(v("English"), Ok(Variant::English));
        assert_eq!(v("Breakthrough"), Err(UnsupportedGame::Breakthrough));
        assert!(matches!(
            v("Crazyhouse"),
            Err(UnsupportedGame::UnknownName(_))
        ));
        let frysk = GameType::from_variant_tag("Frysk!").expect("frysk");
        assert_eq!(frysk.game_type.variant(), Variant::Frisian);
        assert!(frysk.start_fen.is_some());
    }
}
