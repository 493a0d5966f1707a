//! The notation layer over the project's corpus, read raw: snapshots of the export
//! format, round trips, and (when present) the shared corpus of real files.
#![allow(clippy::unwrap_used, missing_docs)]

use std::path::Path;

use notation::{
    GameReader, GameTree, RawMove, RawRules, ReadGame, ReadOptions, Rules, Severity, WriteOptions,
    read_games, to_export_string,
};
use workspace_tests::{corpus_files, files_in, shared_corpus};

fn rules_for(path: &Path) -> RawRules {
    if path.extension().is_some_and(|e| e == "pdn") {
        RawRules::PDN
    } else {
        RawRules::PGN
    }
}

fn export_all<R: Rules>(rules: &R, games: &[ReadGame<R::Move>]) -> String {
    games
        .iter()
        .map(|g| to_export_string(rules, &g.game, &WriteOptions::default()).unwrap())
        .collect()
}

/// The tree without its tags, which the export completes with the seven tag roster.
fn moves_only(game: &GameTree<RawMove>) -> GameTree<RawMove> {
    let mut game = game.clone();
    game.tags = notation::Tags::new();
    game
}

#[test]
fn corpus_exports_match_snapshots() {
    let files: Vec<_> = [corpus_files("pgn", "pgn"), corpus_files("pdn", "pdn")].concat();
    assert!(files.len() >= 4, "the corpus is missing");
    for path in files {
        let rules = rules_for(&path);
        let input = std::fs::read(&path).unwrap();
        let games = read_games(&rules, &input[..], ReadOptions::default());
        let exported = export_all(&rules, &games);
        let name = format!("raw_{}", path.file_name().unwrap().to_string_lossy());
        insta::assert_snapshot!(name, exported);
    }
}

#[test]
fn corpus_round_trips() {
    let files: Vec<_> = [corpus_files("pgn", "pgn"), corpus_files("pdn", "pdn")].concat();
    for path in files {
        let rules = rules_for(&path);
        let input = std::fs::read(&path).unwrap();
        let first = read_games(&rules, &input[..], ReadOptions::default());
        let exported = export_all(&rules, &first);
        let second = read_games(&rules, exported.as_bytes(), ReadOptions::default());
        assert_eq!(first.len(), second.len(), "{}", path.display());
        for (a, b) in first.iter().zip(&second) {
            // Import → export → import keeps every move, comment, glyph and variation.
            assert_eq!(
                moves_only(&a.game),
                moves_only(&b.game),
                "{}",
                path.display()
            );
            // The export format reads back with nothing to forgive.
            assert!(
                b.diagnostics.is_empty(),
                "{}: {:?}",
                path.display(),
                b.diagnostics
            );
        }
        // Export is a fixed point.
        assert_eq!(export_all(&rules, &second), exported, "{}", path.display());
    }
}

