//! A chess program that depends on `pgn` alone: it reads a PGN file through the crate's
//! front door, checks it, draws each good game's last position and writes the good games
//! back in the export format.
//!
//! `pgn-alone GAMES.pgn EXPORT.pgn` prints each diagnostic as the crate words it, a line
//! per good game, whether the validating reader (which builds no tree) says the same, and
//! what reading the export back gives. The games of GAMES.pgn start from the standard
//! position.

use std::error::Error;
use std::fs::File;
use std::io::BufReader;

use pgn::svg::{Options, Picture};
use pgn::{GameReader, Position, Severity, ValidatingReader};

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args_os().skip(1);
    let (Some(input), Some(export)) = (args.next(), args.next()) else {
        return Err("usage: pgn-alone GAMES.pgn EXPORT.pgn".into());
    };

    // Read every game; write back those without errors.
    let (mut games, mut errors, mut warnings) = (0, 0, 0);
    let mut diagnostics = Vec::new();
    let mut written = String::new();
    for game in GameReader::new(BufReader::new(File::open(&input)?)) {
        let game = game?; // an I/O error; a bad game is a game with diagnostics
        games += 1;
        for d in &game.diagnostics {
            println!("{d}");
            match d.severity {
                Severity::Error => errors += 1,
                Severity::Warning => warnings += 1,
            }
            diagnostics.push(d.to_string());
        }
        if game
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
        {
            continue;
        }
        pgn::write_game(&game.game, &mut written)?;

        // The position after the main line, drawn (through the `diagram` crate).
        let mut position = Position::new();
        for node in game.game.mainline() {
            position = position.play(&node.mv);
        }
        let picture = Picture::new(&position).to_svg(&Options::default());
        println!(
            "game {games}: {} moves, {} pieces drawn",
            game.game.mainline().count(),
            picture.matches("<use ").count()
        );
    }
    println!("read {games} games; errors: {errors}, warnings: {warnings}");

    // Check again, without trees: the same diagnostics.
    let mut checked = Vec::new();
    for game in ValidatingReader::new(BufReader::new(File::open(&input)?)) {
        checked.extend(game?.diagnostics.iter().map(|d| d.to_string()));
    }
    let same = if checked == diagnostics {
        "the same"
    } else {
        "other"
    };
    println!("validating reader: {same} diagnostics");

    // The export, read back: no diagnostics, and written again to the same text.
    std::fs::write(&export, &written)?;
    let again = pgn::read_games(written.as_bytes());
    let mut rewritten = String::new();
    for game in &again {
        rewritten.push_str(&pgn::to_export_string(&game.game)?);
    }
    let diagnostics: usize = again.iter().map(|g| g.diagnostics.len()).sum();
    let text = if rewritten == written {
        "the same"
    } else {
        "another"
    };
    println!(
        "export: {} games, {diagnostics} diagnostics read back, {text} text written again",
        again.len()
    );
    Ok(())
}
