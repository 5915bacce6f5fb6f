//! The loop's training stages: generation 0's random network, and each
//! later generation's training on every generation's shards so far,
//! published as `networks/gen-g`.

use super::{bar_with, Loop, Stage};
use crate::Error;
use game::{AlphaBetaState, Game, GameTag};
use std::path::{Path, PathBuf};

impl<G: Game> Loop<'_, G>
where
    G::State: AlphaBetaState,
{
    /// Generation 0: a random network, or `[loop] init`'s.
    pub(super) fn init(&self) -> Result<Stage, Error> {
        let tag = GameTag::of(self.game);
        let (net, info) = match &self.cfg.r#loop.init {
            None => {
                let net =
                    model::Network::new(&self.cfg.model, self.game.encoding(), self.cfg.seed)?;
                let info = model::CheckpointInfo::new(&tag, net.shape(), 0);
                (net, info)
            }
            Some(init) => {
                let shape = model::Shape::of(&self.cfg.model, self.game.encoding());
                let (net, from) =
                    model::Network::load_transfer(init, &tag, shape, tch::Device::Cpu)
                        .map_err(|source| Error::Init { source })?;
                let mut info = model::CheckpointInfo::new(&tag, net.shape(), 0);
                info.parent = Some(init.display().to_string());
                if from.variant != tag.variant {
                    info.metadata = serde_json::json!({ "init_from": from.game_text() });
                }
                (net, info)
            }
        };
        net.save(&self.net_path(0), &info).map_err(Error::from)?;
        match &info.parent {
            None => eprintln!(
                "generation 0: a random network ({} parameters)",
                net.parameter_count()
            ),
            Some(p) => eprintln!(
                "generation 0: the network of {p} ({} parameters)",
                net.parameter_count()
            ),
        }
        Ok(Stage::Eval)
    }

    /// Training up to generation `g`'s step count on every generation's
    /// shards so far, then the new network is published as `gen-g`.
    pub(super) fn train(&self, g: u32) -> Result<Stage, Error> {
        eprintln!("generation {g}: training");
        let train_dir = self.run.join("train");
        let resume = train::latest_checkpoint(&train_dir).is_some();
        let data: Vec<PathBuf> = (1..=g)
            .map(|k| self.run.join(crate::layout::games_dir(k)))
            .filter(|d| d.exists())
            .collect();
        let mix: Vec<::train::MixPart<G>> = self
            .mix
            .iter()
            .map(|game| ::train::MixPart {
                game: game.clone(),
                data: (1..=g)
                    .map(|k| self.mix_dir(k, game))
                    .filter(|d| d.exists())
                    .collect(),
            })
            .collect();
        let steps = self.train_steps_through(g)?;
        let opts = train::RunOptions {
            run_dir: train_dir.clone(),
            data,
            resume,
            steps: Some(steps),
            init: (!resume).then(|| self.net_path(0)),
            stop_after: None,
            config_text: Some(self.text.to_string()),
        };
        let bar = bar_with(
            steps,
            "{bar:30} {pos}/{len} steps  {msg}  [{elapsed_precise}]",
        );
        let mut shown = 0;
        let summary = train::train_mixed(
            self.game,
            &mix,
            &self.cfg.model,
            &self.cfg.train,
            &opts,
            &mut |p| {
                if p.last.step != shown {
                    shown = p.last.step;
                    bar.set_message(format!(
                        "loss {:.4}  {:.0} samples/s  waiting for data {:.0}%",
                        p.last.loss,
                        p.last.samples_per_s,
                        p.data_wait_share * 100.0
                    ));
                }
                bar.set_position(p.step);
            },
        )?;
        bar.finish_and_clear();
        // A stage resumed with no step left measured nothing: an empty row.
        self.figures
            .set(Some(super::diagnostics::of_training(&summary)));
        let (latest, _) =
            train::latest_checkpoint(&train_dir).ok_or_else(|| Error::NoCheckpoint {
                dir: train_dir.clone(),
            })?;
        copy_checkpoint(&latest, &self.net_path(g))?;
        Ok(Stage::Eval)
    }

    /// The training run's total optimiser steps after generation `g`: `g ·
    /// train_steps_per_generation`, or with `train_samples_per_position =
    /// r > 0` the sum over generations 1..=g of `ceil(r · positions_k /
    /// batch_size)`, so each position written is trained on about `r`
    /// times while it is new, however long the games run. The positions
    /// are counted from the shards (the `[loop] mix` variants' too), so a
    /// resumed loop finds the same total.
    pub(super) fn train_steps_through(&self, g: u32) -> Result<u64, Error> {
        let lc = &self.cfg.r#loop;
        if lc.train_samples_per_position <= 0.0 {
            return Ok(lc.train_steps_per_generation * g as u64);
        }
        let batch = self.cfg.train.batch_size.max(1) as f64;
        let mut steps = 0u64;
        for k in 1..=g {
            let dirs = std::iter::once(self.run.join(crate::layout::games_dir(k)))
                .chain(self.mix.iter().map(|game| self.mix_dir(k, game)));
            let dirs: Vec<PathBuf> = dirs.filter(|d| d.exists()).collect();
            let rows = data::count_rows(&dirs).map_err(Error::Data)?;
            steps += (lc.train_samples_per_position * rows as f64 / batch).ceil() as u64;
        }
        Ok(steps.max(1))
    }
}

fn copy_checkpoint(from: &Path, to: &Path) -> Result<(), Error> {
    for (a, b) in [
        (from.to_path_buf(), to.to_path_buf()),
        (
            model::checkpoint::sidecar_path(from),
            model::checkpoint::sidecar_path(to),
        ),
    ] {
        std::fs::read(&a)
            .and_then(|bytes| fsio::write_atomic(&b, &bytes))
            .map_err(|source| Error::Copy {
                from: a.clone(),
                to: b.clone(),
                source,
            })?;
    }
    Ok(())
}