/// Games per file of the shared corpus, every file listed: a file added, removed or read
/// differently shows here. Counts were checked against `grep -c '^\[Event '` where every
/// game has an Event tag (the differences are games without tags, a BOM before the first
/// tag, and `[pgn]` wrappers).
const SHARED_COUNTS: &[(&str, usize)] = &[
    ("pgn/bench/lichess_db_1000k.pgn", 438),
    ("pgn/bench/twic1599_1000k.pgn", 1110),
    ("pgn/python-chess/anastasian-lewis.pgn", 1),
    ("pgn/python-chess/antichess-programfox.pgn", 2),
    ("pgn/python-chess/chessbase-empty-line.pgn", 1),
    ("pgn/python-chess/cutechess-fischerrandom.pgn", 4),
    ("pgn/python-chess/kasparov-deep-blue-1997.pgn", 6),
    ("pgn/python-chess/knightvuillaume-jannlee-zh-lichess.pgn", 1),
    ("pgn/python-chess/molinari-bordais-1979.pgn", 1),
    ("pgn/python-chess/nepomniachtchi-liren-game1.pgn", 1),
    ("pgn/python-chess/saturs-jannlee-zh-lichess.pgn", 1),
    ("pgn/python-chess/stockfish-learning.pgn", 1),
    ("pgn/python-chess/uci-moves.pgn", 1),
    ("pgn/python-chess/utf8-bom.pgn", 2),
    ("pgn/scalachess/allSortOfClocks.pgn", 1),
    ("pgn/scalachess/android.pgn", 1),
    ("pgn/scalachess/atomicPromotion.pgn", 1),
    ("pgn/scalachess/atomicRegression.pgn", 1),
    ("pgn/scalachess/blackAbsentResult.pgn", 1),
    ("pgn/scalachess/bySmartChess.pgn", 1),
    ("pgn/scalachess/caissa.pgn", 1),
    ("pgn/scalachess/castleCheck1.pgn", 1),
    ("pgn/scalachess/castleCheck2.pgn", 1),
    ("pgn/scalachess/chessByPost.pgn", 1),
    ("pgn/scalachess/chessComCrazyhouse.pgn", 1),
    ("pgn/scalachess/chessbaseArrows.pgn", 1),
    ("pgn/scalachess/chessbaseWeird.pgn", 1),
    ("pgn/scalachess/chessgamesWeirdComments.pgn", 1),
    ("pgn/scalachess/chesskids.pgn", 1),
    ("pgn/scalachess/clonoNoExoticNotation.pgn", 1),
    ("pgn/scalachess/commentsAndVariations.pgn", 1),
    ("pgn/scalachess/complete960.pgn", 1),
    ("pgn/scalachess/completeTagsWithSpaces.pgn", 1),
    ("pgn/scalachess/crazyhouse1.pgn", 1),
    ("pgn/scalachess/crazyhouse2.pgn", 1),
    ("pgn/scalachess/crazyhouseFromProd.pgn", 1),
    ("pgn/scalachess/crazyhouseNoVariantTag.pgn", 1),
    ("pgn/scalachess/enpassantEP.pgn", 1),
    ("pgn/scalachess/enpassantEP2.pgn", 1),
    ("pgn/scalachess/enpassantEP3.pgn", 1),
    ("pgn/scalachess/explorerPartialDate.pgn", 1),
    ("pgn/scalachess/festivalFigueira.pgn", 1),
    ("pgn/scalachess/fromChessProgrammingWiki.pgn", 1),
    ("pgn/scalachess/fromChessgames.pgn", 1),
    ("pgn/scalachess/fromChessgamesWithEscapeChar.pgn", 1),
    ("pgn/scalachess/fromCrafty.pgn", 1),
    ("pgn/scalachess/fromLichessBadPromotion.pgn", 1),
    ("pgn/scalachess/fromPosProdCloseChess.pgn", 1),
    ("pgn/scalachess/fromPositionEmptyFen.pgn", 1),
    ("pgn/scalachess/fromProd1.pgn", 1),
    ("pgn/scalachess/fromProd2.pgn", 1),
    ("pgn/scalachess/fromTcec.pgn", 1),
    ("pgn/scalachess/fromTcecWithEngineOutput.pgn", 1),
    ("pgn/scalachess/fromWikipedia.pgn", 1),
    ("pgn/scalachess/gameWithComments.pgn", 1),
    ("pgn/scalachess/handwritten.pgn", 1),
    ("pgn/scalachess/inlineComments.pgn", 1),
    ("pgn/scalachess/inlineTags.pgn", 1),
    ("pgn/scalachess/invalidVariant.pgn", 1),
    ("pgn/scalachess/invisibleChar.pgn", 1),
    ("pgn/scalachess/lichobile.pgn", 1),
    ("pgn/scalachess/multipleInitalCommentsWithEmpty.pgn", 1),
    ("pgn/scalachess/multipleRootCommentsInVariation.pgn", 1),
    ("pgn/scalachess/overflow.pgn", 1),
    ("pgn/scalachess/overflow3.pgn", 1),
    ("pgn/scalachess/promoteRook.pgn", 1),
    ("pgn/scalachess/recentChessCom.pgn", 1),
    ("pgn/scalachess/rootCommentInVariation.pgn", 1),
    ("pgn/scalachess/stLouisFischerandom.pgn", 1),
    ("pgn/scalachess/stackOverflow.pgn", 1),
    ("pgn/scalachess/tagsCommentsWithoutMoves2.pgn", 1),
    ("pgn/scalachess/unclosedQuote.pgn", 1),
    ("pgn/scalachess/unicodeResultDraw.pgn", 1),
    ("pgn/scalachess/unicodeResultWeirdDashDraw.pgn", 1),
    ("pgn/scalachess/unicodeResultWeirdDashWin.pgn", 1),
    ("pgn/scalachess/variations.pgn", 1),
    ("pgn/scalachess/weirdDashes.pgn", 1),
    ("pgn/scalachess/whiteResignsInMoves.pgn", 1),
    ("pgn/scalachess/whiteResignsInTags.pgn", 1),
    ("pgn/scalachess/whiteResignsInTagsAndMoves.pgn", 1),
    ("pgn/scalachess/withDelimiters.pgn", 1),
    ("pgn/scalachess/withDelimitersOnNewLines.pgn", 1),
    ("pgn/scalachess/withGlyphAnnotations.pgn", 1),
    ("pgn/scalachess/withNag.pgn", 1),
    ("pdn/pdn3-conformance/succeed/090417ronde12.pdn", 7),
    (
        "pdn/pdn3-conformance/succeed/Campionato Assoluto 2005.pdn",
        53,
    ),
    ("pdn/pdn3-conformance/succeed/Cat.B1.pdn", 37),
    ("pdn/pdn3-conformance/succeed/Cat.D1.pdn", 19),
    ("pdn/pdn3-conformance/succeed/DUTCH96H.pdn", 13),
    ("pdn/pdn3-conformance/succeed/OCA_2.0.pdn", 43),
    ("pdn/pdn3-conformance/succeed/PROF2.pdn", 16),
    ("pdn/pdn3-conformance/succeed/PWCP 2a.pdn", 59),
    ("pdn/pdn3-conformance/succeed/PWCP_2.pdn", 51),
    (
        "pdn/pdn3-conformance/succeed/Principles of Strategy.pdn",
        16,
    ),
    (
        "pdn/pdn3-conformance/succeed/Tricks traps and shots.pdn",
        91,
    ),
    ("pdn/pdn3-conformance/succeed/alphanumeric.pdn", 1),
    ("pdn/pdn3-conformance/succeed/beginner.pdn", 58),
    ("pdn/pdn3-conformance/succeed/borderclassics.pdn", 183),
    ("pdn/pdn3-conformance/succeed/bridges.pdn", 267),
    ("pdn/pdn3-conformance/succeed/candidate95.pdn", 8),
    ("pdn/pdn3-conformance/succeed/fen.pdn", 3),
    ("pdn/pdn3-conformance/succeed/gameterminator.pdn", 1),
    ("pdn/pdn3-conformance/succeed/gem.pdn", 162),
    ("pdn/pdn3-conformance/succeed/goulds.pdn", 262),
    ("pdn/pdn3-conformance/succeed/inferno.pdn", 68),
    ("pdn/pdn3-conformance/succeed/kurnik.pdn", 4),
    ("pdn/pdn3-conformance/succeed/linecomment.pdn", 1),
    ("pdn/pdn3-conformance/succeed/lpc.pdn", 100),
    ("pdn/pdn3-conformance/succeed/movestrength.pdn", 1),
    ("pdn/pdn3-conformance/succeed/mrcd2000kval.pdn", 40),
    ("pdn/pdn3-conformance/succeed/mrcd2006.pdn", 44),
    ("pdn/pdn3-conformance/succeed/mrcd2007.pdn", 102),
    ("pdn/pdn3-conformance/succeed/nk ronde 01.pdn", 7),
    ("pdn/pdn3-conformance/succeed/nk ronde 02.pdn", 7),
    ("pdn/pdn3-conformance/succeed/nk2003-amsterdam.pdn", 33),
    ("pdn/pdn3-conformance/succeed/rk ronde 12.pdn", 7),
    ("pdn/pdn3-conformance/succeed/schildpad.pdn", 34),
    ("pdn/pdn3-conformance/succeed/string.pdn", 1),
    ("pdn/pdn3-conformance/succeed/unicode.pdn", 1),
    ("pdn/pdn3-conformance/succeed/ussr1947.pdn", 153),
    ("pdn/pdn3-conformance/succeed/variation.pdn", 1),
    ("pdn/pdn3-conformance/succeed/windragon.pdn", 1),
    ("pdn/pdn3-conformance/succeed/wk2003.pdn", 23),
];

