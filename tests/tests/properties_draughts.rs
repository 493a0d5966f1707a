//! Seeded property tests of draughts in each of the fourteen variants of
//! [`Variant::ALL`] (strategies in `tests/src/arbitrary_draughts.rs`):
//!
//! - random legal games with comments, glyphs, variations and set-ups (the `FEN` tag,
//!   `/FEN "…"/` in the movetext, passes) read back from their PDN export as the same tree,
//!   with nothing to forgive, and their export is a fixed point;
//! - such games of the variants whose type is inferred, without their `GameType` tag, read
//!   back with no error and every move, and as the same tree once exported;
//! - a second reading of such a game (`Rules::second_reading`) reads it exactly as the
//!   first; games of the other variants, and Russian games written with `x`, without their
//!   `GameType` tag, read back with no error and every move (their first reading fails,
//!   the second does not), as the validator reads them too;
//! - FEN written and read back is the same position, in every position of random walks;
//! - every legal move in every position of random walks, written in its shortest form and
//!   with its full path, reads back as a move with the same effect, with nothing forgiven.
//!
//! Each property runs in each variant with its own fixed seed (no failure files), so that
//! every run checks the same cases. Set `PROPTEST_CASES` to run more of them.
#![allow(clippy::unwrap_used, missing_docs)]

use notation::{
    DiagnosticKind, GameResult, GameTree, MoveContext, Player, ReadOptions, Rules, Setup,
    SetupError, Severity, Tags, read_games, to_export_string,
};
use pdn::{
    DraughtsRules, GameType, INFERRED_VARIANTS, PDN_WRITE, PdnMove, PdnPosition, Position,
    ValidatingReader, Variant,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseResult, TestRunner};
use workspace_tests::arbitrary_draughts::{GameSpec, PositionSpec, game_spec, position_spec};

const RULES: DraughtsRules = DraughtsRules::new();

