//! The `triad` command: argument parsing and dispatch only. Each subcommand
//! has its flags (`Args`, with their help text) in `cli/src/flags/<name>.rs`,
//! re-exported by `src/cmd/<name>.rs` beside its `run` function; the work
//! itself is done by the workspace crates.

mod cli;
mod cmd;
mod error;
mod games;

use clap::{Parser, Subcommand};

/// triad: a self-play reinforcement-learning toolkit for PiRaTeKnIcS (Triadic Chess) and its
/// family of games: Pirate Chess, Influence Chess, Connect Four.
///
/// Every subcommand has its own --help. Machine-readable output: --json
/// (stdout then holds exactly one JSON object). Exit status: 0 success,
/// 1 a failed check, 2 bad input.
#[derive(Parser)]
#[command(name = "triad", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The analysis engine for programs: JSON queries in, JSON answers out (KataGo's protocol).
    Analysis(cmd::analysis::Args),
    /// Search a position with the alpha-beta engine (per-depth lines, best move).
    Analyze(cmd::analyze::Args),
    /// Throughput benchmarks (model, search, ...).
    Bench(cmd::bench::Args),
    /// Check a run config (TOML) and print it with every default filled in.
    Config(cmd::config::Args),
    /// Self-play shards: summary (info) and one game in the inventor's notation (export).
    Data(cmd::data::Args),
    /// Opening explorer and game viewer in the browser (a local web server over shards).
    Explore(cmd::explore::Args),
    /// Matches between players (networks, alpha-beta levels, random): Elo, SPRT, ratings.
    Eval(cmd::eval::Args),
    /// The full loop: generations of self-play, training and evaluation in one run directory.
    Loop(cmd::run_loop::Args),
    /// Opening tree of a set of shards: lines, frequencies, results, chart.
    Openings(cmd::openings::Args),
    /// One player's move in one position (for outside programs driving triad's players).
    Move(cmd::choose::Args),
    /// Count the leaves of the legal-move tree (move generator check and benchmark).
    Perft(cmd::perft::Args),
    /// Play against the alpha-beta engine in the terminal.
    Play(cmd::play::Args),
    /// Plot a training run's curves (metrics.csv) to PNG or SVG.
    Plot(cmd::plot::Args),
    /// Replay a game record in the inventor's notation and report the result.
    Replay(cmd::replay::Args),
    /// Play games with batched MCTS (PUCT or Gumbel) and write them as Parquet shards.
    Selfplay(cmd::selfplay::Args),
    /// Draw a position in the terminal.
    Show(cmd::show::Args),
    /// Solve Connect Four positions exactly (Pons's scores, per column too).
    Solve(cmd::solve::Args),
    /// Train a network on self-play shards (resumable; metrics and checkpoints in a run directory).
    Train(cmd::train::Args),
    /// The trainer of a run in an object store, fed by `triad worker`s (docs/scale-out.md).
    Trainer(cmd::trainer::Args),
    /// A self-play worker of a run in an object store; any number, on any scheduler.
    Worker(cmd::worker::Args),
    /// Print the triad and libtorch versions, CUDA/MKL-DNN availability and thread counts.
    Version(cmd::version::Args),
}

fn main() {
    ::cli::end_quietly_on_closed_pipe();
    ::cli::keep_large_allocations();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Analysis(a) => cmd::analysis::run(a),
        Command::Analyze(a) => cmd::analyze::run(a),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Config(a) => cmd::config::run(a),
        Command::Data(a) => cmd::data::run(a),
        Command::Eval(a) => cmd::eval::run(a),
        Command::Explore(a) => cmd::explore::run(a),
        Command::Loop(a) => cmd::run_loop::run(a),
        Command::Openings(a) => cmd::openings::run(a),
        Command::Move(a) => cmd::choose::run(a),
        Command::Perft(a) => cmd::perft::run(a),
        Command::Play(a) => cmd::play::run(a),
        Command::Plot(a) => cmd::plot::run(a),
        Command::Replay(a) => cmd::replay::run(a),
        Command::Selfplay(a) => cmd::selfplay::run(a),
        Command::Show(a) => cmd::show::run(a),
        Command::Solve(a) => cmd::solve::run(a),
        Command::Train(a) => cmd::train::run(a),
        Command::Trainer(a) => cmd::trainer::run(a),
        Command::Worker(a) => cmd::worker::run(a),
        Command::Version(a) => cmd::version::run(a),
    };
    if let Err(e) = result {
        eprintln!("triad: {}", e.message);
        std::process::exit(e.code);
    }
}
