//! Passing over the movetext of a game its visitor stopped, 64 bytes at a time.
//!
//! A filter that passes most games over unread (`notate select --player`) spends its time
//! finding where each of them ends. Nearly all of such a game's movetext is plain tokens,
//! move numbers and moves, that tell the reader nothing once the visitor is stopped: no
//! termination marker, variation, comment, glyph, escape line or tag pair starts with
//! one, and no diagnostic comes of them. The reader's token loop hands the run of them
//! at its position to [`plain_tokens_end`], which tests the bytes of a block at once,
//! as bit masks, and takes over again at the first token that is not plain, with the
//! white space before it, so that it sees what it would have seen.

/// Bytes tested at once.
const BLOCK: usize = 64;

/// A block's bytes of each kind, as bits, the first byte the lowest.
struct Kinds {
    space: u64,
    line_end: u64,
    digit: u64,
    letter: u64,
    dot: u64,
    /// The symbol bytes moves hold besides letters and digits: `+ # = - @`.
    mark: u64,
    /// `N`, which is a glyph when alone (a novelty).
    n: u64,
}

/// The bytes of `block` for which `test` holds, as bits.
#[cfg(not(target_arch = "x86_64"))]
fn bits(block: &[u8; BLOCK], test: impl Fn(u8) -> bool) -> u64 {
    block
        .iter()
        .enumerate()
        .fold(0, |bits, (j, &b)| bits | (u64::from(test(b)) << j))
}

impl Kinds {
    /// SSE2, which every x86-64 processor has: 16 bytes tested per instruction. With
    /// the portable loop below, which the compiler does not make into vector
    /// instructions, the run costs more than the reader's token loop it replaces
    /// (`notate select --jobs 1 --player Carlsen` on the TWIC file ×10: 432 M
    /// instructions in this function, against 96 M in the loop).
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    fn of(block: &[u8; BLOCK]) -> Kinds {
        // SAFETY: SSE2 is part of x86-64 itself: every processor that runs this code
        // has it (the compiler's target enables it), which is all `sse2::kinds` needs.
        unsafe { sse2::kinds(block) }
    }

    #[cfg(not(target_arch = "x86_64"))]
    fn of(block: &[u8; BLOCK]) -> Kinds {
        Kinds {
            space: bits(block, |b| b == b' '),
            line_end: bits(block, |b| b == b'\n'),
            digit: bits(block, |b| b.wrapping_sub(b'0') < 10),
            letter: bits(block, |b| (b | 0x20).wrapping_sub(b'a') < 26),
            dot: bits(block, |b| b == b'.'),
            mark: bits(block, |b| matches!(b, b'+' | b'#' | b'=' | b'-' | b'@')),
            n: bits(block, |b| b == b'N'),
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128, _mm_set_epi64x,
        _mm_set1_epi8, _mm_sub_epi8,
    };

    use super::{BLOCK, Kinds};

    /// [`Kinds::of`], 16 bytes at a time.
    #[target_feature(enable = "sse2")]
    pub(super) fn kinds(block: &[u8; BLOCK]) -> Kinds {
        let mut k = Kinds {
            space: 0,
            line_end: 0,
            digit: 0,
            letter: 0,
            dot: 0,
            mark: 0,
            n: 0,
        };
        for (i, lane) in block.chunks_exact(16).enumerate() {
            let half = |at: usize| {
                let mut eight = [0u8; 8];
                eight.copy_from_slice(&lane[at..at + 8]);
                i64::from_le_bytes(eight)
            };
            let x = _mm_set_epi64x(half(8), half(0));
            let bits = |m: __m128i| u64::from(_mm_movemask_epi8(m) as u16) << (16 * i);
            let eq = |b: u8| _mm_cmpeq_epi8(x, _mm_set1_epi8(b as i8));
            k.space |= bits(eq(b' '));
            k.line_end |= bits(eq(b'\n'));
            k.digit |= bits(within(x, b'0', 10));
            k.letter |= bits(within(_mm_or_si128(x, _mm_set1_epi8(0x20)), b'a', 26));
            k.dot |= bits(eq(b'.'));
            let signs = _mm_or_si128(_mm_or_si128(eq(b'+'), eq(b'#')), eq(b'='));
            k.mark |= bits(_mm_or_si128(signs, _mm_or_si128(eq(b'-'), eq(b'@'))));
            k.n |= bits(eq(b'N'));
        }
        k
    }

    /// The bytes `v` from `first` to `first + count - 1`, unsigned: `v - first` is its
    /// own minimum with `count - 1`.
    #[target_feature(enable = "sse2")]
    fn within(v: __m128i, first: u8, count: u8) -> __m128i {
        let d = _mm_sub_epi8(v, _mm_set1_epi8(first as i8));
        _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8((count - 1) as i8)), d)
    }
}

