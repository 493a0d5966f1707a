//! The fast path of the movetext: the common tokens read straight from the buffer, a
//! loop with no state of its own, which the general path (`movetext`) takes over from at
//! the first token it does not cover.

use std::io::Read;
use std::ops::ControlFlow;

use super::game::GameRead;
use super::token::digits_value;
use crate::lexer::{is_space, is_symbol_byte};
use crate::nag::Nag;
use crate::skim::plain_tokens_end;
use crate::visitor::{Skip, Visitor};

/// A run of plain tokens shorter than this (in bytes) did not pay for the block it was
/// found in: the token loop reads the rest of the game alone. (`select --player` on the
/// lichess bench file, a comment after every move, took 12% more instructions when every
/// run was looked for.)
const SKIM_PAYS_FROM: usize = 64;

impl<R: Read, V: Visitor> GameRead<'_, R, V> {
    /// Reads the common movetext tokens (moves, move numbers, brace comments on one line,
    /// NAGs, suffixes, parentheses) straight from the buffer, with buffer indices, while
    /// the visitor takes every token. Stops before anything else: a token that may
    /// continue past the buffer, one that needs a diagnostic, a result, white space that
    /// must be noted. Everything it reads, it reads exactly as the general path would.
    /// Returns whether it read a token that counts as movetext. `MUTED`: the visitor
    /// stopped the game (it is `broken`), and is told nothing of the tokens.
    pub(super) fn movetext_fast<const MUTED: bool>(&mut self) -> bool {
        // A game the visitor stopped is lexed on here all the same, to find where it ends
        // as fast as any other: the visitor is told nothing more (its diagnostics still
        // come, as the general path gives them).
        let muted = MUTED;
        let game = self.game_index();
        let reader = &*self.reader;
        let visitor = &mut *self.visitor;
        let buffer = &reader.buffer;
        let buf = &buffer.buf[..buffer.filled];
        let len = buf.len();
        let base = buffer.base;
        let origin = buffer.origin(game);
        let at = |s: usize, e: usize| origin.at(base + s as u64, base + e as u64);
        // Tabs and lone carriage returns are noted once per input: after that they are
        // white space like any other.
        let (tab_ok, cr_ok) = (reader.notes.tab, reader.notes.lone_cr);
        let max_nag = u64::from(reader.dialect.max_nag);
        let mut any = false;
        let mut pos = buffer.pos;
        // The end of the last token read.
        let mut done = pos;
        let mut skim = self.skim;
        loop {
            if muted && skim {
                // Runs of plain moves and move numbers tell nothing here: passed over
                // whole, up to the first token this loop must look at. Once a run is
                // short (a comment after every move), the loop reads the rest of the
                // game alone: a block costs more than a few tokens.
                let end = plain_tokens_end(buf, pos);
                if end - pos < SKIM_PAYS_FROM {
                    skim = false;
                }
                if end > pos {
                    any = true;
                    done = end;
                    pos = end;
                }
            }
            let (start, first) = match buf.get(pos..pos + 2) {
                // Most tokens follow one space.
                Some(&[b' ', b]) if !is_space(b) => (pos + 1, b),
                _ => loop {
                    match buf.get(pos) {
                        Some(b' ' | b'\n' | 0x0b | 0x0c) => pos += 1,
                        Some(b'\t') if tab_ok => pos += 1,
                        Some(b'\r') if cr_ok || buf.get(pos + 1) == Some(&b'\n') => pos += 1,
                        Some(&b) => break (pos, b),
                        None => break (pos, b'\0'),
                    }
                },
            };
            if start >= len {
                break;
            }
            let (end, flow) = match first {
                b'0'..=b'9' => {
                    let mut d = start + 1;
                    while d < len && buf[d].is_ascii_digit() {
                        d += 1;
                    }
                    if d >= len {
                        break;
                    }
                    if buf[d] != b'.' {
                        // A move starting with a digit (PDN's `32-28`, `28x19`). A bare
                        // integer waits for its periods, and termination markers start with
                        // digits too: those are left to the general path.
                        let mut end = d;
                        while end < len && is_symbol_byte(buf[end]) {
                            end += 1;
                        }
                        if end == d
                            || end >= len
                            || buf[end] == b'('
                            || reader.continuations.may_continue(&buf[end..])
                            || reader.dialect.read_result(&buf[start..end]).is_some()
                        {
                            break;
                        }
                        any = true;
                        self.move_end = base + end as u64;
                        (
                            end,
                            mute(muted, || {
                                visitor.move_token(&buf[start..end], at(start, end))
                            }),
                        )
                    } else {
                        // A move number: `12.`, `12...`.
                        let mut end = d + 1;
                        while end < len && buf[end] == b'.' {
                            end += 1;
                        }
                        if end >= len {
                            break;
                        }
                        any = true;
                        let number = digits_value(&buf[start..d]);
                        let at = at(start, end);
                        (
                            end,
                            mute(muted, || visitor.move_number(number, end - d >= 3, at)),
                        )
                    }
                }
                b'{' => {
                    let body = &buf[start + 1..];
                    // A comment with a line end may hide a new game: the general path.
                    match memchr::memchr2(b'}', b'\n', body) {
                        Some(i) if body[i] == b'}' => {
                            any = true;
                            let end = start + 2 + i;
                            (
                                end,
                                mute(muted, || visitor.comment(&body[..i], at(start, end))),
                            )
                        }
                        _ => break,
                    }
                }
                b'$' => {
                    let mut end = start + 1;
                    while end < len && buf[end].is_ascii_digit() {
                        end += 1;
                    }
                    if end == start + 1 || end >= len {
                        break;
                    }
                    let n = digits_value(&buf[start + 1..end]);
                    if n > max_nag {
                        break;
                    }
                    any = true;
                    (
                        end,
                        mute(muted, || visitor.nag(Nag(n as u16), at(start, end))),
                    )
                }
                b'!' | b'?' => {
                    let mut end = start + 1;
                    while end < len && matches!(buf[end], b'!' | b'?') {
                        end += 1;
                    }
                    if end >= len {
                        break;
                    }
                    let Some(nag) = Nag::from_suffix(&buf[start..end]) else {
                        break;
                    };
                    (end, mute(muted, || visitor.nag(nag, at(start, end))))
                }
                b'(' => {
                    // `(!)` is a suffix, and the byte after `(` must be known to tell.
                    if matches!(buf.get(start + 1), None | Some(b'!' | b'?')) {
                        break;
                    }
                    any = true;
                    self.depth += 1;
                    done = start + 1;
                    pos = done;
                    let flow = if muted {
                        ControlFlow::Continue(Skip(false))
                    } else {
                        visitor.begin_variation(at(start, start + 1))
                    };
                    match flow {
                        ControlFlow::Continue(Skip(false)) => continue,
                        ControlFlow::Continue(Skip(true)) => self.skip_from = Some(self.depth),
                        ControlFlow::Break(()) => self.broken = true,
                    }
                    break;
                }
                b')' if self.depth > 0 => {
                    let end = start + 1;
                    let flow = mute(muted, || visitor.end_variation(at(start, end)));
                    self.depth -= 1;
                    (end, flow)
                }
                // `%` may start an escape line and `/` a set-up; `N` alone and symbols
                // starting with these bytes may be evaluation symbols (or `½-½`).
                // (`0xb1` and `0xbd` are `±` and `½` in Latin-1 and Windows-1252.)
                b'%' | b'/' | b'=' | b'+' | b'-' | 0xb1 | 0xbd | 0xc2 | 0xe2 => break,
                b if is_symbol_byte(b) => {
                    let mut end = start + 1;
                    while end < len && is_symbol_byte(buf[end]) {
                        end += 1;
                    }
                    // `e8(Q)` and a move with its mark (`exd6e.p.`) are one token; the
                    // general path tells.
                    if end >= len
                        || buf[end] == b'('
                        || (b == b'N' && end == start + 1)
                        || reader.continuations.may_continue(&buf[end..])
                    {
                        break;
                    }
                    any = true;
                    self.move_end = base + end as u64;
                    (
                        end,
                        mute(muted, || {
                            visitor.move_token(&buf[start..end], at(start, end))
                        }),
                    )
                }
                _ => break,
            };
            done = end;
            pos = end;
            if flow.is_break() {
                self.broken = true;
                break;
            }
        }
        if done != self.reader.buffer.pos {
            self.reader.buffer.pos = done;
            self.last_end = base + done as u64;
        }
        self.skim = skim;
        any
    }
}

/// `call()`'s flow, or going on without calling it when `muted`.
#[inline(always)]
fn mute(muted: bool, call: impl FnOnce() -> ControlFlow<()>) -> ControlFlow<()> {
    if muted {
        ControlFlow::Continue(())
    } else {
        call()
    }
}
