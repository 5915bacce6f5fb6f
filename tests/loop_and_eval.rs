//! End-to-end: `triad eval` and a tiny `triad loop`, through the binary.

use crate::common;

use crate::common::{json, refused_naming, triad, TINY};
use std::path::Path;
use std::process::Command;

#[test]
fn eval_reports_a_two_player_match_from_the_first_side() {
    let out = triad(&[
        "eval",
        "--players",
        "ab:depth=1,random",
        "--games",
        "4",
        "--json",
    ]);
    let v = json(&out);
    assert_eq!(v["games"], 4);
    let (w, d, l) = (
        v["wins"].as_u64().unwrap(),
        v["draws"].as_u64().unwrap(),
        v["losses"].as_u64().unwrap(),
    );
    assert_eq!(w + d + l, 4);
    let score = v["score"].as_f64().unwrap();
    assert!((score - (w as f64 + 0.5 * d as f64) / 4.0).abs() < 1e-9);
    assert!(v["elo_ci95"].is_array());
    // Bad input: exit 2 with a one-line message.
    let bad = triad(&["eval", "--players", "random,gnuchess", "--games", "2"]);
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&bad.stderr).trim().lines().count(),
        1
    );
    let bad = triad(&["eval", "--players", "random,random", "--device", "gpu"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--device"));
    let bad = triad(&["eval", "--players", "random,random", "--batching", "all"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--batching"));
}

/// A random 1-block network of Connect Four's standard board at `path`.
fn tiny_connect4_net(path: &Path) {
    use game::Game;
    let game = connect4::Connect4::standard();
    let shape = model::Shape {
        blocks: 1,
        channels: 8,
        ..model::Shape::of(&model::ModelConfig::default(), game.encoding())
    };
    model::Network::with_shape(shape, tch::Device::Cpu, 3)
        .save(
            path,
            &model::CheckpointInfo::new(&game::GameTag::of(&game), shape, 0),
        )
        .unwrap();
}

/// `triad eval` reports every player's moves and mean time per move, and
/// a network's mean simulations per move; a match with a `movetime=`
/// network player says it is not reproducible and was played game by
/// game, and each of its network's moves stayed within its time plus a
/// generous margin (an upper bound, not a speed); `movetime=0` and
/// `movetime=abc` are refused naming the option.
#[test]
fn eval_reports_time_and_simulations_per_move() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tiny.safetensors");
    tiny_connect4_net(&path);
    let net = format!("net:{},sims=8", path.display());
    let eval = |players: &[&str], json: bool| {
        let mut args = vec!["eval", "--game", "connect4", "--players"];
        args.extend_from_slice(players);
        args.extend(["--games", "2", "--threads", "1", "--max-plies", "12"]);
        args.extend(["--device", "cpu"]);
        if json {
            args.push("--json");
        }
        triad(&args)
    };
    let v = json(&eval(&[&net, "ab:depth=1"], true));
    assert_eq!(v["reproducible"], true, "{v}");
    let clocks = v["clocks"].as_array().expect("clocks");
    assert_eq!(clocks.len(), 2, "{v}");
    assert_eq!(clocks[0]["player"], net.as_str());
    assert_eq!(clocks[1]["player"], "ab:depth=1");
    for c in clocks {
        assert!(c["moves"].as_u64().unwrap() > 0, "{v}");
        assert!(c["ms_per_move"].as_f64().unwrap() >= 0.0, "{v}");
    }
    let sims = clocks[0]["simulations_per_move"].as_f64().unwrap();
    assert!((1.0..=8.0).contains(&sims), "{v}");
    assert_eq!(clocks[0]["lockstep"], true, "{v}");
    assert_eq!(clocks[1]["simulations_per_move"], serde_json::Value::Null);

    // Equal time per move, measured: 30 ms each.
    let timed = format!("net:{},movetime=30", path.display());
    let v = json(&eval(&[&timed, "ab:movetime=30"], true));
    assert_eq!(v["reproducible"], false, "{v}");
    let c = &v["clocks"][0];
    assert_eq!(c["player"], timed.as_str());
    assert_eq!(c["lockstep"], false, "{v}");
    assert!(c["simulations_per_move"].as_f64().unwrap() >= 1.0, "{v}");
    assert!(c["ms_per_move"].as_f64().unwrap() <= 30.0 + 250.0, "{v}");
    assert!(v["clocks"][1]["ms_per_move"].as_f64().unwrap() <= 30.0 + 250.0);
    let out = eval(&[&timed, "ab:movetime=30"], false);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("\ntime per move (wall clock):\n"), "{text}");
    assert!(text.contains("not reproducible move for move"), "{text}");
    assert!(text.contains("game by game"), "{text}");

    for bad in ["0", "abc"] {
        let spec = format!("net:{},movetime={bad}", path.display());
        let out = eval(&[&spec, "random"], false);
        refused_naming(&out, "movetime", &format!("`{bad}`"));
    }
}

#[test]
fn a_tiny_loop_runs_resumes_and_refuses_another_config() {
    let dir = std::env::temp_dir().join(format!("triad-loop-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = dir.join("tiny.toml");
    std::fs::write(&cfg, TINY).unwrap();
    let run = dir.join("run");
    let (c, r) = (cfg.to_str().unwrap(), run.to_str().unwrap());

    let v = json(&triad(&["loop", "--config", c, "--run", r, "--json"]));
    assert_eq!(v["generations"], 1);
    for f in [
        "config.toml",
        "state.json",
        "matches.json",
        "ratings.csv",
        "networks/gen-0000.safetensors",
        "networks/gen-0001.safetensors",
        "networks/gen-0001.json",
        "train/metrics.csv",
        "eval/gen-0001.parquet",
    ] {
        assert!(run.join(f).exists(), "{f} missing");
    }
    let ratings = std::fs::read_to_string(run.join("ratings.csv")).unwrap();
    assert_eq!(ratings.lines().count(), 3, "{ratings}");
    // The run's self-play and evaluation games are what the rules say.
    for games in [r.to_string(), format!("{r}/eval")] {
        let v = json(&triad(&["data", "verify", &games, "--json"]));
        assert_eq!(v["ok"], true, "{v}");
    }
    // The stages' diagnostics: self-play's rates and shares, training's
    // samples/s, each within its range.
    let diag = std::fs::read_to_string(run.join("diagnostics.csv")).unwrap();
    let header: Vec<&str> = diag.lines().next().unwrap().split(',').collect();
    let row = |stage: &str| -> std::collections::HashMap<String, f64> {
        let line = diag
            .lines()
            .find(|l| l.starts_with(&format!("1,{stage},")))
            .unwrap_or_else(|| panic!("no generation 1 {stage} row in {diag}"));
        header
            .iter()
            .zip(line.split(','))
            .filter_map(|(h, x)| Some((h.to_string(), x.parse().ok()?)))
            .collect()
    };
    let sp = row("selfplay");
    for k in [
        "evals_per_s",
        "games_per_s",
        "positions_per_s",
        "mean_batch",
        "cpu_us_per_eval",
    ] {
        assert!(sp[k] > 0.0, "{k} in {diag}");
    }
    for k in ["batch_fill", "network_busy"] {
        assert!(sp[k] > 0.0 && sp[k] <= 1.0, "{k} in {diag}");
    }
    assert!((0.0..=1.0).contains(&sp["cache_hit_rate"]), "{diag}");
    let train = row("train");
    assert!(train["samples_per_s"] > 0.0, "{diag}");
    assert!((0.0..=1.0).contains(&train["data_wait_share"]), "{diag}");
    let names: Vec<String> = v["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["player"].as_str().unwrap().to_string())
        .collect();
    assert!(names.contains(&"random".to_string()) && names.contains(&"gen-0001".to_string()));

    // Interrupted after self-play of generation 1: running again resumes
    // there and ends with the same files.
    let state = run.join("state.json");
    std::fs::write(&state, r#"{"generation":1,"stage":"train","best":0}"#).unwrap();
    let again = json(&triad(&["loop", "--config", c, "--run", r, "--json"]));
    assert_eq!(again["generations"], 1);
    assert!(std::fs::read_to_string(&state).unwrap().contains("done"));

    // A finished run is not played again.
    let done = json(&triad(&["loop", "--config", c, "--run", r, "--json"]));
    assert_eq!(done["best"], again["best"]);

    // Another config for the same run directory is refused.
    let other = dir.join("other.toml");
    std::fs::write(&other, TINY.replace("seed = 5", "seed = 6")).unwrap();
    let refused = triad(&["loop", "--config", other.to_str().unwrap(), "--run", r]);
    assert_eq!(refused.status.code(), Some(2));

    // An unknown key names the key and the file.
    std::fs::write(
        &other,
        format!("{TINY}\n[loop]\ngenerationz = 3\n").replace(
            "[loop]\ngenerations = 1\ngames_per_generation = 4\ntrain_steps_per_generation = 10\n",
            "",
        ),
    )
    .unwrap();
    let bad = triad(&[
        "loop",
        "--config",
        other.to_str().unwrap(),
        "--run",
        dir.join("run2").to_str().unwrap(),
    ]);
    assert_eq!(bad.status.code(), Some(2));
    let msg = String::from_utf8_lossy(&bad.stderr);
    assert!(
        msg.contains("generationz") && msg.contains("other.toml"),
        "{msg}"
    );

    // The plot of a loop run.
    let plot = triad(&["plot", r, "--out", dir.join("p.svg").to_str().unwrap()]);
    assert!(
        plot.status.success(),
        "{}",
        String::from_utf8_lossy(&plot.stderr)
    );
    assert!(Path::new(&dir.join("p.svg")).exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The loop runs on other variants: every network and shard of the run
/// records its game and variant, and the other commands refuse them where
/// another variant is expected, naming both.
#[test]
fn tiny_loops_on_other_variants_record_and_refuse_their_variant() {
    let dir = std::env::temp_dir().join(format!("triad-variant-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for variant in ["8x8", "capacity2"] {
        let cfg = dir.join(format!("{variant}.toml"));
        let text = format!("{TINY}[game]\nname = \"piratechnics\"\nvariant = \"{variant}\"\n");
        std::fs::write(&cfg, text).unwrap();
        let run = dir.join(variant);
        let (c, r) = (cfg.to_str().unwrap(), run.to_str().unwrap());
        let v = json(&triad(&["loop", "--config", c, "--run", r, "--json"]));
        assert_eq!(v["generations"], 1, "{variant}");
        let sidecar = std::fs::read_to_string(run.join("networks/gen-0001.json")).unwrap();
        let sidecar: serde_json::Value = serde_json::from_str(&sidecar).unwrap();
        assert_eq!(sidecar["game"], "piratechnics");
        assert_eq!(sidecar["variant"], variant);
        let info = json(&triad(&[
            "data",
            "info",
            run.join("games/gen-0001").to_str().unwrap(),
            "--json",
        ]));
        assert_eq!(info["games"], 4, "{info}");
        assert!(
            info.to_string()
                .contains(&format!("piratechnics/{variant}")),
            "{info}"
        );

        // A network of this variant in a run of the standard game: exit 2,
        // both named.
        let net = run.join("networks/gen-0001.safetensors");
        let std_cfg = dir.join("standard.toml");
        std::fs::write(&std_cfg, TINY).unwrap();
        let refused = triad(&[
            "selfplay",
            "--config",
            std_cfg.to_str().unwrap(),
            "--model",
            net.to_str().unwrap(),
            "--games",
            "1",
            "--out",
            dir.join("refused").to_str().unwrap(),
        ]);
        refused_naming(
            &refused,
            &format!("piratechnics/{variant}"),
            "piratechnics/standard",
        );
        // Its shards to a trainer of the standard game: exit 2, both named.
        let refused = triad(&[
            "train",
            "--config",
            std_cfg.to_str().unwrap(),
            "--data",
            run.join("games/gen-0001").to_str().unwrap(),
            "--out",
            dir.join("refused-train").to_str().unwrap(),
        ]);
        refused_naming(
            &refused,
            &format!("piratechnics/{variant}"),
            "piratechnics/standard",
        );
    }
    // --game on a command without a run file.
    let show = json(&triad(&["show", "--game", "piratechnics/8x8", "--json"]));
    assert_eq!(show["variant"], "8x8");
    let bad = triad(&["perft", "--game", "piratechnics/9x9", "--depth", "1"]);
    assert_eq!(bad.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A finished run is extended by raising its generations; a second loop on
/// a running run is refused naming the first; after `kill -9` of the first,
/// running again resumes.
#[test]
fn a_run_is_extended_locked_and_resumed_after_kill() {
    let dir = std::env::temp_dir().join(format!("triad-extend-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = dir.join("tiny.toml");
    std::fs::write(&cfg, TINY).unwrap();
    let run = dir.join("run");
    let (c, r) = (cfg.to_str().unwrap(), run.to_str().unwrap());
    json(&triad(&["loop", "--config", c, "--run", r, "--json"]));
    let two = json(&triad(&[
        "loop",
        "--config",
        c,
        "--run",
        r,
        "--generations",
        "2",
        "--json",
    ]));
    assert_eq!(two["generations"], 2);
    assert!(run.join("networks/gen-0002.safetensors").exists());
    // Game ids are unique within the run: generation 2's start at 2·2³².
    let rows = data::read_shard(
        std::fs::read_dir(run.join("games/gen-0002"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|x| x == "parquet"))
            .unwrap(),
    )
    .unwrap();
    assert!(
        rows.iter().all(|r| r.game_id >> 32 == 2),
        "ids of generation 2"
    );
    // The same in the run file: raising [loop] generations extends too.
    std::fs::write(&cfg, TINY.replace("generations = 1", "generations = 3")).unwrap();
    let three = json(&triad(&["loop", "--config", c, "--run", r, "--json"]));
    assert_eq!(three["generations"], 3);

    // A loop holding the run: a second one is refused, naming it.
    let mut first = Command::new(env!("CARGO_BIN_EXE_triad"))
        .args(["loop", "--config", c, "--run", r, "--generations", "6"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let lock = run.join("triad.lock");
    let t = std::time::Instant::now();
    while !lock.exists() && t.elapsed().as_secs() < 30 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(lock.exists(), "the first loop holds the lock");
    let second = triad(&["loop", "--config", c, "--run", r, "--generations", "6"]);
    assert_eq!(second.status.code(), Some(2));
    let msg = String::from_utf8_lossy(&second.stderr);
    assert!(msg.contains(&format!("pid {}", first.id())), "{msg}");
    // kill -9 of the first: its lock is stale, and the run resumes.
    first.kill().unwrap();
    first.wait().unwrap();
    let resumed = json(&triad(&[
        "loop",
        "--config",
        c,
        "--run",
        r,
        "--generations",
        "6",
        "--json",
    ]));
    assert_eq!(resumed["generations"], 6);
    assert!(!lock.exists(), "released at the end");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `triad bench selfplay` reports its figures, with the padded move count
/// (the policy head's width) of both phases' batches, which must be alike
/// for the ratio to compare like with like (the pool's order is unit-tested
/// in bench/src/selfplay.rs); `--seconds 0` is bad input.
#[test]
fn bench_selfplay_measures_raw_and_selfplay_on_like_positions() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("run.toml");
    let text = TINY.replace("games_in_flight = 4", "games_in_flight = 32");
    std::fs::write(&cfg, text).unwrap();
    let out = common::succeeds(&[
        "bench",
        "selfplay",
        "--config",
        cfg.to_str().unwrap(),
        "--seconds",
        "2",
        "--json",
    ]);
    let j = json(&out);
    for key in [
        "raw_evals_per_s",
        "selfplay_evals_per_s",
        "ratio",
        "network_busy",
    ] {
        let v = j[key].as_f64().unwrap_or_else(|| panic!("{key} in {j}"));
        assert!(v > 0.0 && v.is_finite(), "{key} = {v}");
    }
    assert!(j["network_busy"].as_f64().unwrap() <= 1.0);
    assert_eq!(j["batch"], 16);
    let raw = j["padded_moves"]["raw"].as_f64().unwrap();
    let sp = j["padded_moves"]["selfplay"].as_f64().unwrap();
    assert!(raw >= 1.0 && sp >= 1.0, "padded moves {raw} / {sp}");
    assert!(
        raw >= 0.8 * sp && raw <= 1.25 * sp,
        "raw batches {raw} moves wide against self-play's {sp}"
    );
    let bad = triad(&[
        "bench",
        "selfplay",
        "--config",
        cfg.to_str().unwrap(),
        "--seconds",
        "0",
    ]);
    assert_eq!(bad.status.code(), Some(2));
}

/// `triad bench learn` runs two run files' loops from scratch under one
/// seed and budget, interleaved, and reports each one's curve of strength
/// against minutes with a plot; run files of two games are refused.
#[test]
fn bench_learn_compares_two_run_files_on_one_budget() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("small.toml");
    let b = dir.path().join("wide.toml");
    let c4 =
        format!("{TINY}[game]\nname = \"connect4\"\n").replace("max_plies = 40", "max_plies = 42");
    std::fs::write(&a, &c4).unwrap();
    std::fs::write(&b, c4.replace("channels = 8", "channels = 12")).unwrap();
    let out = dir.path().join("learn");
    let args = |minutes: &str| {
        vec![
            "bench".to_string(),
            "learn".into(),
            "--config".into(),
            a.display().to_string(),
            "--config".into(),
            b.display().to_string(),
            "--minutes".into(),
            minutes.into(),
            "--seed".into(),
            "9".into(),
            "--out".into(),
            out.display().to_string(),
            "--json".into(),
        ]
    };
    let run = |minutes: &str| {
        let a = args(minutes);
        json(&common::succeeds(
            &a.iter().map(String::as_str).collect::<Vec<_>>(),
        ))
    };
    let j = run("0.01");
    let runs = j["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!(j["seed"], 9);
    for (r, name) in runs.iter().zip(["small", "wide"]) {
        assert_eq!(r["name"], name);
        let curve = r["curve"].as_array().unwrap();
        // Generation 0's evaluation, then at least one trained generation.
        assert!(curve.len() >= 2, "{r}");
        let minutes: Vec<f64> = curve
            .iter()
            .map(|p| p["minutes"].as_f64().unwrap())
            .collect();
        assert!(minutes.windows(2).all(|w| w[0] < w[1]), "{minutes:?}");
        assert!(r["minutes_used"].as_f64().unwrap() >= 0.01);
        assert!(curve.iter().all(|p| p["scores"]["random"].is_number()));
        let copy = std::fs::read_to_string(out.join(name).join("run.toml")).unwrap();
        assert!(copy.contains("seed = 9"), "{copy}");
    }
    assert!(out.join("learn.png").exists());
    // Again with a larger budget: the runs are extended, not restarted.
    // The budget is set above what the first run used (a generation may
    // run past 0.01 minutes on a loaded machine), so whatever the load,
    // it leaves room for at least one more generation.
    let before = runs[0]["curve"].as_array().unwrap().len();
    let used = runs[0]["minutes_used"].as_f64().unwrap();
    let more = run(&format!("{:.6}", (used + 0.02).max(0.03)));
    assert!(more["runs"][0]["curve"].as_array().unwrap().len() > before);
    // Run files of two games are bad input.
    let other = dir.path().join("other.toml");
    std::fs::write(&other, TINY).unwrap();
    let bad = triad(&[
        "bench",
        "learn",
        "--config",
        a.to_str().unwrap(),
        "--config",
        other.to_str().unwrap(),
        "--minutes",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    refused_naming(&bad, "other.toml", "game");
    let bad = triad(&[
        "bench",
        "learn",
        "--config",
        a.to_str().unwrap(),
        "--minutes",
        "0",
        "--out",
        "x",
    ]);
    assert_eq!(bad.status.code(), Some(2));
}

/// The generations with a row in the run's `ratings.csv`.
fn rated_generations(run: &Path) -> Vec<String> {
    let ratings = std::fs::read_to_string(run.join("ratings.csv")).unwrap();
    ratings
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap().to_string())
        .collect()
}

/// `[eval] every = 2`: generations 0, 2 and the last (3) play matches,
/// each against the last one evaluated before it; gating with it is
/// refused naming the key.
#[test]
fn eval_every_second_generation_rates_only_those() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("run.toml");
    let text = TINY
        .replace("generations = 1", "generations = 3")
        .replace("threads = 1\n", "threads = 1\nevery = 2\n");
    std::fs::write(&cfg, &text).unwrap();
    let run = dir.path().join("run");
    let out = common::run_loop(&cfg, &run);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(rated_generations(&run), ["0", "2", "3"]);
    let matches = std::fs::read_to_string(run.join("matches.json")).unwrap();
    assert!(!matches.contains("gen-0001"), "{matches}");
    for g in [1, 2, 3] {
        assert!(run
            .join(format!("networks/gen-000{g}.safetensors"))
            .exists());
    }
    assert!(!run.join("eval/gen-0001.parquet").exists());
    let gated = dir.path().join("gated.toml");
    std::fs::write(&gated, text.replace("[loop]\n", "[loop]\ngating = true\n")).unwrap();
    refused_naming(
        &common::triad(&["config", gated.to_str().unwrap()]),
        "eval.every",
        "gating",
    );
}

/// `[loop] minutes`: the generation trained when the stages have used the
/// budget (here generation 1: generation 0 never is) is the run's last, and it plays its matches though `every`
/// would skip it; the same command then does nothing more, a larger
/// budget extends the run, and a bad budget is refused naming the key.
#[test]
fn a_wall_clock_budget_ends_the_run_after_the_generation_under_way() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("run.toml");
    // 0.00001 minutes: generation 0 alone takes longer.
    let text = TINY
        .replace("generations = 1", "generations = 6\nminutes = 0.00001")
        .replace("threads = 1\n", "threads = 1\nevery = 4\n");
    std::fs::write(&cfg, &text).unwrap();
    let run = dir.path().join("run");
    let (c, r) = (cfg.to_str().unwrap(), run.to_str().unwrap());
    let generations = |extra: &[&str]| {
        let mut args = vec!["loop", "--config", c, "--run", r, "--json"];
        args.extend_from_slice(extra);
        json(&triad(&args))["generations"].as_u64().unwrap()
    };
    assert_eq!(generations(&[]), 1);
    assert_eq!(rated_generations(&run), ["0", "1"]);
    assert!(!run.join("networks/gen-0002.safetensors").exists());
    // The budget ended long before a cosine over 100,000 steps: the loop
    // names the step reached and what to set.
    let log = |out: &std::process::Output| String::from_utf8_lossy(&out.stderr).to_string();
    let cosine_cfg = dir.path().join("cosine.toml");
    std::fs::write(
        &cosine_cfg,
        text.replace(
            "schedule = \"constant\"",
            "schedule = \"cosine\"\nschedule_steps = 100000",
        ),
    )
    .unwrap();
    let cosine_run = dir.path().join("cosine-run");
    let out = common::run_loop(&cosine_cfg, &cosine_run);
    assert!(out.status.success(), "{}", log(&out));
    let warning = log(&out);
    assert!(
        warning.contains("warning: the budget ended at training step ")
            && warning.contains(" of train.schedule_steps = 100000")
            && warning.contains("set train.schedule_steps to about "),
        "{warning}"
    );
    // Done: running it again plays nothing more.
    assert_eq!(generations(&[]), 1);
    assert!(!run.join("games/gen-0002").exists());
    // A larger budget extends it; `generations` still caps it.
    assert_eq!(generations(&["--minutes", "1000", "--generations", "2"]), 2);
    assert_eq!(rated_generations(&run), ["0", "1", "2"]);
    // Generation 2 met the run's old last generation, 1 (which `every`
    // would skip), not the last multiple of `every`, 0.
    let matches: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("matches.json")).unwrap()).unwrap();
    let games = |a: &str, b: &str| {
        let at = |n: &str| {
            matches["players"]
                .as_array()
                .unwrap()
                .iter()
                .position(|p| p == n)
                .unwrap()
        };
        let wdl = &matches["wdl"][at(a)][at(b)];
        (0..3).map(|k| wdl[k].as_u64().unwrap()).sum::<u64>()
    };
    assert_eq!(games("gen-0002", "gen-0001"), 2);
    assert_eq!(games("gen-0002", "gen-0000"), 0);
    // `--open-ended` stops at `generations` as well, its last generation
    // unevaluated (3 is no multiple of `every`).
    let v = json(&triad(&[
        "loop",
        "--config",
        c,
        "--run",
        r,
        "--json",
        "--minutes",
        "1000",
        "--generations",
        "3",
        "--open-ended",
    ]));
    assert_eq!(v["generations"], 3);
    assert_eq!(rated_generations(&run), ["0", "1", "2"]);
    refused_naming(
        &triad(&["loop", "--config", c, "--run", r, "--minutes=-1"]),
        "--minutes",
        "loop.minutes",
    );
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, text.replace("minutes = 0.00001", "minutes = -2")).unwrap();
    refused_naming(
        &triad(&["config", bad.to_str().unwrap()]),
        "loop.minutes",
        "bad.toml",
    );
}

/// `[loop] train_samples_per_position = r`: each generation adds
/// `ceil(r · positions / batch_size)` training steps, counted from its
/// shards (so the total follows the games' length, not a fixed number).
/// The run also uses forced playouts and global pooling, which must work
/// through every stage; full-search rows then carry a pruned policy
/// target, cheap ones none.
#[test]
fn sample_ratio_sets_the_training_steps_from_the_positions() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("run.toml");
    let text = TINY
        .replace(
            "generations = 1",
            "generations = 2\ntrain_samples_per_position = 3",
        )
        .replace("channels = 8\n", "channels = 8\nglobal_pool = true\n")
        .replace(
            "max_plies = 40\ngames_in_flight",
            "max_plies = 40\nforced_playouts = 2.0\ngames_in_flight",
        );
    std::fs::write(&cfg, &text).unwrap();
    let run = dir.path().join("run");
    let out = common::run_loop(&cfg, &run);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut expected = 0u64;
    let (mut full, mut cheap) = (0, 0);
    for g in 1..=2 {
        let gen = run.join(format!("games/gen-000{g}"));
        let mut rows = 0u64;
        for shard in data::list_shards(&[&gen]).unwrap() {
            let records = data::read_shard(&shard.path).unwrap();
            rows += records.len() as u64;
            for r in &records {
                if r.full_search {
                    full += 1;
                    let t = r
                        .policy_target
                        .as_ref()
                        .expect("a pruned target on a full search");
                    assert!((t.iter().sum::<f32>() - 1.0).abs() < 1e-3);
                } else {
                    cheap += 1;
                    assert!(r.policy_target.is_none());
                }
            }
        }
        assert!(rows > 0);
        expected += (3 * rows).div_ceil(16);
    }
    assert!(full > 0 && cheap > 0, "{full} full and {cheap} cheap rows");
    let sidecar: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("networks/gen-0002.json")).unwrap())
            .unwrap();
    assert_eq!(sidecar["step"].as_u64(), Some(expected), "{sidecar}");
    assert_eq!(sidecar["shape"]["global_pool"], true, "{sidecar}");
    // The distributed trainer has its own bound and refuses the key.
    trainer_refuses(&cfg, dir.path(), "train_samples_per_position");
}

/// `triad trainer` with run file `cfg` (a store under `dir`) exits 2
/// naming `key`, a `[loop]` key only `triad loop` runs.
fn trainer_refuses(cfg: &std::path::Path, dir: &std::path::Path, key: &str) {
    let refused = common::triad(&[
        "trainer",
        "--config",
        cfg.to_str().unwrap(),
        "--run",
        dir.join("store").to_str().unwrap(),
    ]);
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains(key), "{stderr}");
}

/// `[loop] late_simulations`: after `late_from` of the generations, the
/// full searches of self-play run the late count (the rows record it);
/// before, `[selfplay] simulations`. The distributed trainer refuses it.
#[test]
fn late_simulations_deepen_the_late_generations_full_searches() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("run.toml");
    let text = TINY.replace(
        "generations = 1",
        "generations = 2\nlate_simulations = 12\nlate_from = 0.5",
    );
    std::fs::write(&cfg, &text).unwrap();
    let run = dir.path().join("run");
    let out = common::run_loop(&cfg, &run);
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{log}");
    assert!(
        log.contains("generation 2: self-play with gen-0001, 12 simulations a full search (late_simulations)"),
        "{log}"
    );
    for (g, sims) in [(1, 8), (2, 12)] {
        let gen = run.join(format!("games/gen-000{g}"));
        let mut full = 0;
        for shard in data::list_shards(&[&gen]).unwrap() {
            for r in data::read_shard(&shard.path).unwrap() {
                if r.full_search && r.simulations.is_some() {
                    full += 1;
                    assert_eq!(r.simulations, Some(sims), "generation {g}, ply {}", r.ply);
                }
            }
        }
        assert!(full > 0, "generation {g} has no full-search rows");
    }
    trainer_refuses(&cfg, dir.path(), "loop.late_simulations");
}