/// The end of the run of plain tokens that starts at `buf[from..]` (after the white
/// space before the first): the end of the last of them, or `from` when there is none.
///
/// A plain token is a move number (`12.`, `12...`), maybe with a move glued to it
/// (`1.e4`), or a word of ASCII letters, digits and `+ # = - @` that starts with a letter
/// and is not `N` alone (`Nxe5+`, `O-O`, `e8=Q`). Each is followed by a space, or by a
/// line end that a space, a letter or a digit follows (so no blank line, nor a line that
/// may be an escape or a tag pair). `from` is taken to be a token's start. A token that
/// reaches the end of `buf` may go on past it: it is not plain.
pub(crate) fn plain_tokens_end(buf: &[u8], from: usize) -> usize {
    let mut end = from;
    let mut at = from;
    // The kinds of the byte before the block: `from` starts a token.
    let (mut white_before, mut dot_before) = (1u64, 0u64);
    // Whether a move number runs on from the block before.
    let mut number_before = 0u64;
    while at < buf.len() {
        let mut block = [0u8; BLOCK];
        let taken = (buf.len() - at).min(BLOCK);
        block[..taken].copy_from_slice(&buf[at..at + taken]);
        // Bytes past the end are zero, which no plain token holds, and so is the byte
        // after the buffer.
        let after = buf.get(at + BLOCK).copied().unwrap_or(0);
        let k = Kinds::of(&block);
        let white = k.space | k.line_end;
        let plain = white | k.digit | k.letter | k.dot | k.mark;
        // Each byte's neighbours' kinds, at its own bit.
        let next = |bits: u64, test: bool| (bits >> 1) | (u64::from(test) << 63);
        let next_white = next(white, matches!(after, b' ' | b'\n'));
        let next_dot = next(k.dot, after == b'.');
        let next_letter = next(k.letter, after.is_ascii_alphabetic());
        let next_begins_line = next(
            k.space | k.digit | k.letter,
            after == b' ' || after.is_ascii_alphanumeric(),
        );
        let white_prev = (white << 1) | white_before;
        let dot_prev = (k.dot << 1) | dot_before;

        let mut bad = !plain;
        bad |= k.line_end & !next_begins_line;
        // A token starts with a digit or a letter, and a lone `N` is a glyph.
        let starts = !white & white_prev;
        bad |= starts & !(k.digit | k.letter);
        bad |= k.n & (white_prev | dot_prev) & next_white;
        // The digits that start a token are a move number's: periods follow them (the
        // carry of adding each run's first bit runs to the byte after it, and on into
        // the next block).
        let number_starts = k.digit & white_prev;
        let (sum, over) = number_starts.overflowing_add(k.digit);
        let (sum, over_again) = sum.overflowing_add(number_before);
        let after_numbers = sum & !k.digit;
        // Periods follow a number, and only a number; a move, white space or periods
        // follow them. A number without them is found at the byte after it, and marked
        // at its last digit, so that it is not taken for a plain token's end (at a
        // block's first byte, the number ended in the block before, which did not take
        // it for one either).
        let stray = after_numbers & !k.dot;
        bad |= (stray >> 1) | (stray & 1);
        bad |= k.dot & !dot_prev & !after_numbers;
        bad |= k.dot & !(next_dot | next_letter | next_white);

        // The last bytes of tokens, followed by white space; a number that runs into the
        // next block is judged there.
        let mut token_ends = !white & next_white;
        if over | over_again {
            token_ends &= !(1 << 63);
        }
        let ends = if bad == 0 {
            token_ends
        } else {
            // Only the tokens before the first that is not plain.
            token_ends & ((1u64 << bad.trailing_zeros()) - 1)
        };
        if ends != 0 {
            end = at + (BLOCK - ends.leading_zeros() as usize);
        }
        if bad != 0 {
            return end;
        }
        white_before = white >> 63;
        dot_before = k.dot >> 63;
        number_before = u64::from(over | over_again);
        at += BLOCK;
    }
    end
}

