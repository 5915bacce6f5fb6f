//! The training loop: batches from the replay window, one optimiser step per
//! batch, metrics, and checkpoints that a resumed run continues exactly.

use crate::batch::{BatchBuilder, TrainBatch};
use crate::config::TrainConfig;
use crate::error::TrainError;
use crate::metrics::{MetricsRow, MetricsWriter};
use crate::optim::Optimizer;
use data::{ReplayWindow, WindowOptions};
use game::{Game, GameTag};
use model::{CheckpointInfo, ModelConfig, Network, Shape};
use std::path::{Path, PathBuf};
use std::time::Instant;
use tch::{Kind, Tensor};

/// Sub-folder of a run directory holding the checkpoints.
pub const CHECKPOINT_DIR: &str = "checkpoints";
/// The copy of the run's config in the run directory.
pub const CONFIG_COPY: &str = "config.toml";

/// One run of `triad train`.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// The run directory: checkpoints, metrics.csv, config.toml.
    pub run_dir: PathBuf,
    /// Shard files or directories of shards.
    pub data: Vec<PathBuf>,
    /// Continue from the run directory's last complete checkpoint.
    pub resume: bool,
    /// Replaces the config's `steps` (the run's total).
    pub steps: Option<u64>,
    /// Start from these weights instead of a fresh network.
    pub init: Option<PathBuf>,
    /// Stop after this step (writing a checkpoint there), as if the run were
    /// interrupted: the schedule still spans the full `steps`. Used by tests
    /// and by a loop that trains a slice of a run per generation.
    pub stop_after: Option<u64>,
    /// Written to `RUN_DIR/config.toml` (the run file as given).
    pub config_text: Option<String>,
}

/// What the caller sees after each step (for a progress bar).
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Steps done so far (1-based) and the run's total.
    pub step: u64,
    pub total: u64,
    /// The latest metrics row (updated every `metrics_every` steps).
    pub last: MetricsRow,
    /// Share of this invocation's training time spent waiting for the
    /// next batch from the data pipeline (0..1): near 0, the data keeps
    /// up with the optimiser.
    pub data_wait_share: f64,
}

/// The end of a run.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Steps taken in this invocation, and the step reached.
    pub steps_run: u64,
    pub final_step: u64,
    /// The last checkpoint written (weights path).
    pub checkpoint: Option<PathBuf>,
    /// Samples trained on in this invocation.
    pub samples: u64,
    /// Seconds in the training loop (from the first batch requested to the
    /// last step, checkpoints included; start-up and the final checkpoint
    /// excluded).
    pub loop_seconds: f64,
    /// Positions in the replay window.
    pub window: usize,
    /// Rows that could not be decoded and were skipped.
    pub skipped_rows: u64,
    /// Seconds of `loop_seconds` spent waiting for the next batch.
    pub data_wait_seconds: f64,
}

impl Summary {
    /// Share of the training loop spent waiting for batches (0..1).
    pub fn data_wait_share(&self) -> f64 {
        (self.data_wait_seconds / self.loop_seconds.max(1e-9)).min(1.0)
    }
    pub fn samples_per_s(&self) -> f64 {
        self.samples as f64 / self.loop_seconds.max(1e-9)
    }

    /// The summary as `triad train --json` prints it (`run_dir`: the run's
    /// directory).
    pub fn summary_json(&self, run_dir: &Path) -> serde_json::Value {
        serde_json::json!({
            "run_dir": run_dir.display().to_string(),
            "steps_run": self.steps_run,
            "final_step": self.final_step,
            "checkpoint": self.checkpoint.as_ref().map(|p| p.display().to_string()),
            "samples": self.samples,
            "samples_per_s": self.samples_per_s(),
            "window_positions": self.window,
            "skipped_rows": self.skipped_rows,
        })
    }

    /// The summary as `triad train` prints it: the steps trained (or that
    /// there was nothing to do) and the last checkpoint.
    pub fn summary_text(&self) -> String {
        let mut out = if self.steps_run == 0 {
            format!(
                "nothing to do: the run is already at step {}\n",
                self.final_step
            )
        } else {
            format!(
                "trained steps {}..{} on a window of {} positions, {:.0} samples/s\n",
                self.final_step - self.steps_run + 1,
                self.final_step,
                self.window,
                self.samples_per_s()
            )
        };
        if let Some(c) = &self.checkpoint {
            out.push_str(&format!("checkpoint: {}\n", c.display()));
        }
        out
    }
}

