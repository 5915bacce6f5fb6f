//! The opening explorer and game viewer: a small web server on the loopback
//! interface over shards or run directories (`triad explore`), its view
//! model ([`view`]) and its page (`page.html`, compiled in: no CDN, no build
//! step). The page asks the JSON API below; [`static_page`] (for `triad
//! openings --html`) writes the same page with the answers baked in. The
//! index of the shards is `data::explore::ExploreIndex`.
//!
//! API (all GET, JSON):
//! - `/api/info`: game, starts, groups (generations or model ids), warnings.
//! - `/api/position?start=S&line=C1,C2,…&by=position|line&from=A&to=B&marks=share|prior|none`:
//!   the position after the line, its SVG, the moves played from it with
//!   results, the network's view (`--net`), the first 100 games through it.
//! - `/api/game?index=N`: game N of the index, ply by ply, with the
//!   search's visits drawn on each board.

pub mod view;

use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::extract::Query;
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use data::explore::ExploreIndex;
use data::ShardFile;
use game::{Game, GameTag};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{json, Value};

pub use view::{Explorer, PositionQuery};

/// The page, with its script and styles inline.
pub const PAGE: &str = include_str!("page.html");
/// Where the static page's baked answers go.
const STATIC_SLOT: &str = "/*TRIAD_STATIC*/null";

/// A failure of the explorer, as one line: a `--net` that is not a
/// checkpoint of the shards' game, an address that cannot be bound, a line
/// of the tree that does not replay. All are bad input.
#[derive(Debug)]
pub struct Error {
    message: String,
}

impl Error {
    fn new(message: impl Into<String>) -> Error {
        Error {
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// How [`serve`] runs: `triad explore`'s flags.
#[derive(Debug, Clone)]
pub struct Options {
    /// A checkpoint of the shards' game whose prior and W/D/L are shown.
    pub net: Option<PathBuf>,
    /// The address to listen on.
    pub bind: IpAddr,
    /// The port (0: any free one).
    pub port: u16,
    /// Build the index, answer its size and build time, and do not serve.
    pub index_only: bool,
}

/// Indexes `shards` and serves the explorer over them in `game` until
/// Ctrl-C. With [`Options::index_only`] it serves nothing and answers the
/// index's size and build time as one JSON object (for measurements).
pub fn serve<G: Game>(
    game: G,
    shards: &[ShardFile],
    options: &Options,
) -> Result<Option<Value>, Error> {
    let net = match &options.net {
        Some(p) => Some((
            Mutex::new(load_net(&game, p)?),
            p.file_name()
                .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into()),
        )),
        None => None,
    };
    let (index, secs) = build_index(shards);
    if options.index_only {
        return Ok(Some(json!({
            "shards": index.shards.len(),
            "rows": index.row_count,
            "games": index.games.len(),
            "groups": index.groups.len(),
            "warnings": index.warnings.len(),
            "index_seconds": secs,
        })));
    }
    let explorer = Arc::new(Explorer { game, index, net });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Error::new(format!("cannot start the server's runtime: {e}")))?;
    let addr = SocketAddr::new(options.bind, options.port);
    if !options.bind.is_loopback() {
        eprintln!(
            "warning: --bind {}: the games and positions are served to the network, not only to this machine",
            options.bind
        );
    }
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await.map_err(|e| {
            Error::new(format!(
                "cannot listen on {addr}: {e} (another server on that port? try --port 0)"
            ))
        })?;
        let local = listener
            .local_addr()
            .map_err(|e| Error::new(format!("cannot read the bound address: {e}")))?;
        eprintln!("listening on http://{local}/  (Ctrl-C stops)");
        axum::serve(listener, router(explorer))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .map_err(|e| Error::new(format!("server: {e}")))
    })?;
    Ok(None)
}

