//! Output files that are whole or absent.
//!
//! A job's output file is written under a temporary name beside its target, in the same
//! folder so that renaming it is atomic, and renamed over the target only when complete
//! ([`AtomicFile::commit`]). Until then an earlier file of that name is left as it was; a
//! file dropped uncommitted (the job failed, or stopped) is removed. Temporary files are
//! named `.NAME.notate-XXXXXX.tmp`, so that one left by a process killed outright
//! (`SIGKILL`, a power cut) says what it is.
//!
//! Every temporary file not yet committed is listed here, process-wide, so that a program
//! ending on a signal can remove them: [`abandon`]. This module installs no signal handler:
//! that is the program's choice (`notate`'s `main` does).

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::fs::{self, File, Permissions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// The temporary files made and not yet committed or removed. Making one, committing
/// and removing one hold the lock, so that [`abandon`] sees each either listed or done
/// with.
static PENDING: Mutex<BTreeSet<PathBuf>> = Mutex::new(BTreeSet::new());

/// The list of pending temporary files, locked. A thread that panicked holding it left
/// it whole (each change is one insertion or removal), so a poisoned lock is taken as is.
fn pending() -> MutexGuard<'static, BTreeSet<PathBuf>> {
    PENDING.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The file names of temporary files are cut to this many bytes of their target's name,
/// leaving room below the usual limit of 255 for the rest of the name.
const MAX_NAME_BYTES: usize = 200;

/// Why an output file could not be written.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The file, or its temporary file beside it, cannot be made (a folder that does not
    /// exist or cannot be written, a path below a file, the target is a folder).
    #[error("{}: cannot be created: {source}", path.display())]
    Create {
        /// The output, as named.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// Writing to it failed (a full disk, a file size limit, an I/O error).
    #[error("{}: cannot be written: {source}", path.display())]
    Write {
        /// The output, as named.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The complete file could not be renamed over its target.
    #[error("{}: cannot be put in place: {source}", path.display())]
    Commit {
        /// The output, as named.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
}

impl OutputError {
    /// The output error an I/O error carries, when it is one: the errors
    /// [`AtomicFile`]'s writes return are, so that a job can tell a failing output from a
    /// failing input.
    pub fn carried_by(e: &io::Error) -> Option<&OutputError> {
        e.get_ref()?.downcast_ref()
    }

    /// The output error in `e`'s chain of sources, when there is one: an error of a
    /// writer built on an [`AtomicFile`] (a Parquet writer's) may wrap it.
    pub fn find_in<'e>(e: &'e (dyn std::error::Error + 'static)) -> Option<&'e OutputError> {
        let mut next = Some(e);
        while let Some(e) = next {
            if let Some(output) = e.downcast_ref::<OutputError>() {
                return Some(output);
            }
            // An I/O error's `source` is its inner error's source, not the inner error.
            if let Some(output) = e
                .downcast_ref::<io::Error>()
                .and_then(OutputError::carried_by)
            {
                return Some(output);
            }
            next = e.source();
        }
        None
    }

    /// The output the error is of, as named.
    pub fn path(&self) -> &Path {
        match self {
            OutputError::Create { path, .. }
            | OutputError::Write { path, .. }
            | OutputError::Commit { path, .. } => path,
        }
    }

    /// What the system said.
    fn source_error(&self) -> &io::Error {
        match self {
            OutputError::Create { source, .. }
            | OutputError::Write { source, .. }
            | OutputError::Commit { source, .. } => source,
        }
    }

    /// The same error again, for an error that holds this one by reference (an
    /// [`io::Error`] cannot be cloned): the system's error number, else its kind and
    /// message.
    pub fn again(&self) -> OutputError {
        let e = self.source_error();
        let source = match e.raw_os_error() {
            Some(code) => io::Error::from_raw_os_error(code),
            None => io::Error::new(e.kind(), e.to_string()),
        };
        let path = self.path().to_owned();
        match self {
            OutputError::Create { .. } => OutputError::Create { path, source },
            OutputError::Write { .. } => OutputError::Write { path, source },
            OutputError::Commit { .. } => OutputError::Commit { path, source },
        }
    }

    /// This error as an I/O error of the same kind (a closed pipe stays
    /// [`io::ErrorKind::BrokenPipe`]), carrying it ([`OutputError::carried_by`]).
    pub fn into_io(self) -> io::Error {
        io::Error::new(self.source_error().kind(), self)
    }
}

/// A temporary file, listed as pending until it is dropped (and removed) or renamed
/// ([`commit_all`]); [`abandon`] removes it too.
#[derive(Debug)]
pub struct TempFile {
    path: PathBuf,
}

impl TempFile {
    /// Makes a new file in `dir` named as `builder` says, listed as pending, and gives it
    /// open for reading and writing.
    fn make(builder: &tempfile::Builder<'_, '_>, dir: &Path) -> io::Result<(TempFile, File)> {
        // Made and listed under the lock: `abandon` sees it, or it is made after.
        let mut pending = pending();
        let (file, path) = builder.tempfile_in(dir)?.into_parts();
        // Removed by this module, not by `tempfile`: see `Drop for TempFile`.
        let path = path.keep().map_err(|e| e.error)?;
        pending.insert(path.clone());
        Ok((TempFile { path }, file))
    }

    /// Makes a new file in the system's temporary folder, named `PREFIX.XXXXXX.SUFFIX`,
    /// for a job's scratch data (`dedupe`'s spool): removed when dropped, and by
    /// [`abandon`].
    ///
    /// # Errors
    /// The file cannot be made.
    pub fn scratch(prefix: &str, suffix: &str) -> io::Result<(TempFile, File)> {
        let mut builder = tempfile::Builder::new();
        builder.prefix(prefix).suffix(suffix).rand_bytes(6);
        TempFile::make(&builder, &std::env::temp_dir())
    }

    /// Where the file is.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempFile {
    /// Removes the file unless it was renamed (or [`abandon`] removed it).
    fn drop(&mut self) {
        let mut pending = pending();
        if pending.remove(&self.path) {
            // Nothing more can be done about a file that cannot be removed.
            let _ = fs::remove_file(&self.path);
        }
    }
}

/// A temporary file beside its target, listed as pending until it is renamed over the
/// target ([`Staged::commit`], [`commit_all`]) or removed (when dropped).
#[derive(Debug)]
pub struct Staged {
    /// The temporary file.
    temp: TempFile,
    /// Where it goes: absolute, symbolic links followed.
    target: PathBuf,
    /// The output as named, for messages.
    named: PathBuf,
}

impl Staged {
    /// Makes an empty temporary file in `target`'s folder for the output named `named`,
    /// listed as pending, and gives it open for writing. `permissions` are those of the
    /// file it will replace, else a new file's (read and write for all, less the umask).
    fn create(
        target: PathBuf,
        named: &Path,
        permissions: Option<Permissions>,
    ) -> Result<(Staged, File), OutputError> {
        let create = |source| OutputError::Create {
            path: named.to_owned(),
            source,
        };
        let dir = match target.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let mut builder = tempfile::Builder::new();
        let prefix = temp_prefix(&target);
        builder.prefix(&prefix).suffix(".tmp").rand_bytes(6);
        if let Some(asked) = permissions.clone().or_else(new_file_permissions) {
            builder.permissions(asked);
        }
        let (temp, file) = TempFile::make(&builder, dir).map_err(create)?;
        let staged = Staged {
            temp,
            target,
            named: named.to_owned(),
        };
        // The permissions asked at creation are cut by the umask, as a new file's should
        // be: an existing file's are given back as they were.
        if let Some(permissions) = permissions {
            file.set_permissions(permissions).map_err(create)?;
        }
        Ok((staged, file))
    }

    /// Makes an empty temporary file beside the file `path` names (symbolic links
    /// followed) to take its place, keeping its permissions when it exists.
    ///
    /// # Errors
    /// [`OutputError::Create`]: `path` is a folder or not a file the process can replace,
    /// or no file can be made beside it.
    pub fn beside(path: &Path) -> Result<(Staged, File), OutputError> {
        match Target::of(path)? {
            Target::File {
                target,
                permissions,
            } => Staged::create(target, path, permissions),
            Target::Special => Err(OutputError::Create {
                path: path.to_owned(),
                source: io::Error::other("not a regular file"),
            }),
        }
    }

    /// The temporary file, where the output is written until it is committed.
    pub fn temp_path(&self) -> &Path {
        self.temp.path()
    }

    /// Renames the temporary file over its target.
    ///
    /// # Errors
    /// [`OutputError::Commit`] when the rename fails: the temporary file is removed.
    pub fn commit(self) -> Result<(), OutputError> {
        commit_all(vec![self])
    }
}

/// Renames each temporary file over its target, in order, with nothing else committed,
/// made or removed meanwhile: a program that [`abandon`]s its outputs on a signal sees all
/// of them committed or none.
///
/// # Errors
/// [`OutputError::Commit`] for the first rename that fails: the files before it are in
/// place, it and those after it are removed.
pub fn commit_all(staged: Vec<Staged>) -> Result<(), OutputError> {
    let mut pending = pending();
    for file in &staged {
        let temp = file.temp.path();
        fs::rename(temp, &file.target).map_err(|source| OutputError::Commit {
            path: file.named.clone(),
            source,
        })?;
        pending.remove(temp);
    }
    drop(pending);
    Ok(())
}

/// Commits several outputs together ([`AtomicFile::commit`] each, the renames as
/// [`commit_all`] does them): a program that [`abandon`]s its outputs on a signal sees all
/// of them committed or none.
///
/// # Errors
/// The first file's error, as [`AtomicFile::commit`] and [`commit_all`] say: the files not
/// in place are removed.
pub fn commit_files(files: Vec<AtomicFile>) -> Result<(), OutputError> {
    let mut staged = Vec::new();
    for file in files {
        staged.extend(file.finish()?);
    }
    commit_all(staged)
}

/// Removes every temporary file not yet committed, and holds the list until the process
/// ends, so that no output is made or committed after: for a program about to end on a
/// signal (call it from an ordinary thread, not a signal handler: it takes a lock and
/// removes files). Gives back the list's lock, empty: keep it until the process ends.
pub fn abandon() -> MutexGuard<'static, BTreeSet<PathBuf>> {
    let mut pending = pending();
    for temp in std::mem::take(&mut *pending) {
        let _ = fs::remove_file(temp);
    }
    for folder in std::mem::take(&mut *scratch_folders()) {
        let _ = fs::remove_dir_all(folder);
    }
    pending
}

/// The scratch folders made and not yet removed ([`ScratchFolder`]).
static SCRATCH_FOLDERS: Mutex<BTreeSet<PathBuf>> = Mutex::new(BTreeSet::new());

fn scratch_folders() -> MutexGuard<'static, BTreeSet<PathBuf>> {
    SCRATCH_FOLDERS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
}

/// A folder in the system's temporary folder for a run's scratch data (`serve`'s index
/// of files given without one): removed with what it holds when dropped, and by
/// [`abandon`].
#[derive(Debug)]
pub struct ScratchFolder {
    path: PathBuf,
}

impl ScratchFolder {
    /// Makes a new folder named `PREFIX.XXXXXX`.
    ///
    /// # Errors
    /// The folder cannot be made.
    pub fn new(prefix: &str) -> io::Result<ScratchFolder> {
        let mut folders = scratch_folders();
        let path = tempfile::Builder::new()
            .prefix(prefix)
            .rand_bytes(6)
            .tempdir()?
            .keep();
        folders.insert(path.clone());
        Ok(ScratchFolder { path })
    }

    /// Where the folder is.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for ScratchFolder {
    fn drop(&mut self) {
        if scratch_folders().remove(&self.path) {
            let _ = fs::remove_dir_all(&self.path);
        }
    }
}

/// The files written in place, each with its length after its last whole part
/// ([`keep_whole`]): what [`abandon_in_place`] cuts them back to.
static IN_PLACE: Mutex<BTreeMap<PathBuf, u64>> = Mutex::new(BTreeMap::new());

fn in_place() -> MutexGuard<'static, BTreeMap<PathBuf, u64>> {
    IN_PLACE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Says that the file `path`, written in place (`notate annotate -o`, resumable), is whole
/// up to `len` bytes: a program ending on a signal cuts it back there.
pub fn keep_whole(path: &Path, len: u64) {
    in_place().insert(path.to_owned(), len);
}

/// Forgets a file written in place: it is complete.
pub fn forget_in_place(path: &Path) {
    in_place().remove(path);
}

/// Cuts every file written in place back to its last whole part, for a program about to
/// end on a signal; gives the files so cut, to say how to resume them. Holds the list's
/// lock until the process ends, as [`abandon`] does.
pub fn abandon_in_place() -> (MutexGuard<'static, BTreeMap<PathBuf, u64>>, Vec<PathBuf>) {
    let files = in_place();
    let mut cut = Vec::new();
    for (path, &len) in files.iter() {
        if let Ok(file) = fs::OpenOptions::new().write(true).open(path) {
            let _ = file.set_len(len);
        }
        cut.push(path.clone());
    }
    (files, cut)
}

/// The start of a temporary file's name: `.NAME.notate-`, its target's name cut to
/// [`MAX_NAME_BYTES`] bytes.
fn temp_prefix(target: &Path) -> OsString {
    let name = target
        .file_name()
        .map_or_else(|| "output".into(), |name| name.to_string_lossy());
    let mut end = name.len().min(MAX_NAME_BYTES);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    format!(".{}.notate-", &name[..end]).into()
}

/// The permissions asked for a new file: read and write for all, which the umask cuts,
/// as for any file a program creates.
fn new_file_permissions() -> Option<Permissions> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        Some(Permissions::from_mode(0o666))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// What an output's path names.
enum Target {
    /// A regular file, or nothing yet: `target` is where it goes (absolute, symbolic links
    /// followed), `permissions` those of the file it replaces.
    File {
        target: PathBuf,
        permissions: Option<Permissions>,
    },
    /// A device, a pipe or a socket (`/dev/null`, `/dev/stdout`, a named pipe): written in
    /// place, as it cannot be replaced and holds nothing to keep.
    Special,
}

impl Target {
    fn of(path: &Path) -> Result<Target, OutputError> {
        let create = |source| OutputError::Create {
            path: path.to_owned(),
            source,
        };
        match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => Err(create(io::Error::new(
                io::ErrorKind::IsADirectory,
                "it is a folder",
            ))),
            Ok(meta) if meta.is_file() => Ok(Target::File {
                target: fs::canonicalize(path).map_err(create)?,
                permissions: Some(meta.permissions()),
            }),
            Ok(_) => Ok(Target::Special),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Target::File {
                target: std::path::absolute(path).map_err(create)?,
                permissions: None,
            }),
            Err(e) => Err(create(e)),
        }
    }
}

