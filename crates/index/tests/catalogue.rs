//! The catalogue lists the games a straightforward scan of their tags lists: for each
//! criterion alone and several together, in each order, a page at a time.
//!
//! The corpus's chess games (its variants too) are retagged with players whose names
//! differ in case and accents, events, sites, ECO codes, openings, dates with unknown
//! parts and ratings, some of each missing; the scan reads them back with the tags as
//! written and filters them by hand.

use std::path::{Path, PathBuf};

use collection::fold::fold;
use collection::job::{Job, Silent};
use collection::rules::FormatRules;
use index::catalogue::{Catalogue, GameSearch, Sort};
use index::dims::Winner;
use index::record::{Day, Eco};
use index::{BuildOptions, GameId, Index, IndexRules};
use notation::{GameReader, GameResult, ReadOptions, Tags};

const PLAYERS: [&str; 5] = ["Ann Østergaard", "bob", "Cid", "ANN OSTERGAARD", "Dóra"];
const EVENTS: [&str; 4] = ["Club Championship", "Rated Blitz game", "Bogotá Open", ""];
const SITES: [&str; 3] = ["Łódź", "https://lichess.org/abc", ""];
const ECOS: [&str; 6] = ["B20", "c42", "A00", "E99", "Z12", ""];
const OPENINGS: [&str; 3] = ["Sicilian Defense", "Petrov's Defense", ""];
const DATES: [&str; 6] = [
    "2023.11.05",
    "2024.01.31",
    "2024.02.??",
    "????.??.??",
    "2024.07.04",
    "1999.??.??",
];

fn set_or_remove(tags: &mut Tags, name: &str, value: &str) {
    if value.is_empty() {
        tags.remove(name);
    } else {
        tags.set(name, value);
    }
}

/// A player of few games, whom the catalogue finds through their games, not by a pass
/// over all.
const RARE: &str = "Ema Rare-Ørsted";

fn retag(tags: &mut Tags, i: usize) {
    tags.set("White", if i % 17 == 2 { RARE } else { PLAYERS[i % 5] });
    tags.set(
        "Black",
        if i % 13 == 6 {
            RARE
        } else {
            PLAYERS[(i * 3 + 1) % 5]
        },
    );
    set_or_remove(tags, "Event", EVENTS[i % 4]);
    set_or_remove(tags, "Site", SITES[(i / 2) % 3]);
    set_or_remove(tags, "ECO", ECOS[i % 6]);
    set_or_remove(tags, "Opening", OPENINGS[(i / 3) % 3]);
    tags.remove("UTCDate");
    tags.set("Date", DATES[(i * 5) % 6]);
    set_or_remove(
        tags,
        "WhiteElo",
        &if i % 7 == 3 {
            String::new()
        } else {
            (900 + (i * 137) % 1800).to_string()
        },
    );
    set_or_remove(
        tags,
        "BlackElo",
        &if i % 11 == 5 {
            String::new()
        } else {
            (950 + (i * 251) % 1750).to_string()
        },
    );
}

/// A game as the scan keeps it.
struct Scanned {
    tags: Tags,
    result: GameResult,
    plies: u32,
    kind: String,
}

impl Scanned {
    fn tag(&self, name: &str) -> &str {
        self.tags.get(name).unwrap_or("")
    }

    fn day(&self) -> Day {
        let date = self.tag("Date");
        let part = |s: &str| s.parse::<u16>().unwrap_or(0);
        let parts: Vec<&str> = date.split('.').collect();
        Day {
            year: part(parts[0]),
            month: part(parts[1]) as u8,
            day: part(parts[2]) as u8,
        }
    }

    fn rating(&self, name: &str) -> Option<u32> {
        self.tags.get(name).and_then(|r| r.parse().ok())
    }

    fn average(&self) -> Option<u32> {
        Some((self.rating("WhiteElo")? + self.rating("BlackElo")?) / 2)
    }
}

/// Retags the corpus's chess games into one file and reads it back.
fn retagged(out: &Path) -> Vec<Scanned> {
    let rules = pgn::ChessRules;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/pgn");
    let mut text = String::new();
    let mut i = 0;
    for name in [
        "generated.pgn",
        "model.pgn",
        "annotated.pgn",
        "variants.pgn",
    ] {
        let bytes = std::fs::read(root.join(name)).expect("a corpus file");
        for read in GameReader::new(&rules, bytes.as_slice(), ReadOptions::default()) {
            let mut read = read.expect("in memory");
            if read.has_errors() {
                continue;
            }
            retag(&mut read.game.tags, i);
            i += 1;
            notation::write_game(&rules, &read.game, &rules.write_options(), &mut text)
                .expect("written");
        }
    }
    std::fs::write(out, &text).expect("written");
    GameReader::new(&rules, text.as_bytes(), ReadOptions::default())
        .map(|read| {
            let read = read.expect("in memory");
            let start = rules.start(&read.game).expect("a start");
            Scanned {
                plies: read.game.mainline().count() as u32,
                kind: rules.kind(&start).into_owned(),
                tags: read.game.tags,
                result: read.game.result,
            }
        })
        .collect()
}

