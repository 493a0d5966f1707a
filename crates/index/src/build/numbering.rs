//! The numbering of a build's texts, players' names and labels (events, sites, openings,
//! rulesets), in memory that does not grow with the input.
//!
//! Why: a site of lichess's names one game, so that the labels grow with the games (a
//! million for a million games, 90 million for a month of lichess's); holding every text
//! to find it again took a build of four million games to a peak of 927 MiB, 69 MiB more
//! for each million (804 MiB now, the compaction's cache full). Players grow more slowly,
//! but without end too: a month of lichess's has millions, a year's tens of millions.
//!
//! A text is found again among those met lately, two generations of a set number of texts
//! at most: one met again within them keeps its number, one met after longer is numbered
//! anew, its text written once more. An event, an opening or a player who plays often
//! comes back soon enough to keep their number; a site never comes back. The texts are
//! written into the segment as they are numbered; a question by text (the catalogue's,
//! the explorer's player) gathers every number of the text, so that a text numbered twice
//! answers as once.

use std::hash::BuildHasher;

use hashbrown::HashTable;

/// How many labels a generation holds before it becomes the older one (and the older one
/// is let go): more than a collection has events and openings, so that those are
/// numbered once.
pub(super) const LABELS_HELD: usize = 1 << 18;

/// The longest text held to be found again, in bytes: a longer one (no real name or
/// event is) is numbered anew each time it comes.
const LONGEST_HELD: usize = 1 << 10;

/// The bytes of text a generation holds, on average per text: longer texts end it sooner,
/// so that its memory stays bounded whatever the texts.
const BYTES_PER_TEXT: usize = 64;

/// Numbers texts, the same text the same number while it is met often enough.
pub(super) struct Numbering {
    hash: foldhash::fast::RandomState,
    /// How many texts a generation holds.
    held: usize,
    recent: Generation,
    older: Generation,
    /// The number the next new text gets.
    next: u32,
}

/// The texts of one generation, one after the other in `texts`.
#[derive(Default)]
struct Generation {
    table: HashTable<Held>,
    texts: String,
}

/// A text held: its number and where its bytes are.
#[derive(Clone, Copy)]
struct Held {
    number: u32,
    start: u32,
    len: u32,
}

impl Generation {
    fn text(&self, held: &Held) -> &str {
        let start = held.start as usize;
        &self.texts[start..start + held.len as usize]
    }

    fn find(&self, hash: u64, text: &str) -> Option<u32> {
        self.table
            .find(hash, |held| self.text(held) == text)
            .map(|held| held.number)
    }
}

/// What [`Numbering::number`] found.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Numbered {
    /// The text's number given before.
    Known(u32),
    /// A number given now: the text is to be written as this number's.
    New(u32),
}

impl Numbering {
    /// Numbers texts from `first`, `held` of them to a generation.
    pub(super) fn new(first: u32, held: usize) -> Numbering {
        Numbering {
            hash: foldhash::fast::RandomState::default(),
            held: held.max(1),
            recent: Generation::default(),
            older: Generation::default(),
            next: first,
        }
    }

    /// The number of `text`; `None` once every number is given.
    pub(super) fn number(&mut self, text: &str) -> Option<Numbered> {
        let hash = self.hash.hash_one(text);
        if let Some(number) = self.recent.find(hash, text) {
            return Some(Numbered::Known(number));
        }
        if let Some(number) = self.older.find(hash, text) {
            // Met again: held among the recent ones, so that it outlives its generation.
            self.hold(hash, text, number);
            return Some(Numbered::Known(number));
        }
        let number = self.next;
        self.next = self.next.checked_add(1)?;
        self.hold(hash, text, number);
        Some(Numbered::New(number))
    }

