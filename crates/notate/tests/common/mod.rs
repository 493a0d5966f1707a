//! What the CLI's integration tests share.
// Each test file uses the part it needs.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A temporary folder removed when dropped.
pub struct Temp(PathBuf);

impl Temp {
    pub fn new(name: &str) -> Temp {
        // Numbered too: tests run in parallel, and two may ask for the same name (one
        // helper for several tests).
        static MADE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("notate-test-{}-{n}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        Temp(dir)
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.0
    }

    /// The path of a file in the folder.
    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// Writes a file in the folder; gives its path.
    pub fn file(&self, name: &str, bytes: &[u8]) -> String {
        let path = self.path(name);
        std::fs::write(&path, bytes).expect("temp file");
        path.display().to_string()
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The project's root, where `corpus/` is.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `notate ARGS`, run in the project's root.
pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_notate"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("notate runs")
}

/// What a run wrote on standard output.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// What a run wrote on standard error.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A run's exit code (-1 when a signal ended it).
pub fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}
