//! `triad bench selfplay`: evaluations per second inside self-play against
//! the raw batched forward of the same network at the same batch size. The
//! ratio is the figure of merit of the batching design (ARCHITECTURE.md).
//! The harness is `bench::selfplay`.

use super::print_figures;
use crate::cmd::CliError;
use crate::games::with_game;
use ::bench::selfplay::{self as harness, SelfplayOptions};
use indicatif::{ProgressBar, ProgressStyle};
use selfplay::SelfplayConfig;
use std::path::PathBuf;
use std::time::Duration;

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
    config: PathBuf,
    /// Seconds of measurement for each of raw and self-play.
    #[arg(long, default_value_t = 10.0, value_name = "S")]
    seconds: f64,
    /// Also measure self-play with the encoding done on the network's
    /// thread (the old design), interleaved with the default, for a
    /// before/after comparison in one run.
    #[arg(long)]
    compare: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let game = pipeline::load_game(&args.config)?;
    if !(args.seconds > 0.0 && args.seconds.is_finite()) {
        return Err(CliError::input("--seconds must be a positive number"));
    }
    let config = SelfplayConfig::from_file(&args.config)?;
    let model = model::ModelConfig::from_file(&args.config)?;
    let options = SelfplayOptions {
        budget: Duration::from_secs_f64(args.seconds),
        compare: args.compare,
    };
    let bar = ProgressBar::new_spinner();
    bar.set_style(ProgressStyle::with_template("{spinner} {msg}").expect("valid template"));
    let f = with_game!(game, |g| harness::run(&g, &config, &model, &options, &bar))?;
    if args.json {
        print_figures(&f);
        return Ok(());
    }
    print!("{}", f.text());
    Ok(())
}
