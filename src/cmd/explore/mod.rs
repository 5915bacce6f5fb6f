//! `triad explore`: the opening explorer and game viewer, a small web
//! server on the loopback interface over shards or run directories. The
//! page (`page.html`, compiled into the binary: no CDN, no build step) asks
//! the JSON API below; `triad openings --html` writes the same page with the
//! answers baked in.
//!
//! API (all GET, JSON):
//! - `/api/info`: game, starts, groups (generations or model ids), warnings.
//! - `/api/position?start=S&line=C1,C2,…&by=position|line&from=A&to=B&marks=share|prior|none`:
//!   the position after the line, its SVG, the moves played from it with
//!   results, the network's view (`--net`), the first 100 games through it.
//! - `/api/game?index=N`: game N of the index, ply by ply, with the
//!   search's visits drawn on each board.

pub mod view;

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
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

use super::CliError;
use crate::cli::{shards_of, GenerationsArg};
use crate::games::{self, with_game};
pub use view::{Explorer, PositionQuery};

/// The page, with its script and styles inline.
pub const PAGE: &str = include_str!("page.html");
/// Where the static page's baked answers go.
const STATIC_SLOT: &str = "/*TRIAD_STATIC*/null";

#[derive(clap::Args)]
#[command(
    after_help = "Opens an explorer over the games: the board of the current position, the \
moves played from it (games, share, White/draw/Black, the mover's score with a 95% interval, \
mean game length), a chart of each move's share per generation, the games through the \
position and a viewer that steps through any of them with the search's visits on the board. \
Positions merge by hash (transpositions) unless the page's `by line` box is ticked, which \
counts each sequence of moves on its own as `triad openings` does. With --net, the network's \
prior for every legal move and its W/D/L for the position stand beside what was played.

The index of every row is built in memory at start (about 1 s per million rows on one core; \
the line `indexed ...` says how long it took). A shard that cannot be read is skipped and \
named on the page. The server binds to 127.0.0.1 unless --bind says otherwise, and serves \
only its page and the answers about the data it was given.

Examples:
  triad explore runs/quickstart
  triad explore runs/c4 --net runs/c4/networks/gen-0019.safetensors
  triad explore runs/quickstart/games/gen-0005 --port 8100
  triad openings runs/quickstart --plies 4 --html openings.html   (the same page, no server)"
)]
pub struct Args {
    /// Shard files, directories of shards, or run directories (their
    /// self-play shards, games/gen-NNNN/*.parquet; `RUN/eval` for matches).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    #[command(flatten)]
    generations: GenerationsArg,
    /// A checkpoint (`.safetensors` with its sidecar) of the shards' game:
    /// its prior per legal move and W/D/L are shown for each position.
    #[arg(long, value_name = "CHECKPOINT")]
    net: Option<PathBuf>,
    /// The port (0: any free one; the line `listening on …` names it).
    #[arg(long, default_value_t = 8077)]
    port: u16,
    /// The address to listen on. Anything but loopback exposes the data to
    /// the network.
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// Build the index, print one JSON object with its size and build time,
    /// and exit without serving (for measurements).
    #[arg(long)]
    index_only: bool,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let range = args.generations.parse()?;
    let shards = shards_of(&args.paths, range.as_ref())?;
    let game = game_of(&shards)?;
    with_game!(game, |g| serve(g, &shards, &args))
}

/// The game of the first readable shard (unreadable ones are skipped, and
/// named by the index).
pub fn game_of(shards: &[ShardFile]) -> Result<games::AnyGame, CliError> {
    for s in shards {
        if let Ok(Some(g)) = data::shard_game(&s.path) {
            return games::of_shard_files(std::slice::from_ref(s))
                .map_err(|e| CliError::input(format!("{}: {g}: {}", s.path.display(), e.message)));
        }
    }
    games::of_shard_files(&shards[..1])
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
pub fn load_net<G: Game>(game: &G, path: &std::path::Path) -> Result<model::Network, CliError> {
    tch::set_num_threads(1);
    model::Network::load(path, &GameTag::of(game), tch::Device::Cpu)
        .map(|(n, _)| n)
        .map_err(|e| CliError::input(format!("--net: {e}")))
}

fn serve<G: Game>(game: G, shards: &[ShardFile], args: &Args) -> Result<(), CliError> {
    let net = match &args.net {
        Some(p) => Some((
            Mutex::new(load_net(&game, p)?),
            p.file_name()
                .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into()),
        )),
        None => None,
    };
    let (index, secs) = build_index(shards);
    if args.index_only {
        super::print_json(&json!({
            "shards": index.shards.len(),
            "rows": index.row_count,
            "games": index.games.len(),
            "groups": index.groups.len(),
            "warnings": index.warnings.len(),
            "index_seconds": secs,
        }));
        return Ok(());
    }
    let explorer = Arc::new(Explorer { game, index, net });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| CliError::input(format!("cannot start the server's runtime: {e}")))?;
    let addr = SocketAddr::new(args.bind, args.port);
    if !args.bind.is_loopback() {
        eprintln!(
            "warning: --bind {}: the games and positions are served to the network, not only to this machine",
            args.bind
        );
    }
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await.map_err(|e| {
            CliError::input(format!(
                "cannot listen on {addr}: {e} (another server on that port? try --port 0)"
            ))
        })?;
        let local = listener
            .local_addr()
            .map_err(|e| CliError::input(format!("cannot read the bound address: {e}")))?;
        eprintln!("listening on http://{local}/  (Ctrl-C stops)");
        axum::serve(listener, router(explorer))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .map_err(|e| CliError::input(format!("server: {e}")))
    })
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

/// The explorer page with every position of the line tree baked in (to
/// `plies` moves deep, lines of at least `min_games` games): a file that
/// opens without a server. Positions count by line, as `triad openings`.
pub fn static_page<G: Game>(
    explorer: &Explorer<G>,
    plies: usize,
    min_games: u64,
) -> Result<(String, usize), CliError> {
    let mut positions = serde_json::Map::new();
    for start in 0..explorer.index.starts.len() as u32 {
        let mut stack: Vec<Vec<u32>> = vec![Vec::new()];
        while let Some(line) = stack.pop() {
            let text: Vec<String> = line.iter().map(|c| c.to_string()).collect();
            let q = PositionQuery {
                start,
                line: text.join(","),
                by: Some("line".into()),
                ..PositionQuery::default()
            };
            let v = explorer.position(&q, false).map_err(CliError::input)?;
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
    let data = json!({ "info": explorer.info(), "positions": positions, "plies": plies });
    // `</` inside a script would end it early.
    let baked = data.to_string().replace("</", "<\\/");
    Ok((PAGE.replacen(STATIC_SLOT, &baked, 1), count))
}
