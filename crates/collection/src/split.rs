//! `notate split`: the games of the inputs into files named after a key of each game.
//!
//! The games are written as `fmt` writes them (its [`FmtTask`] and
//! [`Emitter`]), a game with an error as written, with a warning;
//! [`KeyOf`] reads each game's key in the worker, and [`SplitFiles`], the emitter's
//! output, sends each game to its key's file, in input order.
//!
//! File names: a key becomes a safe file name ([`safe_name`]); a game without a key
//! goes to `unknown`. Two keys whose safe names are the same, letter case aside
//! (`a/b` and `a_b`, `Smith` and `SMITH`, which a case-blind file system would
//! merge), do not share a file: the first one met takes the name, the next ones
//! `NAME~2`, `NAME~3`, … in input order. A key that is the word `unknown` yields to
//! the games without a key.
//!
//! The extension is the input's format: a PGN input's games go to `.pgn` files, a PDN
//! input's to `.pdn` files, never mixed. A file is created afresh (emptied) the first
//! time the run writes to it, then appended to; at most [`MAX_OPEN`] files are open at
//! once, the least recently used closed (and reopened to append) past that.
//!
//! The files appear together or not at all. Each is written to a temporary file beside
//! it ([`Staged`]), and all are renamed into place at the end of a run that read every
//! input ([`output::commit_all`]): no file is known to be whole before then, since the
//! next game may have any file's key, so a run stopped early could not say which files
//! were finished; and a set of files that all come from one complete run is what a later
//! step can trust. Until then the folder's earlier files are left as they were; a run
//! that fails, or is stopped by a signal its program handles ([`output::abandon`]),
//! removes its temporary files. The renames are not one atomic step: a process killed
//! outright (`SIGKILL`) while renaming leaves some files renamed, and no temporary file
//! of the others is renamed afterwards.

use std::collections::{HashMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use notation::{ReadGame, ReadOptions, Tags};

use crate::fmt::{Emitter, FmtTask, Inspect};
use crate::input::Format;
use crate::job::{Ended, Job, Stopped, with_rules};
use crate::output::{self, OutputError, Staged};
use crate::pipeline;
use crate::rules::FormatRules;

/// How many files are open at once: far below the usual limit of open files (1,024 on
/// Linux), with room for the inputs and the rest.
pub const MAX_OPEN: usize = 64;

/// A file name's stem is cut to this many bytes (a name has 255 at most), leaving room
/// for a `~N` suffix and the extension.
const MAX_STEM_BYTES: usize = 100;

/// The stem of the file of the games without a key.
const UNKNOWN: &str = "unknown";

/// What the games are split by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SplitBy {
    /// Files of this many games each, in input order: `1`, `2`, …
    Games(u64),
    /// A tag's value (`White`, `Event`, …): the name as written, letter case included.
    Tag(String),
    /// The first this many characters of the `ECO` tag (1, 2 or 3: `B`, `B9`, `B90`).
    Eco(usize),
    /// The year of the `Date` tag.
    Year,
}

/// Reads the value of `--by`: `eco1`, `eco2`, `eco3`, `year`, or a tag name.
pub fn parse_by(value: &str) -> Result<SplitBy, String> {
    Ok(match value {
        "eco1" => SplitBy::Eco(1),
        "eco2" => SplitBy::Eco(2),
        "eco3" => SplitBy::Eco(3),
        "year" => SplitBy::Year,
        name if name.is_empty()
            || name
                .chars()
                .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '"' | '[' | ']')) =>
        {
            return Err(format!(
                "{value:?} is not a tag name (nor eco1, eco2, eco3 or year)"
            ));
        }
        name => SplitBy::Tag(name.to_owned()),
    })
}

