//! The command line's own types: what clap parses into, before it is handed to the
//! library ([`collection`]), which knows no command line.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use collection::{dedupe, input, range, select, split};

/// Check, format, scan and convert PGN (chess) and PDN (draughts) game collections.
///
/// Inputs are files, folders (read recursively for .pgn and .pdn files) and `-` for
/// standard input; .gz, .bz2 and .zst files are decompressed on the fly. The format comes
/// from the file name, else from the content; --format forces it.
#[derive(Parser)]
#[command(name = "notate", version, about, long_about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The inputs and how to read them: shared by the subcommands that read games.
#[derive(Args, Clone)]
pub struct Inputs {
    /// Files or folders (read recursively); `-` for standard input.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Read every input as this format instead of guessing it from the name or content.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Threads reading games [default: all cores]. Output stays in input order.
    #[arg(long, short, value_name = "N")]
    pub jobs: Option<usize>,
    /// Print less: no progress bar and no warnings on standard error (for `check`, only
    /// the summary).
    #[arg(long, short)]
    pub quiet: bool,
    /// Read draughts games that have no GameType tag as this game type, whatever their
    /// moves (a tag in the file still wins, with a warning where it differs): a variant
    /// (international, english, italian, pool, spanish, russian, brazilian, canadian,
    /// portuguese, czech, turkish, thai, frisian, spantsiretti) or a GameType (25,
    /// 20,W,10,10,N1,0). Without it, the game type of such games is inferred.
    #[arg(long, value_name = "NAME|GAMETYPE", value_parser = collection::rules::parse_game_type)]
    pub variant: Option<pdn::GameType>,
}

