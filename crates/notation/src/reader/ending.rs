//! The end of a game: what was left open closed (a tag pair, the tag section,
//! variations), its result settled, and the game handed to the visitor's `end_game`; or,
//! where no game was found, the input's end or the text outside any game noted.

use std::io::Read;

use super::game::{Ending, GameRead, State};
use crate::diagnostic::{Diagnostic, DiagnosticKind};
use crate::outcome::GameResult;
use crate::span::Span;
use crate::visitor::{RawGame, Visitor};

impl<R: Read, V: Visitor> GameRead<'_, R, V> {
    /// Ends the reading of a game that ended so; `None` when no game was found.
    pub(super) fn finish(mut self, ending: Ending) -> Option<V::Output> {
        if !self.began {
            // Nothing but white space and escape lines: the input is over.
            self.note_empty_input();
            return None;
        }
        self.flush_pending_number();
        if let State::TagClose { open, name, value } = self.state {
            self.end_tag(open, name, value, false);
        }
        if !self.announced {
            self.note_outside_game();
            return None;
        }
        self.end_tag_section();
        self.close_variations();
        self.settle_result(ending);
        Some(self.end_game(ending))
    }

    /// Notes an input with no token at all, once.
    fn note_empty_input(&mut self) {
        let reader = &mut self.reader;
        if !reader.found_any && reader.buffer.eof {
            reader.found_any = true;
            let at = reader.buffer.offset();
            let d = Diagnostic {
                severity: reader.options.severity(&DiagnosticKind::EmptyInput),
                location: reader.buffer.location(at),
                game: 0,
                kind: DiagnosticKind::EmptyInput,
            };
            self.visitor.diagnostic(d);
        }
    }

    /// Notes text that began no game: no tag and no movetext (comments after the last
    /// game, a stray `[pgn]`).
    fn note_outside_game(&mut self) {
        let what = if self.reader.pending_comments.is_empty() {
            let text = (self.start, self.last_end.max(self.start));
            let text = String::from_utf8_lossy(self.reader.buffer.slice(text));
            format!("text {text:?}")
        } else {
            "comment after the last game".to_owned()
        };
        self.emit(DiagnosticKind::OutsideGame(what), self.start);
        self.reader.pending_comments.clear();
        let buffer = &mut self.reader.buffer;
        buffer.keep = self.last_end.max(buffer.keep);
        self.advance_cursor(self.reader.buffer.keep);
    }

    /// Ends a tag section left open (a tag pair cut short), and begins the movetext of
    /// a game that had none.
    fn end_tag_section(&mut self) {
        if matches!(self.state, State::TagName { .. } | State::TagValue { .. }) {
            let kind = DiagnosticKind::UnclosedTag {
                name: String::new(),
            };
            self.emit(kind, self.last_end);
        }
        if self.state != State::Movetext {
            if !self.any_movetext && self.reader.dialect.strict_layout {
                self.emit(DiagnosticKind::NoMovetext, self.last_end);
            }
            self.tell_visitor(|visitor| visitor.begin_movetext());
            self.flush_pending_comments();
        }
    }

    /// Closes the variations left open, at the game's end, skipped ones too.
    fn close_variations(&mut self) {
        if self.depth == 0 {
            return;
        }
        let count = self.depth;
        self.emit(DiagnosticKind::UnclosedVariation { count }, self.last_end);
        self.skip_from = None;
        for _ in 0..count {
            let end = self.last_end;
            self.tell(end, end, |visitor, at, _| visitor.end_variation(at));
        }
    }

    /// Settles the game's result: its marker's, held to the Result tag; or, with no
    /// marker, the Result tag's (noted where a marker is expected), told to the visitor.
    fn settle_result(&mut self, ending: Ending) {
        match ending {
            Ending::Marker(marker) => {
                if let Some(tag) = self.result_tag {
                    if tag != marker {
                        let kind = DiagnosticKind::ResultMismatch {
                            marker: marker.to_string(),
                            tag: tag.to_string(),
                        };
                        self.emit(kind, self.last_end);
                    }
                }
            }
            Ending::Unmarked => {
                let (result, origin) = match self.result_tag {
                    Some(r) => (r, "the Result tag"),
                    None => (GameResult::Unknown, "nothing"),
                };
                // A skipped game's end is not where it ends: nothing to say about it.
                if !self.reader.skipped
                    && (self.any_movetext || self.state == State::Movetext)
                    && self.reader.dialect.strict_layout
                {
                    let kind = DiagnosticKind::MissingResult {
                        result: result.to_string(),
                        origin,
                    };
                    self.emit(kind, self.last_end);
                }
                let origin = self.reader.buffer.origin(self.game_index());
                let end = self.last_end;
                let _ = self.visitor.result(result, origin.at(end, end));
            }
        }
    }

    /// Hands the game, with its text, to the visitor's `end_game`, and moves on past it.
    fn end_game(mut self, ending: Ending) -> V::Output {
        let (start, last_end) = (self.start, self.last_end);
        self.reader.previous_marked = matches!(ending, Ending::Marker(_));
        self.advance_cursor(last_end);
        let reader = &mut *self.reader;
        let buffer = &reader.buffer;
        // A game too large to keep has no raw text left (or only some of it, which is not
        // the game as written).
        let held = !reader.skipped && start >= buffer.base;
        let (raw_start, raw_end) = if !held {
            (0, 0)
        } else {
            let from = buffer.index(start).min(buffer.filled);
            (from, buffer.index(last_end).clamp(from, buffer.filled))
        };
        let starts_line = held
            && match buffer.index(start).checked_sub(1) {
                None => buffer.starts_line,
                Some(before) => matches!(buffer.buf.get(before), Some(b'\n' | b'\r')),
            };
        let raw = RawGame {
            bytes: &buffer.buf[raw_start..raw_end],
            span: Span::new(start, last_end.max(start)),
            index: reader.games - 1,
            held,
            starts_line,
        };
        let output = self.visitor.end_game(raw);
        // Past a game skipped as too large, reading goes on at the next tag line.
        let buffer = &mut reader.buffer;
        buffer.keep = last_end.max(buffer.offset());
        if buffer.pos < buffer.index(last_end) {
            buffer.pos = buffer.index(last_end);
        }
        output
    }
}
