//! Chess openings: the ECO code and name of a game's opening, from lichess's table of named
//! openings (3,807 lines, public domain under CC0, embedded in the crate at build time:
//! `data/openings/README.md` says where it comes from).
//!
//! A game is named the way lichess names it: its main line is played, and the **deepest**
//! position of it that is the end position of a named line gives the opening. Positions are
//! compared, not move orders, so that a transposition is found: two positions are the same
//! when their placement, side to move and castling rights are, and their en-passant squares
//! are when an en-passant capture is legal ([`Position::ep_square`] is only set then).
//!
//! A position is found in the table by its Zobrist hash, which hashes exactly these. The
//! table is compiled into the crate with each line's length and end-position hash
//! (`openings_table.rs`, written from `data/openings/` by `cargo xtask openings`), so that
//! it is ready at once rather than after its rows are read and 8,649 moves played. A test
//! reads the table's files and plays every line, holds the compiled table to them, and two
//! different end positions to different hashes.
//!
//! When several lines of the table end in the same position, the first of them in the
//! table's order (files `a` to `e`, rows in file order) names it.
//!
//! The main line is scanned for at most [`SCAN_PLIES`] plies after its start: the table's
//! longest line is 36 plies, and a transposition may take a few plies more to reach a
//! named position, so the margin is 12 plies. The cost of naming a game stays bounded
//! however long it is.
//!
//! ```
//! use pgn::openings::{self, Eco};
//!
//! let games = pgn::read_games(&b"1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be3 *"[..]);
//! let opening = openings::classify_game(&games[0].game).expect("a named opening");
//! assert_eq!(opening.eco(), "B90".parse::<Eco>()?);
//! assert_eq!(opening.name(), "Sicilian Defense: Najdorf Variation, English Attack");
//! # Ok::<(), openings::ParseEcoError>(())
//! ```

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::str::FromStr;
use std::sync::OnceLock;

use notation::Rules;

#[cfg(test)]
use crate::{Board, CastlingRights, Color, Square};
use crate::{ChessRules, GameTree, Move, Position};

/// The files of lichess's table in their order, from which the compiled table is written
/// and against which the tests hold it.
#[cfg(test)]
const FILES: [&str; 5] = [
    include_str!("../data/openings/a.tsv"),
    include_str!("../data/openings/b.tsv"),
    include_str!("../data/openings/c.tsv"),
    include_str!("../data/openings/d.tsv"),
    include_str!("../data/openings/e.tsv"),
];

/// How many plies past the table's longest line a transposition may still reach a named
/// position (see [`SCAN_PLIES`]).
const MARGIN_PLIES: usize = 12;

/// The rows of the table (a test holds it to the table).
const TABLE_ROWS: usize = 3807;

/// The longest line of the table, in plies (a test holds it to the table).
const LONGEST_LINE_PLIES: usize = 36;

// `LINES`: every line of the table, in its order, with its length and the Zobrist hash of
// its end position.
include!("openings_table.rs");

/// How many plies of a main line after its start are looked at: the table's longest line
/// (36 plies) and a margin of 12 for transpositions that take longer to reach a named
/// position. Positions after it are not looked at, so that naming a game costs the same
/// whatever its length.
pub const SCAN_PLIES: usize = LONGEST_LINE_PLIES + MARGIN_PLIES;

/// An ECO code (*Encyclopaedia of Chess Openings*): a letter from `A` to `E` and two
/// digits, `A00` to `E99`.
///
/// Codes order as their text does, so that ranges compare:
///
/// ```
/// use pgn::openings::Eco;
///
/// let najdorf: Eco = "B90".parse()?;
/// let range = "B90".parse::<Eco>()?..="B99".parse::<Eco>()?;
/// assert!(range.contains(&najdorf));
/// assert!(!range.contains(&"C00".parse()?));
/// assert_eq!(najdorf.to_string(), "B90");
/// assert_eq!((najdorf.letter(), najdorf.number()), ('B', 90));
/// assert!("B9".parse::<Eco>().is_err() && "F00".parse::<Eco>().is_err());
/// # Ok::<(), pgn::openings::ParseEcoError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Eco {
    /// `b'A'` to `b'E'` (compared first).
    letter: u8,
    /// 0 to 99.
    number: u8,
}

