//! The long-running roles of triad, built from the layers below (KataGo's
//! `program/`): the loop of generations ([`run::Loop`]), self-play into
//! shards (the roles of [`roles`] and the worker of [`scale`], played
//! through `selfplay::shards`), a match between players ([`matchup`]), the
//! generation-match stage of the loop and the distributed trainer
//! ([`matches`](mod@matches)), the ratings of a run ([`ratings`]), its benchmark-suite
//! scores ([`suite`]) and the run file that
//! configures them all ([`config::RunConfig`]).
//!
//! Everything here is generic over the game (`game::Game`); the binary
//! picks the game once and calls in. Stages run in-process from the typed
//! config.

pub mod config;
mod error;
pub mod files;
mod input_error;
pub mod inputs;
pub mod layout;
pub mod lock;
pub mod loop_config;
pub mod matches;
pub mod matchup;
pub mod plot;
pub mod ratings;
pub mod roles;
pub mod run;
pub mod run_file;
pub mod scale;
pub mod suite;

pub use config::{GameSection, RunConfig};
pub use error::Error;
pub use input_error::InputError;
pub use run::{
    bar_with, gen_name, match_game_id, network_path, selfplay_game_id, Loop, LoopConfig, Stage,
    State, Summary,
};
pub use run_file::{load_game, load_run, Run};
