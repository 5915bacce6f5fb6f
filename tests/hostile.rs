//! Hostile input through the binary: every case exits 2 with a one-line
//! message (no panic, no hang, no abort). docs/reliability.md lists them.

use crate::common;

use crate::common::triad;
use std::process::Command;

/// Exit 2, one line on stderr that contains `needle`.
fn refused(args: &[&str], needle: &str) {
    let out = triad(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: {err}");
}

#[test]
fn bad_flags_are_refused() {
    refused(&["perft", "--depth", "100000"], "--depth");
    refused(
        &["perft", "--depth", "2", "--threads", "100000"],
        "--threads",
    );
    refused(&["perft", "--depth", "2", "--threads", "0"], "--threads");
    refused(
        &["eval", "--players", "random,random", "--games", "0"],
        "--games",
    );
    refused(
        &["eval", "--players", "random,random", "--max-plies", "0"],
        "--max-plies",
    );
    refused(
        &["eval", "--players", "random,random", "--threads", "0"],
        "--threads",
    );
    refused(
        &[
            "eval",
            "--players",
            "random,random",
            "--random-plies",
            "100000",
        ],
        "--random-plies",
    );
    refused(
        &["eval", "--players", "random,random", "--device", "cuda:99"],
        "--device",
    );
    refused(
        &["eval", "--players", "net:/no/such/net.safetensors,random"],
        "no such checkpoint",
    );
    refused(
        &["show", "--position", &"[".repeat(100_000)],
        "more characters",
    );
}

#[test]
fn bad_checkpoints_and_run_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    // A sidecar with absurd sizes next to some weights.
    let weights = dir.path().join("net.safetensors");
    std::fs::write(&weights, b"not weights").unwrap();
    for channels in ["0", "1000000000000"] {
        let sidecar = format!(
            r#"{{"format":"triad-checkpoint","game":"piratechnics","variant":"standard","encoding_version":1,"shape":{{"blocks":1,"channels":{channels},"move_embed":8,"policy_hidden":8,"value_hidden":8,"planes":47,"move_features":25}},"step":0}}"#
        );
        std::fs::write(dir.path().join("net.json"), sidecar).unwrap();
        let spec = format!("net:{},sims=2", weights.display());
        refused(&["eval", "--players", &spec, "random"], "shape.channels");
    }
    // Huge sizes in a run file stop at once, naming the key.
    for (text, key) in [
        (
            "[selfplay]\ncache_size = 100000000000\n",
            "selfplay.cache_size",
        ),
        (
            "[selfplay]\ngames_in_flight = 100000000\n",
            "selfplay.games_in_flight",
        ),
        ("[selfplay]\nthreads = 100000\n", "selfplay.threads"),
        ("[model]\nchannels = 100000000\n", "model.channels"),
        ("[train]\nthreads = 100000\n", "train.threads"),
        ("[eval]\nrandom_plies = 100000\n", "eval.random_plies"),
    ] {
        let file = dir.path().join("bad.toml");
        std::fs::write(&file, text).unwrap();
        refused(&["config", file.to_str().unwrap()], key);
        refused(
            &[
                "loop",
                "--config",
                file.to_str().unwrap(),
                "--run",
                dir.path().join("run").to_str().unwrap(),
            ],
            key,
        );
    }
    // A config asking for a GPU this machine lacks: a clean refusal when
    // the network is built, not a panic inside libtorch.
    if !tch_has_cuda() {
        let file = dir.path().join("gpu.toml");
        std::fs::write(&file, "[model]\ndevice = \"cuda\"\n").unwrap();
        refused(
            &[
                "selfplay",
                "--config",
                file.to_str().unwrap(),
                "--games",
                "1",
                "--out",
                dir.path().join("sp").to_str().unwrap(),
            ],
            "CUDA",
        );
    }
}

