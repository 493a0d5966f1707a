//! The manifest lists the kinds of games each input holds: chess rulesets as a `Variant`
//! tag names them, draughts game types as a `GameType` tag writes them (and reads back).

use std::path::{Path, PathBuf};

use collection::input::collect;
use collection::job::{Job, Silent};
use index::manifest::Manifest;
use index::{BuildOptions, build};

fn kinds_of(files: &[&str]) -> Vec<Option<Vec<String>>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let paths: Vec<PathBuf> = files.iter().map(|f| root.join(f)).collect();
    let mut job = Job::new(collect(&paths).expect("the corpus"), 1, &Silent);
    let dir = tempfile::tempdir().expect("a folder");
    build(&mut job, dir.path(), &BuildOptions::default()).expect("built");
    let manifest = Manifest::load(dir.path()).expect("the manifest");
    manifest.sources.into_iter().map(|s| s.kinds).collect()
}

#[test]
fn each_input_lists_the_rulesets_of_its_chess_games() {
    let kinds = kinds_of(&["pgn/model.pgn", "pgn/variants.pgn"]);
    assert_eq!(kinds[0].as_deref(), Some(&["Standard".to_owned()][..]));
    // Every variant, each once, in order; its file holds no standard game.
    let mut every: Vec<String> = pgn::Ruleset::ALL[1..]
        .iter()
        .map(|r| r.name().to_owned())
        .collect();
    every.sort();
    assert_eq!(kinds[1].as_deref(), Some(&every[..]));
}

#[test]
fn each_input_lists_the_game_types_of_its_draughts_games() {
    let kinds = kinds_of(&["pdn/variant-russian.pdn", "pdn/variant-pool.pdn"]);
    let game_type = |kinds: &Option<Vec<String>>| -> Vec<pdn::GameType> {
        kinds
            .iter()
            .flatten()
            .map(|k| k.parse().expect("a GameType"))
            .collect()
    };
    assert_eq!(
        game_type(&kinds[0]),
        [pdn::GameType::new(pdn::Variant::Russian)]
    );
    // Pool's games, in its own notation and in the others its file writes.
    let pool = game_type(&kinds[1]);
    assert!(
        pool.contains(&pdn::GameType::new(pdn::Variant::Pool)),
        "{pool:?}"
    );
    assert!(pool.len() > 1 && pool.iter().all(|t| t.variant() == pdn::Variant::Pool));
}
