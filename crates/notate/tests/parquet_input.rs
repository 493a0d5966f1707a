//! Parquet tables as input: lichess's published games (`Lichess/standard-chess-games`
//! and its variant siblings) and the tables `notate parquet` writes read as the PGN they
//! hold, by every subcommand, with diagnostics placed by row.
//!
//! The tables are written here with the `parquet` crate, in lichess's schema, from games
//! of `corpus/`.

mod common;

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{Date32Type, Int16Type, Time64MicrosecondType};
use arrow_array::{
    Array, ArrayRef, Date32Array, Int16Array, RecordBatch, StringArray, Time32SecondArray,
};
use arrow_schema::{DataType, Field, Schema, TimeUnit};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::file::properties::WriterProperties;

use common::{Temp, code, run, stderr, stdout};

/// One game as a row of lichess's table (`None`: a null).
#[derive(Clone, Debug, Default)]
struct Row {
    text: [Option<String>; 11],
    ratings: [Option<i16>; 4],
    date: Option<i32>,
    time: Option<i32>,
    movetext: Option<String>,
}

/// lichess's string columns, in the order of [`Row::text`].
const TEXT_COLUMNS: [&str; 11] = [
    "Event",
    "Site",
    "White",
    "Black",
    "Result",
    "WhiteTitle",
    "BlackTitle",
    "ECO",
    "Opening",
    "Termination",
    "TimeControl",
];

/// lichess's rating columns, in the order of [`Row::ratings`].
const RATING_COLUMNS: [&str; 4] = ["WhiteElo", "BlackElo", "WhiteRatingDiff", "BlackRatingDiff"];

/// The standard chess games of the corpus that start from the start position, or
/// those of `variant`: each one's Result tag and movetext.
fn corpus_games(variant: Option<&str>) -> Vec<(String, String)> {
    let files: &[&str] = match variant {
        None => &["generated", "model", "annotated"],
        Some(_) => &["variants"],
    };
    let mut games = Vec::new();
    for file in files {
        let path = common::root().join(format!("corpus/pgn/{file}.pgn"));
        let text = std::fs::read_to_string(path).expect("a corpus file");
        for game in text.split("\n\n[") {
            let (tags, movetext) = game.split_once("\n\n").expect("tags, then movetext");
            let tag = |name: &str| {
                tags.lines()
                    .find_map(|l| l.trim_start_matches('[').strip_prefix(name))
                    .and_then(|v| v.strip_prefix(" \""))
                    .and_then(|v| v.strip_suffix("\"]"))
            };
            if tag("FEN").is_some() || tag("Variant") != variant {
                continue;
            }
            let result = tag("Result").unwrap_or("*");
            games.push((result.to_owned(), movetext.trim_end().to_owned()));
        }
    }
    games
}

/// Rows in lichess's manner from games of the corpus: every column set, except a few
/// nulls (row 2 has no ratings, row 3 no titles, row 4 no time, row 5 no `Opening`).
fn lichess_rows(variant: Option<&str>, event: &str) -> Vec<Row> {
    corpus_games(variant)
        .into_iter()
        .enumerate()
        .map(|(i, (result, movetext))| {
            let n = i as i16;
            let text = |s: String| Some(s);
            let mut row = Row {
                text: [
                    text(event.to_owned()),
                    text(format!("https://lichess.org/game{i:04}")),
                    text(format!("white{i}")),
                    text(format!("black{i}")),
                    text(result),
                    text("FM".to_owned()),
                    text("BOT".to_owned()),
                    text(format!("B{:02}", i % 100)),
                    text(format!("Opening number {i}")),
                    text("Normal".to_owned()),
                    text("180+2".to_owned()),
                ],
                ratings: [Some(1500 + n), Some(1600 - n), Some(n - 3), Some(3 - n)],
                date: Some(19_723 + i as i32),
                time: Some(3_600 * (i as i32 % 24) + 61 * i as i32),
                movetext: Some(movetext),
            };
            match i {
                2 => row.ratings = [None; 4],
                3 => (row.text[5], row.text[6]) = (None, None),
                4 => row.time = None,
                5 => row.text[8] = None,
                _ => {}
            }
            row
        })
        .collect()
}

