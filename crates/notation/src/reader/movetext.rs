//! A game's movetext, a token at a time: moves, move numbers, glyphs, comments,
//! variations, set-ups, and the termination marker that ends the game; and every token
//! that has no place there, noted.

use std::io::{self, Read};
use std::ops::ControlFlow;

use super::game::{Ending, GameRead, PendingNumber, Step};
use super::token::{Kind, digits_value, evaluation_symbol};
use crate::diagnostic::DiagnosticKind;
use crate::encoding::decode;
use crate::nag::Nag;
use crate::outcome::GameResult;
use crate::visitor::{Skip, Visitor};

impl<R: Read, V: Visitor> GameRead<'_, R, V> {
    /// Reads a token of the movetext.
    pub(super) fn movetext(&mut self, kind: Kind, start: u64, end: u64) -> io::Result<Step> {
        match kind {
            // The next game begins; this one had no marker.
            Kind::TagOpen => return Ok(Step::End(Ending::Unmarked)),
            Kind::Symbol => return self.symbol(start, end),
            Kind::MoveNumber { number, periods } => {
                self.any_movetext = true;
                self.tell(start, end, |visitor, at, _| {
                    visitor.move_number(number, periods >= 3, at)
                });
            }
            Kind::Periods(n) => {
                if let Some(pending) = self.pending_number.take() {
                    self.tell(pending.start, end, |visitor, at, _| {
                        visitor.move_number(pending.number, n >= 3, at)
                    });
                }
            }
            Kind::Nag(n) => self.glyph(n, start, end),
            Kind::Suffix => self.suffix(start, end),
            Kind::Comment { .. } | Kind::LineComment => self.comment(kind, start, end),
            Kind::Escape => self.emit(DiagnosticKind::EscapeInGame, start),
            Kind::VariationOpen => self.open_variation(start, end),
            Kind::VariationClose => self.close_variation(start, end),
            Kind::Asterisk => return Ok(self.asterisk(start, end)),
            Kind::Reserved(c) => self.emit(DiagnosticKind::ReservedToken(char::from(c)), start),
            Kind::Setup { unterminated } => {
                self.any_movetext = true;
                if unterminated {
                    self.emit(DiagnosticKind::UnterminatedSetup, start);
                }
                let text = kind.content(start, end);
                self.tell(start, end, |visitor, at, buffer| {
                    visitor.setup(buffer.slice(text), at)
                });
            }
            Kind::TagClose => {
                let kind = DiagnosticKind::UnexpectedToken("]".to_owned());
                self.emit(kind, start);
            }
            Kind::String { .. } => {
                let kind = DiagnosticKind::UnexpectedToken("string in the movetext".to_owned());
                self.emit(kind, start);
            }
            Kind::Unexpected(byte) => {
                if !self.noted_unexpected {
                    self.noted_unexpected = true;
                    self.emit(DiagnosticKind::UnexpectedByte { byte }, start);
                }
            }
        }
        Ok(Step::Taken)
    }

    /// Reads a symbol: a termination marker, a move number without its period, an
    /// evaluation symbol written for its glyph, or a move.
    fn symbol(&mut self, start: u64, end: u64) -> io::Result<Step> {
        self.any_movetext = true;
        let sym = self.reader.buffer.slice((start, end));
        let mut result = self.reader.dialect.read_result(sym);
        if sym == b"-"
            && result.is_some()
            && (self.depth > 0 || !self.reader.buffer.game_follows(end)?)
        {
            // A lone `-` ends a game only where the next game or the end of the input
            // follows it: elsewhere it is read as a move.
            result = None;
        }
        let sym = self.reader.buffer.slice((start, end));
        match result {
            Some((result, lenient)) if self.depth == 0 => {
                if lenient {
                    let kind = DiagnosticKind::LenientResult {
                        found: decode(sym).0.into_owned(),
                        result: result.to_string(),
                    };
                    self.emit(kind, start);
                }
                return Ok(self.end_with_marker(result, start, end));
            }
            Some((result, _)) => {
                let what = format!("termination marker {result} inside a variation");
                self.emit(DiagnosticKind::UnexpectedToken(what), start);
            }
            None if sym.iter().all(u8::is_ascii_digit)
                && sym.first() != Some(&b'0')
                && !self.reader.dialect.inline_setups =>
            {
                // PGN: a move number with no period (`12 e4`, `12 . e4`).
                self.pending_number = Some(PendingNumber {
                    number: digits_value(sym),
                    start,
                    end,
                });
            }
            None => match evaluation_symbol(sym) {
                Some(nag) => {
                    let what = format!("evaluation symbol {} read as {}", decode(sym).0, nag);
                    self.emit(DiagnosticKind::UnexpectedToken(what), start);
                    self.tell(start, end, |visitor, at, _| visitor.nag(nag, at));
                }
                None => {
                    self.move_end = end;
                    self.tell(start, end, |visitor, at, buffer| {
                        visitor.move_token(buffer.slice((start, end)), at)
                    });
                }
            },
        }
        Ok(Step::Taken)
    }

    /// Ends the game at its termination marker, read as `result`.
    fn end_with_marker(&mut self, result: GameResult, start: u64, end: u64) -> Step {
        self.reader.buffer.pos = self.reader.buffer.index(end);
        self.last_end = end;
        let origin = self.reader.buffer.origin(self.game_index());
        let _ = self.visitor.result(result, origin.at(start, end));
        Step::End(Ending::Marker(result))
    }

    /// Reads a numeric annotation glyph (`$n`), noting one the dialect does not have.
    fn glyph(&mut self, n: u64, start: u64, end: u64) {
        self.any_movetext = true;
        let max = self.reader.dialect.max_nag;
        match u16::try_from(n).ok().filter(|&n| n <= max) {
            Some(n) => self.tell(start, end, |visitor, at, _| visitor.nag(Nag(n), at)),
            None => self.emit(DiagnosticKind::NagOutOfRange(n), start),
        }
    }

    /// Reads a suffix annotation (`!`, `?!`, …) as its glyph.
    fn suffix(&mut self, start: u64, end: u64) {
        let written = self.reader.buffer.slice((start, end));
        if let Some(nag) = Nag::from_suffix(written) {
            self.tell(start, end, |visitor, at, _| visitor.nag(nag, at));
            return;
        }
        // `!!!`, `(!?!!!)`: draughts strengths with no glyph of their own.
        let found = String::from_utf8_lossy(written).into_owned();
        match Nag::from_move_strength(written) {
            Some(nag) => {
                let kind = DiagnosticKind::UnusualAnnotation {
                    found,
                    read_as: nag,
                };
                self.emit(kind, start);
                self.tell(start, end, |visitor, at, _| visitor.nag(nag, at));
            }
            None => {
                let kind = DiagnosticKind::UnexpectedToken(format!("annotation {found}"));
                self.emit(kind, start);
            }
        }
    }

    /// Reads a brace or `;` comment.
    fn comment(&mut self, kind: Kind, start: u64, end: u64) {
        self.any_movetext = true;
        if let Kind::Comment { unterminated: true } = kind {
            self.emit(DiagnosticKind::UnterminatedComment, start);
        }
        let text = kind.content(start, end);
        self.tell(start, end, |visitor, at, buffer| {
            visitor.comment(buffer.slice(text), at)
        });
    }

    /// A variation opens; the visitor may skip it.
    fn open_variation(&mut self, start: u64, end: u64) {
        self.any_movetext = true;
        self.depth += 1;
        if self.listening() {
            let origin = self.reader.buffer.origin(self.game_index());
            match self.visitor.begin_variation(origin.at(start, end)) {
                ControlFlow::Continue(Skip(true)) => self.skip_from = Some(self.depth),
                ControlFlow::Continue(Skip(false)) => {}
                ControlFlow::Break(()) => self.broken = true,
            }
        }
    }

    /// The innermost variation closes (the end of one skipped is not told).
    fn close_variation(&mut self, start: u64, end: u64) {
        if self.depth == 0 {
            self.emit(DiagnosticKind::UnmatchedParenthesis, start);
            return;
        }
        if self.skip_from == Some(self.depth) {
            self.skip_from = None;
        } else {
            self.tell(start, end, |visitor, at, _| visitor.end_variation(at));
        }
        self.depth -= 1;
    }

    /// Reads `*`: a forced move's mark glued to its move (where the dialect has one), or
    /// the termination marker of a game whose result is unknown.
    fn asterisk(&mut self, start: u64, end: u64) -> Step {
        if self.reader.dialect.attached_asterisk_is_annotation && self.move_end == start {
            self.tell(start, end, |visitor, at, _| visitor.nag(Nag::FORCED, at));
        } else if self.depth == 0 {
            return self.end_with_marker(GameResult::Unknown, start, end);
        } else {
            let what = "termination marker * inside a variation".to_owned();
            self.emit(DiagnosticKind::UnexpectedToken(what), start);
        }
        Step::Taken
    }
}
