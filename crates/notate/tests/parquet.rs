//! `notate parquet`: the tables hold what `notate json` says of every game, row for row,
//! and `--jobs` does not change a byte of them.

mod common;

use std::fs::File;
use std::path::Path;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, Int16Type, Int32Type, UInt16Type, UInt32Type, UInt64Type};
use arrow_array::{Array, ArrayRef, RecordBatch};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde_json::Value;

use common::{Temp, code, run, stderr};

/// Every batch of a Parquet file, read back with the `parquet` crate.
fn read(path: &Path) -> Vec<RecordBatch> {
    let file = File::open(path).expect("the table was written");
    ParquetRecordBatchReaderBuilder::try_new(file)
        .expect("a Parquet file")
        .build()
        .expect("a reader")
        .map(|b| b.expect("a batch"))
        .collect()
}

/// One row of a batch, column by column, as JSON values (so that rows read as the
/// JSON they are compared with).
fn rows(batches: &[RecordBatch]) -> Vec<serde_json::Map<String, Value>> {
    let mut out = Vec::new();
    for batch in batches {
        for row in 0..batch.num_rows() {
            let mut map = serde_json::Map::new();
            for (field, column) in batch.schema().fields().iter().zip(batch.columns()) {
                map.insert(field.name().clone(), value(column, row));
            }
            out.push(map);
        }
    }
    out
}

fn value(column: &ArrayRef, row: usize) -> Value {
    use arrow_schema::DataType;
    if column.is_null(row) {
        return Value::Null;
    }
    match column.data_type() {
        DataType::Utf8 => Value::from(column.as_string::<i32>().value(row)),
        DataType::UInt64 => Value::from(column.as_primitive::<UInt64Type>().value(row)),
        DataType::UInt32 => Value::from(column.as_primitive::<UInt32Type>().value(row)),
        DataType::UInt16 => Value::from(column.as_primitive::<UInt16Type>().value(row)),
        DataType::Int16 => Value::from(column.as_primitive::<Int16Type>().value(row)),
        DataType::Int32 => Value::from(column.as_primitive::<Int32Type>().value(row)),
        DataType::Float64 => Value::from(column.as_primitive::<Float64Type>().value(row)),
        DataType::Date32 => Value::from(
            column
                .as_primitive::<arrow_array::types::Date32Type>()
                .value(row),
        ),
        DataType::Time64(_) => Value::from(
            column
                .as_primitive::<arrow_array::types::Time64MicrosecondType>()
                .value(row),
        ),
        DataType::List(_) => {
            let items = column.as_list::<i32>().value(row);
            Value::Array((0..items.len()).map(|i| value(&items, i)).collect())
        }
        DataType::Struct(fields) => {
            let s = column.as_struct();
            Value::Object(
                fields
                    .iter()
                    .zip(s.columns())
                    .map(|(f, c)| (f.name().clone(), value(c, row)))
                    .collect(),
            )
        }
        other => panic!("no test reading for {other}"),
    }
}

