//! PDN files read and written with the draughts rules: tags, set-ups, inference of the
//! game type, leniencies, results, the export format.
#![allow(clippy::unwrap_used, missing_docs)]

use notation::{
    DiagnosticKind, GameResult, GameTree, LineId, Nag, ReadGame, ReadOptions, Rules, Severity,
    read_games, to_export_string,
};
use pdn::commands::{Command, commands};
use pdn::{DraughtsRules, GameType, PDN_WRITE, PdnMove, Position, Variant};

fn read_with(rules: &DraughtsRules, text: &str, options: ReadOptions) -> Vec<ReadGame<PdnMove>> {
    read_games(rules, text.as_bytes(), options)
}

fn read(text: &str) -> Vec<ReadGame<PdnMove>> {
    read_with(&DraughtsRules::new(), text, ReadOptions::default())
}

fn one(text: &str) -> ReadGame<PdnMove> {
    let mut games = read(text);
    assert_eq!(games.len(), 1, "{text}");
    games.remove(0)
}

/// The game written in PDN 3.0, movetext only.
fn movetext(game: &GameTree<PdnMove>) -> String {
    let text = to_export_string(&DraughtsRules::new(), game, &PDN_WRITE).unwrap();
    let start = text.find("\n\n").map_or(0, |i| i + 2);
    text[start..].trim_end().to_owned()
}

fn messages(game: &ReadGame<PdnMove>) -> Vec<String> {
    game.diagnostics
        .iter()
        .map(|d| d.kind.to_string())
        .collect()
}

fn has_error(game: &ReadGame<PdnMove>) -> bool {
    game.diagnostics
        .iter()
        .any(|d| d.severity == Severity::Error)
}

/// Export, re-import: the same tree, and a fixed point.
fn round_trip(game: &ReadGame<PdnMove>) {
    let rules = DraughtsRules::new();
    let text = to_export_string(&rules, &game.game, &PDN_WRITE).unwrap();
    let again = read_games(&rules, text.as_bytes(), ReadOptions::default());
    assert_eq!(again.len(), 1, "{text}");
    let mut a = game.game.clone();
    let mut b = again[0].game.clone();
    a.tags = notation::Tags::new();
    b.tags = notation::Tags::new();
    assert_eq!(a, b, "{text}");
    assert_eq!(
        to_export_string(&rules, &again[0].game, &PDN_WRITE).unwrap(),
        text
    );
}

#[test]
fn declared_game_types() {
    let game = one("[GameType \"21\"]\n\n1. 11-15 23-19 2. 8-11 22-17 *\n");
    assert!(game.diagnostics.is_empty(), "{:?}", messages(&game));
    assert_eq!(movetext(&game.game), "1. 11-15 23-19 2. 8-11 22-17 *");

    // A lenient GameType value: forgiven, with a warning at the first movetext token.
    let game = one("[GameType \" 21,b,8,8,N1\"]\n\n1. 11-15 *\n");
    assert!(!has_error(&game));
    let found = messages(&game);
    assert!(found.iter().any(|m| m.contains("spaces")), "{found:?}");
    assert!(found.iter().any(|m| m.contains("lower-case")), "{found:?}");
    assert_eq!(game.diagnostics[0].location.line, 3);

    // lidraughts' Variant tag.
    let game = one("[Variant \"Russian\"]\n\n1. c3-d4 f6-g5 2. d4-e5 d6:f4 *\n");
    assert!(game.diagnostics.is_empty(), "{:?}", messages(&game));
    assert_eq!(movetext(&game.game), "1. c3-d4 f6-g5 2. d4-e5 d6:f4 *");
}

#[test]
fn unsupported_game_types_are_kept_as_text() {
    for tags in [
        "[GameType \"0\"]",
        "[GameType \"50\"]",
        "[Variant \"Antidraughts\"]",
    ] {
        let text = format!("{tags}\n\n1. e4 e5 {{a comment}} 2. Nf3 1-0\n");
        let game = one(&text);
        assert!(!has_error(&game), "{tags}");
        assert!(
            matches!(game.diagnostics[0].kind, DiagnosticKind::Unsupported { .. }),
            "{tags}: {:?}",
            messages(&game)
        );
        assert_eq!(game.game.mainline().count(), 0);
        let tail = game.game.tail.as_ref().unwrap();
        assert_eq!(tail.text, "1. e4 e5 {a comment} 2. Nf3");
        assert_eq!(movetext(&game.game), "1. e4 e5 {a comment} 2. Nf3 1-0");
    }
}

