//! A run in an object store: `triad trainer` and `triad worker` as separate
//! processes, against a real S3 server (SeaweedFS on loopback, started by
//! `store::testing`) and against a local folder. Two generations with two
//! workers (every shard once, every game id once, the workers switch to
//! generation 1), a second trainer fenced off, `kill -9` of workers leaving
//! no partial object and a restarted worker going on, an unreachable store
//! retried with backoff and said, SIGTERM uploading finished games, and the
//! Ray entry point's local mode (docs/scale-out.md).

use crate::common;

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use store::testing::SeaweedFs;
use store::Store;

const TINY: &str = r#"seed = 5
[game]
name = "connect4"
[model]
blocks = 1
channels = 8
[selfplay]
simulations = 8
cheap_simulations = 4
max_plies = 42
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
max_plies = 42
threads = 1
[loop]
generations = 2
games_per_generation = 8
train_steps_per_generation = 10
"#;

/// Where a test's run lives: a local folder, or a prefix on the S3 server.
enum Place<'a> {
    Local(PathBuf),
    S3(&'a SeaweedFs, String),
}

impl Place<'_> {
    fn url(&self) -> String {
        match self {
            Place::Local(p) => p.display().to_string(),
            Place::S3(s3, prefix) => s3.url_for(prefix),
        }
    }
    fn store(&self) -> Store {
        match self {
            Place::Local(p) => Store::open(p.to_str().unwrap()).unwrap(),
            Place::S3(s3, prefix) => s3.open(prefix).unwrap(),
        }
    }
    fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_triad"));
        c.args(args);
        if let Place::S3(s3, _) = self {
            s3.apply_env(&mut c);
        }
        c
    }
    fn spawn(&self, args: &[&str], log: &Path) -> Child {
        self.command(args)
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(log).unwrap())
            .spawn()
            .expect("triad starts")
    }
    /// `triad worker --run RUN --worker INDEX EXTRA…`
    fn worker(&self, index: &str, extra: &[&str], log: &Path) -> Child {
        let url = self.url();
        let mut args = vec!["worker", "--run", &url, "--worker", index];
        args.extend_from_slice(extra);
        self.spawn(&args, log)
    }
    /// `triad trainer --config CONFIG --run RUN EXTRA…`
    fn trainer(&self, config: &Path, extra: &[&str], log: &Path) -> Child {
        let url = self.url();
        let config = config.to_str().unwrap();
        let mut args = vec!["trainer", "--config", config, "--run", &url];
        args.extend_from_slice(extra);
        self.spawn(&args, log)
    }
}

/// Both places: the local folder always, S3 when SeaweedFS is installed
/// (else said and skipped; TRIAD_REQUIRE_S3=1 makes that a failure).
fn each_place(test: impl Fn(&Place, &Path)) {
    let dir = tempfile::tempdir().unwrap();
    let local = Place::Local(dir.path().join("run"));
    eprintln!("-- local folder");
    test(&local, dir.path());
    if let Some(s3) = SeaweedFs::start() {
        eprintln!("-- s3 (SeaweedFS)");
        let dir = tempfile::tempdir().unwrap();
        test(&Place::S3(&s3, "run".into()), dir.path());
    }
}

/// A SeaweedFS server, a temporary folder and the tiny run file in it
/// (`None` without SeaweedFS, said by `SeaweedFs::start`).
fn s3_setup() -> Option<(SeaweedFs, tempfile::TempDir, PathBuf)> {
    let s3 = SeaweedFs::start()?;
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("tiny.toml");
    std::fs::write(&cfg, TINY).unwrap();
    Some((s3, dir, cfg))
}