struct Fixture {
    _dir: tempfile::TempDir,
    index: Index,
    catalogue: Catalogue,
    games: Vec<Scanned>,
}

fn fixture() -> Fixture {
    fixture_built(&BuildOptions::default())
}

fn fixture_built(options: &BuildOptions) -> Fixture {
    let dir = tempfile::tempdir().expect("a folder");
    let file = dir.path().join("games.pgn");
    let games = retagged(&file);
    let sources = collection::input::collect(&[PathBuf::from(&file)]).expect("the file");
    let mut job = Job::new(sources, 1, &Silent);
    let out = dir.path().join("index");
    index::build(&mut job, &out, options).expect("built");
    let index = Index::open(&out).expect("opened");
    let catalogue = Catalogue::load(&index).expect("loaded");
    Fixture {
        _dir: dir,
        index,
        catalogue,
        games,
    }
}

/// The games of the whole list, by id.
fn listed(f: &Fixture, search: &GameSearch) -> Vec<u32> {
    let page = f
        .catalogue
        .search(&f.index, search, 0, usize::MAX)
        .expect("searched");
    assert_eq!(page.count, page.games.len() as u64);
    page.games.iter().map(|g| g.id.0).collect()
}

/// The games the scan keeps, by place.
fn scanned(f: &Fixture, keep: impl Fn(&Scanned) -> bool) -> Vec<u32> {
    (0..f.games.len() as u32)
        .filter(|&i| keep(&f.games[i as usize]))
        .collect()
}

/// Which games a case keeps.
type Keep = Box<dyn Fn(&Scanned) -> bool>;

fn contains(text: &str, needle: &str) -> bool {
    fold(text).contains(&fold(needle))
}

#[test]
fn each_criterion_lists_the_games_a_scan_of_their_tags_keeps() {
    each_criterion_as_a_scan(&fixture());
}

#[test]
fn a_player_numbered_many_times_is_listed_as_one() {
    // Names held one at a time: a player's name met again after another's is numbered
    // anew, and the searches gather every number.
    each_criterion_as_a_scan(&fixture_built(&BuildOptions {
        players_held: 1,
        ..BuildOptions::default()
    }));
}

