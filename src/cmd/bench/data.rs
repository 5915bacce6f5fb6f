//! `triad bench data`: shard write and read throughput, bytes per position,
//! and the opening-tree time, on synthetic games from random playouts.

use std::path::PathBuf;
use std::time::Instant;

use super::super::{print_json, CliError};
use crate::games::{self, with_game};
use data::openings::{read_opening_games, OpeningTree};
use data::synthetic::{random_game, DEFAULT_MAX_PLIES};
use data::{list_shards, ShardReader, ShardWriter};
use game::{Game, GameState};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

#[derive(clap::Args)]
#[command(
    after_help = "Generates legal games by random playouts (not timed), writes them as shards\n(timed), reads them back with every column (timed) and builds the opening\ntree as `triad openings --plies 4` does (timed). Run the release build.\n\nExample:\n  triad bench data --positions 1000000 --json"
)]
pub struct Args {
    /// Positions to generate, write and read.
    #[arg(long, default_value_t = 1_000_000)]
    positions: u64,
    /// Positions per shard.
    #[arg(long, default_value_t = 250_000)]
    shard_rows: u64,
    /// Depth of the opening tree.
    #[arg(long, default_value_t = 4)]
    plies: usize,
    /// Seed of the random playouts.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The game, `NAME[/VARIANT]`.
    #[arg(long, default_value = crate::games::DEFAULT_GAME, value_name = "GAME")]
    game: String,
    /// Keep the shards in this directory (default: a temporary directory, removed afterwards).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

fn bar(len: u64, msg: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    if let Ok(style) = ProgressStyle::with_template("{msg} {bar:30} {pos}/{len} ({eta})") {
        bar.set_style(style);
    }
    bar.set_message(msg.to_string());
    bar
}

pub fn run(args: Args) -> Result<(), CliError> {
    if args.positions == 0 || args.shard_rows == 0 {
        return Err(CliError::input(
            "--positions and --shard-rows must be positive",
        ));
    }
    let (dir, remove_after) = match &args.dir {
        Some(d) => (d.clone(), false),
        None => (
            std::env::temp_dir().join(format!("triad-bench-data-{}", std::process::id())),
            true,
        ),
    };
    std::fs::create_dir_all(&dir)
        .map_err(|e| CliError::input(format!("cannot create {}: {e}", dir.display())))?;
    let game = games::from_flag(&args.game)?;
    let result = with_game!(game, |g| bench(&g, &args, &dir));
    if remove_after {
        let _ = std::fs::remove_dir_all(&dir);
    }
    result
}

fn bench<G: Game>(game: &G, args: &Args, dir: &std::path::Path) -> Result<(), CliError> {
    let fail = |e: data::DataError| CliError::failed(e.to_string());
    // 1. Games (not timed).
    let start = game.start();
    let gen_bar = bar(args.positions, "generating");
    let mut games = Vec::new();
    let mut rows = 0u64;
    let mut id = 0u64;
    while rows < args.positions {
        let mut g = random_game(game, id, &start, args.seed, DEFAULT_MAX_PLIES);
        let left = (args.positions - rows) as usize;
        // Cut the last game short; it is then unfinished.
        g.truncate(left);
        rows += g.positions.len() as u64;
        gen_bar.set_position(rows);
        games.push(g);
        id += 1;
    }
    gen_bar.finish_and_clear();

    // 2. Write.
    let write_bar = bar(rows, "writing");
    let t = Instant::now();
    let mut bytes = 0u64;
    let mut shard_index = 0u64;
    let mut writer: Option<ShardWriter> = None;
    for g in &games {
        if writer.is_none() {
            shard_index += 1;
            let path = dir.join(format!("bench-{shard_index:06}.parquet"));
            writer = Some(ShardWriter::create(path).map_err(fail)?);
        }
        if let Some(w) = writer.as_mut() {
            w.push_game(g).map_err(fail)?;
            write_bar.inc(g.positions.len() as u64);
            if w.rows() >= args.shard_rows {
                if let Some(w) = writer.take() {
                    bytes += w.finish().map_err(fail)?.bytes;
                }
            }
        }
    }
    if let Some(w) = writer.take() {
        bytes += w.finish().map_err(fail)?.bytes;
    }
    let write_s = t.elapsed().as_secs_f64();
    write_bar.finish_and_clear();
    drop(games);

    // 3. Read every column.
    let shards = list_shards(&[dir]).map_err(fail)?;
    let read_bar = bar(rows, "reading");
    let t = Instant::now();
    let mut read_rows = 0u64;
    for s in &shards {
        let records = ShardReader::open(&s.path)
            .and_then(|r| r.read_records())
            .map_err(fail)?;
        read_rows += records.len() as u64;
        read_bar.inc(records.len() as u64);
    }
    let read_s = t.elapsed().as_secs_f64();
    read_bar.finish_and_clear();
    if read_rows != rows {
        return Err(CliError::failed(format!(
            "wrote {rows} rows, read {read_rows}"
        )));
    }

    // 4. Opening tree, as `triad openings` computes it.
    let t = Instant::now();
    let opening_games = read_opening_games(&shards, args.plies, |_| {}).map_err(fail)?;
    let tree = OpeningTree::build(game, &opening_games, args.plies, |p, m| p.move_text(m))
        .map_err(CliError::failed)?;
    let openings_s = t.elapsed().as_secs_f64();

    let figures = json!({
        "positions": rows,
        "games": opening_games.len(),
        "shards": shards.len(),
        "rows_written_per_s": rows as f64 / write_s,
        "rows_read_per_s": rows as f64 / read_s,
        "bytes_on_disk": bytes,
        "bytes_per_position": bytes as f64 / rows as f64,
        "openings_plies": args.plies,
        "openings_nodes": tree.nodes.len(),
        "openings_s": openings_s,
    });
    if args.json {
        print_json(&figures);
    } else {
        println!(
            "positions          {rows} in {} games, {} shards",
            opening_games.len(),
            shards.len()
        );
        println!(
            "write              {:.0} rows/s ({write_s:.2} s)",
            rows as f64 / write_s
        );
        println!(
            "read (all columns) {:.0} rows/s ({read_s:.2} s)",
            rows as f64 / read_s
        );
        println!(
            "on disk            {bytes} bytes, {:.1} bytes/position",
            bytes as f64 / rows as f64
        );
        println!(
            "openings           {openings_s:.2} s for {} plies ({} tree nodes)",
            args.plies,
            tree.nodes.len()
        );
    }
    Ok(())
}
