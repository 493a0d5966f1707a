//! `index`, `explore` and `find`: the position index ([`mod@index`]) on the command line.

use std::collections::{BTreeSet, HashMap};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use collection::input::{Format, Source};
use collection::job::{Ended, Stopped};
use collection::range::ByteRange;
use collection::select::{self, picked::Picked};
use index::manifest::SourceEntry;
use index::{BuildOptions, Explored, Filter, Game, GameSummary, Index, Limits, Question};

use crate::cli::{AskedPosition, ExploreFilter, Inputs};
use crate::terminal::{self, Output, Terminal, complain};

/// `notate index`.
pub fn index(
    inputs: &Inputs,
    dir: &Path,
    append: bool,
    variations: bool,
    range: Option<ByteRange>,
) -> Result<Ended, Stopped> {
    let (terminal, sources) = Terminal::new(inputs, range.is_none())?;
    let mut job = terminal.job(inputs, sources);
    let options = BuildOptions {
        append,
        variations,
        range,
        ..BuildOptions::default()
    };
    let built = index::build(&mut job, dir, &options).map_err(complain)?;
    if !inputs.quiet {
        let errors = match built.games_with_errors {
            0 => String::new(),
            n => format!(" ({n} with an error: their moves up to it)"),
        };
        eprintln!(
            "notate: indexed {} games{errors}, {} positions of which {} different; {} holds {} games",
            built.games,
            built.occurrences,
            built.positions,
            dir.display(),
            built.total_games
        );
    }
    Ok(job.ended(built.games_with_errors > 0))
}

/// `notate index --merge`.
pub fn merge(inputs: &Inputs, dir: &Path) -> Result<Ended, Stopped> {
    let built = index::merge(&inputs.paths, dir).map_err(complain)?;
    if !inputs.quiet {
        eprintln!(
            "notate: merged {} indexes; {} holds {} games",
            inputs.paths.len(),
            dir.display(),
            built.total_games
        );
    }
    Ok(Ended::default())
}

/// `notate explore`.
pub fn explore(
    dir: &Path,
    position: &AskedPosition,
    filter: &ExploreFilter,
    json: bool,
    limits: Limits,
) -> Result<Ended, Stopped> {
    let index = Index::open(dir).map_err(complain)?;
    let filter = Filter {
        since: filter.since,
        until: filter.until,
        ratings: filter.ratings.clone(),
        speeds: filter.speeds.clone(),
        player: filter.player.clone(),
        color: filter.color,
    };
    let answer = index
        .explore_question(&question(position), &filter, limits)
        .map_err(complain)?;
    let mut out = Output::create(None)?;
    let written = if json {
        writeln!(out, "{}", index::json::explored(&answer.explored))
    } else {
        write_explored(&answer.explored, &answer.fen, &mut out)
    };
    written.map_err(|e| write_failed(&e))?;
    terminal::commit(Ended::default(), [Some(out)])
}

fn write_failed(e: &io::Error) -> Stopped {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Stopped::Closed
    } else {
        complain(format_args!("writing the output: {e}"))
    }
}

/// The question `explore` and `find` are asked.
fn question(position: &AskedPosition) -> Question<'_> {
    Question {
        fen: position.fen.as_deref(),
        moves: &position.moves,
        variant: position.variant.as_deref(),
    }
}

/// Percent of `part` in `whole`, one decimal.
fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "-".into();
    }
    format!("{:.1}%", part as f64 * 100.0 / whole as f64)
}

fn write_explored(e: &Explored, fen: &str, out: &mut dyn Write) -> io::Result<()> {
    let total = e.white + e.draws + e.black;
    writeln!(out, "position  {fen}")?;
    if let Some((eco, name)) = &e.opening {
        writeln!(out, "opening   {eco} {name}")?;
    }
    writeln!(
        out,
        "games     {total}  white {}  draws {}  black {}",
        percent(e.white, total),
        percent(e.draws, total),
        percent(e.black, total)
    )?;
    if !e.moves.is_empty() {
        writeln!(out)?;
        writeln!(
            out,
            "{:<12} {:>9} {:>7} {:>7} {:>7} {:>7} {:>7}",
            "move", "games", "white", "draws", "black", "score", "rating"
        )?;
        for m in &e.moves {
            let games = m.games();
            let score = if games == 0 {
                "-".to_owned()
            } else {
                format!(
                    "{:.1}%",
                    (m.white as f64 + m.draws as f64 / 2.0) * 100.0 / games as f64
                )
            };
            writeln!(
                out,
                "{:<12} {:>9} {:>7} {:>7} {:>7} {:>7} {:>7}",
                m.san,
                games,
                percent(m.white, games),
                percent(m.draws, games),
                percent(m.black, games),
                score,
                m.average_rating.map_or("-".to_owned(), |r| r.to_string())
            )?;
        }
    }
    for (title, games) in [
        ("top games", &e.top_games),
        ("recent games", &e.recent_games),
    ] {
        if games.is_empty() {
            continue;
        }
        writeln!(out)?;
        writeln!(out, "{title}")?;
        for g in games {
            writeln!(out, "  {}", game_line(g))?;
        }
    }
    Ok(())
}

