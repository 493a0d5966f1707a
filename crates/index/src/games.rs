//! The games an index points to, read again from their files: what `find -o` writes.
//!
//! A file is checked first against what the index recorded of it (its size and the hashes
//! of its first and last mebibyte), and each game against its recorded offset, so that a
//! file changed since it was indexed gives an error, never other games.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

use collection::input::{self, Source};
use collection::rules::FormatRules;
use notation::{GameReader, KeepRaw, ReadOptions};

use crate::error::IndexError;
use crate::manifest;
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
        let now = manifest::fingerprint(&path).map_err(|e| IndexError::io(&path, e))?;
        if !now.same_file(entry) {
            return Err(IndexError::Input(format!(
                "{}: changed since it was indexed; index it again",
                entry.path
            )));
        }
        let source = Source {
            path: Some(path.clone()),
            name: entry.path.clone(),
        };
        let opened = input::open(&source, None, |_| {}).map_err(|e| IndexError::io(&path, e))?;
        written += match index.game() {
            Game::Chess => copy(&collection::rules::chess(), opened, &numbers, &path, out)?,
            Game::Draughts => copy(
                &collection::rules::draughts(
                    entry
                        .variant
                        .as_deref()
                        .and_then(|v| collection::rules::parse_game_type(v).ok()),
                ),
                opened,
                &numbers,
                &path,
                out,
            )?,
        };
    }
    Ok(written)
}

/// Writes the games of `numbers` (ascending, with their offsets) from an opened file.
fn copy<R: FormatRules>(
    rules: &R,
    opened: input::Opened,
    numbers: &[(u64, u64)],
    path: &std::path::Path,
    out: &mut dyn Write,
) -> Result<u64, IndexError> {
    let io = |e| IndexError::io(path, e);
    let mut reader =
        GameReader::new(rules, opened.reader, ReadOptions::default()).keep_raw(KeepRaw::OnError);
    let options = rules.write_options();
    let mut next = numbers.iter().peekable();
    let mut written = 0;
    let mut text = String::new();
    while let Some(&&(number, offset)) = next.peek() {
        let Some(read) = reader.read_game().map_err(io)? else {
            break;
        };
        if read.index < number {
            continue;
        }
        next.next();
        if read.index != number || read.span.start != offset {
            break;
        }
        match (&read.raw, read.has_errors()) {
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
