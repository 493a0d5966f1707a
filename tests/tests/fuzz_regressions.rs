//! Inputs the fuzz targets (`fuzz/`) found to break an invariant, each kept here as a
//! regression test of the same invariant, minimised by hand. Every case states what went
//! wrong before the fix.
#![allow(clippy::unwrap_used, missing_docs)]

use notation::{RawRules, ReadOptions, Rules, WriteOptions, read_games, to_export_string};
use pdn::{DraughtsRules, PDN_WRITE};
use pgn::ChessRules;

/// Reads, writes, reads and writes again: the same number of games, and the same text.
fn assert_export_fixed_point<R: Rules>(rules: &R, input: &str, options: &WriteOptions) {
    let export = |text: &str| -> (usize, String) {
        let games = read_games(rules, text.as_bytes(), ReadOptions::default());
        let written = games
            .iter()
            .map(|g| to_export_string(rules, &g.game, options).unwrap())
            .collect();
        (games.len(), written)
    };
    let (count, first) = export(input);
    let (count_again, second) = export(&first);
    assert_eq!(count, count_again, "{first}");
    assert_eq!(first, second, "export is not a fixed point");
}

fn all_rules(input: &str) {
    assert_export_fixed_point(&ChessRules, input, &WriteOptions::default());
    assert_export_fixed_point(&DraughtsRules::new(), input, &PDN_WRITE);
    assert_export_fixed_point(&RawRules::PGN, input, &WriteOptions::default());
    assert_export_fixed_point(&RawRules::PDN, input, &PDN_WRITE);
}

/// `pgn_games`: the movetext kept after an unreadable move opened a variation and never
/// closed it; the termination marker written after it was read as text inside that
/// variation, so every export added one more `*`.
#[test]
fn tail_with_an_open_variation() {
    all_rules("1. e4 Zz ( 1... e5 *\n\n");
    all_rules("1. e4 Zz ( 1... e5 ( 1... c5 ) *\n\n");
}

/// The same with a brace comment left open in the kept text.
#[test]
fn tail_with_an_open_comment() {
    all_rules("1. e4 Zz {no end\n");
}

/// `pdn_games`: the kept text ended in an unterminated string (`rs"]`), which swallowed the
/// marker written after it; a string wrapped onto two lines by the writer would do the same.
#[test]
fn tail_with_an_open_string() {
    all_rules("[Event \"x\"]\n\nrs\"] *\n\n");
    all_rules(
        "1. Zz \"a long string that the writer must not wrap onto a second line, because a string ends at the end of its line\" *\n",
    );
}

/// `pgn_games`: a comment read after a move number, before a move that could not be read,
/// was kept in the tree and again in the kept text (which starts at the move number): each
/// export added one more comment.
#[test]
fn comment_between_a_move_number_and_an_unreadable_move() {
    all_rules("1 ;\nc");
    all_rules("1. e4 2. {two} $1 Zz9 *");
}

/// `pdn_games`: `±` in Latin-1 was read as a move (and refused), but as an evaluation
/// symbol once the export had written it in UTF-8.
#[test]
fn latin1_evaluation_symbol_and_draw() {
    all_rules_bytes(b"\xb1 *");
    all_rules_bytes(b"1. e4 \xb1 e5 \xbd-\xbd\n");
    let games = read_games(
        &ChessRules,
        &b"1. e4 \xb1 e5 \xbd-\xbd\n"[..],
        ReadOptions::default(),
    );
    assert_eq!(games[0].game.result, notation::GameResult::Draw);
}

/// `pdn_games`: a set-up with no closing `/` ends at its line's end; written on one line
/// with what followed it, it swallowed the termination marker.
#[test]
fn tail_with_an_open_setup() {
    all_rules("/\n1");
    all_rules("1. 32-28 /W:W31\n19-23 *");
}

/// `pgn_games`: the reduced export format dropped the `Variant` tag (and `FEN`, `SetUp`):
/// the game read back as another game, or not at all.
#[test]
fn reduced_export_keeps_the_start_tags() {
    let reduced = WriteOptions {
        reduced: true,
        ..WriteOptions::default()
    };
    let input = "[Variant \"Atomic\"]\n\nfoo *\n\n[SetUp \"1\"]\n[FEN \"7k/8/8/8/8/8/8/K5R1 w - - 0 1\"]\n\n1. Rg8+ Kxg8 *\n";
    assert_export_fixed_point(&ChessRules, input, &reduced);
    let games = read_games(&ChessRules, input.as_bytes(), ReadOptions::default());
    let text = to_export_string(&ChessRules, &games[1].game, &reduced).unwrap();
    assert!(
        text.contains("[FEN \"7k/8/8/8/8/8/8/K5R1 w - - 0 1\"]\n[SetUp \"1\"]\n"),
        "{text}"
    );
    let again = read_games(&ChessRules, text.as_bytes(), ReadOptions::default());
    assert!(!again[0].has_errors(), "{:?}\n{text}", again[0].diagnostics);
}

