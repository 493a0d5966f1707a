//! What the subcommands need of a game's rules beyond [`notation::Rules`]: the FEN of a
//! position, a move's fields in JSON, the variant a game is played in, a diagram.
//!
//! Every subcommand that reads games is generic over [`Notate`], and [`chess`] and
//! [`draughts`] say which rules PGN and PDN files are read with. Plugging in other rules
//! is a matter of these two functions and one `impl Notate`.

use std::io;

use notation::{
    Diagnostic, GameReader, GameResult, GameTree, KeepRaw, LineId, RawRules, ReadOptions, Rules,
    WriteOptions,
};

use pgn::openings::{Classifier, Opening};

use crate::html;
use crate::json;
use crate::pipeline::Input;
use crate::svg;

/// A game's rules, as `notate` uses them.
pub trait Notate: Rules + Sync {
    /// How `fmt` writes a game.
    fn write_options(&self) -> WriteOptions;

    /// The variant a game is played in, for `json` and `stats`: from its tags, or from
    /// its moves where they settle it.
    fn variant(&self, game: &GameTree<Self::Move>) -> String;

    /// [`Notate::variant`] of a game whose start position ([`Notate::start`]) is known.
    fn variant_from(&self, game: &GameTree<Self::Move>, _start: Option<&Self::Position>) -> String {
        self.variant(game)
    }

    /// The start position of a game as `json` gives it: the tags' (the default), or the
    /// one of the game type its moves settled.
    fn start(&self, game: &GameTree<Self::Move>) -> Option<Self::Position> {
        self.start_position(&game.tags).ok().map(|s| s.position)
    }

    /// A position as FEN, when the rules know positions.
    fn fen(&self, position: &Self::Position) -> Option<String>;

    /// Appends the JSON fields naming a move played from `position` (no braces, no
    /// trailing comma): `"san":"e4","uci":"e2e4"` for chess, `"move":"32-28"` for
    /// draughts.
    fn move_fields<W: json::Out>(&self, position: &Self::Position, mv: &Self::Move, out: &mut W);

    /// A move as text, for `stats` (openings) and `show`.
    fn move_text(&self, position: &Self::Position, mv: &Self::Move) -> String {
        let mut out = String::new();
        self.write_move(position, mv, &mut out);
        out
    }

    /// A text diagram of a position, when the rules know positions.
    fn diagram(&self, position: &Self::Position) -> Option<String>;

    /// An SVG picture of a position, when the rules know positions (the default: they do
    /// not), with `last`, the move that led to it, and what the comments after that move
    /// mark (chess: `[%csl]` and `[%cal]`).
    fn svg(
        &self,
        position: &Self::Position,
        last: Option<&Self::Move>,
        comments: &[String],
        options: &svg::Options,
    ) -> Option<String> {
        let _ = (position, last, comments, options);
        None
    }

    /// A position as `notate html` holds it (its board, its cells, its FEN), when the
    /// rules know positions (the default: they do not).
    fn snapshot(&self, position: &Self::Position) -> Option<html::Snapshot> {
        let _ = position;
        None
    }

    /// The result a position (the end of a game's main line, [`main_line_end`]) decides
    /// by the rules of play alone, for `fmt --fix-results`: `None` when it decides none
    /// (the game may go on, or ended by resignation, agreement or a claim). The default:
    /// none (rules that keep no positions).
    fn board_result(&self, end: &Self::Position) -> Option<BoardVerdict> {
        let _ = end;
        None
    }

    /// Whether the rules name openings (chess): `json` then gives each game's opening,
    /// `eco` sets its tags, `stats` counts them.
    fn names_openings(&self) -> bool {
        false
    }

