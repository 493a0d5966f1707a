//! `index`, `explore` and `find`: the position index ([`mod@index`]) on the command line.

use std::io::{self, Write};
use std::path::Path;

use collection::job::{Ended, Stopped};
use collection::range::ByteRange;
use index::{BuildOptions, Explored, Filter, GameSummary, Index, Limits, Question};

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
