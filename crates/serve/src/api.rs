//! The JSON API: each request's parameters read and checked, the index asked on a
//! blocking thread (its store is read synchronously), the answer or a JSON error.

use std::collections::HashMap;
use std::sync::Arc;

use axum::Router;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use collection::json::JsonMoves;
use index::catalogue::{Catalogue, GameSearch, Listed, Sort};
use index::dims::{Month, RatingGroup, Speed, Winner};
use index::games::Written;
use index::record::{Day, Eco};
use index::{Color, Filter, Game, GameId, Index, IndexError, Limits, Question};
use notation::{GameReader, ReadOptions};

use crate::board::board;

/// What the server answers from: the index, and its games as a list to search.
pub struct Served {
    index: Index,
    catalogue: Catalogue,
    /// Permits for the searches that may read many games (`find`, the game list, a
    /// player's explorer), as many as there are cores; more searches wait for one. The
    /// explorer and a game read a few rows and take none, so they are answered at once
    /// even while many clients search, rather than queued behind the searches.
    searches: Arc<tokio::sync::Semaphore>,
}

impl Served {
    /// Opens the index in `dir` and reads its games' list.
    ///
    /// # Errors
    /// An index that does not open, or is damaged.
    pub fn open(dir: &std::path::Path) -> Result<Served, IndexError> {
        let index = Index::open(dir)?;
        let catalogue = Catalogue::load(&index)?;
        let cores = std::thread::available_parallelism().map_or(2, usize::from);
        Ok(Served {
            index,
            catalogue,
            searches: Arc::new(tokio::sync::Semaphore::new(cores)),
        })
    }
}

/// The routes of the API over an index, and the page.
pub fn router(served: Arc<Served>) -> Router {
    Router::new()
        .route("/", get(crate::page::page))
        .route("/assets/{name}", get(crate::page::asset))
        .route("/api/explore", get(explore))
        .route("/api/find", get(find))
        .route("/api/games", get(games))
        .route("/api/games/{id}", get(game))
        .route("/api/board", get(board_of))
        .route("/api/about", get(about))
        .fallback(|| async { ApiError::not_found("no such page") })
        .with_state(served)
}

/// An answer that is not the one asked for: its status and what went wrong.
#[derive(Debug)]
struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    fn bad(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    fn not_found(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message: message.into(),
        }
    }
}

impl From<IndexError> for ApiError {
    fn from(e: IndexError) -> ApiError {
        let status = match e {
            IndexError::Query(_) => StatusCode::BAD_REQUEST,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        };
        ApiError {
            status,
            message: e.to_string(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message }).to_string();
        (
            self.status,
            [(header::CONTENT_TYPE, "application/json")],
            body,
        )
            .into_response()
    }
}

/// A query string's parameters, each named once and each one the request knows.
struct Params(HashMap<String, String>);

impl Params {
    fn read(
        query: Result<Query<Vec<(String, String)>>, QueryRejection>,
        known: &[&str],
    ) -> Result<Params, ApiError> {
        let Query(pairs) = query.map_err(|e| ApiError::bad(e.body_text()))?;
        let mut params = HashMap::new();
        for (name, value) in pairs {
            if !known.contains(&name.as_str()) {
                return Err(ApiError::bad(format!(
                    "unknown parameter {name:?} (known: {})",
                    known.join(", ")
                )));
            }
            if params.insert(name.clone(), value).is_some() {
                return Err(ApiError::bad(format!("{name} given twice")));
            }
        }
        Ok(Params(params))
    }

    fn text(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(String::as_str)
    }

    /// A parameter read by its `FromStr`.
    fn parsed<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>, ApiError>
    where
        T::Err: std::fmt::Display,
    {
        self.text(name)
            .map(|v| {
                v.parse()
                    .map_err(|e| ApiError::bad(format!("{name}={v:?}: {e}")))
            })
            .transpose()
    }

    /// A comma-separated list of values read by their `FromStr`.
    fn list<T: std::str::FromStr>(&self, name: &str) -> Result<Vec<T>, ApiError>
    where
        T::Err: std::fmt::Display,
    {
        self.text(name)
            .into_iter()
            .flat_map(|v| v.split(','))
            .filter(|v| !v.trim().is_empty())
            .map(|v| {
                v.trim()
                    .parse()
                    .map_err(|e| ApiError::bad(format!("{name}: {v:?}: {e}")))
            })
            .collect()
    }

    /// A count, at most `max`.
    fn count(&self, name: &str, default: usize, max: usize) -> Result<usize, ApiError> {
        let n = self.parsed::<usize>(name)?.unwrap_or(default);
        if n > max {
            return Err(ApiError::bad(format!("{name}={n}: at most {max}")));
        }
        Ok(n)
    }