// `select`'s criteria make its variant large; the command is parsed once.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
pub enum Command {
    /// Read every game, play every move, report each diagnostic.
    ///
    /// Prints `path:line:column: error|warning: message (game N)` for each diagnostic and
    /// a summary line. Exits 0 when there is no error, 1 when there is one, 2 for usage
    /// or I/O failures.
    Check {
        #[command(flatten)]
        inputs: Inputs,
        /// Treat every departure from the standard's import format as an error.
        #[arg(long)]
        strict: bool,
    },
    /// Write every game in the export format (PGN) or the PDN writing form.
    ///
    /// A game that cannot be read is never dropped: it is passed through as written, with
    /// a warning, or moved to --rejects. Exits 1 when a game could not be read.
    Fmt {
        #[command(flatten)]
        inputs: Inputs,
        /// Write to this file instead of standard output.
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
        /// The reduced export format: the seven tag roster, no comments, no glyphs, no
        /// variations.
        #[arg(long)]
        reduced: bool,
        /// Write games that cannot be read here (as written) instead of into the output.
        #[arg(long, value_name = "FILE")]
        rejects: Option<PathBuf>,
        /// Make the Result tag and the termination marker agree with each other and with
        /// the board (checkmate, stalemate; a draughts side that cannot move), each change
        /// a warning. Where the board decides nothing and they disagree, the tag follows
        /// the marker.
        #[arg(long)]
        fix_results: bool,
        /// Add a PlyCount tag (the plies of the main line), or correct a wrong one (with
        /// a warning).
        #[arg(long)]
        plycount: bool,
    },
    /// Write the games into files named after a key of each game, in input order.
    ///
    /// `--by TAG` (a tag's value: White, Event, …), `--by eco1|eco2|eco3` (the first
    /// characters of the ECO tag), `--by year` (of the Date tag), or `--games N` (files
    /// `1.pgn`, `2.pgn`, … of N games each). Games without the key go to `unknown.pgn`
    /// (`.pdn`). Prints each file written with its number of games, then a summary.
    /// A game that cannot be read goes to its key's file as written, with a warning.
    Split {
        #[command(flatten)]
        inputs: Inputs,
        /// The folder of the files (created if missing; files of the same names in it
        /// are replaced).
        #[arg(long, value_name = "DIR")]
        out_dir: PathBuf,
        #[command(flatten)]
        key: SplitKey,
    },
    /// Write the games that match every criterion, in the export format.
    ///
    /// Prints `N of M games selected` on standard error. A game that cannot be read is
    /// never selected (unless --with-errors asks for such games): it is reported, and
    /// written to --rejects when given (else, with --invert, to the output), so that
    /// `select` and `select --invert` together hold every game. Exits 1 when a game
    /// could not be read. See README.md for each criterion.
    Select {
        #[command(flatten)]
        inputs: Inputs,
        /// Write to this file instead of standard output.
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Write the games that cannot be read here, as written.
        #[arg(long, value_name = "FILE")]
        rejects: Option<PathBuf>,
        /// Write the games that do not match instead.
        #[arg(long)]
        invert: bool,
        /// Find the games that reach --position in this position index (`notate index`
        /// of the same files) instead of reading every game: only the games it found are
        /// read again, judged by every criterion, and written as the scan writes them (the
        /// same games, in the same order). The FILEs must be files the index holds
        /// (checked by their size and content), read as it read them; games it did not
        /// find are not read, so that those that cannot be read are not reported.
        #[arg(long, value_name = "DIR", requires = "position",
              conflicts_with_all = ["invert", "rejects"])]
        index: Option<PathBuf>,
        #[command(flatten)]
        criteria: Criteria,
    },
    /// Write each game once: drop the games that repeat an earlier one.
    ///
    /// Duplicates have the same start position and main-line moves (--by moves), or the
    /// same final position after as many plies (--by position); tags, comments and
    /// variations do not count. Prints how many were dropped on standard error.
    Dedupe {
        #[command(flatten)]
        inputs: Inputs,
        /// Write to this file instead of standard output.
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Write the dropped games here, so that the output and this file together hold
        /// every game.
        #[arg(long, value_name = "FILE")]
        duplicates: Option<PathBuf>,
        /// What makes two games the same.
        #[arg(long, value_enum, default_value = "moves")]
        by: By,
        /// Which of the duplicates stays: the first, or the one with the most comments,
        /// variations and tags (written where the first stood).
        #[arg(long, value_enum, default_value = "first")]
        keep: Keep,
    },
    /// Write every game as fmt does, with the ECO and Opening tags of its opening.
    ///
    /// The opening is the deepest position of the main line that a named line of
    /// lichess's table of openings ends in (positions compare, so transpositions are
    /// found). Tags a game has stay unless --overwrite, with a warning where they differ
    /// from what the moves say; a game whose opening is not found gets no tags. Draughts
    /// games are written as fmt writes them. Exits 1 when a game could not be read.
    Eco {
        #[command(flatten)]
        inputs: Inputs,
        /// Write to this file instead of standard output.
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Replace the ECO and Opening tags a game has with what its moves say.
        #[arg(long)]
        overwrite: bool,
    },
    /// Read structure only (tags, move tokens, comments, glyphs, variations) and print
    /// counts. No move is checked: the fast path.
    Scan {
        #[command(flatten)]
        inputs: Inputs,
    },
    /// Write each game as one line of JSON (JSON Lines); see README.md for the fields.
    ///
    /// Exits 1 when a game has an error (its diagnostics say which).
    Json {
        #[command(flatten)]
        inputs: Inputs,
        /// Write to this file instead of standard output.
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Treat every departure from the standard's import format as an error.
        #[arg(long)]
        strict: bool,
    },
    /// Write one self-contained HTML page that lists the games and shows the one picked on
    /// a board, with its moves, comments, glyphs and variations, and the FEN of the position.
    ///
    /// No network: the style, the script and the pieces are in the page. A game with an
    /// error is listed with its moves up to the error and its diagnostics. Exits 1 when a
    /// game has an error.
    Html {
        #[command(flatten)]
        inputs: Inputs,
        /// Write to this file instead of standard output.
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Treat every departure from the standard's import format as an error.
        #[arg(long)]
        strict: bool,
    },
    /// Write the games as a Parquet table, one row per game (and with `--positions`, one
    /// row per main-line position in another), for DuckDB, Polars, pandas and Spark.
    ///
    /// Every game is a row, one with errors too (its moves up to the error, `errors` > 0).
    /// README.md lists the columns. Exits 1 when a game has an error.
    Parquet {
        #[command(flatten)]
        inputs: Inputs,
        /// The games table to write.
        #[arg(long, short, value_name = "FILE", required = true)]
        output: PathBuf,
        /// Also write the positions table to this file.
        #[arg(long, value_name = "FILE")]
        positions: Option<PathBuf>,
        /// How the tables' pages are compressed: zstd (smallest, the default), lz4 and
        /// snappy (faster to write and read, larger), or none.
        #[arg(long, value_name = "CODEC", default_value = "zstd")]
        compression: ParquetCompression,
        /// Zstandard's level, from 1 (fastest) to 22 (smallest) [default: 3].
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=22))]
        level: Option<u8>,
        /// Read only the games of this byte range of one uncompressed file: those from the
        /// first sure game boundary at or after START to the first at or after END (END
        /// left out: to the end). The ranges 0..a, a..b, …, z.. of any cut points hold
        /// every game of the file once, with the offsets a whole read gives; the `game`
        /// column is null, and diagnostics count lines from the byte where the range's
        /// reading starts, that first boundary (`file@BOUNDARY:line:column: …`).
        #[arg(long, value_name = "START..END")]
        range: Option<range::ByteRange>,
        /// Treat every departure from the standard's import format as an error.
        #[arg(long)]
        strict: bool,
    },
    /// Analyse every chess game's main line with UCI engines, and write the games with
    /// what they said.
    ///
    /// After every move an evaluation in lichess's form (`[%eval 0.17]`, `[%eval #-3]`,
    /// from White's side); the glyphs of inaccuracies (`?!`), mistakes (`?`) and blunders
    /// (`??`) by lichess's rule; and beside each mistake and blunder the engine's better
    /// line as a variation. What a game holds is kept (an evaluation already written, unless
    /// --overwrite). Runs --engines engine processes at once; each position is analysed
    /// from a clean state, once per run however many games reach it. A game with an error,
    /// and a draughts game (no draughts engine protocol is spoken yet), passes through
    /// unchanged with a warning; so does a game whose analysis failed twice (an engine that
    /// crashed or did not answer within --timeout is started again). Exits 2 when the engine
    /// cannot be started, 1 when a game could not be read. With --output the file is
    /// written in place, game by game, and a run interrupted (killed, or Ctrl-C) is gone on
    /// with by --resume.
    Annotate {
        #[command(flatten)]
        inputs: Inputs,
        /// Write to this file instead of standard output.
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
        /// The engine: a program that speaks UCI (Stockfish; Fairy-Stockfish for the chess
        /// variants).
        #[arg(long, value_name = "PATH")]
        engine: PathBuf,
        #[command(flatten)]
        limit: EngineLimit,
        /// Engine processes at once [default: all cores].
        #[arg(long, value_name = "K")]
        engines: Option<usize>,
        /// Threads of each engine (its `Threads` option) [default: 1, which keeps a node
        /// limit's results the same from run to run].
        #[arg(long, value_name = "N")]
        threads: Option<u32>,
        /// Each engine's hash table in MB (its `Hash` option).
        #[arg(long, value_name = "MB")]
        hash: Option<u32>,
        /// Another engine option, given as it is (repeatable).
        #[arg(long = "option", value_name = "NAME=VALUE", value_parser = parse_engine_option)]
        options: Vec<(String, String)>,
        /// How long an engine may take over a position before it is taken for dead, in
        /// seconds [default: ten times what the limit should take, at least 5 s; 60 s for
        /// --depth].
        #[arg(long, value_name = "SECONDS")]
        timeout: Option<f64>,
        /// Replace the evaluations already written.
        #[arg(long)]
        overwrite: bool,
        /// Write each player's accuracy (lichess's) as WhiteAccuracy and BlackAccuracy tags.
        #[arg(long)]
        accuracy_tags: bool,
        /// Keep the analyses in this file (made if missing) and take those it holds for the
        /// same engine, limit and options: a later run analyses only the positions no run
        /// has.
        #[arg(long, value_name = "FILE")]
        cache: Option<PathBuf>,
        /// Go on with an interrupted run that wrote --output: its whole games are kept,
        /// and the games after them analysed and written (the same file as a run never
        /// interrupted).
        #[arg(long, requires = "output")]
        resume: bool,
    },
    /// Build a position index of the inputs in a folder, for `explore` and `find`.
    ///
    /// `notate index FILE… -o DIR`, `notate index --append FILE… -o DIR`,
    /// `notate index --range START..END FILE -o SHARD`, `notate index --merge SHARD… -o DIR`.
    ///
    /// Every position of every game's main line is indexed with the move played from it,
    /// and each game with its players, ratings, month, speed and result, so that a query
    /// filters without reading the files again. One index holds one game (chess or
    /// draughts). A run that fails or is interrupted leaves the index as it was.
    Index {
        #[command(flatten)]
        inputs: Inputs,
        /// The index folder (made if missing; an index there is replaced, unless
        /// --append).
        #[arg(long, short, value_name = "DIR")]
        output: PathBuf,
        /// Add the inputs to the index in DIR, at the cost of reading them alone. A file
        /// already in it (the same size and content at its start and end) is refused.
        #[arg(long)]
        append: bool,
        /// Index the positions of variations too (at any depth), not the main lines'
        /// alone; an index is built one way or the other, and appended to the same way.
        #[arg(long)]
        variations: bool,
        /// The PATHs are indexes (shards built apart, on other machines or from other
        /// files): merge them into one in DIR, as one build over their inputs in that
        /// order would be. Shards of ranges of one file (--range) are given one after
        /// another, in the order of their ranges, which must cover the file exactly.
        #[arg(long, conflicts_with_all = ["append", "variations"])]
        merge: bool,
        /// Index only the games that begin in this byte range of one uncompressed file,
        /// as `notate parquet --range` reads them: DIR is then a shard, which --merge
        /// joins to the shards of the file's other ranges (0..a, a..b, …, z..) into the
        /// index of the whole file. A shard of a range that does not start the file
        /// cannot be asked before it is merged (it does not know how many games come
        /// before it).
        #[arg(long, value_name = "START..END", conflicts_with_all = ["append", "merge"])]
        range: Option<range::ByteRange>,
    },
    /// What was played from a position in an index's games, how it scored, at what
    /// rating, and its top and recent games (lichess's opening explorer).
    ///
    /// `notate explore DIR --moves "e4 c5 Nf3"`, `notate explore DIR --fen FEN --json`.
    /// Score is White's: wins and half the draws.
    Explore {
        /// The index folder.
        #[arg(value_name = "DIR")]
        index: PathBuf,
        #[command(flatten)]
        position: AskedPosition,
        #[command(flatten)]
        filter: ExploreFilter,
        /// Write lichess's explorer JSON (`white`, `draws`, `black`, `moves`, `topGames`,
        /// `recentGames`, `opening`).
        #[arg(long)]
        json: bool,
        /// Moves listed, the most played first.
        #[arg(long, default_value_t = 12, value_name = "N")]
        max_moves: usize,
        /// Top games listed (highest average rating).
        #[arg(long, default_value_t = 4, value_name = "N")]
        top: usize,
        /// Recent games listed.
        #[arg(long, default_value_t = 4, value_name = "N")]
        recent: usize,
    },
    /// Every game of an index that reached a position, after any number of plies and by
    /// any move order.
    ///
    /// Prints `file<TAB>game<TAB>offset` per game (`notate show FILE --game N` opens it),
    /// or with -o writes the games themselves as `fmt` does.
    Find {
        /// The index folder.
        #[arg(value_name = "DIR")]
        index: PathBuf,
        #[command(flatten)]
        position: AskedPosition,
        /// At most this many games.
        #[arg(long, value_name = "N")]
        limit: Option<usize>,
        /// Write the games to this file in the export format (read again from their
        /// files, which must not have changed since they were indexed).
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Answer a collection's explorer and games over HTTP, on this machine: the JSON API
    /// (`/api/explore`, `/api/find`, `/api/games/ID`; README has them).
    ///
    /// `notate serve DIR` (an index), `notate serve games.pgn club/ --index DIR` (the
    /// files, indexed first into DIR, or only those DIR does not hold yet),
    /// `notate serve games.pgn` (indexed into a temporary folder, removed at the end).
    /// Read only; `Ctrl-C` stops it.
    Serve {
        #[command(flatten)]
        inputs: Inputs,
        /// The index of the files: made if missing, the files it does not hold added.
        /// Without it, a PATH that is an index is served as it is, and files are indexed
        /// into a temporary folder.
        #[arg(long, value_name = "DIR")]
        index: Option<PathBuf>,
        /// The address to listen on: this machine alone unless told otherwise (another
        /// address is warned of: every program that reaches it can read the games).
        #[arg(long, default_value = "127.0.0.1:8080", value_name = "ADDR:PORT")]
        bind: std::net::SocketAddr,
    },
    /// Print statistics: games, plies, results, variants, tags, openings, diagnostics.
    Stats {
        #[command(flatten)]
        inputs: Inputs,
    },
    /// Count the leaves of the legal-move tree (perft), for chess, its variants or draughts.
    ///
    /// `notate perft 5`, `notate perft "FEN" 5`, `notate perft --variant english 8`,
    /// `notate perft --variant crazyhouse "2k5/8/8/8/8/8/8/4K3[Qn] w - -" 2`.
    /// The count is the last line printed.
    Perft {
        /// The game: chess (default), chess960, a chess variant (crazyhouse, atomic,
        /// antichess or giveaway, kingofthehill, threecheck or 3check, horde, racingkings:
        /// as a PGN Variant tag names it), a draughts variant (international, english,
        /// italian, pool, spanish, russian, brazilian, canadian, portuguese, czech,
        /// turkish, thai, frisian, spantsiretti), or a PDN GameType number. A FEN is read
        /// by that game's rules.
        #[arg(long, default_value = "chess", value_name = "NAME")]
        variant: String,
        /// An optional FEN (one argument, quoted, or its fields as separate arguments),
        /// then the depth.
        #[arg(required = true, num_args = 1.., value_name = "[FEN] DEPTH")]
        args: Vec<String>,
        /// Print each first move with its count.
        #[arg(long)]
        divide: bool,
        /// Threads [default: all cores].
        #[arg(long, short, value_name = "N")]
        jobs: Option<usize>,
    },
    /// Show a position as a text diagram: a FEN, or a game of a file after some plies.
    Show {
        #[command(flatten)]
        pick: Pick,
    },
    /// Draw a position as an SVG picture: a FEN, or a game of a file after some plies.
    ///
    /// Chess: the last move, a king in check, and the [%csl] squares and [%cal] arrows of
    /// the comments after that move (the board only: a crazyhouse position's pieces in
    /// hand and three-check's checks are not drawn; show prints them). Draughts (every board: 8×8, 10×10, 12×12, 10×8,
    /// Turkish): men and kings, the last move with a capture's path and the pieces it
    /// took.
    Svg {
        #[command(flatten)]
        pick: Pick,
        /// Write to this file instead of standard output.
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Turn the board: Black (the second player) at the bottom.
        #[arg(long)]
        flip: bool,
        /// The picture's width in pixels.
        #[arg(long, default_value_t = 400, value_name = "PX",
              value_parser = clap::value_parser!(u32).range(16..=20_000))]
        size: u32,
        /// Files and ranks around the board.
        #[arg(long)]
        coordinates: bool,
        /// Draughts: each playing square's number (or algebraic name, in games written so).
        #[arg(long)]
        numbers: bool,
    },
}