/// An output file written whole or not at all: written to a temporary file beside its
/// target and renamed over it by [`AtomicFile::commit`]; removed when dropped uncommitted.
/// A path naming a device or a pipe (`/dev/null`) is written in place.
///
/// Writes go straight to the file: wrap it in a [`io::BufWriter`]. A write's error carries
/// an [`OutputError`] naming the output ([`OutputError::carried_by`]).
#[derive(Debug)]
pub struct AtomicFile {
    file: File,
    /// The output as named, for messages.
    path: PathBuf,
    /// The temporary file, `None` for a device or a pipe.
    staged: Option<Staged>,
}

impl AtomicFile {
    /// Starts the output `path` names: an empty temporary file beside it (symbolic links
    /// followed, an existing file's permissions kept), or the device or pipe it names.
    ///
    /// # Errors
    /// [`OutputError::Create`]: `path` is a folder, or its folder does not exist or cannot
    /// be written.
    pub fn create(path: &Path) -> Result<AtomicFile, OutputError> {
        let (file, staged) = match Target::of(path)? {
            Target::File {
                target,
                permissions,
            } => {
                let (staged, file) = Staged::create(target, path, permissions)?;
                (file, Some(staged))
            }
            Target::Special => {
                let file = File::create(path).map_err(|source| OutputError::Create {
                    path: path.to_owned(),
                    source,
                })?;
                (file, None)
            }
        };
        Ok(AtomicFile {
            file,
            path: path.to_owned(),
            staged,
        })
    }