    /// The position asked: `fen`, `play` (moves from it, UCI or the game's notation,
    /// separated by commas or spaces) and `variant`.
    fn question(&self) -> Question<'_> {
        Question {
            fen: self.text("fen").filter(|f| !f.trim().is_empty()),
            moves: self.text("play").unwrap_or(""),
            variant: self.text("variant").filter(|v| !v.trim().is_empty()),
        }
    }
}

/// Runs an index question on a blocking thread.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work).await.unwrap_or_else(|e| {
        Err(ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: format!("the request stopped: {e}"),
        })
    })
}

/// Runs a search that may read many games on a blocking thread, once one of the
/// searches' permits is free ([`Served::searches`]).
async fn searching<T: Send + 'static>(
    permits: Arc<tokio::sync::Semaphore>,
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let permit = permits.acquire_owned().await.map_err(|e| ApiError {
        status: StatusCode::INTERNAL_SERVER_ERROR,
        message: format!("the request stopped: {e}"),
    })?;
    // Held until the work is done, even when its client has gone.
    blocking(move || {
        let answer = work();
        drop(permit);
        answer
    })
    .await
}

fn json_response(body: String) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// The most moves, top games or recent games an explorer answer lists.
const MAX_LISTED: usize = 500;

async fn explore(
    State(served): State<Arc<Served>>,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Response, ApiError> {
    let params = Params::read(
        query,
        &[
            "fen",
            "play",
            "variant",
            "ratings",
            "speeds",
            "since",
            "until",
            "player",
            "color",
            "moves",
            "topGames",
            "recentGames",
        ],
    )?;
    let filter = Filter {
        since: params.parsed::<Month>("since")?,
        until: params.parsed::<Month>("until")?,
        ratings: params.list::<RatingGroup>("ratings")?,
        speeds: params.list::<Speed>("speeds")?,
        player: params.text("player").map(str::to_owned),
        color: params.parsed::<Color>("color")?,
    };
    if filter.color.is_some() && filter.player.is_none() {
        return Err(ApiError::bad(
            "color is the colour of a player: give player too",
        ));
    }
    let limits = Limits {
        moves: params.count("moves", 12, MAX_LISTED)?,
        top_games: params.count("topGames", 4, MAX_LISTED)?,
        recent_games: params.count("recentGames", 4, MAX_LISTED)?,
    };
    let summarised = Index::summaries_answer(&filter, limits);
    let work = {
        let served = Arc::clone(&served);
        move || {
            let answer = served
                .index
                .explore_question(&params.question(), &filter, limits)?;
            Ok(json_response(
                index::json::explored(&answer.explored).to_string(),
            ))
        }
    };
    if summarised {
        blocking(work).await
    } else {
        // It may read every game of the position: a search.
        searching(Arc::clone(&served.searches), work).await
    }
}

/// Games `find` lists by default, and at most.
const FIND_DEFAULT: usize = 100;
const FIND_MAX: usize = 10_000;

async fn find(
    State(served): State<Arc<Served>>,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Response, ApiError> {
    let params = Params::read(query, &["fen", "play", "variant", "offset", "limit"])?;
    let offset = params.parsed::<usize>("offset")?.unwrap_or(0);
    let limit = params.count("limit", FIND_DEFAULT, FIND_MAX)?;
    searching(Arc::clone(&served.searches), move || {
        let index = &served.index;
        let ids = index.find_question(&params.question())?;
        let mut games = Vec::new();
        for &id in ids.iter().skip(offset).take(limit) {
            let record = index.record(id)?;
            let at = index.reference(&record);
            games.push(serde_json::json!({
                "id": id.0,
                "file": at.path,
                "number": at.number,
                "offset": at.offset,
            }));
        }
        Ok(json_response(
            serde_json::json!({ "count": ids.len(), "games": games }).to_string(),
        ))
    })
    .await
}

async fn game(
    State(served): State<Arc<Served>>,
    Path(id): Path<String>,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Response, ApiError> {
    let params = Params::read(query, &["format"])?;
    let index = &served.index;
    let id = id
        .parse::<u32>()
        .ok()
        .filter(|&id| u64::from(id) < index.games())
        .map(GameId)
        .ok_or_else(|| {
            ApiError::not_found(format!(
                "no game {id:?}: the index holds games 0 to {}",
                index.games().saturating_sub(1)
            ))
        })?;
    let text_type = match index.game() {
        Game::Chess => "application/x-chess-pgn; charset=utf-8",
        Game::Draughts => "text/plain; charset=utf-8",
    };
    let format = params.text("format").unwrap_or("json").to_owned();
    let written_as = match (format.as_str(), index.game()) {
        ("json" | "raw" | "view", _) => Written::AsInFile,
        ("pgn", Game::Chess) | ("pdn", Game::Draughts) => Written::Export,
        _ => {
            return Err(ApiError::bad(format!(
                "format={format:?}: json, view, raw or {}",
                match index.game() {
                    Game::Chess => "pgn",
                    Game::Draughts => "pdn",
                }
            )));
        }
    };
    blocking(move || {
        let index = &served.index;
        let mut text = Vec::new();
        index::games::write_game(index, id, written_as, &mut text)?;
        if format != "json" && format != "view" {
            return Ok(([(header::CONTENT_TYPE, text_type)], text).into_response());
        }
        let record = index.record(id)?;
        let at = index.reference(&record);
        let variant = index
            .sources()
            .get(record.source as usize)
            .and_then(|s| s.variant.as_deref())
            .and_then(|v| collection::rules::parse_game_type(v).ok());
        let view = format == "view";
        let json = match index.game() {
            Game::Chess => game_json(&collection::rules::chess(), &text, &at, view),
            Game::Draughts => game_json(&collection::rules::draughts(variant), &text, &at, view),
        };
        let json = match json {
            Some(mut json) if view => {
                // What the list says of it too (its variant, for the explorer).
                let listed = served.catalogue.listed(index, id)?;
                json.pop();
                json.push_str(",\"listed\":");
                json.push_str(&listed_json(&listed).to_string());
                json.push('}');
                Some(json)
            }
            json => json,
        };
        json.map(json_response).ok_or_else(|| ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: format!("{} game {}: does not read again", at.path, at.number),
        })
    })
    .await
}

/// A game's text as `notate json` writes the game (its diagnostics placed in the game's
/// own text, whose first line is 1), or with `view` as the page's viewer takes it
/// ([`collection::html::game_view`]) with its tags.
fn game_json<R: JsonMoves + collection::html::Snapshots>(
    rules: &R,
    text: &[u8],
    at: &index::GameRef,
    view: bool,
) -> Option<String> {
    let mut reader = GameReader::new(rules, text, ReadOptions::default());
    let read = reader.read_game().ok()??;
    let mut out = format!(
        "{{\"file\":{},\"{}\":{},",
        serde_json::Value::from(at.path.as_str()),
        // `notate json` names a game's number in its file `game`.
        if view { "number" } else { "game" },
        at.number
    );
    if view {
        let tags: Vec<serde_json::Value> = read
            .game
            .tags
            .iter()
            .map(|tag| serde_json::json!([tag.name, tag.value]))
            .collect();
        out.push_str("\"tags\":");
        out.push_str(&serde_json::Value::from(tags).to_string());
        out.push_str(",\"result\":");
        out.push_str(&serde_json::Value::from(read.game.result.as_str()).to_string());
        out.push_str(",\"view\":");
        out.push_str(&collection::html::game_view(
            rules,
            &read.game,
            &read.diagnostics,
        ));
        out.push('}');
        return Some(out);
    }
    collection::json::write_game(rules, &read.game, &mut out);
    collection::json::write_diagnostics(&read.diagnostics, &mut out);
    Some(out)
}

/// Games a list gives by default, and at most.
const LIST_DEFAULT: usize = 50;
const LIST_MAX: usize = 1_000;

/// A date as a list's bounds take it: `2024`, `2024-05`, `2024-05-01` (or with dots).
fn day_of(name: &str, text: &str) -> Result<Day, ApiError> {
    let bad = || {
        ApiError::bad(format!(
            "{name}={text:?}: a date as 2024, 2024-05 or 2024-05-01"
        ))
    };
    let mut parts = text.trim().split(['-', '.']);
    let year = parts
        .next()
        .and_then(|y| y.parse::<u16>().ok())
        .ok_or_else(bad)?;
    let mut part = |max: u8| -> Result<u8, ApiError> {
        match parts.next() {
            None => Ok(0),
            Some(p) => p
                .parse::<u8>()
                .ok()
                .filter(|&v| (1..=max).contains(&v))
                .ok_or_else(bad),
        }
    };
    let month = part(12)?;
    let day = part(31)?;
    if parts.next().is_some() || year == 0 || (month == 0 && day != 0) {
        return Err(bad());
    }
    Ok(Day { year, month, day })
}

/// An ECO range: `B20`, `B20-B99`, or a letter (`B`: B00 to B99).
fn eco_range(text: &str) -> Result<(Eco, Eco), ApiError> {
    let bad = || {
        ApiError::bad(format!(
            "eco={text:?}: a code (B20), a range (B20-B99) or a letter"
        ))
    };
    let text = text.trim();
    if text.len() == 1 {
        let lo = Eco::parse(&format!("{text}00")).ok_or_else(bad)?;
        let hi = Eco::parse(&format!("{text}99")).ok_or_else(bad)?;
        return Ok((lo, hi));
    }
    let (lo, hi) = text.split_once('-').unwrap_or((text, text));
    let code = |t: &str| {
        Eco::parse(t)
            .filter(|_| t.trim().len() == 3)
            .ok_or_else(bad)
    };
    let (lo, hi) = (code(lo)?, code(hi)?);
    if lo > hi {
        return Err(bad());
    }
    Ok((lo, hi))
}

/// Who won, as a list's `result` names it.
fn winner_of(text: &str) -> Result<Winner, ApiError> {
    Ok(match text.trim() {
        "1-0" | "2-0" | "white" => Winner::White,
        "0-1" | "0-2" | "black" => Winner::Black,
        "1/2-1/2" | "\u{bd}-\u{bd}" | "1-1" | "draw" => Winner::Draw,
        "*" | "unknown" => Winner::Unknown,
        _ => {
            return Err(ApiError::bad(format!(
                "result={text:?}: 1-0, 0-1, 1/2-1/2, * (or white, black, draw, unknown)"
            )));
        }
    })
}

fn winner_name(winner: Winner) -> serde_json::Value {
    match winner {
        Winner::White => "white".into(),
        Winner::Black => "black".into(),
        Winner::Draw => "draw".into(),
        Winner::Unknown => serde_json::Value::Null,
    }
}

async fn games(
    State(served): State<Arc<Served>>,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Response, ApiError> {
    let params = Params::read(
        query,
        &[
            "player",
            "white",
            "black",
            "event",
            "site",
            "opening",
            "eco",
            "since",
            "until",
            "result",
            "minRating",
            "maxRating",
            "variant",
            "minPlies",
            "maxPlies",
            "fen",
            "play",
            "sort",
            "order",
            "offset",
            "limit",
        ],
    )?;
    let text = |name: &str| {
        params
            .text(name)
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
    };
    let range = |lo: Option<u32>, hi: Option<u32>| match (lo, hi) {
        (None, None) => None,
        (lo, hi) => Some((lo.unwrap_or(0), hi.unwrap_or(u32::MAX))),
    };
    let sort = match params.text("sort").unwrap_or("indexed") {
        "indexed" | "" => Sort::Indexed,
        "date" => Sort::Date,
        "rating" => Sort::Rating,
        other => {
            return Err(ApiError::bad(format!(
                "sort={other:?}: indexed, date or rating"
            )));
        }
    };
    let descending = match params.text("order") {
        None | Some("") => sort != Sort::Indexed,
        Some("desc") => true,
        Some("asc") => false,
        Some(other) => return Err(ApiError::bad(format!("order={other:?}: asc or desc"))),
    };
    let mut search = GameSearch {
        player: text("player"),
        white: text("white"),
        black: text("black"),
        event: text("event"),
        site: text("site"),
        opening: text("opening"),
        eco: text("eco").map(|e| eco_range(&e)).transpose()?,
        since: text("since").map(|d| day_of("since", &d)).transpose()?,
        until: text("until").map(|d| day_of("until", &d)).transpose()?,
        winner: text("result").map(|r| winner_of(&r)).transpose()?,
        ratings: range(
            params.parsed::<u16>("minRating")?.map(u32::from),
            params.parsed::<u16>("maxRating")?.map(u32::from),
        )
        .map(|(lo, hi)| (lo as u16, hi.min(u32::from(u16::MAX)) as u16)),
        variant: text("variant"),
        plies: range(params.parsed("minPlies")?, params.parsed("maxPlies")?),
        games: None,
        sort,
        descending,
    };
    let offset = params.parsed::<u64>("offset")?.unwrap_or(0);
    let limit = params.count("limit", LIST_DEFAULT, LIST_MAX)?;
    let by_position = params.text("fen").is_some_and(|f| !f.trim().is_empty())
        || params.text("play").is_some_and(|p| !p.trim().is_empty());
    searching(Arc::clone(&served.searches), move || {
        if by_position {
            // The variant sets up the FEN as well as filtering the list.
            search.games = Some(served.index.find_question(&params.question())?);
        }
        let page = served
            .catalogue
            .search(&served.index, &search, offset, limit)?;
        let games: Vec<serde_json::Value> = page.games.iter().map(listed_json).collect();
        Ok(json_response(
            serde_json::json!({ "count": page.count, "offset": offset, "games": games })
                .to_string(),
        ))
    })
    .await
}

/// A game as the list gives it.
fn listed_json(g: &Listed) -> serde_json::Value {
    serde_json::json!({
        "id": g.id.0,
        "white": {"name": g.white.name, "rating": g.white.rating},
        "black": {"name": g.black.name, "rating": g.black.rating},
        "winner": winner_name(g.winner),
        "event": g.event,
        "site": g.site,
        "date": g.day.to_pgn(),
        "eco": g.eco.map(|e| e.to_string()),
        "opening": g.opening,
        "plies": g.plies,
        "variant": g.variant,
        "file": g.reference.path,
        "number": g.reference.number,
    })
}

async fn board_of(
    State(served): State<Arc<Served>>,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Response, ApiError> {
    let params = Params::read(query, &["fen", "play", "variant"])?;
    blocking(move || {
        let q = params.question();
        let answer = match served.index.game() {
            Game::Chess => board(&collection::rules::chess(), q.fen, q.variant, q.moves)?,
            Game::Draughts => {
                let game_type = q
                    .variant
                    .map(collection::rules::parse_game_type)
                    .transpose()
                    .map_err(ApiError::bad)?;
                board(
                    &collection::rules::draughts(None),
                    q.fen,
                    game_type.map(|t| t.to_string()).as_deref(),
                    q.moves,
                )?
            }
        };
        Ok(json_response(answer.to_string()))
    })
    .await
}

/// What the index holds: its game, its number of games, its inputs.
async fn about(State(served): State<Arc<Served>>) -> Response {
    let index = &served.index;
    let variants: std::collections::BTreeSet<&str> = index
        .sources()
        .iter()
        .flat_map(|s| s.kinds.iter().flatten())
        .map(String::as_str)
        .collect();
    json_response(
        serde_json::json!({
            "game": index.game().name(),
            "games": index.games(),
            "files": index.sources().iter().map(|s| s.path.as_str()).collect::<Vec<_>>(),
            "variants": variants,
        })
        .to_string(),
    )
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use collection::job::{Job, Silent};

    use super::*;

    fn query(pairs: &[(&str, &str)]) -> Result<Query<Vec<(String, String)>>, QueryRejection> {
        Ok(Query(
            pairs
                .iter()
                .map(|&(k, v)| (k.to_owned(), v.to_owned()))
                .collect(),
        ))
    }

    /// With every search's permit taken, the explorer and a game are answered at once,
    /// while `find`, the list and a player's explorer wait for a permit and are answered
    /// once one is free.
    #[test]
    fn the_explorer_is_answered_while_searches_wait_their_turn() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let scratch = tempfile::tempdir().expect("a folder");
        let dir = scratch.path().join("index");
        let sources = collection::input::collect(&[root.join("corpus/pgn/generated.pgn")])
            .expect("the corpus");
        index::build(
            &mut Job::new(sources, 1, &Silent),
            &dir,
            &index::BuildOptions::default(),
        )
        .expect("built");
        let served = Arc::new(Served::open(&dir).expect("opened"));
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async {
            let permits = served.searches.available_permits() as u32;
            let held = Arc::clone(&served.searches)
                .acquire_many_owned(permits)
                .await
                .expect("the permits");
            let found = tokio::spawn(find(State(Arc::clone(&served)), query(&[])));
            let listed = tokio::spawn(games(State(Arc::clone(&served)), query(&[])));
            // A player's explorer reads the position's games one by one: a search too.
            let players = tokio::spawn(explore(
                State(Arc::clone(&served)),
                query(&[("player", "Generator, White")]),
            ));
            let soon = Duration::from_secs(10);
            let explored =
                tokio::time::timeout(soon, explore(State(Arc::clone(&served)), query(&[])))
                    .await
                    .expect("answered while the searches wait")
                    .expect("an answer");
            assert_eq!(explored.status(), StatusCode::OK);
            let game = tokio::time::timeout(
                soon,
                game(State(Arc::clone(&served)), Path("0".to_owned()), query(&[])),
            )
            .await
            .expect("answered while the searches wait")
            .expect("an answer");
            assert_eq!(game.status(), StatusCode::OK);
            tokio::time::sleep(Duration::from_millis(200)).await;
            assert!(!found.is_finished() && !listed.is_finished() && !players.is_finished());
            drop(held);
            for search in [found, listed, players] {
                let answer = tokio::time::timeout(soon, search)
                    .await
                    .expect("answered once a permit is free")
                    .expect("not stopped")
                    .expect("an answer");
                assert_eq!(answer.status(), StatusCode::OK);
            }
        });
    }
}
