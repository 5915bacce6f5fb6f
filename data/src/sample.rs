//! Positions sampled from games (`triad data positions`): every distinct
//! position of the shards' rows, grouped by ply, and a seeded sample of up
//! to `per_ply` of each ply in a range, leaving out positions listed
//! elsewhere (another test set's). This is how a test set is drawn from
//! games that nothing was tuned on (docs/data.md, "Sampling positions"):
//! the positions of games of mixed strength at every ply, then labelled by
//! a solver or an engine.

use crate::reader::ShardReader;
use crate::schema::col;
use crate::{DataError, ShardFile};
use game::SplitMix;
use std::collections::{BTreeMap, HashSet};
use std::ops::RangeInclusive;

/// What to sample.
#[derive(Clone, Debug)]
pub struct SampleOptions {
    /// Positions at most per ply.
    pub per_ply: usize,
    /// The plies sampled (a row's `ply`: stones or moves before the position).
    pub plies: RangeInclusive<u32>,
    /// Position texts never sampled (e.g. another benchmark's positions).
    pub exclude: HashSet<String>,
    /// Seed of the sample: the same shards and seed give the same positions.
    pub seed: u64,
}

/// The positions of one ply: how many distinct ones the games had, and
/// the sample.
#[derive(Clone, Debug, PartialEq)]
pub struct PlySample {
    pub ply: u32,
    /// Distinct positions of this ply in the games, excluded ones left out.
    pub available: usize,
    /// The sampled positions, in the sample's order.
    pub positions: Vec<String>,
}

/// Every sampled ply, in ply order, and the rows read.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub rows: u64,
    pub excluded: usize,
    pub plies: Vec<PlySample>,
}

impl Sample {
    /// The sampled positions, ply by ply.
    pub fn positions(&self) -> impl Iterator<Item = (u32, &str)> {
        self.plies
            .iter()
            .flat_map(|p| p.positions.iter().map(move |s| (p.ply, s.as_str())))
    }

    /// How many positions were sampled.
    pub fn len(&self) -> usize {
        self.plies.iter().map(|p| p.positions.len()).sum()
    }

    /// Whether nothing was sampled.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The positions, one a line, ply by ply; an empty text (Connect
    /// Four's empty board) as `-`, as the command line writes it.
    pub fn lines(&self) -> String {
        let mut out = String::new();
        for (_, text) in self.positions() {
            out.push_str(if text.is_empty() { "-" } else { text });
            out.push('\n');
        }
        out
    }

    /// One line for a person: what was read and sampled.
    pub fn summary(&self) -> String {
        format!(
            "{} positions sampled over {} plies from {} rows ({} excluded)",
            self.len(),
            self.plies.len(),
            self.rows,
            self.excluded
        )
    }

    /// `--json`: the counts per ply and the positions.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "rows": self.rows,
            "excluded": self.excluded,
            "sampled": self.len(),
            "plies": self.plies.iter().map(|p| serde_json::json!({
                "ply": p.ply,
                "available": p.available,
                "sampled": p.positions.len(),
            })).collect::<Vec<_>>(),
            "positions": self.positions().map(|(_, t)| t).collect::<Vec<_>>(),
        })
    }
}

/// The positions listed in `paths`, to leave out of a sample: each line's
/// first word (Pons's files: `moves score …`) and the whole line (a
/// position text with spaces); blank lines and `#` comments skipped.
pub fn read_exclusions(paths: &[std::path::PathBuf]) -> Result<HashSet<String>, DataError> {
    let mut out = HashSet::new();
    for path in paths {
        let text =
            std::fs::read_to_string(path).map_err(|e| DataError::new(path, e.to_string()))?;
        for line in text.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(word) = line.split_whitespace().next() {
                out.insert(word.to_string());
            }
            out.insert(line.to_string());
        }
    }
    Ok(out)
}