fn each_criterion_as_a_scan(f: &Fixture) {
    assert_eq!(f.catalogue.len(), f.games.len());
    assert!(f.games.len() > 30, "{} games", f.games.len());
    let all = listed(f, &GameSearch::default());
    assert_eq!(all, scanned(f, |_| true));

    let cases: Vec<(&str, GameSearch, Keep)> = vec![
        (
            "a player, either colour, without accents and in any case",
            GameSearch {
                player: Some("ann oster".into()),
                ..Default::default()
            },
            Box::new(|g| {
                contains(g.tag("White"), "ann oster") || contains(g.tag("Black"), "ann oster")
            }),
        ),
        (
            "a player of few games, either colour",
            GameSearch {
                player: Some("EMA RARE-ORSTED".into()),
                ..Default::default()
            },
            Box::new(|g| {
                contains(g.tag("White"), "ema rare") || contains(g.tag("Black"), "ema rare")
            }),
        ),
        (
            "a player of few games, as Black, and a rating range",
            GameSearch {
                black: Some("rare".into()),
                ratings: Some((1000, 2200)),
                ..Default::default()
            },
            Box::new(|g| {
                contains(g.tag("Black"), "rare")
                    && g.average().is_some_and(|a| (1000..=2200).contains(&a))
            }),
        ),
        (
            "White alone",
            GameSearch {
                white: Some("BOB".into()),
                ..Default::default()
            },
            Box::new(|g| contains(g.tag("White"), "bob")),
        ),
        (
            "Black alone, with an accent",
            GameSearch {
                black: Some("dóra".into()),
                ..Default::default()
            },
            Box::new(|g| contains(g.tag("Black"), "dora")),
        ),
        (
            "the event",
            GameSearch {
                event: Some("bogota".into()),
                ..Default::default()
            },
            Box::new(|g| contains(g.tag("Event"), "bogota")),
        ),
        (
            "the site",
            GameSearch {
                site: Some("lodz".into()),
                ..Default::default()
            },
            Box::new(|g| contains(g.tag("Site"), "lodz")),
        ),
        (
            "the opening's name",
            GameSearch {
                opening: Some("defense".into()),
                ..Default::default()
            },
            Box::new(|g| contains(g.tag("Opening"), "defense")),
        ),
        (
            "an ECO range (a code in lower case is one; Z12 is none)",
            GameSearch {
                eco: Some((
                    Eco::parse("B00").expect("a code"),
                    Eco::parse("D99").expect("a code"),
                )),
                ..Default::default()
            },
            Box::new(|g| ["B20", "c42"].contains(&g.tag("ECO"))),
        ),
        (
            "since a month",
            GameSearch {
                since: Some(Day {
                    year: 2024,
                    month: 2,
                    day: 0,
                }),
                ..Default::default()
            },
            Box::new(|g| {
                g.day().year != 0
                    && g.day()
                        >= Day {
                            year: 2024,
                            month: 2,
                            day: 0,
                        }
            }),
        ),
        (
            "until a year (its unknown months and days in it)",
            GameSearch {
                until: Some(Day {
                    year: 2023,
                    month: 0,
                    day: 0,
                }),
                ..Default::default()
            },
            Box::new(|g| g.day().year != 0 && g.day().year <= 2023),
        ),
        (
            "White won",
            GameSearch {
                winner: Some(Winner::White),
                ..Default::default()
            },
            Box::new(|g| g.result == GameResult::FirstWins),
        ),
        (
            "unfinished",
            GameSearch {
                winner: Some(Winner::Unknown),
                ..Default::default()
            },
            Box::new(|g| g.result == GameResult::Unknown),
        ),
        (
            "an average rating range",
            GameSearch {
                ratings: Some((1400, 1900)),
                ..Default::default()
            },
            Box::new(|g| g.average().is_some_and(|a| (1400..=1900).contains(&a))),
        ),
        (
            "a variant",
            GameSearch {
                variant: Some("CRAZYHOUSE".into()),
                ..Default::default()
            },
            Box::new(|g| g.kind.eq_ignore_ascii_case("crazyhouse")),
        ),
        (
            "a length",
            GameSearch {
                plies: Some((10, 40)),
                ..Default::default()
            },
            Box::new(|g| (10..=40).contains(&g.plies)),
        ),
        (
            "several at once",
            GameSearch {
                player: Some("ann".into()),
                event: Some("club".into()),
                ratings: Some((1000, 3000)),
                ..Default::default()
            },
            Box::new(|g| {
                (contains(g.tag("White"), "ann") || contains(g.tag("Black"), "ann"))
                    && contains(g.tag("Event"), "club")
                    && g.average().is_some_and(|a| (1000..=3000).contains(&a))
            }),
        ),
    ];
    for (what, search, keep) in cases {
        let expected = scanned(f, keep);
        assert!(
            !expected.is_empty() && expected.len() < f.games.len(),
            "{what}: the case must tell games apart ({} of {})",
            expected.len(),
            f.games.len()
        );
        assert_eq!(listed(f, &search), expected, "{what}");
    }
}

#[test]
fn the_orders_are_by_date_and_by_rating_and_pages_cut_them() {
    let f = fixture();
    let sorted_by = |key: &dyn Fn(&Scanned) -> (u32, u32, u32)| {
        let mut ids = scanned(&f, |_| true);
        ids.sort_by_key(|&i| key(&f.games[i as usize]));
        ids
    };
    let by_date = sorted_by(&|g| {
        let d = g.day();
        (d.year.into(), d.month.into(), d.day.into())
    });
    let by_rating = sorted_by(&|g| (g.average().unwrap_or(0), 0, 0));
    for (sort, expected) in [(Sort::Date, by_date), (Sort::Rating, by_rating)] {
        let mut search = GameSearch {
            sort,
            ..Default::default()
        };
        assert_eq!(listed(&f, &search), expected, "{sort:?}");
        search.descending = true;
        let reversed: Vec<u32> = expected.iter().rev().copied().collect();
        assert_eq!(listed(&f, &search), reversed, "{sort:?} descending");
        // Pages of 7 put end to end are the list; each says how many there are in all.
        let mut pages = Vec::new();
        for offset in (0..reversed.len() as u64 + 7).step_by(7) {
            let page = f
                .catalogue
                .search(&f.index, &search, offset, 7)
                .expect("searched");
            assert_eq!(page.count, reversed.len() as u64);
            pages.extend(page.games.iter().map(|g| g.id.0));
        }
        assert_eq!(pages, reversed, "{sort:?} in pages");
    }
}

