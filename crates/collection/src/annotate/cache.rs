//! `notate annotate --cache FILE`: the analyses of a run kept for the next, a line each,
//! appended as they come (a run killed mid-line leaves a line that the next run passes
//! over):
//!
//! ```text
//! SETTING <TAB> FEN <TAB> VARIANT <TAB> CHESS960 <TAB> SCORE <TAB> DEPTH <TAB> NODES <TAB> PV
//! ```
//!
//! `SETTING` names the engine (as it names itself), the limit and the options: a line is
//! taken only by a run of the same setting, since another engine or limit would have said
//! something else. `VARIANT` is a `UCI_Variant` name or `-`, `CHESS960` `0` or `1`, `SCORE`
//! `cp N` or `mate N` (for the side to move), `PV` the moves in UCI, space-separated.

use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::Path;
use std::time::Duration;

use engine::{Analysis, EngineConfig, Limit, Score};

use super::key::{Key, variant_named};

/// The cache file of a run, open for appending.
pub(crate) struct Cache {
    out: BufWriter<File>,
    setting: String,
}

/// What names a run's setting in the cache: the engine's name, the limit, the engine's
/// threads, hash and other options.
pub(crate) fn setting(engine_name: &str, limit: Limit, config: &EngineConfig) -> String {
    let limit = match limit {
        Limit::Nodes(n) => format!("nodes {n}"),
        Limit::Depth(d) => format!("depth {d}"),
        Limit::MoveTime(t) => format!("movetime {}", t.as_millis()),
    };
    let mut setting = format!(
        "{}; {limit}; threads {}; hash {}",
        engine_name,
        config.threads.unwrap_or(1),
        config
            .hash_mb
            .map_or_else(|| "default".to_owned(), |mb| mb.to_string())
    );
    for (name, value) in &config.options {
        setting.push_str(&format!("; {name}={value}"));
    }
    // A tab or a line end would break the file's lines.
    setting.replace(['\t', '\n', '\r'], " ")
}

impl Cache {
    /// Opens (or creates) the cache file, and gives the analyses it holds for `setting`.
    ///
    /// # Errors
    /// The file cannot be read or opened for appending.
    pub(crate) fn open(path: &Path, setting: String) -> io::Result<(Cache, Vec<(Key, Analysis)>)> {
        let mut known = Vec::new();
        match File::open(path) {
            Ok(file) => {
                for line in BufReader::new(file).split(b'\n') {
                    let line = line?;
                    if let Some(entry) = std::str::from_utf8(&line)
                        .ok()
                        .and_then(|line| parse(line, &setting))
                    {
                        known.push(entry);
                    }
                }
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
        let mut file = OpenOptions::new().create(true).append(true).open(path)?;
        // A line a killed run left half-written ends here, so that the next one starts on
        // a line of its own.
        if file.metadata()?.len() > 0 && !ends_with_line_end(path)? {
            file.write_all(b"\n")?;
        }
        let cache = Cache {
            out: BufWriter::new(file),
            setting,
        };
        Ok((cache, known))
    }

    /// Appends an analysis.
    pub(crate) fn keep(&mut self, key: &Key, analysis: &Analysis) {
        let (fen, variant, chess960) = key;
        let score = match analysis.score {
            Score::Centipawns(cp) => format!("cp {cp}"),
            Score::Mate(n) => format!("mate {n}"),
        };
        let line = format!(
            "{}\t{fen}\t{}\t{}\t{score}\t{}\t{}\t{}\n",
            self.setting,
            variant.unwrap_or("-"),
            u8::from(*chess960),
            analysis.depth,
            analysis.nodes,
            analysis.pv.join(" "),
        );
        // A failed write shows at the next flush.
        let _ = self.out.write_all(line.as_bytes());
    }

    /// Writes what is kept to the file.
    ///
    /// # Errors
    /// The file's write errors.
    pub(crate) fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Whether a file's last byte ends a line.
fn ends_with_line_end(path: &Path) -> io::Result<bool> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = File::open(path)?;
    file.seek(SeekFrom::End(-1))?;
    let mut last = [0u8];
    file.read_exact(&mut last)?;
    Ok(last[0] == b'\n')
}

/// A line of the cache, if it is whole and of `setting`.
fn parse(line: &str, setting: &str) -> Option<(Key, Analysis)> {
    let mut fields = line.split('\t');
    if fields.next()? != setting {
        return None;
    }
    let fen = fields.next()?.to_owned();
    let variant = match fields.next()? {
        "-" => None,
        name => Some(variant_named(name)?),
    };
    let chess960 = match fields.next()? {
        "0" => false,
        "1" => true,
        _ => return None,
    };
    let score = match fields.next()?.split_once(' ')? {
        ("cp", n) => Score::Centipawns(n.parse().ok()?),
        ("mate", n) => Score::Mate(n.parse().ok()?),
        _ => return None,
    };
    let depth = fields.next()?.parse().ok()?;
    let nodes = fields.next()?.parse().ok()?;
    let pv = fields
        .next()?
        .split(' ')
        .filter(|m| !m.is_empty())
        .map(str::to_owned)
        .collect();
    if fields.next().is_some() || fen.is_empty() {
        return None;
    }
    let analysis = Analysis {
        score,
        depth,
        nodes,
        pv,
        search_time: Duration::ZERO,
    };
    Some(((fen, variant, chess960), analysis))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_analysis_kept_reads_back_for_its_setting_only() {
        let dir = tempfile::tempdir().expect("a folder");
        let path = dir.path().join("cache.tsv");
        let key: Key = ("8/8/8/8/8/8/8/K1k5 w - - 0 1".into(), Some("atomic"), true);
        let analysis = Analysis {
            score: Score::Mate(-3),
            depth: 12,
            nodes: 5000,
            pv: vec!["a1a2".into(), "c1c2".into()],
            search_time: Duration::ZERO,
        };
        let (mut cache, known) = Cache::open(&path, "one".into()).expect("a cache");
        assert!(known.is_empty());
        cache.keep(&key, &analysis);
        cache.flush().expect("written");
        drop(cache);
        // A line cut short, as a killed run leaves one.
        let mut file = OpenOptions::new()
            .append(true)
            .open(&path)
            .expect("the file");
        file.write_all(b"one\t8/8/8/8/8/8/8/K1k5 b - - 0 1\t-\t0\tcp")
            .expect("written");
        drop(file);
        let (mut cache, known) = Cache::open(&path, "one".into()).expect("the cache again");
        assert_eq!(known, vec![(key.clone(), analysis.clone())]);
        cache.keep(&key, &analysis);
        cache.flush().expect("written");
        drop(cache);
        let (_, known) = Cache::open(&path, "one".into()).expect("the cache again");
        assert_eq!(known.len(), 2, "the cut line stays cut, the next one whole");
        let (_, other) = Cache::open(&path, "two".into()).expect("the cache");
        assert!(other.is_empty());
    }

    #[test]
    fn the_setting_names_the_engine_the_limit_and_the_options() {
        let config = EngineConfig {
            threads: Some(1),
            hash_mb: Some(64),
            options: vec![("Skill Level".into(), "5".into())],
            ..EngineConfig::default()
        };
        assert_eq!(
            setting("Stockfish 15.1", Limit::Nodes(100_000), &config),
            "Stockfish 15.1; nodes 100000; threads 1; hash 64; Skill Level=5"
        );
    }
}