#[test]
fn invalid_set_ups_are_errors() {
    for tags in [
        "[GameType \"20,X,10,10,N2,0\"]",
        "[GameType \"twenty\"]",
        "[GameType \"20\"]\n[FEN \"W:W51:B1\"]",
        "[FEN \"X:W31:B1\"]",
    ] {
        let game = one(&format!("{tags}\n\n1. 32-28 *\n"));
        assert!(
            matches!(
                game.diagnostics.last().map(|d| &d.kind),
                Some(DiagnosticKind::BadSetup { .. })
            ),
            "{tags}: {:?}",
            messages(&game)
        );
        assert!(has_error(&game));
    }
}

#[test]
fn fen_tags_with_and_without_set_up() {
    for tags in [
        "[FEN \"W:W28:B19\"]",
        "[SetUp \"1\"]\n[FEN \"W:W28:B19\"]",
        "[Setup \"1\"]\n[FEN \"W:W28:B19\"]",
    ] {
        let game = one(&format!("[GameType \"20\"]\n{tags}\n\n1. 28-22 *\n"));
        assert!(game.diagnostics.is_empty(), "{tags}: {:?}", messages(&game));
    }
    let game = one("[GameType \"20\"]\n[SetUp \"1\"]\n\n1. 32-28 *\n");
    assert!(messages(&game)[0].contains("without a FEN"));
    // A man standing where it would have been crowned is read as a king.
    let game = one("[GameType \"20\"]\n[FEN \"W:W3:B40\"]\n\n1. 3-25 *\n");
    assert!(!has_error(&game), "{:?}", messages(&game));
    assert!(messages(&game)[0].contains("read as a king"));
}

#[test]
fn english_inferred_from_the_first_move() {
    let game = one("1. 11-15 23-19 2. 8-11 22-17 1-0\n");
    assert!(!has_error(&game));
    let found = messages(&game);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("read as English draughts"), "{found:?}");
    // English scores a win 1-0: the result is kept.
    assert_eq!(game.game.result, GameResult::FirstWins);
    assert_eq!(movetext(&game.game), "1. 11-15 23-19 2. 8-11 22-17 1-0");
    round_trip(&game);

    // Told that the collection is English, the reader forgives nothing.
    let rules = DraughtsRules::with_default(GameType::new(Variant::English));
    let games = read_with(&rules, "1. 11-15 23-19 *\n", ReadOptions::default());
    assert!(games[0].diagnostics.is_empty());
    // Without inference, the moves are not international draughts.
    let rules = DraughtsRules::new().inferring(false);
    let games = read_with(&rules, "1. 11-15 23-19 *\n", ReadOptions::default());
    assert!(has_error(&games[0]));
}

#[test]
fn english_inferred_from_a_later_move() {
    // 22-17 is legal in both games; 11-15 only in English (in international
    // draughts 11x22 is compulsory).
    let game = one("[FEN \"W:W22:B11\"]\n\n1. 22-17 11-15 *\n");
    assert!(!has_error(&game), "{:?}", messages(&game));
    let found = messages(&game);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("11-15: no GameType tag, and the move is not legal in International")
    );
    round_trip(&game);
}

#[test]
fn an_inferred_game_is_written_as_the_game_type_it_settled() {
    // English until the last move, which only Thai draughts plays; `32-23` is a capture
    // as Thai draughts writes it (English writes `32x23`). Written back as an English
    // game until then, it read back with an error.
    let game = one("[FEN \"B:W6,10,K32:B13,31\"]\n\n1. 31-27 32-23 2. 13-9 1-0\n");
    assert!(!has_error(&game), "{:?}", messages(&game));
    assert!(
        messages(&game)
            .last()
            .unwrap()
            .contains("read as Thai draughts")
    );
    assert_eq!(game.game.tags.get("GameType"), Some("31"));
    assert_eq!(movetext(&game.game), "1. 31-27 32-23 2. 13-9 1-0");
    round_trip(&game);
}

