//! A game's tag section: its tokens in each state of a tag pair, a tag pair handed to
//! the visitor (its name's case corrected, the Result tag read), and the fast path for
//! tag pairs written the plain way.

use std::io::Read;

use super::game::{Ending, GameRead, State, Step};
use super::token::Kind;
use crate::diagnostic::DiagnosticKind;
use crate::lexer::{Gap, is_name_byte, unescape};
use crate::outcome::GameResult;
use crate::visitor::{RawValue, Visitor};

impl<R: Read, V: Visitor> GameRead<'_, R, V> {
    /// Reads a token in the tag section, expecting `[`; `None` when the token begins the
    /// movetext, and is to be read there.
    pub(super) fn in_tags(&mut self, kind: Kind, start: u64, end: u64, gap: &Gap) -> Option<Step> {
        match kind {
            Kind::TagOpen => {
                if gap.blank_line && !self.reader.tag_names.is_empty() {
                    // Either a blank line inside the tag section or a new game after a
                    // game with no movetext: a repeated tag name tells.
                    let buffer = &mut self.reader.buffer;
                    let name = buffer.peek_tag_name(buffer.index(end));
                    let reader = &self.reader;
                    let repeated = match name {
                        Some(name) => reader
                            .tag_names
                            .iter()
                            .any(|&n| reader.buffer.slice(n) == name),
                        None => false,
                    };
                    if repeated {
                        return Some(Step::End(Ending::Unmarked));
                    }
                    self.emit(DiagnosticKind::BlankLineInTags, start);
                }
                self.state = State::TagName { open: start };
                Some(Step::Taken)
            }
            Kind::Escape => Some(Step::Taken),
            _ => {
                // The movetext begins.
                if !gap.blank_line
                    && !self.reader.tag_names.is_empty()
                    && self.reader.dialect.strict_layout
                {
                    self.emit(DiagnosticKind::NoBlankLineBeforeMovetext, start);
                }
                self.begin_movetext();
                None
            }
        }
    }

    /// Reads a token after `[`, expecting a tag name.
    pub(super) fn tag_name(&mut self, open: u64, kind: Kind, start: u64, end: u64) -> Step {
        match kind {
            Kind::Symbol => {
                self.state = State::TagValue {
                    open,
                    name: (start, end),
                };
                Step::Taken
            }
            Kind::String { .. } => {
                self.emit(DiagnosticKind::MissingTagName, start);
                self.state = State::TagClose {
                    open,
                    name: (start, start),
                    value: (start, end),
                };
                Step::Taken
            }
            Kind::TagClose => {
                self.emit(DiagnosticKind::MissingTagName, open);
                self.state = State::Tags;
                Step::Taken
            }
            _ => {
                self.emit(DiagnosticKind::MissingTagName, open);
                self.state = State::Tags;
                Step::Again
            }
        }
    }

    /// Reads a token after a tag name, expecting its value.
    pub(super) fn tag_value(
        &mut self,
        open: u64,
        name: (u64, u64),
        kind: Kind,
        start: u64,
        end: u64,
    ) -> Step {
        match kind {
            Kind::String { unterminated: true } => {
                self.emit(DiagnosticKind::UnterminatedString, start);
                // `[White "Foo]`: the bracket is in the string.
                let body = self.reader.buffer.slice((start + 1, end));
                if body.last() == Some(&b']') {
                    self.deliver_tag(open, name, (start + 1, end - 1));
                    self.state = State::Tags;
                    return Step::Taken;
                }
                self.state = State::TagClose {
                    open,
                    name,
                    value: (start + 1, end),
                };
            }
            Kind::String {
                unterminated: false,
            } => {
                self.state = State::TagClose {
                    open,
                    name,
                    value: (start + 1, end - 1),
                };
            }
            Kind::Symbol => {
                let text = self.name_text(name);
                self.emit(DiagnosticKind::UnquotedTagValue { name: text }, start);
                self.state = State::TagClose {
                    open,
                    name,
                    value: (start, end),
                };
            }
            _ => {
                let name = self.name_text(name);
                self.emit(DiagnosticKind::MissingTagValue { name }, start);
                self.state = State::Tags;
                if kind != Kind::TagClose {
                    return Step::Again;
                }
            }
        }
        Step::Taken
    }

    /// Reads a token after a tag's value, expecting `]`.
    pub(super) fn tag_close(
        &mut self,
        open: u64,
        name: (u64, u64),
        value: (u64, u64),
        kind: Kind,
    ) -> Step {
        let closed = kind == Kind::TagClose;
        self.end_tag(open, name, value, closed);
        if closed { Step::Taken } else { Step::Again }
    }

    /// Ends a tag pair read up to its value, closed by `]` or not, and hands it to the
    /// visitor.
    pub(super) fn end_tag(&mut self, open: u64, name: (u64, u64), value: (u64, u64), closed: bool) {
        if !closed {
            let name = self.name_text(name);
            self.emit(DiagnosticKind::UnclosedTag { name }, open);
        }
        self.deliver_tag(open, name, value);
        self.state = State::Tags;
    }

    /// A tag's name as written, for a diagnostic.
    fn name_text(&self, name: (u64, u64)) -> String {
        String::from_utf8_lossy(self.reader.buffer.slice(name)).into_owned()
    }

    /// Hands a tag pair to the visitor (the stream offsets of its `[`, of its name and
    /// of its value).
    fn deliver_tag(&mut self, open: u64, name: (u64, u64), value: (u64, u64)) {
        self.deliver_tag_plain(open, name, value, false);
    }

    /// [`GameRead::deliver_tag`]; `plain` tells that the name is known to be of letters,
    /// digits and `_` only, so that the odd-name check can be left out.
    #[inline]
    fn deliver_tag_plain(&mut self, open: u64, name: (u64, u64), value: (u64, u64), plain: bool) {
        let name_bytes = self.reader.buffer.slice(name);
        if name_bytes.is_empty() {
            return;
        }
        if !plain
            && !name_bytes
                .iter()
                .all(|b| b.is_ascii_alphanumeric() || *b == b'_')
        {
            let d = self.diagnostic(
                DiagnosticKind::OddTagName {
                    name: String::from_utf8_lossy(name_bytes).into_owned(),
                },
                name.0,
            );
            self.visitor.diagnostic(d);
        }
        // A known name written with another case is corrected, unless the name is also
        // known as written: one pass over the names of the same length tells both.
        let mut canonical = None;
        let known_tags = &self.reader.known_tags;
        let names = if known_tags.written_as_known(name_bytes) {
            // Known as written (the common case): nothing to correct.
            &[][..]
        } else {
            known_tags.of_len(name_bytes.len())
        };
        for &k in names {
            if k == name_bytes {
                canonical = None;
                break;
            }
            if canonical.is_none() && k.eq_ignore_ascii_case(name_bytes) {
                canonical = Some(k);
            }
        }
        if let Some(c) = canonical {
            let d = self.diagnostic(
                DiagnosticKind::TagNameCase {
                    found: String::from_utf8_lossy(name_bytes).into_owned(),
                    canonical: String::from_utf8_lossy(c).into_owned(),
                },
                name.0,
            );
            self.visitor.diagnostic(d);
        }
        self.reader.tag_names.push(name);
        self.announce();
        let is_result = match canonical {
            Some(c) => c == b"Result",
            None => self.reader.buffer.slice(name) == b"Result",
        };
        if is_result {
            self.result_tag = self.read_result_tag(value);
        }
        self.tell(open, value.1, |visitor, at, buffer| {
            let name_final: &[u8] = match canonical {
                Some(c) => c,
                None => buffer.slice(name),
            };
            visitor.tag(name_final, RawValue(buffer.slice(value)), at)
        });
    }

    /// Reads the value of a game's Result tag (its stream span), noting a value in a form
    /// the standard does not have that is read as a result (`1:0`, `-`).
    #[inline(always)]
    fn read_result_tag(&mut self, value: (u64, u64)) -> Option<GameResult> {
        let (result, lenient) = {
            let unescaped = unescape(self.reader.buffer.slice(value));
            self.reader.dialect.read_result(unescaped.trim_ascii())?
        };
        if lenient {
            self.note_lenient_result_tag(value, result);
        }
        Some(result)
    }

    #[cold]
    fn note_lenient_result_tag(&mut self, value: (u64, u64), result: GameResult) {
        let unescaped = unescape(self.reader.buffer.slice(value));
        let written = crate::encoding::decode(unescaped.trim_ascii())
            .0
            .into_owned();
        let kind = DiagnosticKind::BadTagValue {
            name: "Result".to_owned(),
            message: format!("\"{written}\" is not a termination marker; read as {result}"),
        };
        self.emit(kind, value.0);
    }

    /// Reads complete tag pairs written the plain way (`[Name "value"]`, the name of
    /// letters, digits and `_`, the value with no escape, single line ends between pairs)
    /// straight from the buffer. Stops before anything else, for the general path.
    pub(super) fn tags_fast(&mut self) {
        loop {
            let buffer = &self.reader.buffer;
            let buf = &buffer.buf[..buffer.filled];
            let len = buf.len();
            let mut pos = buffer.pos;
            // A blank line is for the general path: a new game may begin there.
            let mut newline = false;
            let open = loop {
                match buf.get(pos) {
                    Some(b' ' | 0x0b | 0x0c) => pos += 1,
                    Some(b'\n') if !newline => {
                        newline = true;
                        pos += 1;
                    }
                    Some(b'\r') if buf.get(pos + 1) == Some(&b'\n') => pos += 1,
                    Some(b'\t') if self.reader.notes.tab => pos += 1,
                    Some(b'[') => break pos,
                    _ => return,
                }
            };
            // The name follows the bracket; a digit first would make a move number.
            let name_start = open + 1;
            let mut p = name_start;
            while p < len && is_name_byte(buf[p]) {
                p += 1;
            }
            let name_end = p;
            if name_end == name_start || buf[name_start].is_ascii_digit() {
                return;
            }
            while p < len && buf[p] == b' ' {
                p += 1;
            }
            if p == name_end || p >= len || buf[p] != b'"' {
                return;
            }
            let value_start = p + 1;
            let value_end = match memchr::memchr3(b'"', b'\\', b'\n', &buf[value_start..]) {
                Some(i) if buf[value_start + i] == b'"' => value_start + i,
                _ => return,
            };
            p = value_end + 1;
            while p < len && buf[p] == b' ' {
                p += 1;
            }
            if p >= len || buf[p] != b']' {
                return;
            }
            let end = p + 1;
            let base = buffer.base;
            let off = |i: usize| base + i as u64;
            let name = (off(name_start), off(name_end));
            let value = (off(value_start), off(value_end));
            if self
                .reader
                .known_tags
                .written_as_known(&buf[name_start..name_end])
            {
                // What `deliver_tag` does for a plain, known name, with buffer indices.
                let is_result = &buf[name_start..name_end] == b"Result";
                self.reader.tag_names.push(name);
                self.announce();
                if is_result {
                    self.result_tag = self.read_result_tag(value);
                }
                self.tell(off(open), off(value_end), |visitor, at, buffer| {
                    let name = &buffer.buf[name_start..name_end];
                    visitor.tag(name, RawValue(&buffer.buf[value_start..value_end]), at)
                });
            } else {
                self.deliver_tag_plain(off(open), name, value, true);
            }
            self.reader.buffer.pos = end;
            self.last_end = off(end);
        }
    }
}
