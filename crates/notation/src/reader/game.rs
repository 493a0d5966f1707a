//! Reading one game: [`GameRead`], what the reading of a game holds until it ends, and
//! its loop over the tokens, each handed to the method of the state the game is in
//! (here before the game, in `tags` in its tag section, in `movetext` after it).

use std::io::{self, Read};
use std::ops::ControlFlow;

use super::Reader;
use super::buffer::Buffer;
use super::token::Kind;
use crate::diagnostic::{Diagnostic, DiagnosticKind};
use crate::lexer::{Gap, Lexed, lex_inline};
use crate::outcome::GameResult;
use crate::visitor::{At, Visitor};

/// Where the reader is in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum State {
    /// Between games.
    Before,
    /// In the tag section, expecting `[` or the movetext.
    Tags,
    /// After `[`, expecting a name.
    TagName { open: u64 },
    /// After the name, expecting the value.
    TagValue { open: u64, name: (u64, u64) },
    /// After the value, expecting `]`.
    TagClose {
        open: u64,
        name: (u64, u64),
        value: (u64, u64),
    },
    /// In the movetext.
    Movetext,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ending {
    /// With a termination marker, read as this result.
    Marker(GameResult),
    /// At the start of the next game, or the end of input, with no marker.
    Unmarked,
}

/// What reading a token did, and so where reading goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    /// The token was read, as a part of the game: reading goes on after it.
    Taken,
    /// The token was passed over as no part of a game (an escape line before one):
    /// reading goes on after it.
    Passed,
    /// The token is read again, in the state it left the game in.
    Again,
    /// The game ended: at its marker, after it, or before this token.
    End(Ending),
}

/// A bare integer in the movetext, waiting to see whether periods follow (`12 ...`).
#[derive(Clone, Copy, Debug)]
pub(super) struct PendingNumber {
    pub(super) number: u64,
    pub(super) start: u64,
    pub(super) end: u64,
}

/// A game being read: the reader and the visitor, and what the reading of the game
/// holds until it ends.
pub(super) struct GameRead<'a, R, V> {
    pub(super) reader: &'a mut Reader<R>,
    pub(super) visitor: &'a mut V,
    pub(super) state: State,
    /// Whether the game began: a token of it was read (a comment before it counts).
    pub(super) began: bool,
    /// Whether the visitor was told that the game began. A game begins at its first tag
    /// or movetext token; text before that (a stray `[pgn]`) belongs to no game.
    pub(super) announced: bool,
    /// The stream offset of the game's first byte (until it began, where its reading
    /// began).
    pub(super) start: u64,
    /// The stream offset of the end of the game's last token.
    pub(super) last_end: u64,
    /// How many variations are open.
    pub(super) depth: usize,
    /// The depth at which a skipped variation started, while skipping it.
    pub(super) skip_from: Option<usize>,
    /// Whether the visitor stopped the game.
    pub(super) broken: bool,
    /// The result the Result tag says, if it says one.
    pub(super) result_tag: Option<GameResult>,
    /// Whether a token of the movetext was read.
    pub(super) any_movetext: bool,
    pub(super) pending_number: Option<PendingNumber>,
    /// The stream offset of the end of the last move token, for a `*` glued to it.
    pub(super) move_end: u64,
    /// Whether an unexpected byte was noted (once a game).
    pub(super) noted_unexpected: bool,
    /// Whether the game's plain tokens are still passed over a block at a time once the
    /// game is stopped: not once a run of them was short.
    pub(super) skim: bool,
    /// The reads so far, and whether the game had begun, when its size was last
    /// checked: the size changes only with them.
    size_checked: Option<(u64, bool)>,
}

impl<R: Read> Reader<R> {
    /// Reads up to the end of the next game, or of text that belongs to no game.
    pub(super) fn read_one<V: Visitor>(
        &mut self,
        visitor: &mut V,
    ) -> io::Result<Option<V::Output>> {
        GameRead::new(self, visitor).read()
    }
}

