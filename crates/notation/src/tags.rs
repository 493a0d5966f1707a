//! Tag pairs in file order.

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
        self.pairs.iter().find(|t| t.name == name)
    }

    /// Whether a tag with this name is present.
    pub fn contains(&self, name: &str) -> bool {
        self.find(name).is_some()
    }

    /// Sets a tag's value, replacing the first one of that name or appending a new one.
    pub fn set(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.pairs.iter_mut().find(|t| t.name == name) {
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
