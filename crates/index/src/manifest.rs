//! `index.json`: what an index holds — its game, its segments and the inputs it has read.
//!
//! It is the one file that changes: a build or an append writes its segment first, then a
//! new manifest beside the old one and renames it over it. A run killed before the rename
//! leaves the previous manifest, which names only complete segments, so the index answers
//! as before; files no manifest names are removed by the next run.

use std::fs;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::IndexError;

/// The manifest's name in an index folder.
pub const MANIFEST: &str = "index.json";

/// How a manifest being written is named (then `….partial`).
pub(crate) const STRAY_PREFIX: &str = "index.json.";

/// What the `format` field says.
const FORMAT_NAME: &str = "notate position index";

/// The version of the index's layout (the manifest and the segments' tables): an index of
/// another version is refused with a message saying to build it again.
pub const FORMAT_VERSION: u64 = 2;

/// An index's manifest.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Manifest {
    /// Always "notate position index".
    pub format: String,
    /// [`FORMAT_VERSION`] of the program that wrote it.
    pub version: u64,
    /// `chess` or `draughts`.
    pub game: String,
    /// Whether the positions of variations are indexed, not the main lines' alone.
    #[serde(default)]
    pub variations: bool,
    /// The segments, in order of their games.
    pub segments: Vec<SegmentEntry>,
    /// Every input read, in order: a game's record names its input by its place here.
    pub sources: Vec<SourceEntry>,
}

/// A segment as the manifest lists it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct SegmentEntry {
    /// Its file, in the index folder.
    pub file: String,
    /// The id of its first game.
    pub first_game: u32,
    /// How many games it holds.
    pub games: u64,
    /// The place of its first input in the list of inputs (its games name their inputs
    /// from there).
    pub first_source: u32,
}

/// An input as the manifest lists it: where it was, and what tells it apart from another
/// file (its size and a hash of its first and last mebibyte).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct SourceEntry {
    /// Its path as given (made absolute), `-` for standard input.
    pub path: String,
    /// Its size in bytes (on disk, before any decompression).
    pub size: u64,
    /// XXH3 of its first mebibyte, in hexadecimal.
    pub head: String,
    /// XXH3 of its last mebibyte, in hexadecimal.
    pub tail: String,
    /// How many games were read from it.
    pub games: u64,
    /// The game type its draughts games without a `GameType` tag were read as
    /// (`--variant`), to read them the same way again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// The bytes of the file its games were read from, when only a range of it was read
    /// (`notate index --range`: a shard); `None` for the whole file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<SourceRange>,
    /// The games' rulesets (chess: `chess`, `crazyhouse`, … as a `Variant` tag names
    /// them) or game types (draughts, as a `GameType` tag writes them), each once, in
    /// order; `None` in an index built before they were recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kinds: Option<Vec<String>>,
}

/// The part of a file a shard read: the games that begin in the bytes `start..end`
/// (as `notate parquet --range` reads them), and how many games of the file come before
/// them, by which their numbers in the range become their numbers in the file.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct SourceRange {
    /// The range's first byte.
    pub start: u64,
    /// One past its last byte (at most the file's size).
    pub end: u64,
    /// The games of the file before the range's: known for a range that starts the file
    /// (0), else once the shards of the whole file are merged (`None` until then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games_before: Option<u64>,
}

impl SourceEntry {
    /// Whether two entries are the same file's (by content, wherever it is now).
    pub fn same_file(&self, other: &SourceEntry) -> bool {
        self.path != "-"
            && other.path != "-"
            && self.size == other.size
            && self.head == other.head
            && self.tail == other.tail
    }

    /// The games of the file before this entry's, by which the numbers its games have
    /// in what was read become their numbers in the file: 0 for a whole file; `None` for
    /// a shard's range whose place in the file is not known yet (not merged).
    pub fn games_before(&self) -> Option<u64> {
        match &self.range {
            None => Some(0),
            Some(range) => range.games_before,
        }
    }
}

/// The entry of an input file as it is now (with no games yet); `None` for standard
/// input.
pub fn fingerprint(path: &Path) -> io::Result<SourceEntry> {
    const MIB: u64 = 1 << 20;
    let mut file = fs::File::open(path)?;
    let size = file.metadata()?.len();
    let mut buffer = Vec::new();
    (&mut file).take(MIB).read_to_end(&mut buffer)?;
    let head = xxhash_rust::xxh3::xxh3_64(&buffer);
    buffer.clear();
    file.seek(SeekFrom::Start(size.saturating_sub(MIB)))?;
    file.take(MIB).read_to_end(&mut buffer)?;
    let tail = xxhash_rust::xxh3::xxh3_64(&buffer);
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    Ok(SourceEntry {
        path: absolute.display().to_string(),
        size,
        head: format!("{head:016x}"),
        tail: format!("{tail:016x}"),
        games: 0,
        variant: None,
        range: None,
        kinds: None,
    })
}

impl Manifest {
    /// An empty manifest for a game.
    pub fn new(game: &str) -> Manifest {
        Manifest {
            format: FORMAT_NAME.to_owned(),
            version: FORMAT_VERSION,
            game: game.to_owned(),
            variations: false,
            segments: Vec::new(),
            sources: Vec::new(),
        }
    }

    /// The number of games in the index.
    pub fn games(&self) -> u64 {
        self.segments.iter().map(|s| s.games).sum()
    }