/// Which position `show` and `svg` show: a FEN, or a game of a file after some plies.
#[derive(Args, Clone)]
pub struct Pick {
    /// A FEN (chess, or draughts `W:W31-50:B1-20`), or a file (`-` for standard input).
    /// (A FEN may also be given as its fields, unquoted.) A chess FEN with pieces in hand
    /// (`[Qn]`) is crazyhouse, one with check counters (`+1+0`) three-check.
    #[arg(required = true, num_args = 1.., value_name = "FEN|FILE")]
    pub target: Vec<String>,
    /// Which game of the file, from 1.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub game: u64,
    /// The position after this many plies of the main line [default: all].
    #[arg(long, value_name = "K")]
    pub ply: Option<usize>,
    /// The game of a FEN (as for perft: chess, chess960, a chess variant such as
    /// crazyhouse or atomic, a draughts variant), guessed from the FEN otherwise; for a
    /// file, the game type of its draughts games that declare none (as for check; a chess
    /// game's variant is its Variant tag's).
    #[arg(long, value_name = "NAME")]
    pub variant: Option<String>,
    /// Read the file as this format instead of guessing it.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
}

/// A position as `explore` and `find` are asked about it.
#[derive(Args, Clone)]
pub struct AskedPosition {
    /// The position as FEN [default: the start position].
    #[arg(long, value_name = "FEN")]
    pub fen: Option<String>,
    /// Moves played from it: SAN (`"e4 c5 Nf3"`), draughts moves (`"32-28 19-23"`), or
    /// UCI (`e2e4,c7c5`); move numbers may be written.
    #[arg(long, value_name = "MOVES", default_value = "")]
    pub moves: String,
    /// The game of the FEN or start position: a chess variant (crazyhouse, atomic, …) or
    /// a draughts game type (russian, 25, …) [default: standard chess; international
    /// draughts].
    #[arg(long, value_name = "NAME")]
    pub variant: Option<String>,
}