#[test]
fn a_numeric_fen_with_lidraughts_counters_is_numeric() {
    // `H0` and `F1` are lidraughts' move counters, not algebraic squares: the set-up reads
    // as international draughts, not as the first algebraic game type it fits.
    let game = one("[FEN \"W:W31,32,33:B1,2,3:H0:F1\"]\n\n1. 32-28 1-7 *\n");
    assert!(!has_error(&game), "{:?}", messages(&game));
    let found = messages(&game);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found.iter().all(|m| m.contains("lidraughts field")),
        "{found:?}"
    );
    round_trip(&game);
}

#[test]
fn russian_or_czech_by_the_capture_separator() {
    let russian = one("1. c3-d4 f6-g5 2. d4-e5 d6:f4 *\n");
    let czech = one("1. c3-d4 f6-g5 2. d4-e5 d6xf4 *\n");
    assert!(messages(&russian)[0].contains("read as Russian draughts"));
    assert_eq!(messages(&russian).len(), 1);
    assert!(messages(&czech)[1].contains("read as Czech draughts"));
    assert_eq!(movetext(&russian.game), "1. c3-d4 f6-g5 2. d4-e5 d6:f4 *");
    assert_eq!(movetext(&czech.game), "1. c3-d4 f6-g5 2. d4-e5 d6xf4 *");
    round_trip(&russian);
    round_trip(&czech);
}

#[test]
fn an_open_game_reports_the_preferred_readings_error() {
    // No reading can play 28-29: the error is international draughts', where a capture
    // is due, not that of another game type still open.
    let game = one("1. 32-28 19-23 2. 28-29 *\n");
    let found = messages(&game);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("a capture is compulsory"), "{found:?}");
    // Once the game is read as English draughts, English draughts' error.
    let game = one("1. 11-15 23-19 2. 15-14 *\n");
    let found = messages(&game);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].contains("read as English draughts"), "{found:?}");
    assert!(
        found[1].contains("no legal move goes from 15 to 14"),
        "{found:?}"
    );
}

#[test]
fn an_untagged_frisian_game_is_read_to_the_end_as_frisian() {
    // `35x15`, a capture straight up a file, which only Frisian draughts has: read by a
    // second reading, which keeps Frisian draughts in reserve.
    let text = "1. 32-28 20-24 2. 31-26 15-20 3. 28-23 19x28 4. 33x22 17x28 5. 37-31 20-25 \
                6. 35x15 5x25 7. 34-30 24x35 *";
    let game = one(text);
    assert!(!has_error(&game), "{:?}", messages(&game));
    assert_eq!(game.game.mainline().count(), 14);
    assert_eq!(
        messages(&game),
        [
            "35x15: no GameType tag, and the move is not legal in International draughts: read \
          as Frisian draughts (GameType \"40\")"
        ]
    );
    assert_eq!(game.game.tags.get("GameType"), Some("40"));
    round_trip(&game);
    // The validator reads it so too.
    let validated: Vec<_> = pdn::ValidatingReader::new(text.as_bytes())
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(validated[0].diagnostics, game.diagnostics);
    assert_eq!(validated[0].plies, 14);
}

#[test]
fn a_game_whose_lines_no_one_game_type_plays_keeps_its_first_reading() {
    // The main line plays `3. 38-32` where Frisian draughts must capture; the variation's
    // `3... 20x27` is Frisian draughts' alone. The second reading reads both, in two game
    // types: no game type settles the tree, so the first reading, and its error, stand,
    // in the validator too.
    let text = "1. 32-28 ( 1. 33-29 17-21 2. 32-28 12-17 3. 29-24 20x27 ) 1... 18-22 2. \
                28-23 19x28 3. 38-32 20-25 4. 32x23 13-19 5. 23-18 12x23 6. 31-27 22x31 7. \
                37x26 23-29 8. 33x13 8x19 *";
    let game = one(text);
    let errors: Vec<String> = game
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        errors,
        ["1:51: error: 20x27: 20x27: a capture is compulsory in this position (game 1)"]
    );
    assert_eq!(game.game.tags.get("GameType"), None);
    let validated: Vec<_> = pdn::ValidatingReader::new(text.as_bytes())
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(validated[0].diagnostics, game.diagnostics);
    assert_eq!(validated[0].plies as usize, game.game.node_count());
}

