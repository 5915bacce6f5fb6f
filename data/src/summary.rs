//! Dataset summary for `triad data info`: reads four narrow columns and the
//! footers only.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::error::DataError;
use crate::reader::{Columns, ShardFile, ShardReader};
use crate::schema::col;

/// Counts over a set of shards. A game is counted once even if its rows
/// are spread over several shards.
#[derive(Debug, Clone, Default)]
pub struct DataSummary {
    pub shards: usize,
    pub games: u64,
    pub positions: u64,
    pub white_wins: u64,
    pub draws: u64,
    pub black_wins: u64,
    pub unfinished: u64,
    /// Mean plies per game (from the `game_length` column).
    pub mean_game_length: f64,
    pub schema_versions: BTreeSet<u32>,
    /// The shards' games and variants (`name/variant`); more than one means
    /// the shards belong to different runs.
    pub games_played: BTreeSet<String>,
    pub terminations: BTreeMap<String, u64>,
    /// The other boards of a `[loop] mix` run, which are not counted above
    /// (their variant and shard count, [`crate::list_mix_shards`]); empty
    /// unless the caller fills it in.
    pub other_boards: BTreeMap<String, usize>,
}

impl DataSummary {
    /// The summary as `triad data info --json` prints it.
    pub fn json(&self) -> serde_json::Value {
        let versions: Vec<u32> = self.schema_versions.iter().copied().collect();
        serde_json::json!({
            "shards": self.shards,
            "game": self.games_played.iter().collect::<Vec<_>>(),
            "games": self.games,
            "positions": self.positions,
            "results": {
                "white_wins": self.white_wins,
                "draws": self.draws,
                "black_wins": self.black_wins,
                "unfinished": self.unfinished,
            },
            "terminations": self.terminations,
            "mean_game_length": self.mean_game_length,
            "schema_versions": versions,
            "other_boards": self.other_boards,
        })
    }

    /// The summary as `triad data info` prints it: one `label  value` line
    /// each for shards, game, games, positions, results (with shares),
    /// terminations, mean game length and schema version.
    pub fn text(&self) -> String {
        use std::fmt::Write as _;
        let s = self;
        let mut out = String::new();
        let pct = |n: u64| {
            if s.games == 0 {
                0.0
            } else {
                100.0 * n as f64 / s.games as f64
            }
        };
        let _ = writeln!(out, "shards            {}", s.shards);
        let played: Vec<&str> = s.games_played.iter().map(String::as_str).collect();
        let _ = writeln!(out, "game              {}", played.join(", "));
        let _ = writeln!(out, "games             {}", s.games);
        let _ = writeln!(out, "positions         {}", s.positions);
        let _ = writeln!(
            out,
            "results           1-0 {} ({:.1}%)  1/2-1/2 {} ({:.1}%)  0-1 {} ({:.1}%)  unfinished {}",
            s.white_wins,
            pct(s.white_wins),
            s.draws,
            pct(s.draws),
            s.black_wins,
            pct(s.black_wins),
            s.unfinished
        );
        let terms: Vec<String> = s
            .terminations
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let _ = writeln!(out, "terminations      {}", terms.join(", "));
        let _ = writeln!(out, "mean game length  {:.1} plies", s.mean_game_length);
        let _ = writeln!(
            out,
            "schema version    {}",
            s.schema_versions
                .iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
        if !s.other_boards.is_empty() {
            let boards: Vec<String> = s
                .other_boards
                .iter()
                .map(|(v, n)| format!("{v} ({n} shards)"))
                .collect();
            let _ = writeln!(
                out,
                "other boards      {}: not counted above; name a folder (RUN/games/gen-NNNN/BOARD) to read one",
                boards.join(", ")
            );
        }
        out
    }
}

/// Result of a game as an index: 0 White wins, 1 draw, 2 Black wins, 3 unfinished.
pub fn result_index(result: &str) -> usize {
    match result {
        "1-0" => 0,
        "1/2-1/2" => 1,
        "0-1" => 2,
        _ => 3,
    }
}

/// Summarises `shards`; the first unreadable shard is an error.
pub fn summarize(shards: &[ShardFile]) -> Result<DataSummary, DataError> {
    summarize_with(shards, |_| {})
}

/// As [`summarize`], calling `progress(rows)` after each shard.
pub fn summarize_with(
    shards: &[ShardFile],
    mut progress: impl FnMut(u64),
) -> Result<DataSummary, DataError> {
    let mut s = DataSummary {
        shards: shards.len(),
        ..Default::default()
    };
    // (shard, game id) → (result index, termination, length): ids of two
    // shards (two runs, two workers) may collide; a game is in one shard.
    let mut games: HashMap<(usize, u64), (usize, String, u32)> = HashMap::new();
    let mut versions = BTreeSet::new();
    for (si, shard) in shards.iter().enumerate() {
        let reader = ShardReader::open(&shard.path)?;
        versions.insert(reader.schema_version());
        if let Some(g) = reader.game() {
            s.games_played.insert(g.to_string());
        }
        let batches = reader.read_columns(&[
            col::GAME_ID,
            col::RESULT,
            col::TERMINATION,
            col::GAME_LENGTH,
        ])?;
        let mut rows = 0u64;
        for b in &batches {
            let c = Columns::new(b);
            let err = |e: crate::ColumnError| DataError::caused(&shard.path, e);
            let id = c.u64(col::GAME_ID).map_err(err)?;
            let result = c.str(col::RESULT).map_err(err)?;
            let term = c.str(col::TERMINATION).map_err(err)?;
            let length = c.u32(col::GAME_LENGTH).map_err(err)?;
            for i in 0..b.num_rows() {
                games.entry((si, id.value(i))).or_insert_with(|| {
                    (
                        result_index(result.value(i)),
                        term.value(i).to_string(),
                        length.value(i),
                    )
                });
            }
            rows += b.num_rows() as u64;
        }
        s.positions += rows;
        progress(rows);
    }
    s.schema_versions = versions;
    s.games = games.len() as u64;
    let mut total_length = 0u64;
    for (result, term, length) in games.into_values() {
        match result {
            0 => s.white_wins += 1,
            1 => s.draws += 1,
            2 => s.black_wins += 1,
            _ => s.unfinished += 1,
        }
        *s.terminations.entry(term).or_default() += 1;
        total_length += length as u64;
    }
    if s.games > 0 {
        s.mean_game_length = total_length as f64 / s.games as f64;
    }
    Ok(s)
}