fn tch_has_cuda() -> bool {
    let out = triad(&["version", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    v["cuda"].as_bool().unwrap_or(false) || v["cuda_available"].as_bool().unwrap_or(false)
}

#[test]
fn missing_init_and_binary_play_input_are_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let shards = dir.path().join("shards");
    std::fs::create_dir_all(&shards).unwrap();
    refused(
        &[
            "train",
            "--data",
            shards.to_str().unwrap(),
            "--out",
            dir.path().join("run").to_str().unwrap(),
            "--init",
            "/no/such/net.safetensors",
        ],
        "no such checkpoint",
    );
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_triad"))
        .args(["play", "--engine", "ab:depth=1"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(&[0xff, 0xfe, 0x00, 0x80, b'\n'])
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A shard row whose position text is not a position: `openings` and
/// `data export` refuse it (exit 2) with a message naming the shard file,
/// the game and the text (before, the message named neither the shard).
#[test]
fn a_bad_position_in_a_shard_is_reported_with_the_shard() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("tiny.toml");
    std::fs::write(&config, common::TINY).unwrap();
    let good = dir.path().join("good");
    let out = triad(&[
        "selfplay",
        "--config",
        config.to_str().unwrap(),
        "--games",
        "2",
        "--out",
        good.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let shards = data::list_shards(std::slice::from_ref(&good)).unwrap();
    let mut rows = data::ShardReader::open(&shards[0].path)
        .unwrap()
        .read_records()
        .unwrap();
    let victim = rows[0].game_id;
    for r in rows
        .iter_mut()
        .filter(|r| r.game_id == victim && r.ply == 0)
    {
        r.position = "not-a-position".into();
    }
    let bad_dir = dir.path().join("bad");
    std::fs::create_dir_all(&bad_dir).unwrap();
    let bad = bad_dir.join("broken.parquet");
    let mut w = data::ShardWriter::create(&bad).unwrap();
    for r in &rows {
        w.push(r).unwrap();
    }
    w.finish().unwrap();
    let name = bad.to_str().unwrap();
    refused(&["openings", name], "broken.parquet");
    refused(&["openings", name], "not-a-position");
    refused(
        &["data", "export", name, "--game", &victim.to_string()],
        "broken.parquet",
    );
}

/// A tmpfs of `kib` KiB mounted at a new folder, unmounted on drop; `None`
/// (with a line saying the test is skipped) where mounting needs a root
/// this process does not have.
struct SmallDisk {
    dir: tempfile::TempDir,
}

impl SmallDisk {
    fn mount(kib: u32) -> Option<SmallDisk> {
        let dir = tempfile::tempdir().unwrap();
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={kib}k"), "tmpfs"])
            .arg(dir.path())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            eprintln!(
                "skipped: cannot mount a small tmpfs here (needs root) for the full-disk test"
            );
            return None;
        }
        Some(SmallDisk { dir })
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.dir.path()).status();
    }
}

/// Every file under `dir` whose name says it is a temporary.
fn temporaries(dir: &std::path::Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if e.file_name().to_string_lossy().contains(".tmp") {
                out.push(p.display().to_string());
            }
        }
    }
    out
}

/// On a real full disk (a 48 KiB tmpfs): self-play's shard and the loop's
/// first checkpoint fail with an I/O error that names the file and says the
/// disk is full, exit 1, and leave no temporary file behind.
#[test]
fn a_full_disk_is_reported_by_file_and_leaves_no_temporaries() {
    let Some(disk) = SmallDisk::mount(48) else {
        return;
    };
    let root = disk.dir.path();
    let config = root.join("c4.toml");
    std::fs::write(
        &config,
        "[game]\nname = \"connect4\"\n[model]\nblocks = 2\nchannels = 32\n[selfplay]\nsimulations = 4\ncheap_simulations = 2\ngames_in_flight = 16\n",
    )
    .unwrap();

    let out = triad(&[
        "selfplay",
        "--config",
        config.to_str().unwrap(),
        "--games",
        "200",
        "--out",
        root.join("games").to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("selfplay-s1-0000.parquet"), "{err}");
    assert!(err.contains("No space left"), "{err}");
    assert_eq!(temporaries(root), Vec::<String>::new(), "{err}");

    let _ = std::fs::remove_dir_all(root.join("games"));
    let out = triad(&[
        "loop",
        "--config",
        config.to_str().unwrap(),
        "--run",
        root.join("run").to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("gen-0000"), "{err}");
    assert!(err.contains("No space left"), "{err}");
    assert_eq!(temporaries(root), Vec::<String>::new(), "{err}");
}

/// A record line of 10 MB is reported with its text clipped (the message
/// stays one short line, exit 1 as for any move that cannot be read), and
/// `triad selfplay` into a folder that another process holds is refused
/// (exit 2) naming the holder, leaving its lock alone.
#[test]
fn a_huge_record_line_is_clipped_and_a_held_selfplay_folder_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("huge.txt");
    let huge = format!("1)\t{},\td7-d6;\n", "x".repeat(10_000_000));
    std::fs::write(&record, huge).unwrap();
    let out = triad(&["replay", record.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{}", &err[..err.len().min(300)]);
    assert!(err.len() < 1_000, "{} bytes of message", err.len());
    assert!(err.contains("more characters"), "{err}");

    let out_dir = dir.path().join("games");
    std::fs::create_dir_all(&out_dir).unwrap();
    let lock = out_dir.join("triad.lock");
    let held = format!(
        "pid {}\nhost another-host\ncommand triad selfplay\n",
        std::process::id()
    );
    std::fs::write(&lock, &held).unwrap();
    let config = dir.path().join("c.toml");
    std::fs::write(
        &config,
        "[game]\nname = \"connect4\"\n[model]\nblocks = 1\nchannels = 8\n[selfplay]\nsimulations = 4\ncheap_simulations = 2\ngames_in_flight = 2\n",
    )
    .unwrap();
    refused(
        &[
            "selfplay",
            "--config",
            config.to_str().unwrap(),
            "--games",
            "2",
            "--out",
            out_dir.to_str().unwrap(),
        ],
        "in use by triad selfplay",
    );
    assert_eq!(std::fs::read_to_string(&lock).unwrap(), held);
    // Once the holder is gone, the folder is free again.
    std::fs::remove_file(&lock).unwrap();
    let ok = triad(&[
        "selfplay",
        "--config",
        config.to_str().unwrap(),
        "--games",
        "2",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    assert!(!lock.exists(), "the lock is released at the end");
}

/// Starts `triad ARGS` with stdout piped, waits (at most a minute) until
/// `ready` holds, then sends SIGINT and returns its output.
fn interrupt_when(args: &[&str], ready: impl Fn() -> bool) -> std::process::Output {
    let child = Command::new(env!("CARGO_BIN_EXE_triad"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while !ready() {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(60),
            "{args:?}: not ready after a minute"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // SAFETY: signalling a child process of this test by its pid.
    let rc = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    assert_eq!(rc, 0);
    child.wait_with_output().unwrap()
}

fn parquet_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "parquet"))
                .collect()
        })
        .unwrap_or_default()
}

const C4_TINY: &str = "seed = 3\n[game]\nname = \"connect4\"\n[model]\nblocks = 1\nchannels = 8\n[selfplay]\nsimulations = 4\ncheap_simulations = 2\ngames_in_flight = 4\n[train]\nbatch_size = 16\nschedule = \"constant\"\nwarmup_steps = 0\ncheckpoint_every = 5\n[eval]\ngames = 2\nsimulations = 4\nladder = [\"random\"]\nthreads = 1\n[loop]\ngenerations = 1000\ngames_per_generation = 8\ntrain_steps_per_generation = 5\n";

/// SIGINT of `triad selfplay`: it stops, keeps every finished game in whole
/// shards that read back, drops the games in progress, says so (`"interrupted":
/// true`), exits 0 and releases its folder's lock; no temporary is left.
#[test]
fn sigint_of_selfplay_keeps_finished_games_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("c.toml");
    std::fs::write(&config, C4_TINY).unwrap();
    let out_dir = dir.path().join("games");
    let out = interrupt_when(
        &[
            "selfplay",
            "--config",
            config.to_str().unwrap(),
            "--games",
            "1000000",
            "--shard-games",
            "2",
            "--out",
            out_dir.to_str().unwrap(),
            "--json",
        ],
        || parquet_files(&out_dir).len() >= 2,
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["interrupted"], true, "{summary}");
    let games = summary["games"].as_u64().unwrap();
    assert!((4..1_000_000).contains(&games), "{summary}");
    let mut rows = 0;
    let mut ids = std::collections::BTreeSet::new();
    for shard in parquet_files(&out_dir) {
        for r in data::read_shard(&shard).unwrap() {
            rows += 1;
            ids.insert(r.game_id);
        }
    }
    assert_eq!(ids.len() as u64, games, "every finished game, whole");
    assert_eq!(rows, summary["positions"].as_u64().unwrap());
    let left: Vec<_> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.ends_with(".parquet"))
        .collect();
    assert!(left.is_empty(), "no temporary and no lock left: {left:?}");
}

/// SIGINT of `triad loop`: the stage in progress ends, the state is saved,
/// the loop exits 1 saying how to resume and releases the run's lock; the
/// same command then goes on from there.
#[test]
fn sigint_of_the_loop_saves_its_state_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("c.toml");
    std::fs::write(&config, C4_TINY).unwrap();
    let run = dir.path().join("run");
    let args = [
        "loop",
        "--config",
        config.to_str().unwrap(),
        "--run",
        run.to_str().unwrap(),
    ];
    let out = interrupt_when(&args, || {
        run.join("networks").join("gen-0002.safetensors").exists()
    });
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("interrupted") && err.contains("resume"),
        "{err}"
    );
    assert!(!run.join("triad.lock").exists(), "the lock is released");
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("state.json")).unwrap()).unwrap();
    let at = state["generation"].as_u64().unwrap();
    assert!(at >= 2, "{state}");
    // The same command goes on from the saved generation (stopped again).
    let gen = |g: u64| run.join("networks").join(format!("gen-{g:04}.safetensors"));
    let next = at + 1;
    let out = interrupt_when(&args, || gen(next).exists());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        !err.contains("generation 0:"),
        "resumed, not restarted: {err}"
    );
}

