//! Match statistics: Elo difference with a 95% confidence interval, the
//! sequential probability ratio test (SPRT), and a ratings table fitted by
//! maximum likelihood over all games.
//!
//! Conventions (the same as chess testing frameworks, so figures compare):
//! scores count a draw as half a win; Elo is logistic,
//! `score = 1 / (1 + 10^(-elo/400))`; the confidence interval uses the
//! per-game (trinomial) variance of the score, so draws narrow it.

/// Wins, draws and losses from one player's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    pub fn new(wins: u64, draws: u64, losses: u64) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
    /// Mean score in [0, 1]; 0.5 with no games.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }
    /// Per-game variance of the score.
    pub fn variance(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let mu = self.score();
        (self.wins as f64 * (1.0 - mu).powi(2)
            + self.draws as f64 * (0.5 - mu).powi(2)
            + self.losses as f64 * mu.powi(2))
            / n
    }
    /// Elo difference; ±infinity for a perfect or a zero score.
    pub fn elo(&self) -> f64 {
        elo_from_score(self.score())
    }
    /// 95% confidence interval of the Elo difference (normal approximation
    /// of the mean score, mapped through the logistic curve).
    pub fn elo_ci95(&self) -> (f64, f64) {
        let n = self.games() as f64;
        if n == 0.0 {
            return (f64::NEG_INFINITY, f64::INFINITY);
        }
        let se = (self.variance() / n).sqrt();
        let mu = self.score();
        (
            elo_from_score(mu - 1.959964 * se),
            elo_from_score(mu + 1.959964 * se),
        )
    }
    /// The same games from the other player's side.
    pub fn flipped(&self) -> Wdl {
        Wdl::new(self.losses, self.draws, self.wins)
    }
}

/// Logistic Elo of a mean score.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Expected score of a player `elo` points stronger.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// What an SPRT says after the games so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// The evidence favours `elo1` (the change is an improvement).
    AcceptH1,
    /// The evidence favours `elo0`.
    AcceptH0,
    Continue,
}

/// A sequential probability ratio test of `elo0` against `elo1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    /// False-positive rate (accepting H1 when H0 holds).
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
}

