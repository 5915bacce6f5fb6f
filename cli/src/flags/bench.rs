//! The flags of `triad bench` (its `run` is `src/cmd/bench/mod.rs`).

pub mod data;
pub mod env;
pub mod learn;
pub mod model;
pub mod pons;
pub mod search;
pub mod selfplay;
pub mod train;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub which: Which,
}

#[derive(clap::Subcommand)]
pub enum Which {
    /// Shards: rows written and read per second, bytes per position, opening-tree time.
    Data(data::Args),
    /// Environment loops (the Python package's, in Rust): random-play moves/s, with observations, batch encoding.
    Env(env::Args),
    /// Learning: two run files' loops from scratch under one seed and budget, strength against minutes.
    Learn(learn::Args),
    /// Raw forward evaluations per second of the network, by batch size.
    Model(model::Args),
    /// Connect Four: a player's error rate on Pascal Pons's benchmark positions (AlphaZero.jl's measure).
    Pons(pons::Args),
    /// Alpha-beta search speed: nodes per second and depth reached per second.
    Search(search::Args),
    /// Self-play evaluations per second against the raw batched forward at the same batch size.
    Selfplay(selfplay::Args),
    /// Trainer: raw forward+backward+optimiser samples/s, the real loop on shards, their ratio.
    Train(train::Args),
}