impl SplitBy {
    /// The key of a game with these tags; `None` when it has none (no such tag, an
    /// empty value or one of question marks only: PGN's "not known").
    pub fn key(&self, tags: &Tags) -> Option<String> {
        match self {
            SplitBy::Games(_) => None,
            SplitBy::Tag(name) => {
                let value = tags.get(name)?.trim();
                let unknown = value.chars().all(|c| c == '?');
                (!unknown).then(|| value.to_owned())
            }
            SplitBy::Eco(len) => {
                let eco = tags.get("ECO")?.trim();
                let prefix = eco.get(..*len)?;
                let mut chars = prefix.chars();
                let letter = chars.next()?.to_ascii_uppercase();
                let is_eco = ('A'..='E').contains(&letter) && chars.all(|c| c.is_ascii_digit());
                is_eco.then(|| format!("{letter}{}", &prefix[1..]))
            }
            SplitBy::Year => {
                let date = tags.get("Date")?.trim();
                let year = date.get(..4)?;
                let whole = date[4..].chars().next().is_none_or(|c| !c.is_ascii_digit());
                (whole && year.bytes().all(|b| b.is_ascii_digit())).then(|| year.to_owned())
            }
        }
    }
}

/// The inspection that reads each game's key from its tags (those of a game with an
/// error too, as far as they were read).
pub struct KeyOf<'a>(pub &'a SplitBy);

impl<G: FormatRules> Inspect<G> for KeyOf<'_> {
    type Verdict = Option<String>;

    fn inspect(&self, _: &G, read: &mut ReadGame<G::Move>) -> Option<String> {
        self.0.key(&read.game.tags)
    }

    /// A key is read from the tags alone.
    fn judges_without_tree(&self) -> bool {
        true
    }

    fn judge_without_tree(
        &self,
        tags: &Tags,
        _: notation::GameResult,
        _: &[notation::Diagnostic],
    ) -> Option<String> {
        self.0.key(tags)
    }
}

/// A key as a file name's stem: no path separators, control characters or characters
/// Windows refuses (each becomes `_`), no leading dot (a hidden file, `..`), no
/// trailing dot or space (Windows drops them), not a name Windows reserves for a device
/// (`CON`, `NUL`, `COM1`, …: prefixed with `_`), at most `MAX_STEM_BYTES` bytes.
pub fn safe_name(key: &str) -> String {
    let mut name = String::new();
    for c in key.chars() {
        let c = if c.is_control()
            || matches!(c, '/' | '\\' | '<' | '>' | ':' | '"' | '|' | '?' | '*')
        {
            '_'
        } else {
            c
        };
        if name.len() + c.len_utf8() > MAX_STEM_BYTES {
            break;
        }
        name.push(c);
    }
    let mut name = name.trim_end_matches(['.', ' ']).to_owned();
    if name.starts_with('.') {
        name.replace_range(..1, "_");
    }
    if name.is_empty() {
        return "_".to_owned();
    }
    let stem = name
        .split('.')
        .next()
        .unwrap_or("")
        .trim_end()
        .to_ascii_uppercase();
    let device = matches!(
        stem.as_str(),
        "CON" | "PRN" | "AUX" | "NUL" | "CONIN$" | "CONOUT$"
    ) || ((stem.starts_with("COM") || stem.starts_with("LPT"))
        && stem.len() == 4
        && stem.as_bytes()[3].is_ascii_digit())
        || ((stem.starts_with("COM") || stem.starts_with("LPT"))
            && matches!(&stem[3..], "¹" | "²" | "³"));
    if device {
        name.insert(0, '_');
    }
    name
}

/// One file written to.
struct Written {
    path: PathBuf,
    /// Games written to it.
    games: u64,
    /// Its temporary file, once made (the first time it is written to): it is appended
    /// to after that, and renamed over `path` at the end.
    staged: Option<Staged>,
}

/// An open file.
struct Open {
    file: usize,
    writer: BufWriter<File>,
    /// When it was last written to, for closing the least recently used.
    used: u64,
}

