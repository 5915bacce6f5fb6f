//! The report of a match (`triad eval`): each pairing's result with its
//! Elo and 95% interval, the SPRT's verdict when one ran, and the ratings
//! fitted over all games, as one JSON object or as text. The statistics
//! are [`crate::elo`]'s; this only lays them out. Nothing here prints.

use std::fmt::Write;

use serde_json::{json, Value};

use crate::arena::players::PlayerSpec;
use crate::arena::Table;
use crate::elo::{Sprt, SprtDecision, Wdl};

/// An Elo figure for JSON: rounded to 0.1, `None` (null) when infinite.
pub fn rounded_elo(x: f64) -> Option<f64> {
    x.is_finite().then(|| (x * 10.0).round() / 10.0)
}

/// An Elo figure for text: signed, no decimals, `+inf`/`-inf`.
pub fn fmt_elo(x: f64) -> String {
    if x.is_finite() {
        format!("{x:+.0}")
    } else if x > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

/// The results of a match: the players (their names as given and their
/// specs), the records and whether every pair played.
pub struct Report<'a> {
    pub names: &'a [String],
    pub players: &'a [PlayerSpec],
    pub table: &'a Table,
    /// All pairings played (else the first player against each other).
    pub round_robin: bool,
}

impl Report<'_> {
    /// The anchor of the ratings: `random` if it played, else the first.
    pub fn anchor(&self) -> usize {
        self.players
            .iter()
            .position(|p| *p == PlayerSpec::Random)
            .unwrap_or(0)
    }

    /// The pairings played: all of them in a round robin, else the first
    /// player against each other.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        let n = self.players.len();
        if self.round_robin {
            (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .collect()
        } else {
            (1..n).map(|j| (0, j)).collect()
        }
    }

    fn matchup(&self, i: usize, j: usize) -> (Wdl, f64, (f64, f64)) {
        let r = self.table.wdl[i][j];
        (r, r.elo(), r.elo_ci95())
    }

    /// One JSON object: a two-player match's result at the top level, else
    /// `matches`; the ratings; the SPRT's verdict when one ran.
    pub fn json(&self, decision: Option<SprtDecision>) -> Value {
        let names = self.names;
        let result_json = |i: usize, j: usize| {
            let (r, elo, (lo, hi)) = self.matchup(i, j);
            json!({
                "player": names[i], "opponent": names[j],
                "games": r.games(), "wins": r.wins, "draws": r.draws, "losses": r.losses,
                "score": (r.score() * 1e4).round() / 1e4,
                "elo": rounded_elo(elo), "elo_ci95": [rounded_elo(lo), rounded_elo(hi)],
            })
        };
        let mut out = if self.players.len() == 2 {
            result_json(0, 1)
        } else {
            json!({ "matches": self.pairings().iter().map(|&(i, j)| result_json(i, j)).collect::<Vec<_>>() })
        };
        let anchor = self.anchor();
        out["ratings"] = json!(names
            .iter()
            .zip(&self.table.ratings(anchor))
            .map(|(n, r)| json!({"player": n, "elo": rounded_elo(*r)}))
            .collect::<Vec<_>>());
        out["anchor"] = json!(names[anchor]);
        if let Some(d) = decision {
            out["sprt"] = json!(match d {
                SprtDecision::AcceptH1 => "H1",
                SprtDecision::AcceptH0 => "H0",
                SprtDecision::Continue => "undecided",
            });
        }
        out
    }

    /// Each pairing's line, the SPRT's when one ran, and the ratings, as
    /// text (every line ends in a newline).
    pub fn text(&self, sprt: Option<(&Sprt, SprtDecision)>) -> String {
        let names = self.names;
        let mut s = String::new();
        for (i, j) in self.pairings() {
            let (r, elo, (lo, hi)) = self.matchup(i, j);
            let _ = writeln!(
                s,
                "{} vs {}: {} games, +{} ={} -{}, score {:.3}, Elo {} [{}, {}]",
                names[i],
                names[j],
                r.games(),
                r.wins,
                r.draws,
                r.losses,
                r.score(),
                fmt_elo(elo),
                fmt_elo(lo),
                fmt_elo(hi)
            );
        }
        if let Some((t, decision)) = sprt {
            let r = self.table.wdl[0][1];
            let (lo, hi) = t.bounds();
            let _ = writeln!(
                s,
                "SPRT elo0={} elo1={}: LLR {:.2} in [{lo:.2}, {hi:.2}]: {}",
                t.elo0,
                t.elo1,
                t.llr(&r),
                match decision {
                    SprtDecision::AcceptH1 => "H1 accepted",
                    SprtDecision::AcceptH0 => "H0 accepted",
                    SprtDecision::Continue => "undecided",
                }
            );
        }
        let anchor = self.anchor();
        let ratings = self.table.ratings(anchor);
        let _ = writeln!(s, "\nratings (maximum likelihood, {} = 0):", names[anchor]);
        let mut order: Vec<usize> = (0..self.players.len()).collect();
        order.sort_by(|&a, &b| ratings[b].total_cmp(&ratings[a]));
        let _ = writeln!(s, "{:<40} {:>7} {:>6}", "player", "elo", "games");
        for i in order {
            let _ = writeln!(
                s,
                "{:<40} {:>7} {:>6}",
                names[i],
                fmt_elo(ratings[i]),
                self.table.total(i).games()
            );
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_two_player_report_as_json_and_text() {
        let names = vec!["ab:depth=1".to_string(), "random".to_string()];
        let players: Vec<PlayerSpec> = names.iter().map(|n| n.parse().unwrap()).collect();
        let mut table = Table::new(2);
        table.wdl[0][1] = Wdl::new(6, 0, 0);
        table.wdl[1][0] = Wdl::new(0, 0, 6);
        let r = Report {
            names: &names,
            players: &players,
            table: &table,
            round_robin: false,
        };
        assert_eq!(r.anchor(), 1);
        let v = r.json(Some(SprtDecision::Continue));
        assert_eq!(v["games"], 6);
        assert_eq!(v["elo"], Value::Null);
        assert_eq!(v["anchor"], "random");
        assert_eq!(v["sprt"], "undecided");
        let text = r.text(None);
        assert!(
            text.starts_with("ab:depth=1 vs random: 6 games, +6 =0 -0, score 1.000, Elo +inf ["),
            "{text}"
        );
        assert!(text.contains("\nratings (maximum likelihood, random = 0):\n"));
        assert!(text.ends_with(" 6\n"), "{text}");
        assert_eq!(fmt_elo(f64::NEG_INFINITY), "-inf");
        assert_eq!(rounded_elo(12.345), Some(12.3));
    }
}
