//! Shard write and read throughput (`triad bench data`), bytes per
//! position, and the opening-tree time, on synthetic games from random
//! playouts.

use crate::{Error, Measurement};
use data::openings::{read_opening_games, OpeningTree};
use data::synthetic::{random_game, DEFAULT_MAX_PLIES};
use data::{list_shards, ShardReader, ShardWriter};
use game::{Game, GameState};
use indicatif::ProgressBar;
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

/// How many positions, in which shards, and how deep an opening tree.
#[derive(Clone, Debug)]
pub struct DataOptions {
    /// Positions to generate, write and read (positive).
    pub positions: u64,
    /// Positions per shard (positive).
    pub shard_rows: u64,
    /// Depth of the opening tree.
    pub plies: usize,
    /// Seed of the random playouts.
    pub seed: u64,
}

/// The figures of `triad bench data` (its `--json` object).
#[derive(Clone, Debug, Serialize)]
pub struct DataFigures {
    /// Positions written and read.
    pub positions: u64,
    /// Games they make.
    pub games: usize,
    /// Shards written.
    pub shards: usize,
    /// Rows written per second.
    pub rows_written_per_s: f64,
    /// Rows read per second, every column.
    pub rows_read_per_s: f64,
    /// Bytes of the shards.
    pub bytes_on_disk: u64,
    /// Those per position.
    pub bytes_per_position: f64,
    /// Depth of the opening tree.
    pub openings_plies: usize,
    /// Nodes of the opening tree.
    pub openings_nodes: usize,
    /// Seconds to read the openings and build the tree.
    pub openings_s: f64,
    /// Seconds of writing.
    #[serde(skip)]
    pub write_s: f64,
    /// Seconds of reading.
    #[serde(skip)]
    pub read_s: f64,
}

/// `bar` restarted for a stage of `len` steps.
fn phase<'a>(bar: &'a ProgressBar, len: u64, msg: &str) -> &'a ProgressBar {
    bar.reset();
    bar.set_length(len);
    bar.set_message(msg.to_string());
    bar
}

/// Generates random games of `game` (not timed), writes them as shards in
/// `dir` (timed), reads them back with every column (timed) and builds the
/// opening tree as `triad openings` does (timed); `bar` shows each stage.
pub fn run<G: Game>(
    game: &G,
    options: &DataOptions,
    dir: &Path,
    bar: &ProgressBar,
) -> Result<DataFigures, Error> {
    let fail = Error::Data;
    // 1. Games (not timed).
    let start = game.start();
    let gen_bar = phase(bar, options.positions, "generating");
    let mut games = Vec::new();
    let mut rows = 0u64;
    let mut id = 0u64;
    while rows < options.positions {
        let mut g = random_game(game, id, &start, options.seed, DEFAULT_MAX_PLIES);
        let left = (options.positions - rows) as usize;
        // Cut the last game short; it is then unfinished.
        g.truncate(left);
        rows += g.positions.len() as u64;
        gen_bar.set_position(rows);
        games.push(g);
        id += 1;
    }
    gen_bar.finish_and_clear();

    // 2. Write.
    let write_bar = phase(bar, rows, "writing");
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
            if w.rows() >= options.shard_rows {
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
    let read_bar = phase(bar, rows, "reading");
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
        return Err(Error::Measurement(Measurement::RowsLost {
            written: rows,
            read: read_rows,
        }));
    }

    // 4. Opening tree, as `triad openings` computes it.
    let t = Instant::now();
    let opening_games = read_opening_games(&shards, options.plies, |_| {}).map_err(fail)?;
    let tree = OpeningTree::build(game, &opening_games, options.plies, |p, m| p.move_text(m))?;
    let openings_s = t.elapsed().as_secs_f64();

    Ok(DataFigures {
        positions: rows,
        games: opening_games.len(),
        shards: shards.len(),
        rows_written_per_s: rows as f64 / write_s,
        rows_read_per_s: rows as f64 / read_s,
        bytes_on_disk: bytes,
        bytes_per_position: bytes as f64 / rows as f64,
        openings_plies: options.plies,
        openings_nodes: tree.nodes.len(),
        openings_s,
        write_s,
        read_s,
    })
}