#[test]
fn numbering_declared_but_not_followed() {
    // kurnik.pdn: GameType 20 numbered from the bottom right, moves in the standard
    // numbering.
    let game = one("[GameType \"20,W,10,10,N1,0\"]\n\n1. 32-28 18-23 2. 33-29 23x32 *\n");
    assert!(!has_error(&game));
    let found = messages(&game);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("numbering of GameType \"20\""),
        "{found:?}"
    );
    round_trip(&game);
}

#[test]
fn pdn_2_habits_are_warnings() {
    let game = one("[GameType \"20\"]\n[Result \"1-0\"]\n\n\
         01. 32-28 19-23 02. 28x19 14x23 03. 33-28 23x32 04. 37x28 09-14 05. 34- 29 1-0\n");
    assert!(!has_error(&game));
    let kinds: Vec<_> = game.diagnostics.iter().map(|d| &d.kind).collect();
    let leading = kinds
        .iter()
        .filter(|k| matches!(k, DiagnosticKind::MoveNumberLeadingZero { .. }))
        .count();
    assert_eq!(leading, 5);
    let found = messages(&game);
    assert!(found.iter().any(|m| m.contains("`09` has a leading zero")));
    assert!(
        found
            .iter()
            .any(|m| m.contains("34- 29: spaces inside the move"))
    );
    assert!(
        found
            .iter()
            .any(|m| m == "non-standard termination marker 1-0; read as 2-0")
    );
    // Every warning has a position.
    assert!(game.diagnostics.iter().all(|d| d.location.line == 4));
    assert_eq!(game.game.result, GameResult::FirstWinsTwo);
    assert_eq!(
        movetext(&game.game),
        "1. 32-28 19-23 2. 28x19 14x23 3. 33-28 23x32 4. 37x28 9-14 5. 34-29 2-0"
    );
    // Strictly, each is an error.
    let strict = read_with(
        &DraughtsRules::new(),
        "[GameType \"20\"]\n\n01. 32-28 1-0\n",
        ReadOptions::strict(),
    );
    assert_eq!(strict[0].diagnostics.len(), 2);
    assert!(has_error(&strict[0]));
}

#[test]
fn separators_strengths_and_forced_moves() {
    // `*` glued to a move is a forced move ($7); `*` alone ends the game.
    let game = one("[GameType \"20\"]\n\n1. 32-28 19-23 2. 28x19* 14x23(!) 3. 33-28(?) *\n");
    assert!(game.diagnostics.is_empty(), "{:?}", messages(&game));
    let nags: Vec<Vec<Nag>> = game.game.mainline().map(|n| n.nags.clone()).collect();
    assert_eq!(nags[2], [Nag::FORCED]);
    assert_eq!(nags[3], [Nag::GOOD]);
    assert_eq!(nags[4], [Nag::MISTAKE]);
    assert_eq!(
        movetext(&game.game),
        "1. 32-28 19-23 2. 28x19 $7 2... 14x23! 3. 33-28? *"
    );
    // `-` for a capture, `x` for a step, `:` in an international game.
    let game = one("[GameType \"20\"]\n\n1. 32x28 19-23 2. 28-19 14:23 *\n");
    let found = messages(&game);
    assert_eq!(found.len(), 3, "{found:?}");
    assert_eq!(movetext(&game.game), "1. 32-28 19-23 2. 28x19 14x23 *");
    // Thai draughts captures with `-`.
    let thai = Position::new(Variant::Thai);
    assert!(thai.legal_moves().iter().all(|m| !m.is_capture()));
}