impl Progress {
    /// The latest metrics in a line: losses, learning rate, samples per
    /// second and the share of the time spent waiting for data.
    pub fn message(&self) -> String {
        let l = &self.last;
        format!(
            "loss {:.4} (policy {:.4}, value {:.4})  lr {:.2e}  {:.0} samples/s  waiting for data {:.0}%",
            l.loss,
            l.policy_loss,
            l.value_loss,
            l.lr,
            l.samples_per_s,
            self.data_wait_share * 100.0
        )
    }
}

/// Scalars of one step, read only when logged (reading them waits for the
/// device).
#[derive(Clone, Copy, Debug, Default)]
pub struct StepStats {
    pub loss: f64,
    pub policy_loss: f64,
    pub value_loss: f64,
    pub policy_entropy: f64,
    pub value_accuracy: f64,
    pub grad_norm: f64,
}

impl StepStats {
    /// The metrics.csv row for these statistics at `step`.
    fn row(&self, step: u64, lr: f64, samples_per_s: f64) -> MetricsRow {
        MetricsRow {
            step,
            loss: self.loss,
            policy_loss: self.policy_loss,
            value_loss: self.value_loss,
            lr,
            samples_per_s,
            policy_entropy: self.policy_entropy,
            value_accuracy: self.value_accuracy,
            grad_norm: self.grad_norm,
        }
    }
}

/// A moving average of a network's weights (`[train] ema_decay`): the
/// network a checkpoint publishes for play.
pub struct Ema {
    pub net: Network,
    decay: f64,
    /// (average, live) variable pairs, built once: the update allocates
    /// nothing.
    pairs: Vec<(Tensor, Tensor)>,
}

impl Ema {
    /// An average of `live`'s weights that starts at `average` (a copy of
    /// `live`, or the average a checkpoint kept).
    pub fn new(average: Network, live: &Network, decay: f64) -> Ema {
        let mut live_vars = live.var_store().variables();
        let pairs = average
            .var_store()
            .variables()
            .into_iter()
            .filter_map(|(name, avg)| Some((avg, live_vars.remove(&name)?)))
            .collect();
        Ema {
            net: average,
            decay,
            pairs,
        }
    }

    /// Moves the average towards the live weights after update `t` (1-based):
    /// weight `1 - min(decay, (1 + t) / (10 + t))` on the live weights.
    pub fn update(&mut self, t: u64) {
        let d = self.decay.min((1.0 + t as f64) / (10.0 + t as f64));
        tch::no_grad(|| {
            for (avg, live) in &mut self.pairs {
                if avg.is_floating_point() {
                    let _ = avg.lerp_(live, 1.0 - d);
                } else {
                    avg.copy_(live);
                }
            }
        });
    }
}

/// A network and its optimiser: one step per call.
pub struct Trainer {
    pub net: Network,
    pub optimizer: Optimizer,
    /// The moving average of the weights, when `ema_decay > 0`.
    pub ema: Option<Ema>,
    cfg: TrainConfig,
}

impl Trainer {
    /// A trainer of `net`; with `ema_decay > 0` its average starts at `net`.
    pub fn new(net: Network, cfg: &TrainConfig) -> Trainer {
        let ema = (cfg.ema_decay > 0.0).then(|| Ema::new(net.duplicate(), &net, cfg.ema_decay));
        Trainer::with_average(net, ema, cfg)
    }

    /// A trainer of `net` with a given average (a resumed run's).
    pub fn with_average(net: Network, ema: Option<Ema>, cfg: &TrainConfig) -> Trainer {
        let optimizer = Optimizer::new(net.var_store(), cfg);
        Trainer {
            net,
            optimizer,
            ema,
            cfg: cfg.clone(),
        }
    }

    /// The network to publish: the average when there is one.
    pub fn published(&self) -> &Network {
        self.ema.as_ref().map_or(&self.net, |e| &e.net)
    }