fn wait_for(what: &str, secs: u64, mut ok: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while !ok() {
        assert!(
            Instant::now() < deadline,
            "waited {secs} s in vain for {what}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Waits for `child` at most `secs` seconds (killing it and failing after).
fn finish_within(mut child: Child, secs: u64, what: &str) -> (Option<i32>, Value) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{what} did not finish within {secs} s");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    finish(child)
}

fn finish(child: Child) -> (Option<i32>, Value) {
    let out = child.wait_with_output().unwrap();
    let v = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code(), v)
}

fn sigterm(child: &Child) {
    // SAFETY: signalling a child process we own by its pid.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
}

fn keys(store: &Store, prefix: &str) -> Vec<String> {
    store
        .list(prefix)
        .unwrap()
        .into_iter()
        .map(|l| l.key)
        .collect()
}

/// Every shard of the run reads whole; returns (shards, rows, game ids).
fn check_shards(store: &Store, dir: &Path) -> (usize, u64, BTreeSet<u64>) {
    let mut ids = BTreeSet::new();
    let (mut shards, mut rows) = (0, 0);
    for key in keys(store, "games/") {
        let bytes = store.get(&key).unwrap().unwrap();
        let path = dir.join("check.parquet");
        std::fs::write(&path, &bytes).unwrap();
        let records =
            data::read_shard(&path).unwrap_or_else(|e| panic!("{key} does not read whole: {e}"));
        let mine: BTreeSet<u64> = records.iter().map(|r| r.game_id).collect();
        for id in &mine {
            assert!(
                ids.insert(*id),
                "game id {id} of {key} is in another shard too"
            );
        }
        shards += 1;
        rows += records.len() as u64;
    }
    (shards, rows, ids)
}

#[test]
fn a_trainer_and_two_workers_run_two_generations() {
    each_place(|place, dir| {
        let cfg = dir.join("tiny.toml");
        std::fs::write(&cfg, TINY).unwrap();
        let url = place.url();
        let store = place.store();
        let work = dir.join("trainer-work");
        let trainer = |generations: &str| {
            place.trainer(
                &cfg,
                &[
                    "--work",
                    work.to_str().unwrap(),
                    "--poll",
                    "0.3",
                    "--json",
                    "--matches",
                    "--generations",
                    generations,
                ],
                &dir.join(format!("trainer{generations}.log")),
            )
        };
        let first = trainer("1");
        let workers: Vec<Child> = (0..2)
            .map(|i| {
                place.worker(
                    &i.to_string(),
                    &["--games-per-shard", "4", "--poll", "0.3", "--json"],
                    &dir.join(format!("worker{i}.log")),
                )
            })
            .collect();
        let (code, t) = finish_within(first, 300, "the trainer");
        let log = std::fs::read_to_string(dir.join("trainer1.log")).unwrap();
        assert_eq!(code, Some(0), "trainer: {log}");
        assert_eq!(t["published"], serde_json::json!([0, 1]), "{t}");
        // Both workers switch to generation 1 while it is the newest; then
        // the trainer resumes from its work folder for generation 2.
        wait_for("both workers playing generation 1", 120, || {
            let k = keys(&store, "games/gen-0001/");
            k.iter().any(|k| k.contains("/w0000-")) && k.iter().any(|k| k.contains("/w0001-"))
        });
        let (code, t) = finish_within(trainer("2"), 300, "the resumed trainer");
        assert_eq!(code, Some(0), "{t}");
        assert_eq!(t["published"], serde_json::json!([2]), "{t}");
        // The workers go on until told: SIGTERM, then they upload and exit 0.
        wait_for("a shard of generation 2's network", 120, || {
            !keys(&store, "games/gen-0002/").is_empty()
        });
        let mut reports = Vec::new();
        for (i, w) in workers.into_iter().enumerate() {
            sigterm(&w);
            let (code, v) = finish(w);
            let log = std::fs::read_to_string(dir.join(format!("worker{i}.log"))).unwrap();
            assert_eq!(code, Some(0), "worker {i}: {log}");
            assert_eq!(v["interrupted"], true, "{v}");
            let gens = v["generations"].as_array().unwrap();
            assert_eq!(gens[0], 0, "worker {i} began with generation 0: {v}");
            assert!(
                gens.contains(&1.into()),
                "worker {i} switched to generation 1: {v}"
            );
            assert!(log.contains("checksum verified"), "{log}");
            reports.push(v);
        }
        // Every shard landed once and reads whole; game ids are unique in
        // the run; each worker's count is what the store holds of it.
        let (shards, rows, ids) = check_shards(&store, dir);
        let reported: u64 = reports.iter().map(|v| v["shards"].as_u64().unwrap()).sum();
        assert_eq!(shards as u64, reported);
        let games: u64 = reports.iter().map(|v| v["games"].as_u64().unwrap()).sum();
        assert_eq!(ids.len() as u64, games);
        assert_eq!(
            rows,
            reports
                .iter()
                .map(|v| v["rows"].as_u64().unwrap())
                .sum::<u64>()
        );
        for (i, report) in reports.iter().enumerate() {
            let mine = keys(&store, "games/")
                .into_iter()
                .filter(|k| k.contains(&format!("/w000{i}-")))
                .count() as u64;
            assert_eq!(mine, report["shards"].as_u64().unwrap());
        }
        // The trainer ingested what was there when it trained.
        assert!(t["rows_ingested"].as_u64().unwrap() >= 16);
        assert_eq!(
            keys(&store, "networks/")
                .iter()
                .filter(|k| k.ends_with(".json"))
                .count(),
            3
        );
        // The readers take the run as one argument, a URL or a path: every
        // game once, and --generations over the run's gen-NNNN folders.
        let read = |args: &[&str]| -> Value {
            let out = place
                .command(args)
                .env("TRIAD_CACHE", dir.join("cache"))
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            serde_json::from_slice(&out.stdout).unwrap()
        };
        let n = ids.len() as u64;
        assert_eq!(read(&["data", "info", &url, "--json"])["games"], n);
        assert_eq!(
            read(&["openings", &url, "--plies", "1", "--format", "json"])["games"],
            n
        );
        assert_eq!(read(&["explore", &url, "--index-only"])["games"], n);
        let late = read(&["data", "info", &url, "--generations", "1..", "--json"]);
        let early = read(&["data", "info", &url, "--generations", "0", "--json"]);
        assert_eq!(
            late["games"].as_u64().unwrap() + early["games"].as_u64().unwrap(),
            n
        );
        assert_eq!(store.get("LATEST").unwrap().unwrap(), b"gen-0002\n");
        // --matches: each generation against the previous and the ladder.
        for g in ["gen-0001", "gen-0002"] {
            let m: Value = serde_json::from_slice(
                &store
                    .get(&format!("matches/{g}.json"))
                    .unwrap()
                    .expect("matches"),
            )
            .unwrap();
            let results = m["results"].as_array().unwrap();
            assert_eq!(results.len(), 2, "{m}");
            for r in results {
                let games =
                    r[1].as_u64().unwrap() + r[2].as_u64().unwrap() + r[3].as_u64().unwrap();
                assert_eq!(games, 2, "{m}");
            }
        }
        let ratings = String::from_utf8(store.get("ratings.md").unwrap().unwrap()).unwrap();
        assert!(
            ratings.contains("gen-0002") && ratings.contains("random"),
            "{ratings}"
        );
        assert_eq!(store.get("config.toml").unwrap().unwrap(), TINY.as_bytes());
    });
}

#[test]
fn a_second_trainer_on_the_run_is_fenced_off() {
    each_place(|place, dir| {
        let cfg = dir.join("tiny.toml");
        std::fs::write(&cfg, TINY).unwrap();
        let url = place.url();
        let trainers: Vec<Child> = (0..2)
            .map(|i| {
                let work = dir.join(format!("work{i}"));
                place.trainer(
                    &cfg,
                    &[
                        "--work",
                        work.to_str().unwrap(),
                        "--poll",
                        "0.3",
                        "--generations",
                        "1",
                    ],
                    &dir.join(format!("trainer{i}.log")),
                )
            })
            .collect();
        // The worker starts once each trainer has read the run's networks
        // and either waits for games of generation 1 or was fenced off
        // publishing generation 0: a trainer that read them only after the
        // other had finished the generation would find the run done and
        // exit 0, fenced off from nothing (seen in CI, where "trainer: run"
        // was printed well before the read). Neither can pass generation 1
        // without the worker's games, so this wait always ends.
        wait_for(
            "both trainers to wait for games or be fenced off",
            120,
            || {
                (0..2).all(|i| {
                    std::fs::read_to_string(dir.join(format!("trainer{i}.log"))).is_ok_and(|log| {
                        log.contains("generation 1: 0 of") || log.contains("fenced off")
                    })
                })
            },
        );
        let worker = place.worker(
            "0",
            &["--games-per-shard", "4", "--poll", "0.3"],
            &dir.join("worker.log"),
        );
        let codes: Vec<Option<i32>> = trainers
            .into_iter()
            .map(|t| finish_within(t, 300, "a trainer").0)
            .collect();
        sigterm(&worker);
        assert_eq!(finish(worker).0, Some(0));
        let logs: Vec<String> = (0..2)
            .map(|i| std::fs::read_to_string(dir.join(format!("trainer{i}.log"))).unwrap())
            .collect();
        let fenced: Vec<usize> = (0..2).filter(|&i| codes[i] == Some(2)).collect();
        assert_eq!(
            fenced.len(),
            1,
            "exactly one trainer fenced off: {codes:?} {logs:?}"
        );
        let loser = &logs[fenced[0]];
        assert!(loser.contains("fenced off"), "{loser}");
        assert_eq!(codes[1 - fenced[0]], Some(0), "{logs:?}");
        // A trainer started on the finished run says there is nothing to do.
        let cfg_arg = cfg.to_str().unwrap();
        let out = place
            .command(&[
                "trainer",
                "--config",
                cfg_arg,
                "--run",
                &url,
                "--work",
                dir.join("work2").to_str().unwrap(),
                "--generations",
                "1",
            ])
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{said}");
        assert!(
            said.contains("already holds gen-0001") && said.contains("nothing to train"),
            "{said}"
        );
        // Another run file on the same run is refused before any work.
        let other = dir.join("other.toml");
        std::fs::write(&other, TINY.replace("seed = 5", "seed = 6")).unwrap();
        let out = place
            .command(&[
                "trainer",
                "--config",
                other.to_str().unwrap(),
                "--run",
                &url,
            ])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("another config.toml"));
    });
}

