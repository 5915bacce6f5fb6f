//! `triad loop`: generations of self-play, training and evaluation in one
//! run directory, resumable by running the same command again. The loop
//! itself is `pipeline::Loop`; this reads the arguments and the run file,
//! picks the game and prints the ratings.

pub use ::cli::flags::run_loop::*;

use super::CliError;
use crate::cli::{print_either, stop_on_signal};
use crate::games::with_game;
use pipeline::roles::{in_run_folder, loop_game, prepare_loop, Finished, LoopRequest};
use pipeline::{gen_name, ratings};
use serde_json::{json, Value};

pub fn run(args: Args) -> Result<(), CliError> {
    let request = LoopRequest {
        generations: args.generations,
        minutes: args.minutes,
        open_ended: args.open_ended,
    };
    let stop = stop_on_signal();
    let json = args.json;
    let file = prepare_loop(&args.config, &request)?;
    let mut done = |done: &Finished| print_either(json, || to_json(done), || text(done));
    in_run_folder(&args.run, |dir| {
        with_game!(file.game.clone(), |g| {
            loop_game(&g, &file, dir, &request, &stop, &mut done)
        })
    })?;
    Ok(())
}

/// `--json`: generations, best network, ratings and suite.
fn to_json(done: &Finished) -> Value {
    let m = &done.summary.matches;
    let fitted = ratings::fitted(m);
    json!({
        "generations": done.summary.state.generation,
        "best": gen_name(done.summary.state.best),
        "ratings": m.players.iter().zip(&fitted).map(|(p, r)| json!({"player": p, "elo": eval::report::rounded_elo(*r)})).collect::<Vec<_>>(),
        "suite": done.suite,
    })
}

/// The text: the ratings table, the suite's error rates and the closing
/// line.
fn text(done: &Finished) -> String {
    let m = &done.summary.matches;
    let mut out = format!("{}\n", ratings::ratings_table(m, &ratings::fitted(m)));
    if !done.suite.is_empty() {
        out += &format!(
            "benchmark error rate (%), suite.csv:\n{}",
            pipeline::suite::csv(&done.suite)
        );
    }
    out += &format!(
        "run complete: {} (best network {})\n",
        done.run.display(),
        gen_name(done.summary.state.best)
    );
    out
}
