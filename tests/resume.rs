//! Crash safety end to end: `kill -9` of `triad loop` at any stage and a
//! resume give the same run, byte for byte, as an uninterrupted one; a
//! second `triad train` on one output directory is refused and a killed
//! one's lock is taken over; `triad data export` never merges two games
//! that share an id. docs/reliability.md lists them.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The tiny run of tests/common over two generations.
fn two_generations() -> String {
    common::TINY.replace("generations = 1", "generations = 2")
}

/// `triad loop --config tiny.toml --run run` in `cwd`. The run directory is
/// given relative to the working directory so that two runs in two folders
/// record the same paths (a checkpoint's sidecar names its parent and its
/// window's shards, an evaluation game its `net:` players, by the path the
/// run was given).
fn loop_in(cwd: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_triad"));
    c.current_dir(cwd)
        .args(["loop", "--config", "tiny.toml", "--run", "run"]);
    c
}

/// A folder holding `tiny.toml` (`text`), where `loop_in` runs.
fn workspace(root: &Path, name: &str, text: &str) -> PathBuf {
    let cwd = root.join(name);
    std::fs::create_dir_all(&cwd).unwrap();
    std::fs::write(cwd.join("tiny.toml"), text).unwrap();
    cwd
}

/// Runs the loop in `cwd` to the end, asserting that it succeeds.
fn loop_to_the_end(cwd: &Path) {
    let out = loop_in(cwd).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Every file under `dir`, by its path relative to `dir` (`/`-separated).
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

/// `metrics.csv` without its `samples_per_s` column (the 6th).
fn metrics_without_speed(bytes: &[u8]) -> Vec<String> {
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    assert!(
        text.starts_with("step,loss,policy_loss,value_loss,lr,samples_per_s,"),
        "{text}"
    );
    text.lines()
        .map(|l| {
            let mut f: Vec<&str> = l.split(',').collect();
            f.remove(5);
            f.join(",")
        })
        .collect()
}

/// The loop's stage as saved in `run/state.json` (for the messages).
fn saved_stage(run: &Path) -> String {
    std::fs::read_to_string(run.join("state.json"))
        .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "no state.json".into())
}

/// Starts the loop in `cwd`, waits until `ready(run)` holds, then sends it
/// SIGKILL (no handler runs: nothing is flushed, no lock released).
/// Returns how long the kill took from the start.
fn kill_when(cwd: &Path, stage: &str, ready: impl Fn(&Path) -> bool) -> Duration {
    let run = cwd.join("run");
    let mut child = loop_in(cwd)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !ready(&run) {
        if let Some(status) = child.try_wait().unwrap() {
            panic!(
                "{stage}: the loop ended ({status}) before the stage was seen; state {}",
                saved_stage(&run)
            );
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{stage}: not reached after a minute"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    // Child::kill is SIGKILL on unix.
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(libc::SIGKILL),
        "{stage}: the loop had already ended ({status})"
    );
    let checkpoints: Vec<String> = std::fs::read_dir(run.join("train/checkpoints"))
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".json"))
                .collect()
        })
        .unwrap_or_default();
    eprintln!(
        "killed {stage} after {:?}; state.json: {}; checkpoints {checkpoints:?}",
        started.elapsed(),
        saved_stage(&run)
    );
    started.elapsed()
}

/// Whether the run's training wrote its checkpoint at `step` and logged a
/// metrics row after it (a row the resumed run must drop and log again).
fn trained_past(run: &Path, step: u64) -> bool {
    let sidecar = format!("train/checkpoints/step-{step:08}.json");
    run.join(sidecar).exists()
        && std::fs::read_to_string(run.join("train/metrics.csv")).is_ok_and(|t| {
            t.lines()
                .filter_map(|l| l.split(',').next()?.parse::<u64>().ok())
                .any(|s| s > step)
        })
}

/// Whether `dir` holds a file whose name ends with `suffix`.
fn holds(dir: &Path, suffix: &str) -> bool {
    std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .any(|e| e.file_name().to_string_lossy().ends_with(suffix))
        })
        .unwrap_or(false)
}