#[test]
fn kill_9_of_workers_leaves_no_partial_object_and_a_restarted_worker_goes_on() {
    each_place(|place, dir| {
        let cfg = dir.join("tiny.toml");
        std::fs::write(&cfg, TINY).unwrap();
        let store = place.store();
        let trainer = place.trainer(
            &cfg,
            &[
                "--work",
                dir.join("tw").to_str().unwrap(),
                "--poll",
                "0.3",
                "--generations",
                "1",
            ],
            &dir.join("trainer.log"),
        );
        // Kill -9 a worker at ten moments spread over its shards (uploads
        // are a few kilobytes, so most kills land while it plays; a put is
        // one request, so none can leave half an object either way).
        for k in 0..10u64 {
            let mut w = place.worker(
                "0",
                &["--games-per-shard", "2", "--poll", "0.2"],
                &dir.join(format!("killed{k}.log")),
            );
            std::thread::sleep(Duration::from_millis(300 + 97 * k));
            w.kill().unwrap();
            w.wait().unwrap();
        }
        let before = check_shards(&store, dir).0;
        // A restarted worker goes on: new shards under a new incarnation.
        // It plays the generation's 8 games alone, so the trainer finishes
        // however few shards the killed workers got out (on a loaded
        // machine, none: they are killed 0.3 to 1.2 s after starting).
        let w = place.worker(
            "0",
            &[
                "--games-per-shard",
                "2",
                "--max-shards",
                "4",
                "--poll",
                "0.2",
                "--json",
            ],
            &dir.join("restarted.log"),
        );
        let (code, v) = finish(w);
        assert_eq!(code, Some(0), "{v}");
        assert_eq!(v["shards"], 4);
        let (after, _, _) = check_shards(&store, dir);
        assert_eq!(after, before + 4);
        let inc = v["incarnation"].as_str().unwrap();
        assert_eq!(
            keys(&store, "games/")
                .iter()
                .filter(|k| k.contains(inc))
                .count(),
            4
        );
        let (code, _) = finish_within(trainer, 300, "the trainer");
        assert_eq!(code, Some(0));
        // Nothing but whole objects: no temporary name anywhere in the run.
        for key in keys(&store, "") {
            assert!(!key.contains(".tmp") && !key.contains("#"), "{key}");
        }
    });
}

