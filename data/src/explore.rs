//! The opening explorer's index (`triad explore`, `triad openings --html`):
//! every row of a shard set as one small record, sorted twice, so that the
//! moves played from any position are one binary search and one contiguous
//! scan away, at any depth of the game.
//!
//! - **By position** rows are sorted by `position_hash` (the rules' hash,
//!   move clocks excluded): transpositions merge, as in a chess explorer.
//! - **By line** rows are sorted by a hash of the start position and the
//!   moves that led to the row: each sequence of moves counts on its own,
//!   exactly as `triad openings` counts (its `games` of a line equal the
//!   explorer's count of that line's last move).
//!
//! A row is 32 bytes: a 10-million-row run indexes in about 320 MB plus a
//! 4-byte permutation per row. Nothing here knows a game: positions come in
//! as hashes and moves as codes, and the caller (which holds the game)
//! turns lines of codes into positions.
//!
//! A shard that cannot be read is skipped with a warning (kept in
//! [`ExploreIndex::warnings`] for the page to show), never an error: the
//! explorer shows what it can read.

use std::collections::HashMap;
use std::path::PathBuf;

use crate::reader::{Columns, SameGame, ShardFile, ShardReader};
use crate::schema::col;
use crate::summary::result_index;
use crate::DataError;

/// One indexed game.
#[derive(Clone, Debug, PartialEq)]
pub struct IndexedGame {
    /// Index into [`ExploreIndex::shards`].
    pub shard: u32,
    pub game_id: u64,
    /// Index into [`ExploreIndex::starts`].
    pub start: u32,
    /// 0 White wins, 1 draw, 2 Black wins, 3 unfinished.
    pub result: u8,
    pub length: u32,
    /// Index into [`ExploreIndex::groups`] of its first row.
    pub group: u32,
}

/// One row: a position of a game and the move played from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Row {
    position: u64,
    line: u64,
    game: u32,
    code: u32,
    ply: u32,
    group: u32,
}

/// How positions are identified.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// By `GameState::hash`: transpositions merge.
    Position(u64),
    /// By the start and the line of moves ([`line_hash`]).
    Line(u64),
}

/// The moves played from one position, with their games' results.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveStats {
    pub code: u32,
    /// Games that played this move here, within the group filter.
    pub games: u64,
    /// White wins, draws, Black wins, unfinished.
    pub results: [u64; 4],
    pub total_length: u64,
    /// Games that played it per group (every group, the filter ignored):
    /// what the share chart over generations draws.
    pub by_group: Vec<u64>,
}

impl MoveStats {
    pub fn mean_length(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.total_length as f64 / self.games as f64
        }
    }
}

/// A game through a position: index into [`ExploreIndex::games`], the ply
/// at which it stood there, the move it played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameAt {
    pub game: u32,
    pub ply: u32,
    pub code: u32,
}

/// Where a group label comes from: the run generation of the shard when it
/// has one, else the row's `model_id`.
fn group_label(generation: Option<u32>, model_id: &str) -> String {
    match generation {
        Some(g) => format!("gen {g:04}"),
        None => model_id.to_string(),
    }
}

/// The index of a shard set.
#[derive(Debug, Default)]
pub struct ExploreIndex {
    pub shards: Vec<PathBuf>,
    pub games: Vec<IndexedGame>,
    /// Start position texts, in order of first appearance.
    pub starts: Vec<String>,
    /// Group labels in order: `gen NNNN` of run generations first (by
    /// number), then model ids (by name).
    pub groups: Vec<String>,
    /// One line per shard or game left out, and why.
    pub warnings: Vec<String>,
    /// Rows read.
    pub row_count: u64,
    rows: Vec<Row>,
    by_line: Vec<u32>,
}

/// The line hash of a start position text and the move codes from it (the
/// key of [`Key::Line`]). FNV-1a over the start, then a SplitMix-style mix
/// per move.
pub fn line_hash(start: &str, codes: &[u32]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in start.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    for &c in codes {
        h = next_line(h, c);
    }
    h
}