    /// The opening of a game, from the positions of its main line
    /// ([`pgn::openings::classify_game`]); `None` for rules that name none.
    fn opening(&self, _game: &GameTree<Self::Move>) -> Option<&'static Opening> {
        None
    }

    /// Gives the next position of a game's main line (its start first) to `classifier`,
    /// for a game read without its tree; nothing for rules that name no openings.
    fn see_opening(&self, _classifier: &mut Classifier, _position: &Self::Position) {}

    /// Which columns of the Parquet games table a game's moves go to: chess moves to
    /// `moves_san` and `moves_uci`, others to `moves` (the default).
    fn columnar_notation(&self) -> columnar::Notation {
        columnar::Notation::Draughts
    }

    /// Writes a move for the Parquet tables: its text in the game's notation to `text`,
    /// and for chess its UCI to `uci` (the default writes the text alone).
    fn move_columns(
        &self,
        position: &Self::Position,
        mv: &Self::Move,
        text: &mut String,
        uci: &mut String,
    ) {
        let _ = uci;
        self.write_move(position, mv, text);
    }

    /// Writes a move's columns as [`Notate::move_columns`] does and plays it: chess
    /// finds the check sign from the position it plays to, instead of playing the move
    /// once more to find it.
    fn play_with_columns(
        &self,
        position: &mut Self::Position,
        mv: &Self::Move,
        text: &mut String,
        uci: &mut String,
    ) {
        self.move_columns(position, mv, text, uci);
        self.play(position, mv);
    }

    /// These rules as chess's, for the work that has a way of its own for chess (the
    /// games table's rows, built without a tree); `None` for any other rules (the
    /// default).
    fn as_chess(&self) -> Option<&pgn::ChessRules> {
        None
    }

    /// A position's key for the positions table: for chess, its Polyglot key; `None`
    /// for rules with no such key (the default).
    fn position_key(&self, _position: &Self::Position) -> Option<u64> {
        None
    }

    /// What a position (the end of a main line) decides by the rules alone, for the
    /// `outcome` column: `checkmate`, `stalemate`, …; `None` when the game may go on
    /// (the default).
    fn outcome_name(&self, _end: &Self::Position) -> Option<&'static str> {
        None
    }

    /// The clock (seconds) and evaluation written in a move's comments, for the
    /// Parquet tables; `position` is the one the move was played from.
    fn clock_and_eval(
        &self,
        _position: &Self::Position,
        _comments: &[String],
    ) -> (Option<f64>, Option<columnar::Eval>) {
        (None, None)
    }

    /// Reads every game of `input` for `check`, passing each one's counts and diagnostics
    /// to `each`; returns the diagnostics outside any game.
    ///
    /// The default builds each game with [`GameReader`]; rules with a faster way to play
    /// every move without building a tree (a validating visitor) use it here.
    fn check_stream(
        &self,
        mut input: Input<'_>,
        options: ReadOptions,
        each: &mut dyn FnMut(Checked) -> io::Result<()>,
    ) -> io::Result<Vec<Diagnostic>>
    where
        Self: Sized,
    {
        let reader = input.reader(self.dialect(), options);
        let mut reader = GameReader::from_reader(self, reader).keep_raw(KeepRaw::Never);
        while let Some(game) = reader.read_game()? {
            each(Checked {
                moves: game.game.node_count() as u64,
                diagnostics: game.diagnostics,
            })?;
        }
        let orphans = reader.take_orphans();
        let buffer = reader.into_reader().into_vec();
        input.give_back(buffer);
        Ok(orphans)
    }
}

/// A result decided by the position on the board ([`Notate::board_result`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardVerdict {
    /// The result, spelled as the game's rules write it (`2-0` in international draughts).
    pub result: GameResult,
    /// Why, for the warning: `White mates`, `stalemate`, `Black cannot move`.
    pub reason: &'static str,
}

/// What checking one game found.
pub struct Checked {
    /// Moves played, variations included.
    pub moves: u64,
    /// Warnings and errors, in input order.
    pub diagnostics: Vec<Diagnostic>,
}

/// The rules for PGN files.
pub fn chess() -> pgn::ChessRules {
    pgn::ChessRules
}