/// `notate json`'s objects, one per game.
fn json_games(args: &[&str]) -> Vec<Value> {
    let o = run(args);
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// A diagnostic of `notate json` as `check` prints it.
fn check_line(file: &str, game: u64, d: &Value) -> String {
    format!(
        "{file}:{}:{}: {}: {} (game {game})",
        d["line"],
        d["column"],
        d["severity"].as_str().unwrap_or_default(),
        d["message"].as_str().unwrap_or_default()
    )
}

/// The clock a move's comments give, in seconds, as the table should hold it.
fn clock_of(comments: &Value) -> Value {
    for c in comments.as_array().into_iter().flatten() {
        if let Some(args) = pgn::commands::args_of(c.as_str().unwrap_or_default(), "clk")
            && let Ok(t) = args.parse::<pgn::commands::ClockTime>()
        {
            return Value::from(t.millis() as f64 / 1000.0);
        }
    }
    Value::Null
}

/// Compares every row of the games table with `notate json`'s object for that game.
fn assert_rows_match_json(paths: &[&str]) {
    let temp = Temp::new("parquet-json");
    let table = temp.path("games.parquet");
    let positions = temp.path("positions.parquet");
    let mut args = vec![
        "parquet",
        "-q",
        "-o",
        table.to_str().expect("utf-8"),
        "--positions",
        positions.to_str().expect("utf-8"),
    ];
    args.extend(paths);
    let o = run(&args);
    assert!(code(&o) <= 1, "parquet failed: {}", stderr(&o));
    let mut json_args = vec!["json", "-q"];
    json_args.extend(paths);
    let expected = json_games(&json_args);
    let games = rows(&read(&table));
    assert_eq!(games.len(), expected.len(), "one row per game of {paths:?}");
    let mut position_rows = rows(&read(&positions)).into_iter();
    for (row, json) in games.iter().zip(&expected) {
        let at = format!("{} game {}", json["file"], json["game"]);
        assert_eq!(row["file"], json["file"], "{at}");
        assert_eq!(row["game"], json["game"], "{at}");
        let tags: Vec<Value> = json["tags"]
            .as_array()
            .expect("tags")
            .iter()
            .map(|t| serde_json::json!({"name": t[0], "value": t[1]}))
            .collect();
        assert_eq!(row["tags"], Value::Array(tags.clone()), "{at}");
        for tag in &tags {
            if ["Event", "Site", "White", "Black", "Result", "Date", "Round"]
                .contains(&tag["name"].as_str().unwrap_or_default())
                && !tags.iter().any(|t| t["name"] == tag["name"] && t != tag)
            {
                assert_eq!(
                    row[tag["name"].as_str().unwrap_or_default()],
                    tag["value"],
                    "{at}"
                );
            }
        }
        assert_eq!(row["game_variant"], json["variant"], "{at}");
        assert_eq!(row["start_fen"], json["start_fen"], "{at}");
        assert_eq!(row["final_fen"], json["final_fen"], "{at}");
        let mainline = json["mainline"].as_array().expect("mainline");
        assert_eq!(row["plies"], Value::from(mainline.len()), "{at}");
        let chess =
            mainline.first().is_none_or(|m| m.get("san").is_some()) && row["moves"].is_null();
        let field = |name: &str| Value::Array(mainline.iter().map(|m| m[name].clone()).collect());
        if chess {
            assert_eq!(row["moves_san"], field("san"), "{at}");
            assert_eq!(row["moves_uci"], field("uci"), "{at}");
        } else {
            assert_eq!(row["moves"], field("move"), "{at}");
            assert!(
                row["moves_san"].is_null() && row["moves_uci"].is_null(),
                "{at}"
            );
        }
        assert_eq!(row["nags"], field("nags"), "{at}");
        if chess {
            let clocks: Vec<Value> = mainline.iter().map(|m| clock_of(&m["comments"])).collect();
            assert_eq!(row["clocks"], Value::Array(clocks), "{at}");
        }
        match &json["opening"] {
            Value::Null => assert!(row["opening_eco"].is_null(), "{at}"),
            opening => {
                assert_eq!(row["opening_eco"], opening["eco"], "{at}");
                assert_eq!(row["opening_name"], opening["name"], "{at}");
            }
        }
        let file = json["file"].as_str().unwrap_or_default();
        let game = json["game"].as_u64().unwrap_or_default();
        let diagnostics = json["diagnostics"].as_array().expect("diagnostics");
        let lines: Vec<Value> = diagnostics
            .iter()
            .map(|d| Value::from(check_line(file, game, d)))
            .collect();
        assert_eq!(row["diagnostics"], Value::Array(lines), "{at}");
        let errors = diagnostics
            .iter()
            .filter(|d| d["severity"] == "error")
            .count();
        assert_eq!(row["errors"], Value::from(errors), "{at}");
        assert_eq!(
            row["warnings"],
            Value::from(diagnostics.len() - errors),
            "{at}"
        );
        // The positions: the start, then one after each move, the moves between them.
        if json["start_fen"].is_null() {
            continue;
        }
        for ply in 0..=mainline.len() {
            let p = position_rows
                .next()
                .unwrap_or_else(|| panic!("{at}: no position row for ply {ply}"));
            assert_eq!(
                (&p["file"], &p["game"], &p["offset"]),
                (&row["file"], &row["game"], &row["offset"]),
                "{at}"
            );
            assert_eq!(p["ply"], Value::from(ply), "{at}");
            // (A draughts main line may start with a set-up of its own: its first
            // position is then the set-up's, not the tags'.)
            if ply == 0 && chess {
                assert_eq!(p["fen"], json["start_fen"], "{at}");
            }
            if ply == mainline.len() {
                assert_eq!(p["fen"], json["final_fen"], "{at}");
                assert!(p["move_san"].is_null() && p["move"].is_null(), "{at}");
            } else if chess {
                assert_eq!(p["move_san"], mainline[ply]["san"], "{at}");
                assert_eq!(p["move_uci"], mainline[ply]["uci"], "{at}");
            } else {
                assert_eq!(p["move"], mainline[ply]["move"], "{at}");
            }
            if chess {
                let fen = p["fen"].as_str().expect("a chess FEN");
                let ruleset = json["variant"]
                    .as_str()
                    .and_then(pgn::Ruleset::from_name)
                    .unwrap_or_default();
                let setup = pgn::fen::Setup::from_fen(fen).expect("the table's FEN reads");
                let position = pgn::Position::from_setup_auto_in(ruleset, &setup)
                    .expect("the table's FEN is a position");
                assert_eq!(
                    p["hash"],
                    Value::from(pgn::polyglot::key(&position)),
                    "{at} ply {ply}"
                );
            }
        }
    }
    assert!(
        position_rows.next().is_none(),
        "no position rows beyond the games'"
    );
}

#[test]
fn rows_match_json_on_the_corpus() {
    assert_rows_match_json(&["corpus"]);
}

/// The shared corpus of files written by others, when present (`.ci/run` sets the
/// variable): every uncompressed PGN and PDN file up to a few megabytes.
#[test]
fn rows_match_json_on_the_shared_corpus() {
    let Some(dir) = std::env::var_os("NOTATION_SHARED_CORPUS") else {
        eprintln!("NOTATION_SHARED_CORPUS is not set: the shared corpus tier is skipped");
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    let dir = if dir.is_absolute() {
        dir
    } else {
        common::root().join(dir)
    };
    let mut files = Vec::new();
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("a folder").flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("pgn" | "pdn")
            ) && entry.metadata().map(|m| m.len() < 4 << 20).unwrap_or(false)
            {
                files.push(path.display().to_string());
            }
        }
    }
    files.sort();
    assert!(!files.is_empty(), "the shared corpus has PGN and PDN files");
    for chunk in files.chunks(40) {
        let paths: Vec<&str> = chunk.iter().map(String::as_str).collect();
        assert_rows_match_json(&paths);
    }
}

