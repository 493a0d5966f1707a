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
use index::dims::{Month, RatingGroup, Speed};
use index::games::Written;
use index::{Color, Filter, Game, GameId, Index, IndexError, Limits, Question};
use notation::{GameReader, ReadOptions};

/// The routes of the API over an index.
pub fn router(index: Arc<Index>) -> Router {
    Router::new()
        .route("/api/explore", get(explore))
        .route("/api/find", get(find))
        .route("/api/games/{id}", get(game))
        .fallback(|| async { ApiError::not_found("no such page") })
        .with_state(index)
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

fn json_response(body: String) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// The most moves, top games or recent games an explorer answer lists.
const MAX_LISTED: usize = 500;

async fn explore(
    State(index): State<Arc<Index>>,
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
    blocking(move || {
        let answer = index.explore_question(&params.question(), &filter, limits)?;
        Ok(json_response(
            index::json::explored(&answer.explored).to_string(),
        ))
    })
    .await
}

/// Games `find` lists by default, and at most.
const FIND_DEFAULT: usize = 100;
const FIND_MAX: usize = 10_000;

async fn find(
    State(index): State<Arc<Index>>,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Response, ApiError> {
    let params = Params::read(query, &["fen", "play", "variant", "offset", "limit"])?;
    let offset = params.parsed::<usize>("offset")?.unwrap_or(0);
    let limit = params.count("limit", FIND_DEFAULT, FIND_MAX)?;
    blocking(move || {
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
    State(index): State<Arc<Index>>,
    Path(id): Path<String>,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Response, ApiError> {
    let params = Params::read(query, &["format"])?;
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
        ("json" | "raw", _) => Written::AsInFile,
        ("pgn", Game::Chess) | ("pdn", Game::Draughts) => Written::Export,
        _ => {
            return Err(ApiError::bad(format!(
                "format={format:?}: json, raw or {}",
                match index.game() {
                    Game::Chess => "pgn",
                    Game::Draughts => "pdn",
                }
            )));
        }
    };
    blocking(move || {
        let mut text = Vec::new();
        index::games::write_game(&index, id, written_as, &mut text)?;
        if format != "json" {
            return Ok(([(header::CONTENT_TYPE, text_type)], text).into_response());
        }
        let record = index.record(id)?;
        let at = index.reference(&record);
        let variant = index
            .sources()
            .get(record.source as usize)
            .and_then(|s| s.variant.as_deref())
            .and_then(|v| collection::rules::parse_game_type(v).ok());
        let json = match index.game() {
            Game::Chess => game_json(&collection::rules::chess(), &text, &at),
            Game::Draughts => game_json(&collection::rules::draughts(variant), &text, &at),
        };
        json.map(json_response).ok_or_else(|| ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: format!("{} game {}: does not read again", at.path, at.number),
        })
    })
    .await
}

/// A game's text as `notate json` writes the game (its diagnostics placed in the game's
/// own text, whose first line is 1).
fn game_json<R: JsonMoves>(rules: &R, text: &[u8], at: &index::GameRef) -> Option<String> {
    let mut reader = GameReader::new(rules, text, ReadOptions::default());
    let read = reader.read_game().ok()??;
    let mut out = format!(
        "{{\"file\":{},\"game\":{},",
        serde_json::Value::from(at.path.as_str()),
        at.number
    );
    collection::json::write_game(rules, &read.game, &mut out);
    collection::json::write_diagnostics(&read.diagnostics, &mut out);
    Some(out)
}