/// The rules for PDN files: PDN's (international draughts unless a game's tags or moves
/// say otherwise), or, with a game type given (`--variant`), that game type for every
/// game that declares none, whatever its moves.
pub fn draughts(game_type: Option<pdn::GameType>) -> pdn::DraughtsRules {
    match game_type {
        None => pdn::DraughtsRules::new(),
        Some(game_type) => pdn::DraughtsRules::with_default(game_type).inferring(false),
    }
}

/// Reads the value of `--variant`: a draughts variant by name (`russian`, `checkers`, …),
/// a PDN `GameType` number (`25`), or a whole `GameType` value (`20,W,10,10,N1,0`).
///
/// Chess games name their variant in their own tags; the option is for draughts games
/// that do not.
pub fn parse_game_type(value: &str) -> Result<pdn::GameType, String> {
    if let Ok(variant) = value.parse::<pdn::Variant>() {
        return Ok(pdn::GameType::new(variant));
    }
    let lower = value.trim().to_ascii_lowercase();
    if matches!(lower.as_str(), "chess" | "chess960" | "0") {
        return Err(format!(
            "{value:?} is chess: chess games name their variant in a Variant tag; \
             --variant gives the game type of draughts games that have no GameType tag"
        ));
    }
    pdn::GameType::parse(value.trim()).map_err(|e| {
        format!(
            "{value:?} is not a draughts game type ({e}); expected international, english, \
             italian, pool, spanish, russian, brazilian, canadian, portuguese, czech, turkish, \
             thai, frisian, spantsiretti, or a GameType such as 25 or 20,W,10,10,N1,0"
        )
    })
}

impl Notate for RawRules {
    fn write_options(&self) -> WriteOptions {
        WriteOptions::PGN
    }

    fn variant(&self, game: &GameTree<Self::Move>) -> String {
        let tags = &game.tags;
        if self.dialect.strict_layout {
            tags.get("Variant").unwrap_or("Standard").to_owned()
        } else {
            tags.get("GameType").unwrap_or("20").to_owned()
        }
    }

    fn fen(&self, _: &Self::Position) -> Option<String> {
        None
    }

    fn move_fields<W: json::Out>(&self, _: &Self::Position, mv: &Self::Move, out: &mut W) {
        out.put("\"move\":");
        json::string(&mv.0, out);
    }

    fn diagram(&self, _: &Self::Position) -> Option<String> {
        None
    }
}

impl Notate for pgn::ChessRules {
    fn write_options(&self) -> WriteOptions {
        WriteOptions::PGN
    }

    fn variant(&self, game: &GameTree<Self::Move>) -> String {
        self.variant_from(game, self.start(game).as_ref())
    }

    fn variant_from(&self, game: &GameTree<Self::Move>, start: Option<&pgn::Position>) -> String {
        chess_variant(start, game.tags.get("Variant"))
    }

    fn fen(&self, position: &pgn::Position) -> Option<String> {
        Some(position.to_fen())
    }

    fn move_fields<W: json::Out>(&self, position: &pgn::Position, mv: &pgn::Move, out: &mut W) {
        out.put("\"san\":");
        json::string(&position.san(mv).to_string(), out);
        out.put(",\"uci\":");
        let uci = pgn::Uci::from_move(mv, position.castling_mode());
        json::string(&uci.to_string(), out);
    }

    fn svg(
        &self,
        position: &pgn::Position,
        last: Option<&pgn::Move>,
        comments: &[String],
        options: &svg::Options,
    ) -> Option<String> {
        Some(svg::chess(position, last, comments, options))
    }

    fn diagram(&self, position: &pgn::Position) -> Option<String> {
        Some(crate::show::chess_diagram(position))
    }

    fn snapshot(&self, position: &pgn::Position) -> Option<html::Snapshot> {
        Some(html::Snapshot::chess(position))
    }

