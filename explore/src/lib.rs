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
//!
//! Play and analysis ([`play`]; a game is `{"position": TEXT or null,
//! "moves": [MOVE, ...]}`):
//! - `POST /api/play/board`: the board of a game: its drawing, the legal
//!   moves, the outcome.
//! - `POST /api/play/reply` (the game and `"player": SPEC`): the player's
//!   move and the board after it.
//! - `POST /api/play/save` (the game, `"white"` and `"black"`): the game
//!   written as a record and as a shard into the games folder.
//! - `GET /api/analyse?position=TEXT&moves=JSON&player=SPEC&visits=N&every=S`:
//!   server-sent events, one JSON object each, as the search goes
//!   ([`play::Play::run`]); a bad request is a 400 before any event.
//!
//! Every bad request is answered 400 with `{"error": WHAT}`. Who may ask
//! and how many searches run at once is [`access`]: 401 without the token
//! where one is asked, 429 past the bound on searches.

pub mod access;
pub mod play;
mod refusal;
pub mod view;

pub use access::{Access, AccessError, Limits, Models};
pub use refusal::Refusal;

use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use std::convert::Infallible;

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{ConnectInfo, Query};
use axum::http::{header, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use data::explore::ExploreIndex;
use data::ShardFile;
use game::{AlphaBetaState, Game, GameState, GameTag};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{json, Value};

pub use play::{Play, PlayOptions};
pub use view::{Explorer, PositionQuery};

/// The page, with its script and styles inline.
pub const PAGE: &str = include_str!("page.html");
/// Where the static page's baked answers go.
const STATIC_SLOT: &str = "/*TRIAD_STATIC*/null";

/// A failure of the explorer, as one line: a `--net` that is not a
/// checkpoint of the shards' game, an address that cannot be bound, a line
/// of the tree that does not replay. All are bad input.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The server's runtime cannot start.
    #[error("cannot start the server's runtime: {source}")]
    Runtime {
        #[source]
        source: std::io::Error,
    },
    /// The address cannot be bound.
    #[error("cannot listen on {addr}: {source} (another server on that port? try --port 0)")]
    Listen {
        addr: SocketAddr,
        #[source]
        source: std::io::Error,
    },
    /// The bound address cannot be read back.
    #[error("cannot read the bound address: {source}")]
    LocalAddress {
        #[source]
        source: std::io::Error,
    },
    /// The server stopped with an error.
    #[error("server: {source}")]
    Serve {
        #[source]
        source: std::io::Error,
    },
    /// `--net` is not a checkpoint of the shards' game.
    #[error("--net: {source}")]
    Net {
        #[source]
        source: model::CheckpointError,
    },
    /// A line of the opening tree that does not replay.
    #[error(transparent)]
    Tree(#[from] Refusal),
    /// A token or a folder of networks that cannot be used.
    #[error(transparent)]
    Access(#[from] AccessError),
}

/// How [`serve`] runs: `triad explore`'s flags.
#[derive(Debug, Clone)]
pub struct Options {
    /// A checkpoint of the shards' game whose prior and W/D/L are shown.
    pub net: Option<PathBuf>,
    /// The address to listen on.
    pub bind: IpAddr,
    /// The port (0: any free one).
    pub port: u16,
    /// The token every request must carry; `None`: one is made at start
    /// when [`Options::bind`] is not loopback, else none is asked.
    pub token: Option<String>,
    /// How many searches may run at once, per client and in all.
    pub limits: Limits,
    /// Build the index, answer its size and build time, and do not serve.
    pub index_only: bool,
    /// Play and analysis: where games are saved, the seed, the device.
    pub play: PlayOptions,
}

/// Indexes `shards` (none: the explorer opens at the game's start alone, to
/// play from) and serves the explorer over them in `game` until
/// Ctrl-C. With [`Options::index_only`] it serves nothing and answers the
/// index's size and build time as one JSON object (for measurements).
pub fn serve<G: Game>(
    game: G,
    shards: &[ShardFile],
    options: &Options,
) -> Result<Option<Value>, Error>
where
    G::State: AlphaBetaState,
{
    let net = match &options.net {
        Some(p) => Some((
            Mutex::new(load_net(&game, p)?),
            p.file_name()
                .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into()),
        )),
        None => None,
    };
    let (mut index, secs) = build_index(shards);
    if index.starts.is_empty() {
        // No games: the page opens at the game's start, to play from.
        index.starts.push(game.start().to_text());
    }
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
    let play = Arc::new(Play::new(options.play.clone()));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|source| Error::Runtime { source })?;
    let token = token_of(options)?;
    let addr = SocketAddr::new(options.bind, options.port);
    if !options.bind.is_loopback() {
        eprintln!(
            "warning: --bind {}: the games and positions are served to the network, not only to this machine (to whoever has the token)",
            options.bind
        );
    }
    runtime.block_on(async move {
        let listener = (tokio::net::TcpListener::bind(addr).await)
            .map_err(|source| Error::Listen { addr, source })?;
        let local = listener
            .local_addr()
            .map_err(|source| Error::LocalAddress { source })?;
        if let Some(t) = &token {
            eprintln!("open http://{local}/?token={t}  (every request needs the token)");
        }
        eprintln!("listening on http://{local}/  (Ctrl-C stops)");
        let access = Arc::new(Access::new(token, options.limits, local.port()));
        let app = router(explorer, play, access);
        axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(|source| Error::Serve { source })
    })?;
    Ok(None)
}

