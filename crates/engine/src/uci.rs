//! A UCI engine as a child process: the handshake, each analysis from a clean state within a
//! deadline, and an end that never hangs.

use std::borrow::Cow;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crate::lines::{Lines, Next};
use crate::{Analysis, Engine, EngineConfig, EngineError, Info, Limit, Query};

/// How long a process is given to end by itself (after `quit`, or once its output closed)
/// before it is killed.
const GRACE: Duration = Duration::from_millis(500);

/// How often a process is asked whether it has ended, during [`GRACE`].
const POLL: Duration = Duration::from_millis(10);

/// How many of the lines a program printed instead of `uciok` [`EngineError::NotUci`] quotes,
/// and how many characters of each.
const QUOTED_LINES: usize = 3;
const QUOTED_CHARS: usize = 80;

/// A UCI engine process, started by [`Uci::start`] and analysing through [`Engine`].
///
/// Each analysis starts a new game (`ucinewgame`, which clears the engine's hash) and waits
/// for the engine to be ready before giving it the position, so that a result depends on the
/// position and the limit alone. An engine that crashes or times out is dead: every later
/// analysis gives [`EngineError::Exited`], and the caller starts another.
///
/// ```no_run
/// use std::time::Duration;
/// use engine::{Engine, EngineConfig, Limit, Query, Uci};
///
/// let config = EngineConfig {
///     threads: Some(1),
///     ..EngineConfig::new("/usr/games/stockfish")
/// };
/// let mut stockfish = Uci::start(&config)?;
/// let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// let analysis = stockfish.analyse(&Query::chess(start), Limit::Nodes(20_000), Duration::from_secs(10))?;
/// println!("{}: {:?} after {}", stockfish.name(), analysis.score, analysis.pv.join(" "));
/// # Ok::<(), engine::EngineError>(())
/// ```
pub struct Uci {
    child: Child,
    input: ChildStdin,
    lines: Lines,
    path: PathBuf,
    /// `id name`, else the path.
    name: String,
    /// The options the engine listed in its handshake.
    options: Vec<String>,
    /// The `Threads` value in force: the config's, else the default the engine listed;
    /// `None` when the engine has no such option.
    threads: Option<String>,
    /// What `UCI_Variant` was last set to; `None` while it keeps the engine's default.
    variant: Option<String>,
    /// What `UCI_Chess960` is set to (false, UCI's default, until set).
    chess960: bool,
    /// The process's exit code once it is known to have ended (`Some(None)`: by a signal).
    ended: Option<Option<i32>>,
}

impl Uci {
    /// Starts the engine: spawns its program, says `uci` and waits for `uciok` (keeping its
    /// name and options), sets the threads, the hash and the other options of `config`, and
    /// waits for the engine to be ready: each wait within the config's start timeout.
    pub fn start(config: &EngineConfig) -> Result<Uci, EngineError> {
        let path = config.path.clone();
        let mut child = Command::new(&path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| EngineError::Start {
                path: path.clone(),
                source,
            })?;
        let (input, lines) = match (child.stdin.take(), child.stdout.take()) {
            (Some(input), Some(output)) => match Lines::spawn(output) {
                Ok(lines) => (input, lines),
                Err(error) => {
                    end_now(&mut child);
                    return Err(EngineError::Io(error));
                }
            },
            _ => {
                end_now(&mut child);
                return Err(EngineError::Io(io::Error::other("no pipes to the engine")));
            }
        };
        let mut uci = Uci {
            child,
            input,
            lines,
            name: path.display().to_string(),
            path,
            options: Vec::new(),
            threads: None,
            variant: None,
            chess960: false,
            ended: None,
        };
        uci.handshake(config)?;
        Ok(uci)
    }

    /// The engine's program.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the engine listed an option of this name in its handshake (UCI's option names
    /// are compared regardless of case).
    pub fn has_option(&self, name: &str) -> bool {
        self.options
            .iter()
            .any(|option| option.eq_ignore_ascii_case(name))
    }

    /// Whether the process is still running as far as this engine knows: false once an
    /// analysis found it ended or killed it.
    pub fn is_alive(&self) -> bool {
        self.ended.is_none()
    }

    /// The process's id.
    pub fn process_id(&self) -> u32 {
        self.child.id()
    }