/// lichess's schema; a variant table has no `ECO` and `Opening`.
fn lichess_schema(variant: bool) -> Arc<Schema> {
    let mut fields = Vec::new();
    for name in &TEXT_COLUMNS[..7] {
        fields.push(Field::new(*name, DataType::Utf8, true));
    }
    for name in RATING_COLUMNS {
        fields.push(Field::new(name, DataType::Int16, true));
    }
    fields.push(Field::new("UTCDate", DataType::Date32, true));
    fields.push(Field::new(
        "UTCTime",
        DataType::Time32(TimeUnit::Second),
        true,
    ));
    for name in &TEXT_COLUMNS[7..] {
        if !(variant && (*name == "ECO" || *name == "Opening")) {
            fields.push(Field::new(*name, DataType::Utf8, true));
        }
    }
    fields.push(Field::new("movetext", DataType::Utf8, true));
    Arc::new(Schema::new(fields))
}

/// The rows as a record batch of lichess's schema.
fn batch(rows: &[Row], variant: bool) -> RecordBatch {
    let schema = lichess_schema(variant);
    let text = |k: usize| -> ArrayRef {
        Arc::new(StringArray::from(
            rows.iter().map(|r| r.text[k].clone()).collect::<Vec<_>>(),
        ))
    };
    let mut columns: Vec<ArrayRef> = (0..7).map(text).collect();
    for k in 0..4 {
        columns.push(Arc::new(Int16Array::from(
            rows.iter().map(|r| r.ratings[k]).collect::<Vec<_>>(),
        )));
    }
    columns.push(Arc::new(Date32Array::from(
        rows.iter().map(|r| r.date).collect::<Vec<_>>(),
    )));
    columns.push(Arc::new(Time32SecondArray::from(
        rows.iter().map(|r| r.time).collect::<Vec<_>>(),
    )));
    for k in 7..11 {
        if !(variant && (k == 7 || k == 8)) {
            columns.push(text(k));
        }
    }
    columns.push(Arc::new(StringArray::from(
        rows.iter().map(|r| r.movetext.clone()).collect::<Vec<_>>(),
    )));
    RecordBatch::try_new(schema, columns).expect("columns of the schema")
}

/// Writes the rows as a Parquet file of lichess's schema, `group` rows to a row group.
fn write_table(path: &Path, rows: &[Row], variant: bool, group: usize) {
    let batch = batch(rows, variant);
    let properties = WriterProperties::builder()
        .set_max_row_group_row_count(Some(group))
        .build();
    let file = File::create(path).expect("a table file");
    let mut writer =
        ArrowWriter::try_new(file, batch.schema(), Some(properties)).expect("a writer");
    writer.write(&batch).expect("written");
    writer.close().expect("closed");
}

/// Every batch of a Parquet file.
fn read_table(path: &Path) -> Vec<RecordBatch> {
    ParquetRecordBatchReaderBuilder::try_new(File::open(path).expect("written"))
        .expect("a Parquet file")
        .build()
        .expect("a reader")
        .map(|b| b.expect("a batch"))
        .collect()
}