    /// Checkmate (the side that mated wins), stalemate (a draw), or a variant's own end
    /// (an exploded king, the hill, a third check, …). Insufficient material
    /// and the seventy-five-move rule are left to the players' record: a game may have
    /// been scored otherwise (a flag fall against a bare king is still a draw, but one
    /// against a lone knight is not), and `--fix-results` only corrects what is certain.
    fn board_result(&self, end: &pgn::Position) -> Option<BoardVerdict> {
        let (result, reason) = match end.outcome()? {
            pgn::Outcome::Checkmate {
                winner: pgn::Color::White,
            } => (GameResult::FirstWins, "White mates"),
            pgn::Outcome::Checkmate {
                winner: pgn::Color::Black,
            } => (GameResult::SecondWins, "Black mates"),
            pgn::Outcome::Stalemate => (GameResult::Draw, "stalemate"),
            pgn::Outcome::Variant { winner, end } => (
                match winner {
                    Some(pgn::Color::White) => GameResult::FirstWins,
                    Some(pgn::Color::Black) => GameResult::SecondWins,
                    None => GameResult::Draw,
                },
                end.description(),
            ),
            pgn::Outcome::InsufficientMaterial | pgn::Outcome::SeventyFiveMoves => return None,
        };
        Some(BoardVerdict { result, reason })
    }

    fn names_openings(&self) -> bool {
        true
    }

    fn columnar_notation(&self) -> columnar::Notation {
        columnar::Notation::Chess
    }

    fn move_columns(
        &self,
        position: &pgn::Position,
        mv: &pgn::Move,
        text: &mut String,
        uci: &mut String,
    ) {
        position.san(mv).append_to(text);
        pgn::Uci::from_move(mv, position.castling_mode()).append_to(uci);
    }

    fn play_with_columns(
        &self,
        position: &mut pgn::Position,
        mv: &pgn::Move,
        text: &mut String,
        uci: &mut String,
    ) {
        let san = pgn::San::from_move(position, mv);
        pgn::Uci::from_move(mv, position.castling_mode()).append_to(uci);
        position.play_mut(mv);
        let suffix = pgn::san::Suffix::for_position(position);
        pgn::SanPlus { san, suffix }.append_to(text);
    }

    fn as_chess(&self) -> Option<&pgn::ChessRules> {
        Some(self)
    }

    fn position_key(&self, position: &pgn::Position) -> Option<u64> {
        Some(pgn::polyglot::key(position))
    }

    fn outcome_name(&self, end: &pgn::Position) -> Option<&'static str> {
        Some(match end.outcome()? {
            pgn::Outcome::Checkmate { .. } => "checkmate",
            pgn::Outcome::Stalemate => "stalemate",
            pgn::Outcome::InsufficientMaterial => "insufficient material",
            pgn::Outcome::SeventyFiveMoves => "seventy-five moves",
            pgn::Outcome::Variant { end, .. } => end.description(),
        })
    }

    /// `[%clk]` (or `[%clock]`) and `[%eval]`, the first of each in the move's comments
    /// that reads.
    fn clock_and_eval(
        &self,
        _position: &pgn::Position,
        comments: &[String],
    ) -> (Option<f64>, Option<columnar::Eval>) {
        let (mut clock, mut eval) = (None, None);
        for comment in comments {
            let (c, e) = pgn::commands::clock_and_eval(comment);
            clock = clock.or(c);
            eval = eval.or(e);
        }
        chess_clock_and_eval_cells(clock, eval)
    }

    fn opening(&self, game: &GameTree<Self::Move>) -> Option<&'static Opening> {
        pgn::openings::classify_game(game)
    }

    fn see_opening(&self, classifier: &mut Classifier, position: &pgn::Position) {
        classifier.push(position);
    }

    /// Checks with the chess crate's validating visitor: every move is resolved and
    /// played, variations included, without building a tree.
    fn check_stream(
        &self,
        mut input: Input<'_>,
        options: ReadOptions,
        each: &mut dyn FnMut(Checked) -> io::Result<()>,
    ) -> io::Result<Vec<Diagnostic>> {
        let reader = input.reader(self.dialect(), options);
        let mut reader = pgn::ValidatingReader::from_reader(reader);
        while let Some(game) = reader.read_game()? {
            each(Checked {
                moves: game.plies,
                diagnostics: game.diagnostics,
            })?;
        }
        let orphans = reader.take_orphans();
        let buffer = reader.into_reader().into_vec();
        input.give_back(buffer);
        Ok(orphans)
    }
}

