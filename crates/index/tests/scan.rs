//! The index answers as a straightforward scan of every game does: the explorer's
//! statistics and `find`'s games, for every position of the corpus's games (chess, its
//! variants, and every draughts game type), with each filter.
//!
//! The scan knows positions by their FEN (without the move counters) and the game type,
//! not by the index's keys, and filters games by their tags as written.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use collection::job::{Job, Silent};
use collection::rules::FormatRules;
use index::dims::{Month, RatingGroup, Speed};
use index::{BuildOptions, Color, Explored, Filter, Index, IndexRules, Limits};
use notation::{GameReader, GameResult, GameTree, ReadOptions, Tags};

fn corpus(dir: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus")
        .join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(root)
        .expect("the corpus")
        .map(|e| e.expect("an entry").path())
        .collect();
    files.sort();
    files
}

/// Tags that give the filters something to filter: players from a small pool (written in
/// varying case), ratings (sometimes missing), months, time controls.
fn retag(tags: &mut Tags, i: usize) {
    let players = ["Ann", "bob", "Cid", "ANN", "Dora"];
    tags.set("White", players[i % 5]);
    tags.set("Black", players[(i * 3 + 1) % 5]);
    let months = [
        "2023.11.05",
        "2024.01.31",
        "2024.02.10",
        "????.??.??",
        "2024.07.??",
    ];
    tags.set("UTCDate", months[i % 5]);
    tags.set("Date", months[(i + 1) % 5]);
    if i % 7 != 3 {
        tags.set("WhiteElo", (900 + (i * 137) % 1800).to_string());
    }
    if i % 11 != 5 {
        tags.set("BlackElo", (950 + (i * 251) % 1750).to_string());
    }
    // Each side of each of lichess's bounds (29/30, 179/180, 479/480, 1499/1500 s).
    let controls = [
        "29+0", "30+0", "139+1", "140+1", "479+0", "80+10", "1099+10", "1100+10", "-", "?",
    ];
    if i % 13 != 12 {
        tags.set("TimeControl", controls[(i * 7) % 10]);
    }
}

/// The corpus's games that read without error, retagged, in one file per game.
fn retagged<R: FormatRules>(rules: &R, files: &[PathBuf], out: &Path) {
    let mut text = String::new();
    let mut i = 0;
    for file in files {
        let bytes = std::fs::read(file).expect("a corpus file");
        for read in GameReader::new(rules, bytes.as_slice(), ReadOptions::default()) {
            let mut read = read.expect("in memory");
            if read.has_errors() || !read.built {
                continue;
            }
            retag(&mut read.game.tags, i);
            // Results of every kind (the corpus's draughts games are mostly unfinished).
            read.game.result = [
                GameResult::FirstWins,
                GameResult::Draw,
                GameResult::SecondWins,
                GameResult::Unknown,
            ][i % 4];
            read.game.tags.set("Result", read.game.result.as_str());
            i += 1;
            notation::write_game(rules, &read.game, &rules.write_options(), &mut text)
                .expect("written");
        }
    }
    std::fs::write(out, text).expect("written");
}

/// A position as the scan knows it: its FEN without the move counters, and its game.
fn identity<R: IndexRules>(rules: &R, position: &R::Position, game: &str) -> String {
    let fen = rules.fen(position).expect("a FEN");
    let mut fields: Vec<&str> = fen.split(' ').collect();
    while fields.len() > 4
        && fields
            .last()
            .is_some_and(|f| f.chars().all(|c| c.is_ascii_digit()))
    {
        fields.pop();
    }
    format!("{game} {}", fields.join(" "))
}

/// A game as the scan keeps it.
struct Scanned {
    number: u64,
    tags: Tags,
    result: GameResult,
}

/// The games that reached a position (by their place in the scan) and the move each
/// played from it (`None`: it ended there).
type Pairs = BTreeSet<(usize, Option<String>)>;

/// The counts of a move: White wins, draws, Black wins, average rating.
type Counts = (u64, u64, u64, Option<u32>);

/// What the scan found: each game, and for each position the games and moves from it.
struct Scan<P> {
    games: Vec<Scanned>,
    /// Identity → (a position, the (game, move text) pairs).
    positions: BTreeMap<String, (P, Pairs)>,
}