/// Which games `explore` counts (lichess's filters).
#[derive(Args, Clone)]
pub struct ExploreFilter {
    /// Games played in this month or later (YYYY-MM).
    #[arg(long, value_name = "YYYY-MM")]
    pub since: Option<index::dims::Month>,
    /// Games played in this month or earlier (YYYY-MM).
    #[arg(long, value_name = "YYYY-MM")]
    pub until: Option<index::dims::Month>,
    /// Rating groups of the average rating: 0, 1000, 1200, 1400, 1600, 1800, 2000, 2200,
    /// 2500 (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "GROUPS")]
    pub ratings: Vec<index::dims::RatingGroup>,
    /// Speeds: ultraBullet, bullet, blitz, rapid, classical, correspondence
    /// (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "SPEEDS")]
    pub speeds: Vec<index::dims::Speed>,
    /// Only this player's games (the name in any case).
    #[arg(long, value_name = "NAME")]
    pub player: Option<String>,
    /// With --player: only the games where they had this colour (white or black).
    #[arg(long, requires = "player", value_name = "COLOR")]
    pub color: Option<index::Color>,
}

/// What `split` splits by: one of the two.
#[derive(Args, Clone)]
#[group(required = true, multiple = false)]
pub struct SplitKey {
    /// Files of N games each, named 1, 2, … in input order.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub games: Option<u64>,
    /// The key: a tag name (its value, as written: White, Event, Site…), eco1, eco2,
    /// eco3 (the first 1, 2 or 3 characters of the ECO tag) or year (of the Date tag).
    #[arg(long, value_name = "TAG|eco1|eco2|eco3|year", value_parser = split::parse_by)]
    pub by: Option<split::SplitBy>,
}

