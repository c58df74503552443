//! The HTTP face of [`Tables`]: the page and its assets (built into the binary), a JSON API,
//! and the balance report. Only requests addressed to this server by its loopback name are
//! answered (a page elsewhere cannot reach it through a name of its own), and a POST must
//! carry JSON (so another site's form cannot post to it).

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::{DefaultBodyLimit, Path, Query, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;

use super::tables::{NewTable, Refusal, TableAnswer, Tables};
use super::{assets, report};

/// A replay or save is at most this large here (the page sends its text).
const MAX_BODY: usize = 4 << 20;

/// What the handlers share: the tables, and the port the server is reached on.
#[derive(Clone)]
pub struct Shared {
    pub tables: Arc<Tables>,
    pub port: u16,
}

/// The routes of `grail serve`.
pub fn router(shared: Shared) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { page(assets::INDEX, "text/html; charset=utf-8") }),
        )
        .route(
            "/app.js",
            get(|| async { page(assets::APP, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/style.css",
            get(|| async { page(assets::STYLE, "text/css; charset=utf-8") }),
        )
        .route("/api/games", get(games))
        .route("/api/tables", post(create))
        .route("/api/tables/{id}", get(show))
        .route("/api/tables/{id}/move", post(play))
        .route("/api/tables/{id}/step", post(step))
        .route("/api/tables/{id}/save", get(save))
        .route("/api/replays", post(open_replay))
        .route("/api/saves", post(resume_save))
        .route("/api/replays/{id}/seek", post(seek))
        .route("/report", get(report))
        .fallback(|| async { refused(Refusal::not_found_path()) })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn_with_state(
            shared.clone(),
            loopback_only,
        ))
        .with_state(shared)
}

fn page(body: &'static str, kind: &'static str) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    // Everything the page needs is here: nothing is fetched from elsewhere.
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:",
        ),
    );
    response
}

/// Answers only requests whose `Host` is this server's loopback address: a page of another
/// site that has pointed its own name at 127.0.0.1 is refused.
async fn loopback_only(State(shared): State<Shared>, request: Request, next: Next) -> Response {
    let host = (request.headers().get(header::HOST))
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let port = shared.port.to_string();
    let ours = ["127.0.0.1", "localhost"]
        .iter()
        .any(|name| host.strip_prefix(name).and_then(|r| r.strip_prefix(':')) == Some(&port));
    if !ours {
        return refused(Refusal {
            status: 403,
            code: "wrong-host",
            error: format!("this server answers only at 127.0.0.1:{port}"),
        });
    }
    next.run(request).await
}

fn refused(refusal: Refusal) -> Response {
    let status = StatusCode::from_u16(refusal.status).unwrap_or(StatusCode::BAD_REQUEST);
    (status, Json(refusal)).into_response()
}

fn answered(result: Result<TableAnswer, Refusal>) -> Response {
    match result {
        Ok(answer) => Json(answer).into_response(),
        Err(refusal) => refused(refusal),
    }
}

/// Runs a table's work off the async threads: a bot's search can take a while.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Refusal> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|_| Refusal {
            status: 500,
            code: "internal",
            error: "the request failed inside the server".into(),
        })
}

async fn games(State(shared): State<Shared>) -> Response {
    match blocking(move || shared.tables.games()).await {
        Ok(games) => Json(games).into_response(),
        Err(refusal) => refused(refusal),
    }
}

async fn create(State(shared): State<Shared>, Json(new): Json<NewTable>) -> Response {
    answered(
        blocking(move || shared.tables.create(new))
            .await
            .and_then(|r| r),
    )
}

#[derive(Deserialize)]
struct Token {
    token: Option<String>,
}

async fn show(
    State(shared): State<Shared>,
    Path(id): Path<u64>,
    Query(q): Query<Token>,
) -> Response {
    answered(
        blocking(move || shared.tables.answer(id, q.token.as_deref()))
            .await
            .and_then(|r| r),
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Move {
    token: String,
    text: String,
}

async fn play(State(shared): State<Shared>, Path(id): Path<u64>, Json(m): Json<Move>) -> Response {
    answered(
        blocking(move || shared.tables.play(id, &m.token, &m.text))
            .await
            .and_then(|r| r),
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Steps {
    #[serde(default)]
    moves: Option<usize>,
}

async fn step(State(shared): State<Shared>, Path(id): Path<u64>, Json(s): Json<Steps>) -> Response {
    let moves = s.moves.unwrap_or(1);
    answered(
        blocking(move || shared.tables.step(id, moves))
            .await
            .and_then(|r| r),
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReplayText {
    text: String,
}

async fn open_replay(State(shared): State<Shared>, Json(r): Json<ReplayText>) -> Response {
    answered(
        blocking(move || shared.tables.open_replay(&r.text))
            .await
            .and_then(|r| r),
    )
}

async fn resume_save(State(shared): State<Shared>, Json(r): Json<ReplayText>) -> Response {
    answered(
        blocking(move || shared.tables.resume_save(&r.text))
            .await
            .and_then(|r| r),
    )
}

async fn save(
    State(shared): State<Shared>,
    Path(id): Path<u64>,
    Query(q): Query<Token>,
) -> Response {
    let token = q.token.unwrap_or_default();
    match blocking(move || shared.tables.save(id, &token))
        .await
        .and_then(|r| r)
    {
        Ok(text) => {
            let mut response = text.into_response();
            let headers = response.headers_mut();
            headers.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/plain; charset=utf-8"),
            );
            headers.insert(
                header::CONTENT_DISPOSITION,
                HeaderValue::from_static("attachment; filename=\"grail.save.ron\""),
            );
            response
        }
        Err(refusal) => refused(refusal),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Seek {
    at: usize,
}

async fn seek(State(shared): State<Shared>, Path(id): Path<u64>, Json(s): Json<Seek>) -> Response {
    answered(
        blocking(move || shared.tables.seek(id, s.at))
            .await
            .and_then(|r| r),
    )
}

async fn report(State(shared): State<Shared>, Query(q): Query<report::ReportQuery>) -> Response {
    match blocking(move || report::page(&shared.tables, &q))
        .await
        .and_then(|r| r)
    {
        Ok(html) => Html(html).into_response(),
        Err(refusal) => refused(refusal),
    }
}