/// `kill -9` of `triad loop` during each stage of both generations
/// (self-play writing its shard, training between two checkpoints,
/// evaluation), resumed with the same command after each kill, ends with
/// a run directory identical to an uninterrupted run's: every shard,
/// checkpoint, sidecar, optimiser state, match table and rating, byte for
/// byte. The one exception is named below with its reason.
#[test]
fn kill_9_of_the_loop_at_every_stage_resumes_to_identical_bytes() {
    let root = tempfile::tempdir().unwrap();
    let a = workspace(root.path(), "a", &two_generations());
    loop_to_the_end(&a);

    let b = workspace(root.path(), "b", &two_generations());
    let shard_started = |g: &str| {
        let g = g.to_string();
        move |run: &Path| {
            holds(&run.join("games").join(&g), ".parquet.tmp")
                || holds(&run.join("games").join(&g), ".parquet")
        }
    };
    let file = |rel: &'static str| move |run: &Path| run.join(rel).exists();
    kill_when(&b, "in generation 1's self-play", shard_started("gen-0001"));
    kill_when(
        &b,
        "in generation 1's training (past its checkpoint at step 5)",
        |run: &Path| trained_past(run, 5),
    );
    kill_when(
        &b,
        "in generation 1's evaluation",
        file("networks/gen-0001.json"),
    );
    kill_when(&b, "in generation 2's self-play", shard_started("gen-0002"));
    kill_when(
        &b,
        "in generation 2's training (past its checkpoint at step 15)",
        |run: &Path| trained_past(run, 15),
    );
    kill_when(
        &b,
        "in generation 2's evaluation",
        file("networks/gen-0002.json"),
    );
    assert!(
        b.join("run/triad.lock").exists(),
        "a killed loop leaves its lock (stale, taken over by the resume)"
    );
    loop_to_the_end(&b);

    let (ta, tb) = (tree(&a.join("run")), tree(&b.join("run")));
    assert_eq!(
        ta.keys().collect::<Vec<_>>(),
        tb.keys().collect::<Vec<_>>(),
        "the same files, no temporary and no lock left"
    );
    for (name, bytes) in &ta {
        match name.as_str() {
            // Its samples_per_s column is the training speed measured by
            // the wall clock; every other column is identical.
            "train/metrics.csv" => {
                assert_eq!(
                    metrics_without_speed(bytes),
                    metrics_without_speed(&tb[name]),
                    "{name}"
                )
            }
            // Rates and shares measured in wall time (self-play's network
            // busy share, evaluations/s, training's samples/s): the rows
            // (generation, stage) are the same, the figures are not.
            "diagnostics.csv" => {
                let stages = |b: &[u8]| -> Vec<String> {
                    String::from_utf8_lossy(b)
                        .lines()
                        .map(|l| l.splitn(3, ',').take(2).collect::<Vec<_>>().join(","))
                        .collect()
                };
                assert_eq!(stages(bytes), stages(&tb[name]), "{name}");
            }
            // Wall-clock seconds per stage: the rows (generation, stage)
            // are the same, the seconds are not.
            "timings.csv" => {
                let stages = |b: &[u8]| -> Vec<String> {
                    String::from_utf8_lossy(b)
                        .lines()
                        .map(|l| l.rsplit_once(',').map_or(l, |(k, _)| k).to_string())
                        .collect()
                };
                assert_eq!(stages(bytes), stages(&tb[name]), "{name}");
            }
            _ => assert!(
                *bytes == tb[name],
                "{name} differs after kill -9 and resume"
            ),
        }
    }
    for must in [
        "games/gen-0001/selfplay-s5001-0000.parquet",
        "games/gen-0002/selfplay-s5002-0000.parquet",
        "train/checkpoints/step-00000020.optim.safetensors",
        "networks/gen-0002.safetensors",
        "networks/gen-0002.json",
        "eval/gen-0002.parquet",
        "matches.json",
        "ratings.csv",
        "state.json",
    ] {
        assert!(ta.contains_key(must), "{must} compared");
    }
}

/// A loop killed after it saved a generation's match results
/// (`matches.json`) but before it saved its state (`state.json`) plays
/// that evaluation again on resume: the results are recorded once, not
/// twice (they were added again, doubling that generation's games in the
/// ratings).
#[test]
fn an_evaluation_replayed_after_a_kill_is_counted_once() {
    let root = tempfile::tempdir().unwrap();
    let cwd = workspace(root.path(), "w", &two_generations());
    loop_to_the_end(&cwd);
    let run = cwd.join("run");
    let before = tree(&run);
    // The state saved just before generation 2's evaluation: the files
    // written after it (matches.json, ratings) are already there.
    std::fs::write(
        run.join("state.json"),
        "{\n  \"generation\": 2,\n  \"stage\": \"eval\",\n  \"best\": 1\n}",
    )
    .unwrap();
    loop_to_the_end(&cwd);
    let after = tree(&run);
    for name in [
        "matches.json",
        "ratings.csv",
        "ratings.md",
        "eval/gen-0002.parquet",
        "state.json",
    ] {
        assert!(
            before[name] == after[name],
            "{name}: {}\nthen\n{}",
            String::from_utf8_lossy(&before[name]),
            String::from_utf8_lossy(&after[name])
        );
    }
}

/// This machine's host name, as a lock file records it.
fn hostname() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is valid for its length.
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr() as *mut libc::c_char, buf.len()) };
    assert_eq!(rc, 0);
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

/// The newest checkpoint step in `train_dir/checkpoints` (by its sidecar).
fn last_checkpoint_step(train_dir: &Path) -> u64 {
    std::fs::read_dir(train_dir.join("checkpoints"))
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            name.strip_prefix("step-")?
                .strip_suffix(".json")?
                .parse()
                .ok()
        })
        .max()
        .expect("a checkpoint")
}

