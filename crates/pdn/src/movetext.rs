//! Move notation: reading moves like `32-28`, `28x17`, `11x18x25`, `c3-d4`
//! or `e3:g5` against a position, and writing them the PDN 3.0 way.
//!
//! Reading resolves the text against the legal moves. A capture given by
//! its two ends is enough unless several captures with those ends take
//! different pieces; then the intermediate squares (PDN 3.0: the squares
//! where the piece turns, or right behind a piece it jumps straight on
//! from) must tell them apart. Captures with the same ends and the same
//! captured pieces are one move, whichever path is named.
//!
//! What the reading grammar allows but the writing grammar does not is
//! forgiven and reported as a [`MoveWarning`]: `-` for a capture, `x` for a
//! step, the other capture separator, no separator (`a3b4`, `3228`), leading
//! zeros (`06-11`, PDN 2.0), spaces inside the move (`1- 6`), squares in the
//! other notation, and intermediate squares other than the standard ones.
//!
//! Writing gives the shortest PDN 3.0 text: `from-to` for a step,
//! `from x to` with the game's capture separator for a capture, and the full
//! path only when the ends are ambiguous.
//!
//! ```
//! use pdn::{Position, Variant};
//! use pdn::MoveWarning;
//!
//! let mut pos = Position::from_fen_str(Variant::International, "W:W33:B28,18")?;
//! let (m, warnings) = pos.parse_move("33-13")?;
//! assert_eq!(warnings, vec![MoveWarning::DashForCapture]);
//! assert_eq!(pos.move_to_text(&m), "33x13");
//! assert_eq!(pos.move_to_text_full(&m), "33x22x13");
//!
//! let russian = Position::new(pdn::Variant::Russian);
//! let (m, _) = russian.parse_move("c3-d4")?;
//! assert_eq!(russian.move_to_text(&m), "c3-d4");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::movetext_errors::{MoveError, MoveWarning};
use std::fmt::Write as _;

use crate::forgiven::{Forgiven, Leniency};
use crate::geometry::{Geometry, NotationKind, Square, SquareRef};
use crate::moves::Move;
use crate::position::Position;

/// A separator as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sep {
    /// `-` (or an en/em dash, remembered as the character itself).
    Dash(char),
    /// `x`, `X`, `×` or `:`.
    Capture(char),
    /// Nothing between two algebraic squares.
    None,
}

/// A move as written, before it is matched against a position.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Written<'a> {
    squares: Vec<(SquareRef, &'a str)>,
    seps: Vec<Sep>,
}

/// Reads the shape of a move. A run of digits with no separator (`3228`)
/// comes back as a single number square; the caller splits it.
fn scan(text: &str) -> Option<Written<'_>> {
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut w = Written {
        squares: Vec::new(),
        seps: Vec::new(),
    };
    loop {
        // One square.
        let start = i;
        if i < bytes.len() && bytes[i].is_ascii_alphabetic() && !matches!(bytes[i], b'x' | b'X') {
            i += 1;
        }
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let sq_text = &text[start..i];
        let r = SquareRef::parse(sq_text)?;
        w.squares.push((r, sq_text));
        if i == bytes.len() {
            return Some(w);
        }
        // One separator.
        let rest = &text[i..];
        let c = rest.chars().next()?;
        let sep = match c {
            '-' | '\u{2013}' | '\u{2014}' => Sep::Dash(c),
            'x' | 'X' | ':' | '\u{00d7}' => Sep::Capture(c),
            c if c.is_ascii_alphabetic() && matches!(r, SquareRef::Alpha { .. }) => {
                // `a3b4`: the next square starts right away.
                w.seps.push(Sep::None);
                continue;
            }
            _ => return None,
        };
        i += c.len_utf8();
        w.seps.push(sep);
    }
}