    /// `uci` … `uciok`, the options, `isready` … `readyok`.
    fn handshake(&mut self, config: &EngineConfig) -> Result<(), EngineError> {
        let timeout = config.effective_start_timeout();
        if let Err(said) = self.identify(Instant::now() + timeout) {
            self.ended = Some(end_now(&mut self.child));
            return Err(EngineError::NotUci {
                path: self.path.clone(),
                said: said.join(" / "),
            });
        }
        let mut sent = Vec::new();
        if let Some(threads) = config.threads {
            self.threads = Some(threads.to_string());
        }
        let threads = config
            .threads
            .map(|threads| ("Threads", threads.to_string()));
        let hash = config.hash_mb.map(|hash| ("Hash", hash.to_string()));
        let given = config.options.iter().map(|(n, v)| (n.as_str(), v.clone()));
        for (name, value) in threads.into_iter().chain(hash).chain(given) {
            self.set_option(name, &value)?;
            sent.push(name.to_owned());
        }
        self.send("isready")?;
        self.wait_ready(Instant::now() + timeout, timeout, &sent)
    }

    /// Says `uci` and reads until `uciok`, keeping the engine's name and options; gives the
    /// first lines it printed otherwise when its output ends or `deadline` passes first.
    fn identify(&mut self, deadline: Instant) -> Result<(), Vec<String>> {
        let mut said = Vec::new();
        // A program that ended already cannot be written to: it is no engine either.
        if self.input.write_all(b"uci\n").is_err() {
            return Err(said);
        }
        loop {
            let line = match self.lines.next_before(deadline) {
                Next::Line(line) => line,
                Next::Closed | Next::TimedOut => return Err(said),
            };
            let line = line.trim();
            if line == "uciok" {
                return Ok(());
            }
            if let Some(name) = line.strip_prefix("id name ") {
                if !name.trim().is_empty() {
                    self.name = name.trim().to_owned();
                }
            } else if let Some(option) = line.strip_prefix("option name ") {
                let name = option.split(" type ").next().unwrap_or(option).trim();
                if name.eq_ignore_ascii_case("Threads") {
                    self.threads = listed_default(option).map(str::to_owned);
                }
                self.options.push(name.to_owned());
            } else if !line.is_empty() && said.len() < QUOTED_LINES {
                said.push(line.chars().take(QUOTED_CHARS).collect());
            }
        }
    }