impl Eco {
    /// The first code, `A00`.
    pub const MIN: Eco = Eco {
        letter: b'A',
        number: 0,
    };

    /// The last code, `E99`.
    pub const MAX: Eco = Eco {
        letter: b'E',
        number: 99,
    };

    /// The code of a letter (`A` to `E`, either case) and a number (0 to 99); `None`
    /// for anything else.
    ///
    /// ```
    /// use pgn::openings::Eco;
    /// assert_eq!(Eco::new('c', 42).map(|e| e.to_string()), Some("C42".to_owned()));
    /// assert_eq!(Eco::new('C', 100), None);
    /// ```
    pub const fn new(letter: char, number: u8) -> Option<Eco> {
        let letter = letter.to_ascii_uppercase();
        if matches!(letter, 'A'..='E') && number <= 99 {
            Some(Eco {
                letter: letter as u8,
                number,
            })
        } else {
            None
        }
    }

    /// The letter, `A` to `E`: the volume of the encyclopaedia.
    pub const fn letter(self) -> char {
        self.letter as char
    }

    /// The number, 0 to 99.
    pub const fn number(self) -> u8 {
        self.number
    }
}

impl fmt::Display for Eco {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{:02}", self.letter(), self.number)
    }
}

/// Why a text is not an ECO code.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseEcoError {
    /// Not three characters long.
    #[error(
        "{0:?} is not an ECO code: an ECO code is a letter from A to E and two digits, such as B90"
    )]
    Length(String),
    /// The first character is not a letter from `A` to `E`.
    #[error("{0:?} is not an ECO code: its letter must be one of A, B, C, D, E")]
    Letter(String),
    /// The last two characters are not digits.
    #[error("{0:?} is not an ECO code: its letter must be followed by two digits")]
    Digits(String),
}

impl FromStr for Eco {
    type Err = ParseEcoError;

    /// Reads a code as PGN's `ECO` tag writes it: `B90` (a lowercase letter is read too;
    /// white space around it is not, nor a suffix such as `B90a`).
    fn from_str(text: &str) -> Result<Eco, ParseEcoError> {
        let &[letter, tens, units] = text.as_bytes() else {
            return Err(ParseEcoError::Length(text.to_owned()));
        };
        if !matches!(letter.to_ascii_uppercase(), b'A'..=b'E') {
            return Err(ParseEcoError::Letter(text.to_owned()));
        }
        if !tens.is_ascii_digit() || !units.is_ascii_digit() {
            return Err(ParseEcoError::Digits(text.to_owned()));
        }
        Ok(Eco {
            letter: letter.to_ascii_uppercase(),
            number: (tens - b'0') * 10 + (units - b'0'),
        })
    }
}

/// A named opening line of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    eco: Eco,
    name: &'static str,
    pgn: &'static str,
    plies: usize,
    /// The Zobrist hash of its end position, by which positions are compared.
    end: u64,
}

impl Opening {
    /// Its ECO code.
    pub fn eco(&self) -> Eco {
        self.eco
    }

    /// Its full name as lichess writes it: `Sicilian Defense: Najdorf Variation, English
    /// Attack`.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The opening family: the name up to its colon (`Sicilian Defense`), or all of it.
    pub fn family(&self) -> &'static str {
        self.name
            .split_once(':')
            .map_or(self.name, |(family, _)| family)
    }

    /// The moves that reach it from the standard start, as PGN movetext
    /// (`1. e4 c5 2. Nf3 d6`).
    pub fn pgn(&self) -> &'static str {
        self.pgn
    }

    /// The number of plies of its line.
    pub fn plies(&self) -> usize {
        self.plies
    }

    /// The position its line ends in (its moves played again from the start).
    ///
    /// ```
    /// let ruy = pgn::openings::all().iter().find(|o| o.name() == "Ruy Lopez").expect("a line");
    /// assert_eq!(
    ///     ruy.position().to_fen(),
    ///     "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"
    /// );
    /// ```
    pub fn position(&self) -> Position {
        let mut position = Position::new();
        for token in moves(self.pgn) {
            // Every line of the table is legal (a test says so).
            if position.play_san(token.as_bytes()).is_err() {
                break;
            }
        }
        position
    }
}