impl Position {
    /// Reads a move and finds it among the legal moves. See the
    /// [module docs](crate::movetext).
    ///
    /// ```
    /// use pdn::{Position, Variant};
    /// use pdn::MoveError;
    ///
    /// let pos = Position::new(Variant::International);
    /// assert!(pos.parse_move("32-28").is_ok());
    /// assert!(matches!(pos.parse_move("32-26"), Err(MoveError::Illegal { .. })));
    /// assert!(matches!(pos.parse_move("28-23"), Err(MoveError::NoPiece { .. })));
    /// ```
    ///
    /// # Errors
    ///
    /// If the text is not a move, names a square that does not exist, or
    /// matches no legal move or several different ones.
    pub fn parse_move(&self, text: &str) -> Result<(Move, Vec<MoveWarning>), MoveError> {
        match self.parse_canonical(text.as_bytes()) {
            Some(m) => Ok((m, Vec::new())),
            None => self.parse_move_general(text),
        }
    }

    /// The fast path of [`Position::parse_move`]: most moves are steps or captures
    /// written as PDN 3.0 writes them, found without listing the legal moves, with
    /// nothing to forgive. `None` when the general reader must decide.
    pub(crate) fn parse_canonical(&self, text: &[u8]) -> Option<Move> {
        match self.canonical_pair(text) {
            Some(pair) => self.read_pair(pair),
            None => self.parse_canonical_path(text),
        }
    }

    /// The step or capture between two squares, given the separator written between them:
    /// [`Position::parse_canonical`] of a move written between two squares only (`32-28`,
    /// `28x17`) once its squares are read.
    pub(crate) fn read_pair(&self, (from, to, sep): (Square, Square, char)) -> Option<Move> {
        let capture_sep = self.game_type().capture_separator();
        if sep == '-' {
            if let Some(m) = self.quiet_step(from, to) {
                return Some(m);
            }
        }
        if sep == capture_sep {
            return self.single_capture(from, to);
        }
        None
    }

    /// Whether a move written as PDN 3.0 writes moves (`32-28`, `28x17`) may be read
    /// here at all, found without listing the legal moves: `false` when no legal move
    /// goes from its first square to its last, which no way of reading the text gets
    /// past. That is when the first square holds no piece of the side to move, or when
    /// no capture is possible and no step goes there. `true` for text of another form.
    /// A cheap test, for readings of a game that are dropped when they cannot read a
    /// move.
    pub(crate) fn may_move_from(&self, text: &[u8]) -> bool {
        let Some((from, to, _)) = self.canonical_pair(text) else {
            return true;
        };
        let own = self
            .piece_at(from)
            .is_some_and(|piece| piece.color == self.turn());
        own && (self.quiet_step(from, to).is_some() || self.must_capture())
    }

