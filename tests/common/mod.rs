//! Helpers shared by the end-to-end tests: running the binary and the
//! tiny run file every loop test starts from.
#![allow(dead_code)]

use std::process::Command;

/// Runs `triad` with `args`.
pub fn triad(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_triad"))
        .args(args)
        .output()
        .expect("triad runs")
}

/// `triad loop --config CONFIG --run RUN`.
pub fn run_loop(config: &std::path::Path, run: &std::path::Path) -> std::process::Output {
    triad(&[
        "loop",
        "--config",
        config.to_str().expect("a UTF-8 path"),
        "--run",
        run.to_str().expect("a UTF-8 path"),
    ])
}

/// Runs `triad` with `args`, `input` written to its standard input (then
/// closed), and returns its output.
pub fn triad_with_input(args: &[&str], input: &str) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_triad"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("triad runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("the input is written");
    child.wait_with_output().expect("triad ends")
}

/// Runs `triad` with `args` and asserts that it succeeded (the message is
/// its stderr).
pub fn succeeds(args: &[&str]) -> std::process::Output {
    let out = triad(args);
    assert!(
        out.status.success(),
        "triad {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

pub fn json(out: &std::process::Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "triad failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object on stdout")
}

/// Exit 2 with one line on stderr naming both `a` and `b`.
pub fn refused_naming(out: &std::process::Output, a: &str, b: &str) {
    let msg = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{msg}");
    assert!(msg.contains(a) && msg.contains(b), "{msg}");
}

/// A loop small enough for a test: one generation of 4 games on a 1-block
/// network.
pub const TINY: &str = r#"seed = 5
[model]
blocks = 1
channels = 8
[selfplay]
simulations = 8
cheap_simulations = 4
max_plies = 40
games_in_flight = 4
[train]
batch_size = 16
schedule = "constant"
warmup_steps = 0
checkpoint_every = 5
metrics_every = 1
[eval]
games = 2
simulations = 4
ladder = ["random"]
max_plies = 40
threads = 1
[loop]
generations = 1
games_per_generation = 4
train_steps_per_generation = 10
"#;