impl Notate for pdn::DraughtsRules {
    fn write_options(&self) -> WriteOptions {
        pdn::PDN_WRITE
    }

    fn variant(&self, game: &GameTree<Self::Move>) -> String {
        match settled_board(self, game) {
            Some(board) => board.game_type().variant().name().to_owned(),
            // Game types the crate does not play (chess, Othello, …): as the tag says.
            None => game.tags.get("GameType").unwrap_or("?").to_owned(),
        }
    }

    fn start(&self, game: &GameTree<Self::Move>) -> Option<pdn::PdnPosition> {
        let start = self.start_position(&game.tags).ok()?.position;
        let settled = settled_board(self, game)?.game_type();
        if settled == start.game_type() {
            return Some(start);
        }
        // The moves settled another game type than the one first tried (a game with no
        // GameType tag whose first move is English, say): that game type's start.
        pdn::DraughtsRules::with_default(settled)
            .inferring(false)
            .start_position(&game.tags)
            .ok()
            .map(|s| s.position)
    }

    fn fen(&self, board: &pdn::PdnPosition) -> Option<String> {
        Some(board.position().to_fen())
    }

    fn move_fields<W: json::Out>(&self, board: &pdn::PdnPosition, mv: &pdn::PdnMove, out: &mut W) {
        out.put("\"move\":");
        json::string(&self.move_text(board, mv), out);
    }

    fn svg(
        &self,
        board: &pdn::PdnPosition,
        last: Option<&pdn::PdnMove>,
        _comments: &[String],
        options: &svg::Options,
    ) -> Option<String> {
        Some(svg::draughts(
            board.position(),
            last.map(pdn::PdnMove::get),
            options,
        ))
    }

    fn diagram(&self, board: &pdn::PdnPosition) -> Option<String> {
        Some(crate::show::draughts_diagram(board.position()))
    }

    fn snapshot(&self, board: &pdn::PdnPosition) -> Option<html::Snapshot> {
        Some(html::Snapshot::draughts(board.position()))
    }