fn scan<R: IndexRules>(
    rules: &R,
    file: &Path,
    game_name: impl Fn(&R::Position) -> String,
) -> Scan<R::Position> {
    let bytes = std::fs::read(file).expect("the file");
    let mut games = Vec::new();
    let mut positions: BTreeMap<String, (R::Position, Pairs)> = BTreeMap::new();
    for read in GameReader::new(rules, bytes.as_slice(), ReadOptions::default()) {
        let read = read.expect("in memory");
        let g = games.len();
        let game: &GameTree<R::Move> = &read.game;
        let start = rules.start(game).expect("a start position");
        collection::mainline::walk(rules, start, game, |position, mv| {
            let id = identity(rules, position, &game_name(position));
            let text = mv.map(|m| rules.move_text(position, m));
            positions
                .entry(id)
                .or_insert_with(|| (position.clone(), BTreeSet::new()))
                .1
                .insert((g, text));
            true
        });
        games.push(Scanned {
            number: read.index,
            tags: game.tags.clone(),
            result: game.result,
        });
    }
    Scan { games, positions }
}

fn rating(tags: &Tags, name: &str) -> Option<u32> {
    tags.get(name)?.parse().ok()
}

/// Whether the scan lets a game through a filter, from its tags as written.
fn passes(tags: &Tags, filter: &Filter) -> bool {
    let month = ["UTCDate", "Date"].iter().find_map(|t| {
        let v = tags.get(t)?;
        let year: u16 = v.get(0..4)?.parse().ok()?;
        let month: u8 = v.get(5..7)?.parse().ok()?;
        Month::new(year, month)
    });
    if filter.since.is_some() || filter.until.is_some() {
        match month {
            None => return false,
            Some(m) => {
                if filter.since.is_some_and(|s| m < s) || filter.until.is_some_and(|u| m > u) {
                    return false;
                }
            }
        }
    }
    if !filter.ratings.is_empty() {
        let (Some(w), Some(b)) = (rating(tags, "WhiteElo"), rating(tags, "BlackElo")) else {
            return false;
        };
        let average = (w + b) / 2;
        let group = RatingGroup::BOUNDS
            .iter()
            .rev()
            .find(|&&g| u32::from(g) <= average)
            .copied()
            .unwrap_or(0);
        if !filter.ratings.iter().any(|g| g.bound() == group) {
            return false;
        }
    }
    if !filter.speeds.is_empty() {
        let speed = match tags.get("TimeControl") {
            Some("-") => Some(Speed::Correspondence),
            // The first period: `base+increment`, `moves/seconds`, `seconds`, `*seconds`.
            Some(tc) => tc.split(':').next().and_then(|period| {
                let period = period.trim_start_matches('*');
                let period = period.split_once('/').map_or(period, |(_, s)| s);
                let (base, inc) = period.split_once('+').unwrap_or((period, "0"));
                let seconds = base.parse::<u64>().ok()? + 40 * inc.parse::<u64>().ok()?;
                Some(match seconds {
                    0..=29 => Speed::UltraBullet,
                    30..=179 => Speed::Bullet,
                    180..=479 => Speed::Blitz,
                    480..=1499 => Speed::Rapid,
                    _ => Speed::Classical,
                })
            }),
            None => None,
        };
        if !speed.is_some_and(|s| filter.speeds.contains(&s)) {
            return false;
        }
    }
    if let Some(player) = &filter.player {
        let is = |tag| {
            tags.get(tag)
                .is_some_and(|n| n.eq_ignore_ascii_case(player))
        };
        let ok = match filter.color {
            Some(Color::White) => is("White"),
            Some(Color::Black) => is("Black"),
            None => is("White") || is("Black"),
        };
        if !ok {
            return false;
        }
    }
    true
}

