//! The one error of evaluation: a spec that cannot be read, an `[eval]`
//! value out of range, a player that cannot be built or fails, an openings
//! file that cannot be used, a position the game refuses. Each `Display`
//! is its message alone, one line.

use crate::search::EngineSpecError;
use std::path::PathBuf;

/// Why a match, a player or a setting of evaluation was refused.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// A player, engine or test spec that cannot be read (`--player`,
    /// `--players`, `--sprt`, the `[eval] ladder`).
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// An `[eval]` value out of range; it names the key.
    #[error(transparent)]
    Config(#[from] runfile::ConfigError),
    /// A player that cannot be built (a checkpoint of another game, ...)
    /// or that failed to move.
    #[error(transparent)]
    Player(#[from] PlayerError),
    /// An openings file (`--openings`, `[eval] openings`) that cannot be
    /// read, holds a bad position or none.
    #[error(transparent)]
    Openings(#[from] OpeningsError),
    /// A match without openings to play from.
    #[error("no openings to play from")]
    NoOpenings,
    /// A position the game refuses.
    #[error(transparent)]
    Game(#[from] game::GameError),
}

/// A player, engine or test spec that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// A player spec (`mcts:sims=0`, `net:`, `solver:depth=99`, ...) that
    /// does not read; `problem` says what is wrong with it.
    #[error("player `{spec}`: {problem}")]
    Player { spec: String, problem: String },
    /// A network player's option with a value it does not take.
    #[error("net player: {key}=`{value}` is not {expected}")]
    NetOption {
        key: &'static str,
        value: String,
        /// What the option takes (`true or false`, `a positive number`).
        expected: &'static str,
    },
    /// A network player's option that does not exist.
    #[error(
        "net player: unknown option `{key}` (known: sims, movetime, algorithm, cpuct, mate_check, solver, leaf_eval, reuse, symmetry, lcb)"
    )]
    UnknownNetOption { key: String },
    /// `net:…,algorithm=gumbel,movetime=MS` without `sims=`: Gumbel's
    /// sequential halving plans its simulations ahead, so it needs a
    /// budget that the time may cut short.
    #[error(
        "net player: movetime={movetime} with algorithm=gumbel needs sims=N as well (sequential halving plans its simulations ahead; the time may stop it sooner)"
    )]
    GumbelMovetimeWithoutSims { movetime: u64 },
    /// An alpha-beta engine spec (`ab:...`) that does not read.
    #[error(transparent)]
    Engine(#[from] EngineSpecError),
    /// `--players` with fewer than two players.
    #[error("--players needs at least two players")]
    TooFewPlayers,
    /// `--sprt` that is not two Elo values.
    #[error("--sprt \"{text}\": expected two Elo values like 0,10")]
    SprtFormat { text: String },
    /// `--sprt` whose first Elo value is not below its second.
    #[error("--sprt \"{text}\": elo0 must be below elo1")]
    SprtOrder { text: String },
}

/// A player that cannot be built or that failed while playing.
#[derive(Debug, thiserror::Error)]
pub enum PlayerError {
    /// `solver` for a game without a solver.
    #[error("player `{spec}`: the game `{game}` has no solver; use `ab:depth=N` or `mcts:sims=N`")]
    NoSolver { spec: String, game: &'static str },
    /// A network player where no networks can be built (`eval` alone).
    #[error("network player `{spec}` is not available here")]
    NoNetworks { spec: String },
    /// The network factory's refusal ([`crate::arena::players::NetFactory`]:
    /// a checkpoint of another game, a symmetry the game does not have,
    /// ...), typed by the crate that builds network players (`eval` does
    /// not depend on torch).
    #[error(transparent)]
    Network(Box<dyn std::error::Error + Send + Sync>),
    /// A player chose a move the game refuses.
    #[error("{player} played an illegal move: {source}")]
    IllegalMove {
        player: String,
        source: game::GameError,
    },
    /// The engine of `triad play` found no move.
    #[error("engine found no move")]
    NoMove,
    /// The engine of `triad play` chose an illegal move.
    #[error("the engine chose an illegal move {mv}")]
    IllegalChoice { mv: String },
    /// A network made no move in a benchmark position.
    #[error("{spec} made no move in benchmark position {position}")]
    NoSuiteMove { spec: String, position: usize },
    /// A worker thread panicked.
    #[error("a worker panicked")]
    WorkerPanicked,
}

/// An openings file that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    /// The file cannot be read.
    #[error("cannot read openings {}: {source}", path.display())]
    Unreadable {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A line that is not a position of the game.
    #[error("{}:{line}: {source}", path.display())]
    BadPosition {
        path: PathBuf,
        line: usize,
        source: game::GameError,
    },
    /// A line whose position is already over.
    #[error("{}:{line}: the game is already over there", path.display())]
    GameOver { path: PathBuf, line: usize },
    /// A file without a position.
    #[error("{}: no openings in the file", path.display())]
    Empty { path: PathBuf },
}

impl EvalError {
    /// The message alone (what `Display` writes).
    pub fn message(&self) -> String {
        self.to_string()
    }
}
