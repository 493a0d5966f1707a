//! The games an index points to, read again from their files: what `find -o` writes.
//!
//! A file is checked first against what the index recorded of it (its size and the hashes
//! of its first and last mebibyte), and each game against its recorded offset, so that a
//! file changed since it was indexed gives an error, never other games.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use collection::input::{self, Source};
use collection::rules::FormatRules;
use notation::{GameReader, KeepRaw, ReadOptions};

use crate::error::IndexError;
use crate::manifest::{self, SourceEntry};
use crate::query::Index;
use crate::record::GameId;
use crate::rules::Game;

/// Writes the games, in the order they were indexed, each as `notate fmt` writes it (a
/// game with an error as it was written). Returns how many were written.
///
/// # Errors
/// A file that is gone or has changed since it was indexed, standard input (which cannot
/// be read again), or `out` that cannot be written.
pub fn write_games(
    index: &Index,
    games: &[GameId],
    out: &mut dyn Write,
) -> Result<u64, IndexError> {
    write_games_as(index, games, Written::Export, out)
}

/// How a game is written: in the export format, or as its file holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// As `notate fmt` writes it (a game with an error as it was written).
    Export,
    /// Its bytes as its file holds them (after any decompression).
    AsInFile,
}

fn write_games_as(
    index: &Index,
    games: &[GameId],
    written_as: Written,
    out: &mut dyn Write,
) -> Result<u64, IndexError> {
    // By file (the shards' ranges of a file as one, under its first), then by number in
    // the file.
    let sources = index.sources();
    let first_of_file: Vec<usize> = (0..sources.len())
        .map(|i| {
            (0..i)
                .find(|&j| sources[j].same_file(&sources[i]))
                .unwrap_or(i)
        })
        .collect();
    let mut wanted: BTreeMap<usize, Vec<(u64, u64)>> = BTreeMap::new();
    for &id in games {
        let record = index.record(id)?;
        let source = record.source as usize;
        let entry = sources.get(source).ok_or_else(|| IndexError::Damaged {
            path: index.dir().to_owned(),
            what: format!("a game names input {source}, which it does not list"),
        })?;
        let before = entry.games_before().unwrap_or(0);
        wanted
            .entry(first_of_file[source])
            .or_default()
            .push((before + record.number, record.offset));
    }
    let mut written = 0;
    for (source, mut numbers) in wanted {
        numbers.sort_unstable();
        numbers.dedup();
        let entry = &sources[source];
        if entry.path == "-" {
            return Err(IndexError::Input(
                "some games were read from standard input, which cannot be read again".into(),
            ));
        }
        let path = PathBuf::from(&entry.path);
        index.check_file(&path, entry)?;
        let source = Source {
            path: Some(path.clone()),
            name: entry.path.clone(),
        };
        let opened = input::open(&source, None, |_| {}).map_err(|e| IndexError::io(&path, e))?;
        let numbered = Numbered {
            numbers: &numbers,
            from: (0, 0),
        };
        written += copy_in_rules(
            index,
            entry,
            opened.reader,
            numbered,
            written_as,
            &path,
            out,
        )?;
    }
    Ok(written)
}

/// Writes one game, in the export format or as its file holds it. A file neither
/// compressed nor a table is read from the game's offset (a game deep in a large file
/// comes at once), any other from its start.
///
/// # Errors
/// As [`write_games`].
pub fn write_game(
    index: &Index,
    id: GameId,
    written_as: Written,
    out: &mut dyn Write,
) -> Result<(), IndexError> {
    let record = index.record(id)?;
    let entry = index
        .sources()
        .get(record.source as usize)
        .ok_or_else(|| IndexError::Damaged {
            path: index.dir().to_owned(),
            what: format!(
                "a game names input {}, which it does not list",
                record.source
            ),
        })?;
    if entry.path == "-" {
        return write_games_as(index, &[id], written_as, out).map(|_| ());
    }
    let path = PathBuf::from(&entry.path);
    let io = |e| IndexError::io(&path, e);
    if !input::is_read_as_is(&path).map_err(io)? {
        return write_games_as(index, &[id], written_as, out).map(|_| ());
    }
    let mut file = File::open(&path).map_err(io)?;
    index.check_file(&path, entry)?;
    let number = entry.games_before().unwrap_or(0) + record.number;
    file.seek(SeekFrom::Start(record.offset)).map_err(io)?;
    let reader = BufReader::with_capacity(1 << 16, file);
    let at = (number, record.offset);
    let numbered = Numbered {
        numbers: &[at],
        from: at,
    };
    copy_in_rules(index, entry, reader, numbered, written_as, &path, out).map(|_| ())
}

