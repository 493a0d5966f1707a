//! Inputs: files, folders (recursively), standard input; the format of each.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use notation::RawRules;

/// The notation of an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Chess: Portable Game Notation.
    Pgn,
    /// Draughts: Portable Draughts Notation.
    Pdn,
}

impl Format {
    /// The format an extension names, if any.
    fn from_path(path: &Path) -> Option<Format> {
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "pgn" => Some(Format::Pgn),
            "pdn" => Some(Format::Pdn),
            _ => None,
        }
    }

    /// Structure-only rules for the format.
    pub fn raw_rules(self) -> RawRules {
        match self {
            Format::Pgn => RawRules::PGN,
            Format::Pdn => RawRules::PDN,
        }
    }
}

/// One input to read.
pub struct Input {
    /// The name to print in diagnostics.
    pub name: String,
    /// Its format.
    pub format: Format,
    /// Its bytes, or why they cannot be had.
    pub reader: io::Result<Box<dyn Read>>,
}

/// The inputs that `paths` name: files, every `.pgn`/`.pdn` file below a folder (sorted),
/// and `-` for standard input.
pub fn collect(paths: &[PathBuf], forced: Option<Format>) -> io::Result<Vec<Input>> {
    let mut inputs = Vec::new();
    for path in paths {
        if path.as_os_str() == "-" {
            inputs.push(Input {
                name: "-".to_owned(),
                format: forced.unwrap_or(Format::Pgn),
                reader: Ok(Box::new(io::stdin())),
            });
        } else if path.is_dir() {
            let mut files = Vec::new();
            walk(path, &mut files)?;
            files.sort();
            for file in files {
                if let Some(format) = forced.or_else(|| Format::from_path(&file)) {
                    inputs.push(open(file, format));
                }
            }
        } else {
            let format = forced
                .or_else(|| Format::from_path(path))
                .unwrap_or(Format::Pgn);
            inputs.push(open(path.clone(), format));
        }
    }
    Ok(inputs)
}

fn open(path: PathBuf, format: Format) -> Input {
    Input {
        name: path.display().to_string(),
        format,
        reader: File::open(&path).map(|f| Box::new(f) as Box<dyn Read>),
    }
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) -> io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            walk(&path, files)?;
        } else if Format::from_path(&path).is_some() {
            files.push(path);
        }
    }
    Ok(())
}