#[test]
fn fmt_writes_a_lichess_table_as_lichess_writes_its_pgn() {
    let temp = Temp::new("pq-fmt");
    let table = temp.path("games.parquet");
    let mut rows = lichess_rows(None, "Rated Blitz game");
    // The Seven Tag Roster's nulls: as lichess writes an unknown value.
    rows[1].text[0] = None;
    rows[1].text[2] = None;
    rows[1].text[4] = None;
    rows[1].date = None;
    write_table(&table, &rows, false, 1000);
    let out = run(&["fmt", table.to_str().expect("UTF-8")]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let pgn = stdout(&out);
    // fmt writes the Seven Tag Roster first and the others by name.
    let first = pgn.split("\n\n").next().expect("a tag section");
    assert_eq!(
        first,
        "[Event \"Rated Blitz game\"]\n[Site \"https://lichess.org/game0000\"]\n\
         [Date \"2024.01.01\"]\n[Round \"-\"]\n[White \"white0\"]\n[Black \"black0\"]\n\
         [Result \"0-1\"]\n[BlackElo \"1600\"]\n[BlackRatingDiff \"+3\"]\n\
         [BlackTitle \"BOT\"]\n[ECO \"B00\"]\n[Opening \"Opening number 0\"]\n\
         [Termination \"Normal\"]\n[TimeControl \"180+2\"]\n[UTCDate \"2024.01.01\"]\n\
         [UTCTime \"00:00:00\"]\n[WhiteElo \"1500\"]\n[WhiteRatingDiff \"-3\"]\n\
         [WhiteTitle \"FM\"]"
    );
    let games: Vec<&str> = pgn.split("\n[Event ").collect();
    assert_eq!(games.len(), rows.len());
    let second = games[1];
    assert!(second.starts_with("\"?\"]"), "{second}");
    assert!(second.contains("[Date \"????.??.??\"]"));
    assert!(second.contains("[White \"?\"]"));
    assert!(!second.contains("[UTCDate "));
    // The third has no ratings: its rating tags are left out, not written "?".
    assert!(!games[2].contains("Elo ") && !games[2].contains("RatingDiff "));
    assert!(!games[3].contains("Title "));
    assert!(!games[4].contains("[UTCTime "));
    assert!(!games[5].contains("[Opening "));
    // The moves are the corpus game's, as fmt writes them.
    let plain: String = corpus_games(None)
        .iter()
        .map(|(result, movetext)| format!("[Result \"{result}\"]\n\n{movetext}\n\n"))
        .collect();
    let original = run(&["fmt", &temp.file("plain.pgn", plain.as_bytes())]);
    let moves = |text: &str| -> Vec<String> {
        text.split("\n\n")
            .skip(1)
            .step_by(2)
            .map(|m| m.to_owned())
            .collect()
    };
    let mut expected = moves(&stdout(&original));
    // The second row's Result is null: "*", which fmt's movetext keeps from the game.
    let mut got = moves(&pgn);
    got.remove(1);
    expected.remove(1);
    assert_eq!(got, expected);
}

#[test]
fn the_lichess_columns_survive_fmt_then_parquet() {
    let temp = Temp::new("pq-trip");
    let table = temp.path("games.parquet");
    let rows = lichess_rows(None, "Rated Rapid game");
    write_table(&table, &rows, false, 5);
    let pgn = temp.path("games.pgn");
    let out = run(&[
        "fmt",
        table.to_str().expect("UTF-8"),
        "-o",
        pgn.to_str().expect("UTF-8"),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let back = temp.path("back.parquet");
    let out = run(&[
        "parquet",
        pgn.to_str().expect("UTF-8"),
        "-o",
        back.to_str().expect("UTF-8"),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let original = [batch(&rows, false)];
    let trip = read_table(&back);
    let mut compared = 0;
    for field in original[0].schema().fields() {
        let name = field.name();
        if name == "movetext" {
            // notate's is the movetext as fmt writes it.
            continue;
        }
        let before = values(&original, name);
        assert_eq!(before.len(), rows.len());
        assert_eq!(values(&trip, name), before, "{name} changed on the way");
        compared += 1;
    }
    assert_eq!(compared, 17);
    // The tags are read in the order lichess's PGN export writes them (as a table
    // straight from the table keeps them; fmt writes them in its own order).
    let direct = temp.path("direct.parquet");
    let out = run(&[
        "parquet",
        table.to_str().expect("UTF-8"),
        "-o",
        direct.to_str().expect("UTF-8"),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let direct = read_table(&direct);
    let tags = direct[0]
        .column_by_name("tags")
        .expect("tags")
        .as_list::<i32>()
        .value(0);
    let names: Vec<&str> = (0..tags.len())
        .map(|i| tags.as_struct().column(0).as_string::<i32>().value(i))
        .collect();
    assert_eq!(
        names,
        [
            "Event",
            "Site",
            "Date",
            "Round",
            "White",
            "Black",
            "Result",
            "UTCDate",
            "UTCTime",
            "WhiteElo",
            "BlackElo",
            "WhiteRatingDiff",
            "BlackRatingDiff",
            "WhiteTitle",
            "BlackTitle",
            "ECO",
            "Opening",
            "TimeControl",
            "Termination"
        ]
    );
}

/// A column's values over every batch, as text (`None`: a null); times in
/// microseconds, lichess's seconds and notate's microseconds alike.
fn values(batches: &[RecordBatch], name: &str) -> Vec<Option<String>> {
    let mut out = Vec::new();
    for batch in batches {
        let column = batch.column_by_name(name).expect("the column");
        for row in 0..column.len() {
            if column.is_null(row) {
                out.push(None);
                continue;
            }
            out.push(Some(match column.data_type() {
                DataType::Utf8 => column.as_string::<i32>().value(row).to_owned(),
                DataType::Int16 => column.as_primitive::<Int16Type>().value(row).to_string(),
                DataType::Date32 => column.as_primitive::<Date32Type>().value(row).to_string(),
                DataType::Time32(_) => (i64::from(
                    column
                        .as_primitive::<arrow_array::types::Time32SecondType>()
                        .value(row),
                ) * 1_000_000)
                    .to_string(),
                DataType::Time64(_) => column
                    .as_primitive::<Time64MicrosecondType>()
                    .value(row)
                    .to_string(),
                other => panic!("{name}: no text for {other}"),
            }));
        }
    }
    out
}

#[test]
fn check_places_diagnostics_by_row_and_column_of_the_movetext() {
    let temp = Temp::new("pq-check");
    let table = temp.path("games.parquet");
    let mut rows = lichess_rows(None, "Rated Blitz game");
    // Row 3's movetext with an illegal move at its 13th character.
    rows[2].movetext = Some("1. e4 e5 2. Ke3 Nf6 *".to_owned());
    rows[2].text[4] = Some("*".to_owned());
    write_table(&table, &rows, false, 4);
    let name = table.to_str().expect("UTF-8");
    let out = run(&["check", name]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let report = stdout(&out);
    // The row in place of a line, the column within its movetext.
    let expected = format!("{name}:row 3:13: error: Ke3: illegal move");
    assert!(report.starts_with(&expected), "{report}");
    assert!(report.contains("(game 3)"), "{report}");
    assert!(
        report.contains(&format!("files=1 games={} ", rows.len())),
        "{report}"
    );
    // Several threads place it alike.
    let jobs = run(&["check", "--jobs", "3", name]);
    assert_eq!(stdout(&jobs).lines().next(), report.lines().next());
}

#[test]
fn a_hive_folder_is_read_in_order_and_a_broken_table_fails_alone() {
    let temp = Temp::new("pq-hive");
    let rows = lichess_rows(None, "Rated Blitz game");
    let data = temp.path("data");
    let parts = [
        (
            "year=2024/month=02/train-00000-of-00001.parquet",
            &rows[8..],
        ),
        (
            "year=2024/month=01/train-00001-of-00002.parquet",
            &rows[4..8],
        ),
        (
            "year=2024/month=01/train-00000-of-00002.parquet",
            &rows[..4],
        ),
    ];
    for (file, part) in parts {
        let path = data.join(file);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("folders");
        write_table(&path, part, false, 3);
    }
    let out = run(&["fmt", data.to_str().expect("UTF-8")]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let sites: Vec<String> = stdout(&out)
        .lines()
        .filter_map(|l| l.strip_prefix("[Site \""))
        .map(|s| s.to_owned())
        .collect();
    let expected: Vec<String> = (0..rows.len())
        .map(|i| format!("https://lichess.org/game{i:04}\"]"))
        .collect();
    assert_eq!(sites, expected);

    // A table cut short (its footer lost) is an error of its own; the others are read.
    let whole = std::fs::read(data.join(parts[2].0)).expect("written");
    let broken = temp.file("broken.parquet", &whole[..whole.len() / 2]);
    let good = data.join(parts[1].0);
    let out = run(&["check", &broken, good.to_str().expect("UTF-8")]);
    assert_eq!(code(&out), 2);
    let errors = stderr(&out);
    assert!(
        errors.contains(&format!("{broken}: not a readable Parquet file")),
        "{errors}"
    );
    assert!(stdout(&out).contains("games=4 "), "{}", stdout(&out));
}

#[test]
fn a_variant_table_without_openings_reads_its_variant_from_the_event() {
    let temp = Temp::new("pq-variant");
    let table = temp.path("atomic.parquet");
    let rows = lichess_rows(Some("Atomic"), "Rated Atomic game");
    assert!(!rows.is_empty());
    write_table(&table, &rows, true, 10);
    let name = table.to_str().expect("UTF-8");
    let out = run(&["check", name]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert!(
        stdout(&out).contains(&format!("games={} ", rows.len())),
        "{}",
        stdout(&out)
    );
    let pgn = stdout(&run(&["fmt", name]));
    assert_eq!(
        pgn.matches("[Variant \"Atomic\"]").count(),
        rows.len(),
        "{pgn}"
    );
    assert!(
        !pgn.contains("[ECO ") && !pgn.contains("[Opening "),
        "{pgn}"
    );
}

#[test]
fn the_tables_notate_writes_read_back_as_the_main_lines_they_hold() {
    let temp = Temp::new("pq-own");
    let table = temp.path("own.parquet");
    let table = table.to_str().expect("UTF-8");
    // notate's `movetext` column holds a game's main line: a game without variations
    // comes back as it went, and any game the second time as the first.
    let direct = run(&["fmt", "corpus/pgn/model.pgn"]);
    assert_eq!(
        code(&run(&["parquet", "corpus/pgn/model.pgn", "-o", table])),
        0
    );
    assert_eq!(stdout(&run(&["fmt", table])), stdout(&direct));
    for file in ["corpus/pgn/annotated.pgn", "corpus/pdn/variant-russian.pdn"] {
        assert!(code(&run(&["parquet", file, "-o", table])) <= 1);
        let once = run(&["fmt", table]);
        assert!(code(&once) <= 1, "{file}: {}", stderr(&once));
        let text = temp.file("once.txt", stdout(&once).as_bytes());
        assert!(code(&run(&["parquet", &text, "-o", table])) <= 1);
        let twice = run(&["fmt", table]);
        assert!(!stdout(&once).is_empty());
        assert_eq!(stdout(&twice), stdout(&once), "{file}");
    }
}

#[test]
fn a_table_of_many_row_groups_reads_every_row_once_from_a_file_or_standard_input() {
    let temp = Temp::new("pq-groups");
    let table = temp.path("many");
    let one = lichess_rows(None, "Rated Blitz game");
    let rows: Vec<Row> = (0..300).map(|i| one[i % one.len()].clone()).collect();
    // Nothing in its name says Parquet: its first bytes do.
    write_table(&table, &rows, false, 7);
    let name = table.to_str().expect("UTF-8");
    let out = run(&["check", "--quiet", name]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("games=300 "), "{}", stdout(&out));
    let piped = std::process::Command::new(env!("CARGO_BIN_EXE_notate"))
        .args(["fmt", "-"])
        .stdin(File::open(&table).expect("written"))
        .output()
        .expect("notate runs");
    assert_eq!(code(&piped), 0, "{}", stderr(&piped));
    let direct = run(&["fmt", name]);
    assert_eq!(stdout(&piped), stdout(&direct));
}
