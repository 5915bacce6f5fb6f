//! Pirate Chess and Influence Chess through the binary (issues 14 and 15:
//! "every command that makes sense for a game works for this one"): perft,
//! show, analyze, play, move, config, selfplay, train, eval (engines and a
//! trained network), loop, openings, data info, data export, replay and
//! plot, each on tiny settings in a temporary folder, each checked on one
//! fact of its output and not only on its exit status.

use crate::common;

use crate::common::triad;
use serde_json::Value;
use std::path::Path;
use std::process::Output;

/// Runs `triad args` and fails naming the command and its stderr unless it
/// exits 0.
fn ok(args: &[&str]) -> Output {
    let out = triad(args);
    assert!(
        out.status.success(),
        "triad {} exited {:?}: {}",
        args.join(" "),
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// [`ok`] of a command given `--json` (or `--format json`): its one object.
fn ok_json(args: &[&str]) -> Value {
    let out = ok(args);
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "triad {}: not one JSON object ({e}): {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The depth-2 count of `start` in the game's perft vectors
/// (`games/GAME/vectors/perft.txt`, lines `POSITION ; D1 n ; D2 n ...`).
fn vector_d2(game: &str, start: &str) -> u64 {
    let text = game::read_repo_file(
        env!("CARGO_MANIFEST_DIR"),
        &format!("games/{game}/vectors/perft.txt"),
    );
    let line = text
        .lines()
        .find(|l| l.split(';').next().unwrap().trim() == start)
        .unwrap_or_else(|| panic!("{game}/perft.txt has no line for the start {start}"));
    let d2 = line
        .split(';')
        .map(|f| f.split_whitespace().collect::<Vec<_>>())
        .find(|f| f.first() == Some(&"D2"))
        .unwrap_or_else(|| panic!("no D2 count in {line}"));
    d2[1].parse().unwrap()
}

/// The tiny run file for `game`: a 1-block network, 4 simulations, 4 games
/// in flight, 40 plies, one thread, one generation of 4 games and 5 steps.
/// `extra` goes at the end of `[train]`; `[selfplay]` keys go in `sp`.
fn tiny_config(game: &str, sp: &str, extra: &str) -> String {
    format!(
        r#"seed = 3
[game]
name = "{game}"
[model]
blocks = 1
channels = 8
threads = 1
[selfplay]
simulations = 4
cheap_simulations = 2
max_plies = 40
games_in_flight = 4
{sp}
[train]
batch_size = 16
schedule = "constant"
warmup_steps = 0
checkpoint_every = 5
metrics_every = 1
mirror = true
{extra}
[eval]
games = 2
simulations = 4
ladder = ["random", "ab:depth=1"]
max_plies = 40
threads = 1
[loop]
generations = 1
games_per_generation = 4
train_steps_per_generation = 5
"#
    )
}

/// Every command on `game` (`NAME`, its default variant `variant`), in a
/// temporary folder: those on a position first, then a run's stages in
/// order, each handing the next what it wrote.
fn every_command(game: &str, variant: &str, config_text: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let full = format!("{game}/{variant}");
    let start = position_commands(game, variant);
    // config: the run file is read as this game.
    let config = dir.join(format!("{game}.toml"));
    std::fs::write(&config, config_text).unwrap();
    let c = s(&config);
    let resolved = ok_json(&["config", c, "--json"]);
    assert_eq!(resolved["game"]["name"], game, "{resolved}");
    assert_eq!(resolved["game"]["variant"], variant, "{resolved}");

    let games = selfplay_and_data(game, &full, c, dir, &start);
    let ckpt = train_and_plot(game, variant, c, dir, &games);
    eval_and_move(game, dir, &ckpt, &start.legal);
    loop_run(game, &full, c, dir);
}

/// The start of a game as `show --json` gives it.
struct Start {
    position: String,
    legal: Vec<String>,
}

/// The commands on a position: show (JSON and drawn), perft (against the
/// game's vectors), analyze, play and move.
fn position_commands(game: &str, variant: &str) -> Start {
    // show: the start position, its side and legal moves.
    let shown = ok_json(&["show", "--game", game, "--json"]);
    assert_eq!(shown["game"], game, "{shown}");
    assert_eq!(shown["variant"], variant, "{shown}");
    assert!(shown["outcome"].is_null(), "{shown}");
    let start = shown["position"].as_str().unwrap().to_string();
    let legal: Vec<String> = shown["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    assert!(!legal.is_empty(), "{shown}");
    // The text drawing, with the move list.
    let drawn = ok(&["show", "--game", game, "--moves"]);
    let drawn = String::from_utf8_lossy(&drawn.stdout);
    assert!(drawn.contains(&legal[0]), "{drawn}");

    // perft: depth 2 from the start, against the game's vectors, and the
    // sum of its root moves with --divide.
    let p = ok_json(&["perft", "--game", game, "--depth", "2", "--json"]);
    let nodes = p["nodes"].as_u64().unwrap();
    assert_eq!(p["depth"], 2, "{p}");
    assert!(nodes > legal.len() as u64, "{p}");
    let d2 = vector_d2(game, &start);
    assert_eq!(nodes, d2, "perft 2 of {game} against its vectors");
    let d1 = ok_json(&["perft", "--game", game, "--depth", "1", "--json"]);
    assert_eq!(d1["nodes"].as_u64().unwrap(), legal.len() as u64, "{d1}");

    // analyze: a depth-2 search from the start plays a legal move.
    let a = ok_json(&["analyze", "--game", game, "--depth", "2", "--json"]);
    let best = a["bestmove"].as_str().unwrap();
    assert!(legal.iter().any(|m| m == best), "{a}");
    assert_eq!(a["depth"], 2, "{a}");
    assert_eq!(a["pv"][0], best, "{a}");
    let a = ok_json(&[
        "analyze",
        "--game",
        game,
        "--position",
        &start,
        "--movetime",
        "50",
        "--json",
    ]);
    assert!(legal.iter().any(|m| a["bestmove"] == m.as_str()), "{a}");

    // play: a human move on stdin, the engine answers, `moves` lists,
    // `undo` takes the pair back, `quit` ends with exit 0.
    let played = crate::common::triad_with_input(
        &["play", "--game", game, "--engine", "ab:depth=1"],
        &format!("{}\nmoves\nundo\nquit\n", legal[0]),
    );
    let text = String::from_utf8_lossy(&played.stdout);
    assert!(
        played.status.success(),
        "play: {}",
        String::from_utf8_lossy(&played.stderr)
    );
    assert!(text.contains("engine plays"), "play: {text}");
    assert!(text.contains("legal moves"), "play: {text}");

    // move: one alpha-beta move as JSON.
    let m = ok_json(&["move", "--game", game, "--player", "ab:depth=1", "--json"]);
    assert!(legal.iter().any(|l| m["move"] == l.as_str()), "{m}");

    Start {
        position: start,
        legal,
    }
}

/// What self-play wrote: its folder and its number of positions.
struct Games {
    dir: std::path::PathBuf,
    positions: u64,
}

/// selfplay of 4 games, then what reads their shards: data info, openings
/// (with its chart), data export and replay of the record.
fn selfplay_and_data(game: &str, full: &str, c: &str, dir: &Path, st: &Start) -> Games {
    let (start, legal) = (&st.position, &st.legal);
    // selfplay: 4 games, their shards, the summary.
    let games = dir.join("games");
    let sp = ok_json(&[
        "selfplay",
        "--config",
        c,
        "--games",
        "4",
        "--out",
        s(&games),
        "--json",
    ]);
    assert_eq!(sp["games"], 4, "{sp}");
    let outcomes = ["white_wins", "draws", "black_wins"]
        .iter()
        .map(|k| sp[k].as_u64().unwrap())
        .sum::<u64>();
    assert_eq!(outcomes, 4, "{sp}");
    let positions = sp["positions"].as_u64().unwrap();
    assert!((4..=4 * 40).contains(&positions), "{sp}");

    // data info: the same games and positions, recorded as this game.
    let info = ok_json(&["data", "info", s(&games), "--json"]);
    assert_eq!(info["games"], 4, "{info}");
    assert_eq!(info["positions"], positions, "{info}");
    assert_eq!(info["game"], serde_json::json!([full]), "{info}");

    // openings: the tree counts the 4 games, and its first plies are
    // legal moves of the start.
    let tree = ok_json(&[
        "openings",
        s(&games),
        "--plies",
        "2",
        "--format",
        "json",
        "--chart",
        s(&dir.join("first-moves.svg")),
    ]);
    assert_eq!(tree["games"], 4, "{tree}");
    assert_eq!(
        tree["start_positions"],
        serde_json::json!([start]),
        "{tree}"
    );
    let firsts: Vec<&Value> = tree["lines"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["depth"] == 1)
        .collect();
    assert_eq!(
        firsts
            .iter()
            .map(|l| l["games"].as_u64().unwrap())
            .sum::<u64>(),
        4,
        "{tree}"
    );
    for l in &firsts {
        assert!(legal.iter().any(|m| l["line"] == m.as_str()), "{tree}");
    }
    assert!(dir.join("first-moves.svg").exists());

    // data export of game 0, and replay of the record: as many plies as
    // the game has rows, from a first move that the tree saw.
    let record = dir.join("game0.txt");
    ok(&[
        "data",
        "export",
        s(&games),
        "--game",
        "0",
        "--out",
        s(&record),
    ]);
    let text = std::fs::read_to_string(&record).unwrap();
    assert!(text.starts_with("Game 0 ("), "{text}");
    assert!(text.contains(full), "{text}");
    let shard = std::fs::read_dir(&games)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "parquet"))
        .unwrap();
    let rows = data::read_shard(&shard)
        .unwrap()
        .into_iter()
        .filter(|r| r.game_id == 0)
        .count();
    assert!(rows > 0);
    let replayed = ok_json(&["replay", "--game", game, s(&record), "--json"]);
    assert_eq!(replayed["plies"], rows, "{replayed}");
    assert_eq!(replayed["warnings"], serde_json::json!([]), "{replayed}");
    // Without --game, replay reads the game and start from the header.
    let by_header = ok_json(&["replay", s(&record), "--json"]);
    assert_eq!(by_header, replayed, "the header names the game");
    let first = &replayed["moves"][0];
    assert!(
        firsts.iter().any(|l| l["line"] == *first),
        "{replayed} {tree}"
    );

    Games {
        dir: games,
        positions,
    }
}

/// train 5 steps on the self-play shards, and plot the run; the checkpoint.
fn train_and_plot(game: &str, variant: &str, c: &str, dir: &Path, g: &Games) -> std::path::PathBuf {
    let (games, positions) = (&g.dir, g.positions);
    // train: 5 steps on those shards, a checkpoint of this game.
    let train = dir.join("train");
    let t = ok_json(&[
        "train",
        "--config",
        c,
        "--data",
        s(games),
        "--out",
        s(&train),
        "--steps",
        "5",
        "--json",
    ]);
    assert_eq!(t["final_step"], 5, "{t}");
    assert_eq!(t["window_positions"], positions, "{t}");
    let ckpt = train.join("checkpoints/step-00000005.safetensors");
    assert!(ckpt.exists(), "{t}");
    let sidecar: Value = serde_json::from_str(
        &std::fs::read_to_string(train.join("checkpoints/step-00000005.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(sidecar["game"], game, "{sidecar}");
    assert_eq!(sidecar["variant"], variant, "{sidecar}");
    let metrics = std::fs::read_to_string(train.join("metrics.csv")).unwrap();
    assert_eq!(metrics.lines().count(), 6, "{metrics}");

    // plot of the training run.
    let plot = dir.join("train.svg");
    ok(&["plot", s(&train), "--out", s(&plot)]);
    assert!(plot.exists());

    ckpt
}

/// eval between engines, then with the trained network (its games saved),
/// and move by the network.
fn eval_and_move(game: &str, dir: &Path, ckpt: &Path, legal: &[String]) {
    // eval: engines, then the trained network, 2 games each.
    let e = ok_json(&[
        "eval",
        "--game",
        game,
        "--players",
        "random",
        "ab:depth=1",
        "--games",
        "2",
        "--threads",
        "1",
        "--max-plies",
        "40",
        "--json",
    ]);
    assert_eq!(e["games"], 2, "{e}");
    assert_eq!(e["opponent"], "ab:depth=1", "{e}");
    let wdl = ["wins", "draws", "losses"].map(|k| e[k].as_u64().unwrap());
    assert_eq!(wdl.iter().sum::<u64>(), 2, "{e}");
    let net = format!("net:{},sims=4", s(ckpt));
    let eval_games = dir.join("eval-games");
    let e = ok_json(&[
        "eval",
        "--game",
        game,
        "--players",
        &net,
        "random",
        "--games",
        "2",
        "--threads",
        "1",
        "--max-plies",
        "40",
        "--device",
        "cpu",
        "--out",
        s(&eval_games),
        "--json",
    ]);
    assert_eq!(e["games"], 2, "{e}");
    assert_eq!(e["player"], net.as_str(), "{e}");
    let saved = ok_json(&["data", "info", s(&eval_games), "--json"]);
    assert_eq!(saved["games"], 2, "{saved}");

    // move: the trained network answers with a legal move.
    let m = ok_json(&[
        "move",
        "--game",
        game,
        "--player",
        &format!("net:{},sims=4", s(ckpt)),
        "--json",
    ]);
    assert!(legal.iter().any(|l| m["move"] == l.as_str()), "{m}");
}

/// loop: one generation, its networks, ratings and games, read back by
/// data info, openings and plot.
fn loop_run(game: &str, full: &str, c: &str, dir: &Path) {
    // loop: one generation, its networks, ratings and games.
    let run = dir.join("run");
    let l = ok_json(&["loop", "--config", c, "--run", s(&run), "--json"]);
    assert_eq!(l["generations"], 1, "{l}");
    for f in [
        "networks/gen-0000.safetensors",
        "networks/gen-0001.safetensors",
        "networks/gen-0001.json",
        "ratings.csv",
        "matches.json",
        "train/metrics.csv",
        "eval/gen-0001.parquet",
    ] {
        assert!(run.join(f).exists(), "{game}: loop wrote no {f}");
    }
    let sidecar: Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("networks/gen-0001.json")).unwrap())
            .unwrap();
    assert_eq!(sidecar["game"], game, "{sidecar}");
    let ratings = std::fs::read_to_string(run.join("ratings.csv")).unwrap();
    assert_eq!(ratings.lines().count(), 3, "{ratings}");
    let players: Vec<&str> = l["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["player"].as_str().unwrap())
        .collect();
    for p in ["gen-0000", "gen-0001", "random", "ab:depth=1"] {
        assert!(players.contains(&p), "{p} not rated: {l}");
    }
    // The run's self-play games, by the run directory.
    let info = ok_json(&["data", "info", s(&run), "--json"]);
    assert_eq!(info["games"], 4, "{info}");
    // Its self-play and evaluation games are what the rules say.
    for games in [run.clone(), run.join("eval")] {
        let v = ok_json(&["data", "verify", s(&games), "--json"]);
        assert_eq!(
            (&v["ok"], &v["faults"]),
            (&Value::Bool(true), &Value::from(0)),
            "{game}: {v}"
        );
        assert!(v["rows"].as_u64().unwrap() > 0, "{v}");
    }
    assert_eq!(info["game"], serde_json::json!([full]), "{info}");
    let tree = ok_json(&["openings", s(&run), "--format", "json"]);
    assert_eq!(tree["games"], 4, "{tree}");
    let plot = dir.join("run.svg");
    ok(&["plot", s(&run), "--out", s(&plot)]);
    assert!(plot.exists());
}

#[test]
fn every_command_works_for_pirate_chess() {
    // The pirate quickstart's game-specific keys: games at max_plies
    // adjudicated by the static evaluation, and a share of it in the value
    // target.
    every_command(
        "pirate",
        "8x8",
        &tiny_config(
            "pirate",
            "adjudicate = 300",
            "value_eval_weight = 0.5\nvalue_eval_scale = 400",
        ),
    );
}

#[test]
fn every_command_works_for_influence_chess() {
    every_command(
        "influence",
        "standard",
        &tiny_config("influence", "", "value_q_weight = 0.5"),
    );
}

/// `triad show --svg FILE` draws the start of every game: an SVG document
/// with the game's caption (who moves), written to the file while the
/// diagram still goes to standard output; `--svg -` writes the picture
/// alone to standard output, and refuses `--json` beside it.
#[test]
fn show_svg_draws_the_start_of_every_game() {
    let dir = tempfile::tempdir().unwrap();
    for (game, caption) in [
        ("connect4", ">White to move<"),
        ("piratechnics", ">White to move; move 1<"),
        ("pirate", ">Blue to move;"),
        ("influence", ">Above (White) to move;"),
    ] {
        let path = dir.path().join(format!("{game}.svg"));
        let out = ok(&["show", "--game", game, "--svg", s(&path)]);
        assert!(
            !out.stdout.is_empty(),
            "{game}: the diagram is still printed"
        );
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(
            svg.starts_with("<svg") && svg.ends_with("</svg>"),
            "{game}: {svg}"
        );
        assert!(svg.contains(caption), "{game}: no {caption:?} in {svg}");
        let piped = ok(&["show", "--game", game, "--svg", "-"]);
        assert_eq!(
            String::from_utf8_lossy(&piped.stdout).trim_end(),
            svg,
            "{game}"
        );
    }
    // Nothing is left beside the files (the temporary name was renamed).
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 4);
    let both = triad(&["show", "--svg", "-", "--json"]);
    common::refused_naming(&both, "--svg", "--json");
}
