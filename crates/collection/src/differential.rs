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
//! - [`fmt_along_agrees`]: `fmt`'s export of chess games written as they are read
//!   ([`notation::ExportText`]), against the export of their trees.

use notation::differential::Disagreement;
use notation::{GameReader, GameText, KeepRaw, ReadOptions};

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
        let mut text = GameText {
            bytes: raw.clone(),
            starts_line: large.starts_line,
        };
        let mut out = String::new();
        json::write_text(rules, &mut text, read, &mut out);
        Disagreement::check(
            format_args!("the text of game {index}, given back"),
            &text.bytes,
            raw,
        )?;
        Disagreement::check(format_args!("the JSON of game {index}"), &out, &expected)?;
        streamed += 1;
    }
    Ok(streamed)
}

/// Writes `text`'s chess games as `fmt` does, twice: as they are read, with no tree,
/// and from their trees; as `fmt` writes them, as `select` picks them by their tags,
/// results and diagnostics (kept or `--invert`ed), and as `split` keys them. The same
/// items: each game's text (or its bytes, for a large game), what became of it and why,
/// the verdict on it, and what was said of the text outside any game. Returns how many
/// items there were.
pub fn fmt_along_agrees(
    text: &[u8],
    read: ReadOptions,
    write: notation::WriteOptions,
) -> Result<usize, Disagreement> {
    use crate::select::{Criteria, Given, Selection};

    fn agree<I>(
        text: &[u8],
        read: ReadOptions,
        write: notation::WriteOptions,
        inspect: impl Fn() -> I,
        what: &str,
    ) -> Result<usize, Disagreement>
    where
        I: crate::fmt::Inspect<pgn::ChessRules>,
        I::Verdict: std::fmt::Debug,
    {
        assert!(inspect().judges_without_tree(), "{what} needs trees");
        let tree = crate::fmt::fmt_items(text, false, read, write, inspect());
        let along = crate::fmt::fmt_items(text, true, read, write, inspect());
        Disagreement::check(
            format_args!("the number of items ({what})"),
            &along.len(),
            &tree.len(),
        )?;
        for (along, tree) in along.iter().zip(&tree) {
            Disagreement::check(format_args!("an item ({what})"), along, tree)?;
        }
        Ok(tree.len())
    }

    let rules = crate::rules::chess();
    let mut items = agree(text, read, write, || (), "fmt")?;
    let given = [
        Given {
            players: vec!["a".to_owned()],
            ..Given::default()
        },
        Given {
            tags: vec!["Event".to_owned()],
            results: vec!["1-0".to_owned(), "*".to_owned()],
            ..Given::default()
        },
        Given {
            with_errors: true,
            ..Given::default()
        },
        Given {
            with_warnings: true,
            ..Given::default()
        },
    ];
    for given in &given {
        let criteria = Criteria::parse(given).expect("criteria that read");
        for invert in [false, true] {
            let selection = || Selection::new(&rules, &criteria, invert);
            items += agree(text, read, write, selection, "select")?;
        }
    }
    let by = crate::split::SplitBy::Tag("White".to_owned());
    items += agree(text, read, write, || crate::split::KeyOf(&by), "split")?;
    Ok(items)
}

/// The fuzz targets of `fuzz/` that hold a fast path to its plain twin, by name.
pub const FUZZ_TARGETS: &[&str] = &["chess_rows", "clock_comment", "skim", "stream"];

/// What the fuzz target `target` checks of one input `data` (libFuzzer's bytes: a
/// selector byte, then the input, except for `clock_comment`), so that the targets and
/// the regression tests over the inputs they found (`fuzz/regressions/`) check the same.
/// `None` for a target not in [`FUZZ_TARGETS`].
pub fn fuzz_input(target: &str, data: &[u8]) -> Option<Result<(), Disagreement>> {
    use notation::differential::{read_options_for, skim_agrees, stream_agrees};
    use notation::{Dialect, WriteOptions};

    if target == "clock_comment" {
        // A comment's text is decoded before it is read: any bytes, as text.
        let text = String::from_utf8_lossy(data);
        return Some(pgn::differential::comment_agrees(&text).map(drop));
    }
    let (&selector, input) = data.split_first().unwrap_or((&0, &[]));
    let checked = match target {
        "chess_rows" => chess_rows_agree(input, read_options_for(selector & 1)).map(drop),
        "skim" => {
            let dialect = if selector & 1 == 0 {
                Dialect::PGN
            } else {
                Dialect::PDN
            };
            // Whole reads, or 1 to 63 bytes at a time.
            let step = match selector >> 2 {
                0 => 1 << 16,
                n => usize::from(n),
            };
            skim_agrees(input, dialect, read_options_for(selector >> 1 & 1), step).map(drop)
        }
        "stream" => {
            let read = read_options_for(selector >> 2 & 1);
            let write = WriteOptions {
                reduced: selector & 8 != 0,
                ..WriteOptions::default()
            };
            // Not `RawRules`, which follows the move numbers written as it reads (a game
            // starting `12...` streams as `12...`) while its tree is numbered from 1.
            if selector & 1 == 0 {
                let rules = crate::rules::chess();
                stream_agrees(&rules, input, read, &write)
                    .and_then(|_| json_stream_agrees(&rules, input))
                    .and_then(|_| fmt_along_agrees(input, read, write))
                    .map(drop)
            } else {
                let rules = crate::rules::draughts(None);
                stream_agrees(&rules, input, read, &write)
                    .and_then(|_| json_stream_agrees(&rules, input))
                    .map(drop)
            }
        }
        _ => return None,
    };
    Some(checked)
}