#[test]
fn jobs_do_not_change_the_file() {
    let temp = Temp::new("parquet-jobs");
    // The corpus, and its chess games again and again: a file of several chunks, with
    // and without the positions table (which cuts the input into smaller ones).
    let generated = std::fs::read(common::root().join("corpus/pgn/generated.pgn")).expect("corpus");
    let long = temp.path("long.pgn");
    std::fs::write(&long, generated.repeat((3 << 20) / generated.len() + 1)).expect("long file");
    let long = long.to_str().expect("utf-8");
    for inputs in [vec!["corpus"], vec![long]] {
        jobs_give_the_same_bytes(&temp, &inputs, true);
    }
    jobs_give_the_same_bytes(&temp, &[long], false);
}

fn jobs_give_the_same_bytes(temp: &Temp, inputs: &[&str], with_positions: bool) {
    let mut written = Vec::new();
    for jobs in ["1", "3"] {
        let table = temp.path(&format!("games-{jobs}.parquet"));
        let positions = temp.path(&format!("positions-{jobs}.parquet"));
        let mut args = vec!["parquet", "-q", "--jobs", jobs];
        args.extend(inputs);
        args.extend(["-o", table.to_str().expect("utf-8")]);
        if with_positions {
            args.extend(["--positions", positions.to_str().expect("utf-8")]);
        }
        let o = run(&args);
        assert!(code(&o) <= 1, "{}", stderr(&o));
        written.push((
            std::fs::read(table).expect("games"),
            with_positions.then(|| std::fs::read(positions).expect("positions")),
        ));
    }
    assert!(
        written[0] == written[1],
        "--jobs 1 and --jobs 3 write the same bytes ({inputs:?}, positions: {with_positions})"
    );
}