/// Runs a property in a variant: a fixed seed per variant, no failure persistence;
/// `PROPTEST_CASES` overrides the number of cases.
fn check<S: Strategy>(
    variant: Variant,
    cases: u32,
    strategy: S,
    test: impl Fn(Variant, S::Value) -> TestCaseResult,
) {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(cases);
    let config = Config {
        cases,
        rng_seed: RngSeed::Fixed(0x0d2a_0947_5eed_0000 | u64::from(variant.game_type_number())),
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    if let Err(e) = runner.run(&strategy, |value| test(variant, value)) {
        panic!("{variant} draughts: {e}");
    }
}

/// The tree without its tags, which the export completes with the roster.
fn without_tags(game: &GameTree<PdnMove>) -> GameTree<PdnMove> {
    let mut game = game.clone();
    game.tags = Tags::new();
    game
}

fn export(game: &GameTree<PdnMove>) -> String {
    to_export_string(&RULES, game, &PDN_WRITE).unwrap()
}

/// Export → import gives the same tree; the export is a fixed point.
fn round_trip(variant: Variant, spec: GameSpec) -> TestCaseResult {
    let game = spec.build(variant);
    let text = export(&game);
    let read = read_games(&RULES, text.as_bytes(), ReadOptions::default());
    prop_assert_eq!(read.len(), 1, "{}", text);
    let again = &read[0];
    prop_assert!(
        again.diagnostics.is_empty(),
        "{}\n{}",
        again
            .diagnostics
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n"),
        text
    );
    let same = if spec.declares(variant) {
        without_tags(&again.game) == without_tags(&game)
    } else {
        // A game that declares no type is read in every type its moves fit, and its moves
        // say so until one reading is left: compare the draughts moves.
        without_tags(&again.game).map_moves(PdnMove::into_move)
            == without_tags(&game).map_moves(PdnMove::into_move)
    };
    prop_assert!(
        same,
        "the tree read back differs from the tree written:\n{}\nread back:\n{}",
        text,
        export(&again.game)
    );
    for tag in &game.tags {
        prop_assert_eq!(
            again.game.tags.get(&tag.name),
            Some(tag.value.as_str()),
            "{}",
            text
        );
    }
    prop_assert_eq!(export(&again.game), text, "the export is not a fixed point");
    Ok(())
}

/// A game of a variant whose type is inferred ([`INFERRED_VARIANTS`]), exported without
/// its `GameType` tag, reads back with no error and with all its moves: its own game type
/// reads every move as written, so inference never drops it, however late the other
/// readings are checked. Its tree then exports to text that reads back as the same tree.
fn inferred_reads_every_move(variant: Variant, spec: GameSpec) -> TestCaseResult {
    let game = spec.build(variant);
    // Written as its game type writes it, then the tag is dropped.
    let declared = format!(
        "[GameType \"{}\"]\n",
        GameType::new(variant).to_short_string()
    );
    let text = export(&game).replacen(&declared, "", 1);
    prop_assert!(!text.contains("[GameType"), "{}", text);
    let read = read_games(&RULES, text.as_bytes(), ReadOptions::default());
    prop_assert_eq!(read.len(), 1, "{}", text);
    let first = &read[0];
    let errors: Vec<String> = first
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(ToString::to_string)
        .collect();
    prop_assert!(errors.is_empty(), "{}\n{}", errors.join("\n"), text);
    prop_assert_eq!(first.game.node_count(), game.node_count(), "{}", text);

    // Read, the game is one of the game type its moves settled, and says so: its export
    // reads back as the same tree, and is a fixed point.
    let exported = export(&first.game);
    let again = read_games(&RULES, exported.as_bytes(), ReadOptions::default());
    prop_assert_eq!(again.len(), 1, "{}", exported);
    prop_assert!(
        without_tags(&again[0].game) == without_tags(&first.game),
        "the game read back differs:\n{}\nwritten:\n{}\nread back:\n{}",
        text,
        exported,
        export(&again[0].game)
    );
    for tag in &first.game.tags {
        prop_assert_eq!(
            again[0].game.tags.get(&tag.name),
            Some(tag.value.as_str()),
            "{}",
            exported
        );
    }
    prop_assert_eq!(
        export(&again[0].game),
        exported,
        "the export is not a fixed point"
    );
    Ok(())
}

/// The draughts rules with every game that declares no type read as a second reading
/// reads it from the start (see [`Rules::second_reading`]).
struct SecondReading(DraughtsRules);

impl Rules for SecondReading {
    type Position = PdnPosition;
    type Move = PdnMove;
    type Forgiven = pdn::Forgiven;
    type MoveError = pdn::MoveError;

    fn dialect(&self) -> notation::Dialect {
        self.0.dialect()
    }
    fn start_position(&self, tags: &Tags) -> Result<Setup<PdnPosition>, SetupError> {
        self.0
            .second_reading(tags)
            .unwrap_or_else(|| self.0.start_position(tags))
    }
    fn inline_setup(
        &self,
        current: &PdnPosition,
        text: &str,
    ) -> Result<Setup<PdnPosition>, SetupError> {
        self.0.inline_setup(current, text)
    }
    fn move_continues(&self, token: &[u8]) -> bool {
        self.0.move_continues(token)
    }
    fn read_move(
        &self,
        board: &PdnPosition,
        token: &[u8],
        context: MoveContext,
    ) -> Result<(PdnMove, pdn::Forgiven), pdn::MoveError> {
        self.0.read_move(board, token, context)
    }
    fn write_move(&self, board: &PdnPosition, mv: &PdnMove, out: &mut String) {
        self.0.write_move(board, mv, out);
    }
    fn play(&self, board: &mut PdnPosition, mv: &PdnMove) {
        self.0.play(board, mv);
    }
    fn turn(&self, board: &PdnPosition) -> Player {
        self.0.turn(board)
    }
    fn move_number(&self, board: &PdnPosition) -> u64 {
        self.0.move_number(board)
    }
    fn game_result(
        &self,
        tags: &Tags,
        end: Option<&PdnPosition>,
        result: GameResult,
    ) -> (GameResult, Vec<DiagnosticKind>) {
        self.0.game_result(tags, end, result)
    }
    fn settle(
        &self,
        game: &mut GameTree<PdnMove>,
        end: &PdnPosition,
        text: &[u8],
        options: ReadOptions,
    ) {
        self.0.settle(game, end, text, options);
    }
}

/// A game's text without its `GameType` tag, exported as its game type writes it.
fn undeclared(variant: Variant, game: &GameTree<PdnMove>) -> String {
    let declared = format!(
        "[GameType \"{}\"]\n",
        GameType::new(variant).to_short_string()
    );
    export(game).replacen(&declared, "", 1)
}

/// A second reading reads a game exactly as the first when the first reads it without an
/// error: the same diagnostics, the same moves, the same export. (Its readings held in
/// reserve never come into play; those in play are the first reading's.)
fn second_reading_is_the_first(variant: Variant, spec: GameSpec) -> TestCaseResult {
    let text = undeclared(variant, &spec.build(variant));
    let first = read_games(&RULES, text.as_bytes(), ReadOptions::default());
    let second = read_games(
        &SecondReading(RULES),
        text.as_bytes(),
        ReadOptions::default(),
    );
    prop_assert_eq!(first.len(), 1);
    prop_assert!(!first[0].has_errors(), "{}", text);
    prop_assert_eq!(&first[0].diagnostics, &second[0].diagnostics, "{}", text);
    // The same moves (what a move records of the readings it leaves behind, those held
    // in reserve among them, may differ), written the same way.
    let moves = |game: &GameTree<PdnMove>| game.clone().map_moves(PdnMove::into_move);
    prop_assert!(moves(&first[0].game) == moves(&second[0].game), "{}", text);
    prop_assert_eq!(export(&first[0].game), export(&second[0].game), "{}", text);
    Ok(())
}

/// Writes each capture `c3:e5` of a movetext as `c3xe5` (squares on either side of the
/// colon): an algebraic game written with another game type's capture separator.
fn captures_with_x(text: &str) -> String {
    let b = text.as_bytes();
    let square = |i: usize| {
        b.get(i).is_some_and(u8::is_ascii_lowercase) && b.get(i + 1).is_some_and(u8::is_ascii_digit)
    };
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        let between_squares = i >= 2 && square(i - 2) && square(i + 1);
        out.push(if c == ':' && between_squares { 'x' } else { c });
    }
    out
}