#[test]
fn a_list_of_the_games_of_a_position_keeps_its_criteria_and_order() {
    let f = fixture();
    // The games that reached the position after 1. e4, by the index.
    let rules = pgn::ChessRules;
    let after = index::position_of(&rules, None, None, "e4").expect("a position");
    let reached = f.index.find(rules.key(&after.position)).expect("found");
    assert!(reached.len() > 2);
    let search = GameSearch {
        games: Some(reached.clone()),
        player: Some("bob".into()),
        sort: Sort::Date,
        descending: true,
        ..Default::default()
    };
    let mut expected: Vec<u32> = reached
        .iter()
        .map(|g| g.0)
        .filter(|&i| {
            let g = &f.games[i as usize];
            contains(g.tag("White"), "bob") || contains(g.tag("Black"), "bob")
        })
        .collect();
    expected.sort_by_key(|&i| f.games[i as usize].day());
    expected.reverse();
    assert_eq!(listed(&f, &search), expected);

    // A player of few games within games given (every other one): the games of both.
    let reached: Vec<GameId> = (0..f.games.len() as u32).step_by(2).map(GameId).collect();
    let search = GameSearch {
        games: Some(reached.clone()),
        player: Some("rare".into()),
        sort: Sort::Rating,
        ..Default::default()
    };
    let mut expected: Vec<u32> = reached
        .iter()
        .map(|g| g.0)
        .filter(|&i| {
            let g = &f.games[i as usize];
            contains(g.tag("White"), "rare") || contains(g.tag("Black"), "rare")
        })
        .collect();
    expected.sort_by_key(|&i| f.games[i as usize].average().unwrap_or(0));
    assert!(
        !expected.is_empty() && expected.len() < reached.len(),
        "{} of {}, {} games",
        expected.len(),
        reached.len(),
        f.games.len()
    );
    assert_eq!(listed(&f, &search), expected);
}

#[test]
fn the_games_of_a_position_come_in_each_order_and_in_pages_whether_few_or_many() {
    let f = fixture();
    let rules = pgn::ChessRules;
    let n = f.games.len();
    let mut sizes = Vec::new();
    // The start (every standard game: most of the list) down to a line few games played,
    // so that both ways of ordering them are taken (along the list's own order, or the
    // few games sorted themselves).
    for line in ["", "e4", "e4 e5", "d4 d5 c4"] {
        let at = index::position_of(&rules, None, None, line).expect("a position");
        let reached = f.index.find(rules.key(&at.position)).expect("found");
        sizes.push(reached.len());
        let ids: Vec<u32> = reached.iter().map(|g| g.0).collect();
        let keyed = |key: &dyn Fn(&Scanned) -> (u32, u32, u32)| {
            let mut sorted = ids.clone();
            sorted.sort_by_key(|&i| key(&f.games[i as usize]));
            sorted
        };
        let by_date = keyed(&|g| {
            let d = g.day();
            (d.year.into(), d.month.into(), d.day.into())
        });
        let by_rating = keyed(&|g| (g.average().unwrap_or(0), 0, 0));
        for (sort, expected) in [
            (Sort::Indexed, ids.clone()),
            (Sort::Date, by_date),
            (Sort::Rating, by_rating),
        ] {
            for descending in [false, true] {
                let search = GameSearch {
                    games: Some(reached.clone()),
                    sort,
                    descending,
                    ..Default::default()
                };
                let mut expected = expected.clone();
                if descending {
                    expected.reverse();
                }
                let mut pages = Vec::new();
                for offset in (0..expected.len() as u64 + 5).step_by(5) {
                    let page = f
                        .catalogue
                        .search(&f.index, &search, offset, 5)
                        .expect("searched");
                    assert_eq!(page.count, expected.len() as u64, "{line:?} {sort:?}");
                    pages.extend(page.games.iter().map(|g| g.id.0));
                }
                assert_eq!(pages, expected, "{line:?} {sort:?} descending {descending}");
            }
        }
    }
    assert!(
        sizes[0] * 8 >= n,
        "the start is most games: {sizes:?} of {n}"
    );
    assert!(
        sizes.iter().any(|&s| s > 0 && s * 8 < n),
        "a line is few games: {sizes:?} of {n}"
    );
}

#[test]
fn a_listed_game_says_what_its_tags_say_and_where_it_is() {
    let f = fixture();
    let page = f
        .catalogue
        .search(&f.index, &GameSearch::default(), 3, 1)
        .expect("searched");
    let listed = &page.games[0];
    let g = &f.games[3];
    assert_eq!(listed.id, GameId(3));
    assert_eq!(listed.white.name, g.tag("White"));
    assert_eq!(listed.black.name, g.tag("Black"));
    assert_eq!(listed.white.rating.map(u32::from), g.rating("WhiteElo"));
    assert_eq!(listed.event, g.tag("Event"));
    assert_eq!(listed.site, g.tag("Site"));
    assert_eq!(listed.opening, g.tag("Opening"));
    assert_eq!(
        listed.eco.map(|e| e.to_string()),
        Eco::parse(g.tag("ECO")).map(|e| e.to_string())
    );
    assert_eq!(listed.day, g.day());
    assert_eq!(listed.plies, g.plies);
    assert_eq!(listed.variant, g.kind);
    assert_eq!(listed.reference.number, 4);
}
