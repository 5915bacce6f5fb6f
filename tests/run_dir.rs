//! End-to-end: a run directory is one argument. `triad data info`,
//! `triad openings` and `triad train --data` read a run's self-play shards
//! (`games/gen-NNNN/*.parquet`, not `eval/`), all generations or a range.

use crate::common::{json, triad, TINY};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The tiny run of tests/common, over two generations.
fn tiny_two() -> String {
    TINY.replace("generations = 1", "generations = 2")
}

/// The self-play shards of generations `gens` of `run`, read with the data
/// crate directly.
fn self_play_shards(run: &Path, gens: &[u32]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for g in gens {
        let dir = run.join("games").join(format!("gen-{g:04}"));
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.to_string_lossy().ends_with(".parquet") {
                out.push(p);
            }
        }
    }
    out
}

/// Games counted as distinct (shard, game_id) pairs, so that two
/// generations numbering their games alike still count as many games.
fn count_games(shards: &[PathBuf]) -> (u64, u64) {
    let mut games = BTreeSet::new();
    let mut rows = 0u64;
    for s in shards {
        for r in data::read_shard(s).unwrap() {
            games.insert((s.clone(), r.game_id));
            rows += 1;
        }
    }
    (games.len() as u64, rows)
}

fn assert_bad_input(out: &std::process::Output, flag: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains(flag), "{err}");
}

#[test]
fn a_run_directory_is_one_argument() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("tiny.toml");
    std::fs::write(&cfg, tiny_two()).unwrap();
    let run = dir.path().join("run");
    let (c, r) = (cfg.to_str().unwrap(), run.to_str().unwrap());
    let v = json(&triad(&["loop", "--config", c, "--run", r, "--json"]));
    assert_eq!(v["generations"], 2);
    assert!(run.join("eval/gen-0001.parquet").exists());

    let all = self_play_shards(&run, &[1, 2]);
    let (games, positions) = count_games(&all);
    assert!(games >= 8, "4 games a generation, {games} found");
    let (games2, positions2) = count_games(&self_play_shards(&run, &[2]));
    assert!(games2 >= 4 && games2 < games);
    let (eval_games, _) = count_games(&[run.join("eval/gen-0001.parquet")]);
    assert!(eval_games > 0);

    // The run directory and its games/ folder: every generation, no eval.
    let games_dir = run.join("games");
    for path in [r, games_dir.to_str().unwrap()] {
        let info = json(&triad(&["data", "info", path, "--json"]));
        assert_eq!(info["games"], games, "{path}: {info}");
        assert_eq!(info["positions"], positions, "{path}: {info}");
        assert_eq!(info["shards"], all.len(), "{path}: {info}");
        let tree = json(&triad(&[
            "openings", path, "--plies", "1", "--format", "json",
        ]));
        assert_eq!(tree["games"], games, "{path}: {tree}");
    }

    // A range of generations.
    for range in ["2", "2..", "2..2", "2..9"] {
        let info = json(&triad(&[
            "data",
            "info",
            r,
            "--generations",
            range,
            "--json",
        ]));
        assert_eq!(info["games"], games2, "{range}: {info}");
        assert_eq!(info["positions"], positions2, "{range}: {info}");
        let tree = json(&triad(&[
            "openings",
            r,
            "--plies",
            "1",
            "--format",
            "json",
            "--generations",
            range,
        ]));
        assert_eq!(tree["games"], games2, "{range}: {tree}");
    }
    let info = json(&triad(&[
        "data",
        "info",
        r,
        "--generations",
        "..2",
        "--json",
    ]));
    assert_eq!(info["games"], games);
    let info = json(&triad(&[
        "data",
        "info",
        r,
        "--generations",
        "..1",
        "--json",
    ]));
    assert_eq!(info["games"], games - games2);

    // Bad ranges: exit 2, one line naming the flag.
    for bad in ["5..2", "x", "1..y", ".."] {
        assert_bad_input(
            &triad(&["data", "info", r, "--generations", bad]),
            "--generations",
        );
        assert_bad_input(
            &triad(&["openings", r, "--generations", bad]),
            "--generations",
        );
        assert_bad_input(
            &triad(&[
                "train",
                "--config",
                c,
                "--data",
                r,
                "--generations",
                bad,
                "--out",
                dir.path().join("never").to_str().unwrap(),
            ]),
            "--generations",
        );
    }
    assert!(!dir.path().join("never").exists());
    // No shard of those generations.
    assert_bad_input(
        &triad(&["data", "info", r, "--generations", "7.."]),
        "--generations",
    );

    // train --data RUN --generations 2 trains on generation 2's shards only.
    let out = dir.path().join("late");
    let t = json(&triad(&[
        "train",
        "--config",
        c,
        "--data",
        r,
        "--generations",
        "2",
        "--steps",
        "1",
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(t["window_positions"], positions2, "{t}");
    let sidecar = std::fs::read_to_string(out.join("checkpoints/step-00000001.json")).unwrap();
    let sidecar: serde_json::Value = serde_json::from_str(&sidecar).unwrap();
    let used = sidecar["metadata"]["window_shards"].as_array().unwrap();
    assert!(!used.is_empty());
    for s in used {
        assert!(s.as_str().unwrap().contains("gen-0002"), "{sidecar}");
    }
}
