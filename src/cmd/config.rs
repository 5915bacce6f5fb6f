//! `triad config FILE`: check a run config before spending time on it, and
//! show every setting the run will use, defaults included.

pub use ::cli::flags::config::*;

use super::CliError;
use pipeline::load_run;

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
