//! The Python half of `cargo xtask test`: the package as users install it. A wheel is built
//! with `maturin build --release` and installed into a virtual environment made anew for
//! the run, with no Rust toolchain on `PATH` (so nothing can be compiled behind the wheel's
//! back); the pytest suite and `notate html`'s browser test then run in that environment.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{cargo, run};

/// What the pytest suite needs beside the wheel: the test runner, pyarrow for the tables,
/// python-chess for the interoperability test, pyspark and pandas (which its `mapInArrow`
/// needs), with the machine's Java, for the Spark tests, selenium for `notate html`'s
/// browser test (Chromium through chromedriver).
const TEST_PACKAGES: &[&str] = &[
    "pytest",
    "pyarrow",
    "chess",
    "pyspark",
    "pandas>=2.2,<3",
    "selenium",
];

/// The build tool, in a virtual environment of its own that is kept between runs.
const BUILD_PACKAGES: &[&str] = &["maturin>=1.5,<2"];

/// Builds the wheel, installs it into a fresh `target/python-venv` and runs the Python tests
/// there.
pub(crate) fn test(root: &Path) -> Result<(), String> {
    let target = root.join("target");
    let build = venv(&target.join("python-build"), false)?;
    pip_install(&build, BUILD_PACKAGES.iter().copied(), false)?;

    let wheels = target.join("wheels");
    remove_wheels(&wheels)?;
    run(Command::new(build.join("bin").join("maturin"))
        .current_dir(root.join("crates").join("python"))
        .args(["build", "--release", "--quiet", "--out"])
        .arg(&wheels)
        .env("CARGO", cargo()))?;
    let wheel = the_wheel(&wheels)?;

    let tests = venv(&target.join("python-venv"), true)?;
    let wheel = wheel
        .to_str()
        .ok_or_else(|| format!("{} is not UTF-8", wheel.display()))?
        .to_owned();
    pip_install(
        &tests,
        std::iter::once(wheel.as_str()).chain(TEST_PACKAGES.iter().copied()),
        true,
    )?;

    // The suite must test the installed wheel, not a source folder that shadows it.
    let python = tests.join("bin").join("python");
    let imported = Command::new(&python)
        .current_dir(root.join("crates").join("python").join("tests"))
        .args(["-c", "import notate; print(notate.__file__)"])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    let imported = String::from_utf8_lossy(&imported.stdout);
    if !Path::new(imported.trim()).starts_with(&tests) {
        return Err(format!(
            "the tests would import notate from {imported:?}, not from the wheel in {}",
            tests.display()
        ));
    }
    run(Command::new(&python).current_dir(root).args([
        "-m",
        "pytest",
        "-q",
        "crates/python/tests",
    ]))?;
    // notate html in headless Chromium (skipped, loudly, where there is none).
    run(Command::new(&python).current_dir(root).args([
        "-m",
        "pytest",
        "-q",
        "-rs",
        "crates/notate/tests/browser",
    ]))
}

/// The virtual environment at `dir`, made on first use, or made anew when `fresh`.
fn venv(dir: &Path, fresh: bool) -> Result<PathBuf, String> {
    if fresh && dir.exists() {
        fs::remove_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    if !dir.join("bin").join("python").exists() {
        let system = std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_owned());
        run(Command::new(system).arg("-m").arg("venv").arg(dir))?;
    }
    Ok(dir.to_owned())
}

/// `pip install`s `packages` into `venv`; `without_rust` hides the Rust toolchain from pip
/// and whatever it runs, so that a package it would have to compile fails to install.
fn pip_install<'a>(
    venv: &Path,
    packages: impl Iterator<Item = &'a str>,
    without_rust: bool,
) -> Result<(), String> {
    let mut command = Command::new(venv.join("bin").join("python"));
    command
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
        ])
        .args(packages);
    if without_rust {
        command.env("PATH", path_without_rust());
        for name in [
            "CARGO",
            "CARGO_HOME",
            "RUSTC",
            "RUSTUP_HOME",
            "RUSTUP_TOOLCHAIN",
        ] {
            command.env_remove(name);
        }
    }
    run(&mut command)
}

/// `PATH` without the folders that hold `cargo` or `rustc`.
fn path_without_rust() -> OsString {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let kept = std::env::split_paths(&path).filter(|dir| {
        !["cargo", "rustc"]
            .iter()
            .any(|tool| dir.join(tool).exists())
    });
    std::env::join_paths(kept).unwrap_or_default()
}

fn remove_wheels(dir: &Path) -> Result<(), String> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Ok(());
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "whl") {
            fs::remove_file(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    Ok(())
}

/// The one wheel `maturin build` left in `dir`.
fn the_wheel(dir: &Path) -> Result<PathBuf, String> {
    let mut wheels: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "whl"))
        .collect();
    match wheels.len() {
        1 => Ok(wheels.remove(0)),
        n => Err(format!("{}: {n} wheels, one expected", dir.display())),
    }
}