/// The output files of `split`: [`SplitFiles::route`] says where the next game goes,
/// and what is written goes there.
pub struct SplitFiles {
    dir: PathBuf,
    /// `--games N`: the games per file; else the files are named by the games' keys.
    games_per_file: Option<u64>,
    /// The files, in the order first chosen.
    files: Vec<Written>,
    /// The file of each key, for each extension (`None`: the games without a key).
    by_key: HashMap<(&'static str, Option<String>), usize>,
    /// The file names taken, in lower case.
    taken: HashSet<String>,
    open: Vec<Open>,
    clock: u64,
    /// The file the next game goes to.
    current: Option<usize>,
    /// Games written to each extension's files, for `--games N`.
    numbered: HashMap<&'static str, u64>,
}

impl SplitFiles {
    /// Files in `dir` (which exists), for games split `by`.
    pub fn new(dir: PathBuf, by: &SplitBy) -> SplitFiles {
        SplitFiles {
            dir,
            games_per_file: match by {
                SplitBy::Games(n) => Some((*n).max(1)),
                _ => None,
            },
            files: Vec::new(),
            by_key: HashMap::new(),
            taken: HashSet::new(),
            open: Vec::new(),
            clock: 0,
            current: None,
            numbered: HashMap::new(),
        }
    }

    /// Sends the next game, of a file of extension `ext` (`pgn`, `pdn`), to its key's
    /// file (or, with `--games N`, to the numbered file it falls in). Nothing is
    /// opened until something is written.
    pub fn route(&mut self, ext: &'static str, key: Option<String>) {
        let key = match self.games_per_file {
            Some(per_file) => {
                let before = self.numbered.get(ext).copied().unwrap_or(0);
                Some((before / per_file + 1).to_string())
            }
            None => key,
        };
        let file = match self.by_key.get(&(ext, key.clone())) {
            Some(&file) => file,
            None => {
                let name = self.name_for(ext, key.as_deref());
                self.files.push(Written {
                    path: self.dir.join(name),
                    games: 0,
                    staged: None,
                });
                let file = self.files.len() - 1;
                self.by_key.insert((ext, key), file);
                file
            }
        };
        self.current = Some(file);
    }

    /// Counts a game as written to the file [`route`](SplitFiles::route) chose.
    pub fn count_game(&mut self, ext: &'static str) {
        if let Some(file) = self.current {
            self.files[file].games += 1;
            *self.numbered.entry(ext).or_insert(0) += 1;
        }
    }

    /// A file name not taken for a key, `unknown` for none (kept for it whether or not
    /// a game without a key comes first).
    fn name_for(&mut self, ext: &str, key: Option<&str>) -> String {
        let stem = match key {
            Some(key) => safe_name(key),
            None => UNKNOWN.to_owned(),
        };
        let unknown = format!("{UNKNOWN}.{ext}");
        let mut candidate = format!("{stem}.{ext}");
        let mut suffix = 1;
        loop {
            let lower = candidate.to_lowercase();
            let reserved = key.is_some() && lower == unknown;
            if !reserved && self.taken.insert(lower) {
                return candidate;
            }
            suffix += 1;
            candidate = format!("{stem}~{suffix}.{ext}");
        }
    }

    /// The chosen file's place in `open`, opened (its temporary file created the first
    /// time, else appended to), the least recently used closed when too many are open.
    fn writer(&mut self) -> io::Result<usize> {
        let Some(file) = self.current else {
            return Err(io::Error::other(
                "a game was written before its file was chosen",
            ));
        };
        self.clock += 1;
        let position = match self.open.iter().position(|open| open.file == file) {
            Some(position) => position,
            None => {
                if self.open.len() >= MAX_OPEN
                    && let Some(oldest) = (0..self.open.len()).min_by_key(|&i| self.open[i].used)
                {
                    let mut closed = self.open.swap_remove(oldest);
                    closed
                        .writer
                        .flush()
                        .map_err(|e| write_error(&self.files[closed.file].path, e))?;
                }
                let written = &mut self.files[file];
                let handle = match &written.staged {
                    Some(staged) => OpenOptions::new()
                        .append(true)
                        .open(staged.temp_path())
                        .map_err(|e| write_error(&written.path, e))?,
                    None => {
                        let (staged, handle) =
                            Staged::beside(&written.path).map_err(OutputError::into_io)?;
                        written.staged = Some(staged);
                        handle
                    }
                };
                self.open.push(Open {
                    file,
                    writer: BufWriter::with_capacity(1 << 16, handle),
                    used: 0,
                });
                self.open.len() - 1
            }
        };
        self.open[position].used = self.clock;
        Ok(position)
    }