    /// Sends `setoption name NAME value VALUE`.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        let command = format!(
            "setoption name {} value {}",
            one_line(name),
            one_line(value)
        );
        self.send(&command)
    }

    /// Reads until `readyok`, within `deadline`; a complaint about one of the options `sent`
    /// since the last `readyok` is [`EngineError::Option`].
    fn wait_ready(
        &mut self,
        deadline: Instant,
        timeout: Duration,
        sent: &[String],
    ) -> Result<(), EngineError> {
        let mut refused = None;
        loop {
            match self.lines.next_before(deadline) {
                Next::Line(line) => {
                    let line = line.trim();
                    if line == "readyok" {
                        break;
                    }
                    if refused.is_none() && is_complaint(line) {
                        refused = Some(EngineError::Option {
                            name: refused_option(line, sent),
                            said: line.to_owned(),
                        });
                    }
                }
                Next::Closed => return Err(self.exited()),
                Next::TimedOut => return Err(self.timed_out(timeout)),
            }
        }
        refused.map_or(Ok(()), Err)
    }

    /// Sets `UCI_Variant` and `UCI_Chess960` as `query` needs them, and starts a new game.
    fn prepare(
        &mut self,
        query: &Query<'_>,
        deadline: Instant,
        timeout: Duration,
    ) -> Result<(), EngineError> {
        let variant = match (query.variant, self.variant.as_deref()) {
            (Some(wanted), set) if set != Some(wanted) => Some(wanted),
            // Back to standard chess once another variant was set.
            (None, Some(set)) if set != "chess" => Some("chess"),
            _ => None,
        };
        let mut sent = Vec::new();
        if let Some(variant) = variant {
            self.set_option("UCI_Variant", variant)?;
            sent.push("UCI_Variant".to_owned());
            // fairy-stockfish keeps its pawn and material tables across `ucinewgame`, keyed
            // alike in every variant: a chess search after a crazyhouse one read the other's
            // entries (20,000 nodes from the start: 59 cp, 62 cp fresh). Setting `Threads`
            // makes the search threads, and their tables, anew.
            if let Some(threads) = self.threads.clone() {
                self.set_option("Threads", &threads)?;
                sent.push("Threads".to_owned());
            }
        }
        if query.chess960 != self.chess960 {
            let value = if query.chess960 { "true" } else { "false" };
            self.set_option("UCI_Chess960", value)?;
            sent.push("UCI_Chess960".to_owned());
        }
        self.send("ucinewgame")?;
        self.send("isready")?;
        self.wait_ready(deadline, timeout, &sent)?;
        if let Some(variant) = variant {
            self.variant = Some(variant.to_owned());
        }
        self.chess960 = query.chess960;
        Ok(())
    }

    /// Gives the position and the limit, and reads `info` lines until `bestmove`.
    fn search(
        &mut self,
        query: &Query<'_>,
        limit: Limit,
        deadline: Instant,
        timeout: Duration,
    ) -> Result<Analysis, EngineError> {
        self.send(&format!("position fen {}", one_line(query.fen)))?;
        self.send(&go(limit))?;
        let started = Instant::now();
        let mut latest = Info::default();
        let best = loop {
            let line = match self.lines.next_before(deadline) {
                Next::Line(line) => line,
                Next::Closed => return Err(self.exited()),
                Next::TimedOut => return Err(self.timed_out(timeout)),
            };
            if let Some(info) = Info::parse(&line) {
                if info.multipv.is_none_or(|multipv| multipv == 1) {
                    merge(&mut latest, info);
                }
                continue;
            }
            let mut tokens = line.split_ascii_whitespace();
            if tokens.next() == Some("bestmove") {
                break tokens.next().map(str::to_owned);
            }
        };
        let search_time = started.elapsed();
        let score = latest.score.ok_or(EngineError::NoScore)?;
        let pv = match (latest.pv, best) {
            (Some(pv), _) => pv,
            // `(none)` (Stockfish) and `0000` (UCI's null move) say there is no move.
            (None, Some(best)) if best != "(none)" && best != "0000" => vec![best],
            (None, _) => Vec::new(),
        };
        Ok(Analysis {
            score,
            depth: latest.depth.unwrap_or(0),
            nodes: latest.nodes.unwrap_or(0),
            pv,
            search_time,
        })
    }

    /// Writes one command; a write to a process that ended is [`EngineError::Exited`].
    fn send(&mut self, command: &str) -> Result<(), EngineError> {
        let mut line = String::with_capacity(command.len() + 1);
        line.push_str(command);
        line.push('\n');
        match self.input.write_all(line.as_bytes()) {
            Ok(()) => Ok(()),
            Err(error) if error.kind() == io::ErrorKind::BrokenPipe => Err(self.exited()),
            Err(error) => Err(EngineError::Io(error)),
        }
    }

    /// The process's output closed: it is given a moment to end, then killed; its status
    /// is kept for later calls.
    fn exited(&mut self) -> EngineError {
        let status = match self.ended {
            Some(status) => status,
            None => end_within(&mut self.child, GRACE),
        };
        self.ended = Some(status);
        EngineError::Exited { status }
    }

    /// The deadline passed: the process is killed.
    fn timed_out(&mut self, after: Duration) -> EngineError {
        if self.ended.is_none() {
            self.ended = Some(end_now(&mut self.child));
        }
        EngineError::TimedOut { after }
    }
}

impl Engine for Uci {
    fn analyse(
        &mut self,
        query: &Query<'_>,
        limit: Limit,
        timeout: Duration,
    ) -> Result<Analysis, EngineError> {
        if let Some(status) = self.ended {
            return Err(EngineError::Exited { status });
        }
        let deadline = Instant::now() + timeout;
        self.prepare(query, deadline, timeout)?;
        self.search(query, limit, deadline, timeout)
    }

    fn name(&self) -> &str {
        &self.name
    }
}

impl Drop for Uci {
    /// Says `quit`, gives the engine a moment to end, then kills it: dropping never hangs.
    fn drop(&mut self) {
        if self.ended.is_none() {
            let _ = self.input.write_all(b"quit\n");
            end_within(&mut self.child, GRACE);
        }
    }
}

/// UCI's `go` for a limit.
fn go(limit: Limit) -> String {
    match limit {
        Limit::Nodes(nodes) => format!("go nodes {nodes}"),
        Limit::Depth(depth) => format!("go depth {depth}"),
        Limit::MoveTime(time) => format!("go movetime {}", time.as_millis().max(1)),
    }
}