fn all_rules_bytes(input: &[u8]) {
    // Text that is not UTF-8: the first reading decodes it, the export is UTF-8.
    let export = |bytes: &[u8]| -> String {
        read_games(&ChessRules, bytes, ReadOptions::default())
            .iter()
            .map(|g| to_export_string(&ChessRules, &g.game, &WriteOptions::default()).unwrap())
            .collect()
    };
    let first = export(input);
    assert_eq!(export(first.as_bytes()), first);
    let export_pdn = |bytes: &[u8]| -> String {
        read_games(&DraughtsRules::new(), bytes, ReadOptions::default())
            .iter()
            .map(|g| to_export_string(&DraughtsRules::new(), &g.game, &PDN_WRITE).unwrap())
            .collect()
    };
    let first = export_pdn(input);
    assert_eq!(export_pdn(first.as_bytes()), first);
}

/// `pdn_games`: a set-up glued to a move number (`1./`) was taken for part of a word, and
/// not closed.
#[test]
fn setup_glued_to_a_move_number() {
    all_rules("}1./");
    all_rules("1./W:W31 */ 32-28");
}

/// `pgn_games`: a control character in a tag value was written as a space, which named
/// another variant (`Variant "\u{8}"` is unsupported, `Variant " "` is standard chess).
#[test]
fn control_character_in_a_tag_value() {
    all_rules("[Variant \"\u{8}\"]\n\n- *\n");
    let games = read_games(
        &ChessRules,
        &b"[Event \"a\tb\"]\n\n*\n"[..],
        ReadOptions::default(),
    );
    assert_eq!(games[0].game.tags.get("Event"), Some("a b"));
}

/// `pdn_games`: the start of a move number read in one game (`[1.`) was still held when
/// the next game's movetext was cut short, so that game's kept text began at the wrong
/// place: its own tag section went into the movetext.
#[test]
fn move_number_of_the_previous_game() {
    all_rules("[1.[GameType\"6\n2");
    let games = read_games(
        &DraughtsRules::new(),
        &b"[1.[GameType\"6\n2"[..],
        ReadOptions::default(),
    );
    assert_eq!(
        games[1].game.tail.as_ref().map(|t| t.text.as_str()),
        Some("2")
    );
}

/// `pgn_games`: the validator read a tag value's control characters as they are, the tree
/// builder as spaces: they disagreed on `[FEN "\0"]`.
#[test]
fn validator_reads_control_characters_in_tags_as_the_builder_does() {
    let input = &b"[FEN \"\0"[..];
    let tree = read_games(&ChessRules, input, ReadOptions::default());
    let fast: Vec<_> = pgn::ValidatingReader::new(input)
        .map(Result::unwrap)
        .collect();
    assert_eq!(tree.len(), fast.len());
    assert_eq!(tree[0].diagnostics, fast[0].diagnostics);
}

/// `pdn_games`: kept text starting with `%` was written at the start of the movetext's
/// first line, where `%` starts an escape line: the termination marker after it was lost.
#[test]
fn kept_text_starting_with_a_percent_sign() {
    all_rules("[[Variant\"F\"%");
    all_rules("[Variant \"Shogi\"]\n\n%x e4 *\n");
}

/// `pgn_games`: a comment before the tag section of a game whose moves are not read (an
/// unsupported variant) started the kept movetext, which then held the tags as well.
#[test]
fn comment_before_the_tags_of_an_unsupported_game() {
    all_rules("{}[Variant\"C");
    all_rules("{before} [Variant \"Shogi\"]\n\n1. e4 *\n");
    let games = read_games(
        &ChessRules,
        &b"{before} [Variant \"Shogi\"]\n\n1. e4 *\n"[..],
        ReadOptions::default(),
    );
    assert_eq!(
        games[0].game.line(notation::LineId::MAIN).comments,
        ["before"]
    );
    assert_eq!(
        games[0].game.tail.as_ref().map(|t| t.text.as_str()),
        Some("1. e4")
    );
}