    /// Flushes and closes every file, and renames them all into place together; gives
    /// each file written with its games, in the order first written. Dropped instead,
    /// the files are removed and the folder left as it was.
    ///
    /// # Errors
    /// A file that cannot be written or renamed: the files not in place are removed.
    pub fn finish(mut self) -> Result<Vec<(PathBuf, u64)>, OutputError> {
        for mut open in self.open.drain(..) {
            let path = &self.files[open.file].path;
            open.writer.flush().map_err(|source| OutputError::Write {
                path: path.clone(),
                source,
            })?;
        }
        let mut report = Vec::new();
        let mut staged = Vec::new();
        for file in self.files {
            if let Some(done) = file.staged {
                staged.push(done);
                report.push((file.path, file.games));
            }
        }
        output::commit_all(staged)?;
        Ok(report)
    }
}

/// A write error of a file, naming it.
fn write_error(path: &Path, source: io::Error) -> io::Error {
    OutputError::Write {
        path: path.to_owned(),
        source,
    }
    .into_io()
}

impl Write for SplitFiles {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let position = self.writer()?;
        let open = &mut self.open[position];
        let path = &self.files[open.file].path;
        open.writer.write(buf).map_err(|e| write_error(path, e))
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        let position = self.writer()?;
        let open = &mut self.open[position];
        let path = &self.files[open.file].path;
        open.writer.write_all(buf).map_err(|e| write_error(path, e))
    }

    fn flush(&mut self) -> io::Result<()> {
        for open in &mut self.open {
            let path = &self.files[open.file].path;
            open.writer.flush().map_err(|e| write_error(path, e))?;
        }
        Ok(())
    }
}

/// Makes `out_dir` for `split` when it does not exist.
///
/// # Errors
/// A message naming the folder: it exists and is not a folder, or cannot be made.
pub fn prepare_out_dir(out_dir: &Path) -> Result<(), String> {
    match std::fs::metadata(out_dir) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => Err(format!(
            "{}: --out-dir exists and is not a folder",
            out_dir.display()
        )),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            std::fs::create_dir_all(out_dir).map_err(|e| format!("{}: {e}", out_dir.display()))
        }
        Err(e) => Err(format!("{}: {e}", out_dir.display())),
    }
}

