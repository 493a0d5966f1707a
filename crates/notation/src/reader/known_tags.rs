//! The dialect's known tag names, looked up as a tag's name is read: whether a name is
//! written as a known one, and which known name one written in another case is.

/// Known tag names grouped by length, in their order within each length, so that a
/// name is compared only with the names it could equal.
pub(super) struct KnownTags {
    /// The names, stably sorted by length.
    names: Vec<&'static [u8]>,
    /// `starts[n]`: the index of the first name of length `n` or more.
    starts: Vec<usize>,
    /// The names by [`fold_hash`].
    buckets: Vec<Vec<&'static [u8]>>,
}

const TAG_BUCKETS: usize = 128;

/// A hash of a name that ignores ASCII case, into `0..TAG_BUCKETS`: its length and its
/// first and last bytes tell the known names well enough apart, at the cost of no loop.
#[inline]
fn fold_hash(name: &[u8]) -> usize {
    match name {
        [first, .., last] => {
            (name.len() + 3 * usize::from(first | 0x20) + 7 * usize::from(last | 0x20))
                % TAG_BUCKETS
        }
        [only] => usize::from(only | 0x20) % TAG_BUCKETS,
        [] => 0,
    }
}

impl KnownTags {
    pub(super) fn new(known: &'static [&'static str]) -> KnownTags {
        let mut names: Vec<&'static [u8]> = known.iter().map(|k| k.as_bytes()).collect();
        names.sort_by_key(|k| k.len());
        let longest = names.last().map_or(0, |k| k.len());
        let starts = (0..=longest + 1)
            .map(|n| names.partition_point(|k| k.len() < n))
            .collect();
        let mut buckets = vec![Vec::new(); TAG_BUCKETS];
        for &k in &names {
            buckets[fold_hash(k)].push(k);
        }
        KnownTags {
            names,
            starts,
            buckets,
        }
    }

    /// Whether `name` is a known name exactly as written: most names are, and then no
    /// case needs correcting. One bucket of a case-folded hash holds every candidate.
    #[inline]
    pub(super) fn written_as_known(&self, name: &[u8]) -> bool {
        self.buckets[fold_hash(name)].contains(&name)
    }

    /// The known names of length `len`.
    pub(super) fn of_len(&self, len: usize) -> &[&'static [u8]] {
        match (self.starts.get(len), self.starts.get(len + 1)) {
            (Some(&from), Some(&to)) => &self.names[from..to],
            _ => &[],
        }
    }
}