#[cfg(test)]
mod tests {
    use super::plain_tokens_end;

    /// Where a run of plain tokens ends, for text cut at `|`: the function is given the
    /// text with the cut removed and must return the cut's offset.
    fn ends_at(marked: &str) {
        let cut = marked.find('|').expect("a cut");
        let text = marked.replace('|', "");
        assert_eq!(plain_tokens_end(text.as_bytes(), 0), cut, "{marked:?}");
    }

    #[test]
    fn plain_tokens_run_to_the_first_token_the_reader_must_see() {
        ends_at("1. e4 e5 2. Nf3 Nc6 3. Bb5| 1-0\n");
        ends_at(
            "1.d4 Nf6 2.c4 e6 3.Nc3 Bb4 4.e3 O-O 5.Bd3 d5 6.Nf3 c5 7.O-O Nc6 8.a3 Bxc3 9.bxc3 dxc4 10.Bxc4 Qc7 11.Bd3 e5 12.Qc2 Re8 13.Nxe5 Nxe5 14.dxe5 Qxe5 15.f3 Bd7 16.a4 Qxe3+| 0-1\n",
        );
        ends_at("12... Qxe3+ 13. Kh1 e1=Q#| 0-1");
        ends_at("1. e4|\n\n[Event \"next\"]");
        ends_at("1. e4 e5\n2. Nf3|\n[Event \"next\"]");
        ends_at("1. e4 e5\n2. Nf3|\n%escape\n");
        ends_at("1. e4 e5 2. Nf3| {a comment}");
        ends_at("1. e4 e5 2.| Nf3(2. Nc3)");
        ends_at("1. e4 e5 2. Nf3| N");
        ends_at("1. e4 1...| N 2. Nf3");
        ends_at("1. e4 1...| N");
        ends_at("1. e4 1.| N ");
        ends_at("1. e4 e5| 12 Nf3");
        ends_at("1. e4 e5| 2.5 Nf3");
        ends_at("1. e4 e5| exd6e.p. Nf3");
        ends_at("1. e4 e5| Nf3!? Nc6");
        ends_at("1. e4 e5| $1 Nc6");
        // A tab or a carriage return is no white space here: the token before goes too.
        ends_at("1. e4| e5\tNc6 ");
        ends_at("1. e4| e5\r\nNc6 ");
        ends_at("1. e4 e5| \tNc6 ");
        ends_at("1. e4 e5| +- Nc6 ");
        ends_at("1. e4 e5| Nf3é Nc6 ");
        ends_at("1. e4 e5| Nf3");
        ends_at("|1-0 ");
        ends_at("|*");
        ends_at("| ");
        ends_at("|");
    }

    /// Runs far longer than a block, cut at every offset: a token that crosses a
    /// block's end is judged as any other.
    #[test]
    fn tokens_across_blocks_are_judged_whole() {
        let moves = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 14. Bg5 b4 15. Nb1 h6 16. Bh4 c5 17. dxe5 Nxe4 18. Bxe7 Qxe7 19. exd6 Qf6 20. Nbd2 Nxd6 21. Nc4 Nxc4 22. Bxc4 Nb6 23. Ne5 Rae8 24. Bxf7+ Rxf7 25. Nxf7 Rxe1+ 26. Qxe1 Kxf7 27. Qe3 Qg5 28. Qxg5 hxg5 29. b3 Ke6 30. a3 Kd6 31. axb4 cxb4 32. Ra5 Nd5 33. f3 Bc8 34. Kf2 Bf5 35. Ra7 g6 36. Ra6+ Kc5 37. Ke1 Nf4 38. g3 Nxh3 39. Kd2 Kb5 40. Rd6 Kc5 41. Ra6 Nf2 42. g4 Bd3 43. Re6";
        for prefix in 0..70 {
            let text = format!("{}{moves} 1/2-1/2\n", " ".repeat(prefix));
            let cut = text.find(" 1/2").expect("the marker");
            assert_eq!(
                plain_tokens_end(text.as_bytes(), 0),
                cut,
                "after {prefix} spaces"
            );
            // A bare number somewhere in the middle stops the run before it.
            let broken = text.replacen(" 22. ", " 22 ", 1);
            let stop = broken.find(" 22 ").expect("the number");
            assert_eq!(
                plain_tokens_end(broken.as_bytes(), 0),
                stop,
                "after {prefix} spaces"
            );
        }
    }
}