#[test]
fn results_in_the_game_types_tokens() {
    // International draughts scores 2-0; chess tokens are read as their counterparts.
    for (marker, result) in [("1-0", "2-0"), ("0-1", "0-2"), ("1/2-1/2", "1-1")] {
        let game = one(&format!("[GameType \"20\"]\n\n1. 32-28 {marker}\n"));
        assert_eq!(game.game.result.as_str(), result);
        assert_eq!(
            messages(&game),
            [format!(
                "non-standard termination marker {marker}; read as {result}"
            )]
        );
    }
    // And the other way round in English draughts.
    let game = one("[GameType \"21\"]\n\n1. 11-15 1-1\n");
    assert_eq!(game.game.result, GameResult::Draw);
    // 0-0 and * belong to every game type.
    let game = one("[GameType \"21\"]\n\n1. 11-15 0-0\n");
    assert!(game.diagnostics.is_empty());
    // A Result tag that is no result.
    let game = one("[GameType \"20\"]\n[Result \"4-6\"]\n\n1. 32-28 *\n");
    assert!(messages(&game)[0].starts_with("tag Result: \"4-6\" is not a result"));
    // The writer writes a built game's result in its game type's tokens.
    let mut built: GameTree<PdnMove> = GameTree::new();
    built.tags.set("GameType", "20");
    built.result = GameResult::FirstWins;
    let pos = Position::new(Variant::International);
    let (mv, _) = pos.parse_move("32-28").unwrap();
    built.push_move(LineId::MAIN, mv.into());
    let text = to_export_string(&DraughtsRules::new(), &built, &PDN_WRITE).unwrap();
    assert!(text.contains("[Result \"2-0\"]"), "{text}");
    assert!(text.ends_with("1. 32-28 2-0\n\n"), "{text}");
}

#[test]
fn moves_split_by_spaces_are_joined() {
    let game = one("[GameType \"20\"]\n\n1. 32- 28 19 -23 2. 28x 19 14x23 *\n");
    // `19 -23` is not a move cut short after its separator: it is refused.
    assert!(has_error(&game));
    let game = one("[GameType \"20\"]\n\n1. 32- 28 19-23 2. 28x 19 14x23 *\n");
    assert!(!has_error(&game), "{:?}", messages(&game));
    assert_eq!(game.game.mainline().count(), 4);
    assert_eq!(game.diagnostics[0].location.column, 4);
    // A cut move before something else than a move is read alone, and refused.
    let game = one("[GameType \"20\"]\n\n1. 32- {comment} 28 *\n");
    assert!(has_error(&game));
    assert_eq!(game.game.tail.as_ref().unwrap().text, "1. 32- {comment} 28");
}

#[test]
fn ambiguous_captures_wait_for_a_later_move() {
    // 45x49 takes 40, 33, 43 or 11, 20, 41: only the second leaves 33 to play 33-38.
    let text = "[GameType \"20\"]\n[FEN \"W:WK45:B11,20,33,40,41,43\"]\n\n1. 45x49 33-38 *\n";
    let game = one(text);
    assert!(!has_error(&game), "{:?}", messages(&game));
    let found = messages(&game);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("ambiguous capture: it could be 45x29x38x49 or 45x7x16x49"));
    let first = game.game.mainline().next().unwrap();
    assert_eq!(first.mv.alternatives().count(), 1);
    // Written back as ambiguously as it was read, so that the later move still reads.
    assert_eq!(movetext(&game.game), "1. 45x49 33-38 *");
    round_trip(&game);
    // A strict reader refuses it.
    let strict = read_with(&DraughtsRules::new(), text, ReadOptions::strict());
    assert!(has_error(&strict[0]));
    // Without a later move to tell, the first candidate is read.
    let game = one("[GameType \"20\"]\n[FEN \"W:WK45:B11,20,33,40,41,43\"]\n\n1. 45x49 *\n");
    let pos = Position::from_fen_str(Variant::International, "W:WK45:B11,20,33,40,41,43").unwrap();
    let mv = game.game.mainline().next().unwrap().mv.get().clone();
    assert_eq!(pos.move_to_text_full(&mv), "45x29x38x49");
    // Candidates that take the same pieces are one move, with no warning.
    let game = one("[GameType \"20\"]\n[FEN \"W:W33:B28,18\"]\n\n1. 33x13 *\n");
    assert!(game.diagnostics.is_empty());
}

