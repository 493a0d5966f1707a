//! Tag pairs in file order, and the set of a game's tag names.

use std::borrow::Cow;
use std::collections::HashSet;

use crate::visitor::RawValue;

/// One tag pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    /// The name, as written (or as corrected to the standard's case).
    pub name: String,
    /// The value, unescaped and decoded to UTF-8.
    pub value: String,
    /// The value's bytes as written, unescaped, when they were not UTF-8.
    pub raw: Option<Vec<u8>>,
}

/// Whether two tag names are the same: told apart by their lengths and first bytes
/// before their bytes are compared, since a game's names are looked up among a dozen
/// others, many of the same length (`Event`, `Round`, `White`, `Black`), for every game.
pub(crate) fn same_name(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.as_bytes().first() == b.as_bytes().first() && a == b
}

/// The tag pairs of a game, in the order of the file.
///
/// ```
/// use notation::Tags;
/// let mut tags = Tags::new();
/// tags.set("White", "Fischer, Robert J.");
/// tags.set("Black", "Spassky, Boris V.");
/// tags.set("White", "Fischer, R.");
/// assert_eq!(tags.get("White"), Some("Fischer, R."));
/// assert_eq!(tags.len(), 2);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tags {
    pairs: Vec<Tag>,
}

impl Tags {
    /// No tags.
    pub const fn new() -> Tags {
        Tags { pairs: Vec::new() }
    }

    /// The value of the first tag with this name (names compare exactly).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.find(name).map(|t| t.value.as_str())
    }

    /// The first tag with this name.
    pub fn find(&self, name: &str) -> Option<&Tag> {
        self.pairs.iter().find(|t| same_name(&t.name, name))
    }

    /// Whether a tag with this name is present.
    pub fn contains(&self, name: &str) -> bool {
        self.find(name).is_some()
    }

    /// Sets a tag's value, replacing the first one of that name or appending a new one.
    pub fn set(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.pairs.iter_mut().find(|t| same_name(&t.name, name)) {
            Some(tag) => {
                tag.value = value;
                tag.raw = None;
            }
            None => self.pairs.push(Tag {
                name: name.to_owned(),
                value,
                raw: None,
            }),
        }
    }

    /// Appends a tag as read, even if one of the same name exists.
    pub fn push(&mut self, tag: Tag) {
        self.pairs.push(tag);
    }

    /// Removes every tag with this name; returns whether there was one.
    pub fn remove(&mut self, name: &str) -> bool {
        let before = self.pairs.len();
        self.pairs.retain(|t| t.name != name);
        self.pairs.len() != before
    }

    /// The tags in file order.
    pub fn iter(&self) -> std::slice::Iter<'_, Tag> {
        self.pairs.iter()
    }

    /// Number of tags.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Whether there is no tag.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }
}