/// A game that declares no type and that the inferred game types cannot all read (a
/// game of a variant not inferred, a Russian game written with `x`) has no error and every
/// move: where its first reading fails, its second reads on. The validator reads it as
/// the tree builder does, and its export reads back as the same tree.
fn second_reading_reads_every_move(
    variant: Variant,
    spec: GameSpec,
    write: fn(&str) -> String,
) -> TestCaseResult {
    let game = spec.build(variant);
    let text = write(&undeclared(variant, &game));
    let read = read_games(&RULES, text.as_bytes(), ReadOptions::default());
    prop_assert_eq!(read.len(), 1, "{}", text);
    let errors: Vec<String> = read[0]
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(ToString::to_string)
        .collect();
    prop_assert!(errors.is_empty(), "{}\n{}", errors.join("\n"), text);
    prop_assert_eq!(read[0].game.node_count(), game.node_count(), "{}", text);
    let validated: Vec<_> = ValidatingReader::new(text.as_bytes())
        .collect::<Result<_, _>>()
        .unwrap();
    prop_assert_eq!(&validated[0].diagnostics, &read[0].diagnostics, "{}", text);
    prop_assert_eq!(validated[0].plies as usize, game.node_count(), "{}", text);
    // Read as its own game type, it is written so and reads back as the same tree. (A
    // game its moves leave open may settle another game type that plays them all; and
    // a Spantsiretti set-up, of squares no inferred algebraic game type has, is read by
    // a first reading as a numbered board's, square by square.)
    let own = GameType::new(variant).to_short_string();
    if read[0].game.tags.get("GameType") != Some(own.as_str()) {
        return Ok(());
    }
    let exported = export(&read[0].game);
    let again = read_games(&RULES, exported.as_bytes(), ReadOptions::default());
    prop_assert!(
        without_tags(&again[0].game) == without_tags(&read[0].game),
        "{}\nwritten:\n{}",
        text,
        exported
    );
    Ok(())
}

/// FEN write → read gives the same FEN, pieces and side to move, with nothing forgiven, in
/// every position of a random walk.
fn fen_round_trip(variant: Variant, spec: PositionSpec) -> TestCaseResult {
    let game_type = GameType::new(variant);
    for pos in spec.walk(game_type) {
        let fen = pos.to_fen();
        let read = Position::from_fen(game_type, &fen);
        prop_assert!(read.is_ok(), "{}: {:?}", fen, read.err());
        let (back, warnings) = read.unwrap();
        prop_assert!(warnings.is_empty(), "{}: {:?}", fen, warnings);
        prop_assert_eq!(back.to_fen(), fen.clone());
        prop_assert_eq!(back.pieces(), pos.pieces(), "{}", fen);
        prop_assert_eq!(back.turn(), pos.turn(), "{}", fen);
    }
    Ok(())
}