/// The notation of an input (the library's [`input::Format`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Chess: Portable Game Notation.
    Pgn,
    /// Draughts: Portable Draughts Notation.
    Pdn,
}

impl From<Format> for input::Format {
    fn from(format: Format) -> input::Format {
        match format {
            Format::Pgn => input::Format::Pgn,
            Format::Pdn => input::Format::Pdn,
        }
    }
}

/// What makes two games the same (the library's [`dedupe::By`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum By {
    /// The same start position and the same main-line moves.
    Moves,
    /// The same final position after the same number of plies.
    Position,
}

impl From<By> for dedupe::By {
    fn from(by: By) -> dedupe::By {
        match by {
            By::Moves => dedupe::By::Moves,
            By::Position => dedupe::By::Position,
        }
    }
}

/// Which of the duplicates stays (the library's [`dedupe::Keep`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Keep {
    /// The first in input order.
    First,
    /// The one with the most comments, variations and tags, where the first stood.
    Richest,
}

impl From<Keep> for dedupe::Keep {
    fn from(keep: Keep) -> dedupe::Keep {
        match keep {
            Keep::First => dedupe::Keep::First,
            Keep::Richest => dedupe::Keep::Richest,
        }
    }
}

/// `select`'s criteria as the command line gives them (the library's
/// [`select::Given`]): a game is selected when it matches all of them.
#[derive(Args, Clone, Debug, Default)]
pub struct Criteria {
    /// A tag test: `Name=value` (equal), `Name~text` (contains, ignoring case and
    /// accents), `Name>=value` (also `>`, `<`, `<=`, `!=`), `Name=LOW..HIGH`, `Name`
    /// (present), `!Name` (absent). Numbers, dates (`Date>=2020.01.01`), ECO codes and
    /// rounds compare as such. Repeatable: all must hold.
    #[arg(long = "tag", value_name = "TEST")]
    pub tags: Vec<String>,
    /// White or Black contains NAME, ignoring case and accents. Repeatable: all must hold.
    #[arg(long = "player", value_name = "NAME")]
    pub players: Vec<String>,
    /// The result: 1-0, 0-1, 1/2-1/2, *, or draughts' 2-0, 0-2, 1-1, 0-0 (a win is a
    /// win on either scale). Repeatable: any of them.
    #[arg(long = "result", value_name = "RESULT")]
    pub results: Vec<String>,
    /// Plies in the main line: MIN..MAX, MIN.., ..MAX or N.
    #[arg(long, value_name = "MIN..MAX")]
    pub plies: Option<String>,
    /// Moves in the main line (plies / 2, rounded up): MIN..MAX, MIN.., ..MAX or N.
    #[arg(long, value_name = "MIN..MAX")]
    pub moves: Option<String>,
    /// The main line starts with these moves, compared as moves: "1. e4 c5 2. Nf3".
    #[arg(long, value_name = "MOVES")]
    pub opening: Option<String>,
    /// A position of the main line: a FEN (chess: placement and side to move, placement
    /// alone for either side; draughts: either square notation, `?` for either side).
    #[arg(long, value_name = "FEN")]
    pub position: Option<String>,
    /// A position of the main line has exactly this material: chess `KQRPPkqrp`
    /// (upper case White), draughts men and kings per side `W:3m1k B:2m`.
    #[arg(long, value_name = "PIECES")]
    pub material: Option<String>,
    /// As --material, at least these pieces.
    #[arg(long, value_name = "PIECES")]
    pub material_at_least: Option<String>,
    /// The main line ends in checkmate (chess).
    #[arg(long)]
    pub checkmate: bool,
    /// The main line ends in stalemate (chess).
    #[arg(long)]
    pub stalemate: bool,
    /// A main-line pawn promotes to a rook, bishop or knight (chess).
    #[arg(long)]
    pub underpromotion: bool,
    /// A main-line position occurs a third time (chess).
    #[arg(long)]
    pub threefold: bool,
    /// The main line reaches fifty moves without a capture or pawn move (chess).
    #[arg(long)]
    pub fifty_moves: bool,
    /// Only games with an error (written as they were read).
    #[arg(long)]
    pub with_errors: bool,
    /// Only games without an error.
    #[arg(long)]
    pub without_errors: bool,
    /// Only games with a warning.
    #[arg(long)]
    pub with_warnings: bool,
}