/// A second `triad train` into the `--out` of a running one is refused
/// (exit 2, one line naming the holder's command, pid and host) and leaves
/// the holder's lock alone; after `kill -9` of the first, its lock is stale
/// and `--resume` takes it over (saying so), continues from the last
/// checkpoint and releases the lock at the end.
#[test]
fn a_second_train_is_refused_and_a_killed_ones_lock_taken_over() {
    let dir = tempfile::tempdir().unwrap();
    let d = |p: &str| dir.path().join(p).to_str().unwrap().to_string();
    let config = d("tiny.toml");
    std::fs::write(&config, common::TINY).unwrap();
    let games = d("games");
    common::succeeds(&[
        "selfplay", "--config", &config, "--games", "2", "--out", &games,
    ]);
    let out = d("train");
    let train = |extra: &[&str]| {
        let mut args = vec![
            "train", "--config", &config, "--data", &games, "--out", &out,
        ];
        args.extend_from_slice(extra);
        args.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let mut first = Command::new(env!("CARGO_BIN_EXE_triad"))
        .args(train(&["--steps", "1000000"]))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let lock = dir.path().join("train").join("triad.lock");
    let checkpoint = dir.path().join("train/checkpoints/step-00000005.json");
    let started = Instant::now();
    while !checkpoint.exists() {
        assert!(first.try_wait().unwrap().is_none(), "the first train ended");
        assert!(started.elapsed() < Duration::from_secs(60), "no checkpoint");
        std::thread::sleep(Duration::from_millis(10));
    }
    let held = std::fs::read_to_string(&lock).unwrap();

    let second = common::triad(
        &train(&["--resume", "--steps", "10"])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    let err = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(2), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    let holder = format!(
        "in use by triad train (pid {} on {})",
        first.id(),
        hostname()
    );
    assert!(err.contains(&holder), "{err}");
    assert!(err.contains(&out), "{err}");
    assert_eq!(
        std::fs::read_to_string(&lock).unwrap(),
        held,
        "lock untouched"
    );

    // kill -9: no handler runs, the lock stays behind, stale. The child is
    // reaped (a zombie's pid still answers signal 0, as a live one).
    first.kill().unwrap();
    first.wait().unwrap();
    assert_eq!(std::fs::read_to_string(&lock).unwrap(), held);
    let at = last_checkpoint_step(&dir.path().join("train"));
    let total = (at + 3).to_string();
    let resumed = common::triad(
        &train(&["--resume", "--steps", &total, "--json"])
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    let err = String::from_utf8_lossy(&resumed.stderr);
    assert!(
        err.contains(&format!(
            "took over the stale lock of process {}",
            first.id()
        )),
        "{err}"
    );
    let v = common::json(&resumed);
    assert_eq!(v["steps_run"], 3, "{v}");
    assert_eq!(v["final_step"], at + 3, "{v}");
    assert!(!lock.exists(), "the lock is released at the end");
}

/// The same game id in the shards of two runs (`triad data export A B
/// --game N`): the two games are not merged into one record; the export is
/// refused (exit 2) naming both shards and saying to give one, and given
/// one shard it exports that shard's game, the same record as from its
/// run alone.
#[test]
fn data_export_of_an_id_in_two_shards_is_refused_and_one_shard_picks_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let d = |p: &str| dir.path().join(p).to_str().unwrap().to_string();
    let config = d("tiny.toml");
    std::fs::write(&config, common::TINY).unwrap();
    let (a, b) = (d("a"), d("b"));
    for (out, seed) in [(&a, "1"), (&b, "2")] {
        common::succeeds(&[
            "selfplay", "--config", &config, "--games", "2", "--seed", seed, "--out", out,
        ]);
    }
    let shard = |run: &str, seed: &str| format!("{run}/selfplay-s{seed}-0000.parquet");
    let (sa, sb) = (shard(&a, "1"), shard(&b, "2"));
    assert!(Path::new(&sa).exists() && Path::new(&sb).exists());
    // Both runs number their games from 0.
    for s in [&sa, &sb] {
        assert!(data::read_shard(Path::new(s))
            .unwrap()
            .iter()
            .any(|r| r.game_id == 0));
    }

    let out = common::triad(&["data", "export", &a, &b, "--game", "0"]);
    common::refused_naming(&out, &sa, &sb);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("give the one shard"), "{err}");
    assert!(out.stdout.is_empty(), "nothing exported");

    let export = |paths: &[&str]| {
        let mut args = vec!["data", "export"];
        args.extend_from_slice(paths);
        args.extend_from_slice(&["--game", "0"]);
        String::from_utf8(common::succeeds(&args).stdout).unwrap()
    };
    let (ga, gb) = (export(&[&sa]), export(&[&sb]));
    assert_eq!(ga, export(&[&a]), "shard A's game is run A's game 0");
    assert_eq!(gb, export(&[&b]), "shard B's game is run B's game 0");
    assert_ne!(ga, gb, "two different games (seeds 1 and 2)");
    // The record replays: it is one whole game, not two interleaved.
    let file = d("a0.txt");
    std::fs::write(&file, &ga).unwrap();
    common::succeeds(&["replay", &file]);
}