    /// One forward, backward and optimiser step on `batch` (already on the
    /// network's device) at learning rate `lr`. With `stats`, the losses and
    /// diagnostics are read back.
    pub fn step(&mut self, batch: &TrainBatch, lr: f64, stats: bool) -> Option<StepStats> {
        let weighted = |log: &Tensor, target: &Tensor, w: &Tensor| {
            let ce = -(target * log).sum_dim_intlist(1i64, false, Kind::Float);
            (ce * w).sum(Kind::Float) / w.sum(Kind::Float).clamp_min(1e-8)
        };
        let with_aux = batch
            .aux
            .as_ref()
            .and_then(|a| Some((a, self.net.forward_aux_t(&batch.input, &a.reply, true)?)));
        let (logits, value, aux_loss) = match with_aux {
            Some((a, (logits, value, out))) => {
                let reply = weighted(
                    &out.reply_logits.log_softmax(1, Kind::Float),
                    &a.reply_target,
                    &a.reply_weight,
                );
                // Binary cross-entropy against a soft target, per row.
                let z = &out.future_logit;
                let t = &a.future_target;
                let t_ls: Tensor = t * z.log_sigmoid();
                let rest: Tensor = t.ones_like() - t;
                let bce: Tensor = -(t_ls + rest * (-z).log_sigmoid());
                let w = &a.future_weight;
                let future = (bce * w).sum(Kind::Float) / w.sum(Kind::Float).clamp_min(1e-8);
                let aux =
                    reply * self.cfg.reply_policy_weight + future * self.cfg.future_eval_weight;
                (logits, value, Some(aux))
            }
            None => {
                let (logits, value) = self.net.forward_t(&batch.input, true);
                (logits, value, None)
            }
        };
        let log_p = logits.log_softmax(1, Kind::Float);
        let log_v = value.log_softmax(1, Kind::Float);
        let policy_loss = weighted(&log_p, &batch.policy_target, &batch.policy_weight);
        let value_loss = weighted(&log_v, &batch.value_target, &batch.value_weight);
        let mut loss = &policy_loss + &value_loss * self.cfg.value_loss_weight;
        if let Some(aux) = aux_loss {
            loss += aux;
        }
        self.optimizer.zero_grad();
        loss.backward();
        let grad_norm = self.optimizer.clip_grad_norm(self.cfg.grad_clip);
        self.optimizer.step(lr);
        if let Some(ema) = &mut self.ema {
            ema.update(self.optimizer.updates());
        }
        if !stats {
            return None;
        }
        tch::no_grad(|| {
            // Entropy over legal moves: padding has probability 0 and a
            // finite log-probability, so it adds 0.
            let p = log_p.exp();
            let entropy = -(&p * &log_p)
                .sum_dim_intlist(1i64, false, Kind::Float)
                .mean(Kind::Float);
            let hit = value
                .argmax(1, false)
                .eq_tensor(&batch.value_target.argmax(1, false))
                .to_kind(Kind::Float);
            let finished = batch.value_weight.sum(Kind::Float).clamp_min(1e-8);
            let accuracy = (hit * &batch.value_weight).sum(Kind::Float) / finished;
            Some(StepStats {
                loss: loss.double_value(&[]),
                policy_loss: policy_loss.double_value(&[]),
                value_loss: value_loss.double_value(&[]),
                policy_entropy: entropy.double_value(&[]),
                value_accuracy: accuracy.double_value(&[]),
                grad_norm,
            })
        })
    }
}

/// The weights path of the checkpoint at `step`.
pub fn checkpoint_path(run_dir: &Path, step: u64) -> PathBuf {
    run_dir
        .join(CHECKPOINT_DIR)
        .join(format!("step-{step:08}.safetensors"))
}

fn optimizer_path(weights: &Path) -> PathBuf {
    weights.with_extension("optim.safetensors")
}

/// The live (trained) weights beside a checkpoint that publishes their
/// moving average (`[train] ema_decay`).
fn live_path(weights: &Path) -> PathBuf {
    weights.with_extension("live.safetensors")
}

/// The live weights a checkpoint names in its metadata (a file beside it),
/// if it publishes an average.
fn live_weights_of(weights: &Path, info: &CheckpointInfo) -> Option<PathBuf> {
    info.metadata
        .get("live_weights")
        .and_then(|v| v.as_str())
        .map(|name| weights.with_file_name(name))
}

/// The newest complete checkpoint of a run (weights path), if any. The
/// sidecar is renamed into place last, so one whose sidecar reads back and
/// whose weights and optimiser state exist is complete.
pub fn latest_checkpoint(run_dir: &Path) -> Option<(PathBuf, CheckpointInfo)> {
    let dir = run_dir.join(CHECKPOINT_DIR);
    let mut best: Option<(PathBuf, CheckpointInfo)> = None;
    for entry in std::fs::read_dir(&dir).ok()?.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(stem) = name.strip_suffix(".json") else {
            continue;
        };
        if !stem.starts_with("step-") {
            continue;
        }
        let weights = dir.join(format!("{stem}.safetensors"));
        let Ok(info) = model::checkpoint::read_info(&weights) else {
            continue;
        };
        if !weights.exists() || !optimizer_path(&weights).exists() {
            continue;
        }
        if live_weights_of(&weights, &info).is_some_and(|live| !live.exists()) {
            continue;
        }
        if best.as_ref().is_none_or(|(_, b)| info.step > b.step) {
            best = Some((weights, info));
        }
    }
    best
}