    /// [`Position::parse_move`] without its fast path (which found nothing).
    pub(crate) fn parse_move_general(
        &self,
        text: &str,
    ) -> Result<(Move, Vec<MoveWarning>), MoveError> {
        let mut warnings = Vec::new();
        let trimmed = text.trim();
        // Old files align columns with spaces inside moves (`1- 6`).
        let compact: String;
        let text = if trimmed.contains(char::is_whitespace) {
            warnings.push(MoveWarning::Spaces);
            compact = trimmed.chars().filter(|c| !c.is_whitespace()).collect();
            compact.as_str()
        } else {
            trimmed
        };
        if text.is_empty() {
            return Err(MoveError::Empty);
        }
        let written = scan(text).ok_or_else(|| MoveError::Syntax(text.to_owned()))?;
        let legal = self.legal_moves();

        if written.squares.len() == 1 {
            return self.parse_unseparated(text, &written, &legal, warnings);
        }

        let geometry = self.geometry();
        let mut squares = Vec::with_capacity(written.squares.len());
        for &(r, sq_text) in &written.squares {
            note_square(geometry, r, sq_text, &mut warnings);
            let sq = geometry.resolve(r).map_err(|source| MoveError::Square {
                text: sq_text.to_owned(),
                source,
            })?;
            squares.push(sq);
        }
        let (Some(&from), Some(&to)) = (squares.first(), squares.last()) else {
            return Err(MoveError::Syntax(text.to_owned()));
        };
        let middle = &squares[1..squares.len() - 1];

        let ends: Vec<&Move> = legal
            .iter()
            .filter(|m| m.from() == from && m.to() == to)
            .collect();
        let mut candidates: Vec<&Move> = ends
            .iter()
            .copied()
            .filter(|m| is_subsequence(middle, &m.path()[..m.path().len() - 1]))
            .collect();
        if candidates.is_empty() && !middle.is_empty() {
            candidates = ends
                .iter()
                .copied()
                .filter(|m| is_subsequence(middle, &trajectory(geometry, m)))
                .collect();
            if !candidates.is_empty() {
                warnings.push(MoveWarning::NonstandardPath);
            }
        }
        if candidates.len() > 1 {
            // A full path names its capture even where a longer capture passes through
            // the same squares (free choice of capture: Russian `c5:e3:g5` against
            // `c5:a3:c1:e3:g5`); so do two squares a capture of one leg (`g3:c7`, which
            // the writer writes so, against `g3:j6:h8:e5:c7`).
            let exact: Vec<&Move> = candidates
                .iter()
                .copied()
                .filter(|m| m.path() == &squares[1..])
                .collect();
            if !exact.is_empty() {
                candidates = exact;
            }
        }
        let chosen = self.choose(text, &candidates, from, to, &legal, &written.squares)?;
        self.note_separators(&written.seps, chosen, &mut warnings);
        Ok((chosen.clone(), warnings))
    }

    /// The squares of a move written as two squares exactly as PDN 3.0 writes them in
    /// this game's notation (`32-28`, `c3:e5`: no leading zero, lower case), and the
    /// separator between them (`-`, `x` or `:`).
    pub(crate) fn canonical_pair(&self, text: &[u8]) -> Option<(Square, Square, char)> {
        // A byte scan: a char-set search costs more than the rest of this fast path.
        let at = text.iter().position(|b| matches!(b, b'-' | b'x' | b':'))?;
        let (a, b) = (&text[..at], &text[at + 1..]);
        let g = self.geometry();
        let from = canonical_square(g, a)?;
        let to = canonical_square(g, b)?;
        Some((from, to, char::from(text[at])))
    }

    /// A capture written with its whole path as PDN 3.0 writes it (`11x18x25`: each
    /// square a piece is taken to, after this game type's capture separator), read
    /// without listing the legal moves when it is the only capture between its ends (or
    /// the one they stand for, as `single_capture` finds it) and takes this path. `None`
    /// when the general reader must decide.
    pub(crate) fn parse_canonical_path(&self, text: &[u8]) -> Option<Move> {
        let separator = u8::try_from(self.game_type().capture_separator()).ok()?;
        let g = self.geometry();
        let mut squares = text.split(|&b| b == separator);
        let from = canonical_square(g, squares.next()?)?;
        // Longer paths than any real capture are left to the general reader.
        let mut path = [from; 24];
        let mut len = 0;
        for square in squares {
            *path.get_mut(len)? = canonical_square(g, square)?;
            len += 1;
        }
        let path = &path[..len];
        if path.len() < 2 {
            return None;
        }
        let to = *path.last()?;
        self.single_capture(from, to).filter(|m| m.path() == path)
    }