fn filters() -> Vec<Filter> {
    let month = |s: &str| Some(s.parse::<Month>().expect("a month"));
    vec![
        Filter::default(),
        Filter {
            since: month("2024-01"),
            ..Filter::default()
        },
        Filter {
            since: month("2024-01"),
            until: month("2024-02"),
            ..Filter::default()
        },
        Filter {
            until: month("2023-12"),
            ..Filter::default()
        },
        Filter {
            ratings: vec![
                "1200".parse().expect("a group"),
                "1800".parse().expect("a group"),
            ],
            ..Filter::default()
        },
        Filter {
            speeds: vec![Speed::Blitz, Speed::Correspondence],
            ..Filter::default()
        },
        Filter {
            speeds: vec![Speed::UltraBullet],
            ..Filter::default()
        },
        Filter {
            speeds: vec![Speed::Bullet, Speed::Classical],
            ..Filter::default()
        },
        Filter {
            speeds: vec![Speed::Bullet],
            ..Filter::default()
        },
        Filter {
            speeds: vec![Speed::Blitz],
            ..Filter::default()
        },
        Filter {
            speeds: vec![Speed::Rapid],
            ..Filter::default()
        },
        Filter {
            speeds: vec![Speed::Classical],
            ..Filter::default()
        },
        Filter {
            player: Some("ann".into()),
            ..Filter::default()
        },
        Filter {
            player: Some("Dora".into()),
            color: Some(Color::White),
            ..Filter::default()
        },
        Filter {
            player: Some("BOB".into()),
            color: Some(Color::Black),
            ..Filter::default()
        },
        Filter {
            player: Some("nobody".into()),
            ..Filter::default()
        },
        Filter {
            speeds: vec![Speed::Bullet, Speed::Rapid],
            since: month("2024-01"),
            player: Some("Cid".into()),
            color: Some(Color::White),
            ..Filter::default()
        },
    ]
}

/// The explorer's move statistics: move text → (white, draws, black, average rating).
type MoveTable = BTreeMap<String, Counts>;

fn expected_moves(scan: &[Scanned], pairs: &Pairs, filter: &Filter) -> MoveTable {
    let mut table: HashMap<String, (u64, u64, u64, u64, u64)> = HashMap::new();
    for (g, mv) in pairs {
        let (Some(mv), game) = (mv, &scan[*g]) else {
            continue;
        };
        if !passes(&game.tags, filter) {
            continue;
        }
        let entry = table.entry(mv.clone()).or_default();
        match index::dims::Winner::of(game.result) {
            index::dims::Winner::White => entry.0 += 1,
            index::dims::Winner::Draw => entry.1 += 1,
            index::dims::Winner::Black => entry.2 += 1,
            index::dims::Winner::Unknown => continue,
        }
        if let (Some(w), Some(b)) = (
            rating(&game.tags, "WhiteElo"),
            rating(&game.tags, "BlackElo"),
        ) {
            entry.3 += u64::from((w + b) / 2);
            entry.4 += 1;
        }
    }
    table
        .into_iter()
        .filter(|(_, t)| t.0 + t.1 + t.2 > 0)
        .map(|(m, t)| (m, (t.0, t.1, t.2, (t.4 > 0).then(|| (t.3 / t.4) as u32))))
        .collect()
}

/// An answer with its players' names in lower case: a name is listed as written when it
/// was numbered, and the build of `players_held: 1` numbers a name each time it comes back.
fn names_lowered(mut explored: Explored) -> Explored {
    let games = explored.moves.iter_mut().filter_map(|m| m.game.as_mut());
    for game in games
        .chain(&mut explored.top_games)
        .chain(&mut explored.recent_games)
    {
        for player in [&mut game.white, &mut game.black] {
            player.name = player.name.to_lowercase();
        }
    }
    explored
}