/// Writes the optimiser state (and with a moving average, the live
/// weights), then the published weights and sidecar (each to a temporary
/// name, renamed): the sidecar last, so its presence means the checkpoint
/// is complete.
fn save_checkpoint(
    tag: &GameTag,
    trainer: &Trainer,
    run_dir: &Path,
    step: u64,
    meta: serde_json::Value,
    parent: Option<String>,
) -> Result<PathBuf, TrainError> {
    let weights = checkpoint_path(run_dir, step);
    let optim = optimizer_path(&weights);
    let tmp = fsio::temp_path(&optim);
    trainer.optimizer.save(&tmp)?;
    std::fs::rename(&tmp, &optim).map_err(|source| TrainError::Io {
        path: optim.clone(),
        source,
    })?;
    let mut meta = meta;
    if let Some(ema) = &trainer.ema {
        let live = live_path(&weights);
        trainer
            .net
            .save_weights(&live)
            .map_err(TrainError::SaveCheckpoint)?;
        if let Some(m) = meta.as_object_mut() {
            m.insert("ema_decay".into(), ema.decay.into());
            m.insert(
                "live_weights".into(),
                live.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .into(),
            );
        }
    }
    let mut info = CheckpointInfo::new(tag, trainer.net.shape(), step);
    info.parent = parent;
    if let Some(m) = meta.as_object_mut() {
        m.insert(
            "optimizer_state".into(),
            optim
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .into(),
        );
    }
    info.metadata = meta;
    trainer
        .published()
        .save(&weights, &info)
        .map_err(TrainError::SaveCheckpoint)?;
    Ok(weights)
}

/// The game's static evaluation (the `ab:` players' default weights) as a
/// win probability for the side to move: `1 / (1 + exp(-eval / scale))`.
pub fn static_value_hint<S: game::AlphaBetaState>(
    start: &S,
    scale: f64,
) -> crate::batch::ValueHint<S> {
    let tables = start.eval_tables();
    let params = S::EvalParams::default();
    let scale = scale as f32;
    std::sync::Arc::new(move |s: &S| {
        game::win_probability(s.evaluate(&tables, &params) as f32, scale)
    })
}

/// How the trainer reads its replay window: batches of the config's size
/// in the seed's order, every symmetry when `mirror` is on, at least one
/// batch prefetched, an endless stream (`triad bench train` reads the same way).
pub fn window_options<G: Game>(game: &G, cfg: &TrainConfig) -> WindowOptions {
    WindowOptions {
        batch_size: cfg.batch_size,
        seed: cfg.seed,
        symmetries: if cfg.mirror { game.symmetries() } else { 1 },
        prefetch: cfg.prefetch.max(1),
        epochs: None,
    }
}

/// The batch builder a training run with `cfg` uses for a network of
/// `shape`: the value target's shares, proven targets, and the auxiliary
/// targets when the network has the heads. `triad bench train` builds its
/// batches through it too, so it times what training does.
pub fn batch_builder<G: Game>(game: &G, cfg: &TrainConfig, shape: Shape) -> BatchBuilder<G>
where
    G::State: game::AlphaBetaState,
{
    let mut builder = BatchBuilder::new(game)
        .with_value_q_weight(cfg.value_q_weight as f32)
        .with_proven_targets(cfg.proven_value_targets);
    let hint = static_value_hint(&game.start(), cfg.value_eval_scale);
    if cfg.value_eval_weight > 0.0 {
        builder = builder.with_value_hint(cfg.value_eval_weight as f32, hint.clone());
    }
    // The auxiliary targets cost a second encoding per sample: only for a
    // network that has the heads to learn them.
    if shape.aux_heads {
        builder = builder.with_aux(cfg.future_eval_plies, hint);
    }
    builder
}

/// The prepared batches of `window` for `game`'s variant, the first `skip`
/// left out without being encoded.
fn batch_stream<G: Game>(
    game: &G,
    window: &ReplayWindow,
    cfg: &TrainConfig,
    shape: Shape,
    skip: u64,
    cheap: f32,
) -> Box<dyn Iterator<Item = TrainBatch>>
where
    G::State: game::AlphaBetaState,
{
    let options = window_options(game, cfg);
    let mut builder = batch_builder(game, cfg, shape);
    let mut produced = 0u64;
    let stream = window.batches_with(&options, move |batch| {
        produced += 1;
        (produced > skip).then(|| builder.build_batch(&batch, cheap))
    });
    Box::new(stream.flatten())
}

/// Runs (or resumes) a training run. `on_step` is called after every step.
pub fn train<G: Game>(
    game: &G,
    model_cfg: &ModelConfig,
    cfg: &TrainConfig,
    opts: &RunOptions,
    on_step: &mut dyn FnMut(&Progress),
) -> Result<Summary, TrainError>
where
    G::State: game::AlphaBetaState,
{
    train_mixed(game, &[], model_cfg, cfg, opts, on_step)
}