/// Samples the positions of `shards` (read in the order given; the sample
/// depends only on the set of distinct positions, each ply's sorted before
/// the seeded shuffle, so not on the order of shards or rows).
pub fn sample_positions(
    shards: &[ShardFile],
    options: &SampleOptions,
) -> Result<Sample, DataError> {
    let mut by_ply: BTreeMap<u32, HashSet<String>> = BTreeMap::new();
    let mut rows = 0u64;
    let mut excluded = HashSet::new();
    for shard in shards {
        let reader = ShardReader::open(&shard.path)?;
        let batches = reader.read_columns(&[col::PLY, col::POSITION])?;
        for batch in &batches {
            let c = crate::Columns::new(batch);
            let bad = |e: crate::ColumnError| DataError::caused(&shard.path, e);
            let (ply, pos) = (
                c.u32(col::PLY).map_err(bad)?,
                c.str(col::POSITION).map_err(bad)?,
            );
            for i in 0..batch.num_rows() {
                rows += 1;
                let p = ply.value(i);
                if !options.plies.contains(&p) {
                    continue;
                }
                let text = pos.value(i);
                if options.exclude.contains(text) {
                    excluded.insert(text.to_string());
                    continue;
                }
                by_ply.entry(p).or_default().insert(text.to_string());
            }
        }
    }
    let mut rng = SplitMix::new(options.seed);
    let plies = by_ply
        .into_iter()
        .map(|(ply, set)| {
            let mut all: Vec<String> = set.into_iter().collect();
            all.sort_unstable();
            let available = all.len();
            rng.shuffle(&mut all);
            all.truncate(options.per_ply);
            PlySample {
                ply,
                available,
                positions: all,
            }
        })
        .collect();
    Ok(Sample {
        rows,
        excluded: excluded.len(),
        plies,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::Game;

    fn shard_of_random_games(dir: &std::path::Path, seed: u64) -> Vec<ShardFile> {
        let g = connect4::Connect4::standard();
        let path = dir.join("g.parquet");
        let mut w = crate::ShardWriter::create(&path).unwrap();
        for id in 0..20 {
            w.push_game(&crate::synthetic::random_game(&g, id, &g.start(), seed, 42))
                .unwrap();
        }
        w.finish().unwrap();
        crate::list_shards(&[&path]).unwrap()
    }

    #[test]
    fn samples_each_ply_up_to_the_limit_and_leaves_out_the_excluded() {
        let dir = tempfile::tempdir().unwrap();
        let shards = shard_of_random_games(dir.path(), 3);
        let all = sample_positions(
            &shards,
            &SampleOptions {
                per_ply: usize::MAX,
                plies: 0..=41,
                exclude: HashSet::new(),
                seed: 1,
            },
        )
        .unwrap();
        // Ply 0 is the empty board, once however many games.
        assert_eq!(all.plies[0].ply, 0);
        assert_eq!(all.plies[0].positions, vec![String::new()]);
        let ply4: &PlySample = all.plies.iter().find(|p| p.ply == 4).unwrap();
        assert!(ply4.available > 2, "{ply4:?}");
        let exclude: HashSet<String> = ply4.positions[..2].iter().cloned().collect();
        let opts = SampleOptions {
            per_ply: 3,
            plies: 2..=6,
            exclude: exclude.clone(),
            seed: 9,
        };
        let s = sample_positions(&shards, &opts).unwrap();
        assert_eq!(s.excluded, 2);
        assert!(s.plies.iter().all(|p| (2..=6).contains(&p.ply)));
        assert!(s.plies.iter().all(|p| p.positions.len() <= 3));
        assert!(s.positions().all(|(_, t)| !exclude.contains(t)));
        let p4 = s.plies.iter().find(|p| p.ply == 4).unwrap();
        assert_eq!(p4.available, ply4.available - 2);
        // Every position is of its ply (a Connect Four text is its moves).
        assert!(s.positions().all(|(ply, t)| t.len() == ply as usize));
        // The same seed, the same sample; another seed, another one.
        assert_eq!(sample_positions(&shards, &opts).unwrap(), s);
        let other = SampleOptions { seed: 10, ..opts };
        assert_ne!(sample_positions(&shards, &other).unwrap(), s);
    }
}