#[test]
fn set_ups_in_the_movetext() {
    let text = "[GameType \"20\"]\n\n1. 31-26 17-21 /FEN \"B:B1-16,18-21:W26,28,33-50\"/ \
                {White forgot to make a capture and played 32-28 instead} 2... 21-27 *\n";
    let game = one(text);
    assert!(game.diagnostics.is_empty(), "{:?}", messages(&game));
    assert_eq!(
        movetext(&game.game),
        "1. 31-26 17-21 {White forgot to make a capture and played 32-28 instead}\n\
         /FEN \"B:B1-16,18-21:W26,28,33-50\"/ 2... 21-27 *"
    );
    round_trip(&game);
    // A variation that starts from another position.
    let game = one("[GameType \"20\"]\n\n1. 32-28 ( /FEN \"W:W40:B4\"/ 1. 40-35 ) 1... 19-23 *\n");
    assert!(game.diagnostics.is_empty(), "{:?}", messages(&game));
    round_trip(&game);
    // Gérard Taille's null move: the other side to move, the same pieces.
    let game = one("[GameType \"20\"]\n\n1. 32-28 /FEN \"W::\"/ 2. 28-22 *\n");
    assert!(game.diagnostics.is_empty(), "{:?}", messages(&game));
    // Set-ups that cannot be had.
    let game = one("[GameType \"20\"]\n\n1. 32-28 /FEN \"W:W99\"/ 19-23 *\n");
    assert!(matches!(
        game.diagnostics[0].kind,
        DiagnosticKind::BadSetup { .. }
    ));
    let game = one("[GameType \"20\"]\n\n1. 32-28 /rotate board/ 19-23 *\n");
    assert!(matches!(
        game.diagnostics[0].kind,
        DiagnosticKind::Unsupported { .. }
    ));
}

#[test]
fn turns_and_move_numbers() {
    let rules = DraughtsRules::new();
    let setup = rules
        .start_position(&{
            let mut tags = notation::Tags::new();
            tags.set("GameType", "21");
            tags
        })
        .unwrap();
    // Black moves first in English draughts: the first player.
    assert_eq!(rules.turn(&setup.position), notation::Player::First);
    assert_eq!(rules.move_number(&setup.position), 1);
    assert_eq!(rules.dialect(), notation::Dialect::PDN);
    // A game that starts with the second player.
    let game = one("[GameType \"20\"]\n[FEN \"B:W31:B19\"]\n\n1... 19-23 2. 31-27 *\n");
    assert!(game.diagnostics.is_empty(), "{:?}", messages(&game));
    assert_eq!(movetext(&game.game), "1... 19-23 2. 31-27 *");
    let game = one("[GameType \"20\"]\n[FEN \"B:W31:B19\"]\n\n1. 19-23 *\n");
    assert!(messages(&game).is_empty() || !has_error(&game));
}

#[test]
fn clock_commands_in_comments() {
    let game = one(
        "[GameType \"20\"]\n\n1. 31-26 {[%clk 1:55:21]} 17-21 {Optional leading comments \
         [%clock w0:49:11 B0:50:02] optional trailing comments} *\n",
    );
    let found: Vec<Command> = game
        .game
        .mainline()
        .flat_map(|n| n.comments.iter())
        .flat_map(|c| commands(c).collect::<Vec<_>>())
        .collect();
    assert_eq!(found.len(), 2);
    assert_eq!(found[0].to_string(), "[%clk 1:55:21]");
    assert_eq!(found[1].to_string(), "[%clock w0:49:11 B0:50:02]");
    // Comments, commands included, are written back as they were read.
    assert!(movetext(&game.game).contains("{[%clk 1:55:21]}"));
    round_trip(&game);
}

#[test]
fn every_variant_reads_and_writes_its_own_moves() {
    let rules = DraughtsRules::new();
    for variant in Variant::ALL {
        let game_type = GameType::new(variant);
        let mut pos = Position::start(game_type);
        let mut moves = String::new();
        for _ in 0..10 {
            let legal = pos.legal_moves();
            let Some(mv) = legal.last() else { break };
            moves.push_str(&pos.move_to_text(mv));
            moves.push(' ');
            pos.play(mv).unwrap();
        }
        let text = format!(
            "[GameType \"{}\"]\n\n{moves}*\n",
            variant.game_type_number()
        );
        let games = read_with(&rules, &text, ReadOptions::strict());
        assert!(
            games[0].diagnostics.is_empty(),
            "{variant}: {:?}",
            games[0].diagnostics
        );
        assert_eq!(games[0].game.mainline().count(), 10, "{variant}");
        round_trip(&games[0]);
    }
}