/// Updates what an analysis holds with what an `info` line gives.
fn merge(latest: &mut Info, info: Info) {
    latest.depth = info.depth.or(latest.depth);
    latest.nodes = info.nodes.or(latest.nodes);
    latest.score = info.score.or(latest.score);
    if info.pv.is_some() {
        latest.pv = info.pv;
    }
}

/// Text that cannot end the command it is put in: line ends become spaces.
fn one_line(text: &str) -> Cow<'_, str> {
    if text.contains(['\n', '\r']) {
        Cow::Owned(text.replace(['\n', '\r'], " "))
    } else {
        Cow::Borrowed(text)
    }
}

/// The default of an option as its `option name … type … default VALUE …` line lists it
/// (`option` being what follows `option name `).
fn listed_default(option: &str) -> Option<&str> {
    let mut words = option.split_ascii_whitespace();
    words.find(|&word| word == "default")?;
    words.next()
}

/// Whether a line is an engine's complaint about an option (Stockfish's and fairy-stockfish's
/// `No such option: NAME`, or the like).
fn is_complaint(line: &str) -> bool {
    let line = line.to_ascii_lowercase();
    line.contains("no such option") || line.contains("unknown option")
}

/// Which option a complaint is about: the longest of those sent that it names, else what
/// follows its colon.
fn refused_option(line: &str, sent: &[String]) -> String {
    let lower = line.to_ascii_lowercase();
    sent.iter()
        .filter(|name| lower.contains(&name.to_ascii_lowercase()))
        .max_by_key(|name| name.len())
        .cloned()
        .unwrap_or_else(|| match line.rsplit_once(':') {
            Some((_, name)) => name.trim().to_owned(),
            None => line.to_owned(),
        })
}

/// Waits up to `grace` for the process to end, then kills it; its exit code (`None`: ended
/// by a signal, or not known).
fn end_within(child: &mut Child, grace: Duration) -> Option<i32> {
    let deadline = Instant::now() + grace;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return status.code(),
            Ok(None) if Instant::now() < deadline => thread::sleep(POLL),
            _ => return end_now(child),
        }
    }
}

/// Kills the process and reaps it; its exit code, if it had ended by itself first.
fn end_now(child: &mut Child) -> Option<i32> {
    let _ = child.kill();
    child.wait().ok().and_then(|status| status.code())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Score;

    #[test]
    fn limits_become_go_commands() {
        assert_eq!(go(Limit::Nodes(20_000)), "go nodes 20000");
        assert_eq!(go(Limit::Depth(12)), "go depth 12");
        assert_eq!(
            go(Limit::MoveTime(Duration::from_millis(1500))),
            "go movetime 1500"
        );
        assert_eq!(
            go(Limit::MoveTime(Duration::from_micros(10))),
            "go movetime 1"
        );
    }

    #[test]
    fn info_lines_update_what_they_carry() {
        let mut latest = Info::default();
        merge(
            &mut latest,
            Info::parse("info depth 3 score cp 20 pv e2e4 e7e5").unwrap_or_default(),
        );
        merge(
            &mut latest,
            Info::parse("info depth 4 currmove d2d4 nodes 90").unwrap_or_default(),
        );
        assert_eq!(
            latest,
            Info {
                depth: Some(4),
                nodes: Some(90),
                score: Some(Score::Centipawns(20)),
                pv: Some(vec!["e2e4".into(), "e7e5".into()]),
                multipv: None,
            }
        );
    }

    #[test]
    fn a_complaint_names_the_option_sent() {
        let sent = ["Hash".to_owned(), "Hash Size".to_owned()];
        assert!(is_complaint("No such option: Hash Size"));
        assert_eq!(
            refused_option("No such option: Hash Size", &sent),
            "Hash Size"
        );
        assert_eq!(
            refused_option("No such option: Contempt", &sent),
            "Contempt"
        );
        assert!(!is_complaint("info string NNUE evaluation enabled"));
    }

    #[test]
    fn the_listed_default_of_an_option() {
        assert_eq!(
            listed_default("Threads type spin default 1 min 1 max 512"),
            Some("1")
        );
        assert_eq!(listed_default("Clear Hash type button"), None);
        assert_eq!(listed_default("Threads type spin default"), None);
    }

    #[test]
    fn no_line_end_reaches_the_engine() {
        assert_eq!(one_line("8/8/8 w\nquit"), "8/8/8 w quit");
    }
}