/// Eleven kinds of bad checkpoint, each refused with exit 2 and a one-line
/// message naming the file by `eval`, `selfplay --model` and `move` (`eval`
/// gave 1 for the five whose weights do not read: it checked the sidecar
/// only and failed inside the match).
#[test]
fn every_kind_of_bad_checkpoint_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("c.toml");
    std::fs::write(&config, C4_TINY).unwrap();
    let config = config.to_str().unwrap();
    let good = trained_checkpoint(dir.path(), config);
    let weights = std::fs::read(&good).unwrap();
    let sidecar: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(good.with_extension("json")).unwrap())
            .unwrap();
    for (kind, w, side) in bad_checkpoints(&weights, &sidecar) {
        let path = dir.path().join(format!("{kind}.safetensors"));
        std::fs::write(&path, w).unwrap();
        match side {
            Some(text) if text.is_empty() => {}
            Some(text) => std::fs::write(path.with_extension("json"), text).unwrap(),
            None => std::fs::write(path.with_extension("json"), sidecar.to_string()).unwrap(),
        }
        let sp_out = dir.path().join(format!("sp-{kind}"));
        assert_refused_everywhere(kind, path.to_str().unwrap(), config, &sp_out);
    }
}

/// A Connect Four checkpoint of one training step on two self-play games,
/// in `dir`.
fn trained_checkpoint(dir: &std::path::Path, config: &str) -> std::path::PathBuf {
    let d = |p: &str| dir.join(p).to_str().unwrap().to_string();
    let games = d("games");
    let ok = triad(&[
        "selfplay", "--config", config, "--games", "2", "--out", &games,
    ]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let train = d("train");
    let ok = triad(&[
        "train", "--config", config, "--data", &games, "--out", &train, "--steps", "1",
    ]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    std::fs::read_dir(dir.join("train/checkpoints"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.to_string_lossy().ends_with(".safetensors") && !p.to_string_lossy().contains("optim")
        })
        .unwrap()
}

/// The eleven kinds: each a name, its weights, and its sidecar (None: the
/// good one; empty: none at all).
fn bad_checkpoints(
    weights: &[u8],
    sidecar: &serde_json::Value,
) -> Vec<(&'static str, Vec<u8>, Option<String>)> {
    let edit = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut s = sidecar.clone();
        f(&mut s);
        s.to_string()
    };
    vec![
        ("truncated", weights[..1000].to_vec(), None),
        ("empty", Vec::new(), None),
        (
            "garbage",
            (0..200_000u32)
                .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
                .collect(),
            None,
        ),
        (
            "huge-header",
            [&10u64.pow(12).to_le_bytes()[..], b"{}"].concat(),
            None,
        ),
        ("no-sidecar", weights.to_vec(), Some(String::new())),
        ("bad-json", weights.to_vec(), Some("{not json".into())),
        (
            "other-game",
            weights.to_vec(),
            Some(edit(&|s| s["game"] = "pirate".into())),
        ),
        (
            "encoding",
            weights.to_vec(),
            Some(edit(&|s| s["encoding_version"] = 99.into())),
        ),
        (
            "shape",
            weights.to_vec(),
            Some(edit(&|s| s["shape"]["channels"] = 16.into())),
        ),
        (
            "padding",
            weights.to_vec(),
            Some(edit(&|s| s["shape"]["padding"] = "mirror".into())),
        ),
        (
            "format",
            weights.to_vec(),
            Some(edit(&|s| s["format"] = "other".into())),
        ),
    ]
}

/// The checkpoint at `p` is refused by `eval`, `selfplay --model` and
/// `move`: exit 2, one line, naming the file.
fn assert_refused_everywhere(kind: &str, p: &str, config: &str, sp_out: &std::path::Path) {
    let net = format!("net:{p},sims=2");
    let sp_out = sp_out.to_str().unwrap();
    for args in [
        vec![
            "eval",
            "--game",
            "connect4",
            "--players",
            &net,
            "random",
            "--games",
            "2",
        ],
        vec![
            "selfplay", "--config", config, "--model", p, "--games", "1", "--out", sp_out,
        ],
        vec![
            "move",
            "--game",
            "connect4",
            "--player",
            &net,
            "--position",
            "4",
        ],
    ] {
        let out = triad(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{kind}: {args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{kind}: {args:?}: {err}");
        assert!(err.contains(kind_file(p)), "{kind}: {args:?}: {err}");
    }
}

/// The file name a message about checkpoint `p` names (the weights, or the
/// sidecar beside them).
fn kind_file(p: &str) -> &str {
    p.trim_end_matches(".safetensors")
}

/// A run file with a bad value is refused before the loop writes anything
/// (the probe found 26 such files that failed after a whole self-play
/// generation and left a run directory neither config could resume); the
/// fixed file then runs in the same directory.
#[test]
fn a_bad_run_file_leaves_nothing_that_blocks_the_fixed_one() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let fixed = C4_TINY.replace("generations = 1000", "generations = 1");
    for (key, bad) in [
        ("train.lr", fixed.replace("[train]\n", "[train]\nlr = 0\n")),
        (
            "loop.gate_score",
            fixed.replace("[loop]\n", "[loop]\ngate_score = 2\n"),
        ),
        (
            "eval.ladder",
            fixed.replace("ladder = [\"random\"]", "ladder = [\"bogus:1\"]"),
        ),
        (
            "selfplay.cheap_share",
            fixed.replace("[selfplay]\n", "[selfplay]\ncheap_share = 1.5\n"),
        ),
    ] {
        let config = dir.path().join("bad.toml");
        std::fs::write(&config, &bad).unwrap();
        let out = common::run_loop(&config, &run);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{key}: {err}");
        assert!(
            err.contains(key.split('.').next_back().unwrap()),
            "{key}: {err}"
        );
        assert!(
            !run.join("games").exists() && !run.join("networks").exists(),
            "{key}: nothing played or written"
        );
    }
    let config = dir.path().join("fixed.toml");
    std::fs::write(&config, &fixed).unwrap();
    let out = common::run_loop(&config, &run);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(run.join("networks").join("gen-0001.safetensors").exists());
}

/// The four cases a probe of hostile input still found (issue 45): each is
/// now refused (or reported) in one short line.
#[test]
fn deep_perft_vectors_huge_comments_and_headers_and_a_zero_batch_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    // A perft vector of depth 100000 aborted on a stack overflow (exit 134).
    let vectors = game::read_repo_file(
        env!("CARGO_MANIFEST_DIR"),
        "games/piratechnics/vectors/perft.txt",
    );
    let start = vectors
        .lines()
        .find(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .and_then(|l| l.split(';').next())
        .expect("a vector line");
    let deep = dir.path().join("deep.txt");
    std::fs::write(&deep, format!("{start}; D1 1 ; D100000 1\n")).unwrap();
    refused(
        &["perft", "--suite", deep.to_str().unwrap()],
        "depth 100000 is deeper than perft counts (30 at most)",
    );
    // A 10 MB token after a move was taken for a comment: exit 0 and
    // 20 MB of warning. It is no comment now: the move cannot be read.
    let record = dir.path().join("garbage.txt");
    let garbage = "x".repeat(10_000_000);
    std::fs::write(&record, format!("1)\td2<PPP>-d4 {garbage},\td7<PPP>-d5;\n")).unwrap();
    let out = triad(&["replay", record.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{}", &err[..err.len().min(300)]);
    assert!(err.len() < 1_000, "{} bytes of message", err.len());
    assert!(err.contains("are not a comment (at most 1000)"), "{err}");
    // A short comment is still a comment, kept with a warning (exit 0).
    std::fs::write(&record, "1)\td2<PPP>-d4 forced,\td7<PPP>-d5;\n").unwrap();
    let out = triad(&["replay", record.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("\"forced\" is not a move"), "{err}");
    // A metrics file with a 10 MB header line was quoted whole.
    let csv = dir.path().join("metrics.csv");
    std::fs::write(&csv, format!("{garbage}\n1,2\n")).unwrap();
    refused(&["plot", csv.to_str().unwrap()], "not a triad metrics file");
    let err = String::from_utf8_lossy(&triad(&["plot", csv.to_str().unwrap()]).stderr).to_string();
    assert!(err.len() < 1_000, "{} bytes of message", err.len());
    // `bench model --max-batch 0` measured batch size 1 and exited 0.
    refused(
        &["bench", "model", "--max-batch", "0", "--seconds", "0.01"],
        "--max-batch must be at least 1",
    );
}