/// Another variant of the run's game trained on beside it (`triad train
/// --mix`, docs/train.md "Several board sizes in one run"): its game value
/// and its shards.
#[derive(Clone, Debug)]
pub struct MixPart<G> {
    /// The variant (the same game as the run's, another variant).
    pub game: G,
    /// Its shard files or directories.
    pub data: Vec<PathBuf>,
}

/// Which window step `k` of a mixed run draws its batch from: window `i`
/// with probability `sizes[i] / sum(sizes)`, from a generator seeded by the
/// run's seed and the step alone, so a resumed run makes the same choices.
pub fn mix_choice(seed: u64, step: u64, sizes: &[usize]) -> usize {
    let total: u64 = sizes.iter().map(|&n| n as u64).sum();
    if sizes.len() <= 1 || total == 0 {
        return 0;
    }
    let mut rng = game::SplitMix::new(seed ^ step.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut pick = rng.below(total);
    for (i, &n) in sizes.iter().enumerate() {
        if pick < n as u64 {
            return i;
        }
        pick -= n as u64;
    }
    sizes.len() - 1
}

/// Runs (or resumes) a training run on the run's variant and the `mix`
/// variants at once: each has its own replay window (up to `window`
/// positions each) and batch builder, every batch is of one variant, and
/// step k's variant is drawn with probability in proportion to the
/// windows' sizes ([`mix_choice`]). The network's weights do not depend on
/// the board's size, so one network learns them all; its checkpoints are
/// the run's variant's, their metadata listing the mix. Without `mix` this
/// is [`train`].
pub fn train_mixed<G: Game>(
    game: &G,
    mix: &[MixPart<G>],
    model_cfg: &ModelConfig,
    cfg: &TrainConfig,
    opts: &RunOptions,
    on_step: &mut dyn FnMut(&Progress),
) -> Result<Summary, TrainError>
where
    G::State: game::AlphaBetaState,
{
    check_mix(game, mix)?;
    let mut cfg = cfg.clone();
    if let Some(s) = opts.steps {
        cfg.steps = s;
    }
    cfg.validate()?;
    model_cfg.validate()?;
    let device = model_cfg.tch_device()?;
    set_threads(&cfg, model_cfg);
    let run_dir = &opts.run_dir;
    let ckpt_dir = run_dir.join(CHECKPOINT_DIR);
    std::fs::create_dir_all(&ckpt_dir).map_err(|source| TrainError::CreateDir {
        path: ckpt_dir.clone(),
        source,
    })?;
    fsio::remove_temporaries(&ckpt_dir);
    fsio::remove_temporaries(run_dir);

    let tag = GameTag::of(game);
    let shape = Shape::of(model_cfg, game.encoding());
    let hash = cfg.training_hash();
    let start = starting_point(opts, &tag, shape, device, &cfg, &hash)?;
    let (start_step, resume_from, parent) =
        (start.step, start.resume_from.clone(), start.parent.clone());
    let init_from = start.init_from.clone();
    let mut trainer = start.into_trainer(&cfg)?;
    if let Some(text) = &opts.config_text {
        let copy = run_dir.join(CONFIG_COPY);
        fsio::write_atomic(&copy, text.as_bytes())
            .map_err(|source| TrainError::Io { path: copy, source })?;
    }
    let mut metrics = MetricsWriter::open(run_dir, resume_from.as_ref().map(|_| start_step))?;

    let windows = open_windows(opts, mix, &cfg, &tag)?;
    let checkpoints = Checkpoints {
        tag,
        run_dir,
        parent,
        init_from,
        hash,
        seed: cfg.seed,
        windows: &windows,
        mix_games: mix
            .iter()
            .map(|p| GameTag::of(&p.game).to_string())
            .collect(),
    };
    let end = opts.stop_after.map_or(cfg.steps, |s| s.min(cfg.steps));
    let mut summary = Summary {
        steps_run: 0,
        final_step: start_step,
        checkpoint: resume_from.clone(),
        samples: 0,
        loop_seconds: 0.0,
        window: windows[0].len(),
        skipped_rows: 0,
        data_wait_seconds: 0.0,
    };
    if start_step >= end {
        // `--init X --steps 0`: the start network itself becomes the run's
        // step-0 checkpoint (a network of another variant, labelled for
        // this one: how a network is scored zero-shot on another size).
        if resume_from.is_none() && opts.init.is_some() {
            summary.checkpoint = Some(checkpoints.save(&trainer, start_step)?);
        }
        return Ok(summary);
    }
    let mut streams = batch_streams(game, mix, &windows, &cfg, trainer.net.shape(), start_step);
    let steps = Steps {
        cfg: &cfg,
        device,
        sizes: windows.iter().map(|w| w.len()).collect(),
        mixed: !mix.is_empty(),
        end,
        checkpoints: &checkpoints,
    };
    let step = steps.run(
        &mut trainer,
        &mut streams,
        start_step,
        &mut metrics,
        &mut summary,
        on_step,
    )?;
    summary.checkpoint = Some(checkpoints.save(&trainer, step)?);
    Ok(summary)
}

/// Refuses `--mix` parts that are not other variants of the run's game or
/// have no shards.
fn check_mix<G: Game>(game: &G, mix: &[MixPart<G>]) -> Result<(), TrainError> {
    for part in mix {
        let other = GameTag::of(&part.game);
        if other.name != G::NAME || other.variant == GameTag::of(game).variant {
            return Err(TrainError::MixNotVariant {
                part: other.to_string(),
                game: G::NAME,
                variant: game.variant().to_string(),
            });
        }
        if part.data.is_empty() {
            return Err(TrainError::MixNoShards {
                part: other.to_string(),
            });
        }
    }
    Ok(())
}

/// The replay windows of a run: the run's variant's first, then each
/// `--mix` part's.
fn open_windows<G: Game>(
    opts: &RunOptions,
    mix: &[MixPart<G>],
    cfg: &TrainConfig,
    tag: &GameTag,
) -> Result<Vec<ReplayWindow>, TrainError> {
    let mut windows = Vec::with_capacity(1 + mix.len());
    windows.push(open_window(&opts.data, cfg, tag)?);
    for part in mix {
        let part_tag = GameTag::of(&part.game);
        let w = open_window(&part.data, cfg, &part_tag).map_err(|e| TrainError::MixWindow {
            part: part_tag.to_string(),
            source: Box::new(e),
        })?;
        windows.push(w);
    }
    Ok(windows)
}

/// The streams of prepared batches of a run's windows (`windows[0]` the
/// run's variant's, then the `mix` parts'), each past the batches the
/// steps before `start_step` took from it.
///
/// Batch k of the run is the k-th batch of the window's stream for the
/// seed, so a resumed run skips the batches already trained on (without
/// encoding them) and sees exactly what an uninterrupted run would. In a
/// mixed run each window has its stream; step k takes the next batch of
/// window `mix_choice(seed, k)`'s, so a resumed run skips in each stream
/// the batches its earlier steps took from it.
fn batch_streams<G: Game>(
    game: &G,
    mix: &[MixPart<G>],
    windows: &[ReplayWindow],
    cfg: &TrainConfig,
    shape: Shape,
    start_step: u64,
) -> Vec<Box<dyn Iterator<Item = TrainBatch>>>
where
    G::State: game::AlphaBetaState,
{
    let cheap = cfg.cheap_search_weight as f32;
    let sizes: Vec<usize> = windows.iter().map(|w| w.len()).collect();
    let mut skip = vec![0u64; sizes.len()];
    if mix.is_empty() {
        skip[0] = start_step;
    } else {
        for k in 0..start_step {
            skip[mix_choice(cfg.seed, k, &sizes)] += 1;
        }
    }
    let mut streams: Vec<Box<dyn Iterator<Item = TrainBatch>>> = Vec::with_capacity(sizes.len());
    streams.push(batch_stream(game, &windows[0], cfg, shape, skip[0], cheap));
    for (i, (part, w)) in mix.iter().zip(&windows[1..]).enumerate() {
        streams.push(batch_stream(&part.game, w, cfg, shape, skip[i + 1], cheap));
    }
    streams
}

/// What a run's checkpoints record beside the weights: the lineage, the
/// training settings' hash and seed, and the windows trained on.
struct Checkpoints<'a> {
    tag: GameTag,
    run_dir: &'a Path,
    /// The checkpoint the run's lineage started from.
    parent: Option<String>,
    /// The other variant the lineage started from, if any.
    init_from: Option<String>,
    /// [`TrainConfig::training_hash`].
    hash: String,
    seed: u64,
    /// The run's variant's window, then the `--mix` parts'.
    windows: &'a [ReplayWindow],
    /// The `--mix` parts' `name/variant`.
    mix_games: Vec<String>,
}

