//! Networks across board sizes: a network of one Connect Four variant
//! starts a run of another (`triad train --init`, `[loop] init`), its
//! sidecars say where it came from, and a network of another game or
//! shape is refused by name.

use crate::common::{run_loop, succeeds, triad, TINY};
use serde_json::Value;
use std::path::Path;

/// [`TINY`]'s loop on Connect Four's `variant`, `extra` appended to its
/// `[loop]` section.
fn tiny_loop(variant: &str, extra: &str) -> String {
    let game = format!("[game]\nname = \"connect4\"\nvariant = \"{variant}\"\n[model]");
    format!("{}{extra}", TINY.replacen("[model]", &game, 1))
}

fn sidecar(weights: &Path) -> Value {
    let text = std::fs::read_to_string(weights.with_extension("json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn loop_run(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let config = dir.join(format!("{name}.toml"));
    std::fs::write(&config, text).unwrap();
    let run = dir.join(name);
    let out = run_loop(&config, &run);
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    run
}

#[test]
fn a_network_of_a_smaller_board_starts_a_run_on_the_standard_one() {
    let dir = tempfile::tempdir().unwrap();
    let small = loop_run(dir.path(), "small", &tiny_loop("6x5", ""));
    let small_net = small.join("networks/gen-0001.safetensors");
    assert_eq!(sidecar(&small_net)["variant"], "6x5");
    assert!(TINY.trim_end().ends_with("train_steps_per_generation = 10"));

    // The loop from the 6x5 network: generation 0 is it, labelled 7x6.
    let init = format!("init = {:?}\n", small_net.to_str().unwrap());
    let big = loop_run(dir.path(), "big", &tiny_loop("standard", &init));
    let gen0 = sidecar(&big.join("networks/gen-0000.safetensors"));
    assert_eq!(gen0["variant"], "7x6", "{gen0}");
    assert_eq!(gen0["parent"], small_net.to_str().unwrap(), "{gen0}");
    assert_eq!(gen0["metadata"]["init_from"], "connect4/6x5", "{gen0}");
    let gen1 = sidecar(&big.join("networks/gen-0001.safetensors"));
    assert_eq!(gen1["variant"], "7x6", "{gen1}");
    assert_eq!(gen1["metadata"]["init_from"], "connect4/6x5", "{gen1}");
    // Generation 0 plays the 7x6 board with the 6x5 weights: the same
    // tensors, byte for byte.
    let a = safetensors_bytes(&small_net);
    let b = safetensors_bytes(&big.join("networks/gen-0000.safetensors"));
    assert_eq!(a, b, "generation 0's weights are the 6x5 network's");

    // `train --init` of the 6x5 network on 7x6 shards, and `--steps 0`,
    // which labels it for 7x6 as it is (a zero-shot network).
    let config = dir.path().join("big.toml");
    for (steps, out) in [("12", "t12"), ("0", "t0")] {
        let out_dir = dir.path().join(out);
        let o = succeeds(&[
            "train",
            "--config",
            config.to_str().unwrap(),
            "--data",
            big.to_str().unwrap(),
            "--init",
            small_net.to_str().unwrap(),
            "--steps",
            steps,
            "--out",
            out_dir.to_str().unwrap(),
            "--json",
        ]);
        let summary: Value = serde_json::from_slice(&o.stdout).unwrap();
        let ckpt = summary["checkpoint"].as_str().expect("a checkpoint");
        let info = sidecar(Path::new(ckpt));
        assert_eq!(info["variant"], "7x6", "{info}");
        assert_eq!(info["step"], steps.parse::<u64>().unwrap(), "{info}");
        assert_eq!(info["metadata"]["init_from"], "connect4/6x5", "{info}");
        // The 7x6 network plays a 7x6 position.
        let spec = format!("net:{ckpt},sims=8");
        let o = succeeds(&[
            "move",
            "--game",
            "connect4",
            "--player",
            &spec,
            "--position",
            "4453",
        ]);
        assert!(!o.stdout.is_empty());
    }
}

/// The weights' bytes of a checkpoint (the tensors, not the file's
/// header, which names them in any order).
fn safetensors_bytes(path: &Path) -> Vec<u8> {
    let bytes = std::fs::read(path).unwrap();
    let n = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    bytes[8 + n..].to_vec()
}

#[test]
fn a_network_of_another_game_or_shape_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let small = loop_run(dir.path(), "small", &tiny_loop("6x5", ""));
    let c4_net = small.join("networks/gen-0001.safetensors");

    // Another shape: two blocks where the network has one.
    let wide = tiny_loop(
        "standard",
        &format!("init = {:?}\n", c4_net.to_str().unwrap()),
    )
    .replace("blocks = 1", "blocks = 2");
    let config = dir.path().join("wide.toml");
    std::fs::write(&config, wide).unwrap();
    let out = run_loop(&config, &dir.path().join("wide"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("[loop] init") && err.contains("expected"),
        "{err}"
    );

    // Another game: a Connect Four network in a Pirate Chess training run.
    let pirate = dir.path().join("pirate.toml");
    let text = TINY.replacen("[model]", "[game]\nname = \"pirate\"\n[model]", 1);
    std::fs::write(&pirate, text).unwrap();
    let shards = dir.path().join("pirate-shards");
    let (pirate, shards) = (pirate.to_str().unwrap(), shards.to_str().unwrap());
    succeeds(&[
        "selfplay", "--config", pirate, "--games", "2", "--out", shards,
    ]);
    let out = triad(&[
        "train",
        "--config",
        pirate,
        "--data",
        shards,
        "--init",
        c4_net.to_str().unwrap(),
        "--steps",
        "1",
        "--out",
        dir.path().join("t").to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("connect4/6x5") && err.contains("pirate"),
        "{err}"
    );
}

/// Synthetic shards of `game` (`triad bench data`) in `dir`.
fn bench_shards(dir: &Path, game: &str, seed: &str) {
    succeeds(&[
        "bench",
        "data",
        "--game",
        game,
        "--positions",
        "600",
        "--shard-rows",
        "600",
        "--seed",
        seed,
        "--dir",
        dir.to_str().unwrap(),
        "--json",
    ]);
}

/// `triad train --mix`: one run on two boards; its sidecar lists the mix;
/// a part of another game, a part written wrongly, or shards of the wrong
/// board are refused by name.
#[test]
fn train_mix_trains_one_network_on_two_boards() {
    let dir = tempfile::tempdir().unwrap();
    let (big, small) = (dir.path().join("big"), dir.path().join("small"));
    bench_shards(&big, "connect4", "1");
    bench_shards(&small, "connect4/6x5", "2");
    let train = |mix: &str, out: &Path| {
        triad(&[
            "train",
            "--game",
            "connect4",
            "--data",
            big.to_str().unwrap(),
            "--mix",
            mix,
            "--steps",
            "4",
            "--out",
            out.to_str().unwrap(),
            "--json",
        ])
    };
    let o = train(
        &format!("connect4/6x5={}", small.display()),
        &dir.path().join("mixed"),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let summary: Value = serde_json::from_slice(&o.stdout).unwrap();
    let info = sidecar(Path::new(summary["checkpoint"].as_str().unwrap()));
    assert_eq!(info["variant"], "7x6", "{info}");
    assert_eq!(info["metadata"]["mix"][0]["game"], "connect4/6x5", "{info}");
    assert!(
        info["metadata"]["mix"][0]["window_positions"]
            .as_u64()
            .unwrap()
            > 0
    );

    let wrong_board = format!("connect4/6x5={}", big.display());
    let other_game = format!("piratechnics={}", small.display());
    for (flag, needle) in [
        (other_game.as_str(), "not a variant of connect4"),
        ("connect4/6x5", "GAME=PATH"),
        (wrong_board.as_str(), "6x5"),
    ] {
        let o = train(flag, &dir.path().join("bad"));
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{flag}: {err}");
        assert!(err.contains(needle), "{flag}: {err}");
    }
}

/// `[loop] mix`: a 7×6 run that also plays and trains on 5×4 and 6×5
/// boards. Each variant's games are in its folder and pass `triad data
/// verify` against its own rules; the network is labelled 7×6 and lists
/// the mix; bad mixes are refused naming the key.
#[test]
fn a_loop_plays_and_trains_on_several_boards() {
    let dir = tempfile::tempdir().unwrap();
    // Two self-play pools: their shards finish in any order, and the run
    // must not depend on it.
    let text = tiny_loop("standard", "mix = [\"5x4\", \"6x5\"]\n").replacen(
        "[selfplay]\n",
        "[selfplay]\npools = 2\n",
        1,
    );
    let run = loop_run(dir.path(), "mixed", &text);
    let gen1 = run.join("games/gen-0001");
    for (variant, folder) in [
        ("7x6", gen1.clone()),
        ("5x4", gen1.join("5x4")),
        ("6x5", gen1.join("6x5")),
    ] {
        let o = succeeds(&["data", "info", folder.to_str().unwrap(), "--json"]);
        let info: Value = serde_json::from_slice(&o.stdout).unwrap();
        let games = info["games"].as_u64().unwrap();
        // 4 games a generation: 2 on the run's board (mix_share 0.5), 1 on each mix board.
        let want = if variant == "7x6" { 2 } else { 1 };
        assert_eq!(games, want, "{variant}: {info}");
        assert_eq!(info["game"][0], format!("connect4/{variant}"), "{info}");
        succeeds(&["data", "verify", folder.to_str().unwrap()]);
    }
    // The run directory reads as its own board, and names the mix's other
    // boards it did not count.
    let o = succeeds(&["data", "info", run.to_str().unwrap(), "--json"]);
    let info: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(info["game"], serde_json::json!(["connect4/7x6"]), "{info}");
    let others = info["other_boards"].as_object().unwrap();
    let boards: Vec<&str> = others.keys().map(String::as_str).collect();
    assert_eq!(boards, ["5x4", "6x5"], "{info}");
    assert!(others.values().all(|n| n.as_u64() >= Some(1)), "{info}");
    let o = succeeds(&["data", "info", run.to_str().unwrap()]);
    let shown = String::from_utf8_lossy(&o.stdout);
    assert!(shown.contains("other boards      5x4 ("), "{shown}");
    let o = succeeds(&["data", "info", gen1.join("5x4").to_str().unwrap(), "--json"]);
    let info: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(info["other_boards"], serde_json::json!({}), "{info}");
    let net = sidecar(&run.join("networks/gen-0001.safetensors"));
    assert_eq!(net["variant"], "7x6", "{net}");
    let mix: Vec<&str> = net["metadata"]["mix"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["game"].as_str().unwrap())
        .collect();
    assert_eq!(mix, ["connect4/5x4", "connect4/6x5"], "{net}");
    // Reproducible from the seed: the same run again trains the same weights.
    let again = loop_run(dir.path(), "again", &text);
    assert_eq!(
        safetensors_bytes(&run.join("networks/gen-0001.safetensors")),
        safetensors_bytes(&again.join("networks/gen-0001.safetensors")),
        "a second run of the same config trained other weights"
    );

    for (extra, needle) in [
        ("mix = [\"9x\"]\n", "[loop] mix"),
        ("mix = [\"standard\"]\n", "the run's own variant"),
        ("mix = [\"5x4\"]\nmix_share = 1.5\n", "loop.mix_share"),
        ("mix = [\"5x4\", \"5x4\"]\n", "listed twice"),
    ] {
        let config = dir.path().join("bad.toml");
        std::fs::write(&config, tiny_loop("standard", extra)).unwrap();
        let out = crate::common::run_loop(&config, &dir.path().join("bad"));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra}: {err}");
        assert!(err.contains(needle), "{extra}: {err}");
    }
}