/// For every legal move in every position of a random walk, the move written (shortest
/// and full) and read back is a move with the same effect, with nothing forgiven.
fn moves_round_trip(variant: Variant, spec: PositionSpec) -> TestCaseResult {
    for pos in spec.walk(GameType::new(variant)) {
        for m in pos.legal_moves() {
            for text in [pos.move_to_text(&m), pos.move_to_text_full(&m)] {
                let read = pos.parse_move(&text);
                prop_assert!(
                    read.is_ok(),
                    "{} in {}: {:?}",
                    text,
                    pos.to_fen(),
                    read.err()
                );
                let (back, warnings) = read.unwrap();
                prop_assert!(
                    back.same_effect(&m),
                    "{} in {} read as {}",
                    text,
                    pos.to_fen(),
                    pos.move_to_text_full(&back)
                );
                prop_assert!(
                    warnings.is_empty(),
                    "{} in {}: {:?}",
                    text,
                    pos.to_fen(),
                    warnings
                );
            }
        }
    }
    Ok(())
}

/// Games per variant per run of the round trip.
const GAME_CASES: u32 = 500;
/// Random walks (of up to 160 positions each) per variant per run of the FEN property.
const FEN_CASES: u32 = 150;
/// Random walks per variant per run of the move notation property.
const MOVE_CASES: u32 = 300;

/// Games per inferred variant per run of the inference round trip.
const INFERRED_CASES: u32 = 200;

#[test]
fn inferred_game_types_read_every_move() {
    for variant in INFERRED_VARIANTS {
        check(
            variant,
            INFERRED_CASES,
            game_spec(60),
            inferred_reads_every_move,
        );
    }
}

/// Games per variant per run of the second reading's properties.
const SECOND_CASES: u32 = 100;

#[test]
fn second_reading_of_an_inferred_game_is_the_first() {
    for variant in INFERRED_VARIANTS {
        check(
            variant,
            SECOND_CASES,
            game_spec(60),
            second_reading_is_the_first,
        );
    }
}

#[test]
fn undeclared_games_of_the_variants_not_inferred_read_every_move() {
    let not_inferred = Variant::ALL
        .into_iter()
        .filter(|v| !INFERRED_VARIANTS.contains(v));
    for variant in not_inferred {
        check(variant, SECOND_CASES, game_spec(60), |v, spec| {
            second_reading_reads_every_move(v, spec, str::to_owned)
        });
    }
}

#[test]
fn undeclared_russian_games_written_with_x_read_every_move() {
    check(
        Variant::Russian,
        2 * SECOND_CASES,
        game_spec(60),
        |v, spec| second_reading_reads_every_move(v, spec, captures_with_x),
    );
}

/// One test per property and variant: `round_trip_international`, …
macro_rules! variant_tests {
    ($($variant:ident: $round_trip:ident, $fen:ident, $moves:ident;)*) => {
        /// The variants tested, to check that none is missing.
        const TESTED: &[Variant] = &[$(Variant::$variant),*];

        $(
            #[test]
            fn $round_trip() {
                check(Variant::$variant, GAME_CASES, game_spec(60), round_trip);
            }

            #[test]
            fn $fen() {
                check(Variant::$variant, FEN_CASES, position_spec(160), fen_round_trip);
            }

            #[test]
            fn $moves() {
                check(Variant::$variant, MOVE_CASES, position_spec(160), moves_round_trip);
            }
        )*
    };
}

variant_tests! {
    International: round_trip_international, fen_international, moves_international;
    English: round_trip_english, fen_english, moves_english;
    Italian: round_trip_italian, fen_italian, moves_italian;
    Pool: round_trip_pool, fen_pool, moves_pool;
    Spanish: round_trip_spanish, fen_spanish, moves_spanish;
    Russian: round_trip_russian, fen_russian, moves_russian;
    Brazilian: round_trip_brazilian, fen_brazilian, moves_brazilian;
    Canadian: round_trip_canadian, fen_canadian, moves_canadian;
    Portuguese: round_trip_portuguese, fen_portuguese, moves_portuguese;
    Czech: round_trip_czech, fen_czech, moves_czech;
    Turkish: round_trip_turkish, fen_turkish, moves_turkish;
    Thai: round_trip_thai, fen_thai, moves_thai;
    Frisian: round_trip_frisian, fen_frisian, moves_frisian;
    Spantsiretti: round_trip_spantsiretti, fen_spantsiretti, moves_spantsiretti;
}

#[test]
fn every_variant_is_tested() {
    assert_eq!(TESTED, Variant::ALL);
}