impl Checkpoints<'_> {
    /// The sidecar metadata of the checkpoint after `step` batches.
    fn meta(&self, step: u64) -> serde_json::Value {
        let shards = |w: &ReplayWindow| {
            w.shards()
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
        };
        let window = &self.windows[0];
        let mut m = serde_json::json!({
            "train_hash": self.hash,
            "seed": self.seed,
            "batches_consumed": step,
            "window_positions": window.len(),
            "window_shards": shards(window),
        });
        if let Some(obj) = m.as_object_mut() {
            if let Some(from) = &self.init_from {
                obj.insert("init_from".into(), from.clone().into());
            }
            if !self.mix_games.is_empty() {
                let parts: Vec<serde_json::Value> = self
                    .mix_games
                    .iter()
                    .zip(&self.windows[1..])
                    .map(|(game, w)| {
                        serde_json::json!({
                            "game": game,
                            "window_positions": w.len(),
                            "window_shards": shards(w),
                        })
                    })
                    .collect();
                obj.insert("mix".into(), parts.into());
            }
        }
        m
    }

    /// Saves `trainer`'s checkpoint after `step` batches.
    fn save(&self, trainer: &Trainer, step: u64) -> Result<PathBuf, TrainError> {
        save_checkpoint(
            &self.tag,
            trainer,
            self.run_dir,
            step,
            self.meta(step),
            self.parent.clone(),
        )
    }
}

