//! Ratings bookkeeping of a run: every match result so far (`matches.json`)
//! and the ratings fitted from them by maximum likelihood, anchored at
//! `random` = 0 (`ratings.csv`, `ratings.md`).

use crate::Error;
use eval::elo::Wdl;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Every match result so far: players by name and their records.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Matches {
    pub players: Vec<String>,
    /// `wdl[i][j]` = [wins, draws, losses] of i against j.
    pub wdl: Vec<Vec<[u64; 3]>>,
}

impl Matches {
    pub fn index(&mut self, name: &str) -> usize {
        if let Some(i) = self.players.iter().position(|p| p == name) {
            return i;
        }
        self.players.push(name.to_string());
        for row in self.wdl.iter_mut() {
            row.push([0; 3]);
        }
        self.wdl.push(vec![[0; 3]; self.players.len()]);
        self.players.len() - 1
    }

    pub fn table(&self) -> Vec<Vec<Wdl>> {
        self.wdl
            .iter()
            .map(|r| r.iter().map(|x| Wdl::new(x[0], x[1], x[2])).collect())
            .collect()
    }

    /// Adds `r`, the record of `a` against `b` (and its mirror for `b`).
    pub fn add(&mut self, a: &str, b: &str, r: Wdl) {
        let (a, b) = (self.index(a), self.index(b));
        for (x, y, rec) in [(a, b, r), (b, a, r.flipped())] {
            let cell = &mut self.wdl[x][y];
            cell[0] += rec.wins;
            cell[1] += rec.draws;
            cell[2] += rec.losses;
        }
    }
}

/// The ratings of every player, `random` = 0 (the first player when
/// there is no `random`).
pub fn fitted(m: &Matches) -> Vec<f64> {
    if m.players.is_empty() {
        return Vec::new();
    }
    let anchor = m.players.iter().position(|p| p == "random").unwrap_or(0);
    eval::elo::fit_ratings(&m.table(), anchor)
}

/// A Markdown table of the ratings, best first.
pub fn ratings_table(m: &Matches, ratings: &[f64]) -> String {
    let table = m.table();
    let mut order: Vec<usize> = (0..m.players.len()).collect();
    order.sort_by(|&a, &b| ratings[b].total_cmp(&ratings[a]));
    let mut s = String::from("| player | Elo | games | score |\n| --- | ---: | ---: | ---: |\n");
    for i in order {
        let total = table[i].iter().fold(Wdl::default(), |a, r| {
            Wdl::new(a.wins + r.wins, a.draws + r.draws, a.losses + r.losses)
        });
        s.push_str(&format!(
            "| {} | {:.0} | {} | {:.3} |\n",
            m.players[i],
            ratings[i],
            total.games(),
            total.score()
        ));
    }
    s
}

/// Whether ladder rung `rung` is decided before generation `g`: the last
/// `n` generations (before `g`) that played it all scored 1 against it
/// (every game won) or all scored 0 (every game lost). Returns that score,
/// or `None` when it is not decided or fewer than `n` generations played
/// it.
pub fn decided(m: &Matches, rung: &str, g: u32, n: u32) -> Option<f64> {
    let j = m.players.iter().position(|p| p == rung)?;
    let mut seen = Vec::new();
    for k in (0..g).rev() {
        if seen.len() == n as usize {
            break;
        }
        let Some(i) = m
            .players
            .iter()
            .position(|p| *p == crate::layout::gen_name(k))
        else {
            continue;
        };
        let [w, d, l] = m.wdl[i][j];
        if w + d + l > 0 {
            seen.push(if d == 0 && l == 0 {
                Some(1.0)
            } else if w == 0 && d == 0 {
                Some(0.0)
            } else {
                None
            });
        }
    }
    let first = *seen.first()?;
    (n > 0 && seen.len() == n as usize && seen.iter().all(|s| *s == first))
        .then_some(first)
        .flatten()
}

