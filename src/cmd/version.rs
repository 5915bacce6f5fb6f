//! `triad version`: what this binary was built against and what it will use
//! at run time, the first thing to look at when a run is slower than expected
//! (CUDA missing, a single thread) or a build picked up the wrong libtorch.

pub use ::cli::flags::version::*;

use super::CliError;

/// This binary's version.
const TRIAD: &str = env!("CARGO_PKG_VERSION");

pub fn run(args: Args) -> Result<(), CliError> {
    // Read from the wheel's `torch/version.py` by `build.rs` at build time:
    // `2.11.0+cu130` gives libtorch `2.11.0` and build `cu130`.
    let r = model::runtime::Runtime::collect(env!("TRIAD_LIBTORCH_VERSION"));
    if args.json {
        let mut value = serde_json::to_value(&r)
            .map_err(|e| CliError::failed(format!("cannot convert the report to JSON: {e}")))?;
        if let Some(map) = value.as_object_mut() {
            map.insert("triad".to_string(), TRIAD.into());
        }
        super::print_json(&value);
    } else {
        println!("triad            {TRIAD}");
        print!("{}", r.text());
    }
    Ok(())
}
