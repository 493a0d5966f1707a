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

use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::fs::{File, OpenOptions};
use std::hash::BuildHasher;
use std::io::{self, BufRead, BufReader, BufWriter, Seek, SeekFrom, Write};
use std::path::Path;
use std::time::Duration;

use engine::{Analysis, EngineConfig, Limit, Score};

use super::key::{Key, variant_named};

/// The cache file of a run: where each of its setting's positions is in the file, read
/// when a game meets the position, and the file open for appending.
///
/// Only the lines' places are held (a hash of the key and an offset: a few tens of bytes
/// a position), not their analyses: a cache that grows run after run costs a run little
/// memory.
pub(crate) struct Cache {
    out: BufWriter<File>,
    reader: BufReader<File>,
    setting: String,
    /// The offset of each position's line, by the hash of its key (the key is checked
    /// against the line when it is read).
    lines: HashMap<u64, u64>,
    hasher: RandomState,
    /// The file's length, with what is still buffered in `out`.
    end: u64,
    /// The file's length when `out` was last flushed: a line from there on is not in the
    /// file yet.
    flushed: u64,
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
    /// Opens (or creates) the cache file, and finds the lines it holds for `setting`.
    ///
    /// # Errors
    /// The file cannot be read or opened for appending.
    pub(crate) fn open(path: &Path, setting: String) -> io::Result<Cache> {
        let mut out = OpenOptions::new().create(true).append(true).open(path)?;
        let hasher = RandomState::new();
        let mut lines = HashMap::new();
        let mut reader = BufReader::new(File::open(path)?);
        let mut offset = 0;
        let mut line = Vec::new();
        let mut last_whole = true;
        loop {
            line.clear();
            let read = reader.read_until(b'\n', &mut line)?;
            if read == 0 {
                break;
            }
            // A line without its end is one a killed run left half-written.
            last_whole = line.ends_with(b"\n");
            if last_whole
                && let Some((key, _)) = std::str::from_utf8(&line)
                    .ok()
                    .and_then(|line| parse(line.trim_end_matches('\n'), &setting))
            {
                lines.entry(hasher.hash_one(&key)).or_insert(offset);
            }
            offset += read as u64;
        }
        let mut end = offset;
        // That half-written line ends here, so that the next one starts on a line of
        // its own.
        if !last_whole {
            out.write_all(b"\n")?;
            end += 1;
        }
        Ok(Cache {
            out: BufWriter::new(out),
            reader,
            setting,
            lines,
            hasher,
            end,
            flushed: end,
        })
    }

    /// The analysis of `key` the file holds for this run's setting, if it holds one.
    ///
    /// A line that cannot be read back (the file changed under the run) is no analysis:
    /// the position is asked of the engines.
    pub(crate) fn get(&mut self, key: &Key) -> Option<Analysis> {
        let offset = *self.lines.get(&self.hasher.hash_one(key))?;
        if offset >= self.flushed {
            self.flush().ok()?;
        }
        self.reader.seek(SeekFrom::Start(offset)).ok()?;
        let mut line = Vec::new();
        self.reader.read_until(b'\n', &mut line).ok()?;
        let line = std::str::from_utf8(&line).ok()?;
        let (found, analysis) = parse(line.trim_end_matches('\n'), &self.setting)?;
        (found == *key).then_some(analysis)
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
        if self.out.write_all(line.as_bytes()).is_ok() {
            self.lines
                .entry(self.hasher.hash_one(key))
                .or_insert(self.end);
            self.end += line.len() as u64;
        }
    }

    /// Writes what is kept to the file.
    ///
    /// # Errors
    /// The file's write errors.
    pub(crate) fn flush(&mut self) -> io::Result<()> {
        self.out.flush()?;
        self.flushed = self.end;
        Ok(())
    }
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
        let cut: Key = ("8/8/8/8/8/8/8/K1k5 b - - 0 1".into(), None, false);
        let other: Key = ("8/8/8/8/8/8/8/K2k4 b - - 0 1".into(), None, false);
        let mut cache = Cache::open(&path, "one".into()).expect("a cache");
        assert_eq!(cache.get(&key), None);
        cache.keep(&key, &analysis);
        assert_eq!(cache.get(&key), Some(analysis.clone()), "kept in this run");
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
        let mut cache = Cache::open(&path, "one".into()).expect("the cache again");
        assert_eq!(
            cache.get(&key),
            Some(analysis.clone()),
            "from an earlier run"
        );
        assert_eq!(cache.get(&cut), None, "a cut line holds nothing");
        cache.keep(&other, &analysis);
        cache.flush().expect("written");
        drop(cache);
        let mut cache = Cache::open(&path, "one".into()).expect("the cache again");
        assert_eq!(cache.get(&cut), None, "the cut line stays cut");
        assert_eq!(
            cache.get(&other),
            Some(analysis.clone()),
            "the next one whole"
        );
        assert_eq!(cache.get(&key), Some(analysis.clone()));
        let text = std::fs::read_to_string(&path).expect("the file");
        assert_eq!(text.lines().count(), 3);
        // Two keys of one hash: the line found is read, and holds the other key.
        let hash = cache.hasher.hash_one(&cut);
        cache.lines.insert(hash, 0);
        assert_eq!(cache.get(&cut), None, "the line at 0 holds another key");
        let mut cache = Cache::open(&path, "two".into()).expect("the cache");
        assert_eq!(cache.get(&key), None, "another setting's line");
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