/// The games wanted of a file, by number and offset (ascending), and the number and
/// offset of the game its reading starts with.
#[derive(Clone, Copy)]
struct Numbered<'a> {
    numbers: &'a [(u64, u64)],
    from: (u64, u64),
}

/// [`copy`] in the rules of the index's game (for draughts, the game type the input was
/// read as).
fn copy_in_rules(
    index: &Index,
    entry: &manifest::SourceEntry,
    reader: impl Read,
    numbered: Numbered<'_>,
    written_as: Written,
    path: &Path,
    out: &mut dyn Write,
) -> Result<u64, IndexError> {
    match index.game() {
        Game::Chess => copy(
            &collection::rules::chess(),
            reader,
            numbered,
            written_as,
            path,
            out,
        ),
        Game::Draughts => copy(
            &collection::rules::draughts(
                entry
                    .variant
                    .as_deref()
                    .and_then(|v| collection::rules::parse_game_type(v).ok()),
            ),
            reader,
            numbered,
            written_as,
            path,
            out,
        ),
    }
}

/// Writes the games wanted from a file's text.
fn copy<R: FormatRules>(
    rules: &R,
    input: impl Read,
    Numbered { numbers, from }: Numbered<'_>,
    written_as: Written,
    path: &Path,
    out: &mut dyn Write,
) -> Result<u64, IndexError> {
    let io = |e| IndexError::io(path, e);
    let keep = match written_as {
        Written::Export => KeepRaw::OnError,
        Written::AsInFile => KeepRaw::Always,
    };
    let mut reader = GameReader::new(rules, input, ReadOptions::default()).keep_raw(keep);
    let options = rules.write_options();
    let mut next = numbers.iter().peekable();
    let mut written = 0;
    let mut text = String::new();
    while let Some(&&(number, offset)) = next.peek() {
        let Some(read) = reader.read_game().map_err(io)? else {
            break;
        };
        let (index, start) = (read.index + from.0, read.span.start + from.1);
        if index < number {
            continue;
        }
        next.next();
        if index != number || start != offset {
            break;
        }
        match (
            &read.raw,
            read.has_errors() || written_as == Written::AsInFile,
        ) {
            (Some(raw), true) => {
                out.write_all(raw).map_err(io)?;
                if !raw.ends_with(b"\n\n") {
                    out.write_all(if raw.ends_with(b"\n") { b"\n" } else { b"\n\n" })
                        .map_err(io)?;
                }
            }
            _ => {
                text.clear();
                notation::write_game(rules, &read.game, &options, &mut text).map_err(|e| {
                    IndexError::Input(format!(
                        "{}: game {}: cannot be written: {e}",
                        path.display(),
                        number + 1
                    ))
                })?;
                out.write_all(text.as_bytes()).map_err(io)?;
            }
        }
        written += 1;
    }
    if next.peek().is_some() {
        return Err(IndexError::Input(format!(
            "{}: does not hold the games the index recorded; index it again",
            path.display()
        )));
    }
    Ok(written)
}

impl Index {
    /// Checks that the file at `path` is the input `entry` recorded (its size and the
    /// hashes of its first and last mebibyte). A file found so is not hashed again while
    /// its size and modification time stay the same: `serve` reads a game at a time, and
    /// hashing two mebibytes for each took a fifth of its work.
    fn check_file(&self, path: &Path, entry: &SourceEntry) -> Result<(), IndexError> {
        let io = |e| IndexError::io(path, e);
        let metadata = std::fs::metadata(path).map_err(io)?;
        let stamp = (metadata.len(), metadata.modified().ok());
        let mut checked = self
            .checked_files
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if checked.get(path) == Some(&stamp) {
            return Ok(());
        }
        let now = manifest::fingerprint(path).map_err(io)?;
        if !now.same_file(entry) {
            return Err(IndexError::Input(format!(
                "{}: changed since it was indexed; index it again",
                entry.path
            )));
        }
        checked.insert(path.to_owned(), stamp);
        Ok(())
    }
}