    fn outcome_name(&self, end: &pdn::PdnPosition) -> Option<&'static str> {
        Some(match end.position().outcome()? {
            pdn::Outcome::Decisive { .. } => "cannot move",
            pdn::Outcome::Draw => "draw",
        })
    }

    /// `[%clk]`/`[%clock]` (the mover's time where both sides' are written) and
    /// `[%eval]`, the first of each in the move's comments.
    fn clock_and_eval(
        &self,
        board: &pdn::PdnPosition,
        comments: &[String],
    ) -> (Option<f64>, Option<columnar::Eval>) {
        use pdn::commands::Command;
        let mover = board.position().turn();
        let (mut clock, mut eval) = (None, None);
        for comment in comments.iter().filter(|c| c.contains("[%")) {
            for command in pdn::commands::commands(comment) {
                match command {
                    Command::Clk(clocks) | Command::Clock(clocks) if clock.is_none() => {
                        let readings = [Some(clocks.first), clocks.second];
                        let mine = readings
                            .iter()
                            .flatten()
                            .find(|r| r.side == Some(mover))
                            .unwrap_or(&clocks.first);
                        clock = Some(mine.time.as_secs() as f64);
                    }
                    Command::Other { name, value } if name == "eval" && eval.is_none() => {
                        eval = read_eval(&value);
                    }
                    _ => {}
                }
            }
        }
        (clock, eval)
    }

    /// The side to move that cannot move (no pieces left, or all blocked) loses, in
    /// every game type the draughts crate plays; the result is spelled in the game
    /// type's scale (`2-0` in international draughts, `1-0` in English draughts).
    fn board_result(&self, end: &pdn::PdnPosition) -> Option<BoardVerdict> {
        let position = end.position();
        let pdn::Outcome::Decisive { winner } = position.outcome()? else {
            return None;
        };
        let token = pdn::GameResult::win(winner).to_str(position.game_type().result_type());
        let reason = match winner {
            pdn::Color::White => "Black cannot move",
            pdn::Color::Black => "White cannot move",
        };
        Some(BoardVerdict {
            result: GameResult::from_token(token.as_bytes())?,
            reason,
        })
    }

    /// Checks with the draughts crate's validating visitor: every move is read and
    /// played with these rules, variations included, without building a tree.
    fn check_stream(
        &self,
        mut input: Input<'_>,
        options: ReadOptions,
        each: &mut dyn FnMut(Checked) -> io::Result<()>,
    ) -> io::Result<Vec<Diagnostic>> {
        let reader = input.reader(self.dialect(), options);
        let mut reader = pdn::ValidatingReader::from_reader_with_rules(reader, *self);
        while let Some(game) = reader.read_game()? {
            each(Checked {
                moves: game.plies,
                diagnostics: game.diagnostics,
            })?;
        }
        let orphans = reader.take_orphans();
        let buffer = reader.into_reader().into_vec();
        input.give_back(buffer);
        Ok(orphans)
    }
}

/// An `[%eval …]`'s arguments as the Parquet tables hold them (the same in chess and
/// draughts files); `None` when they do not read.
fn read_eval(args: &str) -> Option<columnar::Eval> {
    args.parse().ok().map(columnar_eval)
}

/// An evaluation as the Parquet tables hold it.
/// The variant a chess game is played in, from its start position and its `Variant`
/// tag ([`Notate::variant`]).
pub(crate) fn chess_variant(start: Option<&pgn::Position>, tag: Option<&str>) -> String {
    match start {
        // The ruleset the game is played by: a FEN with pockets makes a crazyhouse game
        // whether or not a Variant tag says so.
        Some(start) if start.ruleset() != pgn::Ruleset::Chess => start.ruleset().name().to_owned(),
        // A game that starts in a Chess960 position is a Chess960 game, whether or not
        // its Variant tag says so.
        Some(start) if start.castling_mode() == pgn::CastlingMode::Chess960 => {
            pgn::Variant::Chess960.name().to_owned()
        }
        _ => pgn::Variant::from_tag(tag.unwrap_or("")).name().to_owned(),
    }
}

/// A chess move's clock and evaluation as the tables hold them: seconds, and the score.
pub(crate) fn chess_clock_and_eval_cells(
    clock: Option<pgn::commands::ClockTime>,
    eval: Option<pgn::commands::Eval>,
) -> (Option<f64>, Option<columnar::Eval>) {
    let seconds = clock.map(|time| time.millis() as f64 / 1000.0);
    (seconds, eval.map(columnar_eval))
}

fn columnar_eval(eval: pgn::commands::Eval) -> columnar::Eval {
    match eval.score {
        pgn::commands::Score::Centipawns(cp) => columnar::Eval::Centipawns(cp),
        pgn::commands::Score::Mate(n) => columnar::Eval::Mate(n),
    }
}

/// The board after a draughts game's main line: its preferred reading is the game type the
/// moves settled (a game read in several game types keeps the first that reads them all).
fn settled_board(
    rules: &pdn::DraughtsRules,
    game: &GameTree<pdn::PdnMove>,
) -> Option<pdn::PdnPosition> {
    main_line_end(rules, game)
}

