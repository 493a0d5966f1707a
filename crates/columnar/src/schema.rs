//! The two tables' schemas. README.md documents every column.

use std::sync::{Arc, OnceLock};

use arrow_schema::{DataType, Field, FieldRef, Fields, Schema, SchemaRef, TimeUnit};

/// An engine's evaluation of a position, as `[%eval …]` gives it: centipawns from
/// White's point of view, or a mate in so many moves (negative when Black mates).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Hundredths of a pawn.
    Centipawns(i32),
    /// Mate in this many moves.
    Mate(i32),
}

/// The tags with a column of their own, with lichess's names; the typed ones are read
/// by [`TypedTag`].
pub(crate) const TAG_COLUMNS: [(&str, TypedTag); 20] = [
    ("Event", TypedTag::Text),
    ("Site", TypedTag::Text),
    ("White", TypedTag::Text),
    ("Black", TypedTag::Text),
    ("Result", TypedTag::Text),
    ("UTCDate", TypedTag::Date),
    ("UTCTime", TypedTag::Time),
    ("WhiteElo", TypedTag::Rating),
    ("BlackElo", TypedTag::Rating),
    ("WhiteRatingDiff", TypedTag::Rating),
    ("BlackRatingDiff", TypedTag::Rating),
    ("ECO", TypedTag::Text),
    ("Opening", TypedTag::Text),
    ("Termination", TypedTag::Text),
    ("TimeControl", TypedTag::Text),
    ("Date", TypedTag::Text),
    ("Round", TypedTag::Text),
    ("WhiteTitle", TypedTag::Text),
    ("BlackTitle", TypedTag::Text),
    ("Variant", TypedTag::Text),
];

/// How a tag's column holds its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TypedTag {
    /// As written.
    Text,
    /// `date32`, from `YYYY.MM.DD`.
    Date,
    /// `time64[µs]`, from `HH:MM:SS`.
    Time,
    /// `int16`.
    Rating,
}

impl TypedTag {
    fn data_type(self) -> DataType {
        match self {
            TypedTag::Text => DataType::Utf8,
            TypedTag::Date => DataType::Date32,
            TypedTag::Time => DataType::Time64(TimeUnit::Microsecond),
            TypedTag::Rating => DataType::Int16,
        }
    }
}

/// The item of a list of strings (never null).
pub(crate) fn string_item() -> FieldRef {
    Arc::new(Field::new("item", DataType::Utf8, false))
}

/// The item of a list of values that may be missing (a move's clock or evaluation).
pub(crate) fn nullable_item(data_type: DataType) -> FieldRef {
    Arc::new(Field::new("item", data_type, true))
}

/// `{name, value}`: one tag pair as written.
pub(crate) fn tag_fields() -> Fields {
    Fields::from(vec![
        Field::new("name", DataType::Utf8, false),
        Field::new("value", DataType::Utf8, false),
    ])
}

/// `{cp, mate}`: an evaluation; one of the two is set.
pub(crate) fn eval_fields() -> Fields {
    Fields::from(vec![
        Field::new("cp", DataType::Int32, true),
        Field::new("mate", DataType::Int32, true),
    ])
}

pub(crate) fn tag_item() -> FieldRef {
    Arc::new(Field::new("item", DataType::Struct(tag_fields()), false))
}

pub(crate) fn eval_item() -> FieldRef {
    nullable_item(DataType::Struct(eval_fields()))
}

pub(crate) fn nags_item() -> FieldRef {
    Arc::new(Field::new(
        "item",
        DataType::List(Arc::new(Field::new("item", DataType::UInt16, false))),
        false,
    ))
}

fn list(item: FieldRef, nullable: bool, name: &str) -> Field {
    Field::new(name, DataType::List(item), nullable)
}