/// A position as openings compare it: placement, side to move, castling rights and the
/// en-passant square (set only when a capture is legal); and the position's Zobrist hash,
/// which hashes exactly these. The tests compare whole keys, to hold the table's hashes to
/// its positions.
#[cfg(test)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Key {
    board: Board,
    turn: Color,
    castling: CastlingRights,
    ep_square: Option<Square>,
    zobrist: u64,
}

#[cfg(test)]
impl Key {
    fn of(position: &Position) -> Key {
        Key {
            board: *position.board(),
            turn: position.turn(),
            castling: position.castling_rights(),
            ep_square: position.ep_square(),
            zobrist: position.zobrist_hash(),
        }
    }
}

/// A hasher that takes a Zobrist hash as it is: it is already uniformly spread, and
/// hashing it again (std's SipHash) would be most of the cost of a look-up.
#[derive(Default)]
struct ZobristHasher(u64);

impl Hasher for ZobristHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }

    /// Not used by the table (its keys are `u64`); mixes any other bytes all the same
    /// (FxHash's step).
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
}

/// The table: every line, and the line that names each end position, found by the
/// position's Zobrist hash.
struct Table {
    /// The first line of [`LINES`] whose end position has this hash.
    by_hash: HashMap<u64, usize, BuildHasherDefault<ZobristHasher>>,
    /// A bit for each value of a hash's top [`FILTER_BITS`] bits, set for the lines'
    /// end positions: nearly every position of a game past its first moves is named by no
    /// line, and this 8 KiB, which stays in the cache, says so without a probe of the map
    /// (which misses the cache, and cost a third of the time the Arrow tables spend on a
    /// chess move beyond reading it).
    filter: Box<[u64; FILTER_WORDS]>,
}

/// The top bits of a position's hash that [`Table::filter`] is indexed by.
const FILTER_BITS: u32 = 16;
const FILTER_WORDS: usize = (1 << FILTER_BITS) / 64;

impl Table {
    /// Whether a line may end in the position of this hash (no line does when not).
    fn may_name(&self, hash: u64) -> bool {
        let bit = (hash >> (64 - FILTER_BITS)) as usize;
        self.filter[bit / 64] & (1 << (bit % 64)) != 0
    }
}

/// Why a row of the table could not be read (a test holds every row to be read).
#[cfg(test)]
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum RowError {
    #[error("{at}: not three fields separated by tabs")]
    Fields { at: At },
    #[error("{at}: {source}")]
    Eco { at: At, source: ParseEcoError },
    #[error("{at}: move {token:?}: {reason}")]
    Move {
        at: At,
        token: String,
        reason: String,
    },
}

/// Where a row of the table is: its file's letter and its line in the file, from 1.
#[cfg(test)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct At {
    file: char,
    line: u32,
}

#[cfg(test)]
impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.tsv:{}", self.file, self.line)
    }
}

/// A row of the table, its line not yet played.
#[cfg(test)]
struct Row {
    at: At,
    eco: Eco,
    name: &'static str,
    pgn: &'static str,
}

/// Reads one file of the table (`letter` names it): its rows after the header, each as
/// a row or why not.
#[cfg(test)]
fn read_rows(letter: char, text: &'static str) -> impl Iterator<Item = Result<Row, RowError>> {
    text.lines()
        .enumerate()
        .skip(1)
        .filter(|(_, line)| !line.is_empty())
        .map(move |(i, line)| {
            let at = At {
                file: letter,
                line: u32::try_from(i + 1).unwrap_or(u32::MAX),
            };
            read_row(at, line)
        })
}