    /// `3228`: try every split of the digits into two square numbers.
    fn parse_unseparated(
        &self,
        text: &str,
        written: &Written<'_>,
        legal: &[Move],
        mut warnings: Vec<MoveWarning>,
    ) -> Result<(Move, Vec<MoveWarning>), MoveError> {
        let geometry = self.geometry();
        let digits = match written.squares.first() {
            Some((SquareRef::Number { .. }, t)) if t.len() >= 2 => *t,
            _ => return Err(MoveError::Syntax(text.to_owned())),
        };
        let mut found: Vec<&Move> = Vec::new();
        for k in 1..digits.len() {
            let (a, b) = digits.split_at(k);
            if b.starts_with('0') {
                continue;
            }
            let (Ok(a), Ok(b)) = (geometry.parse_square(a), geometry.parse_square(b)) else {
                continue;
            };
            found.extend(legal.iter().filter(|m| m.from() == a && m.to() == b));
        }
        if found.is_empty() {
            return Err(MoveError::Syntax(text.to_owned()));
        }
        if found.iter().any(|m| !m.same_effect(found[0])) {
            return Err(MoveError::Ambiguous {
                text: text.to_owned(),
                candidates: found.iter().map(|m| self.move_to_text_full(m)).collect(),
            });
        }
        warnings.push(MoveWarning::MissingSeparator);
        if geometry.notation().kind == NotationKind::Alphanumeric {
            warnings.push(MoveWarning::NumericSquare(digits.to_owned()));
        }
        Ok((found[0].clone(), warnings))
    }

    fn choose<'m>(
        &self,
        text: &str,
        candidates: &[&'m Move],
        from: Square,
        to: Square,
        legal: &[Move],
        written: &[(SquareRef, &str)],
    ) -> Result<&'m Move, MoveError> {
        let name = |i: usize| written.get(i).map_or_else(String::new, |w| w.1.to_owned());
        let Some(&first) = candidates.first() else {
            let turn = self.turn();
            if self.piece_at(from).is_none_or(|p| p.color != turn) {
                return Err(MoveError::NoPiece {
                    text: text.to_owned(),
                    color: turn,
                    square: name(0),
                });
            }
            if legal.iter().any(Move::is_capture)
                && !legal.iter().any(|m| m.from() == from && m.to() == to)
            {
                return Err(MoveError::CaptureRequired {
                    text: text.to_owned(),
                });
            }
            return Err(MoveError::Illegal {
                text: text.to_owned(),
                from: name(0),
                to: name(written.len().saturating_sub(1)),
            });
        };
        if candidates.iter().any(|m| !m.same_effect(first)) {
            return Err(MoveError::Ambiguous {
                text: text.to_owned(),
                candidates: candidates
                    .iter()
                    .map(|m| self.move_to_text_full(m))
                    .collect(),
            });
        }
        Ok(first)
    }

    fn note_separators(&self, seps: &[Sep], m: &Move, warnings: &mut Vec<MoveWarning>) {
        let expected = self.game_type().capture_separator();
        let mut noted = |w: MoveWarning| {
            if !warnings.contains(&w) {
                warnings.push(w);
            }
        };
        for &sep in seps {
            match sep {
                Sep::None => noted(MoveWarning::MissingSeparator),
                Sep::Dash(c) => {
                    if m.is_capture() && expected != '-' {
                        noted(MoveWarning::DashForCapture);
                    } else if c != '-' {
                        noted(MoveWarning::Separator {
                            found: c,
                            expected: '-',
                        });
                    }
                }
                Sep::Capture(c) => {
                    if !m.is_capture() {
                        noted(MoveWarning::CaptureSeparatorForStep(c));
                    } else if c != expected {
                        noted(MoveWarning::Separator { found: c, expected });
                    }
                }
            }
        }
    }

    /// The shortest PDN 3.0 text of a legal move: `from-to`, `from x to`, or
    /// the full capture path if another legal capture has the same ends but
    /// takes other pieces.
    pub fn move_to_text(&self, m: &Move) -> String {
        let ambiguous = m.is_capture()
            && self
                .legal_moves()
                .iter()
                .any(|o| o.from() == m.from() && o.to() == m.to() && !o.same_effect(m));
        if ambiguous {
            self.move_to_text_full(m)
        } else {
            let g = self.geometry();
            let sep = if m.is_capture() {
                self.game_type().capture_separator()
            } else {
                '-'
            };
            format!("{}{}{}", g.name(m.from()), sep, g.name(m.to()))
        }
    }

    /// The text of a move with its full path (`47x38x24x13x36`); steps are
    /// written `from-to`.
    pub fn move_to_text_full(&self, m: &Move) -> String {
        let g = self.geometry();
        let sep = if m.is_capture() {
            self.game_type().capture_separator()
        } else {
            '-'
        };
        let mut s = g.name(m.from()).to_string();
        for &sq in m.path() {
            s.push(sep);
            let _ = write!(s, "{}", g.name(sq));
        }
        s
    }
}