impl Sprt {
    pub fn new(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    /// `(lower, upper)` log-likelihood-ratio bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Log-likelihood ratio of H1 over H0 for these results, by the
    /// normal approximation of the trinomial model (as used by Fishtest):
    /// `n (s1 - s0) (2 mean - s0 - s1) / (2 var)`.
    pub fn llr(&self, r: &Wdl) -> f64 {
        let n = r.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        // All games with one outcome have zero sample variance; one virtual
        // draw keeps the ratio finite (and decisive for lopsided results).
        let var = match r.variance() {
            v if v > 0.0 => v,
            _ => Wdl::new(r.wins, r.draws + 1, r.losses).variance(),
        };
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        n * (s1 - s0) * (2.0 * r.score() - s0 - s1) / (2.0 * var)
    }

    pub fn decide(&self, r: &Wdl) -> SprtDecision {
        let llr = self.llr(r);
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtDecision::AcceptH1
        } else if llr <= lo {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

/// Parses `elo0,elo1` (the `--sprt` flag).
pub fn parse_sprt(s: &str) -> Result<Sprt, crate::EvalError> {
    let parts: Vec<&str> = s.split(',').collect();
    let bad = || crate::SpecError::SprtFormat {
        text: s.to_string(),
    };
    if parts.len() != 2 {
        return Err(bad().into());
    }
    let e0: f64 = parts[0].trim().parse().map_err(|_| bad())?;
    let e1: f64 = parts[1].trim().parse().map_err(|_| bad())?;
    if !(e0.is_finite() && e1.is_finite()) || e0 >= e1 {
        return Err(crate::SpecError::SprtOrder {
            text: s.to_string(),
        }
        .into());
    }
    Ok(Sprt::new(e0, e1))
}

/// Ratings of several players fitted by maximum likelihood over all games
/// (Bradley–Terry with a draw as half a win and half a loss), anchored so
/// that the player `anchor` has rating 0. Each pair that played also gets
/// one virtual draw, a weak prior that keeps a player who won (or lost)
/// every game at a finite rating.
///
/// `results[i][j]` is player i's record against player j.
pub fn fit_ratings(results: &[Vec<Wdl>], anchor: usize) -> Vec<f64> {
    let n = results.len();
    // Score and game matrices with the prior.
    let mut score = vec![vec![0.0f64; n]; n];
    let mut games = vec![vec![0.0f64; n]; n];
    for i in 0..n {
        for j in 0..n {
            if i == j {
                continue;
            }
            let a = results[i][j];
            let b = results[j][i].flipped();
            let g = (a.games() + b.games()) as f64;
            if g > 0.0 {
                let s = a.wins as f64 + b.wins as f64 + 0.5 * (a.draws + b.draws) as f64;
                score[i][j] = s + 0.5;
                games[i][j] = g + 1.0;
            }
        }
    }
    // Minorisation–maximisation (Hunter 2004) on gamma = 10^(R/400).
    let mut gamma = vec![1.0f64; n];
    for _ in 0..10_000 {
        let mut max_change = 0.0f64;
        for i in 0..n {
            let w: f64 = score[i].iter().sum();
            let denom: f64 = (0..n)
                .filter(|&j| j != i && games[i][j] > 0.0)
                .map(|j| games[i][j] / (gamma[i] + gamma[j]))
                .sum();
            if denom > 0.0 && w > 0.0 {
                let new = w / denom;
                max_change = max_change.max((new / gamma[i]).ln().abs());
                gamma[i] = new;
            }
        }
        // Normalise to keep numbers in range.
        let g0 = gamma[anchor.min(n - 1)];
        for g in gamma.iter_mut() {
            *g /= g0;
        }
        if max_change < 1e-10 {
            break;
        }
    }
    let a = anchor.min(n.saturating_sub(1));
    let base = gamma[a].log10();
    gamma.iter().map(|g| 400.0 * (g.log10() - base)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_elo_and_interval() {
        // 60 wins, 20 draws, 20 losses: score 0.7, per-game variance 0.16,
        // standard error 0.04, score interval 0.7 ± 0.0784.
        let r = Wdl::new(60, 20, 20);
        assert!((r.score() - 0.7).abs() < 1e-12);
        assert!((r.variance() - 0.16).abs() < 1e-12);
        assert!((r.elo() - 147.19).abs() < 0.01, "{}", r.elo());
        let (lo, hi) = r.elo_ci95();
        // 400 log10(0.62160/0.37840) and 400 log10(0.77840/0.22160).
        assert!((lo - 86.22).abs() < 0.05, "{lo}");
        assert!((hi - 218.25).abs() < 0.05, "{hi}");
        // Even results: 0 Elo, symmetric interval.
        let e = Wdl::new(10, 0, 10);
        assert_eq!(e.elo(), 0.0);
        let (lo, hi) = e.elo_ci95();
        assert!((lo + hi).abs() < 1e-9);
        // A perfect score is unbounded.
        assert_eq!(Wdl::new(5, 0, 0).elo(), f64::INFINITY);
        assert!((score_from_elo(r.elo()) - 0.7).abs() < 1e-12);
    }

    #[test]
    fn sprt_decides_on_synthetic_results() {
        let t = Sprt::new(0.0, 50.0);
        let (lo, hi) = t.bounds();
        assert!((hi - (19.0f64).ln()).abs() < 1e-12 && (lo + (19.0f64).ln()).abs() < 1e-12);
        // A clearly stronger player: H1.
        assert_eq!(t.decide(&Wdl::new(300, 100, 100)), SprtDecision::AcceptH1);
        // Equal strength over many games: H0.
        assert_eq!(t.decide(&Wdl::new(400, 200, 400)), SprtDecision::AcceptH0);
        // A perfect score is decided, not stuck at zero variance.
        assert_eq!(t.decide(&Wdl::new(100, 0, 0)), SprtDecision::AcceptH1);
        assert_eq!(t.decide(&Wdl::new(0, 0, 100)), SprtDecision::AcceptH0);
        // Few games: keep going.
        assert_eq!(t.decide(&Wdl::new(3, 2, 2)), SprtDecision::Continue);
        // The LLR grows with evidence in the right direction.
        assert!(t.llr(&Wdl::new(60, 20, 20)) < t.llr(&Wdl::new(120, 40, 40)));
        assert!(parse_sprt("0,10").is_ok());
        assert!(parse_sprt("10,0").is_err());
        assert!(parse_sprt("x").is_err());
    }

    #[test]
    fn ratings_fit_recovers_a_known_difference() {
        // Player 1 scores 0.7 against player 0 (anchor): about +147 Elo,
        // slightly less because of the virtual draw.
        let mut res = vec![vec![Wdl::default(); 2]; 2];
        res[1][0] = Wdl::new(60, 20, 20);
        let r = fit_ratings(&res, 0);
        assert_eq!(r[0], 0.0);
        let prior = elo_from_score((70.0 + 0.5) / 101.0);
        assert!((r[1] - prior).abs() < 0.01, "{r:?} vs {prior}");
        // Three players in a chain: ratings are ordered and anchored.
        let mut res = vec![vec![Wdl::default(); 3]; 3];
        res[1][0] = Wdl::new(30, 0, 10);
        res[2][1] = Wdl::new(30, 0, 10);
        let r = fit_ratings(&res, 0);
        assert!(r[0] == 0.0 && r[1] > 100.0 && r[2] > r[1] + 100.0, "{r:?}");
        // A player who won everything stays finite.
        let mut res = vec![vec![Wdl::default(); 2]; 2];
        res[1][0] = Wdl::new(20, 0, 0);
        assert!(fit_ratings(&res, 0)[1].is_finite());
    }
}
