//! End-to-end tests of the trainer on tiny networks and synthetic shards.

use data::synthetic::random_game;
use data::{PositionRecord, ShardWriter};
use game::Game as _;
use model::ModelConfig;
use piratechnics::Piratechnics;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use tch::Tensor;
use train::{
    latest_checkpoint, read_metrics, train, RunOptions, Schedule, TrainConfig, TrainError,
};

fn tiny_model() -> ModelConfig {
    ModelConfig {
        blocks: 1,
        channels: 8,
        move_embed: 8,
        policy_hidden: 16,
        value_hidden: 16,
        device: "cpu".into(),
        threads: 1,
        ..Default::default()
    }
}

fn tiny_train() -> TrainConfig {
    TrainConfig {
        batch_size: 32,
        steps: 10,
        lr: 3e-3,
        schedule: Schedule::Cosine,
        warmup_steps: 2,
        checkpoint_every: 5,
        metrics_every: 1,
        threads: 1,
        prefetch: 2,
        ..Default::default()
    }
}

/// Writes `games` short random games into two shards under `dir`. The
/// visit counts are peaked on the move played, so there is a policy to learn.
fn write_shards(dir: &Path, games: u64) -> PathBuf {
    let shards = dir.join("shards");
    std::fs::create_dir_all(&shards).unwrap();
    let pc = Piratechnics::standard();
    let start = pc.start();
    for s in 0..2u64 {
        let mut w = ShardWriter::create(shards.join(format!("shard-{s:04}.parquet"))).unwrap();
        for g in 0..games / 2 {
            let mut game = random_game(&pc, s * 1000 + g, &start, 7, 24);
            for r in &mut game.positions {
                peak_on_chosen(r);
            }
            w.push_game(&game).unwrap();
        }
        w.finish().unwrap();
    }
    shards
}

fn peak_on_chosen(r: &mut PositionRecord) {
    let visits = r.visits.get_or_insert_with(Vec::new);
    visits.resize(r.legal_moves.len(), 0);
    for (v, &m) in visits.iter_mut().zip(&r.legal_moves) {
        *v = if m == r.chosen_move { 200 } else { 1 };
    }
    r.policy_target = None;
}

fn weights(path: &Path) -> HashMap<String, Tensor> {
    Tensor::read_safetensors(path)
        .unwrap()
        .into_iter()
        .collect()
}

fn max_difference(a: &Path, b: &Path) -> f64 {
    let (a, b) = (weights(a), weights(b));
    assert_eq!(a.len(), b.len());
    a.iter()
        .map(|(k, t)| (t - &b[k]).abs().max().double_value(&[]))
        .fold(0.0, f64::max)
}

/// 200 steps at a high constant rate: enough to overfit a few games.
fn overfit_train() -> TrainConfig {
    TrainConfig {
        steps: 200,
        lr: 1e-2,
        schedule: Schedule::Constant,
        checkpoint_every: 1000,
        ..tiny_train()
    }
}

fn options(run_dir: PathBuf, shards: &Path) -> RunOptions {
    RunOptions {
        run_dir,
        data: vec![shards.to_path_buf()],
        ..Default::default()
    }
}

