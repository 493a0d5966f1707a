//! The jobs' fast paths held to their plain twins, for the test suite and the fuzz
//! targets (`fuzz/`) alike.
//!
//! Not part of the crate's interface: hidden from its documentation, and free to change.
//!
//! - [`chess_rows_agree`]: the Parquet rows of chess games built as the validator reads
//!   them, with no tree ([`crate::parquet`]'s `ChessRows`), against the rows of their
//!   trees.
//! - [`json_stream_agrees`]: a large game's JSON written as its text is read again
//!   ([`json::write_text`]), against the JSON of its tree ([`json::write_game`]).

use notation::differential::Disagreement;
use notation::{GameReader, KeepRaw, ReadOptions};

use crate::json::{self, JsonMoves};
use crate::parquet::chess_rows;

/// Builds the rows of `text`'s chess games twice, from their trees and as the validator
/// reads them: the same batches, column by column, with the same diagnostics (and the
/// same said of the text outside any game). Returns how many rows were built.
pub fn chess_rows_agree(text: &[u8], options: ReadOptions) -> Result<usize, Disagreement> {
    let tree = chess_rows(text, false, options);
    let read = chess_rows(text, true, options);
    Disagreement::check("the number of batches", &read.len(), &tree.len())?;
    let mut rows = 0;
    for (n, ((tree, tree_diagnostics), (read, read_diagnostics))) in
        tree.iter().zip(&read).enumerate()
    {
        Disagreement::check(
            format_args!("the diagnostics of batch {n}"),
            read_diagnostics,
            tree_diagnostics,
        )?;
        Disagreement::check(
            format_args!("the schema of batch {n}"),
            &read.schema(),
            &tree.schema(),
        )?;
        for (i, (plain, fast)) in tree.columns().iter().zip(read.columns()).enumerate() {
            Disagreement::check(
                format_args!("column {} of batch {n}", tree.schema().field(i).name()),
                fast,
                plain,
            )?;
        }
        rows += tree.num_rows();
    }
    Ok(rows)
}

/// Reads `text`'s games twice, into trees and as large games (without their trees,
/// [`GameReader::large_after`] 0), and writes each large game that can be written as
/// it is read again ([`notation::ReadGame::streams`]) with [`json::write_text`]: the
/// JSON [`json::write_game`] writes of its tree, and its text given back unchanged.
/// Returns how many games were written as they were read again.
pub fn json_stream_agrees<G: JsonMoves>(rules: &G, text: &[u8]) -> Result<usize, Disagreement> {
    let read = ReadOptions::default();
    let trees: Vec<_> = GameReader::new(rules, text, read).flatten().collect();
    let large: Vec<_> = GameReader::new(rules, text, read)
        .keep_raw(KeepRaw::Always)
        .large_after(0)
        .flatten()
        .collect();
    Disagreement::check("the number of games", &large.len(), &trees.len())?;
    let mut streamed = 0;
    for (tree, large) in trees.iter().zip(&large) {
        let (Some(raw), false, true) = (&large.raw, large.built, large.streams) else {
            continue;
        };
        let index = tree.index;
        let mut expected = String::new();
        json::write_game(rules, &tree.game, &mut expected);
        let mut bytes = raw.clone();
        let mut out = String::new();
        json::write_text(rules, &mut bytes, read, &mut out);
        Disagreement::check(
            format_args!("the text of game {index}, given back"),
            &bytes,
            raw,
        )?;
        Disagreement::check(format_args!("the JSON of game {index}"), &out, &expected)?;
        streamed += 1;
    }
    Ok(streamed)
}