#[test]
fn lichess_tags_have_lichess_types_and_moves_their_clocks_and_evaluations() {
    let temp = Temp::new("parquet-lichess");
    let pgn = temp.file(
        "one.pgn",
        b"[Event \"Rated Blitz game\"]\n[Site \"https://lichess.org/abcdefgh\"]\n[White \"a\"]\n[Black \"b\"]\n\
[Result \"0-1\"]\n[UTCDate \"2017.04.01\"]\n[UTCTime \"11:32:01\"]\n[WhiteElo \"2100\"]\n[BlackElo \"?\"]\n\
[WhiteRatingDiff \"-4\"]\n[BlackRatingDiff \"+1\"]\n[TimeControl \"300+0\"]\n\n\
1. f3 { [%eval -0.3] [%clk 0:05:00] } 1... e5 { [%clk 0:04:59.5] } 2. g4?? { [%eval #-1] } 2... Qh4# 0-1\n",
    );
    let table = temp.path("t.parquet");
    let o = run(&["parquet", "-q", &pgn, "-o", table.to_str().expect("utf-8")]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let rows = rows(&read(&table));
    let row = &rows[0];
    assert_eq!(
        row["UTCDate"],
        Value::from(17_257),
        "days from 1970-01-01 to 2017-04-01"
    );
    assert_eq!(row["UTCTime"], Value::from(41_521_000_000_i64));
    assert_eq!(
        (&row["WhiteElo"], &row["BlackElo"]),
        (&Value::from(2100), &Value::Null)
    );
    assert_eq!(
        (&row["WhiteRatingDiff"], &row["BlackRatingDiff"]),
        (&Value::from(-4), &Value::from(1))
    );
    assert_eq!(row["TimeControl"], "300+0");
    assert_eq!(
        row["moves_san"],
        serde_json::json!(["f3", "e5", "g4", "Qh4#"])
    );
    assert_eq!(
        row["moves_uci"],
        serde_json::json!(["f2f3", "e7e5", "g2g4", "d8h4"])
    );
    assert_eq!(row["clocks"], serde_json::json!([300.0, 299.5, null, null]));
    assert_eq!(
        row["evals"],
        serde_json::json!([{"cp": -30, "mate": null}, null, {"cp": null, "mate": -1}, null])
    );
    assert_eq!(row["nags"], serde_json::json!([[], [], [4], []]));
    assert_eq!(row["outcome"], "checkmate");
    assert_eq!(
        row["movetext"],
        "1. f3 {[%eval -0.3] [%clk 0:05:00]} 1... e5 {[%clk 0:04:59.5]} 2. g4 $4 {[%eval #-1]} 2... Qh4# 0-1"
    );
    assert_eq!(row["opening_eco"], "A00");
}

#[test]
fn variant_games_are_rows_of_their_variant_with_drops_and_variant_ends() {
    let temp = Temp::new("parquet-variants");
    let table = temp.path("games.parquet");
    let positions = temp.path("positions.parquet");
    let o = run(&[
        "parquet",
        "-q",
        "corpus/pgn/variants.pgn",
        "-o",
        table.to_str().expect("utf-8"),
        "--positions",
        positions.to_str().expect("utf-8"),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let games = rows(&read(&table));
    let variants: Vec<&str> = games
        .iter()
        .map(|r| r["game_variant"].as_str().expect("a variant"))
        .collect();
    let expected: Vec<&str> = [
        "Crazyhouse",
        "Atomic",
        "Antichess",
        "King of the Hill",
        "Three-check",
        "Horde",
        "Racing Kings",
    ]
    .iter()
    .flat_map(|v| [*v, *v])
    .collect();
    assert_eq!(variants, expected);
    // The crazyhouse games drop pieces, in SAN and UCI alike.
    for row in &games[..2] {
        let uci = row["moves_uci"].as_array().expect("UCI moves");
        let san = row["moves_san"].as_array().expect("SAN moves");
        let drops: Vec<(&Value, &Value)> = san
            .iter()
            .zip(uci)
            .filter(|(s, _)| s.as_str().is_some_and(|s| s.contains('@')))
            .collect();
        assert!(!drops.is_empty(), "{row:?}");
        for (s, u) in drops {
            let (s, u) = (
                s.as_str().unwrap_or_default(),
                u.as_str().unwrap_or_default(),
            );
            assert_eq!(s.trim_end_matches(['+', '#']), u, "a drop is written alike");
        }
    }
    // What the final positions decide, by each variant's rules.
    let outcomes: Vec<&Value> = games.iter().map(|r| &r["outcome"]).collect();
    assert_eq!(outcomes[3], "checkmate", "atomic game 4");
    assert_eq!(outcomes[5], "all pieces lost", "antichess game 6");
    assert_eq!(outcomes[7], "checkmate", "king of the hill game 8");
    assert_eq!(outcomes[8], "third check", "three-check game 9");
    assert_eq!(
        outcomes.iter().filter(|o| o.is_null()).count(),
        10,
        "the other games are open"
    );
    // A position per ply and one for the start; a crazyhouse FEN holds the pockets.
    let positions = rows(&read(&positions));
    let plies: u64 = games
        .iter()
        .map(|r| r["plies"].as_u64().expect("plies") + 1)
        .sum();
    assert_eq!(positions.len() as u64, plies);
    assert!(
        positions
            .iter()
            .filter(|p| p["game"] == 2)
            .all(|p| p["fen"].as_str().is_some_and(|f| f.contains('['))),
        "every position of crazyhouse game 2 has its pockets"
    );
}

#[test]
fn a_game_with_an_error_is_a_row_with_its_moves_up_to_the_error() {
    let temp = Temp::new("parquet-error");
    let pgn = temp.file(
        "bad.pgn",
        b"[Event \"a\"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n[Event \"b\"]\n\n1. d4 *\n",
    );
    let table = temp.path("t.parquet");
    let o = run(&["parquet", "-q", &pgn, "-o", table.to_str().expect("utf-8")]);
    assert_eq!(code(&o), 1, "an error is exit code 1");
    let rows = rows(&read(&table));
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["moves_san"], serde_json::json!(["e4", "e5"]));
    assert_eq!(rows[0]["errors"], 1);
    let diagnostic = rows[0]["diagnostics"][0].as_str().expect("a diagnostic");
    assert!(
        diagnostic.starts_with(&format!("{pgn}:3:13: error: ")),
        "{diagnostic}"
    );
    assert!(diagnostic.ends_with("(game 1)"), "{diagnostic}");
    assert_eq!(rows[1]["game"], 2);
    assert_eq!(rows[1]["moves_san"], serde_json::json!(["d4"]));
    assert_eq!(rows[1]["offset"], Value::from(36));
}

/// The rows of a table without the columns a range cannot know (`game`) or writes its
/// own way (`diagnostics`).
fn rows_without_numbers(path: &Path) -> Vec<serde_json::Map<String, Value>> {
    let mut rows = rows(&read(path));
    for row in &mut rows {
        row.remove("game");
        row.remove("diagnostics");
    }
    rows
}

#[test]
fn ranges_read_the_games_of_the_whole_file_each_once() {
    let temp = Temp::new("parquet-ranges");
    // Rows read by ranges that start past 0: the cuts do split the files.
    let mut split = 0;
    for file in ["corpus/pgn/generated.pgn", "corpus/pdn/lenient.pdn"] {
        let whole = temp.path("whole.parquet");
        let o = run(&["parquet", "-q", file, "-o", whole.to_str().expect("utf-8")]);
        assert!(code(&o) <= 1, "{}", stderr(&o));
        let expected = rows_without_numbers(&whole);
        let len = std::fs::metadata(common::root().join(file))
            .expect("a file")
            .len();
        for cuts in [
            vec![len / 3, 2 * len / 3],
            vec![1, len / 2 + 7],
            vec![len - 1],
        ] {
            let mut bounds = vec![0];
            bounds.extend(&cuts);
            let mut got = Vec::new();
            for (i, start) in bounds.iter().enumerate() {
                let range = match bounds.get(i + 1) {
                    Some(end) => format!("{start}..{end}"),
                    None => format!("{start}.."),
                };
                let part = temp.path(&format!("part{i}.parquet"));
                let o = run(&[
                    "parquet",
                    "-q",
                    file,
                    "--range",
                    &range,
                    "-o",
                    part.to_str().expect("utf-8"),
                ]);
                assert!(code(&o) <= 1, "{file} {range}: {}", stderr(&o));
                let rows = rows(&read(&part));
                assert!(
                    rows.iter().all(|r| r["game"].is_null()),
                    "a range numbers no game"
                );
                if i > 0 {
                    split += rows.len();
                }
                got.extend(rows_without_numbers(&part));
            }
            assert_eq!(got.len(), expected.len(), "{file} cut at {cuts:?}");
            assert!(
                got == expected,
                "{file} cut at {cuts:?}: the ranges hold the whole file's rows"
            );
        }
    }
    assert!(split > 10, "ranges past 0 read games ({split} rows)");
}

#[test]
fn a_range_of_a_compressed_file_is_a_usage_error() {
    let temp = Temp::new("parquet-range-compressed");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, b"[Event \"a\"]\n\n1. e4 *\n").expect("in memory");
    let file = temp.file("a.pgn.gz", &gz.finish().expect("in memory"));
    let out = temp.path("t.parquet");
    let o = run(&[
        "parquet",
        &file,
        "--range",
        "0..10",
        "-o",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("compressed input is read whole"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn each_compression_holds_the_same_rows_and_says_its_codec() {
    use parquet::basic::Compression;
    use parquet::file::reader::{FileReader, SerializedFileReader};

    let temp = Temp::new("parquet-compression");
    let mut tables = Vec::new();
    let mut sizes = Vec::new();
    for (args, codec) in [
        (&[][..], "ZSTD"),
        (&["--level", "19"][..], "ZSTD"),
        (&["--compression", "lz4"][..], "LZ4_RAW"),
        (&["--compression", "snappy"][..], "SNAPPY"),
        (&["--compression", "none"][..], "UNCOMPRESSED"),
    ] {
        let table = temp.path(&format!("games-{}.parquet", tables.len()));
        let mut command = vec!["parquet", "-q", "corpus/pgn/generated.pgn", "-o"];
        command.push(table.to_str().expect("utf-8"));
        command.extend_from_slice(args);
        let o = run(&command);
        assert_eq!(code(&o), 0, "{args:?}: {}", stderr(&o));
        let reader = SerializedFileReader::new(File::open(&table).expect("written")).expect("read");
        // The file names the codec, not the level it was written at.
        let written: Compression = reader.metadata().row_group(0).column(0).compression();
        let name = format!("{written:?}");
        assert_eq!(name.split('(').next(), Some(codec), "{args:?}");
        sizes.push(std::fs::metadata(&table).expect("written").len());
        tables.push(rows(&read(&table)));
    }
    assert!(tables.windows(2).all(|w| w[0] == w[1]), "the same rows");
    // zstd 19 is smaller than zstd 3, and nothing is larger than no compression.
    assert!(sizes[1] < sizes[0], "{sizes:?}");
    assert!(sizes.iter().all(|&s| s <= sizes[4]), "{sizes:?}");
    // A level is zstd's alone, and within 1–22; an unknown codec is refused by name.
    for args in [
        &["--compression", "lz4", "--level", "3"][..],
        &["--level", "23"][..],
        &["--compression", "brotli"][..],
    ] {
        let table = temp.path("refused.parquet");
        let mut command = vec!["parquet", "-q", "corpus/pgn/generated.pgn", "-o"];
        command.push(table.to_str().expect("utf-8"));
        command.extend_from_slice(args);
        let o = run(&command);
        assert_eq!(code(&o), 2, "{args:?}");
        assert!(!table.exists(), "{args:?}: nothing written");
    }
}