    /// The output as named.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Puts the complete file in place: its data on disk (a crash after the rename must
    /// not leave an empty file under the target's name), then renamed over the target.
    ///
    /// # Errors
    /// [`OutputError::Write`] when the data cannot be written to disk,
    /// [`OutputError::Commit`] when the rename fails; the temporary file is removed.
    pub fn commit(self) -> Result<(), OutputError> {
        commit_files(vec![self])
    }

    /// The file's data on disk, the file closed: what is left to do is the rename.
    fn finish(self) -> Result<Option<Staged>, OutputError> {
        if self.staged.is_some() {
            self.file.sync_all().map_err(|source| OutputError::Write {
                path: self.path.clone(),
                source,
            })?;
        }
        Ok(self.staged)
    }

    fn failed(&self, source: io::Error) -> io::Error {
        OutputError::Write {
            path: self.path.clone(),
            source,
        }
        .into_io()
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.write(buf).map_err(|e| self.failed(e))
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.file.write_all(buf).map_err(|e| self.failed(e))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush().map_err(|e| self.failed(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh folder of the system's temporary folder, for one test.
    fn folder(name: &str) -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix(&format!("notate-output-{name}-"))
            .tempdir()
            .expect("a temporary folder")
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .expect("a folder")
            .map(|entry| {
                entry
                    .expect("an entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_committed_file_replaces_its_target_and_leaves_nothing_beside_it() {
        let dir = folder("commit");
        let target = dir.path().join("out.pgn");
        fs::write(&target, "old").expect("written");
        let mut out = AtomicFile::create(&target).expect("created");
        out.write_all(b"new games").expect("written");
        let temps = names(dir.path());
        assert_eq!(temps.len(), 2, "{temps:?}");
        let temp = temps
            .iter()
            .find(|n| *n != "out.pgn")
            .expect("a temporary file");
        assert!(
            temp.starts_with(".out.pgn.notate-") && temp.ends_with(".tmp"),
            "{temp}"
        );
        assert_eq!(fs::read_to_string(&target).expect("read"), "old");
        out.commit().expect("committed");
        assert_eq!(fs::read_to_string(&target).expect("read"), "new games");
        assert_eq!(names(dir.path()), ["out.pgn"]);
    }

    #[test]
    fn a_file_dropped_uncommitted_is_removed_and_the_target_kept() {
        let dir = folder("drop");
        let target = dir.path().join("out.pgn");
        fs::write(&target, "old").expect("written");
        let mut out = AtomicFile::create(&target).expect("created");
        out.write_all(b"half a game").expect("written");
        drop(out);
        assert_eq!(names(dir.path()), ["out.pgn"]);
        assert_eq!(fs::read_to_string(&target).expect("read"), "old");
        let new = dir.path().join("new.pgn");
        drop(AtomicFile::create(&new).expect("created"));
        assert!(!new.exists());
    }

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_permissions_and_a_link_stays_a_link() {
        use std::os::unix::fs::PermissionsExt;
        let dir = folder("links");
        let real = dir.path().join("real.pgn");
        fs::write(&real, "old").expect("written");
        fs::set_permissions(&real, Permissions::from_mode(0o640)).expect("chmod");
        let link = dir.path().join("link.pgn");
        std::os::unix::fs::symlink(&real, &link).expect("a link");
        let mut out = AtomicFile::create(&link).expect("created");
        out.write_all(b"new").expect("written");
        out.commit().expect("committed");
        assert!(
            fs::symlink_metadata(&link)
                .expect("link")
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(&real).expect("read"), "new");
        let mode = fs::metadata(&real).expect("meta").permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
        // A new file's are those of any file a program creates: 0666 less the umask.
        let status = fs::read_to_string("/proc/self/status").expect("the process's status");
        let umask = status
            .lines()
            .find_map(|line| line.strip_prefix("Umask:"))
            .and_then(|mask| u32::from_str_radix(mask.trim(), 8).ok())
            .expect("the umask");
        let new = dir.path().join("new.pgn");
        AtomicFile::create(&new)
            .expect("created")
            .commit()
            .expect("committed");
        let mode = fs::metadata(&new).expect("meta").permissions().mode();
        assert_eq!(mode & 0o777, 0o666 & !umask);
    }

    #[test]
    fn a_device_is_written_in_place() {
        let mut out = AtomicFile::create(Path::new("/dev/null")).expect("opened");
        out.write_all(b"nothing").expect("written");
        out.commit().expect("nothing to rename");
        assert!(
            !fs::metadata("/dev/null")
                .expect("still there")
                .file_type()
                .is_file()
        );
    }

    #[test]
    fn what_cannot_be_made_is_an_error_naming_the_output() {
        let dir = folder("refused");
        let file = dir.path().join("file");
        fs::write(&file, "").expect("written");
        for path in [file.join("below.pgn"), dir.path().to_owned()] {
            let e = AtomicFile::create(&path).expect_err("refused");
            assert!(matches!(e, OutputError::Create { .. }), "{e:?}");
            assert!(
                e.to_string().starts_with(&path.display().to_string()),
                "{e}"
            );
        }
        assert_eq!(names(dir.path()), ["file"]);
    }

    #[test]
    fn files_committed_together_appear_together() {
        let dir = folder("together");
        let staged: Vec<Staged> = ["a.pgn", "b.pgn"]
            .iter()
            .map(|name| {
                let (staged, mut file) = Staged::beside(&dir.path().join(name)).expect("made");
                file.write_all(name.as_bytes()).expect("written");
                staged
            })
            .collect();
        assert!(names(dir.path()).iter().all(|n| n.ends_with(".tmp")));
        commit_all(staged).expect("committed");
        assert_eq!(names(dir.path()), ["a.pgn", "b.pgn"]);
        assert_eq!(
            fs::read_to_string(dir.path().join("b.pgn")).expect("read"),
            "b.pgn"
        );
    }

    #[test]
    fn a_write_error_carries_the_output_it_failed() {
        let e = OutputError::Write {
            path: "out.pgn".into(),
            source: io::Error::from(io::ErrorKind::StorageFull),
        }
        .into_io();
        assert_eq!(e.kind(), io::ErrorKind::StorageFull);
        let carried = OutputError::carried_by(&e).expect("carried");
        assert!(
            carried
                .to_string()
                .starts_with("out.pgn: cannot be written")
        );
        assert!(OutputError::carried_by(&io::Error::other("input")).is_none());
    }
}