#[cfg(test)]
fn read_row(at: At, line: &'static str) -> Result<Row, RowError> {
    let mut fields = line.split('\t');
    let (Some(eco), Some(name), Some(pgn), None) =
        (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return Err(RowError::Fields { at });
    };
    let eco = match eco.parse::<Eco>() {
        Ok(eco) => eco,
        Err(source) => return Err(RowError::Eco { at, source }),
    };
    Ok(Row { at, eco, name, pgn })
}

/// The moves of a line: its tokens less the move numbers (`1.`, `12...`).
fn moves(pgn: &str) -> impl Iterator<Item = &str> {
    pgn.split_ascii_whitespace()
        .filter(|token| !token.ends_with('.'))
}

/// The lines played so far, as a path from the start: each move and the position after
/// it. Lines are played in the order of their text, so that the next line shares most of
/// its moves with the path, and only the moves after them are played (8,649 moves for the
/// table's 36,895).
#[cfg(test)]
#[derive(Default)]
struct Path {
    moves: Vec<(&'static str, Position)>,
}

#[cfg(test)]
impl Path {
    /// The end of `pgn`'s line and its length in plies.
    fn play(&mut self, pgn: &'static str, at: At) -> Result<(Position, usize), RowError> {
        let mut plies = 0;
        for token in moves(pgn) {
            if self
                .moves
                .get(plies)
                .is_some_and(|(played, _)| *played == token)
            {
                plies += 1;
                continue;
            }
            self.moves.truncate(plies);
            let before = self.moves.last().map_or_else(Position::new, |(_, p)| *p);
            let resolved = before
                .resolve_san(token.as_bytes())
                .map_err(|e| RowError::Move {
                    at,
                    token: token.to_owned(),
                    reason: e.to_string(),
                })?;
            self.moves.push((token, resolved.after));
            plies += 1;
        }
        self.moves.truncate(plies);
        let end = self.moves.last().map_or_else(Position::new, |(_, p)| *p);
        Ok((end, plies))
    }
}

/// Reads the table's files and plays every line: each line as the compiled table holds it,
/// with its end position as compared, in the table's order; and the rows that could not be
/// read or played (none: a test says so).
#[cfg(test)]
fn play_table() -> (Vec<(Opening, Key)>, Vec<RowError>) {
    let mut errors = Vec::new();
    let mut rows = Vec::new();
    for (letter, text) in ['a', 'b', 'c', 'd', 'e'].into_iter().zip(FILES) {
        for row in read_rows(letter, text) {
            match row {
                Ok(row) => rows.push(row),
                Err(e) => errors.push(e),
            }
        }
    }
    // Played in the order of their text, so that each shares most of its moves with the
    // one before.
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by_key(|&i| rows.get(i).map(|row| row.pgn));
    let mut played = vec![None; rows.len()];
    let mut path = Path::default();
    for i in order {
        let Some(row) = rows.get(i) else { continue };
        match path.play(row.pgn, row.at) {
            Ok((end, plies)) => {
                let key = Key::of(&end);
                let opening = Opening {
                    eco: row.eco,
                    name: row.name,
                    pgn: row.pgn,
                    plies,
                    end: key.zobrist,
                };
                played[i] = Some((opening, key));
            }
            Err(e) => errors.push(e),
        }
    }
    (played.into_iter().flatten().collect(), errors)
}

/// Builds the table of openings' positions now, rather than at the first classification:
/// a program that reads games near a memory limit builds it first, while memory is there
/// (its size is fixed, about 200 KB; a classification that builds it cannot fail
/// gracefully).
///
/// ```
/// pgn::openings::prepare();
/// assert!(pgn::openings::classify_position(&pgn::Position::new()).is_none());
/// ```
pub fn prepare() {
    table();
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut by_hash = HashMap::with_capacity_and_hasher(LINES.len(), Default::default());
        let mut filter = Box::new([0u64; FILTER_WORDS]);
        for (i, line) in LINES.iter().enumerate() {
            // The first line in the table's order names a position several lines end in.
            by_hash.entry(line.end).or_insert(i);
            let bit = (line.end >> (64 - FILTER_BITS)) as usize;
            filter[bit / 64] |= 1 << (bit % 64);
        }
        Table { by_hash, filter }
    })
}

