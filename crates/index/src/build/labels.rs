//! The numbering of a build's labels (events, sites, openings, rulesets) with memory
//! that does not grow with the input.
//!
//! Why: a site of lichess's names one game, so that the labels grow with the games (a
//! million for a million games, 90 million for a month of lichess's); holding every text
//! to find it again took a build of four million games to a peak of 927 MiB, 69 MiB more
//! for each million (804 MiB now, the compaction's cache full). A text is found again
//! among those met lately, two generations of [`GENERATION`] texts at most: one met again
//! within them keeps its number, one met after longer is numbered anew, its text written
//! once more. An event or an opening comes back often enough to keep its number; a site
//! never comes back. The labels' texts are written into the segment as they are numbered
//! ([`LabelWriter`](crate::segment::LabelWriter)); the catalogue matches labels by text,
//! so that a text numbered twice answers as once.

use std::hash::BuildHasher;

use hashbrown::HashTable;

use crate::record::LabelId;

/// How many texts a generation holds before it becomes the older one (and the older one
/// is let go): some 25 MiB each, its table and texts of lichess's length. More than a
/// collection has events and openings, so that those are numbered once.
pub(super) const GENERATION: usize = 1 << 18;

/// A label's text met lately: its hash, its number, its text.
type Met = (u64, LabelId, Box<str>);

/// Numbers labels, the same text the same number while it is met often enough.
pub(super) struct Labels {
    hash: foldhash::fast::RandomState,
    recent: HashTable<Met>,
    older: HashTable<Met>,
    /// The number of the next new label (0 is the empty text, never held).
    next: u32,
}

/// What [`Labels::number`] found.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Numbered {
    /// The text's number given before.
    Known(LabelId),
    /// A number given now: the text is to be written as this label's.
    New(LabelId),
}

impl Labels {
    pub(super) fn new() -> Labels {
        Labels {
            hash: foldhash::fast::RandomState::default(),
            recent: HashTable::with_capacity(GENERATION),
            older: HashTable::new(),
            next: 1,
        }
    }

    /// The number of `text` ([`LabelId::NONE`] for the empty text); `None` once every
    /// number is given.
    pub(super) fn number(&mut self, text: &str) -> Option<Numbered> {
        if text.is_empty() {
            return Some(Numbered::Known(LabelId::NONE));
        }
        let hash = self.hash.hash_one(text);
        let same = |met: &Met| met.0 == hash && *met.2 == *text;
        if let Some(met) = self.recent.find(hash, same) {
            return Some(Numbered::Known(met.1));
        }
        if let Ok(entry) = self.older.find_entry(hash, same) {
            let (met, _) = entry.remove();
            let id = met.1;
            self.hold(met);
            return Some(Numbered::Known(id));
        }
        let id = LabelId(self.next);
        self.next = self.next.checked_add(1)?;
        self.hold((hash, id, text.into()));
        Some(Numbered::New(id))
    }

    /// Holds `met` among the recent texts, the recent ones made the older once full.
    fn hold(&mut self, met: Met) {
        if self.recent.len() == GENERATION {
            self.older = std::mem::replace(&mut self.recent, HashTable::with_capacity(GENERATION));
        }
        self.recent.insert_unique(met.0, met, |m| m.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Labels {
        fn numbered(&mut self, text: &str) -> Numbered {
            self.number(text).expect("numbers left")
        }
    }

    #[test]
    fn a_text_met_again_keeps_its_number_and_the_empty_text_is_none() {
        let mut labels = Labels::new();
        assert_eq!(labels.numbered(""), Numbered::Known(LabelId::NONE));
        assert_eq!(
            labels.numbered("Rated Blitz game"),
            Numbered::New(LabelId(1))
        );
        assert_eq!(
            labels.numbered("https://lichess.org/a"),
            Numbered::New(LabelId(2))
        );
        assert_eq!(
            labels.numbered("Rated Blitz game"),
            Numbered::Known(LabelId(1))
        );
    }

    #[test]
    fn memory_is_two_generations_and_a_text_met_within_them_keeps_its_number() {
        let mut labels = Labels::new();
        let event = labels.numbered("event");
        assert_eq!(event, Numbered::New(LabelId(1)));
        // A site for each game, the event met every GENERATION - 1 sites: it comes back
        // to the recent generation each time and keeps its number throughout.
        let games = 3 * GENERATION as u32;
        for game in 0..games {
            let site = format!("site {game}");
            assert!(matches!(labels.numbered(&site), Numbered::New(_)));
            if game % (GENERATION as u32 - 1) == 0 {
                assert_eq!(labels.numbered("event"), Numbered::Known(LabelId(1)));
            }
            assert!(labels.recent.len() + labels.older.len() <= 2 * GENERATION);
        }
        assert_eq!(labels.next, 2 + games);
        // The first site is long gone: met again, it is numbered anew.
        assert_eq!(labels.numbered("site 0"), Numbered::New(LabelId(2 + games)));
    }

    #[test]
    fn numbers_run_out_with_none_not_a_wrap() {
        let mut labels = Labels::new();
        labels.next = u32::MAX - 1;
        assert_eq!(labels.numbered("a"), Numbered::New(LabelId(u32::MAX - 1)));
        assert_eq!(labels.number("b"), None);
        assert_eq!(labels.numbered("a"), Numbered::Known(LabelId(u32::MAX - 1)));
    }
}