impl<'a> IntoIterator for &'a Tags {
    type Item = &'a Tag;
    type IntoIter = std::slice::Iter<'a, Tag>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Below this many names, a duplicate is found by a scan of the names.
const NAME_SCAN_LIMIT: usize = 48;

/// The tag names of a game, to find a name given twice: one buffer reused from game to
/// game, so that a validator allocates nothing per tag once warm.
///
/// ```
/// use notation::TagNames;
/// let mut names = TagNames::default();
/// assert!(names.insert(b"White"));
/// assert!(names.insert(b"Black"));
/// assert!(!names.insert(b"White"));
/// names.clear();
/// assert!(names.insert(b"White"));
/// ```
#[derive(Debug, Default)]
pub struct TagNames {
    bytes: Vec<u8>,
    /// Per name: where it ends in `bytes`, and a key made of its length and first bytes,
    /// compared before the bytes themselves.
    names: Vec<(usize, u64)>,
    /// One bit per name held, picked by its key: a name whose bit is clear is new, and
    /// the names need no scan (with a game's usual 7 to 20 tags, most names).
    seen: u64,
    /// For games with many tags, so that finding duplicates stays linear.
    set: HashSet<Vec<u8>>,
}

/// The bit of [`TagNames::seen`] for a name's key.
fn seen_bit(key: u64) -> u64 {
    1 << (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 58)
}

/// A key telling most names apart without comparing their bytes.
fn name_key(name: &[u8]) -> u64 {
    // Its first seven bytes in the low ones, read in one load when there are eight (a
    // copy of a length known only at run time would be a call to `memcpy`).
    let head = match name.first_chunk::<8>() {
        Some(first) => u64::from_le_bytes(*first) & 0x00ff_ffff_ffff_ffff,
        None => name.iter().rev().fold(0, |key, &b| key << 8 | u64::from(b)),
    };
    head | u64::from(name.len() as u8) << 56
}

/// A tag pair as a validator first reads it, before it looks at the value: see
/// [`TagNames::check`].
#[derive(Debug)]
pub struct CheckedTag<'a> {
    /// The name in UTF-8 (decoded as Windows-1252 if it was not UTF-8).
    pub name: Cow<'a, [u8]>,
    /// The value, unescaped, as written: most values are never looked at, and are
    /// decoded only where they are.
    pub value: Cow<'a, [u8]>,
    /// Whether the name or the value is not UTF-8.
    pub not_utf8: bool,
    /// Whether the game named this tag before (the pair is then to be dropped).
    pub duplicate: bool,
}

impl TagNames {
    /// Reads a tag pair's name and value as the validators do before they look at it,
    /// and adds the name.
    ///
    /// ```
    /// use notation::{RawValue, TagNames};
    /// let mut names = TagNames::default();
    /// let tag = names.check(b"White", RawValue(br#"Tal, \"the magician\""#));
    /// assert_eq!(&*tag.value, br#"Tal, "the magician""#);
    /// assert!(!tag.not_utf8 && !tag.duplicate);
    /// assert!(names.check(b"White", RawValue(b"?")).duplicate);
    /// assert!(names.check(b"Black", RawValue(b"Caf\xe9")).not_utf8);
    /// ```
    #[inline]
    pub fn check<'a>(&mut self, name: &'a [u8], value: RawValue<'a>) -> CheckedTag<'a> {
        let value = value.unescaped();
        let lossy = |bytes: &[u8]| !bytes.is_ascii() && std::str::from_utf8(bytes).is_err();
        let name_lossy = lossy(name);
        let not_utf8 = name_lossy || lossy(&value);
        let name = if name_lossy {
            Cow::Owned(crate::encoding::decode(name).0.into_owned().into_bytes())
        } else {
            Cow::Borrowed(name)
        };
        let duplicate = !self.insert(&name);
        CheckedTag {
            name,
            value,
            not_utf8,
            duplicate,
        }
    }

    /// Forgets every name, keeping the buffers.
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.names.clear();
        self.seen = 0;
        self.set.clear();
    }

    /// Adds a name; `false` if it was there already (names compare exactly).
    pub fn insert(&mut self, name: &[u8]) -> bool {
        let key = name_key(name);
        let bit = seen_bit(key);
        if self.names.len() < NAME_SCAN_LIMIT {
            if self.seen & bit == 0 {
                self.seen |= bit;
                self.bytes.extend_from_slice(name);
                self.names.push((self.bytes.len(), key));
                return true;
            }
            let mut start = 0;
            for &(end, k) in &self.names {
                if k == key && self.bytes.get(start..end) == Some(name) {
                    return false;
                }
                start = end;
            }
        } else {
            if self.set.is_empty() {
                let mut start = 0;
                for &(end, _) in &self.names {
                    self.set
                        .insert(self.bytes.get(start..end).unwrap_or(&[]).to_vec());
                    start = end;
                }
            }
            if !self.set.insert(name.to_vec()) {
                return false;
            }
        }
        self.seen |= bit;
        self.bytes.extend_from_slice(name);
        self.names.push((self.bytes.len(), key));
        true
    }
}

