//! `triad data import`: the inventor's game and 1,000 Connect Four games
//! become imported shards that `triad data verify` passes and `triad
//! train` trains on, alone or beside self-play shards; a bad record is
//! reported by file and line and the rest kept.

use crate::common::{json, succeeds, triad};
use std::path::Path;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn repo(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(rel)
        .display()
        .to_string()
}

/// A 1-block network, tiny self-play and training.
fn tiny_config(game: &str) -> String {
    format!(
        "seed = 3\n[game]\nname = \"{game}\"\n[model]\nblocks = 1\nchannels = 8\nthreads = 1\n[selfplay]\nsimulations = 4\ncheap_simulations = 2\nmax_plies = 40\ngames_in_flight = 4\n[train]\nbatch_size = 16\nschedule = \"constant\"\nwarmup_steps = 0\ncheckpoint_every = 3\nmetrics_every = 1\n"
    )
}

/// `data verify` passes the shards.
fn verifies(paths: &[&Path]) {
    let mut args = vec!["data", "verify", "--json"];
    args.extend(paths.iter().map(|p| s(p)));
    let report = json(&triad(&args));
    assert_eq!(report["ok"], true, "{report}");
}

#[test]
fn imported_games_verify_and_train_alone_and_beside_self_play() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();

    // The inventor's game, with its resignation.
    let inventor = d.join("inventor.parquet");
    let r = json(&triad(&[
        "data",
        "import",
        &repo("games/piratechnics/vectors/sample-game-1.txt"),
        "--out",
        s(&inventor),
        "--json",
    ]));
    assert_eq!(r["games"], 1, "{r}");
    assert_eq!(r["rows"], 64, "{r}");
    assert_eq!(r["results"]["black_wins"], 1, "{r}");
    verifies(&[&inventor]);
    // An existing shard is never overwritten.
    let again = triad(&[
        "data",
        "import",
        &repo("games/piratechnics/vectors/sample-game-1.txt"),
        "--out",
        s(&inventor),
    ]);
    assert_eq!(again.status.code(), Some(2));

    // 1,000 Connect Four games and two bad lines: reported, the rest kept.
    let mut lines = std::fs::read_to_string(repo("tests/fixtures/connect4-games.txt")).unwrap();
    lines.push_str("4444444\n123x\n");
    let games = d.join("games.txt");
    std::fs::write(&games, &lines).unwrap();
    let c4 = d.join("c4.parquet");
    let out = triad(&[
        "data",
        "import",
        "--game",
        "connect4",
        "--format",
        "lines",
        s(&games),
        "--out",
        s(&c4),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("imported 1000 games ("), "{text}");
    assert!(text.contains("2 record(s) refused"), "{text}");
    let n = lines.lines().count();
    assert!(
        err.contains(&format!("games.txt:{}: move 7", n - 1)),
        "{err}"
    );
    assert!(
        err.contains(&format!("games.txt:{n}: move 4 \"x\"")),
        "{err}"
    );
    verifies(&[&c4]);

    // Training on the imported games alone, and beside self-play shards.
    let config = d.join("c4.toml");
    std::fs::write(&config, tiny_config("connect4")).unwrap();
    let sp = d.join("selfplay");
    succeeds(&[
        "selfplay",
        "--config",
        s(&config),
        "--games",
        "4",
        "--out",
        s(&sp),
    ]);
    let rows = |p: &Path| -> u64 {
        json(&triad(&["data", "info", s(p), "--json"]))["positions"]
            .as_u64()
            .unwrap()
    };
    let (imported, own) = (rows(&c4), rows(&sp));
    for (name, data) in [("alone", vec![s(&c4)]), ("mixed", vec![s(&sp), s(&c4)])] {
        let mut args = vec!["train", "--config", s(&config), "--steps", "3", "--json"];
        let out_dir = d.join(name);
        args.extend(["--out", s(&out_dir), "--data"]);
        args.extend(data.iter().copied());
        let t = json(&triad(&args));
        assert_eq!(t["final_step"], 3, "{t}");
        let expected = if name == "alone" {
            imported
        } else {
            imported + own
        };
        assert_eq!(t["window_positions"], expected, "{name}: {t}");
    }
    let pconfig = d.join("p.toml");
    std::fs::write(&pconfig, tiny_config("piratechnics")).unwrap();
    let t = json(&triad(&[
        "train",
        "--config",
        s(&pconfig),
        "--data",
        s(&inventor),
        "--out",
        s(&d.join("inventor-train")),
        "--steps",
        "3",
        "--json",
    ]));
    assert_eq!(t["final_step"], 3, "{t}");
    assert_eq!(t["window_positions"], 64, "{t}");
}