fn check_all<R: IndexRules>(
    rules: &R,
    files: &[PathBuf],
    game_name: impl Fn(&R::Position) -> String,
) -> usize {
    let dir = tempfile::tempdir().expect("a folder");
    let file = dir.path().join("games.txt");
    retagged(rules, files, &file);
    let index_dir = dir.path().join("index");
    let sources = collection::input::collect(std::slice::from_ref(&file)).expect("the file");
    let mut job = Job::new(sources, 2, &Silent);
    job.format = Some(match R::GAME {
        index::Game::Chess => collection::input::Format::Pgn,
        index::Game::Draughts => collection::input::Format::Pdn,
    });
    // Every position summarised (the explorer answers from the summaries), and none (from
    // the games one by one): the second is held to the scan, and the two to each other. The
    // segments are stored a few KB at a time, in many transactions.
    let summarised = BuildOptions {
        popular: 1,
        store_memory: 4 << 10,
        ..BuildOptions::default()
    };
    let built = index::build(&mut job, &index_dir, &summarised).expect("built");
    let index = Index::open(&index_dir).expect("opened");
    let plain_dir = dir.path().join("plain");
    let sources = collection::input::collect(std::slice::from_ref(&file)).expect("the file");
    let mut job = Job::new(sources, 2, &Silent);
    job.format = Some(match R::GAME {
        index::Game::Chess => collection::input::Format::Pgn,
        index::Game::Draughts => collection::input::Format::Pdn,
    });
    // Players' names held one at a time: a name comes back after others and is numbered
    // anew, again and again, and the player's questions gather all their numbers.
    let unsummarised = BuildOptions {
        popular: u64::MAX,
        store_memory: 4 << 10,
        players_held: 1,
        ..BuildOptions::default()
    };
    index::build(&mut job, &plain_dir, &unsummarised).expect("built");
    let plain = Index::open(&plain_dir).expect("opened");
    let scan = scan(rules, &file, game_name);
    assert_eq!(built.games, scan.games.len() as u64);
    assert_eq!(
        built.positions,
        scan.positions.len() as u64,
        "distinct positions"
    );
    let limits = Limits {
        moves: usize::MAX,
        top_games: 0,
        recent_games: 0,
    };
    let filters = filters();
    let mut checked = 0;
    let mut counted = 0;
    for (id, (position, pairs)) in &scan.positions {
        // find: the games that reached it, by their number in the file.
        let found: BTreeSet<u64> = index
            .find(rules.key(position))
            .expect("found")
            .into_iter()
            .map(|g| index.record(g).expect("a record").number)
            .collect();
        let expected: BTreeSet<u64> = pairs.iter().map(|(g, _)| scan.games[*g].number).collect();
        assert_eq!(found, expected, "find at {id}");
        for filter in &filters {
            // The two ways, with their lists of games too.
            let all = Limits {
                moves: usize::MAX,
                top_games: 8,
                recent_games: 8,
            };
            let from_summaries = index
                .explore(rules, position, filter, all)
                .expect("explored");
            let from_games = plain
                .explore(rules, position, filter, all)
                .expect("explored");
            assert_eq!(
                names_lowered(from_summaries.clone()),
                names_lowered(from_games),
                "explore at {id} with {filter:?}"
            );
            for (answer, limit) in [
                (&from_summaries.top_games, 8),
                (&from_summaries.recent_games, 8),
            ] {
                assert!(answer.len() <= limit);
            }
            let explored = plain
                .explore(rules, position, filter, limits)
                .unwrap_or_else(|e| panic!("explore at {id}: {e}"));
            let got: MoveTable = explored
                .moves
                .iter()
                .map(|m| (m.san.clone(), (m.white, m.draws, m.black, m.average_rating)))
                .collect();
            let want = expected_moves(&scan.games, pairs, filter);
            assert_eq!(got, want, "explore at {id} with {filter:?}");
            counted += got.values().map(|c| c.0 + c.1 + c.2).sum::<u64>();
            let sum = |f: fn(&Counts) -> u64| want.values().map(f).sum::<u64>();
            assert_eq!(
                (explored.white, explored.draws, explored.black),
                (sum(|t| t.0), sum(|t| t.1), sum(|t| t.2))
            );
            checked += 1;
        }
    }
    // Not a comparison of empty answers: the games counted, over every question.
    assert!(counted > 1_000, "{counted} games counted");
    checked
}

#[test]
fn chess_and_its_variants_answer_as_a_scan() {
    let rules = collection::rules::chess();
    let files: Vec<PathBuf> = corpus("pgn")
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    let checked = check_all(&rules, &files, |p: &pgn::Position| {
        p.ruleset().name().to_owned()
    });
    assert!(checked > 10_000, "{checked} questions");
}

#[test]
fn draughts_game_types_answer_as_a_scan() {
    let rules = collection::rules::draughts(None);
    let files: Vec<PathBuf> = corpus("pdn")
        .into_iter()
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("variant-"))
        })
        .collect();
    let checked = check_all(&rules, &files, |p: &pdn::PdnPosition| {
        p.game_type().to_string()
    });
    assert!(checked > 5_000, "{checked} questions");
}