/// A game's tag pairs as written, held in one buffer that is reused from game to game and
/// read without any check: what a filter that decides from a game's tags whether to read
/// the game sees ([`GameReader::movetext_only_if`](crate::GameReader::movetext_only_if)).
///
/// ```
/// use notation::RawTags;
/// let mut tags = RawTags::default();
/// tags.push(b"White", b"Carlsen, Magnus");
/// tags.push(b"Site", b"Bogot\xe1"); // Windows-1252
/// tags.push(b"White", b"Someone else");
/// tags.push(b"Event", br#"The \"Open\""#);
/// assert_eq!(tags.get("White").as_deref(), Some("Carlsen, Magnus"));
/// assert_eq!(tags.get("Event").as_deref(), Some("The \"Open\""));
/// assert_eq!(tags.get("Site").as_deref(), Some("Bogotá"));
/// assert_eq!(tags.get("Black"), None);
/// assert_eq!(tags.len(), 4);
/// ```
#[derive(Clone, Debug, Default)]
pub struct RawTags {
    bytes: Vec<u8>,
    /// Each pair's name and value: where they end in `bytes` (each starts where the one
    /// before ends).
    ends: Vec<(usize, usize)>,
}

impl RawTags {
    /// Forgets every pair, keeping the room they took.
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.ends.clear();
    }

    /// Adds a pair: its name and its value as written between the quotes (escapes are
    /// undone when the value is looked up: most values never are).
    pub fn push(&mut self, name: &[u8], value: &[u8]) {
        self.bytes.extend_from_slice(name);
        let name_end = self.bytes.len();
        self.bytes.extend_from_slice(value);
        self.ends.push((name_end, self.bytes.len()));
    }

    /// The number of pairs.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The value of the first pair named `name`, decoded (UTF-8, else Windows-1252).
    pub fn get(&self, name: &str) -> Option<Cow<'_, str>> {
        let mut start = 0;
        for &(name_end, value_end) in &self.ends {
            let found = self.bytes.get(start..name_end) == Some(name.as_bytes());
            if found {
                let value = self.bytes.get(name_end..value_end).unwrap_or_default();
                return Some(match RawValue(value).unescaped() {
                    Cow::Borrowed(value) => crate::encoding::decode(value).0,
                    Cow::Owned(value) => Cow::Owned(crate::encoding::decode(&value).0.into_owned()),
                });
            }
            start = value_end;
        }
        None
    }
}

/// Looking a tag up by name, in [`Tags`] or [`RawTags`] alike.
pub trait TagLookup {
    /// The value of the tag named `name`, if the game has one.
    fn lookup(&self, name: &str) -> Option<Cow<'_, str>>;
}

impl TagLookup for Tags {
    fn lookup(&self, name: &str) -> Option<Cow<'_, str>> {
        self.get(name).map(Cow::Borrowed)
    }
}

impl TagLookup for RawTags {
    fn lookup(&self, name: &str) -> Option<Cow<'_, str>> {
        self.get(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name is new exactly when it was not inserted since the last clear: names of one
    /// length sharing their first bytes, lengths past 255, the empty name, and games with
    /// more names than are scanned.
    #[test]
    fn names_are_duplicates_exactly_when_inserted_before() {
        let mut pool: Vec<Vec<u8>> = vec![
            Vec::new(),
            b"White".to_vec(),
            b"WhiteElo".to_vec(),
            b"WhiteEla".to_vec(),
            b"WhiteEl".to_vec(),
            vec![b'x'; 300],
            vec![b'x'; 44],
            "Événement".as_bytes().to_vec(),
        ];
        pool.extend((0..120).map(|i| format!("Tag{i}").into_bytes()));
        pool.extend((0..40).map(|i| format!("LongTagNameNumber{i}").into_bytes()));
        let mut names = TagNames::default();
        for game in 0..4 {
            let mut oracle = HashSet::new();
            names.clear();
            // A walk through the pool that comes back to names, differently each game.
            for step in 0..(pool.len() * 2) {
                let name = &pool[(step * (game * 2 + 3) + step / 7) % pool.len()];
                let expected = oracle.insert(name.clone());
                assert_eq!(names.insert(name), expected, "game {game}, step {step}");
            }
        }
    }
}
