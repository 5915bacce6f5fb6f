//! A player's error rate on a game's benchmark positions (`triad bench
//! pons`: Pascal Pons's Connect Four files), by AlphaZero.jl's definition:
//! an error when the outcome class (win, draw, loss: the sign of the exact
//! value) of the chosen move is worse than the best move's. Any winning
//! move is right, however slow; in a lost position nothing is an error.
//! The scoring is `eval::suite`, which the loop's `[eval] suite` runs every
//! generation; this adds the timing and the figures.

use crate::Error;
use eval::arena::players::{NetFactory, PlayerSpec};
use eval::suite::{score_suite, SuiteMiss};
use game::{AlphaBetaState, Game, SuiteFile};
use indicatif::ProgressBar;
use serde::Serialize;
use std::time::Instant;

/// Which positions, and how many at once.
#[derive(Clone, Debug)]
pub struct PonsOptions {
    /// Positions per file: every k-th line so that about this many are
    /// used (`None`: all).
    pub sample: Option<usize>,
    /// Positions played at once.
    pub threads: usize,
    /// List the positions the player erred in (`--misses`).
    pub misses: bool,
}

/// One file's score.
#[derive(Clone, Debug, Serialize)]
pub struct PonsFile {
    /// The file's name.
    pub file: String,
    /// Its stage of the game.
    pub stage: String,
    /// Positions played.
    pub positions: usize,
    /// Moves worse than the best.
    pub errors: usize,
    /// Errors over positions.
    pub error_rate: f64,
    /// Wall seconds the file took.
    pub seconds: f64,
    /// The positions erred in, in file order (with `misses` only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missed: Vec<SuiteMiss>,
}

/// The figures of `triad bench pons` (its `--json` object).
#[derive(Clone, Debug, Serialize)]
pub struct PonsFigures {
    /// The player, as its spec writes it.
    pub player: String,
    /// Each file's score.
    pub files: Vec<PonsFile>,
    /// Wall seconds of the whole run.
    pub seconds: f64,
    /// Positions played over all files.
    #[serde(skip)]
    pub positions: usize,
}

/// Scores `spec` (built with `nets` for `net:` players) on the sampled
/// positions of `files`; `bar` counts the positions (its length is set
/// here) and names the file under way.
pub fn run<G: Game>(
    game: &G,
    spec: &PlayerSpec,
    nets: Option<&dyn NetFactory<G>>,
    files: &[SuiteFile<G::State>],
    options: &PonsOptions,
    bar: &ProgressBar,
) -> Result<PonsFigures, Error>
where
    G::State: AlphaBetaState,
{
    let total: usize = files.iter().map(|f| f.sample(options.sample).len()).sum();
    bar.set_length(total as u64);
    let start = Instant::now();
    let rows = score_suite(
        game,
        spec,
        nets,
        files,
        options.sample,
        options.threads,
        &|name| {
            bar.set_message(name.to_string());
            bar.inc(1);
        },
    )?;
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    Ok(PonsFigures {
        player: spec.to_string(),
        files: rows
            .iter()
            .map(|r| PonsFile {
                file: r.file.clone(),
                stage: r.stage.clone(),
                positions: r.positions,
                errors: r.errors,
                error_rate: r.error_rate(),
                seconds: r.seconds,
                missed: if options.misses {
                    r.missed.clone()
                } else {
                    Vec::new()
                },
            })
            .collect(),
        seconds,
        positions: total,
    })
}