/// The step loop of a run: its settings, where it ends, its checkpoints.
struct Steps<'a> {
    cfg: &'a TrainConfig,
    device: tch::Device,
    /// The windows' sizes, which [`mix_choice`] draws by.
    sizes: Vec<usize>,
    /// Whether the run has `--mix` parts.
    mixed: bool,
    /// The step after which the loop stops.
    end: u64,
    checkpoints: &'a Checkpoints<'a>,
}

impl Steps<'_> {
    /// Trains from `start_step` to `self.end`: one optimiser step per
    /// batch, metrics every `metrics_every` steps, a checkpoint every
    /// `checkpoint_every` steps before the end; `summary` gathers the
    /// figures. Returns the step reached (the caller saves its checkpoint).
    fn run(
        &self,
        trainer: &mut Trainer,
        streams: &mut [Box<dyn Iterator<Item = TrainBatch>>],
        start_step: u64,
        metrics: &mut MetricsWriter,
        summary: &mut Summary,
        on_step: &mut dyn FnMut(&Progress),
    ) -> Result<u64, TrainError> {
        let cfg = self.cfg;
        let started = Instant::now();
        let mut since = Instant::now();
        let mut since_samples = 0u64;
        let mut last = MetricsRow::default();
        let mut step = start_step;
        while step < self.end {
            let waited = Instant::now();
            let which = if self.mixed {
                mix_choice(cfg.seed, step, &self.sizes)
            } else {
                0
            };
            let batch = streams[which]
                .next()
                .ok_or(TrainError::BatchStreamStopped)?;
            summary.data_wait_seconds += waited.elapsed().as_secs_f64();
            let batch = batch.to_device(self.device);
            let lr = cfg.lr_at(step);
            let log = (step + 1).is_multiple_of(cfg.metrics_every) || step + 1 == self.end;
            // A batch whose rows were all undecodable has nothing to learn
            // from: the step passes without an update (docs/train.md: such
            // rows are skipped and counted), keeping batch k = step k.
            let stats = if batch.rows > 0 {
                trainer.step(&batch, lr, log)
            } else {
                None
            };
            step += 1;
            summary.samples += batch.rows as u64;
            summary.skipped_rows += batch.skipped as u64;
            since_samples += batch.rows as u64;
            if let Some(s) = stats {
                let elapsed = since.elapsed().as_secs_f64().max(1e-9);
                last = s.row(step, lr, since_samples as f64 / elapsed);
                metrics.write(&last)?;
                since = Instant::now();
                since_samples = 0;
            }
            if step.is_multiple_of(cfg.checkpoint_every) && step < self.end {
                summary.checkpoint = Some(self.checkpoints.save(trainer, step)?);
            }
            on_step(&Progress {
                step,
                total: cfg.steps,
                last,
                data_wait_share: summary.data_wait_seconds
                    / started.elapsed().as_secs_f64().max(1e-9),
            });
        }
        summary.loop_seconds = started.elapsed().as_secs_f64();
        summary.steps_run = step - start_step;
        summary.final_step = step;
        Ok(step)
    }
}

/// Where a run starts: the network (fresh, `--init`'s, or the last
/// checkpoint's when resuming), its step, and where it came from.
struct Start {
    net: Network,
    step: u64,
    /// The checkpoint a resumed run goes on from.
    resume_from: Option<PathBuf>,
    /// The checkpoint the run's lineage started from, recorded in each
    /// checkpoint's sidecar.
    parent: Option<String>,
    /// The live weights kept beside a checkpoint that publishes an average.
    live: Option<PathBuf>,
    /// `name/variant` of the network the lineage started from when that
    /// was another variant of the game (`--init` across board sizes),
    /// recorded in each checkpoint's sidecar as `init_from`.
    init_from: Option<String>,
}

