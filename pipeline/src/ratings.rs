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

/// `ratings.csv`: generation, Elo (anchored at random), and the score
/// against each ladder opponent, refitted over all games after every
/// evaluation.
pub fn write_ratings(run: &Path, m: &Matches, up_to: u32) -> Result<(), Error> {
    let ratings = fitted(m);
    let table = m.table();
    let ladder: Vec<usize> = (0..m.players.len())
        .filter(|&i| !m.players[i].starts_with("gen-"))
        .collect();
    let mut csv = String::from("generation,elo");
    for &j in &ladder {
        csv.push_str(&format!(",score_vs_{}", m.players[j].replace(',', ";")));
    }
    csv.push('\n');
    for g in 0..=up_to {
        let Some(i) = m.players.iter().position(|p| *p == crate::run::gen_name(g)) else {
            continue;
        };
        csv.push_str(&format!("{g},{:.1}", ratings[i]));
        for &j in &ladder {
            csv.push_str(&format!(",{:.3}", table[i][j].score()));
        }
        csv.push('\n');
    }
    crate::run::write_atomic(&run.join("ratings.csv"), &csv)?;
    crate::run::write_atomic(&run.join("ratings.md"), &ratings_table(m, &ratings))
}