impl<'a, R: Read, V: Visitor> GameRead<'a, R, V> {
    fn new(reader: &'a mut Reader<R>, visitor: &'a mut V) -> GameRead<'a, R, V> {
        reader.skipped = false;
        reader.tag_names.clear();
        reader.pending_comments.clear();
        let start = reader.buffer.offset();
        GameRead {
            skim: reader.skim,
            reader,
            visitor,
            state: State::Before,
            began: false,
            announced: false,
            start,
            last_end: start,
            depth: 0,
            skip_from: None,
            broken: false,
            result_tag: None,
            any_movetext: false,
            pending_number: None,
            move_end: u64::MAX,
            noted_unexpected: false,
            size_checked: None,
        }
    }

    /// Reads the game to its end; `None` when no game was found (only text that belongs
    /// to none, or the end of the input).
    fn read(mut self) -> io::Result<Option<V::Output>> {
        self.note_byte_order_mark()?;
        let ending = self.read_tokens()?;
        Ok(self.finish(ending))
    }

    /// Notes a UTF-8 byte order mark at the very start of the input, and passes over it.
    fn note_byte_order_mark(&mut self) -> io::Result<()> {
        let buffer = &mut self.reader.buffer;
        if self.reader.notes.byte_order_mark || buffer.base != 0 || buffer.pos != 0 {
            return Ok(());
        }
        while buffer.filled < 3 && buffer.refill()? {}
        self.reader.notes.byte_order_mark = true;
        if buffer.buf[..buffer.filled].starts_with(b"\xef\xbb\xbf") {
            self.emit(DiagnosticKind::ByteOrderMark, 0);
            let buffer = &mut self.reader.buffer;
            buffer.pos = 3;
            buffer.keep = 3;
            // The mark is no character of the first line.
            buffer.cursor.offset = 3;
            self.start = 3;
            self.last_end = 3;
        }
        Ok(())
    }

    /// Reads tokens until the game ends.
    fn read_tokens(&mut self) -> io::Result<Ending> {
        loop {
            // The buffered size of the game grows only when input is read or the game
            // begins: it is checked again only then.
            if self.size_checked != Some((self.reader.buffer.fills, self.began))
                && self.skip_if_too_large()?
            {
                return Ok(Ending::Unmarked);
            }
            // The common tokens are read straight from the buffer; the general path below
            // takes over at the first token they do not cover (or at the buffer's end).
            if self.pending_number.is_none() {
                self.read_fast();
            }
            let mut gap = Gap::default();
            let buffer = &self.reader.buffer;
            let lexed = lex_inline(
                &buffer.buf[..buffer.filled],
                buffer.pos,
                buffer.eof,
                buffer.text_end,
                buffer.starts_line,
                &self.reader.dialect,
                &mut gap,
            );
            let (kind, start, end) = match lexed {
                Lexed::NeedMore => {
                    self.reader.buffer.refill()?;
                    continue;
                }
                Lexed::End => {
                    self.reader.buffer.pos = self.reader.buffer.filled;
                    return Ok(Ending::Unmarked);
                }
                Lexed::Token { token, start, end } => (
                    Kind::of(token),
                    buffer.base + start as u64,
                    buffer.base + end as u64,
                ),
            };
            if gap.tab | gap.lone_cr | gap.literal_cr {
                self.note_white_space(&gap, start);
            }
            // A bare integer followed by something other than periods is a move number.
            if self.pending_number.is_some() && !matches!(kind, Kind::Periods(_)) {
                self.flush_pending_number();
            }
            match self.token(kind, start, end, &gap)? {
                Step::Taken => {
                    self.reader.buffer.pos = self.reader.buffer.index(end);
                    self.last_end = end;
                }
                Step::Passed => self.reader.buffer.pos = self.reader.buffer.index(end),
                Step::Again => {}
                Step::End(ending) => return Ok(ending),
            }
        }
    }

    /// Reports and skips (up to the next tag line) a game too large to hold: larger than
    /// the options allow, or than the buffer could grow to. Returns whether it was.
    fn skip_if_too_large(&mut self) -> io::Result<bool> {
        self.size_checked = Some((self.reader.buffer.fills, self.began));
        let buffer = &mut self.reader.buffer;
        // What is held of the game, from its first byte (the buffer also keeps the white
        // space before it, from where its reading began).
        let first = if self.began {
            self.start
        } else {
            buffer.keep.min(buffer.cursor.offset)
        };
        let held = buffer.filled - buffer.index(first);
        let max = self.reader.options.max_game_bytes;
        let kind = if buffer.no_room {
            // The buffer could not grow to hold more of the game (see `Buffer::grow`).
            buffer.no_room = false;
            DiagnosticKind::GameOutOfMemory { held }
        } else if self.began && held > max {
            DiagnosticKind::GameTooLarge { limit: max }
        } else {
            return Ok(false);
        };
        let at = if self.began {
            self.start
        } else {
            buffer.offset()
        };
        self.emit(kind, at);
        self.broken = true;
        self.reader.skipped = true;
        self.reader.buffer.skip_to_next_tag_line()?;
        Ok(true)
    }

    /// Reads the common tokens of the tag section or the movetext straight from the
    /// buffer, as far as they go.
    #[inline]
    fn read_fast(&mut self) {
        match self.state {
            // Two copies of the loop: the one of a stopped game tests nothing per token
            // to know it tells the visitor nothing.
            State::Movetext if self.skip_from.is_none() && !self.broken => {
                self.any_movetext |= self.movetext_fast::<false>();
            }
            State::Movetext if self.skip_from.is_none() => {
                self.any_movetext |= self.movetext_fast::<true>();
            }
            State::Tags => self.tags_fast(),
            _ => {}
        }
    }

    /// Notes tabs, lone carriage returns and line ends written `\r` in the white space
    /// before a token, the first of each in the input.
    #[inline]
    fn note_white_space(&mut self, gap: &Gap, start: u64) {
        let notes = self.reader.notes;
        if (gap.tab && !notes.tab)
            || (gap.lone_cr && !notes.lone_cr)
            || (gap.literal_cr && !notes.literal_cr)
        {
            self.note_new_white_space(gap, start);
        }
    }

    fn note_new_white_space(&mut self, gap: &Gap, start: u64) {
        if gap.tab && !self.reader.notes.tab {
            self.reader.notes.tab = true;
            self.emit(DiagnosticKind::Tab, start);
        }
        if gap.lone_cr && !self.reader.notes.lone_cr {
            self.reader.notes.lone_cr = true;
            self.emit(DiagnosticKind::LoneCarriageReturn, start);
        }
        if gap.literal_cr && !self.reader.notes.literal_cr {
            self.reader.notes.literal_cr = true;
            // Where the first one is, in the white space before the token.
            let buffer = &self.reader.buffer;
            let from = buffer.pos.min(buffer.index(start));
            let gap_text = &buffer.buf[from..buffer.index(start)];
            let at = memchr::memmem::find(gap_text, b"\\r").unwrap_or(0);
            let offset = buffer.base + (buffer.pos + at) as u64;
            self.emit(DiagnosticKind::LiteralCarriageReturn, offset);
        }
    }

    /// Reads a token in the state the game is in.
    fn token(&mut self, kind: Kind, start: u64, end: u64, gap: &Gap) -> io::Result<Step> {
        if self.state == State::Before {
            if let Some(step) = self.before_game(kind, start, end, gap) {
                return Ok(step);
            }
        }
        let step = match self.state {
            State::Tags => self.in_tags(kind, start, end, gap),
            State::TagName { open } => Some(self.tag_name(open, kind, start, end)),
            State::TagValue { open, name } => Some(self.tag_value(open, name, kind, start, end)),
            State::TagClose { open, name, value } => Some(self.tag_close(open, name, value, kind)),
            // The movetext's tokens, and the first of it (`before_game` leaves `Before`).
            State::Before | State::Movetext => None,
        };
        match step {
            Some(step) => Ok(step),
            None if self.state == State::Movetext => self.movetext(kind, start, end),
            None => Ok(Step::Taken),
        }
    }

    /// Reads a token before the game: comments and escape lines before it, or its first
    /// tag or movetext token, after which the token is read in the state it begins.
    fn before_game(&mut self, kind: Kind, start: u64, end: u64, gap: &Gap) -> Option<Step> {
        match kind {
            Kind::Escape => return Some(Step::Passed),
            Kind::Comment { .. } | Kind::LineComment => {
                // Held for the game that follows.
                self.begin(start);
                self.reader.pending_comments.push(kind.content(start, end));
                if let Kind::Comment { unterminated: true } = kind {
                    self.emit(DiagnosticKind::UnterminatedComment, start);
                }
                return Some(Step::Taken);
            }
            Kind::TagOpen => {
                self.begin(start);
                self.state = State::Tags;
            }
            _ => {
                self.begin(start);
                self.announce();
                if self.reader.dialect.strict_layout {
                    self.emit(DiagnosticKind::NoTags, start);
                }
                self.begin_movetext();
            }
        }
        let reader = &self.reader;
        if (reader.games > 0 || reader.follows_game)
            && reader.previous_marked
            && !gap.blank_line
            && reader.pending_comments.is_empty()
            && reader.dialect.strict_layout
        {
            self.emit(DiagnosticKind::MissingBlankLine, start);
        }
        None
    }

    /// The game begins at `start`, unless it began before.
    pub(super) fn begin(&mut self, start: u64) {
        if self.began {
            return;
        }
        self.began = true;
        self.reader.found_any = true;
        self.start = start;
        // `keep` stays where the reading of the game began, so that the game can be
        // read again from there (`read_again`).
        self.advance_cursor(start);
    }

    /// Tells the visitor that the game begins, once.
    pub(super) fn announce(&mut self) {
        if !self.announced {
            self.announced = true;
            self.reader.games += 1;
            self.visitor.begin_game();
        }
    }

    /// The movetext begins: the visitor is told, and handed the comments held from
    /// before the game.
    pub(super) fn begin_movetext(&mut self) {
        self.announce();
        self.state = State::Movetext;
        self.tell_visitor(|visitor| visitor.begin_movetext());
        self.flush_pending_comments();
    }

    /// Hands the visitor the comments held from before the game.
    pub(super) fn flush_pending_comments(&mut self) {
        let comments = std::mem::take(&mut self.reader.pending_comments);
        for &(s, e) in &comments {
            if self.broken {
                break;
            }
            let origin = self.reader.buffer.origin(self.game_index());
            let at = origin.at(s, e);
            let text = self.reader.buffer.slice((s, e));
            if let ControlFlow::Break(()) = self.visitor.comment(text, at) {
                self.broken = true;
            }
        }
        self.reader.pending_comments = comments;
        self.reader.pending_comments.clear();
    }

    /// A bare integer that no periods followed is a move number.
    pub(super) fn flush_pending_number(&mut self) {
        if let Some(pending) = self.pending_number.take() {
            self.tell(pending.start, pending.end, |visitor, at, _| {
                visitor.move_number(pending.number, false, at)
            });
        }
    }

    /// Moves the cursor to `offset`, noting lines over 255 bytes on the way.
    pub(super) fn advance_cursor(&mut self, offset: u64) {
        let buffer = &self.reader.buffer;
        let cursor = buffer.cursor;
        if offset <= cursor.offset {
            return;
        }
        if !self.reader.notes.long_line && self.reader.dialect.strict_layout {
            let from = buffer.index(cursor.offset);
            let to = buffer.index(offset).min(buffer.filled);
            let text = &buffer.buf[from..to];
            let long = super::lines::first_long_line(text, cursor.column)
                .or_else(|| super::lines::long_last_line(text, cursor.column))
                .map(|(begin, length)| (cursor.offset + begin as u64, length));
            if let Some((at, length)) = long {
                self.reader.notes.long_line = true;
                self.emit(DiagnosticKind::LongLine { length }, at);
            }
        }
        self.reader.buffer.cursor = self.reader.buffer.location(offset);
    }

    /// The index of the game being read (or about to be).
    pub(super) fn game_index(&self) -> u64 {
        if self.announced {
            self.reader.games.saturating_sub(1)
        } else {
            self.reader.games
        }
    }

    /// A diagnostic of this game at a stream offset.
    pub(super) fn diagnostic(&self, kind: DiagnosticKind, offset: u64) -> Diagnostic {
        Diagnostic {
            severity: self.reader.options.severity(&kind),
            location: self.reader.buffer.location(offset),
            game: self.game_index(),
            kind,
        }
    }

    /// Gives the visitor a diagnostic of this game at a stream offset.
    pub(super) fn emit(&mut self, kind: DiagnosticKind, offset: u64) {
        let diagnostic = self.diagnostic(kind, offset);
        self.visitor.diagnostic(diagnostic);
    }

    /// Whether the visitor is told of the game's tokens: not once it stopped the game,
    /// nor inside a variation it skips.
    #[inline]
    pub(super) fn listening(&self) -> bool {
        !self.broken && self.skip_from.is_none()
    }

    /// Tells the visitor, while it listens, of the token between the stream offsets
    /// `start` and `end` with `call`, which is handed the token's place and the buffer
    /// (for the token's bytes); a `Break` stops the game.
    #[inline]
    pub(super) fn tell(
        &mut self,
        start: u64,
        end: u64,
        call: impl FnOnce(&mut V, At<'_>, &Buffer<R>) -> ControlFlow<()>,
    ) {
        if self.listening() {
            let buffer = &self.reader.buffer;
            let origin = buffer.origin(self.game_index());
            if call(self.visitor, origin.at(start, end), buffer).is_break() {
                self.broken = true;
            }
        }
    }

    /// Tells the visitor, while it listens, of what is at no token with `call`; a
    /// `Break` stops the game.
    #[inline]
    pub(super) fn tell_visitor(&mut self, call: impl FnOnce(&mut V) -> ControlFlow<()>) {
        if self.listening() && call(self.visitor).is_break() {
            self.broken = true;
        }
    }
}
