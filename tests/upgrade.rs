//! `triad data upgrade` on a real distributed run of the old layout
//! (`tests/fixtures/scale-run-v1`, written by the binary before the one run
//! layout): refused as it is by the readers, the trainer and a worker,
//! naming the upgrade; upgraded, it reads with the same rows as before and
//! its trainer resumes it; a second upgrade does nothing.

use crate::common::{json, refused_naming, triad};

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A copy of the fixture run in `dir`.
fn old_run(dir: &Path) -> PathBuf {
    let run = dir.join("run");
    fsio::copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/scale-run-v1/run"),
        &run,
    )
    .unwrap();
    run
}

#[test]
fn an_old_distributed_run_is_refused_then_upgraded_read_and_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let run = old_run(dir.path());
    let url = run.to_str().unwrap();
    let config = run.join("config.toml");
    let config = config.to_str().unwrap();
    let work = dir.path().join("work");
    let work = work.to_str().unwrap();

    // As it is: every role refuses it in one line naming the upgrade.
    refused_naming(&triad(&["data", "info", url]), url, "triad data upgrade");
    let trainer = ["trainer", "--config", config, "--run", url, "--work", work];
    refused_naming(&triad(&trainer), url, "triad data upgrade");
    let worker = ["worker", "--run", url, "--worker", "0", "--max-shards", "1"];
    refused_naming(&triad(&worker), url, "triad data upgrade");
    assert!(run.join("shards").is_dir(), "a refusal touches nothing");

    // Upgraded: the same rows as the old binary read (the fixture's README).
    let up = json(&triad(&["data", "upgrade", url, "--json"]));
    assert_eq!(up["renamed"], 9, "{up}");
    assert_eq!(up["latest"], true, "{up}");
    let info = json(&triad(&["data", "info", url, "--json"]));
    assert_eq!(
        (&info["shards"], &info["games"], &info["positions"]),
        (&4.into(), &16.into(), &275.into()),
        "{info}"
    );
    let late = json(&triad(&[
        "data",
        "info",
        url,
        "--generations",
        "1..",
        "--json",
    ]));
    assert_eq!(
        (&late["shards"], &late["games"], &late["positions"]),
        (&2.into(), &8.into(), &141.into()),
        "{late}"
    );
    // Twice: nothing to do.
    let again = triad(&["data", "upgrade", url]);
    assert!(
        String::from_utf8_lossy(&again.stdout).contains("nothing to do"),
        "{again:?}"
    );

    // The trainer resumes it (a new work folder: from the newest published
    // network, checked against its rewritten manifest) with a worker's
    // games, and plays generation 2 against generation 1.
    let mut w = Command::new(env!("CARGO_BIN_EXE_triad"))
        .args(worker)
        .args(["--games-per-shard", "4", "--poll", "0.3"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let out = triad(
        &[
            &trainer[..],
            &["--generations", "2", "--poll", "0.3", "--matches", "--json"],
        ]
        .concat(),
    );
    let t = json(&out);
    assert_eq!(t["published"], serde_json::json!([2]), "{t}");
    let w_out = w.wait().unwrap();
    assert!(w_out.success());
    assert!(run.join("networks/gen-0002.json").is_file());
    assert!(run.join("matches/gen-0002.json").is_file());
    assert_eq!(std::fs::read(run.join("LATEST")).unwrap(), b"gen-0002\n");
    let info = json(&triad(&["data", "info", url, "--json"]));
    assert_eq!(info["shards"], 5, "{info}");
}

/// The same run in an object store (SeaweedFS, when installed): copied,
/// then deleted, object by object; read by its URL with the same rows.
#[test]
fn an_old_run_in_a_bucket_is_upgraded_by_its_url() {
    let Some(s3) = store::testing::SeaweedFs::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let local = old_run(dir.path());
    let store = s3.open("old").unwrap();
    let local_store = store::Store::open(local.to_str().unwrap()).unwrap();
    for l in local_store.list("").unwrap() {
        let bytes = local_store.get(&l.key).unwrap().unwrap();
        store.put_new(&l.key, bytes).unwrap();
    }
    let url = s3.url_for("old");
    let run = |args: &[&str]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_triad"));
        c.args(args).env("TRIAD_CACHE", dir.path().join("cache"));
        s3.apply_env(&mut c);
        c.output().unwrap()
    };
    refused_naming(&run(&["data", "info", &url]), &url, "triad data upgrade");
    let up = json(&run(&["data", "upgrade", &url, "--json"]));
    assert_eq!(up["renamed"], 9, "{up}");
    let keys: Vec<String> = store.list("").unwrap().into_iter().map(|l| l.key).collect();
    assert_eq!(keys.len(), 12, "{keys:?}");
    assert!(
        keys.iter()
            .all(|k| !k.starts_with("shards/") && !k.starts_with("checkpoints/")),
        "{keys:?}"
    );
    let info = json(&run(&["data", "info", &url, "--json"]));
    assert_eq!(
        (&info["games"], &info["positions"]),
        (&16.into(), &275.into()),
        "{info}"
    );
    let again = json(&run(&["data", "upgrade", &url, "--json"]));
    assert_eq!(
        (&again["renamed"], &again["finished"]),
        (&0.into(), &0.into()),
        "{again}"
    );
}