#[test]
fn an_unreachable_store_is_retried_with_backoff_and_said() {
    let t = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_triad"))
        .args([
            "worker",
            "--run",
            "s3://triad/run",
            "--worker",
            "0",
            "--patience",
            "3",
        ])
        .env("AWS_ENDPOINT", "http://127.0.0.1:1")
        .env("AWS_ALLOW_HTTP", "true")
        .env("AWS_ACCESS_KEY_ID", "x")
        .env("AWS_SECRET_ACCESS_KEY", "y")
        .env("AWS_REGION", "us-east-1")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let retries: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("store unreachable"))
        .collect();
    assert!(retries.len() >= 2, "{err}");
    assert!(
        retries[0].contains("retrying in 0.5 s") && retries[1].contains("retrying in 1.0 s"),
        "{err}"
    );
    assert!(t.elapsed() < Duration::from_secs(30));
    // Bad runs and bad flags are bad input.
    for args in [
        vec!["worker", "--run", "ftp://x/y", "--worker", "0"],
        vec!["worker", "--run", "/tmp/x"],
        vec![
            "worker",
            "--run",
            "/tmp/x",
            "--worker",
            "0",
            "--games-per-shard",
            "0",
        ],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_triad"))
            .args(&args)
            .env_remove("SLURM_ARRAY_TASK_ID")
            .env_remove("JOB_COMPLETION_INDEX")
            .env_remove("TRIAD_WORKER")
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn the_ray_entry_point_runs_workers_locally() {
    let python = ["python3", "python"]
        .into_iter()
        .find(|p| Command::new(p).arg("--version").output().is_ok());
    let Some(python) = python else {
        eprintln!("skipping: no python3 to run deploy/ray/workers.py");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("tiny.toml");
    std::fs::write(&cfg, TINY).unwrap();
    let run = dir.path().join("run");
    let r = run.to_str().unwrap();
    let trainer = Command::new(env!("CARGO_BIN_EXE_triad"))
        .args([
            "trainer",
            "--config",
            cfg.to_str().unwrap(),
            "--run",
            r,
            "--poll",
            "0.3",
            "--generations",
            "1",
        ])
        .args(["--work", dir.path().join("tw").to_str().unwrap()])
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/deploy/ray/workers.py");
    let out = Command::new(python)
        .args([
            script,
            "--local",
            "--run",
            r,
            "--workers",
            "2",
            "--triad",
            env!("CARGO_BIN_EXE_triad"),
            "--",
        ])
        .args([
            "--games-per-shard",
            "4",
            "--max-shards",
            "2",
            "--poll",
            "0.3",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(finish_within(trainer, 300, "the trainer").0, Some(0));
    let store = Store::open(r).unwrap();
    for i in 0..2 {
        let n = keys(&store, "games/")
            .iter()
            .filter(|k| k.contains(&format!("/w000{i}-")))
            .count();
        assert_eq!(n, 2, "worker {i}");
    }
    // A worker's own device overrides the run file's; a bad one is bad input.
    let worker = |device: &str| {
        Command::new(env!("CARGO_BIN_EXE_triad"))
            .args([
                "worker",
                "--run",
                r,
                "--worker",
                "7",
                "--games-per-shard",
                "2",
            ])
            .args(["--max-shards", "1", "--device", device])
            .output()
            .unwrap()
    };
    let out = worker("tpu");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--device"));
    let out = worker("cpu");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        keys(&store, "games/")
            .iter()
            .filter(|k| k.contains("/w0007-"))
            .count(),
        1
    );
}

/// The figures of docs/scale-out.md (not run by `cargo test`):
/// `cargo test --release --test cli scale::measure -- --ignored --nocapture`.
/// A worker's throughput against SeaweedFS and against a local folder,
/// interleaved, three times each; then the trainer's ingestion of 200
/// synthetic shards in each store.
#[test]
#[ignore]
fn measure_worker_throughput_and_trainer_ingestion() {
    let Some(s3) = SeaweedFs::start() else {
        panic!("the measurement needs SeaweedFS (make setup)");
    };
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("m.toml");
    std::fs::write(&cfg, TINY.replace("simulations = 8", "simulations = 32")).unwrap();
    let places = [
        Place::Local(dir.path().join("local-run")),
        Place::S3(&s3, "m-run".into()),
    ];
    for p in &places {
        let t = p.trainer(
            &cfg,
            &[
                "--generations",
                "0",
                "--work",
                dir.path()
                    .join(format!("w-{}", p.url().len()))
                    .to_str()
                    .unwrap(),
            ],
            &dir.path().join("t.log"),
        );
        assert_eq!(finish_within(t, 120, "publishing generation 0").0, Some(0));
    }
    let mut rates: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    for round in 0..3 {
        for k in 0..2 {
            let i = (k + round) % 2;
            let p = &places[i];
            let w = p.worker(
                &round.to_string(),
                &["--games-per-shard", "16", "--max-shards", "4", "--json"],
                &dir.path().join("w.log"),
            );
            let (code, v) = finish_within(w, 600, "a measured worker");
            assert_eq!(code, Some(0), "{v}");
            rates[i].push((
                v["games_per_hour"].as_f64().unwrap(),
                v["upload_seconds"].as_f64().unwrap() / v["shards"].as_f64().unwrap(),
            ));
        }
    }
    for (i, name) in ["local folder", "s3 (SeaweedFS)"].iter().enumerate() {
        let mut g: Vec<f64> = rates[i].iter().map(|r| r.0).collect();
        let mut u: Vec<f64> = rates[i].iter().map(|r| r.1 * 1000.0).collect();
        g.sort_by(f64::total_cmp);
        u.sort_by(f64::total_cmp);
        eprintln!(
            "worker, {name}: {:.0} games/h median [{:.0}, {:.0}]; upload {:.1} ms per shard median [{:.1}, {:.1}]",
            g[1], g[0], g[2], u[1], u[0], u[2]
        );
    }
    // Ingestion: 200 shards of about 2,000 rows each.
    let synth = dir.path().join("synth");
    common::succeeds(&[
        "bench",
        "data",
        "--game",
        "connect4",
        "--positions",
        "400000",
        "--shard-rows",
        "2000",
        "--dir",
        synth.to_str().unwrap(),
        "--json",
    ]);
    let files: Vec<PathBuf> = std::fs::read_dir(&synth)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "parquet"))
        .collect();
    for (n, p) in places.iter().enumerate() {
        let store = p.store();
        for (i, f) in files.iter().enumerate() {
            let key = format!("games/gen-0000/w9999-synthetic-s{i:06}.parquet");
            store.put_new(&key, std::fs::read(f).unwrap()).unwrap();
        }
        let t = p.trainer(
            &cfg,
            &[
                "--generations",
                "1",
                "--min-new-games",
                "1",
                "--steps",
                "1",
                "--json",
                "--work",
                dir.path().join(format!("ingest-{n}")).to_str().unwrap(),
            ],
            &dir.path().join("ti.log"),
        );
        let (code, v) = finish_within(t, 600, "the ingesting trainer");
        assert_eq!(code, Some(0), "{v}");
        eprintln!(
            "trainer ingestion, {}: {} shards, {} rows in {:.2} s: {:.0} shards/s, {:.0} rows/s",
            ["local folder", "s3 (SeaweedFS)"][n],
            v["shards_ingested"],
            v["rows_ingested"],
            v["ingest_seconds"].as_f64().unwrap(),
            v["shards_per_s"].as_f64().unwrap(),
            v["rows_per_s"].as_f64().unwrap()
        );
    }
}

/// `triad loop --run s3://…`: the loop works in a local mirror and pushes
/// the run to the bucket; a second machine (another cache) resumes it from
/// the bucket without replaying a generation.
#[test]
fn a_loop_runs_in_a_bucket_and_another_machine_resumes_it() {
    let Some(s3) = SeaweedFs::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("tiny.toml");
    std::fs::write(&cfg, common::TINY).unwrap();
    let url = s3.url_for("loop-run");
    let place = Place::S3(&s3, "loop-run".into());
    let run = |cache: &str, generations: &str| {
        let out = place
            .command(&[
                "loop",
                "--config",
                cfg.to_str().unwrap(),
                "--run",
                &url,
                "--generations",
                generations,
            ])
            .env("TRIAD_CACHE", dir.path().join(cache))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{err}");
        err
    };
    run("machine-a", "1");
    let store = place.store();
    for key in [
        "state.json",
        "networks/gen-0001.safetensors",
        "ratings.csv",
        "config.toml",
    ] {
        assert!(store.get(key).unwrap().is_some(), "{key} was not pushed");
    }
    assert!(keys(&store, "games/gen-0001/")
        .iter()
        .any(|k| k.ends_with(".parquet")));
    assert!(keys(&store, "")
        .iter()
        .all(|k| !k.contains(".tmp") && !k.ends_with(".lock")));
    let err = run("machine-b", "2");
    assert!(
        !err.contains("generation 1: self-play"),
        "generation 1 replayed: {err}"
    );
    assert!(err.contains("generation 2"), "{err}");
    assert!(store
        .get("networks/gen-0002.safetensors")
        .unwrap()
        .is_some());
    // The plot takes the bucket's run too.
    let out = place
        .command(&[
            "plot",
            &url,
            "--out",
            dir.path().join("p.svg").to_str().unwrap(),
        ])
        .env("TRIAD_CACHE", dir.path().join("machine-c"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(std::fs::read_to_string(dir.path().join("p.svg"))
        .unwrap()
        .starts_with("<svg"));
}

/// `selfplay --out URL` uploads its shards whole (a name already there is
/// refused), and `train --data URL --out URL` trains from the bucket into
/// the bucket.
#[test]
fn selfplay_and_train_write_to_a_bucket() {
    let Some((s3, dir, cfg)) = s3_setup() else {
        return;
    };
    let place = Place::S3(&s3, "sp".into());
    let games = s3.url_for("sp/games");
    let c = cfg.to_str().unwrap();
    let selfplay = |seed: &str| {
        place
            .command(&[
                "selfplay", "--config", c, "--games", "4", "--out", &games, "--seed", seed,
            ])
            .output()
            .unwrap()
    };
    let out = selfplay("1");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let store = place.store();
    assert_eq!(keys(&store, "games/").len(), 1);
    let again = selfplay("1");
    assert_eq!(
        again.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert!(String::from_utf8_lossy(&again.stderr).contains("exists already"));
    let out = place
        .command(&[
            "train",
            "--config",
            c,
            "--data",
            &games,
            "--out",
            &s3.url_for("sp/train"),
            "--steps",
            "5",
        ])
        .env("TRIAD_CACHE", dir.path().join("cache"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let trained = keys(&store, "train/");
    assert!(
        trained.iter().any(|k| k.ends_with(".safetensors")),
        "{trained:?}"
    );
    assert!(
        trained.iter().any(|k| k.ends_with("metrics.csv")),
        "{trained:?}"
    );
}

/// The Kubernetes recipes parse, and say what docs/scale-out.md says: an
/// Indexed Job of `triad worker`, a one-replica Recreate Deployment of
/// `triad trainer`, both reading the store's Secret, both given the run.
/// (No cluster is reachable here; this checks the files, not a cluster.)
#[test]
fn the_kubernetes_recipes_are_well_formed() {
    let venv = concat!(env!("CARGO_MANIFEST_DIR"), "/.venv/bin/python3");
    let has_yaml = |py: &str| {
        Command::new(py)
            .args(["-c", "import yaml"])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    let Some(python) = [venv, "python3"].into_iter().find(|p| has_yaml(p)) else {
        let msg = "no python with PyYAML (make setup installs it into .venv)";
        if std::env::var("TRIAD_REQUIRE_S3").is_ok_and(|v| v == "1") {
            panic!("{msg}");
        }
        eprintln!("skipping the k8s recipe check: {msg}");
        return;
    };
    let script = r#"
import sys, yaml
d = sys.argv[1]
load = lambda f: list(yaml.safe_load_all(open(f"{d}/{f}")))
secret, = load("secret.yaml"); job, = load("workers.yaml"); dep, = load("trainer.yaml")
assert secret["kind"] == "Secret"
name = secret["metadata"]["name"]
assert job["kind"] == "Job" and job["spec"]["completionMode"] == "Indexed"
w = job["spec"]["template"]["spec"]["containers"][0]
assert w["args"][:3] == ["worker", "--run", "$(RUN)"], w["args"]
assert dep["kind"] == "Deployment" and dep["spec"]["replicas"] == 1
assert dep["spec"]["strategy"]["type"] == "Recreate"
t = dep["spec"]["template"]["spec"]["containers"][0]
assert t["args"][0] == "trainer" and "--run" in t["args"] and "--config" in t["args"], t["args"]
for c in (w, t):
    assert {"name": "RUN", "value": c["env"][0]["value"]} in c["env"]
    assert c["env"][0]["value"].startswith("s3://")
    assert c["envFrom"][0]["secretRef"]["name"] == name
print("ok")
"#;
    let out = Command::new(python)
        .args([
            "-c",
            script,
            concat!(env!("CARGO_MANIFEST_DIR"), "/deploy/k8s"),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The flags the recipes give are the binary's.
    for args in [
        vec!["worker", "--run", "x", "--help"],
        vec![
            "trainer", "--config", "x", "--run", "x", "--work", "/work", "--help",
        ],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_triad"))
            .args(&args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}");
    }
}

/// A TCP proxy to `target` that forwards everything until it sees the
/// start of a shard upload (`PUT …/games/…`), forwards only its first 64
/// bytes and holds the rest: the upload is then in flight for as long as
/// the test wants. The flag says that an upload is being held.
fn upload_holding_proxy(target: u16) -> (u16, std::sync::Arc<std::sync::atomic::AtomicBool>) {
    use std::io::{Read, Write};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let held = Arc::new(AtomicBool::new(false));
    let flag = held.clone();
    std::thread::spawn(move || {
        for client in listener.incoming() {
            let Ok(mut client) = client else { continue };
            let Ok(mut server) = std::net::TcpStream::connect(("127.0.0.1", target)) else {
                continue;
            };
            let (mut c2, mut s2) = (client.try_clone().unwrap(), server.try_clone().unwrap());
            std::thread::spawn(move || {
                let _ = std::io::copy(&mut s2, &mut c2);
            });
            let flag = flag.clone();
            std::thread::spawn(move || {
                let mut buf = [0u8; 65536];
                let mut holding = false;
                loop {
                    let n = match client.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => n,
                    };
                    if holding {
                        continue; // swallowed: the server never gets the rest
                    }
                    let chunk = &buf[..n];
                    let is_upload =
                        chunk.starts_with(b"PUT ") && chunk.windows(7).any(|w| w == b"/games/");
                    if is_upload {
                        let _ = server.write_all(&chunk[..n.min(64)]);
                        holding = true;
                        flag.store(true, Ordering::SeqCst);
                    } else if server.write_all(chunk).is_err() {
                        break;
                    }
                }
                let _ = server.shutdown(std::net::Shutdown::Both);
            });
        }
    });
    (port, held)
}

/// `kill -9` of a worker while its shard upload is in flight (held by a
/// proxy between it and the S3 server): no object, partial or whole, is
/// visible; the restarted worker goes on and its shard reads whole.
#[test]
fn kill_9_during_an_upload_leaves_nothing_visible() {
    let Some((s3, dir, cfg)) = s3_setup() else {
        return;
    };
    let place = Place::S3(&s3, "held".into());
    let url = place.url();
    let t = place.trainer(
        &cfg,
        &[
            "--generations",
            "0",
            "--work",
            dir.path().join("tw").to_str().unwrap(),
        ],
        &dir.path().join("t.log"),
    );
    assert_eq!(finish_within(t, 120, "publishing generation 0").0, Some(0));
    let port: u16 = s3.endpoint().rsplit(':').next().unwrap().parse().unwrap();
    let (proxy, held) = upload_holding_proxy(port);
    let mut worker = place
        .command(&[
            "worker",
            "--run",
            &url,
            "--worker",
            "0",
            "--games-per-shard",
            "2",
            "--max-shards",
            "1",
        ])
        .env("AWS_ENDPOINT", format!("http://127.0.0.1:{proxy}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for("the worker's upload to be in flight", 120, || {
        held.load(std::sync::atomic::Ordering::SeqCst)
    });
    worker.kill().unwrap();
    worker.wait().unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let store = place.store();
    assert!(
        keys(&store, "games/").is_empty(),
        "{:?}",
        keys(&store, "games/")
    );
    let w = place.worker(
        "0",
        &["--games-per-shard", "2", "--max-shards", "1", "--json"],
        &dir.path().join("w.log"),
    );
    let (code, v) = finish_within(w, 120, "the restarted worker");
    assert_eq!(code, Some(0), "{v}");
    let (shards, _, ids) = check_shards(&store, dir.path());
    assert_eq!(
        (shards, ids.len() as u64),
        (1, v["games"].as_u64().unwrap())
    );
}

/// A worker that uploads a lying shard into a two-worker run on SeaweedFS:
/// the trainer verifies every shard it ingests, moves the lying one to
/// `quarantine/` whole with a reason object beside it, counts it, trains
/// on the rest, and publishes generation 1 byte for byte as a trainer of
/// the same run without the bad worker's shard does. `data verify` of the
/// run then passes.
#[test]
fn a_lying_workers_shard_is_quarantined_and_the_run_trains_on_the_rest() {
    let Some((s3, dir, cfg)) = s3_setup() else {
        return;
    };
    let dir = dir.path();
    let (dirty, clean) = (
        Place::S3(&s3, "dirty".into()),
        Place::S3(&s3, "clean".into()),
    );
    let trainer = |place: &Place, name: &str, extra: &[&str]| {
        let work = dir.join(format!("work-{name}"));
        let mut args = vec!["--work", work.to_str().unwrap(), "--json", "--poll", "0.3"];
        args.extend_from_slice(extra);
        let log = dir.join(format!("trainer-{name}.log"));
        let (code, v) = finish_within(place.trainer(&cfg, &args, &log), 300, name);
        let log = std::fs::read_to_string(&log).unwrap();
        assert_eq!(code, Some(0), "{name}: {log}");
        (v, log)
    };
    // Generation 0 of both runs (the same fresh network: the same seed).
    for (p, name) in [(&dirty, "dirty-0"), (&clean, "clean-0")] {
        trainer(p, name, &["--generations", "0"]);
    }
    let manifest = |p: &Place, g: &str| -> Value {
        serde_json::from_slice(
            &p.store()
                .get(&format!("networks/{g}.json"))
                .unwrap()
                .unwrap(),
        )
        .unwrap()
    };
    assert_eq!(
        manifest(&dirty, "gen-0000")["sha256"],
        manifest(&clean, "gen-0000")["sha256"]
    );
    // Two honest workers, one shard of 4 games each, into the dirty run.
    let workers: Vec<Child> = (0..2)
        .map(|i| {
            dirty.worker(
                &i.to_string(),
                &["--games-per-shard", "4", "--max-shards", "1", "--json"],
                &dir.join(format!("worker{i}.log")),
            )
        })
        .collect();
    for (i, w) in workers.into_iter().enumerate() {
        let (code, v) = finish_within(w, 300, "a worker");
        assert_eq!(code, Some(0), "worker {i}: {v}");
    }
    let (store, clean_store) = (dirty.store(), clean.store());
    let honest = keys(&store, "games/");
    assert_eq!(honest.len(), 2, "{honest:?}");
    // The clean run holds the same honest shards, byte for byte.
    for k in &honest {
        clean_store
            .put_new(k, store.get(k).unwrap().unwrap())
            .unwrap();
    }
    // The bad worker: a shard of games with ids of their own that parse
    // but lie (one position that is not the game's).
    let honest_path = dir.join("honest.parquet");
    std::fs::write(&honest_path, store.get(&honest[0]).unwrap().unwrap()).unwrap();
    let mut games = data::group_games(data::read_shard(&honest_path).unwrap()).unwrap();
    for g in &mut games {
        g.game_id += 1 << 40;
        for r in &mut g.positions {
            r.game_id = g.game_id;
        }
    }
    let rows = &mut games[1].positions;
    rows[2].position = rows[3].position.clone();
    let (lie_id, lie_ply) = (games[1].game_id, 2);
    let lying = dir.join("lying.parquet");
    let mut w = data::ShardWriter::create(&lying).unwrap();
    for g in &games {
        w.push_game(g).unwrap();
    }
    w.finish().unwrap();
    let bad_key = "games/gen-0000/w0002-0badc0ffee-s000000.parquet";
    let lie_bytes = std::fs::read(&lying).unwrap();
    store.put_new(bad_key, lie_bytes.clone()).unwrap();

    // Generation 1 of both runs, each once every shard is listed.
    let (d, log) = trainer(
        &dirty,
        "dirty-1",
        &["--generations", "1", "--min-new-games", "8"],
    );
    let (c, _) = trainer(
        &clean,
        "clean-1",
        &["--generations", "1", "--min-new-games", "8"],
    );
    assert_eq!(d["published"], serde_json::json!([1]), "{d}");
    assert_eq!(d["shards_quarantined"], 1, "{d}");
    assert_eq!(d["quarantined"], serde_json::json!([bad_key]), "{d}");
    assert_eq!(d["shards_ingested"], 2, "{d}");
    assert_eq!(d["rows_ingested"], c["rows_ingested"], "{d} {c}");
    assert_eq!(c["shards_quarantined"], 0, "{c}");
    assert!(
        log.contains(&format!("quarantined {bad_key}"))
            && log.contains(&format!("game {lie_id} ply {lie_ply}")),
        "{log}"
    );
    // Moved aside whole, with its reason; gone from the run's games.
    assert!(!keys(&store, "games/").contains(&bad_key.to_string()));
    let aside = format!("quarantine/{bad_key}");
    assert_eq!(store.get(&aside).unwrap().unwrap(), lie_bytes);
    let reason: Value =
        serde_json::from_slice(&store.get(&format!("{aside}.reason.json")).unwrap().unwrap())
            .unwrap();
    assert_eq!(reason["file"], bad_key, "{reason}");
    let first = &reason["faults"][0];
    assert_eq!(
        (&first["kind"], &first["game"], &first["ply"]),
        (
            &Value::from("position"),
            &Value::from(lie_id),
            &Value::from(lie_ply)
        ),
        "{reason}"
    );
    // Generation 1 is what it is without the bad worker's shard.
    assert_eq!(
        manifest(&dirty, "gen-0001")["sha256"],
        manifest(&clean, "gen-0001")["sha256"]
    );
    // What the run lists now is sound.
    let out = dirty
        .command(&["data", "verify", &dirty.url(), "--json"])
        .env("TRIAD_CACHE", dir.join("cache"))
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{v} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        (&v["files"], &v["games"]),
        (&Value::from(2), &Value::from(8)),
        "{v}"
    );
}

/// Every file under `dir` (recursively), with its bytes.
fn files_under(dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files_under(&p, out);
        } else if let Ok(bytes) = std::fs::read(&p) {
            out.push((p, bytes));
        }
    }
}

/// Secrets stay secret: the trainer, a worker, the trainer quarantining a
/// lying shard, and the readers, with the server's credentials, and the
/// same commands given a wrong secret and a session token (so that they
/// fail and say why): no stdout, stderr, `--json` output, file they wrote
/// (work folders, caches, logs) nor object in the bucket (manifests,
/// quarantine reasons, shards' metadata) holds the access key, a secret
/// or the token.
#[test]
fn no_output_file_or_object_holds_a_credential() {
    let Some((s3, dir, cfg)) = s3_setup() else {
        return;
    };
    let dir = dir.path();
    let place = Place::S3(&s3, "secrets".into());
    let url = place.url();
    let wrong_secret = "WrongSecret0f9e8d7c6b5a4";
    let token = "SessionToken1a2b3c4d5e6f7a8b9c0d";
    let secrets = [
        store::testing::ACCESS_KEY,
        store::testing::SECRET_KEY,
        wrong_secret,
        token,
    ];
    let mut outputs: Vec<(String, Vec<u8>)> = Vec::new();
    let mut run = |what: &str, args: &[&str], bad: bool| -> Option<i32> {
        let mut c = place.command(args);
        c.env("TRIAD_CACHE", dir.join("cache"));
        if bad {
            c.env("AWS_SECRET_ACCESS_KEY", wrong_secret)
                .env("AWS_SESSION_TOKEN", token);
        }
        let out = c.output().unwrap();
        outputs.push((format!("{what} stdout"), out.stdout));
        outputs.push((format!("{what} stderr"), out.stderr));
        out.status.code()
    };
    let work = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let c = cfg.to_str().unwrap();
    let (w0, w1) = (work("work0"), work("work1"));
    let ok = Some(0);
    assert_eq!(
        run(
            "trainer 0",
            &[
                "trainer",
                "--config",
                c,
                "--run",
                &url,
                "--work",
                &w0,
                "--generations",
                "0",
                "--json"
            ],
            false
        ),
        ok
    );
    assert_eq!(
        run(
            "worker",
            &[
                "worker",
                "--run",
                &url,
                "--worker",
                "0",
                "--games-per-shard",
                "4",
                "--max-shards",
                "1",
                "--work",
                &work("wwork"),
                "--json"
            ],
            false
        ),
        ok
    );
    // A lying shard for the trainer to quarantine (its reason object is
    // metadata the trainer writes).
    let store = place.store();
    let honest = keys(&store, "games/");
    let path = dir.join("h.parquet");
    std::fs::write(&path, store.get(&honest[0]).unwrap().unwrap()).unwrap();
    let mut rows = data::read_shard(&path).unwrap();
    for r in &mut rows {
        r.game_id += 1 << 41;
    }
    rows[1].position_hash ^= 1;
    let lying = dir.join("lying.parquet");
    let mut w = data::ShardWriter::create(&lying).unwrap();
    rows.iter().for_each(|r| w.push(r).unwrap());
    w.finish().unwrap();
    store
        .put_new(
            "games/gen-0000/w0009-bad-s000000.parquet",
            std::fs::read(&lying).unwrap(),
        )
        .unwrap();
    assert_eq!(
        run(
            "trainer 1",
            &[
                "trainer",
                "--config",
                c,
                "--run",
                &url,
                "--work",
                &w1,
                "--generations",
                "1",
                "--min-new-games",
                "4",
                "--json"
            ],
            false
        ),
        ok
    );
    assert!(!keys(&store, "quarantine/").is_empty());
    assert_eq!(
        run("data verify", &["data", "verify", &url, "--json"], false),
        ok
    );
    assert_eq!(
        run("data info", &["data", "info", &url, "--json"], false),
        ok
    );
    // The same, with a wrong secret and a session token: refused, said.
    let failed = [
        (
            "bad trainer",
            vec![
                "trainer",
                "--config",
                c,
                "--run",
                &url,
                "--work",
                &w1,
                "--generations",
                "2",
                "--patience",
                "1",
                "--json",
            ],
        ),
        (
            "bad worker",
            vec![
                "worker",
                "--run",
                &url,
                "--worker",
                "1",
                "--max-shards",
                "1",
                "--patience",
                "1",
                "--json",
            ],
        ),
        ("bad data verify", vec!["data", "verify", &url, "--json"]),
        ("bad data info", vec!["data", "info", &url, "--json"]),
    ];
    for (what, args) in &failed {
        let code = run(what, args, true);
        assert!(
            code.is_some_and(|c| c != 0),
            "{what} succeeded with a wrong secret"
        );
    }
    // Nothing holds a credential: outputs, files written, objects.
    let mut files = Vec::new();
    files_under(dir, &mut files);
    for prefix in ["", "games/", "networks/", "quarantine/"] {
        for k in keys(&store, prefix) {
            files.push((
                PathBuf::from(format!("s3 object {k}")),
                store.get(&k).unwrap().unwrap(),
            ));
        }
    }
    assert!(files.len() > 10, "{} files", files.len());
    let everything = outputs
        .iter()
        .map(|(w, b)| (w.clone(), b))
        .chain(files.iter().map(|(p, b)| (p.display().to_string(), b)));
    for (what, bytes) in everything {
        for s in secrets {
            assert!(
                !bytes.windows(s.len()).any(|w| w == s.as_bytes()),
                "{what} holds the credential {s:?}: {}",
                String::from_utf8_lossy(bytes)
            );
        }
    }
    // The failures said why.
    let said = |what: &str| {
        outputs
            .iter()
            .find(|(w, _)| w == &format!("{what} stderr"))
            .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
            .unwrap_or_default()
    };
    assert!(
        said("bad data verify").contains("s3://triad/secrets"),
        "{}",
        said("bad data verify")
    );
}