/// `ratings.csv`: generation, Elo (anchored at random), and the score
/// against each ladder opponent, refitted over all games after every
/// evaluation.
pub fn write_ratings(run: &Path, m: &Matches, up_to: u32) -> Result<(), Error> {
    let ratings = fitted(m);
    let table = m.table();
    let ladder: Vec<usize> = (0..m.players.len())
        .filter(|&i| crate::layout::parse_gen(&m.players[i]).is_none())
        .collect();
    let mut csv = String::from("generation,elo");
    for &j in &ladder {
        csv.push_str(&format!(",score_vs_{}", m.players[j].replace(',', ";")));
    }
    csv.push('\n');
    for g in 0..=up_to {
        let Some(i) = m
            .players
            .iter()
            .position(|p| *p == crate::layout::gen_name(g))
        else {
            continue;
        };
        csv.push_str(&format!("{g},{:.1}", ratings[i]));
        for &j in &ladder {
            // An empty cell: the rung was not played (skipped as decided).
            let [w, d, l] = m.wdl[i][j];
            if w + d + l == 0 {
                csv.push(',');
            } else {
                csv.push_str(&format!(",{:.3}", table[i][j].score()));
            }
        }
        csv.push('\n');
    }
    crate::files::write_atomic(&run.join("ratings.csv"), &csv)?;
    crate::files::write_atomic(&run.join("ratings.md"), &ratings_table(m, &ratings))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::gen_name;

    fn with(results: &[(u32, &str, [u64; 3])]) -> Matches {
        let mut m = Matches::default();
        for &(g, rung, [w, d, l]) in results {
            m.add(&gen_name(g), rung, Wdl::new(w, d, l));
        }
        m
    }

    #[test]
    fn a_rung_is_decided_by_the_last_generations_that_played_it() {
        let m = with(&[
            (0, "random", [10, 2, 4]),
            (1, "random", [16, 0, 0]),
            (2, "random", [16, 0, 0]),
            (0, "ab", [0, 0, 16]),
            (1, "ab", [0, 0, 16]),
            (2, "ab", [1, 0, 15]),
            (0, "mixed", [0, 0, 16]),
            (1, "mixed", [16, 0, 0]),
        ]);
        assert_eq!(decided(&m, "random", 3, 2), Some(1.0));
        assert_eq!(decided(&m, "random", 3, 3), None, "generation 0 lost games");
        assert_eq!(decided(&m, "ab", 3, 1), None, "generation 2 won one");
        assert_eq!(decided(&m, "ab", 2, 2), Some(0.0));
        assert_eq!(decided(&m, "mixed", 2, 2), None, "all won or all lost");
        assert_eq!(decided(&m, "random", 3, 0), None, "0: never skip");
        assert_eq!(decided(&m, "unknown", 3, 1), None);
        // A generation that skipped the rung does not count: generation 3
        // never met `random`, so generations 1 and 2 still decide it at 4.
        let mut m2 = m.clone();
        m2.add(&gen_name(3), "ab", Wdl::new(0, 0, 16));
        assert_eq!(decided(&m2, "random", 4, 2), Some(1.0));
    }

    #[test]
    fn ratings_csv_leaves_a_skipped_rung_empty() {
        let m = with(&[
            (0, "random", [16, 0, 0]),
            (1, "random", [16, 0, 0]),
            (1, "ab", [3, 0, 13]),
            (2, "ab", [6, 0, 10]),
        ]);
        let dir = tempfile::tempdir().unwrap();
        write_ratings(dir.path(), &m, 2).unwrap();
        let csv = std::fs::read_to_string(dir.path().join("ratings.csv")).unwrap();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], "generation,elo,score_vs_random,score_vs_ab");
        assert!(lines[1].ends_with(",1.000,"), "{}", lines[1]);
        assert!(lines[3].ends_with(",,0.375"), "{}", lines[3]);
    }
}