/// Builds the index of `shards` with a progress bar; says how long it took.
pub fn build_index(shards: &[ShardFile]) -> (ExploreIndex, f64) {
    let bar = if shards.len() < 20 {
        ProgressBar::hidden()
    } else {
        let b = ProgressBar::new(shards.len() as u64);
        b.set_style(
            ProgressStyle::with_template("indexing {bar:40} {pos}/{len} shards, {eta} left")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        b
    };
    let t = Instant::now();
    let index = ExploreIndex::build(shards, |n| bar.inc(n));
    bar.finish_and_clear();
    let secs = t.elapsed().as_secs_f64();
    eprintln!(
        "indexed {} rows of {} games from {} shards in {:.2} s",
        index.row_count,
        index.games.len(),
        index.shards.len(),
        secs
    );
    for w in &index.warnings {
        eprintln!("warning: {w}");
    }
    (index, secs)
}

/// Loads `--net` for `game`: bad input when it is not a checkpoint of it.
pub fn load_net<G: Game>(game: &G, path: &Path) -> Result<model::Network, Error> {
    tch::set_num_threads(1);
    model::Network::load(path, &GameTag::of(game), tch::Device::Cpu)
        .map(|(n, _)| n)
        .map_err(|e| Error::new(format!("--net: {e}")))
}

/// A JSON answer, or 400 with `{"error": …}`.
fn answer(r: Result<Value, String>) -> Response {
    match r {
        Ok(v) => Json(v).into_response(),
        Err(e) => (StatusCode::BAD_REQUEST, Json(json!({ "error": e }))).into_response(),
    }
}

#[derive(serde::Deserialize)]
struct GameQuery {
    index: u32,
}

fn router<G: Game>(explorer: Arc<Explorer<G>>) -> Router {
    let (e1, e2, e3) = (explorer.clone(), explorer.clone(), explorer);
    Router::new()
        .route("/", get(|| async { Html(PAGE) }))
        .route(
            "/favicon.ico",
            get(|| async {
                (
                    StatusCode::NO_CONTENT,
                    [(header::CACHE_CONTROL, "max-age=86400")],
                )
            }),
        )
        .route("/api/info", get(move || async move { Json(e1.info()) }))
        .route(
            "/api/position",
            get(move |Query(q): Query<PositionQuery>| async move {
                let e = e2.clone();
                let r = tokio::task::spawn_blocking(move || e.position(&q, true))
                    .await
                    .unwrap_or_else(|e| Err(format!("internal error: {e}")));
                answer(r)
            }),
        )
        .route(
            "/api/game",
            get(move |Query(q): Query<GameQuery>| async move {
                let e = e3.clone();
                let r = tokio::task::spawn_blocking(move || e.game(q.index))
                    .await
                    .unwrap_or_else(|e| Err(format!("internal error: {e}")));
                answer(r)
            }),
        )
}

/// The explorer page of `shards` in `game` with every position of the line
/// tree baked in (to `plies` moves deep, lines of at least `min_games`
/// games): a file that opens without a server. Positions count by line, as
/// `triad openings`. Answers the page and how many positions it holds.
pub fn static_page<G: Game>(
    game: G,
    shards: &[ShardFile],
    plies: usize,
    min_games: u64,
) -> Result<(String, usize), Error> {
    let (index, _) = build_index(shards);
    let explorer = Explorer {
        game,
        index,
        net: None,
    };
    explorer.static_page(plies, min_games)
}

impl<G: Game> Explorer<G> {
    /// The page with the line tree of this explorer's index baked in (see
    /// [`static_page`]).
    pub fn static_page(&self, plies: usize, min_games: u64) -> Result<(String, usize), Error> {
        let mut positions = serde_json::Map::new();
        for start in 0..self.index.starts.len() as u32 {
            let mut stack: Vec<Vec<u32>> = vec![Vec::new()];
            while let Some(line) = stack.pop() {
                let text: Vec<String> = line.iter().map(|c| c.to_string()).collect();
                let q = PositionQuery {
                    start,
                    line: text.join(","),
                    by: Some("line".into()),
                    ..PositionQuery::default()
                };
                let v = self.position(&q, false).map_err(Error::new)?;
                if line.len() < plies {
                    if let Some(moves) = v["moves"].as_array() {
                        for m in moves {
                            let games = m["games"].as_u64().unwrap_or(0);
                            if games >= min_games.max(1) && m["legal"].as_bool() == Some(true) {
                                let mut next = line.clone();
                                next.push(m["code"].as_u64().unwrap_or(0) as u32);
                                stack.push(next);
                            }
                        }
                    }
                }
                positions.insert(format!("{start}|{}", q.line), v);
            }
        }
        let count = positions.len();
        let data = json!({ "info": self.info(), "positions": positions, "plies": plies });
        // `</` inside a script would end it early.
        let baked = data.to_string().replace("</", "<\\/");
        Ok((PAGE.replacen(STATIC_SLOT, &baked, 1), count))
    }
}