    /// Holds `text` among the recent texts, the recent ones made the older once full.
    fn hold(&mut self, hash: u64, text: &str, number: u32) {
        if text.len() > LONGEST_HELD {
            return;
        }
        // Within what a `u32` places, too.
        let full = self
            .held
            .saturating_mul(BYTES_PER_TEXT)
            .min(u32::MAX as usize);
        if self.recent.table.len() == self.held || self.recent.texts.len() + text.len() > full {
            // The older generation's memory is used again for the recent one.
            let mut fresh = std::mem::take(&mut self.older);
            fresh.table.clear();
            fresh.texts.clear();
            self.older = std::mem::replace(&mut self.recent, fresh);
        }
        // The table grows as it fills (not made for `held` at once): a collection of few
        // names takes little memory.
        let recent = &mut self.recent;
        let held = Held {
            number,
            start: recent.texts.len() as u32,
            len: text.len() as u32,
        };
        recent.texts.push_str(text);
        let (state, texts) = (&self.hash, &recent.texts);
        recent.table.insert_unique(hash, held, |h| {
            let start = h.start as usize;
            state.hash_one(&texts[start..start + h.len as usize])
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Numbering {
        fn numbered(&mut self, text: &str) -> Numbered {
            self.number(text).expect("numbers left")
        }

        fn held_texts(&self) -> usize {
            self.recent.table.len() + self.older.table.len()
        }
    }

    #[test]
    fn a_text_met_again_keeps_its_number() {
        let mut labels = Numbering::new(1, LABELS_HELD);
        assert_eq!(labels.numbered("Rated Blitz game"), Numbered::New(1));
        assert_eq!(labels.numbered("https://lichess.org/a"), Numbered::New(2));
        assert_eq!(labels.numbered("Rated Blitz game"), Numbered::Known(1));
        assert_eq!(labels.numbered("https://lichess.org/a"), Numbered::Known(2));
    }

    #[test]
    fn memory_is_two_generations_and_a_text_met_within_them_keeps_its_number() {
        const HELD: usize = 1000;
        let mut labels = Numbering::new(1, HELD);
        assert_eq!(labels.numbered("event"), Numbered::New(1));
        // A site for each game, the event met every HELD - 1 sites: it comes back to the
        // recent generation each time and keeps its number throughout.
        let games = 3 * HELD as u32;
        for game in 0..games {
            let site = format!("site {game}");
            assert!(matches!(labels.numbered(&site), Numbered::New(_)));
            if game % (HELD as u32 - 1) == 0 {
                assert_eq!(labels.numbered("event"), Numbered::Known(1));
            }
            assert!(labels.held_texts() <= 2 * HELD);
            assert!(labels.recent.texts.len() <= HELD * BYTES_PER_TEXT);
        }
        assert_eq!(labels.next, 2 + games);
        // The first site is long gone: met again, it is numbered anew.
        assert_eq!(labels.numbered("site 0"), Numbered::New(2 + games));
        // The last ones are not.
        let last = format!("site {}", games - 1);
        assert!(matches!(labels.numbered(&last), Numbered::Known(_)));
    }

    #[test]
    fn a_text_too_long_to_hold_is_numbered_anew_each_time() {
        let mut labels = Numbering::new(0, 4);
        let long = "x".repeat(LONGEST_HELD + 1);
        assert_eq!(labels.numbered(&long), Numbered::New(0));
        assert_eq!(labels.numbered(&long), Numbered::New(1));
        assert_eq!(labels.numbered("short"), Numbered::New(2));
        assert_eq!(labels.numbered("short"), Numbered::Known(2));
    }

    #[test]
    fn long_texts_end_a_generation_sooner() {
        const HELD: usize = 100;
        let mut labels = Numbering::new(0, HELD);
        let text = |i: usize| format!("{i:0>1000}");
        for i in 0..10 * HELD {
            assert_eq!(labels.numbered(&text(i)), Numbered::New(i as u32));
            assert!(labels.recent.texts.len() <= HELD * BYTES_PER_TEXT);
        }
        // A generation holds as many such texts as fit in its bytes, the older one as many.
        let held = HELD * BYTES_PER_TEXT / 1000;
        assert_eq!(labels.held_texts(), labels.recent.table.len() + held);
        let last = 10 * HELD - 1;
        assert_eq!(labels.numbered(&text(last)), Numbered::Known(last as u32));
        assert!(matches!(labels.numbered(&text(0)), Numbered::New(_)));
    }

    #[test]
    fn numbers_run_out_with_none_not_a_wrap() {
        let mut labels = Numbering::new(u32::MAX - 1, LABELS_HELD);
        assert_eq!(labels.numbered("a"), Numbered::New(u32::MAX - 1));
        assert_eq!(labels.number("b"), None);
        assert_eq!(labels.numbered("a"), Numbered::Known(u32::MAX - 1));
    }
}