/// The token of [`Options::token`] (checked), or a new one when the
/// server listens beyond loopback, or none.
fn token_of(options: &Options) -> Result<Option<String>, AccessError> {
    match &options.token {
        Some(t) => access::check_token(t).map(|()| Some(t.clone())),
        None if options.bind.is_loopback() => Ok(None),
        None => access::new_token().map(Some),
    }
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
        .map_err(|source| Error::Net { source })
}

/// A JSON answer, or 400 with `{"error": …}`.
fn answer(r: Result<Value, Refusal>) -> Response {
    match r {
        Ok(v) => Json(v).into_response(),
        Err(e) => (
            StatusCode::BAD_REQUEST,
            Json(json!({ "error": e.to_string() })),
        )
            .into_response(),
    }
}

#[derive(serde::Deserialize)]
struct GameQuery {
    index: u32,
}

/// A request body that is not the JSON asked for, as a JSON error.
fn body<T>(r: Result<Json<T>, JsonRejection>) -> Result<T, Refusal> {
    r.map(|Json(t)| t).map_err(|e| Refusal::Body {
        text: e.body_text(),
    })
}

/// Runs `f` on a blocking thread and answers its JSON or its error.
async fn blocking(f: impl FnOnce() -> Result<Value, Refusal> + Send + 'static) -> Response {
    let r = tokio::task::spawn_blocking(f).await.unwrap_or_else(|e| {
        Err(Refusal::Internal {
            what: e.to_string(),
        })
    });
    answer(r)
}