/// The games table: one row per game.
///
/// ```
/// let schema = columnar::games_schema();
/// assert_eq!(schema.field(0).name(), "file");
/// assert!(schema.field_with_name("moves_san").is_ok());
/// ```
pub fn games_schema() -> SchemaRef {
    static SCHEMA: OnceLock<SchemaRef> = OnceLock::new();
    SCHEMA
        .get_or_init(|| {
            let mut fields = vec![
                Field::new("file", DataType::Utf8, false),
                Field::new("game", DataType::UInt64, true),
                Field::new("offset", DataType::UInt64, false),
            ];
            for (name, typed) in TAG_COLUMNS {
                fields.push(Field::new(name, typed.data_type(), true));
            }
            fields.extend([
                list(tag_item(), false, "tags"),
                Field::new("movetext", DataType::Utf8, false),
                list(string_item(), true, "moves_san"),
                list(string_item(), true, "moves_uci"),
                list(string_item(), true, "moves"),
                list(nullable_item(DataType::Float64), false, "clocks"),
                list(eval_item(), false, "evals"),
                list(nags_item(), false, "nags"),
                Field::new("plies", DataType::UInt32, false),
                Field::new("start_fen", DataType::Utf8, true),
                Field::new("final_fen", DataType::Utf8, true),
                Field::new("outcome", DataType::Utf8, true),
                Field::new("game_variant", DataType::Utf8, false),
                Field::new("opening_eco", DataType::Utf8, true),
                Field::new("opening_name", DataType::Utf8, true),
                Field::new("errors", DataType::UInt32, false),
                Field::new("warnings", DataType::UInt32, false),
                list(string_item(), false, "diagnostics"),
            ]);
            Arc::new(Schema::new(fields))
        })
        .clone()
}

/// The positions table: one row per position of a game's main line, its start
/// included.
///
/// ```
/// let schema = columnar::positions_schema();
/// assert_eq!(schema.field_with_name("hash")?.data_type(), &arrow_schema::DataType::UInt64);
/// # Ok::<(), arrow_schema::ArrowError>(())
/// ```
pub fn positions_schema() -> SchemaRef {
    static SCHEMA: OnceLock<SchemaRef> = OnceLock::new();
    SCHEMA
        .get_or_init(|| {
            Arc::new(Schema::new(vec![
                Field::new("file", DataType::Utf8, false),
                Field::new("offset", DataType::UInt64, false),
                Field::new("game", DataType::UInt64, true),
                Field::new("ply", DataType::UInt32, false),
                Field::new("fen", DataType::Utf8, true),
                Field::new("hash", DataType::UInt64, true),
                Field::new("move_san", DataType::Utf8, true),
                Field::new("move_uci", DataType::Utf8, true),
                Field::new("move", DataType::Utf8, true),
                Field::new("clock", DataType::Float64, true),
                Field::new("eval", DataType::Struct(eval_fields()), true),
            ]))
        })
        .clone()
}

/// How a column of a table is written, where Parquet's defaults (a dictionary and
/// minimum/maximum statistics for every column) only cost time.
pub(crate) struct ColumnWriting {
    /// The columns (Parquet paths) whose values are nearly all different, so that a
    /// dictionary repeats them once more and is given up only once it is full.
    pub(crate) without_dictionary: &'static [&'static str],
    /// The columns whose minimum and maximum no query prunes by: the items of the
    /// per-move lists, and texts that are long or unique. Comparing every value for them
    /// is a large part of writing.
    pub(crate) without_statistics: &'static [&'static str],
}

/// How the columns of `schema` are written: the games table's tuned, any other table's
/// as Parquet's defaults have it.
pub(crate) fn column_writing(schema: &Schema) -> ColumnWriting {
    if *schema == *games_schema() {
        ColumnWriting {
            // Not `movetext`: its dictionary fills and is given up within the first
            // rows, and written plain from the start its pages took more of the
            // system's memory (half as many page faults again, the time the statistics
            // saved).
            without_dictionary: &["game", "offset", "final_fen"],
            without_statistics: &[
                "tags.list.item.name",
                "tags.list.item.value",
                "movetext",
                "moves_san.list.item",
                "moves_uci.list.item",
                "moves.list.item",
                "clocks.list.item",
                "evals.list.item.cp",
                "evals.list.item.mate",
                "nags.list.item.list.item",
                "start_fen",
                "final_fen",
                "diagnostics.list.item",
            ],
        }
    } else {
        ColumnWriting {
            without_dictionary: &[],
            without_statistics: &[],
        }
    }
}