fn note_square(geometry: &Geometry, r: SquareRef, text: &str, warnings: &mut Vec<MoveWarning>) {
    let alpha_game = geometry.notation().kind == NotationKind::Alphanumeric;
    match r {
        SquareRef::Number { leading_zero, .. } => {
            if leading_zero {
                warnings.push(MoveWarning::LeadingZero(text.to_owned()));
            }
            if alpha_game {
                warnings.push(MoveWarning::NumericSquare(text.to_owned()));
            }
        }
        SquareRef::Alpha { upper_case, .. } => {
            if upper_case {
                warnings.push(MoveWarning::UpperCaseSquare(text.to_owned()));
            }
            if !alpha_game {
                warnings.push(MoveWarning::AlphaSquare(text.to_owned()));
            }
        }
    }
}

/// Whether `needle` occurs in `hay` in order (not necessarily adjacent).
fn is_subsequence(needle: &[Square], hay: &[Square]) -> bool {
    let mut it = hay.iter();
    needle.iter().all(|n| it.any(|h| h == n))
}

/// Every square a capture touches after its start, in order: the squares
/// flown over, the pieces jumped and the landing squares.
fn trajectory(geometry: &Geometry, m: &Move) -> Vec<Square> {
    let mut out = Vec::new();
    let mut at = m.from();
    for &next in m.path() {
        out.extend(geometry.between(at, next));
        out.push(next);
        at = next;
    }
    out
}

/// A square written as PDN 3.0 writes it in this board's notation: `32` or `c3`, no
/// leading zero, lower case.
fn canonical_square(g: &Geometry, bytes: &[u8]) -> Option<Square> {
    if g.notation().kind == NotationKind::Alphanumeric {
        match *bytes {
            [file @ b'a'..=b'z', ref rank @ ..] if rank.len() <= 2 => {
                let rank = u8::try_from(canonical_number(rank)?).ok()?;
                g.square_by_alpha(file - b'a', rank - 1)
            }
            _ => None,
        }
    } else {
        g.square_by_number(canonical_number(bytes)?)
    }
}

/// A number of one to three digits written as PDN 3.0 writes square numbers and ranks:
/// no leading zero (and so not 0).
fn canonical_number(bytes: &[u8]) -> Option<u32> {
    let digit = |b: u8| b.is_ascii_digit().then(|| u32::from(b - b'0'));
    match *bytes {
        [a @ b'1'..=b'9'] => Some(u32::from(a - b'0')),
        [a @ b'1'..=b'9', b] => Some(u32::from(a - b'0') * 10 + digit(b)?),
        [a @ b'1'..=b'9', b, c] => Some(u32::from(a - b'0') * 100 + digit(b)? * 10 + digit(c)?),
        _ => None,
    }
}

/// A move read in a position ([`Position::resolve_move`]): the legal move, what its text
/// forgave, and the position after it.
#[derive(Debug, Clone)]
pub struct Resolved {
    /// The move.
    pub mv: Move,
    /// Everything the text got wrong about the move's PDN 3.0 form.
    pub forgiven: Forgiven,
    /// The position after the move.
    pub after: Position,
}