/// The other variant a checkpoint's lineage started from (its sidecar's
/// `init_from`), if any.
fn init_from_of(info: &CheckpointInfo) -> Option<String> {
    info.metadata
        .get("init_from")
        .and_then(|v| v.as_str())
        .map(str::to_string)
}

/// Decides where the run in `opts.run_dir` starts. A folder that already
/// holds checkpoints is an error unless `--resume` asks to continue it, so a
/// run is never overwritten by mistake.
fn starting_point(
    opts: &RunOptions,
    tag: &GameTag,
    shape: Shape,
    device: tch::Device,
    cfg: &TrainConfig,
    hash: &str,
) -> Result<Start, TrainError> {
    let run_dir = &opts.run_dir;
    match (latest_checkpoint(run_dir), opts.resume) {
        (Some(_), false) => Err(TrainError::AlreadyRun {
            run_dir: run_dir.clone(),
            checkpoints: run_dir.join(CHECKPOINT_DIR),
        }),
        (Some((weights, info)), true) => {
            let (net, _) = Network::load_expecting(&weights, tag, shape, device)
                .map_err(TrainError::LoadCheckpoint)?;
            let old_hash = info.metadata.get("train_hash").and_then(|v| v.as_str());
            if old_hash.is_some_and(|h| h != hash) {
                eprintln!(
                    "warning: the [train] settings differ from those of {}; the resumed run is not an exact continuation",
                    weights.display()
                );
            }
            let init_from = init_from_of(&info);
            Ok(Start {
                net,
                step: info.step,
                live: live_weights_of(&weights, &info),
                resume_from: Some(weights),
                parent: info.parent,
                init_from,
            })
        }
        (None, _) => {
            let (net, parent, init_from) = match &opts.init {
                Some(init) => {
                    // Any variant of the game: the weights do not depend
                    // on the board's size (CheckpointInfo::check_transfer).
                    let (net, from) = Network::load_transfer(init, tag, shape, device)
                        .map_err(TrainError::LoadCheckpoint)?;
                    // Another variant's network, or one that came from
                    // another variant itself (the loop's generation 0).
                    let init_from = if from.variant != tag.variant {
                        Some(from.game_text())
                    } else {
                        init_from_of(&from)
                    };
                    (net, Some(init.display().to_string()), init_from)
                }
                None => (Network::with_shape(shape, device, cfg.seed), None, None),
            };
            Ok(Start {
                net,
                step: 0,
                resume_from: None,
                parent,
                live: None,
                init_from,
            })
        }
    }
}

impl Start {
    /// The trainer that goes on from here, its optimiser state restored
    /// when resuming.
    fn into_trainer(self, cfg: &TrainConfig) -> Result<Trainer, TrainError> {
        // A checkpoint that publishes an average keeps the live weights
        // beside it: training goes on from those, and the average from the
        // published.
        let mut trainer = match &self.live {
            Some(live) => {
                let mut trained = self.net.duplicate();
                trained
                    .load_weights(live)
                    .map_err(TrainError::LoadCheckpoint)?;
                let ema =
                    (cfg.ema_decay > 0.0).then(|| Ema::new(self.net, &trained, cfg.ema_decay));
                Trainer::with_average(trained, ema, cfg)
            }
            None => Trainer::new(self.net, cfg),
        };
        if let Some(weights) = &self.resume_from {
            trainer.optimizer.load(&optimizer_path(weights))?;
        }
        Ok(trainer)
    }
}

/// The replay window over `data` (`[train] window` positions, or the
/// growing window's size for the positions under `data`), refused when it
/// holds no position.
fn open_window(
    data: &[PathBuf],
    cfg: &TrainConfig,
    tag: &GameTag,
) -> Result<ReplayWindow, TrainError> {
    let capacity = if cfg.window_min > 0 {
        cfg.window_positions(data::count_rows(data)?)
    } else {
        cfg.window
    };
    let window = ReplayWindow::load_for(data, capacity, tag)?;
    if window.is_empty() {
        return Err(TrainError::EmptyWindow {
            data: data.to_vec(),
        });
    }
    Ok(window)
}

/// Sets libtorch's CPU threads for training: `[train] threads`, else
/// `[model] threads`; 0 in both leaves libtorch's default.
pub fn set_threads(cfg: &TrainConfig, model_cfg: &ModelConfig) {
    let threads = if cfg.threads > 0 {
        cfg.threads
    } else {
        model_cfg.threads
    };
    if threads > 0 {
        tch::set_num_threads(threads as i32);
    }
}