/// `GET /api/analyse`: checks the request and loads the player (a 400 on
/// bad input), then streams the analysis's events as server-sent events
/// until the search ends or the page closes the stream (which stops it).
/// The search holds a slot of `client` ([`Access::slot`]; 429 when none is
/// free) until it ends.
async fn analyse<G: Game>(
    explorer: Arc<Explorer<G>>,
    play: Arc<Play<G>>,
    slot: Result<access::Slot, access::Denied>,
    req: play::AnalyseRequest,
) -> Response
where
    G::State: AlphaBetaState,
{
    let prepared = match play.prepare(&explorer.game, &req) {
        Ok(p) => p,
        Err(e) => return answer(Err(e)),
    };
    let slot = match slot {
        Ok(s) => s,
        Err(d) => return d.into_response(),
    };
    let (tx, rx) = tokio::sync::mpsc::channel::<Value>(64);
    let (ready_tx, ready_rx) = tokio::sync::oneshot::channel::<Result<(), Refusal>>();
    tokio::task::spawn_blocking(move || {
        let _slot = slot;
        let game = &explorer.game;
        let mut engine = match play.engine(game, &prepared) {
            Ok(e) => e,
            Err(e) => {
                let _ = ready_tx.send(Err(e));
                return;
            }
        };
        if ready_tx.send(Ok(())).is_err() {
            return;
        }
        let net = explorer.net.as_ref().map(|(n, _)| n);
        play.run(game, &mut engine, &prepared, net, move |v| {
            tx.blocking_send(v).is_ok()
        });
    });
    match ready_rx.await {
        Ok(Ok(())) => {}
        Ok(Err(e)) => return answer(Err(e)),
        Err(_) => {
            return answer(Err(Refusal::Internal {
                what: "the analysis did not start".into(),
            }))
        }
    }
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        let v = rx.recv().await?;
        Some((
            Ok::<Event, Infallible>(Event::default().data(v.to_string())),
            rx,
        ))
    });
    Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response()
}

/// The routes: the page and the data (GET), play and analysis; every one
/// behind [`access::check`].
fn router<G: Game>(explorer: Arc<Explorer<G>>, play: Arc<Play<G>>, access: Arc<Access>) -> Router
where
    G::State: AlphaBetaState,
{
    let (e1, e2, e3) = (explorer.clone(), explorer.clone(), explorer.clone());
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
                blocking(move || e.position(&q, true)).await
            }),
        )
        .route(
            "/api/game",
            get(move |Query(q): Query<GameQuery>| async move {
                let e = e3.clone();
                blocking(move || e.game(q.index)).await
            }),
        )
        .merge(play_routes(explorer, play, access.clone()))
        .layer(axum::middleware::from_fn_with_state(access, access::check))
}

/// The routes of play and analysis; a reply and an analysis each hold a
/// search slot of their client while they run.
fn play_routes<G: Game>(
    explorer: Arc<Explorer<G>>,
    play: Arc<Play<G>>,
    access: Arc<Access>,
) -> Router
where
    G::State: AlphaBetaState,
{
    let (e4, e5, e6, e7) = (
        explorer.clone(),
        explorer.clone(),
        explorer.clone(),
        explorer,
    );
    let (p1, p2, p3) = (play.clone(), play.clone(), play);
    let a1 = access.clone();
    Router::new()
        .route(
            "/api/play/board",
            post(
                move |r: Result<Json<play::GameLine>, JsonRejection>| async move {
                    let e = e4.clone();
                    blocking(move || play::board(&e.game, &body(r)?)).await
                },
            ),
        )
        .route(
            "/api/play/reply",
            post(
                move |ConnectInfo(peer): ConnectInfo<SocketAddr>,
                      r: Result<Json<play::ReplyRequest>, JsonRejection>| async move {
                    let (e, p) = (e5.clone(), p1.clone());
                    let slot = match a1.slot(peer.ip()) {
                        Ok(s) => s,
                        Err(d) => return d.into_response(),
                    };
                    blocking(move || {
                        let _slot = slot;
                        p.reply(&e.game, &body(r)?)
                    })
                    .await
                },
            ),
        )
        .route(
            "/api/play/save",
            post(
                move |r: Result<Json<play::SaveRequest>, JsonRejection>| async move {
                    let (e, p) = (e6.clone(), p2.clone());
                    blocking(move || p.save(&e.game, &body(r)?)).await
                },
            ),
        )
        .route(
            "/api/analyse",
            get(
                move |ConnectInfo(peer): ConnectInfo<SocketAddr>,
                      q: Result<Query<play::AnalyseRequest>, QueryRejection>| async move {
                    match q {
                        Ok(Query(q)) => {
                            let slot = access.slot(peer.ip());
                            analyse(e7.clone(), p3.clone(), slot, q).await
                        }
                        Err(e) => answer(Err(Refusal::Query {
                            text: e.body_text(),
                        })),
                    }
                },
            ),
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
                let v = self.position(&q, false)?;
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