/// `pdn_games`: two set-ups in a row, the second a pass (`/"B"/`, which keeps the pieces):
/// the tree keeps the second, but the moves were played from both, so the writer replayed
/// another position and panicked writing a square of another board.
#[test]
fn second_setup_in_the_same_place() {
    all_rules("/\"W60:B20\"\n/\"B\"/2025");
    let input = &b"/\"W60:B20\"\n/\"B\"/2025"[..];
    let tree = read_games(&DraughtsRules::new(), input, ReadOptions::default());
    let fast: Vec<_> = pdn::ValidatingReader::new(input)
        .map(Result::unwrap)
        .collect();
    assert_eq!(tree[0].diagnostics, fast[0].diagnostics);
}

/// `pdn_games`: kept text ending in a string cut short after a backslash (`E"\`): the
/// quote written to close it was read as an escaped quote.
#[test]
fn tail_with_an_open_string_ending_in_a_backslash() {
    all_rules("[GameType \"0\"]\nE\"\\");
    all_rules("[Variant \"Atomic\"]\n\nE\"\\\\\\\n*");
}

/// `pdn_games`: a game with no GameType whose set-up fits Turkish draughts first and whose
/// first move only international draughts reads (its algebraic squares forgiven) was
/// settled as international draughts without saying so. The writer, starting again from
/// the set-up, took the game for Turkish and wrote the international moves with Turkish
/// square names (`a1-f1`), which read back with an error.
#[test]
fn settled_game_type_that_the_set_up_does_not_fit_first() {
    let input = "[FEN \"W:Wa1,c1,01,g1,d2,f2,h2,c3,f4:Bb4,a5,c5,h6,g7,b8,f8,h8\"]\n\n1. a1-b2 *\n";
    let rules = DraughtsRules::new();
    let first = read_games(&rules, input.as_bytes(), ReadOptions::default());
    let errors = |g: &notation::ReadGame<pdn::PdnMove>| {
        g.diagnostics
            .iter()
            .filter(|d| d.severity == notation::Severity::Error)
            .count()
    };
    assert_eq!(errors(&first[0]), 0, "{:?}", first[0].diagnostics);
    assert_eq!(first[0].game.tags.get("GameType"), Some("20"));
    let written = to_export_string(&rules, &first[0].game, &PDN_WRITE).unwrap();
    let again = read_games(&rules, written.as_bytes(), ReadOptions::default());
    assert_eq!(
        errors(&again[0]),
        0,
        "{written}\n{:?}",
        again[0].diagnostics
    );
    assert_eq!(again[0].game.mainline().count(), 1, "{written}");
    assert_export_fixed_point(&rules, input, &PDN_WRITE);
}

/// `notation_reader`: a word starting with a digit and glued to PGN's `e.p.` mark
/// (`2e.p.pu`) was one token to the lexer but was cut before the mark by the reader's fast
/// path for digit-led moves, so the export of the kept text read back as other tokens.
#[test]
fn digit_led_word_glued_to_a_move_mark() {
    // The fast path reads movetext after a tag section; the lexer, the same text after
    // anything else. Both must give one token.
    for input in ["[Event \"x\"]\n\n1. 2e.p.pu *\n", "{x} 1. 2e.p.pu *\n"] {
        let games = read_games(&RawRules::PGN, input.as_bytes(), ReadOptions::default());
        let written = to_export_string(&RawRules::PGN, &games[0].game, &WriteOptions::default());
        assert!(written.unwrap().contains("1. 2e.p.pu *"), "{input}");
        all_rules(input);
    }
}

/// `notation_reader`: with `e.p.` after a space read as part of the move before it, two
/// tokens read apart (a capture at a line end, `e.p.…` on the next line) were written with
/// a space between them, and read back as one.
#[test]
fn move_mark_on_the_next_line() {
    all_rules("1. exd6\ne.p. c6 *\n");
    all_rules("1. 37x28\ne.p.pus 22 *\n");
}

/// `notation_reader`: a move number of twenty digits, read saturated at the largest
/// number, then a second-player move: raw rules counted the move after it one past the
/// largest number, an overflow (a panic where arithmetic is checked).
#[test]
fn the_largest_move_number_then_a_second_players_move() {
    all_rules("[Event \"a\"]\n\n77777777777777777777... e5 Nf3 *\n\n");
}

/// `notation_reader`: a token ending with the two characters `\r` (not before a line
/// end, where they are a program's carriage return) was written last on a line of the
/// export, where reading it back took them for the line end.
#[test]
fn a_token_ending_with_backslash_r_at_the_end_of_a_line() {
    let moves: String = (1..=30).map(|i| format!("{i}. e4\\r e5\\r ")).collect();
    all_rules(&format!("[Event \"a\"]\n\n{moves}*\n\n"));
    all_rules(&format!("[Event \"a\"]\n\n1. e4 Zz {moves}*\n\n"));
}
