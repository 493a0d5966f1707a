//! `notate select` over some games of each input only, the others passed over unread:
//! the games a position index found (`notate select --index`), each judged and written
//! exactly as the scan of the whole inputs judges and writes it.
//!
//! An input is cut into the chunks `select --jobs N` reads ([`Splitter`]: the
//! same cuts, at game boundaries, with the lines and bytes before each), and only the
//! chunks that hold a picked game are read, each as a file of its own: a game is known by
//! the offset of its first byte, which the whole read gives too. The others are cut and
//! passed over, and the input is read no further than its last picked game.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, Write};

use notation::{ReadGame, ReadOptions};

use super::{Boards, Criteria, Selection, Tally};
use crate::fmt::{Emitter, FmtTask, Inspect, Item};
use crate::input::Format;
use crate::job::{Ended, Job, Stopped, with_rules};
use crate::pipeline::{CHUNK_BYTES, Input, Splitter, Task};
use crate::rules::FormatRules;

/// The games of one input to read: the offset of each one's first byte in the input's
/// text (after any decompression), with its number in the input (from 0).
pub type Picked = BTreeMap<u64, u64>;

/// What [`run`] did: the scan's tally of the games it read, and how many games were
/// picked but not found where they were said to be.
#[derive(Debug, Default)]
pub struct PickedTally {
    /// The games read, as `select` counts them.
    pub tally: Tally,
    /// Picked games met at their offsets.
    pub found: u64,
    /// Picked games not met: the input is not as it was when they were picked.
    pub missing: u64,
}

/// Writes the games of `picked` (one map per input of the job, in its order) that match
/// every criterion to `out`, as [`super::run`] writes them (without `--invert` and
/// `--rejects`, which need every game), the other games of the inputs passed over unread.
/// A picked game that cannot be read is reported as the scan reports it; an input that
/// does not hold a picked game at its offset is an error of that input. Says the tally
/// (`N of M games selected`, M the inputs' `games` as the caller counted them) as a
/// warning at the end.
///
/// # Errors
/// [`Stopped::Closed`] when whoever reads the output went away.
pub fn run(
    job: &mut Job<'_>,
    criteria: &Criteria,
    out: &mut dyn Write,
    picked: &[Picked],
    games: u64,
) -> Result<(Ended, PickedTally), Stopped> {
    run_in_chunks(job, criteria, out, picked, games, CHUNK_BYTES)
}

/// [`run`], the inputs cut into chunks of about `chunk_bytes`.
fn run_in_chunks(
    job: &mut Job<'_>,
    criteria: &Criteria,
    out: &mut dyn Write,
    picked: &[Picked],
    games: u64,
    chunk_bytes: usize,
) -> Result<(Ended, PickedTally), Stopped> {
    let mut done = PickedTally {
        tally: Tally {
            wants_errors: criteria.wants_errors(),
            ..Tally::default()
        },
        ..PickedTally::default()
    };
    let mut noted = [false; 2];
    let mut inputs = picked.iter();
    job.each(|source, opened, job| {
        let Some(wanted) = inputs.next().filter(|w| !w.is_empty()) else {
            return Ok(());
        };
        let name = source.placed(opened.rows);
        let rows = opened.rows;
        let found_before = done.found;
        with_rules!(opened.format, job.variant, |rules| {
            let selection = Selection::new(rules, criteria, false);
            let note = &mut noted[usize::from(opened.format == Format::Pdn)];
            if !*note {
                for why in selection.unreadable().into_iter().flatten() {
                    job.report.warning(&format!(
                        "{why}: no {} game matches it",
                        match opened.format {
                            Format::Pgn => "PGN",
                            Format::Pdn => "PDN",
                        }
                    ));
                }
                *note = true;
            }
            let read = ReadOptions::default();
            let write = rules.write_options();
            let mut emitter = Emitter::new(&mut *out, None, rules, read, write);
            let mut splitter = Splitter::new(opened.reader, chunk_bytes).placed_by_row(rows);
            let last = wanted.keys().next_back().copied().unwrap_or(0);
            let mut buffer = Vec::new();
            while let Some(mut chunk) = splitter.next_chunk_in(std::mem::take(&mut buffer))? {
                let start = chunk.origin.offset;
                let end = start + chunk.bytes.len() as u64;
                if wanted.range(start..end).next().is_some() {
                    let task = FmtTask {
                        rules,
                        read,
                        write,
                        inspect: Picking {
                            selection: &selection,
                            wanted,
                            at: start,
                        },
                    };
                    let input = Input {
                        bytes: &mut chunk.bytes,
                        rest: None,
                        cut_short: chunk.cut_short,
                        unseparated: chunk.unseparated,
                        rows,
                    };
                    task.run(input, chunk.origin, &mut |item| {
                        let (picked, item) = item.take_verdict();
                        // Not picked, or no game (text between games, said by the scan).
                        let Some((matched, number)) = picked else {
                            return Ok(());
                        };
                        done.found += 1;
                        let item = Item {
                            index: item.index,
                            text: item.text,
                            fate: item.fate,
                            orphans: item.orphans,
                            verdict: matched,
                        };
                        let before = number.saturating_sub(item.index);
                        done.tally
                            .emit(item, &mut emitter, before, name, &mut job.say())
                    })?;
                }
                buffer = chunk.bytes;
                if end > last {
                    break;
                }
            }
            Ok::<(), io::Error>(())
        })?;
        let found = done.found - found_before;
        if found < wanted.len() as u64 {
            let missing = wanted.len() as u64 - found;
            done.missing += missing;
            return Err(io::Error::other(format!(
                "{missing} of the games picked are not where they were said to be: \
                 the file changed since"
            )));
        }
        Ok(())
    })?;
    job.flush(out)?;
    let t = &done.tally;
    let mut line = format!(
        "{} of {games} games selected ({} found by the index, read again)",
        t.written, t.games
    );
    if t.unreadable > 0 {
        let _ = write!(line, "; {} could not be read", t.unreadable);
    }
    if t.lost > 0 {
        let _ = write!(line, "; {} too large to hold, left out", t.lost);
    }
    job.report.warning(&line);
    Ok((job.ended(t.unreadable + t.lost > 0), done))
}