fn game_line(g: &GameSummary) -> String {
    let player = |p: &index::PlayerSummary| match p.rating {
        Some(r) => format!("{} ({r})", p.name),
        None => p.name.clone(),
    };
    let result = match g.winner {
        index::dims::Winner::White => "1-0",
        index::dims::Winner::Black => "0-1",
        index::dims::Winner::Draw => "½-½",
        index::dims::Winner::Unknown => "*",
    };
    let when = match (g.year, g.month) {
        (0, _) => "?".to_owned(),
        (y, 0) => y.to_string(),
        (y, m) => format!("{y:04}-{m:02}"),
    };
    let speed = g.speed.map_or("", |s| s.name());
    format!(
        "{} - {}  {result}  {when} {speed}  {} game {}",
        player(&g.white),
        player(&g.black),
        g.reference.path,
        g.reference.number
    )
}

/// `notate find`.
pub fn find(
    dir: &Path,
    position: &AskedPosition,
    limit: Option<usize>,
    output: Option<&Path>,
) -> Result<Ended, Stopped> {
    let index = Index::open(dir).map_err(complain)?;
    let mut games = index.find_question(&question(position)).map_err(complain)?;
    if let Some(limit) = limit {
        games.truncate(limit);
    }
    let path = output.map(Path::to_path_buf);
    let mut out = Output::create(path.as_ref())?;
    match output {
        Some(_) => {
            index::games::write_games(&index, &games, &mut out).map_err(complain)?;
        }
        None => {
            for id in games {
                let record = index.record(id).map_err(complain)?;
                let at = index.reference(&record);
                writeln!(out, "{}\t{}\t{}", at.path, at.number, at.offset)
                    .map_err(|e| write_failed(&e))?;
            }
        }
    }
    terminal::commit(Ended::default(), [Some(out)])
}

/// `notate serve`: the index of the inputs (an index given as the one input, or one built
/// or added to first), served until a signal ends the process (the signal thread's doing,
/// as for any command: it removes a temporary index too).
pub fn serve(
    inputs: &Inputs,
    index_dir: Option<&Path>,
    bind: std::net::SocketAddr,
) -> Result<Ended, Stopped> {
    let given_index = match (index_dir, inputs.paths.as_slice()) {
        (None, [only]) if only.join(index::manifest::MANIFEST).is_file() => Some(only.clone()),
        _ => None,
    };
    let mut scratch = None;
    let dir = match (given_index, index_dir) {
        (Some(dir), _) => dir,
        (None, Some(dir)) => {
            index_unheld(inputs, dir)?;
            dir.to_owned()
        }
        (None, None) => {
            let folder = collection::output::ScratchFolder::new("notate-serve.")
                .map_err(|e| complain(format_args!("a temporary folder for the index: {e}")))?;
            let dir = folder.path().join("index");
            scratch = Some(folder);
            index_unheld(inputs, &dir)?;
            dir
        }
    };
    let server = serve::Server::bind(&dir, bind).map_err(complain)?;
    let at = server.local_addr().map_err(complain)?;
    if !at.ip().is_loopback() {
        eprintln!(
            "notate: warning: listening on {at}, which other machines may reach: they can read \
             the index and the games it names"
        );
    }
    eprintln!("notate: serving {} on http://{at}/", dir.display());
    server.run(std::future::pending()).map_err(complain)?;
    drop(scratch);
    Ok(Ended::default())
}

/// Indexes the inputs into `dir`: a new index, or those of its files that the index there
/// does not hold yet added to it.
fn index_unheld(inputs: &Inputs, dir: &Path) -> Result<(), Stopped> {
    let existing = Index::open(dir).ok();
    let (terminal, sources) = Terminal::new(inputs, true)?;
    let unheld: Vec<Source> = match &existing {
        None => sources,
        Some(index) => sources
            .into_iter()
            .filter(|source| {
                let held = source.path.as_deref().is_some_and(|path| {
                    index::manifest::fingerprint(path)
                        .is_ok_and(|now| index.sources().iter().any(|entry| now.same_file(entry)))
                });
                !held
            })
            .collect(),
    };
    if unheld.is_empty() {
        return Ok(());
    }
    let mut job = terminal.job(inputs, unheld);
    let options = BuildOptions {
        append: existing.is_some(),
        ..BuildOptions::default()
    };
    let built = index::build(&mut job, dir, &options).map_err(complain)?;
    if !inputs.quiet {
        eprintln!(
            "notate: indexed {} games into {}, which holds {} games",
            built.games,
            dir.display(),
            built.total_games
        );
    }
    if job.ended(false).failed {
        return Err(complain("an input could not be read: nothing served"));
    }
    Ok(())
}