    /// Reads the manifest of the index in `dir`.
    ///
    /// # Errors
    /// [`IndexError::NotAnIndex`] without one, [`IndexError::Version`] for one of
    /// another version, [`IndexError::Damaged`] for one that does not read.
    pub fn load(dir: &Path) -> Result<Manifest, IndexError> {
        let path = dir.join(MANIFEST);
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(IndexError::NotAnIndex {
                    path: dir.to_owned(),
                });
            }
            Err(e) => return Err(IndexError::io(&path, e)),
        };
        #[derive(Deserialize)]
        struct Head {
            format: String,
            version: u64,
        }
        let damaged = |e: serde_json::Error| IndexError::Damaged {
            path: path.clone(),
            what: e.to_string(),
        };
        let head: Head = serde_json::from_str(&text).map_err(damaged)?;
        if head.format != FORMAT_NAME {
            return Err(IndexError::Damaged {
                path: path.clone(),
                what: format!("its format is {:?}, not {FORMAT_NAME:?}", head.format),
            });
        }
        if head.version != FORMAT_VERSION {
            return Err(IndexError::Version {
                path,
                found: head.version,
                expected: FORMAT_VERSION,
            });
        }
        let manifest: Manifest = serde_json::from_str(&text).map_err(damaged)?;
        let mut next = 0_u64;
        for segment in &manifest.segments {
            if u64::from(segment.first_game) != next
                || segment.file.contains(['/', '\\'])
                || segment.file.starts_with('.')
            {
                return Err(IndexError::Damaged {
                    path,
                    what: format!("segment {:?} is out of place", segment.file),
                });
            }
            next += segment.games;
        }
        Ok(manifest)
    }

    /// Writes the manifest into `dir`: to a temporary file, synced, then renamed over the
    /// manifest there, and the folder synced, so that a crash leaves one or the other.
    pub fn store(&self, dir: &Path) -> Result<(), IndexError> {
        let path = dir.join(MANIFEST);
        let text = serde_json::to_string_pretty(self).map_err(|e| IndexError::Damaged {
            path: path.clone(),
            what: e.to_string(),
        })?;
        let io = |e| IndexError::io(&path, e);
        // Named so that the next run knows it for one a killed run left, and removes it.
        let mut file = tempfile::Builder::new()
            .prefix(STRAY_PREFIX)
            .suffix(".partial")
            .tempfile_in(dir)
            .map_err(io)?;
        file.write_all(text.as_bytes()).map_err(io)?;
        file.write_all(b"\n").map_err(io)?;
        // A temporary file is made readable by its owner alone; the manifest is read by
        // whoever may read the index.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            file.as_file()
                .set_permissions(fs::Permissions::from_mode(0o644))
                .map_err(io)?;
        }
        file.as_file().sync_all().map_err(io)?;
        file.persist(&path).map_err(|e| io(e.error))?;
        sync_dir(dir)
    }

    /// The paths of the segments, in order.
    pub fn segment_paths(&self, dir: &Path) -> Vec<PathBuf> {
        self.segments.iter().map(|s| dir.join(&s.file)).collect()
    }
}

/// Syncs a folder, so that a rename in it is on disk.
pub(crate) fn sync_dir(dir: &Path) -> Result<(), IndexError> {
    fs::File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|e| IndexError::io(dir, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_round_trips_and_a_foreign_one_is_refused() {
        let dir = tempfile::tempdir().expect("a folder");
        assert!(matches!(
            Manifest::load(dir.path()),
            Err(IndexError::NotAnIndex { .. })
        ));
        let mut manifest = Manifest::new("chess");
        manifest.segments.push(SegmentEntry {
            file: "segment-000001.seg".into(),
            first_game: 0,
            games: 10,
            first_source: 0,
        });
        manifest.store(dir.path()).expect("written");
        assert_eq!(Manifest::load(dir.path()).expect("read"), manifest);

        let text = fs::read_to_string(dir.path().join(MANIFEST)).expect("read");
        fs::write(
            dir.path().join(MANIFEST),
            text.replace("\"version\": 2", "\"version\": 99"),
        )
        .expect("written");
        assert!(matches!(
            Manifest::load(dir.path()),
            Err(IndexError::Version { found: 99, .. })
        ));
        fs::write(dir.path().join(MANIFEST), &text[..text.len() / 2]).expect("written");
        assert!(matches!(
            Manifest::load(dir.path()),
            Err(IndexError::Damaged { .. })
        ));
        fs::write(
            dir.path().join(MANIFEST),
            text.replace("segment-000001", "../x"),
        )
        .expect("written");
        assert!(matches!(
            Manifest::load(dir.path()),
            Err(IndexError::Damaged { .. })
        ));
    }

    #[test]
    fn a_shard_s_range_says_how_many_games_come_before_it_once_known() {
        let file = tempfile::NamedTempFile::new().expect("a file");
        fs::write(file.path(), b"1. e4 *\n").expect("written");
        let mut entry = fingerprint(file.path()).expect("a fingerprint");
        assert_eq!(entry.games_before(), Some(0), "a whole file");
        entry.range = Some(SourceRange {
            start: 4,
            end: 8,
            games_before: None,
        });
        assert_eq!(entry.games_before(), None, "a range not merged yet");
        let whole = fingerprint(file.path()).expect("a fingerprint");
        assert!(entry.same_file(&whole), "a range is of its file");
        let mut manifest = Manifest::new("chess");
        manifest.sources.push(entry.clone());
        let dir = tempfile::tempdir().expect("a folder");
        manifest.store(dir.path()).expect("written");
        assert_eq!(Manifest::load(dir.path()).expect("read"), manifest);
        let text = fs::read_to_string(dir.path().join(MANIFEST)).expect("read");
        assert!(
            text.contains("\"start\": 4") && !text.contains("games_before"),
            "{text}"
        );
        if let Some(range) = &mut entry.range {
            range.games_before = Some(3);
        }
        assert_eq!(entry.games_before(), Some(3), "merged");
    }
}