impl Position {
    /// Reads a move's text and plays it: the legal move it names, what was forgiven (each
    /// a [`Leniency::Move`]) and the position after it, as `pgn`'s `Position::resolve_san`
    /// reads a chess move. [`Position::parse_move`] reads without playing.
    ///
    /// ```
    /// use pdn::{Position, Variant};
    ///
    /// let pos = Position::new(Variant::International);
    /// let read = pos.resolve_move("32 - 28")?;
    /// assert_eq!(read.forgiven.to_string(), "spaces inside the move were ignored");
    /// assert_eq!(read.after.to_fen(), "B:W28,31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20");
    /// assert!(read.after.resolve_move("19-23")?.forgiven.is_empty());
    /// # Ok::<(), pdn::MoveError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Position::parse_move`].
    pub fn resolve_move(&self, text: &str) -> Result<Resolved, MoveError> {
        let (mv, warnings) = self.parse_move(text)?;
        let mut after = self.clone();
        after.play_unchecked(&mv);
        Ok(Resolved {
            forgiven: Forgiven(warnings.into_iter().map(Leniency::Move).collect()),
            mv,
            after,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{GameType, Variant};

    fn pos(v: Variant, fen: &str) -> Position {
        Position::from_fen_str(v, fen).expect(fen)
    }

    /// Positions of every variant along walks of legal moves, `plies` long, each taking
    /// move `ply × stride` (modulo their number) of the legal moves: walks of several
    /// strides pass through captures of every kind.
    fn walk(strides: &[usize], plies: usize, mut visit: impl FnMut(Variant, &Position)) {
        for variant in Variant::ALL {
            for &stride in strides {
                let mut position = Position::new(variant);
                for ply in 0..plies {
                    visit(variant, &position);
                    let moves = position.legal_moves();
                    let Some(mv) = moves.get((ply * stride) % moves.len().max(1)) else {
                        break;
                    };
                    position.play_unchecked(&mv.clone());
                }
            }
        }
    }

    /// Every move written between two squares of a position's board, as a step and as
    /// a capture, as PDN 3.0 writes moves.
    fn pair_texts(position: &Position) -> Vec<String> {
        let g = position.geometry();
        let sep = position.game_type().capture_separator();
        let mut texts = Vec::new();
        for a in g.squares() {
            for b in g.squares() {
                for s in ['-', sep] {
                    texts.push(format!("{}{s}{}", g.name(a), g.name(b)));
                }
            }
        }
        texts
    }

    /// `may_move_from` says no only to text that no way of reading gets past: in
    /// positions of every variant, every move written between two squares it refuses,
    /// as a step or a capture, is refused by the full reader.
    #[test]
    fn may_move_from_is_sound() {
        let mut refused = 0;
        walk(&[7], 40, |variant, position| {
            for text in pair_texts(position) {
                if !position.may_move_from(text.as_bytes()) {
                    refused += 1;
                    assert!(position.parse_move(&text).is_err(), "{variant}: {text}");
                }
            }
        });
        assert!(refused > 100_000, "{refused}");
    }

    /// The fast path of reading a move (`parse_canonical`: the squares straight from the
    /// bytes, a step or a single capture found without listing the legal moves) reads
    /// what the full reader reads without a warning, and reads every legal move written
    /// between two squares the way the writer writes it, and every capture's whole path.
    #[test]
    fn the_fast_path_reads_as_the_full_reader() {
        let (mut read, mut captures, mut paths) = (0, 0, 0);
        walk(&[7, 3, 5], 60, |variant, position| {
            for text in pair_texts(position) {
                let Some(fast) = position.parse_canonical(text.as_bytes()) else {
                    continue;
                };
                read += 1;
                captures += usize::from(fast.is_capture());
                let full = position.parse_move_general(&text);
                assert_eq!(full, Ok((fast, Vec::new())), "{variant}: {text}");
            }
            let moves = position.legal_moves();
            for mv in &moves {
                let text = position.move_to_text(mv);
                // Moves that share their ends with another (Frisian counts each path of
                // a capture) are left to the full reader.
                let alone = moves
                    .iter()
                    .filter(|o| o.from() == mv.from() && o.to() == mv.to())
                    .count()
                    == 1;
                if alone && text.matches(['-', 'x', ':']).count() == 1 {
                    let fast = position.parse_canonical(text.as_bytes());
                    assert_eq!(fast.as_ref(), Some(mv), "{variant}: {text}");
                }
                // The whole path of a capture: read as the full reader reads it, and read
                // at all when the capture is alone between its ends.
                if mv.is_capture() {
                    let full_path = position.move_to_text_full(mv);
                    let fast = position.parse_canonical(full_path.as_bytes());
                    if let Some(fast) = &fast {
                        paths += 1;
                        let full = position.parse_move_general(&full_path);
                        assert_eq!(full, Ok((fast.clone(), Vec::new())), "{full_path}");
                    }
                    if alone {
                        assert_eq!(fast.as_ref(), Some(mv), "{variant}: {full_path}");
                    }
                }
            }
        });
        assert!(
            read > 10_000 && captures > 500,
            "{read} read, {captures} captures"
        );
        assert!(paths > 500, "{paths} whole paths read");
    }

    #[test]
    fn steps_and_warnings() {
        let p = Position::new(Variant::International);
        let (m, w) = p.parse_move("32-28").expect("legal");
        assert!(w.is_empty());
        assert_eq!(p.move_to_text(&m), "32-28");
        let (m2, w) = p.parse_move("32x28").expect("forgiven");
        assert_eq!(m, m2);
        assert_eq!(w, vec![MoveWarning::CaptureSeparatorForStep('x')]);
        let (_, w) = p.parse_move("3228").expect("no separator");
        assert_eq!(w, vec![MoveWarning::MissingSeparator]);
        let (_, w) = p.parse_move("32\u{2013}28").expect("en dash");
        assert_eq!(
            w,
            vec![MoveWarning::Separator {
                found: '\u{2013}',
                expected: '-'
            }]
        );
        let (_, w) = p.parse_move("d4-e5").expect("alpha in numeric");
        assert_eq!(w.len(), 2);
        let (m3, w) = p.parse_move("32- 28").expect("spaces");
        assert_eq!(m3, m);
        assert_eq!(w, vec![MoveWarning::Spaces]);
        assert_eq!(p.parse_move("  "), Err(MoveError::Empty));
    }

    #[test]
    fn leading_zero_pdn2() {
        let p = Position::new(Variant::English);
        let (m, w) = p.parse_move("09-13").expect("legal");
        assert_eq!(w, vec![MoveWarning::LeadingZero("09".into())]);
        assert_eq!(p.move_to_text(&m), "9-13");
    }

    #[test]
    fn errors() {
        let p = Position::new(Variant::International);
        assert_eq!(p.parse_move(""), Err(MoveError::Empty));
        assert!(matches!(p.parse_move("32"), Err(MoveError::Syntax(_))));
        assert!(matches!(p.parse_move("32--28"), Err(MoveError::Syntax(_))));
        assert!(matches!(p.parse_move("32-28!"), Err(MoveError::Syntax(_))));
        assert!(matches!(
            p.parse_move("32-99"),
            Err(MoveError::Square { .. })
        ));
        assert!(matches!(
            p.parse_move("19-23"),
            Err(MoveError::NoPiece { .. })
        ));
        let p = pos(Variant::International, "W:W33,40:B28");
        assert!(matches!(
            p.parse_move("40-34"),
            Err(MoveError::CaptureRequired { .. })
        ));
        let msg = p.parse_move("40-34").expect_err("capture").to_string();
        assert!(msg.contains("compulsory"), "{msg}");
    }

    #[test]
    fn captures_and_separators() {
        let p = pos(Variant::International, "W:W33:B28,18");
        let (m, w) = p.parse_move("33x13").expect("capture");
        assert!(w.is_empty());
        assert_eq!(m.captured().len(), 2);
        let (_, w) = p.parse_move("33x22x13").expect("full path");
        assert!(w.is_empty());
        let (_, w) = p.parse_move("33:13").expect("colon");
        assert_eq!(
            w,
            vec![MoveWarning::Separator {
                found: ':',
                expected: 'x'
            }]
        );
        assert!(matches!(
            p.parse_move("33x24x13"),
            Err(MoveError::Illegal { .. })
        ));
        // Naming the captured piece's square is not PDN 3.0 but reads.
        let (_, w) = p.parse_move("33x28x13").expect("trajectory");
        assert_eq!(w, vec![MoveWarning::NonstandardPath]);

        let r = pos(Variant::Russian, "W:Wc3:Bd4,f6");
        let (m, w) = r.parse_move("c3:g7").expect("capture");
        assert!(w.is_empty());
        assert_eq!(r.move_to_text(&m), "c3:g7");
        assert_eq!(r.move_to_text_full(&m), "c3:e5:g7");
        let (_, w) = r.parse_move("c3xg7").expect("x in russian");
        assert_eq!(
            w,
            vec![MoveWarning::Separator {
                found: 'x',
                expected: ':'
            }]
        );
        let (_, w) = r.parse_move("c3g7").expect("no separator");
        assert_eq!(w, vec![MoveWarning::MissingSeparator]);
    }

    #[test]
    fn ambiguous_captures() {
        // A white king on 47 can take 42 and then either 33/24... the
        // classic PDN 3.0 diagram: two routes from 47 to 36 taking different
        // pieces.
        let p = pos(Variant::International, "W:WK47:B42,33,19,18,31");
        let ends: Vec<Move> = p
            .legal_moves()
            .into_iter()
            .filter(|m| p.geometry().number(m.to()) == 36)
            .collect();
        if ends.len() >= 2 && ends.iter().any(|m| !m.same_effect(&ends[0])) {
            assert!(matches!(
                p.parse_move("47x36"),
                Err(MoveError::Ambiguous { .. })
            ));
            for m in &ends {
                let full = p.move_to_text_full(m);
                assert_eq!(p.move_to_text(m), full);
                let (back, w) = p.parse_move(&full).expect("full path resolves");
                assert!(back.same_effect(m));
                assert!(w.is_empty());
            }
        }
    }

    /// Under free choice a king may take one piece from g3 to c7, or four on a longer
    /// way to the same square: the writer writes the longer one with its path and the
    /// shorter one as its two squares, which is its whole path, and both read back (a
    /// Spantsiretti game of the property tests did not).
    #[test]
    fn a_capture_of_one_leg_is_named_by_its_two_squares() {
        let p = pos(
            Variant::Spantsiretti,
            "W:Wa1,c1,e1,g1,b2,j2,a3,c3,i3,b4,Kg3:Ba5,i5,d6,h6,a7,g7,i7",
        );
        let to_c7: Vec<Move> = p
            .legal_moves()
            .into_iter()
            .filter(|m| p.geometry().name(m.from()).to_string() == "g3")
            .filter(|m| p.geometry().name(m.to()).to_string() == "c7")
            .collect();
        let texts: Vec<String> = to_c7.iter().map(|m| p.move_to_text(m)).collect();
        assert_eq!(texts, ["g3:j6:h8:e5:c7", "g3:c7"]);
        for (m, text) in to_c7.iter().zip(&texts) {
            let (back, warnings) = p.parse_move(text).expect(text);
            assert!(back.same_effect(m), "{text}");
            assert!(warnings.is_empty(), "{text}");
        }
        // Named by part of its path, the longer one reads as itself.
        let (read, _) = p.parse_move("g3:e5:c7").expect("a path through e5");
        assert_eq!(p.move_to_text(&read), "g3:j6:h8:e5:c7");
    }

    #[test]
    fn thai_dash_captures() {
        let gt = GameType::new(Variant::Thai);
        let p = Position::start(gt);
        for m in p.legal_moves() {
            let t = p.move_to_text(&m);
            assert_eq!(p.parse_move(&t).map(|(x, _)| x), Ok(m));
        }
    }
}
