//! The Slurm lane: `scripts/test-slurm.sh` on a one-node Slurm cluster on
//! this machine (docs/scale-out.md, "The Slurm lane"). It needs root (it
//! installs slurm-wlm and munge with apt-get when missing and runs munged,
//! slurmctld and slurmd), so it runs only under `TRIAD_TEST_SLURM=1`:
//!
//! ```sh
//! TRIAD_TEST_SLURM=1 cargo test --release --test cli slurm:: -- --nocapture
//! ```

use std::process::Command;

/// The variable that turns the lane on.
const GATE: &str = "TRIAD_TEST_SLURM";

#[test]
fn worker_sbatch_array_feeds_a_trainer() {
    if std::env::var(GATE).as_deref() != Ok("1") {
        eprintln!(
            "skipping the Slurm lane: set {GATE}=1 to run scripts/test-slurm.sh \
             (as root; it installs slurm-wlm and munge and starts a one-node cluster)"
        );
        return;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/test-slurm.sh");
    let mut cmd = Command::new("bash");
    cmd.arg(script);
    // The binary this test was built with, unless the caller names one.
    if std::env::var_os("TRIAD").is_none() {
        cmd.env("TRIAD", env!("CARGO_BIN_EXE_triad"));
    }
    let out = cmd.output().expect("bash runs scripts/test-slurm.sh");
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprint!("{stderr}");
    assert!(
        out.status.success(),
        "scripts/test-slurm.sh exited {:?}: {}",
        out.status.code(),
        stderr
            .lines()
            .rev()
            .find(|l| l.contains("FAIL"))
            .unwrap_or("(no FAIL line)")
    );
}