/// `notate split`: writes the games of the job's inputs into files of `out_dir` named
/// after each game's key (`by`), in input order, renames them into place together when
/// every input was read (else removes them: see the module's documentation), and then
/// writes each file with its number of games and a summary line to `out`. A game that cannot be read goes to its
/// key's file as written, with a warning. The job's games have errors when one could not
/// be read, or was too large to hold.
///
/// # Errors
/// [`Stopped::Closed`] when whoever reads `out` went away; [`Stopped::Failed`] when a file
/// cannot be written (reported: no file is put in place).
pub fn run(
    job: &mut Job<'_>,
    out_dir: PathBuf,
    by: &SplitBy,
    out: &mut dyn Write,
) -> Result<Ended, Stopped> {
    let out_dir_name = out_dir.clone();
    let mut files = SplitFiles::new(out_dir, by);
    let (mut written, mut unreadable, mut lost) = (0, 0, 0);
    job.each(|source, opened, job| {
        let input = source.placed(opened.rows);
        let ext = match opened.format {
            Format::Pgn => "pgn",
            Format::Pdn => "pdn",
        };
        with_rules!(opened.format, job.variant, |rules| {
            let write = rules.write_options();
            let read = ReadOptions::default();
            let task = FmtTask {
                rules,
                read,
                write,
                inspect: KeyOf(by),
            };
            let mut emitter = Emitter::new(&mut files, None, rules, read, write);
            let result = pipeline::drive(&task, opened, job.jobs, &mut |item, offset| {
                let (key, item) = item.take_verdict();
                emitter.out.route(ext, key);
                let before = emitter.written + emitter.unreadable;
                emitter.emit(item, offset, input, &mut job.say())?;
                if emitter.written + emitter.unreadable > before {
                    emitter.out.count_game(ext);
                }
                Ok(())
            });
            written += emitter.written;
            unreadable += emitter.unreadable;
            lost += emitter.lost;
            result
        })
    })?;
    if job.failed {
        // The files are removed as they are dropped.
        drop(files);
        job.report.error(&format!(
            "{}: no file written, as the run failed",
            out_dir_name.display()
        ));
        return Ok(job.ended(unreadable + lost > 0));
    }
    let report = match files.finish() {
        Ok(report) => report,
        Err(e) => {
            job.report.error(&e.to_string());
            job.failed = true;
            return Err(Stopped::Failed);
        }
    };
    let mut lines = || -> io::Result<()> {
        for (path, games) in &report {
            let noun = if *games == 1 { "game" } else { "games" };
            writeln!(out, "{games} {noun} → {}", path.display())?;
        }
        let passed = if unreadable > 0 {
            format!(", {unreadable} of them passed through unchanged (they could not be read)")
        } else {
            String::new()
        };
        let games = written + unreadable;
        let files = report.len();
        writeln!(
            out,
            "{games} {} in {files} {}{passed}",
            if games == 1 { "game" } else { "games" },
            if files == 1 { "file" } else { "files" },
        )?;
        out.flush()
    };
    if let Err(e) = lines() {
        job.write_failed(&e)?;
    }
    if lost > 0 {
        job.report.error(&format!(
            "{lost} games too large to hold were left out of the files"
        ));
    }
    Ok(job.ended(unreadable + lost > 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_become_safe_names() {
        assert_eq!(safe_name("Carlsen, Magnus"), "Carlsen, Magnus");
        assert_eq!(safe_name("a/b\\c"), "a_b_c");
        assert_eq!(safe_name(".."), "_");
        assert_eq!(safe_name("../etc/passwd"), "_._etc_passwd");
        assert_eq!(safe_name("."), "_");
        assert_eq!(safe_name("CON"), "_CON");
        assert_eq!(safe_name("nul.txt"), "_nul.txt");
        assert_eq!(safe_name("com7"), "_com7");
        assert_eq!(safe_name("COMPANY"), "COMPANY");
        assert_eq!(safe_name("end. "), "end");
        assert_eq!(safe_name("tab\there?"), "tab_here_");
        assert_eq!(safe_name(""), "_");
        let long = "é".repeat(200);
        let name = safe_name(&long);
        assert!(name.len() <= MAX_STEM_BYTES && name.chars().all(|c| c == 'é'));
    }

    #[test]
    fn keys_from_tags() {
        let mut tags = Tags::new();
        tags.set("ECO", "b90");
        tags.set("Date", "2023.??.??");
        tags.set("White", " ? ");
        assert_eq!(SplitBy::Eco(1).key(&tags).as_deref(), Some("B"));
        assert_eq!(SplitBy::Eco(3).key(&tags).as_deref(), Some("B90"));
        assert_eq!(SplitBy::Year.key(&tags).as_deref(), Some("2023"));
        assert_eq!(SplitBy::Tag("White".into()).key(&tags), None);
        assert_eq!(SplitBy::Tag("Black".into()).key(&tags), None);
        tags.set("ECO", "B9");
        tags.set("Date", "????.??.??");
        assert_eq!(SplitBy::Eco(3).key(&tags), None);
        assert_eq!(SplitBy::Year.key(&tags), None);
        tags.set("Date", "20231");
        assert_eq!(SplitBy::Year.key(&tags), None);
    }

    #[test]
    fn names_that_collide_get_a_suffix() {
        let mut files = SplitFiles::new(PathBuf::from("out"), &SplitBy::Year);
        assert_eq!(files.name_for("pgn", Some("a/b")), "a_b.pgn");
        assert_eq!(files.name_for("pgn", Some("A_B")), "A_B~2.pgn");
        assert_eq!(files.name_for("pdn", Some("a_b")), "a_b.pdn");
        assert_eq!(files.name_for("pgn", Some("unknown")), "unknown~2.pgn");
        assert_eq!(files.name_for("pgn", None), "unknown.pgn");
    }
}
