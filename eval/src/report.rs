//! The report of a match (`triad eval`): each pairing's result with its
//! Elo and 95% interval, the SPRT's verdict when one ran, the ratings
//! fitted over all games, and each player's time and simulations per move,
//! as one JSON object or as text. The statistics are [`crate::elo`]'s;
//! this only lays them out. Nothing here prints.

use std::fmt::Write;

use serde_json::{json, Value};

use crate::arena::players::PlayerSpec;
use crate::arena::{MoveClock, Table};
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
    /// Each player's moves over the match (in `players`' order): their
    /// count, wall time and simulations.
    pub clocks: &'a [MoveClock],
}

/// The text report's line on a match with a time-limited player.
pub const NOT_REPRODUCIBLE: &str = "time-limited players (movetime=): the games are not reproducible move for move; their openings follow the seed";

/// The text report's line on a match with a time-limited network player.
pub const GAME_BY_GAME: &str = "net players with movetime= play the whole match game by game, not in lockstep: each searches its own leaves, one at a time, so a move's time is its own";

/// The text report's line on network moves searched in lockstep.
pub const LOCKSTEP_TIME: &str = "lockstep: a network move's time is its own search plus an equal share of each batched network call it had a leaf in";

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

    /// Whether a player stops on the clock (`movetime=`): the games are
    /// not reproducible move for move.
    pub fn reproducible(&self) -> bool {
        !self.players.iter().any(PlayerSpec::is_time_limited)
    }

    /// Whether a network player stops on the clock: such a match is
    /// played game by game, not in lockstep.
    fn timed_network(&self) -> bool {
        self.players
            .iter()
            .any(|p| matches!(p, PlayerSpec::Net(n) if n.is_time_limited()))
    }

    /// Player `i`'s moves (none when the report has no clock for it).
    fn clock(&self, i: usize) -> MoveClock {
        self.clocks.get(i).copied().unwrap_or_default()
    }

    /// Each player's moves, mean wall time (ms, to 0.001) and mean
    /// simulations (to 0.1; null for players that count none), and
    /// whether its network moves were searched in lockstep.
    fn clocks_json(&self) -> Value {
        let round = |x: f64, scale: f64| (x * scale).round() / scale;
        json!(self
            .names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let c = self.clock(i);
                json!({
                    "player": name,
                    "moves": c.moves,
                    "ms_per_move": c.ms_per_move().map(|x| round(x, 1e3)),
                    "simulations_per_move": c.simulations_per_move().map(|x| round(x, 10.0)),
                    "lockstep": c.lockstep,
                })
            })
            .collect::<Vec<_>>())
    }

    /// The time table of the text report, and the lines that say how to
    /// read it.
    fn clocks_text(&self, s: &mut String) {
        let _ = writeln!(s, "\ntime per move (wall clock):");
        let _ = writeln!(
            s,
            "{:<40} {:>6} {:>9} {:>9}",
            "player", "moves", "ms/move", "sims/move"
        );
        let fmt = |x: Option<f64>, decimals: usize| match x {
            Some(x) => format!("{x:.decimals$}"),
            None => "-".to_string(),
        };
        for (i, name) in self.names.iter().enumerate() {
            let c = self.clock(i);
            let _ = writeln!(
                s,
                "{:<40} {:>6} {:>9} {:>9}",
                name,
                c.moves,
                fmt(c.ms_per_move(), 2),
                fmt(c.simulations_per_move(), 1)
            );
        }
        if self.clocks.iter().any(|c| c.lockstep) {
            let _ = writeln!(s, "{LOCKSTEP_TIME}");
        }
        if self.timed_network() {
            let _ = writeln!(s, "{GAME_BY_GAME}");
        }
        if !self.reproducible() {
            let _ = writeln!(s, "{NOT_REPRODUCIBLE}");
        }
    }

    fn matchup(&self, i: usize, j: usize) -> (Wdl, f64, (f64, f64)) {
        let r = self.table.wdl[i][j];
        (r, r.elo(), r.elo_ci95())
    }

    /// One JSON object: a two-player match's result at the top level, else
    /// `matches`; the ratings; each player's time per move (`clocks`);
    /// whether the games are reproducible from the seed (`reproducible`:
    /// false with a `movetime=` player); the SPRT's verdict when one ran.
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
        out["clocks"] = self.clocks_json();
        out["reproducible"] = json!(self.reproducible());
        if let Some(d) = decision {
            out["sprt"] = json!(match d {
                SprtDecision::AcceptH1 => "H1",
                SprtDecision::AcceptH0 => "H0",
                SprtDecision::Continue => "undecided",
            });
        }
        out
    }

    /// Each pairing's line, the SPRT's when one ran, the ratings, and each
    /// player's time per move, as text (every line ends in a newline).
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
        self.clocks_text(&mut s);
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
        let clocks = [
            MoveClock {
                moves: 4,
                nanos: 10_000_000,
                simulations: None,
                lockstep: false,
            },
            MoveClock::default(),
        ];
        let r = Report {
            names: &names,
            players: &players,
            table: &table,
            round_robin: false,
            clocks: &clocks,
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
        assert!(
            text.contains(" 6\n\ntime per move (wall clock):\n"),
            "{text}"
        );
        assert!(
            text.ends_with(&format!(
                "{:<40} {:>6} {:>9} {:>9}\n{:<40} {:>6} {:>9} {:>9}\n",
                "ab:depth=1", 4, "2.50", "-", "random", 0, "-", "-"
            )),
            "{text}"
        );
        assert!(!text.contains(NOT_REPRODUCIBLE));
        assert_eq!(v["reproducible"], true);
        assert_eq!(v["clocks"][0]["player"], "ab:depth=1");
        assert_eq!(v["clocks"][0]["moves"], 4);
        assert_eq!(v["clocks"][0]["ms_per_move"], 2.5);
        assert_eq!(v["clocks"][0]["simulations_per_move"], Value::Null);
        assert_eq!(v["clocks"][1]["ms_per_move"], Value::Null);
        assert_eq!(fmt_elo(f64::NEG_INFINITY), "-inf");
        assert_eq!(rounded_elo(12.345), Some(12.3));
    }

    /// A match with a `movetime=` network player says it is not
    /// reproducible and was played game by game; network moves searched in
    /// lockstep say how their time was counted.
    #[test]
    fn a_timed_match_says_so() {
        let names = vec![
            "net:x,movetime=50".to_string(),
            "ab:movetime=50".to_string(),
        ];
        let players: Vec<PlayerSpec> = names.iter().map(|n| n.parse().unwrap()).collect();
        let mut table = Table::new(2);
        table.wdl[0][1] = Wdl::new(1, 0, 1);
        table.wdl[1][0] = Wdl::new(1, 0, 1);
        let clocks = [
            MoveClock {
                moves: 10,
                nanos: 500_000_000,
                simulations: Some(123),
                lockstep: false,
            },
            MoveClock {
                moves: 10,
                nanos: 400_000_000,
                simulations: None,
                lockstep: false,
            },
        ];
        let r = Report {
            names: &names,
            players: &players,
            table: &table,
            round_robin: false,
            clocks: &clocks,
        };
        let v = r.json(None);
        assert_eq!(v["reproducible"], false);
        assert_eq!(v["clocks"][0]["ms_per_move"], 50.0);
        assert_eq!(v["clocks"][0]["simulations_per_move"], 12.3);
        assert_eq!(v["clocks"][1]["ms_per_move"], 40.0);
        let text = r.text(None);
        assert!(text.contains(NOT_REPRODUCIBLE), "{text}");
        assert!(text.contains(GAME_BY_GAME), "{text}");
        assert!(!text.contains(LOCKSTEP_TIME), "{text}");
        let lockstep = [
            MoveClock {
                lockstep: true,
                ..clocks[0]
            },
            clocks[1],
        ];
        let plain: Vec<PlayerSpec> = ["net:x", "random"]
            .iter()
            .map(|n| n.parse().unwrap())
            .collect();
        let r = Report {
            players: &plain,
            clocks: &lockstep,
            ..r
        };
        let text = r.text(None);
        assert!(text.contains(LOCKSTEP_TIME), "{text}");
        assert!(!text.contains(NOT_REPRODUCIBLE) && !text.contains(GAME_BY_GAME));
        assert_eq!(r.json(None)["clocks"][0]["lockstep"], true);
    }
}