/// Every named line of the table, in its order (by ECO code, as lichess lists them).
///
/// ```
/// let all = pgn::openings::all();
/// assert_eq!(all.len(), 3807);
/// assert_eq!(all[0].name(), "Amar Opening");
/// ```
pub fn all() -> &'static [Opening] {
    &LINES
}

/// The named lines of an ECO code, in the table's order.
///
/// ```
/// use pgn::openings;
/// let b90: Vec<_> = openings::by_eco("B90".parse()?).map(|o| o.name()).collect();
/// assert_eq!(b90.first(), Some(&"Sicilian Defense: Najdorf Variation"));
/// assert!(b90.iter().all(|name| name.starts_with("Sicilian Defense")));
/// assert_eq!(b90.len(), 15);
/// # Ok::<(), openings::ParseEcoError>(())
/// ```
pub fn by_eco(eco: Eco) -> impl Iterator<Item = &'static Opening> {
    all().iter().filter(move |opening| opening.eco == eco)
}

/// The named line that ends in `position`, if one does (the first in the table's order
/// when several do).
///
/// ```
/// use pgn::{openings, Position};
/// let pos = Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")?;
/// let opening = openings::classify_position(&pos).expect("named");
/// assert_eq!((opening.eco().to_string().as_str(), opening.name()), ("C20", "King's Pawn Game"));
/// assert!(openings::classify_position(&Position::new()).is_none());
/// // Only standard chess: the same pieces in a crazyhouse game are not named.
/// let zh = Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[] w KQkq - 0 2")?;
/// assert!(openings::classify_position(&zh).is_none());
/// # Ok::<(), pgn::fen::FenError>(())
/// ```
pub fn classify_position(position: &Position) -> Option<&'static Opening> {
    // The table names positions of standard chess; a variant's position is another game
    // whatever its pieces (a crazyhouse pocket, a three-check counter, an atomic capture).
    if position.ruleset() != crate::Ruleset::Chess {
        return None;
    }
    let table = table();
    let hash = position.zobrist_hash();
    if !table.may_name(hash) {
        return None;
    }
    let first = *table.by_hash.get(&hash)?;
    LINES.get(first)
}

/// Names an opening from the positions of a main line, given one by one from its start:
/// the deepest of them that a named line ends in. Positions past [`SCAN_PLIES`] plies
/// after the start are not looked at ([`Classifier::push`] says when no more are wanted).
///
/// ```
/// use pgn::{openings::Classifier, Position};
/// let mut classifier = Classifier::new();
/// let mut pos = Position::new();
/// classifier.push(&pos);
/// for san in ["d4", "d5", "c4"] {
///     pos.play_san(san.as_bytes())?;
///     classifier.push(&pos);
/// }
/// assert_eq!(classifier.opening().map(|o| o.name()), Some("Queen's Gambit"));
/// # Ok::<(), pgn::san::SanError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Classifier {
    /// Positions seen, the start included.
    seen: usize,
    found: Option<&'static Opening>,
}

impl Classifier {
    /// A classifier that has seen no position.
    pub fn new() -> Classifier {
        Classifier::default()
    }

    /// Looks at the next position of the line (the first is its start); returns whether
    /// more are wanted.
    pub fn push(&mut self, position: &Position) -> bool {
        if self.is_done() {
            return false;
        }
        self.seen += 1;
        if let Some(opening) = classify_position(position) {
            self.found = Some(opening);
        }
        !self.is_done()
    }

    /// Whether it has seen the start and [`SCAN_PLIES`] plies after it: no more positions
    /// are looked at.
    pub fn is_done(&self) -> bool {
        self.seen > SCAN_PLIES
    }