/// The position after a game's main line, its set-ups included; `None` when the start
/// position or a set-up cannot be set up.
pub fn main_line_end<R: Rules>(rules: &R, game: &GameTree<R::Move>) -> Option<R::Position> {
    let start = rules.start_position(&game.tags).ok()?.position;
    let mut end = None;
    walk_main_line(rules, start, game, |position, mv| {
        if mv.is_none() {
            end = Some(position.clone());
        }
        true
    });
    end
}

/// The position after an inline set-up, when there is one the rules accept (`position`
/// itself otherwise: the reader has reported the set-up).
pub fn apply_setup<R: Rules>(rules: &R, position: R::Position, setup: Option<&str>) -> R::Position {
    match setup {
        Some(text) => match rules.inline_setup(&position, text) {
            Ok(s) => s.position,
            Err(_) => position,
        },
        None => position,
    }
}

/// Calls `each` with every position of a game's main line played from `start` and the
/// move played from it (`None` after the last), in order, set-ups inside the movetext
/// included; stops when `each` returns `false`, or at a set-up that cannot be set up
/// (the reader reported it; `each` is not called with `None` then). Returns `false` when
/// the set-up before the first move cannot be set up.
pub fn walk_main_line<R: Rules>(
    rules: &R,
    position: R::Position,
    game: &GameTree<R::Move>,
    mut each: impl FnMut(&R::Position, Option<&R::Move>) -> bool,
) -> bool {
    walk_main_line_playing(rules, position, game, |position, mv| {
        if !each(position, mv) {
            return false;
        }
        if let Some(mv) = mv {
            rules.play(position, mv);
        }
        true
    })
}

/// [`walk_main_line`] for a caller that plays each move itself (so that it can write the
/// move as it plays it, [`Notate::play_with_columns`]): `each` gets the position and the
/// move to play from it, and leaves the position after that move when it goes on.
pub fn walk_main_line_playing<R: Rules>(
    rules: &R,
    mut position: R::Position,
    game: &GameTree<R::Move>,
    mut each: impl FnMut(&mut R::Position, Option<&R::Move>) -> bool,
) -> bool {
    if let Some(text) = &game.line(LineId::MAIN).setup {
        match rules.inline_setup(&position, text) {
            Ok(setup) => position = setup.position,
            Err(_) => return false,
        }
    }
    for node in game.mainline() {
        if !each(&mut position, Some(&node.mv)) {
            return true;
        }
        if let Some(text) = &node.setup {
            match rules.inline_setup(&position, text) {
                Ok(setup) => position = setup.position,
                Err(_) => return true,
            }
        }
    }
    each(&mut position, None);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every move of the chess corpus's main lines: writing its columns while playing it
    /// gives the text, UCI and position that writing them and then playing it give.
    #[test]
    fn playing_with_columns_is_writing_them_then_playing() {
        let rules = chess();
        let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/pgn");
        let mut moves = 0;
        for entry in std::fs::read_dir(corpus).expect("the corpus") {
            let text = std::fs::read(entry.expect("an entry").path()).expect("a file");
            for read in GameReader::new(&rules, &text[..], ReadOptions::default()) {
                let game = read.expect("in memory").game;
                let Some(start) = rules.start(&game) else {
                    continue;
                };
                walk_main_line(&rules, start, &game, |position, mv| {
                    let Some(mv) = mv else { return true };
                    let (mut text, mut uci) = (String::new(), String::new());
                    rules.move_columns(position, mv, &mut text, &mut uci);
                    let mut after = *position;
                    rules.play(&mut after, mv);
                    let mut played = *position;
                    let (mut text2, mut uci2) = (String::new(), String::new());
                    rules.play_with_columns(&mut played, mv, &mut text2, &mut uci2);
                    assert_eq!((text, uci), (text2, uci2));
                    assert_eq!(after, played);
                    moves += 1;
                    true
                });
            }
        }
        assert!(moves > 1000, "{moves} moves");
    }
}