#[test]
fn loss_falls_on_a_small_fixed_dataset() {
    let tmp = tempfile::tempdir().unwrap();
    let shards = write_shards(tmp.path(), 6);
    let cfg = overfit_train();
    let run = tmp.path().join("run");
    let summary = train(
        &Piratechnics::standard(),
        &tiny_model(),
        &cfg,
        &options(run.clone(), &shards),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(summary.final_step, 200);
    assert_eq!(summary.skipped_rows, 0);
    let rows = read_metrics(&run.join("metrics.csv")).unwrap();
    assert_eq!(rows.len(), 200);
    let mean = |r: &[train::MetricsRow], f: fn(&train::MetricsRow) -> f64| {
        r.iter().map(f).sum::<f64>() / r.len() as f64
    };
    let (first, last) = (&rows[..10], &rows[rows.len() - 10..]);
    let (p0, p1) = (
        mean(first, |r| r.policy_loss),
        mean(last, |r| r.policy_loss),
    );
    let (v0, v1) = (mean(first, |r| r.value_loss), mean(last, |r| r.value_loss));
    assert!(p1 < p0 * 0.8, "policy loss {p0} -> {p1}");
    assert!(v1 < v0 * 0.8, "value loss {v0} -> {v1}");
    assert!(rows
        .iter()
        .all(|r| r.policy_entropy.is_finite() && r.loss.is_finite()));
    // The final checkpoint is there and complete.
    let (path, info) = latest_checkpoint(&run).unwrap();
    assert_eq!(info.step, 200);
    assert!(path.exists());
}

/// The growing window (`window_min`) sizes itself from the positions under
/// the data: all of them while there are fewer than `window_min`, then the
/// power law's share, the newest first.
#[test]
fn the_growing_window_is_sized_from_the_positions_written() {
    let tmp = tempfile::tempdir().unwrap();
    let shards = write_shards(tmp.path(), 40);
    let total = data::count_rows(&[&shards]).unwrap();
    assert!(total > 200, "{total} positions");
    let run = |cfg: &TrainConfig, name: &str| {
        train(
            &Piratechnics::standard(),
            &tiny_model(),
            cfg,
            &options(tmp.path().join(name), &shards),
            &mut |_| {},
        )
        .unwrap()
        .window
    };
    let steps = TrainConfig {
        steps: 2,
        ..tiny_train()
    };
    // Fixed: `window`.
    let fixed = TrainConfig {
        window: 50,
        ..steps.clone()
    };
    assert_eq!(run(&fixed, "fixed"), 50);
    // Growing from 50 with a straight line of slope 0.5: 50 + (total − 50) / 2.
    let growing = TrainConfig {
        window: 1_000_000,
        window_min: 50,
        window_growth: 0.5,
        window_exponent: 1.0,
        ..steps.clone()
    };
    let expected = 50 + (total as usize - 50) / 2;
    assert_eq!(growing.window_positions(total), expected);
    assert_eq!(run(&growing, "growing"), expected);
    // More than there is: every position.
    let all = TrainConfig {
        window_min: 1_000_000,
        ..growing.clone()
    };
    assert_eq!(run(&all, "all"), total as usize);
}

#[test]
fn two_n_steps_equal_n_plus_n_with_a_resume() {
    tch::set_num_threads(1);
    let tmp = tempfile::tempdir().unwrap();
    let shards = write_shards(tmp.path(), 4);
    for optimizer in [train::OptimizerKind::Adamw, train::OptimizerKind::Sgd] {
        let cfg = TrainConfig {
            optimizer,
            mirror: true,
            ..tiny_train()
        };
        let name = format!("{optimizer:?}");
        let whole = tmp.path().join(format!("whole-{name}"));
        train(
            &Piratechnics::standard(),
            &tiny_model(),
            &cfg,
            &options(whole.clone(), &shards),
            &mut |_| {},
        )
        .unwrap();

        let split = tmp.path().join(format!("split-{name}"));
        let first = RunOptions {
            stop_after: Some(5),
            ..options(split.clone(), &shards)
        };
        let s = train(
            &Piratechnics::standard(),
            &tiny_model(),
            &cfg,
            &first,
            &mut |_| {},
        )
        .unwrap();
        assert_eq!(s.final_step, 5);
        // Without --resume an existing run is refused.
        let again = train(
            &Piratechnics::standard(),
            &tiny_model(),
            &cfg,
            &options(split.clone(), &shards),
            &mut |_| {},
        );
        assert!(
            matches!(again, Err(e @ TrainError::AlreadyRun { .. }) if e.is_input() && e.to_string().contains("--resume"))
        );
        let second = RunOptions {
            resume: true,
            ..options(split.clone(), &shards)
        };
        let s = train(
            &Piratechnics::standard(),
            &tiny_model(),
            &cfg,
            &second,
            &mut |_| {},
        )
        .unwrap();
        assert_eq!((s.steps_run, s.final_step), (5, 10));

        let a = train::checkpoint_path(&whole, 10);
        let b = train::checkpoint_path(&split, 10);
        let diff = max_difference(&a, &b);
        assert!(diff < 1e-5, "{name}: weights differ by {diff}");
        // The run did move the weights.
        assert!(max_difference(&a, &train::checkpoint_path(&whole, 5)) > 1e-4);
        // Metrics: one row per step, no duplicates from the resume.
        let rows = read_metrics(&split.join("metrics.csv")).unwrap();
        let steps: Vec<u64> = rows.iter().map(|r| r.step).collect();
        assert_eq!(steps, (1..=10).collect::<Vec<_>>());
    }
}

/// With `ema_decay` a checkpoint publishes the moving average of the
/// weights and keeps the live ones beside it; a run split by a resume ends
/// with the same average and the same live weights as one run, and the
/// average is what the published file holds (checked against the average
/// computed here from each step's live weights).
#[test]
fn a_moving_average_is_published_and_survives_a_resume() {
    tch::set_num_threads(1);
    let tmp = tempfile::tempdir().unwrap();
    let shards = write_shards(tmp.path(), 4);
    let cfg = TrainConfig {
        ema_decay: 0.5,
        checkpoint_every: 1,
        ..tiny_train()
    };
    let pc = Piratechnics::standard();
    let run = |cfg: &TrainConfig, opts: &RunOptions| {
        train(&pc, &tiny_model(), cfg, opts, &mut |_| {}).unwrap();
    };
    let whole = tmp.path().join("whole");
    run(&cfg, &options(whole.clone(), &shards));
    let split = tmp.path().join("split");
    let first = RunOptions {
        stop_after: Some(5),
        ..options(split.clone(), &shards)
    };
    run(&cfg, &first);
    let second = RunOptions {
        resume: true,
        ..options(split.clone(), &shards)
    };
    run(&cfg, &second);

    let live = |run: &Path, step: u64| {
        train::checkpoint_path(run, step).with_extension("live.safetensors")
    };
    let (published, _) = latest_checkpoint(&whole).unwrap();
    assert_eq!(published, train::checkpoint_path(&whole, 10));
    let diff = max_difference(&published, &train::checkpoint_path(&split, 10));
    assert!(diff < 1e-5, "published averages differ by {diff}");
    let diff = max_difference(&live(&whole, 10), &live(&split, 10));
    assert!(diff < 1e-5, "live weights differ by {diff}");
    // The average is not the last step's weights...
    assert!(max_difference(&published, &live(&whole, 10)) > 1e-5);
    // ...but the average of the live weights of every step: step t keeps
    // min(0.5, (1 + t) / (10 + t)) of the average so far.
    // Step 1's average (published at step 1) is between the fresh weights
    // and step 1's: not the live weights.
    let first_step = max_difference(&train::checkpoint_path(&whole, 1), &live(&whole, 1));
    assert!(first_step > 1e-6, "the first average is the live weights");
    let mut avg = weights(&train::checkpoint_path(&whole, 1));
    for step in 2..=10u64 {
        let d = 0.5f64.min((1 + step) as f64 / (10 + step) as f64);
        let now = weights(&live(&whole, step));
        for (k, t) in avg.iter_mut() {
            *t = &*t * d + &now[k] * (1.0 - d);
        }
    }
    let want: f64 = {
        let got = weights(&published);
        avg.iter()
            .map(|(k, t)| (t - &got[k]).abs().max().double_value(&[]))
            .fold(0.0, f64::max)
    };
    assert!(
        want < 1e-5,
        "the published weights are not the average ({want})"
    );
    // Without the key the checkpoint is the live weights and nothing else.
    let plain = tmp.path().join("plain");
    let cfg0 = TrainConfig {
        ema_decay: 0.0,
        ..cfg.clone()
    };
    run(&cfg0, &options(plain.clone(), &shards));
    assert!(!live(&plain, 10).exists());
    let diff = max_difference(&train::checkpoint_path(&plain, 10), &live(&whole, 10));
    assert!(diff < 1e-5, "the average changed the training ({diff})");
}

#[test]
fn a_checkpoint_of_another_shape_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let shards = write_shards(tmp.path(), 2);
    let cfg = TrainConfig {
        steps: 2,
        ..tiny_train()
    };
    let run = tmp.path().join("run");
    train(
        &Piratechnics::standard(),
        &tiny_model(),
        &cfg,
        &options(run.clone(), &shards),
        &mut |_| {},
    )
    .unwrap();
    let bigger = ModelConfig {
        channels: 12,
        ..tiny_model()
    };
    let resume = RunOptions {
        resume: true,
        steps: Some(4),
        ..options(run.clone(), &shards)
    };
    match train(
        &Piratechnics::standard(),
        &bigger,
        &cfg,
        &resume,
        &mut |_| {},
    ) {
        Err(e) if e.is_input() => {
            let m = e.to_string();
            assert!(m.contains("12 channels") && m.contains("8 channels"), "{m}")
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    let init = RunOptions {
        init: Some(train::checkpoint_path(&run, 2)),
        ..options(tmp.path().join("other"), &shards)
    };
    match train(&Piratechnics::standard(), &bigger, &cfg, &init, &mut |_| {}) {
        Err(e) if e.is_input() => assert!(e.to_string().contains("expected"), "{e}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn corrupt_rows_are_skipped_not_fatal() {
    let tmp = tempfile::tempdir().unwrap();
    let pc = Piratechnics::standard();
    let mut rows = random_game(&pc, 1, &pc.start(), 3, 10).positions;
    rows[0].position = "not a position".into();
    rows[1].legal_moves[0] = u32::MAX;
    // A row without a search (a match game's alpha-beta move) is kept for
    // its value target, with no policy target.
    rows[2].visits = None;
    rows[2].root_wdl = None;
    let window = data::ReplayWindow::from_records(rows.clone());
    let mut builder = train::BatchBuilder::new(&pc);
    let batch = builder.build(window.records().iter().map(|r| (r, 0)), 0.0);
    assert_eq!(batch.skipped, 2);
    assert_eq!(batch.rows, rows.len() - 2);
    let policy_weight: Vec<f32> = Vec::try_from(&batch.policy_weight).unwrap();
    assert_eq!(
        policy_weight[0], 0.0,
        "the unsearched row has no policy target"
    );
    drop(tmp);
}

#[test]
fn bad_config_keys_are_named() {
    let e = TrainConfig::from_toml_str("[train]\nbatch = 3\n").unwrap_err();
    assert!(e.message().contains("batch"), "{e}");
    let e = TrainConfig::from_toml_str("[train]\nschedule = \"linear\"\n").unwrap_err();
    assert!(e.message().contains("linear"), "{e}");
    let e = TrainConfig::from_toml_str("[train]\ngrad_clip = -1.0\n").unwrap_err();
    assert!(e.message().contains("grad_clip"), "{e}");
}

/// A window whose rows are all undecodable trains without panicking: every
/// row is skipped and counted (before, libtorch failed on an empty batch).
#[test]
fn a_window_of_undecodable_rows_is_skipped_not_a_panic() {
    let tmp = tempfile::tempdir().unwrap();
    let pc = Piratechnics::standard();
    let shards = tmp.path().join("shards");
    std::fs::create_dir_all(&shards).unwrap();
    let mut w = ShardWriter::create(shards.join("bad.parquet")).unwrap();
    for g in 0..4 {
        let mut game = random_game(&pc, g, &pc.start(), 3, 12);
        for r in &mut game.positions {
            r.legal_moves.iter_mut().for_each(|m| *m = u32::MAX);
        }
        for r in &game.positions {
            w.push(r).unwrap();
        }
    }
    w.finish().unwrap();
    let opts = RunOptions {
        run_dir: tmp.path().join("run"),
        data: vec![shards],
        steps: Some(3),
        ..Default::default()
    };
    let s = train(&pc, &tiny_model(), &tiny_train(), &opts, &mut |_| {}).unwrap();
    assert_eq!(s.samples, 0);
    assert!(s.skipped_rows > 0);
}

/// `[train] value_eval_weight`: the value target mixes in the hint's win
/// probability, `(1-q-e)·result + q·search + e·[p, 0, 1-p]`, and the
/// shares are validated together.
#[test]
fn the_value_target_mixes_in_the_evaluation_hint() {
    use std::sync::Arc;
    let pc = Piratechnics::standard();
    let rows = random_game(&pc, 1, &pc.start(), 3, 10).positions;
    let window = data::ReplayWindow::from_records(rows.clone());
    let targets = |q: f32, hint: Option<(f32, f32)>| -> Vec<f32> {
        let mut b = train::BatchBuilder::new(&pc).with_value_q_weight(q);
        if let Some((e, p)) = hint {
            b = b.with_value_hint(e, Arc::new(move |_: &piratechnics::Position| p));
        }
        let batch = b.build(window.records().iter().map(|r| (r, 0)), 0.0);
        Vec::try_from(&batch.value_target.view([-1])).unwrap()
    };
    let plain = targets(0.0, None);
    let search = targets(1.0, None);
    let mixed = targets(0.25, Some((0.5, 0.8)));
    assert_eq!(targets(0.0, Some((0.0, 0.8))), plain, "weight 0: no hint");
    for i in 0..plain.len() {
        let hint = [0.8, 0.0, 0.2][i % 3];
        let want = 0.25 * plain[i] + 0.25 * search[i] + 0.5 * hint;
        assert!(
            (mixed[i] - want).abs() < 1e-6,
            "{i}: {} vs {want}",
            mixed[i]
        );
    }
    let e = TrainConfig::from_toml_str("[train]\nvalue_q_weight = 0.6\nvalue_eval_weight = 0.5\n")
        .unwrap_err();
    assert!(e.message().contains("value_eval_weight"), "{e}");
    let e = TrainConfig::from_toml_str("[train]\nvalue_eval_scale = 0\n").unwrap_err();
    assert!(e.message().contains("value_eval_scale"), "{e}");
}

/// The auxiliary targets (`[model] aux_heads`): each sample's reply target
/// is the next row's normalised search policy over that row's moves, and
/// its future target the evaluation `plies` ahead from the sample's side,
/// or at the game's last row; where the window cut a game short, both
/// weigh 0. Batches come shuffled from the window, so the rows ahead are
/// found through `Batch::iter_ahead`.
#[test]
fn auxiliary_targets_come_from_the_rows_ahead() {
    use std::sync::Arc;
    let pc = Piratechnics::standard();
    let start = pc.start();
    let whole = random_game(&pc, 2, &start, 5, 14).positions;
    let mut cut = random_game(&pc, 3, &start, 6, 14).positions;
    assert_eq!(cut.len(), 14, "game 3 runs to the ply cap");
    cut.truncate(9); // the window ends inside this game
    let mut rows = whole.clone();
    rows.extend(cut);
    let n = rows.len();
    let window = data::ReplayWindow::from_records(rows.clone());
    let plies = 3;
    // A hint that tells positions apart: a fraction of the position's hash.
    let hint = |p: &piratechnics::Position| (p.hash() % 1000) as f32 / 1000.0;
    let mut builder = train::BatchBuilder::new(&pc).with_aux(plies, Arc::new(hint));
    assert_eq!(builder.rows_ahead(), plies);
    let options = data::WindowOptions {
        batch_size: n,
        epochs: Some(1),
        seed: 9,
        ..Default::default()
    };
    let batch = window.batches(&options).next().unwrap();
    assert_eq!(batch.len(), n);
    let cheap = 0.25;
    let built = builder.build_ahead(batch.iter_ahead(plies), cheap);
    assert_eq!(built.rows, n);
    let aux = built.aux.expect("aux targets");
    let reply_w = Vec::<f32>::try_from(&aux.reply_weight).unwrap();
    let future = Vec::<f32>::try_from(&aux.future_target).unwrap();
    let future_w = Vec::<f32>::try_from(&aux.future_weight).unwrap();
    let m = aux.reply_target.size()[1];
    let reply = Vec::<f32>::try_from(&aux.reply_target.view([-1])).unwrap();
    let mask = Vec::<bool>::try_from(&aux.reply.mask.view([-1])).unwrap();
    let eval = |r: &PositionRecord| hint(&pc.parse_state(&r.position).unwrap());
    let mut seen = [0usize; 4];
    for (j, &i) in batch.indices.iter().enumerate() {
        let i = i as usize;
        let r = &rows[i];
        let next = rows
            .get(i + 1)
            .filter(|x| x.game_id == r.game_id && x.ply == r.ply + 1);
        let row = &reply[j * m as usize..(j + 1) * m as usize];
        let real = mask[j * m as usize..(j + 1) * m as usize]
            .iter()
            .filter(|&&b| b)
            .count();
        match next {
            Some(next) => {
                assert_eq!(real, next.legal_moves.len(), "row {i}: the reply's moves");
                let total: f32 = next.visits.as_ref().unwrap().iter().sum::<u32>() as f32;
                let want: Vec<f32> = match &next.policy_target {
                    Some(p) => p.clone(),
                    None => next
                        .visits
                        .as_ref()
                        .unwrap()
                        .iter()
                        .map(|&v| v as f32 / total)
                        .collect(),
                };
                let sum: f32 = want.iter().sum();
                for (k, w) in want.iter().enumerate() {
                    assert!((row[k] - w / sum).abs() < 1e-5, "row {i} move {k}");
                }
                let w = if next.full_search { 1.0 } else { cheap };
                assert_eq!(reply_w[j], w, "row {i}");
                seen[0] += 1;
            }
            None => {
                assert_eq!(reply_w[j], 0.0, "row {i}: no next row");
                assert!(row.iter().all(|&x| x == 0.0));
                seen[1] += 1;
            }
        }
        // The future target.
        let same = |x: &PositionRecord| x.game_id == r.game_id;
        let last_in_window = (i..n).take_while(|&k| same(&rows[k])).last().unwrap();
        let target = (i + plies).min(last_in_window);
        let ended = rows[target].ply + 1 == rows[target].game_length;
        if target == i + plies || ended {
            let p = eval(&rows[target]);
            let p = if rows[target].side_to_move == r.side_to_move {
                p
            } else {
                1.0 - p
            };
            assert!(
                (future[j] - p).abs() < 1e-6,
                "row {i}: {} vs {p}",
                future[j]
            );
            assert_eq!(future_w[j], 1.0);
            seen[2] += 1;
        } else {
            assert_eq!(future_w[j], 0.0, "row {i}: the window cut the game");
            seen[3] += 1;
        }
    }
    // Every case came up: replies and none, futures and cut-off ones.
    assert_eq!(seen[1], 2, "the last rows of both games have no reply");
    assert_eq!(seen[3], plies, "the cut game's last rows");
    assert!(seen[0] > 0 && seen[2] > 0);
    // Without `with_aux` a batch carries none.
    let plain = train::BatchBuilder::new(&pc).build(batch.iter(), cheap);
    assert!(plain.aux.is_none() && train::BatchBuilder::new(&pc).rows_ahead() == 0);
}

/// A network with auxiliary heads trains them: on a small fixed dataset the
/// auxiliary part of the loss (`loss − policy − value`) falls, the
/// checkpoint holds the heads, and a network without them reports no
/// auxiliary part at all.
#[test]
fn auxiliary_losses_fall_and_stay_out_without_the_heads() {
    let tmp = tempfile::tempdir().unwrap();
    let shards = write_shards(tmp.path(), 6);
    let cfg = overfit_train();
    let aux_model = ModelConfig {
        aux_heads: true,
        precision: model::Precision::Fp32,
        ..tiny_model()
    };
    let aux_part = |r: &train::MetricsRow| r.loss - r.policy_loss - r.value_loss;
    let run = |model: &ModelConfig, name: &str| {
        let dir = tmp.path().join(name);
        train(
            &Piratechnics::standard(),
            model,
            &cfg,
            &options(dir.clone(), &shards),
            &mut |_| {},
        )
        .unwrap();
        (read_metrics(&dir.join("metrics.csv")).unwrap(), dir)
    };
    let (rows, dir) = run(&aux_model, "aux");
    let mean = |r: &[train::MetricsRow]| r.iter().map(aux_part).sum::<f64>() / r.len() as f64;
    let (a0, a1) = (mean(&rows[..10]), mean(&rows[rows.len() - 10..]));
    assert!(a0 > 0.1, "the auxiliary losses count: {a0}");
    // Measured: 1.06 -> 0.93. Much of it is the future target's own
    // entropy (soft targets near 0.5 early in a game), which no network
    // can go below.
    assert!(a1 < a0 * 0.95, "auxiliary loss {a0} -> {a1}");
    let (path, _) = latest_checkpoint(&dir).unwrap();
    assert!(weights(&path).keys().any(|k| k.starts_with("aux.")));
    let (rows, _) = run(&tiny_model(), "plain");
    assert!(rows.iter().all(|r| aux_part(r).abs() < 1e-4));
}

/// `[train] proven_value_targets`: a row whose stored W/D/L is a proof
/// (exactly one-hot) takes it as its whole value target, over the result,
/// the search share and the evaluation hint, and weighs 1 even in an
/// unfinished game; off, it is blended like any other row. A nearly one-hot
/// average is no proof.
#[test]
fn a_proven_row_takes_the_proof_as_its_value_target() {
    use std::sync::Arc;
    let pc = Piratechnics::standard();
    let mut rows = random_game(&pc, 1, &pc.start(), 3, 6).positions;
    rows[0].root_wdl = Some([0.0, 0.0, 1.0]);
    rows[1].root_wdl = Some([0.0, 1.0, 0.0]);
    rows[2].root_wdl = Some([0.999_999, 0.0, 0.000_001]);
    rows[3].result = None; // unfinished: no result to learn from
    rows[3].root_wdl = Some([1.0, 0.0, 0.0]);
    let targets = |proven: bool| -> (Vec<f32>, Vec<f32>) {
        let batch = train::BatchBuilder::new(&pc)
            .with_value_q_weight(0.5)
            .with_value_hint(0.25, Arc::new(|_: &piratechnics::Position| 0.9))
            .with_proven_targets(proven)
            .build(rows.iter().map(|r| (r, 0)), 0.0);
        (
            Vec::try_from(&batch.value_target.view([-1])).unwrap(),
            Vec::try_from(&batch.value_weight).unwrap(),
        )
    };
    let (on, on_w) = targets(true);
    let (off, off_w) = targets(false);
    assert_eq!(&on[0..3], &[0.0, 0.0, 1.0]);
    assert_eq!(&on[3..6], &[0.0, 1.0, 0.0]);
    assert_eq!(&on[9..12], &[1.0, 0.0, 0.0]);
    assert_eq!((on_w[3], off_w[3]), (1.0, 0.0), "the unfinished row");
    // Not a proof, and every row when off: the blend.
    assert_eq!(&on[6..9], &off[6..9]);
    assert!(off[0..3] != [0.0, 0.0, 1.0] && off[3..6] != [0.0, 1.0, 0.0]);
    assert_eq!(&on[12..], &off[12..], "rows without a proof are unchanged");
}

/// Connect Four shards of `games` random games on `game`'s board, policy
/// peaked on the move played.
fn connect4_shards(dir: &Path, game: &connect4::Connect4, games: u64, seed: u64) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let mut w = ShardWriter::create(dir.join("shard-0000.parquet")).unwrap();
    for g in 0..games {
        let mut record = random_game(game, seed * 1000 + g, &game.start(), seed + g, 40);
        for r in &mut record.positions {
            peak_on_chosen(r);
        }
        w.push_game(&record).unwrap();
    }
    w.finish().unwrap();
    dir.to_path_buf()
}

/// `--mix`: one run on two Connect Four boards. Every batch is of one
/// variant, both are drawn, the checkpoint's sidecar lists the mix, a run
/// split by a resume ends with the same weights, and a part that is not
/// another variant of the run's game is refused.
#[test]
fn a_mixed_run_trains_on_two_boards_and_resumes_exactly() {
    use connect4::{Connect4, Size};
    tch::set_num_threads(1);
    let tmp = tempfile::tempdir().unwrap();
    let big = Connect4::standard();
    let small = Connect4::sized(Size::new(6, 5).unwrap());
    let big_data = connect4_shards(&tmp.path().join("big"), &big, 12, 1);
    let small_data = connect4_shards(&tmp.path().join("small"), &small, 12, 2);
    let mix = [train::MixPart {
        game: small.clone(),
        data: vec![small_data.clone()],
    }];
    let cfg = TrainConfig {
        steps: 12,
        checkpoint_every: 6,
        ..tiny_train()
    };
    let model = ModelConfig {
        global_pool: true,
        ..tiny_model()
    };
    let whole = tmp.path().join("whole");
    train::train_mixed(
        &big,
        &mix,
        &model,
        &cfg,
        &options(whole.clone(), &big_data),
        &mut |_| {},
    )
    .unwrap();
    // Both windows are drawn from over the 12 steps (the choice is the
    // run's seed's, in proportion to the windows' sizes).
    let sizes = [300usize, 250];
    let picks: Vec<usize> = (0..12)
        .map(|k| train::mix_choice(cfg.seed, k, &sizes))
        .collect();
    assert!(picks.contains(&0) && picks.contains(&1), "{picks:?}");
    let (ckpt, info) = latest_checkpoint(&whole).unwrap();
    assert_eq!(info.step, 12);
    assert_eq!(info.variant, "7x6");
    let mix_meta = &info.metadata["mix"][0];
    assert_eq!(mix_meta["game"], "connect4/6x5", "{}", info.metadata);
    assert!(mix_meta["window_positions"].as_u64().unwrap() > 0);

    let split = tmp.path().join("split");
    let first = RunOptions {
        stop_after: Some(5),
        ..options(split.clone(), &big_data)
    };
    train::train_mixed(&big, &mix, &model, &cfg, &first, &mut |_| {}).unwrap();
    let second = RunOptions {
        resume: true,
        ..options(split.clone(), &big_data)
    };
    let s = train::train_mixed(&big, &mix, &model, &cfg, &second, &mut |_| {}).unwrap();
    assert_eq!((s.steps_run, s.final_step), (7, 12));
    let diff = max_difference(&ckpt, &train::checkpoint_path(&split, 12));
    assert!(diff < 1e-5, "weights differ by {diff}");

    // The same board, or no shards, is refused by name.
    for (part, needle) in [
        (
            train::MixPart {
                game: big.clone(),
                data: vec![big_data.clone()],
            },
            "another variant",
        ),
        (
            train::MixPart {
                game: small.clone(),
                data: vec![],
            },
            "no shards",
        ),
    ] {
        let r = train::train_mixed(
            &big,
            &[part],
            &model,
            &cfg,
            &options(tmp.path().join("bad"), &big_data),
            &mut |_| {},
        );
        assert!(
            matches!(&r, Err(e) if e.is_input() && e.to_string().contains(needle)),
            "{r:?}"
        );
    }
}

/// The mixture's draw: the same seed and step give the same window, each
/// window is drawn in proportion to its size, one window is always 0.
#[test]
fn the_mixture_draws_in_proportion_to_the_windows() {
    let sizes = [3000usize, 1000];
    let picks: Vec<usize> = (0..8000).map(|k| train::mix_choice(7, k, &sizes)).collect();
    let share = picks.iter().filter(|&&i| i == 0).count() as f64 / picks.len() as f64;
    assert!((0.72..0.78).contains(&share), "{share}");
    assert_eq!(
        picks,
        (0..8000)
            .map(|k| train::mix_choice(7, k, &sizes))
            .collect::<Vec<_>>()
    );
    assert_ne!(
        picks,
        (0..8000)
            .map(|k| train::mix_choice(8, k, &sizes))
            .collect::<Vec<_>>()
    );
    assert!((0..100).all(|k| train::mix_choice(1, k, &[500]) == 0));
    assert!((0..100).all(|k| train::mix_choice(1, k, &[0, 0]) == 0));
}
