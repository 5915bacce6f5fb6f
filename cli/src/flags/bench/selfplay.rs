//! The flags of `triad bench selfplay` (its `run` is `src/cmd/bench/selfplay.rs`).

use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    after_help = "Steps: (1) self-play warm-up, keeping the newest 8 batches of positions \
the network was asked about; (2) in four alternating slices: the raw forward on those real positions \
in batches of games_in_flight / 2 (the batch self-play sends) with the inputs ready \
(the network's throughput), the same with the encoding done first on the same \
thread, and self-play (its tree workers encode the leaves), counting network \
evaluations and the time spent inside the network. ratio = self-play / raw \
forward; network busy = time inside the network / self-play wall time; padded \
moves = a batch's widest move list, which sets the policy head's cost, in each phase. \
--compare adds self-play with the encoding on the network's thread.\n\n\
Examples:\n  triad bench selfplay --config configs/quickstart.toml\n  \
triad bench selfplay --config configs/quickstart.toml --seconds 20 --compare --json"
)]
pub struct Args {
    /// Run file with the [selfplay] and [model] sections.
    #[arg(long, value_name = "FILE")]
    pub config: PathBuf,
    /// Seconds of measurement for each of raw and self-play.
    #[arg(long, default_value_t = 10.0, value_name = "S")]
    pub seconds: f64,
    /// Also measure self-play with the encoding done on the network's
    /// thread (the old design), interleaved with the default, for a
    /// before/after comparison in one run.
    #[arg(long)]
    pub compare: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}