#[inline]
fn next_line(h: u64, code: u32) -> u64 {
    let mut z = h ^ (code as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One shard's rows before the games are numbered globally.
struct ShardRows {
    games: Vec<IndexedGame>,
    rows: Vec<Row>,
}

impl ExploreIndex {
    /// Indexes `shards`; `progress` gets the rows of each shard read.
    /// Shards of another game than the first readable one, and unreadable
    /// shards, are skipped with a warning.
    pub fn build(shards: &[ShardFile], mut progress: impl FnMut(u64)) -> ExploreIndex {
        let mut index = ExploreIndex::default();
        let mut same_game = SameGame::default();
        let mut group_ids: HashMap<String, u32> = HashMap::new();
        let mut start_ids: HashMap<String, u32> = HashMap::new();
        let mut labels: Vec<String> = Vec::new();
        for shard in shards {
            let read = (|| -> Result<ShardRows, DataError> {
                let reader = ShardReader::open(&shard.path)?;
                same_game.check(&reader)?;
                let si = index.shards.len() as u32;
                read_shard_rows(
                    reader,
                    shard,
                    si,
                    &mut |label: String| {
                        let n = group_ids.len() as u32;
                        *group_ids.entry(label.clone()).or_insert_with(|| {
                            labels.push(label);
                            n
                        })
                    },
                    &mut |start: &str| {
                        let n = start_ids.len() as u32;
                        if let Some(&s) = start_ids.get(start) {
                            return s;
                        }
                        start_ids.insert(start.to_string(), n);
                        index.starts.push(start.to_string());
                        n
                    },
                    &mut index.warnings,
                )
            })();
            match read {
                Ok(mut r) => {
                    let base = index.games.len() as u32;
                    for row in &mut r.rows {
                        row.game += base;
                    }
                    index.row_count += r.rows.len() as u64;
                    index.games.append(&mut r.games);
                    index.rows.append(&mut r.rows);
                    index.shards.push(shard.path.clone());
                }
                Err(e) => index.warnings.push(format!("skipped: {e}")),
            }
            progress(1);
        }
        // Groups in a useful order: generations by number, then names.
        let mut order: Vec<u32> = (0..labels.len() as u32).collect();
        order.sort_by(|&a, &b| {
            let (la, lb) = (&labels[a as usize], &labels[b as usize]);
            (!la.starts_with("gen "), la).cmp(&(!lb.starts_with("gen "), lb))
        });
        let mut rank = vec![0u32; labels.len()];
        for (r, &g) in order.iter().enumerate() {
            rank[g as usize] = r as u32;
        }
        index.groups = order.iter().map(|&g| labels[g as usize].clone()).collect();
        for row in &mut index.rows {
            row.group = rank[row.group as usize];
        }
        for g in &mut index.games {
            g.group = rank[g.group as usize];
        }
        index
            .rows
            .sort_unstable_by_key(|r| (r.position, r.code, r.game, r.ply));
        let mut by_line: Vec<u32> = (0..index.rows.len() as u32).collect();
        let rows = &index.rows;
        by_line.sort_unstable_by_key(|&i| {
            let r = &rows[i as usize];
            (r.line, r.code, r.game)
        });
        index.by_line = by_line;
        index
    }

    /// Rows at `key`, as a slice of the sorted rows or of the permutation.
    fn rows_at(&self, key: Key) -> Vec<&Row> {
        match key {
            Key::Position(h) => {
                let lo = self.rows.partition_point(|r| r.position < h);
                let hi = self.rows.partition_point(|r| r.position <= h);
                self.rows[lo..hi].iter().collect()
            }
            Key::Line(h) => {
                let at = |i: &u32| self.rows[*i as usize].line;
                let lo = self.by_line.partition_point(|i| at(i) < h);
                let hi = self.by_line.partition_point(|i| at(i) <= h);
                self.by_line[lo..hi]
                    .iter()
                    .map(|&i| &self.rows[i as usize])
                    .collect()
            }
        }
    }

    /// The moves played at `key` by games of groups `groups` (every group's
    /// count is still in `by_group`), most played first (ties by code). A
    /// game that stood at the position twice (a repetition) and played the
    /// same move counts once.
    pub fn moves(&self, key: Key, groups: std::ops::RangeInclusive<u32>) -> Vec<MoveStats> {
        let rows = self.rows_at(key);
        let mut out: Vec<MoveStats> = Vec::new();
        let mut last: Option<(u32, u32)> = None;
        for r in rows {
            if last == Some((r.code, r.game)) {
                continue;
            }
            last = Some((r.code, r.game));
            if out.last().is_none_or(|m| m.code != r.code) {
                out.push(MoveStats {
                    code: r.code,
                    by_group: vec![0; self.groups.len()],
                    ..MoveStats::default()
                });
            }
            let Some(m) = out.last_mut() else { continue };
            m.by_group[r.group as usize] += 1;
            if groups.contains(&r.group) {
                let g = &self.games[r.game as usize];
                m.games += 1;
                m.results[g.result.min(3) as usize] += 1;
                m.total_length += g.length as u64;
            }
        }
        out.sort_by(|a, b| b.games.cmp(&a.games).then(a.code.cmp(&b.code)));
        out
    }

    /// How many different games stood at `key` within `groups` (a game
    /// that came back to the position and played another move the second
    /// time counts once here, and under both moves in [`Self::moves`]).
    pub fn distinct_games(&self, key: Key, groups: std::ops::RangeInclusive<u32>) -> u64 {
        let mut games: Vec<u32> = self
            .rows_at(key)
            .into_iter()
            .filter(|r| groups.contains(&r.group))
            .map(|r| r.game)
            .collect();
        games.sort_unstable();
        games.dedup();
        games.len() as u64
    }

    /// The first `limit` games through `key` within `groups` (in index
    /// order: shard by shard, as written), and how many there are in all.
    pub fn games_at(
        &self,
        key: Key,
        groups: std::ops::RangeInclusive<u32>,
        limit: usize,
    ) -> (Vec<GameAt>, u64) {
        let mut all: Vec<GameAt> = self
            .rows_at(key)
            .into_iter()
            .filter(|r| groups.contains(&r.group))
            .map(|r| GameAt {
                game: r.game,
                ply: r.ply,
                code: r.code,
            })
            .collect();
        all.sort_unstable_by_key(|g| (g.game, g.ply));
        all.dedup_by_key(|g| g.game);
        let count = all.len() as u64;
        all.truncate(limit);
        (all, count)
    }
}

/// Reads one shard's rows: numbered games (local indices), rows with their
/// line hashes. `group_of` and `start_of` intern labels and start texts.
/// A game whose rows are not plies 0, 1, 2, … is left out with a warning.
fn read_shard_rows(
    reader: ShardReader,
    shard: &ShardFile,
    shard_index: u32,
    group_of: &mut dyn FnMut(String) -> u32,
    start_of: &mut dyn FnMut(&str) -> u32,
    warnings: &mut Vec<String>,
) -> Result<ShardRows, DataError> {
    let starts = read_starts(shard, start_of)?;
    let (mut games, mut rows) = read_games(reader, shard, shard_index, group_of)?;
    let keep = hash_lines(&mut games, &mut rows, &starts, shard, warnings);
    if keep.iter().any(|k| !k) {
        (games, rows) = keep_games(games, rows, &keep);
    }
    Ok(ShardRows { games, rows })
}

/// Each game's start in `shard` (interned by `start_of`) and the line hash
/// of the start, by game id. Only ply-0 rows decode the wide position
/// column.
fn read_starts(
    shard: &ShardFile,
    start_of: &mut dyn FnMut(&str) -> u32,
) -> Result<HashMap<u64, (u32, u64)>, DataError> {
    let err = |e| DataError::caused(&shard.path, e);
    let reader = ShardReader::open(&shard.path)?;
    let mut start_of_game = HashMap::new();
    for b in reader.read_filtered(&[col::GAME_ID, col::PLY, col::POSITION], Some(1))? {
        let c = Columns::new(&b);
        let (id, pos) = (
            c.u64(col::GAME_ID).map_err(err)?,
            c.str(col::POSITION).map_err(err)?,
        );
        for i in 0..b.num_rows() {
            let text = pos.value(i);
            start_of_game.insert(id.value(i), (start_of(text), line_hash(text, &[])));
        }
    }
    Ok(start_of_game)
}

/// The games (numbered in the order first seen, their start not set yet)
/// and rows (their line hash not set yet) of `shard`; each row's group is
/// the shard's generation, or else its model (interned by `group_of`).
fn read_games(
    reader: ShardReader,
    shard: &ShardFile,
    shard_index: u32,
    group_of: &mut dyn FnMut(String) -> u32,
) -> Result<(Vec<IndexedGame>, Vec<Row>), DataError> {
    let err = |e| DataError::caused(&shard.path, e);
    let batches = reader.read_columns(&[
        col::GAME_ID,
        col::PLY,
        col::POSITION_HASH,
        col::CHOSEN_MOVE,
        col::RESULT,
        col::GAME_LENGTH,
        col::MODEL_ID,
    ])?;
    let mut game_of: HashMap<u64, u32> = HashMap::new();
    let mut games: Vec<IndexedGame> = Vec::new();
    let mut rows: Vec<Row> = Vec::new();
    let mut last_model: Option<(String, u32)> = None;
    for b in &batches {
        let c = Columns::new(b);
        let id = c.u64(col::GAME_ID).map_err(err)?;
        let ply = c.u32(col::PLY).map_err(err)?;
        let hash = c.u64(col::POSITION_HASH).map_err(err)?;
        let chosen = c.u32(col::CHOSEN_MOVE).map_err(err)?;
        let result = c.str(col::RESULT).map_err(err)?;
        let length = c.u32(col::GAME_LENGTH).map_err(err)?;
        let model = c.str(col::MODEL_ID).map_err(err)?;
        for i in 0..b.num_rows() {
            let group = match shard.generation {
                Some(g) => group_of(group_label(Some(g), "")),
                None => {
                    let m = model.value(i);
                    match &last_model {
                        Some((name, id)) if name == m => *id,
                        _ => {
                            let gid = group_of(group_label(None, m));
                            last_model = Some((m.to_string(), gid));
                            gid
                        }
                    }
                }
            };
            let gid = id.value(i);
            let game = *game_of.entry(gid).or_insert_with(|| {
                games.push(IndexedGame {
                    shard: shard_index,
                    game_id: gid,
                    start: u32::MAX,
                    result: result_index(result.value(i)) as u8,
                    length: length.value(i),
                    group,
                });
                games.len() as u32 - 1
            });
            rows.push(Row {
                position: hash.value(i),
                line: 0,
                game,
                code: chosen.value(i),
                ply: ply.value(i),
                group,
            });
        }
    }
    Ok((games, rows))
}

/// Sorts `rows` by game and ply and sets each row's line hash (and each
/// game's start) from its game's start in `starts`; returns which games
/// to keep: a game whose rows are not plies 0, 1, 2, … (or without a
/// start) is not kept, with a warning.
fn hash_lines(
    games: &mut [IndexedGame],
    rows: &mut [Row],
    starts: &HashMap<u64, (u32, u64)>,
    shard: &ShardFile,
    warnings: &mut Vec<String>,
) -> Vec<bool> {
    rows.sort_unstable_by_key(|r| (r.game, r.ply));
    let mut keep = vec![true; games.len()];
    let mut i = 0;
    while i < rows.len() {
        let g = rows[i].game as usize;
        let mut j = i;
        while j < rows.len() && rows[j].game as usize == g {
            j += 1;
        }
        let start = starts.get(&games[g].game_id).copied();
        let complete = rows[i..j]
            .iter()
            .enumerate()
            .all(|(k, r)| r.ply as usize == k);
        match start {
            Some((s, mut h)) if complete => {
                games[g].start = s;
                for r in &mut rows[i..j] {
                    r.line = h;
                    h = next_line(h, r.code);
                }
            }
            _ => {
                keep[g] = false;
                warnings.push(format!(
                    "{}: game {} left out: its rows are not plies 0, 1, 2, … (a game split or cut)",
                    shard.path.display(),
                    games[g].game_id
                ));
            }
        }
        i = j;
    }
    keep
}

/// The games `keep` marks and their rows, the games renumbered.
fn keep_games(
    games: Vec<IndexedGame>,
    mut rows: Vec<Row>,
    keep: &[bool],
) -> (Vec<IndexedGame>, Vec<Row>) {
    let mut new_id = vec![u32::MAX; games.len()];
    let mut kept = Vec::new();
    for (g, game) in games.into_iter().enumerate() {
        if keep[g] {
            new_id[g] = kept.len() as u32;
            kept.push(game);
        }
    }
    rows.retain(|r| keep[r.game as usize]);
    for r in &mut rows {
        r.game = new_id[r.game as usize];
    }
    (kept, rows)
}