/// `notate select --position FEN --index DIR`: the games of the inputs that the index
/// found reaching the position, read again and judged by every criterion as the scan
/// judges them, the others not read.
pub fn select(
    inputs: &Inputs,
    output: Option<PathBuf>,
    dir: &Path,
    given: &select::Given,
) -> Result<Ended, Stopped> {
    let criteria = select::Criteria::parse(given).map_err(complain)?;
    select::check_readable(&criteria, inputs.variant, false).map_err(complain)?;
    let Some(pattern) = given.position.as_deref() else {
        return Err(complain("--index finds the games of a --position"));
    };
    let index = Index::open(dir).map_err(complain)?;
    let (terminal, sources) = Terminal::new(inputs, false)?;
    let held = held_by(&index, dir, &sources, inputs.variant)?;
    let mut kinds = BTreeSet::new();
    for &i in held.iter().flatten() {
        let Some(listed) = &index.sources()[i].kinds else {
            return Err(complain(format_args!(
                "{}: built before notate recorded the rulesets and game types of its games, \
                 which --index needs: build it again",
                dir.display()
            )));
        };
        kinds.extend(listed.iter().cloned());
    }
    let kinds: Vec<String> = kinds.into_iter().collect();
    let found = index.find_placement(pattern, &kinds).map_err(complain)?;
    // Each input's games found: by their offsets, with their numbers in the file.
    let mut by_entry: HashMap<usize, Picked> = HashMap::new();
    for &id in found.iter().flatten() {
        let record = index.record(id).map_err(complain)?;
        let source = record.source as usize;
        let before = index
            .sources()
            .get(source)
            .and_then(SourceEntry::games_before)
            .unwrap_or(0);
        by_entry
            .entry(source)
            .or_default()
            .insert(record.offset, before + record.number);
    }
    let picked: Vec<Picked> = held
        .iter()
        .map(|entries| {
            entries
                .iter()
                .filter_map(|i| by_entry.get(i))
                .flatten()
                .map(|(&offset, &number)| (offset, number))
                .collect()
        })
        .collect();
    let games = held
        .iter()
        .flatten()
        .map(|&i| index.sources()[i].games)
        .sum();
    let mut job = terminal.job(inputs, sources);
    // Read as the index read them.
    job.format = Some(match index.game() {
        Game::Chess => Format::Pgn,
        Game::Draughts => Format::Pdn,
    });
    if found.is_none() {
        job.report.warning(&format!(
            "{pattern:?} is not a {} FEN: no game of the index matches it",
            index.game().name()
        ));
    }
    let mut out = Output::create(output.as_ref())?;
    let (ended, _) = select::picked::run(&mut job, &criteria, &mut out, &picked, games)?;
    terminal::commit(ended, [Some(out)])
}

/// For each input, the index's entries of its file (a file, or the shards' ranges of
/// one), found by its size and content; an input the index does not hold, or holds read
/// as another game type, is a usage error.
fn held_by(
    index: &Index,
    dir: &Path,
    sources: &[Source],
    variant: Option<pdn::GameType>,
) -> Result<Vec<Vec<usize>>, Stopped> {
    let mut held = Vec::new();
    for source in sources {
        let Some(path) = &source.path else {
            return Err(complain(
                "standard input is in no index: select --index reads files the index holds",
            ));
        };
        let now = index::manifest::fingerprint(path)
            .map_err(|e| complain(format_args!("{}: {e}", source.name)))?;
        let entries: Vec<usize> = (0..index.sources().len())
            .filter(|&i| index.sources()[i].same_file(&now))
            .collect();
        if entries.is_empty() {
            return Err(complain(format_args!(
                "{}: not in the index {} (notate index --append it, or select without --index)",
                source.name,
                dir.display()
            )));
        }
        let variant = variant.map(|v| v.to_string());
        if index.game() == Game::Draughts
            && let Some(&i) = entries
                .iter()
                .find(|&&i| index.sources()[i].variant != variant)
        {
            return Err(complain(format_args!(
                "{}: indexed with {}, and read here with {}: give select the --variant the \
                 index was built with",
                source.name,
                index.sources()[i]
                    .variant
                    .as_deref()
                    .map_or("no --variant".to_owned(), |v| format!("--variant {v}")),
                variant.map_or("no --variant".to_owned(), |v| format!("--variant {v}")),
            )));
        }
        held.push(entries);
    }
    Ok(held)
}