    /// The opening of the deepest named position seen.
    pub fn opening(&self) -> Option<&'static Opening> {
        self.found
    }
}

/// The opening of the line played by `moves` from `start` (each move legal in the
/// position it is played in, as a game's moves are).
///
/// ```
/// use pgn::{openings, Position};
/// let mut pos = Position::new();
/// let mut moves = Vec::new();
/// for san in ["e4", "e5", "Nf3", "Nc6", "Bb5"] {
///     let (mv, _) = pos.play_san(san.as_bytes())?;
///     moves.push(mv);
/// }
/// let opening = openings::classify_moves(&Position::new(), &moves).expect("named");
/// assert_eq!(opening.name(), "Ruy Lopez");
/// # Ok::<(), pgn::san::SanError>(())
/// ```
pub fn classify_moves<'m>(
    start: &Position,
    moves: impl IntoIterator<Item = &'m Move>,
) -> Option<&'static Opening> {
    let mut classifier = Classifier::new();
    let mut position = *start;
    if !classifier.push(&position) {
        return classifier.opening();
    }
    for mv in moves {
        position.play_mut(mv);
        if !classifier.push(&position) {
            break;
        }
    }
    classifier.opening()
}

/// The opening of a game: its main line played from its start position (the tags'), up
/// to [`SCAN_PLIES`] plies. `None` when no position of it is named, or its start position
/// cannot be set up.
pub fn classify_game(game: &GameTree) -> Option<&'static Opening> {
    let start = ChessRules.start_position(&game.tags).ok()?.position;
    classify_moves(&start, game.mainline().map(|node| &node.mv))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(line: &str) -> Position {
        let mut pos = Position::new();
        for token in line.split_ascii_whitespace() {
            if !token.ends_with('.') {
                pos.play_san(token.as_bytes()).expect("a legal move");
            }
        }
        pos
    }

    fn eco(text: &str) -> Eco {
        text.parse().expect("an ECO code")
    }

    fn game(pgn: &str) -> Option<&'static Opening> {
        let games = crate::read_games(pgn.as_bytes());
        assert!(!games[0].has_errors(), "{:?}", games[0].diagnostics);
        classify_game(&games[0].game)
    }

    /// The compiled table (`openings_table.rs`) is the table's files read and played;
    /// `NOTATION_UPDATE_OPENINGS=1` (`cargo xtask openings`) writes it afresh from them.
    #[test]
    fn the_compiled_table_is_the_files_played() {
        let (played, errors) = play_table();
        assert_eq!(errors, []);
        assert_eq!(played.len(), TABLE_ROWS);
        if std::env::var_os("NOTATION_UPDATE_OPENINGS").is_some() {
            let mut text = String::from(
                "// Every line of the table of openings (data/openings/), in its order, with its\n\
                 // length and the Zobrist hash of its end position. Written by `cargo xtask\n\
                 // openings`; do not edit.\n\
                 static LINES: [Opening; TABLE_ROWS] = [\n",
            );
            for (o, _) in &played {
                text.push_str(&format!(
                    "    Opening {{ eco: Eco {{ letter: b'{}', number: {} }}, name: {:?}, pgn: {:?}, plies: {}, end: 0x{:016x} }},\n",
                    char::from(o.eco.letter),
                    o.eco.number,
                    o.name,
                    o.pgn,
                    o.plies,
                    o.end
                ));
            }
            text.push_str("];\n");
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/openings_table.rs");
            std::fs::write(path, text).expect("openings_table.rs written");
            return;
        }
        let compiled: Vec<&Opening> = all().iter().collect();
        let read: Vec<&Opening> = played.iter().map(|(o, _)| o).collect();
        assert!(
            compiled == read,
            "src/openings_table.rs is not the table's files: run `cargo xtask openings`"
        );
        // Two different end positions never share a hash, so that a hash is a position.
        let mut by_hash: HashMap<u64, Key> = HashMap::new();
        for (_, key) in &played {
            assert_eq!(*by_hash.entry(key.zobrist).or_insert(*key), *key);
        }
    }

    #[test]
    fn the_whole_table_reads() {
        assert_eq!(all().len(), 3807);
        let longest = all().iter().map(Opening::plies).max();
        assert_eq!(longest, Some(LONGEST_LINE_PLIES));
        // In the order of the codes, A00 to E99, and all 500 of them used.
        assert!(all().windows(2).all(|w| w[0].eco <= w[1].eco));
        let mut codes: Vec<Eco> = all().iter().map(Opening::eco).collect();
        codes.dedup();
        assert_eq!(codes.len(), 500);
        assert_eq!((codes[0], codes[499]), (Eco::MIN, Eco::MAX));
    }

    #[test]
    fn every_line_names_its_end_position_or_an_earlier_line_does() {
        for (i, line) in all().iter().enumerate() {
            let named = classify_position(&line.position()).expect("every end position is named");
            let first = all().iter().position(|other| other.end == line.end);
            assert_eq!(
                first.and_then(|f| all().get(f)).map(Opening::name),
                Some(named.name())
            );
            assert!(first <= Some(i));
            assert_eq!(Key::of(&play(line.pgn)).zobrist, line.end);
        }
    }

    #[test]
    fn the_najdorf_english_attack_is_named_exactly() {
        let opening =
            game("1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be3 e5 7. Nb3 Be6 8. f3 Be7 9. Qd2 *")
                .expect("named");
        assert_eq!(opening.eco(), eco("B90"));
        assert_eq!(
            opening.name(),
            "Sicilian Defense: Najdorf Variation, English Attack"
        );
        assert_eq!(opening.family(), "Sicilian Defense");
        // The deepest named position of the game: the line of 8. f3, not that of 6. Be3.
        assert_eq!(opening.plies(), 15);
    }

    #[test]
    fn the_deepest_named_position_wins() {
        // 1. e4 e5 2. Nf3 Nc6 3. Bb5 is the Ruy Lopez; 3... a6 its Morphy Defense.
        let ruy = game("1. e4 e5 2. Nf3 Nc6 3. Bb5 *").expect("named");
        assert_eq!((ruy.eco(), ruy.name()), (eco("C60"), "Ruy Lopez"));
        let morphy = game("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *").expect("named");
        assert_eq!(morphy.eco(), eco("C70"));
        assert_eq!(morphy.name(), "Ruy Lopez: Morphy Defense");
        // A move out of the table keeps the last named position.
        let out = game("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 b5 5. Bb3 Na5 6. Nxe5 Qg5 7. Qf3 *")
            .expect("named");
        assert_eq!(out.name(), "Ruy Lopez: Morphy Defense, Norwegian Variation");
        assert_eq!(out.plies(), 10);
    }

    #[test]
    fn transpositions_are_found() {
        // The Queen's Gambit Declined reached by 1. Nf3 d5 2. c4 e6 3. d4 Nf6 4. Nc3: the
        // position of 1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Nf3.
        let by_knight = game("1. Nf3 d5 2. c4 e6 3. d4 Nf6 4. Nc3 *").expect("named");
        let direct =
            classify_position(&play("1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Nf3")).expect("named");
        assert_eq!(by_knight.name(), direct.name());
        assert_eq!(by_knight.eco(), direct.eco());
        assert!(
            by_knight.name().starts_with("Queen's Gambit Declined"),
            "{}",
            by_knight.name()
        );
        assert!(by_knight.eco() >= eco("D30") && by_knight.eco() <= eco("D69"));
        // The Sicilian's 1. e4 c5 2. Nf3 reached by 1. Nf3 c5 2. e4.
        let by_knight = game("1. Nf3 c5 2. e4 *").expect("named");
        let direct = classify_position(&play("1. e4 c5 2. Nf3")).expect("named");
        assert_eq!(
            (by_knight.eco(), by_knight.name()),
            (direct.eco(), direct.name())
        );
        assert_eq!(by_knight.pgn(), "1. e4 c5 2. Nf3");
    }

    #[test]
    fn en_passant_counts_only_when_a_capture_is_legal() {
        // After 1. e4 no black pawn can take on e3: the position is the one of any
        // order of moves, whatever the FEN says of e3.
        let with_ep =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
                .expect("a FEN");
        let without =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
                .expect("a FEN");
        assert_eq!(
            classify_position(&with_ep).map(Opening::name),
            Some("King's Pawn Game")
        );
        assert_eq!(
            classify_position(&without).map(Opening::name),
            Some("King's Pawn Game")
        );
        // A legal capture en passant makes the position another one: after 1. e4 d5
        // 2. e5 f5, white may take on f6, so it is not the position in which the same
        // pawns stand with no capture possible.
        let capture = play("1. e4 d5 2. e5 f5");
        assert!(capture.ep_square().is_some());
        let mut no_capture = capture.to_setup();
        no_capture.ep_square = None;
        let no_capture = Position::from_setup_auto(&no_capture).expect("legal");
        assert_ne!(Key::of(&capture), Key::of(&no_capture));
    }

    #[test]
    fn by_eco_and_ranges() {
        let c42: Vec<_> = by_eco(eco("C42")).collect();
        assert!(!c42.is_empty());
        assert!(c42.iter().all(|o| o.eco() == eco("C42")));
        assert_eq!(c42[0].name(), "Petrov's Defense");
        assert!(
            by_eco(eco("B90"))
                .any(|o| o.name() == "Sicilian Defense: Najdorf Variation, English Attack")
        );
        let sicilian = eco("B20")..=eco("B99");
        assert!(sicilian.contains(&eco("B90")));
        assert!(!sicilian.contains(&eco("C00")) && !sicilian.contains(&eco("A99")));
        assert!(Eco::MIN < Eco::MAX);
    }

    #[test]
    fn eco_codes_read_and_write() {
        assert_eq!(eco("b90").to_string(), "B90");
        assert_eq!(eco("A00"), Eco::MIN);
        assert_eq!(eco("E99"), Eco::MAX);
        assert_eq!(eco("C05"), Eco::new('C', 5).expect("a code"));
        for (text, error) in [
            ("", ParseEcoError::Length(String::new())),
            ("B9", ParseEcoError::Length("B9".into())),
            ("B90a", ParseEcoError::Length("B90a".into())),
            (" B90", ParseEcoError::Length(" B90".into())),
            ("F00", ParseEcoError::Letter("F00".into())),
            ("?", ParseEcoError::Length("?".into())),
            ("B9x", ParseEcoError::Digits("B9x".into())),
            ("Bé", ParseEcoError::Digits("Bé".into())),
            ("é0", ParseEcoError::Letter("é0".into())),
        ] {
            assert_eq!(text.parse::<Eco>(), Err(error), "{text:?}");
        }
        assert_eq!(Eco::new('F', 0), None);
        assert_eq!(Eco::new('A', 100), None);
    }

    #[test]
    fn scanning_stops_after_the_scan_plies() {
        let mut classifier = Classifier::new();
        let start = Position::new();
        for _ in 0..SCAN_PLIES {
            assert!(classifier.push(&start));
        }
        assert!(!classifier.push(&start));
        assert!(classifier.is_done());
        // A named position past the limit is not looked at.
        assert!(!classifier.push(&play("1. e4")));
        assert!(classifier.opening().is_none());
    }

    #[test]
    fn games_from_a_set_up_position_and_unnamed_games() {
        assert!(game("*").is_none());
        let endgame = "[SetUp \"1\"]\n[FEN \"8/8/4k3/8/8/4K3/4P3/8 w - - 0 1\"]\n\n1. Kd3 *";
        assert!(game(endgame).is_none());
        // A game set up after 1. e4 e5 that plays 2. Nf3 Nc6 3. Bb5 is a Ruy Lopez.
        let set_up = game(
            "[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\"]\n\n2. Nf3 Nc6 3. Bb5 *",
        );
        assert_eq!(set_up.map(Opening::name), Some("Ruy Lopez"));
    }
}