impl From<Criteria> for select::Given {
    fn from(c: Criteria) -> select::Given {
        select::Given {
            tags: c.tags,
            players: c.players,
            results: c.results,
            plies: c.plies,
            moves: c.moves,
            opening: c.opening,
            position: c.position,
            material: c.material,
            material_at_least: c.material_at_least,
            checkmate: c.checkmate,
            stalemate: c.stalemate,
            underpromotion: c.underpromotion,
            threefold: c.threefold,
            fifty_moves: c.fifty_moves,
            with_errors: c.with_errors,
            without_errors: c.without_errors,
            with_warnings: c.with_warnings,
        }
    }
}

/// How long an engine searches each position: one of --nodes, --depth, --movetime
/// [default: --nodes 100000].
#[derive(Args, Clone, Debug, Default)]
#[group(multiple = false)]
pub struct EngineLimit {
    /// Nodes searched per position (with one thread, the same analysis every run).
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Search depth per position.
    #[arg(long, value_name = "D")]
    pub depth: Option<u32>,
    /// Milliseconds per position.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
}

impl EngineLimit {
    /// The limit asked for, or 100,000 nodes.
    pub fn limit(&self) -> engine::Limit {
        match (self.nodes, self.depth, self.movetime) {
            (_, Some(depth), _) => engine::Limit::Depth(depth),
            (_, _, Some(ms)) => engine::Limit::MoveTime(std::time::Duration::from_millis(ms)),
            (nodes, None, None) => engine::Limit::Nodes(nodes.unwrap_or(100_000)),
        }
    }
}

/// Reads `--option NAME=VALUE`.
fn parse_engine_option(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_owned(), value.trim().to_owned()))
        }
        _ => Err(format!("{text:?} is not NAME=VALUE")),
    }
}

/// `parquet --compression`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ParquetCompression {
    /// Zstandard.
    Zstd,
    /// LZ4 (Parquet's LZ4_RAW).
    Lz4,
    /// Snappy.
    Snappy,
    /// No compression.
    None,
}

impl ParquetCompression {
    /// The name `columnar::Codec::named` reads.
    pub fn name(self) -> &'static str {
        match self {
            ParquetCompression::Zstd => "zstd",
            ParquetCompression::Lz4 => "lz4",
            ParquetCompression::Snappy => "snappy",
            ParquetCompression::None => "none",
        }
    }
}
