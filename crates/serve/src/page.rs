//! The page: one HTML document with its style and script, compiled into the binary (the
//! viewer's from `collection::html`, the app's own from `assets/`). Nothing is fetched
//! from elsewhere.

use std::sync::OnceLock;

use axum::extract::Path;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// The page's markup; `<!--STYLE-->`, `<!--VIEWER-->` and `<!--SYMBOLS-->` are filled in.
const MARKUP: &str = include_str!("assets/app.html");
/// The app's own style, after the viewer's.
const APP_STYLE: &str = include_str!("assets/app.css");
/// The app: the list, the explorer, playing on the board; it hands games to the viewer.
const APP_SCRIPT: &str = include_str!("assets/app.js");

/// The page, put together once.
fn document() -> &'static str {
    static PAGE: OnceLock<String> = OnceLock::new();
    PAGE.get_or_init(|| {
        let style = collection::html::style_element(&format!(
            "{}\n{APP_STYLE}",
            collection::html::VIEWER_STYLE
        ));
        MARKUP
            .replace("<!--STYLE-->", &style)
            .replace("<!--VIEWER-->", collection::html::VIEWER_MARKUP)
            .replace("<!--SYMBOLS-->", &collection::html::symbol_definitions())
    })
}

/// `GET /`.
pub(crate) async fn page() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        document(),
    )
        .into_response()
}

/// `GET /assets/{name}`: the scripts, which the page loads by name.
pub(crate) async fn asset(Path(name): Path<String>) -> Response {
    let body = match name.as_str() {
        "viewer.js" => collection::html::VIEWER_SCRIPT,
        "app.js" => APP_SCRIPT,
        _ => {
            return (
                StatusCode::NOT_FOUND,
                [(header::CONTENT_TYPE, "application/json")],
                serde_json::json!({ "error": format!("no asset {name:?}") }).to_string(),
            )
                .into_response();
        }
    };
    let mut response = body.into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/javascript; charset=utf-8"),
    );
    response
}