/// The criteria, asked only of the picked games of a chunk that starts at `at`: the
/// verdict is `None` for a game not picked, else whether it matches and its number in
/// the input.
struct Picking<'s, 'c, G: Boards> {
    selection: &'s Selection<'c, G>,
    wanted: &'s Picked,
    at: u64,
}

impl<G: Boards> Inspect<G> for Picking<'_, '_, G> {
    type Verdict = Option<(bool, u64)>;

    fn needs_tree(&self) -> bool {
        self.selection.needs_tree()
    }

    fn inspect(&self, rules: &G, game: &mut ReadGame<G::Move>) -> Option<(bool, u64)> {
        let number = *self.wanted.get(&(self.at + game.span.start))?;
        Some((self.selection.inspect(rules, game), number))
    }

    fn wants_text(&self, verdict: &Option<(bool, u64)>) -> bool {
        matches!(verdict, Some((true, _)))
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use notation::GameReader;

    use super::*;
    use crate::input::{Source, collect};
    use crate::job::Silent;

    fn corpus() -> Vec<PathBuf> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
        let mut files = collect(&[root.join("pgn"), root.join("pdn")])
            .expect("the corpus")
            .into_iter()
            .filter_map(|s| s.path)
            .collect::<Vec<_>>();
        files.sort();
        files
    }

    /// Every game of a file: its first byte's offset and its number, as a whole read
    /// gives them.
    fn games_of(file: &Path) -> Picked {
        let bytes = std::fs::read(file).expect("the file");
        let format = if file.extension().is_some_and(|e| e == "pdn") {
            Format::Pdn
        } else {
            Format::Pgn
        };
        with_rules!(format, None, |rules| {
            GameReader::new(rules, bytes.as_slice(), ReadOptions::default())
                .map(|read| {
                    let read = read.expect("in memory");
                    (read.span.start, read.index)
                })
                .collect()
        })
    }

    fn job_of(file: &Path) -> Job<'static> {
        let source = Source {
            path: Some(file.to_owned()),
            name: file.display().to_string(),
        };
        Job::new(vec![source], 1, &Silent)
    }

    fn scanned(file: &Path, criteria: &Criteria) -> Vec<u8> {
        let mut out = Vec::new();
        super::super::run(&mut job_of(file), criteria, false, &mut out, None).expect("run");
        out
    }

    /// `run`, the file cut into chunks of 1 KiB or so (of 1 MiB, the corpus's files are
    /// one chunk each).
    fn picked(file: &Path, criteria: &Criteria, games: &Picked) -> (Vec<u8>, PickedTally) {
        let mut out = Vec::new();
        let picked = [games.clone()];
        let (_, done) =
            run_in_chunks(&mut job_of(file), criteria, &mut out, &picked, 0, 1024).expect("run");
        (out, done)
    }

    #[test]
    fn the_games_picked_are_written_as_the_scan_writes_them() {
        let every = Criteria::default();
        let with_errors = Criteria {
            errors: Some(true),
            ..Criteria::default()
        };
        for file in corpus() {
            let games = games_of(&file);
            assert!(!games.is_empty(), "{}", file.display());
            for criteria in [&every, &with_errors] {
                // All of them: the scan's output.
                let (all, done) = picked(&file, criteria, &games);
                assert_eq!(done.found, games.len() as u64, "{}", file.display());
                assert_eq!(
                    String::from_utf8_lossy(&all),
                    String::from_utf8_lossy(&scanned(&file, criteria)),
                    "{}",
                    file.display()
                );
                // One at a time: each game's part of it.
                let mut one_by_one = Vec::new();
                for (&offset, &number) in &games {
                    let one = Picked::from([(offset, number)]);
                    let (text, done) = picked(&file, criteria, &one);
                    assert_eq!((done.found, done.missing), (1, 0), "{}", file.display());
                    one_by_one.extend(text);
                }
                assert_eq!(all, one_by_one, "{}", file.display());
            }
        }
    }

    #[test]
    fn a_game_not_where_it_was_said_to_be_is_an_error_of_its_input() {
        let file = corpus()
            .into_iter()
            .find(|f| f.ends_with("generated.pgn"))
            .expect("generated.pgn");
        let games = games_of(&file);
        let (&offset, &number) = games.iter().nth(1).expect("two games");
        let wrong = Picked::from([(offset + 1, number)]);
        let mut job = job_of(&file);
        let mut out = Vec::new();
        let (ended, done) =
            run(&mut job, &Criteria::default(), &mut out, &[wrong], 0).expect("run");
        assert!(ended.failed && out.is_empty());
        assert_eq!((done.found, done.missing), (0, 1));
    }
}
