//! The shared corpus of real files written by others (when `NOTATION_SHARED_CORPUS` names
//! it), read with the chess rules: games, errors and warnings per file, and the fast
//! validator against the tree builder on every file.
//!
//! Every error below is a problem of its file, not of the reader (each is explained next to
//! its count); the variants' games (crazyhouse, atomic, antichess, …) are played by their
//! rules, and a game of a variant nobody knows is reported unsupported and kept as text.
#![allow(clippy::unwrap_used, missing_docs)]

use std::path::Path;

use pgn::{DiagnosticKind, GameReader, ReadGame, Severity, ValidatingReader};
use workspace_tests::{files_in, shared_corpus};

/// Per file: games, errors, warnings (orphan diagnostics, outside any game, included).
const COUNTS: &[(&str, usize, usize, usize)] = &[
    ("pgn/python-chess/anastasian-lewis.pgn", 1, 0, 1),
    ("pgn/python-chess/antichess-programfox.pgn", 2, 0, 1),
    ("pgn/python-chess/chessbase-empty-line.pgn", 1, 0, 1),
    ("pgn/python-chess/cutechess-fischerrandom.pgn", 4, 0, 4),
    ("pgn/python-chess/kasparov-deep-blue-1997.pgn", 6, 0, 6),
    (
        "pgn/python-chess/knightvuillaume-jannlee-zh-lichess.pgn",
        1,
        0,
        1,
    ),
    ("pgn/python-chess/molinari-bordais-1979.pgn", 1, 0, 1),
    ("pgn/python-chess/nepomniachtchi-liren-game1.pgn", 1, 0, 0),
    ("pgn/python-chess/saturs-jannlee-zh-lichess.pgn", 1, 0, 1),
    ("pgn/python-chess/stockfish-learning.pgn", 1, 0, 0),
    ("pgn/python-chess/uci-moves.pgn", 1, 0, 114),
    ("pgn/python-chess/utf8-bom.pgn", 2, 0, 1),
    ("pgn/scalachess/allSortOfClocks.pgn", 1, 0, 2),
    ("pgn/scalachess/android.pgn", 1, 0, 69),
    ("pgn/scalachess/atomicPromotion.pgn", 1, 0, 1),
    ("pgn/scalachess/atomicRegression.pgn", 1, 0, 2),
    ("pgn/scalachess/blackAbsentResult.pgn", 1, 1, 1), // junk text "+------" before the movetext: `+--` is no move
    ("pgn/scalachess/bySmartChess.pgn", 1, 0, 3),
    ("pgn/scalachess/caissa.pgn", 1, 0, 7),
    ("pgn/scalachess/castleCheck1.pgn", 1, 0, 2),
    ("pgn/scalachess/castleCheck2.pgn", 1, 0, 3),
    ("pgn/scalachess/chessByPost.pgn", 1, 0, 99),
    ("pgn/scalachess/chessComCrazyhouse.pgn", 1, 0, 1),
    ("pgn/scalachess/chessbaseArrows.pgn", 1, 0, 1),
    ("pgn/scalachess/chessbaseWeird.pgn", 1, 0, 3),
    ("pgn/scalachess/chessgamesWeirdComments.pgn", 1, 0, 0),
    ("pgn/scalachess/chesskids.pgn", 1, 0, 4),
    ("pgn/scalachess/clonoNoExoticNotation.pgn", 1, 0, 44),
    ("pgn/scalachess/commentsAndVariations.pgn", 1, 0, 0),
    ("pgn/scalachess/complete960.pgn", 1, 0, 1),
    ("pgn/scalachess/completeTagsWithSpaces.pgn", 1, 0, 1),
    ("pgn/scalachess/crazyhouse1.pgn", 1, 0, 0),
    ("pgn/scalachess/crazyhouse2.pgn", 1, 0, 0),
    ("pgn/scalachess/crazyhouseFromProd.pgn", 1, 0, 1),
    ("pgn/scalachess/crazyhouseNoVariantTag.pgn", 1, 1, 0), // a crazyhouse drop (N@e3) in a game that says nothing of crazyhouse
    ("pgn/scalachess/enpassantEP.pgn", 1, 1, 1), // `bxa6 e.p.`: a mark apart from its move is no move
    ("pgn/scalachess/enpassantEP2.pgn", 1, 0, 2), // `bxa6e.p.`: the mark forgiven
    ("pgn/scalachess/enpassantEP3.pgn", 1, 0, 2), // `exf6ep`: the mark forgiven
    ("pgn/scalachess/explorerPartialDate.pgn", 1, 0, 1),
    ("pgn/scalachess/festivalFigueira.pgn", 1, 1, 0), // 57... Re1 leaves the king in check from 57. Rb6+
    ("pgn/scalachess/fromChessProgrammingWiki.pgn", 1, 0, 4),
    ("pgn/scalachess/fromChessgames.pgn", 1, 0, 0),
    ("pgn/scalachess/fromChessgamesWithEscapeChar.pgn", 1, 0, 1),
    ("pgn/scalachess/fromCrafty.pgn", 1, 0, 1),
    ("pgn/scalachess/fromLichessBadPromotion.pgn", 1, 0, 0),
    ("pgn/scalachess/fromPosProdCloseChess.pgn", 1, 0, 3),
    ("pgn/scalachess/fromPositionEmptyFen.pgn", 1, 1, 3), // analysis variation (35. h3 …) from another position: the FEN is missing
    ("pgn/scalachess/fromProd1.pgn", 1, 0, 3),
    ("pgn/scalachess/fromProd2.pgn", 1, 0, 3),
    ("pgn/scalachess/fromTcec.pgn", 1, 0, 0),
    ("pgn/scalachess/fromTcecWithEngineOutput.pgn", 1, 0, 1),
    ("pgn/scalachess/fromWikipedia.pgn", 1, 0, 0),
    ("pgn/scalachess/gameWithComments.pgn", 1, 0, 3),
    ("pgn/scalachess/handwritten.pgn", 1, 0, 2),
    ("pgn/scalachess/inlineComments.pgn", 1, 0, 0),
    ("pgn/scalachess/inlineTags.pgn", 1, 0, 0),
    ("pgn/scalachess/invalidVariant.pgn", 1, 0, 1),
    ("pgn/scalachess/invisibleChar.pgn", 1, 0, 1),
    ("pgn/scalachess/lichobile.pgn", 1, 0, 0),
    (
        "pgn/scalachess/multipleInitalCommentsWithEmpty.pgn",
        1,
        0,
        2,
    ),
    (
        "pgn/scalachess/multipleRootCommentsInVariation.pgn",
        1,
        0,
        2,
    ),
    ("pgn/scalachess/overflow.pgn", 1, 1, 5), // a variation `(10. Bh4 …)` written after 10... gxf6 replaces a black move with a white one
    ("pgn/scalachess/overflow3.pgn", 1, 0, 2),
    ("pgn/scalachess/promoteRook.pgn", 1, 0, 3),
    ("pgn/scalachess/recentChessCom.pgn", 1, 0, 1),
    ("pgn/scalachess/rootCommentInVariation.pgn", 1, 0, 2),
    ("pgn/scalachess/stLouisFischerandom.pgn", 1, 0, 1),
    ("pgn/scalachess/stackOverflow.pgn", 1, 0, 2),
    ("pgn/scalachess/tagsCommentsWithoutMoves2.pgn", 1, 0, 0),
    ("pgn/scalachess/unclosedQuote.pgn", 1, 0, 2),
    ("pgn/scalachess/unicodeResultDraw.pgn", 1, 0, 2), // the Result tag and the marker, both `½-½`
    ("pgn/scalachess/unicodeResultWeirdDashDraw.pgn", 1, 0, 2),
    ("pgn/scalachess/unicodeResultWeirdDashWin.pgn", 1, 0, 2),
    ("pgn/scalachess/variations.pgn", 1, 0, 3),
    ("pgn/scalachess/weirdDashes.pgn", 1, 0, 3),
    ("pgn/scalachess/whiteResignsInMoves.pgn", 1, 0, 0),
    ("pgn/scalachess/whiteResignsInTags.pgn", 1, 0, 1),
    ("pgn/scalachess/whiteResignsInTagsAndMoves.pgn", 1, 0, 0),
    ("pgn/scalachess/withDelimiters.pgn", 1, 0, 5),
    ("pgn/scalachess/withDelimitersOnNewLines.pgn", 1, 0, 5),
    ("pgn/scalachess/withGlyphAnnotations.pgn", 1, 0, 2),
    ("pgn/scalachess/withNag.pgn", 1, 0, 3),
    ("pgn/bench/lichess_db_1000k.pgn", 438, 0, 1),
    ("pgn/bench/twic1599_1000k.pgn", 1110, 0, 0),
];