#[test]
fn shared_corpus_reads_raw_without_errors() {
    let Some(shared) = shared_corpus() else {
        eprintln!("NOTATION_SHARED_CORPUS not set: shared tier skipped");
        return;
    };
    let mut dirs = vec![shared.join("pdn/pdn3-conformance/succeed")];
    for sub in ["bench", "python-chess", "scalachess"] {
        dirs.push(shared.join("pgn").join(sub));
    }
    let mut total = 0;
    let mut checked = 0;
    for dir in dirs {
        let extension = if dir.ends_with("succeed") {
            "pdn"
        } else {
            "pgn"
        };
        for path in files_in(&dir, extension) {
            let rules = rules_for(&path);
            let file = std::fs::File::open(&path).unwrap();
            let mut reader = GameReader::new(&rules, file, ReadOptions::default());
            let games: Vec<_> = (&mut reader).map(Result::unwrap).collect();
            let errors: Vec<_> = games
                .iter()
                .flat_map(|g| &g.diagnostics)
                .chain(&reader.take_orphans())
                .filter(|d| d.severity == Severity::Error)
                .map(ToString::to_string)
                .collect();
            assert!(errors.is_empty(), "{}: {errors:?}", path.display());
            assert!(!games.is_empty(), "{}", path.display());
            let relative = path
                .strip_prefix(&shared)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let expected = SHARED_COUNTS
                .iter()
                .find(|(p, _)| *p == relative)
                .map(|&(_, n)| n);
            assert_eq!(Some(games.len()), expected, "{relative}");
            total += games.len();
            checked += 1;
        }
    }
    assert_eq!(
        checked,
        SHARED_COUNTS.len(),
        "files missing from the shared corpus"
    );
    assert!(total > 3000, "only {total} games");
}
