//! `triad config FILE`: check a run config before spending time on it, and
//! show every setting the run will use, defaults included.

use super::CliError;
use pipeline::load_run;
use std::path::PathBuf;

/// Check a run config (TOML) and print it with every default filled in.
///
/// An unknown key or a bad value in any section is an error (exit 2)
/// naming the file and the key. See docs/config.md, which also names the
/// five [train] keys printed only when set away from their defaults.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  triad config configs/quickstart.toml\n  triad config run.toml --json"
)]
pub struct Args {
    /// The run config, e.g. configs/quickstart.toml.
    file: PathBuf,
    /// Print the resolved config as one JSON object instead of TOML.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let run = load_run(&args.file)?;
    let mut config = run.config;
    config.game = config.game.resolved(&run.game);
    if args.json {
        let value = serde_json::to_value(&config)
            .map_err(|e| CliError::failed(format!("cannot convert config to JSON: {e}")))?;
        super::print_json(&value);
    } else {
        let text = toml::to_string(&config)
            .map_err(|e| CliError::failed(format!("cannot print config as TOML: {e}")))?;
        print!("{text}");
    }
    Ok(())
}