fn read(path: &Path) -> (Vec<ReadGame>, Vec<pgn::Diagnostic>) {
    let mut reader = GameReader::new(std::fs::File::open(path).unwrap());
    let games: Vec<_> = (&mut reader).map(Result::unwrap).collect();
    let orphans = reader.take_orphans();
    (games, orphans)
}

#[test]
fn shared_corpus_reads_with_chess_rules() {
    let Some(shared) = shared_corpus() else {
        eprintln!("NOTATION_SHARED_CORPUS not set: shared tier skipped");
        return;
    };
    let mut checked = 0;
    for sub in ["python-chess", "scalachess", "bench"] {
        for path in files_in(&shared.join("pgn").join(sub), "pgn") {
            let relative = path
                .strip_prefix(&shared)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let (games, orphans) = read(&path);
            let all: Vec<_> = games
                .iter()
                .flat_map(|g| &g.diagnostics)
                .chain(&orphans)
                .collect();
            let errors = all.iter().filter(|d| d.severity == Severity::Error).count();
            let warnings = all.len() - errors;
            let expected = COUNTS
                .iter()
                .find(|(p, ..)| *p == relative)
                .map(|&(_, g, e, w)| (g, e, w));
            let listing: Vec<String> = all.iter().map(|d| d.to_string()).collect();
            assert_eq!(
                Some((games.len(), errors, warnings)),
                expected,
                "{relative}: {listing:#?}"
            );
            // No game of another variant is played as chess.
            for game in &games {
                let variant = game.game.tags.get("Variant").map(pgn::Variant::from_tag);
                if variant.is_some_and(|v| !v.is_supported()) {
                    assert_eq!(game.game.node_count(), 0, "{relative}");
                    assert!(
                        game.diagnostics
                            .iter()
                            .any(|d| matches!(d.kind, DiagnosticKind::Unsupported { .. }))
                    );
                }
            }
            checked += 1;
        }
    }
    assert_eq!(
        checked,
        COUNTS.len(),
        "files missing from the shared corpus"
    );
}

#[test]
fn validator_agrees_with_the_tree_builder_on_the_shared_corpus() {
    let Some(shared) = shared_corpus() else {
        eprintln!("NOTATION_SHARED_CORPUS not set: shared tier skipped");
        return;
    };
    for sub in ["python-chess", "scalachess", "bench"] {
        for path in files_in(&shared.join("pgn").join(sub), "pgn") {
            let (tree, orphans) = read(&path);
            let mut reader = ValidatingReader::new(std::fs::File::open(&path).unwrap());
            let fast: Vec<_> = (&mut reader).map(Result::unwrap).collect();
            assert_eq!(tree.len(), fast.len(), "{}", path.display());
            for (t, f) in tree.iter().zip(&fast) {
                assert_eq!(
                    t.diagnostics,
                    f.diagnostics,
                    "{} game {}",
                    path.display(),
                    t.index
                );
                assert_eq!(t.game.node_count() as u64, f.plies, "{}", path.display());
            }
            assert_eq!(orphans, reader.take_orphans(), "{}", path.display());
        }
    }
}
