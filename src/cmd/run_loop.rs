//! `triad loop`: generations of self-play, training and evaluation, all kept
//! in one run directory, resumable by running the same command again.
//!
//! Each generation: the current best network plays `games_per_generation`
//! self-play games (`triad selfplay`), the trainer continues its run on the
//! shards of every generation so far (`triad train --resume`, its replay
//! window keeps the newest positions), the new network is copied to
//! `networks/gen-NNNN`, and it plays matches against the previous
//! generation and the fixed ladder of `[eval]` (random and alpha-beta
//! levels). All match results go into one table (`matches.json`) from which
//! the ratings are fitted by maximum likelihood, anchored at `random` = 0
//! (`ratings.csv`, one row per generation). With gating, a new network
//! becomes the self-play network only if it scores `gate_score` against the
//! current one.
//!
//! Stages run as child processes of this same binary (their progress bars
//! show as usual); `state.json` records the next stage, so a killed loop
//! resumes at the stage it was in (a half-written self-play generation is
//! replayed from scratch, training continues from its last checkpoint).

use super::selfplay_players;
use super::{print_json, CliError};
use crate::config::{parse_toml, RunConfig};
use eval::arena::openings::random_openings;
use eval::arena::players::PlayerSpec;
use eval::arena::record::game_record;
use eval::arena::{self, RunOptions, Schedule, Table};
use eval::elo::Wdl;
use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;

/// `[loop]`: the shape of a run of generations.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LoopConfig {
    /// Generations after generation 0 (the random network).
    pub generations: u32,
    /// Self-play games per generation.
    pub games_per_generation: u64,
    /// Optimiser steps per generation (the training run is one continuous
    /// run; its total grows by this much each generation).
    pub train_steps_per_generation: u64,
    /// Keep self-playing with the best network so far unless the new one
    /// scores at least `gate_score` against it.
    pub gating: bool,
    pub gate_score: f64,
}

impl Default for LoopConfig {
    fn default() -> Self {
        LoopConfig {
            generations: 4,
            games_per_generation: 128,
            train_steps_per_generation: 200,
            gating: false,
            gate_score: 0.55,
        }
    }
}

impl LoopConfig {
    pub fn validate(&self) -> Result<(), String> {
        if self.generations == 0 {
            return Err("loop.generations: must be at least 1".into());
        }
        if self.games_per_generation == 0 {
            return Err("loop.games_per_generation: must be at least 1".into());
        }
        if self.train_steps_per_generation == 0 {
            return Err("loop.train_steps_per_generation: must be at least 1".into());
        }
        if !(0.0..=1.0).contains(&self.gate_score) {
            return Err("loop.gate_score: must be within 0..=1".into());
        }
        Ok(())
    }
}

#[derive(clap::Args)]
#[command(
    after_help = "RUN_DIR holds config.toml (a copy of the run file), state.json, networks/gen-NNNN.*,\ngames/gen-NNNN/ (self-play shards), train/ (the training run), eval/ (match games),\nmatches.json and ratings.csv. Run the same command again to resume; `triad plot RUN_DIR`\ndraws Elo by generation and the training curves.\n\nExample:\n  triad loop --config configs/quickstart.toml --run runs/quickstart"
)]
pub struct Args {
    /// The run file (all sections: [model], [selfplay], [train], [eval], [loop]).
    #[arg(long, value_name = "FILE")]
    config: PathBuf,
    /// The run directory (created if missing; resumed if it holds a run).
    #[arg(long, value_name = "RUN_DIR")]
    run: PathBuf,
    /// Print the final ratings as one JSON object.
    #[arg(long)]
    json: bool,
}

/// Where the loop is: the next stage to run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
struct State {
    generation: u32,
    stage: Stage,
    /// The generation self-play uses.
    best: u32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Stage {
    #[default]
    Init,
    Selfplay,
    Train,
    Eval,
    Done,
}

/// Every match result so far: players by name and their records.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Matches {
    players: Vec<String>,
    /// `wdl[i][j]` = [wins, draws, losses] of i against j.
    wdl: Vec<Vec<[u64; 3]>>,
}

impl Matches {
    fn index(&mut self, name: &str) -> usize {
        if let Some(i) = self.players.iter().position(|p| p == name) {
            return i;
        }
        self.players.push(name.to_string());
        for row in self.wdl.iter_mut() {
            row.push([0; 3]);
        }
        self.wdl.push(vec![[0; 3]; self.players.len()]);
        self.players.len() - 1
    }

    fn table(&self) -> Vec<Vec<Wdl>> {
        self.wdl
            .iter()
            .map(|r| r.iter().map(|x| Wdl::new(x[0], x[1], x[2])).collect())
            .collect()
    }
}

fn gen_name(g: u32) -> String {
    format!("gen-{g:04}")
}

fn write_atomic(path: &Path, text: &str) -> Result<(), CliError> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| CliError::failed(format!("{}: cannot write: {e}", path.display())))
}

fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<Option<T>, CliError> {
    match std::fs::read_to_string(path) {
        Ok(t) => serde_json::from_str(&t).map(Some).map_err(|e| {
            CliError::input(format!(
                "{}: corrupt ({e}); remove it to start that part again",
                path.display()
            ))
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(CliError::failed(format!("{}: {e}", path.display()))),
    }
}

/// Runs this binary with `args`, its stderr shown, its stdout (one JSON
/// object) returned.
fn child(args: &[String]) -> Result<serde_json::Value, CliError> {
    let exe = std::env::current_exe()
        .map_err(|e| CliError::failed(format!("cannot find the triad binary: {e}")))?;
    eprintln!("triad {}", args.join(" "));
    let out = Command::new(exe)
        .args(args)
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|e| CliError::failed(format!("cannot run triad {}: {e}", args[0])))?;
    if !out.status.success() {
        return Err(CliError {
            code: out.status.code().unwrap_or(1),
            message: format!("`triad {}` failed; the loop can be resumed", args.join(" ")),
        });
    }
    serde_json::from_slice(&out.stdout)
        .map_err(|e| CliError::failed(format!("`triad {}` printed no JSON summary: {e}", args[0])))
}

fn copy_checkpoint(from: &Path, to: &Path) -> Result<(), CliError> {
    for (a, b) in [
        (from.to_path_buf(), to.to_path_buf()),
        (
            model::checkpoint::sidecar_path(from),
            model::checkpoint::sidecar_path(to),
        ),
    ] {
        let tmp = b.with_extension("copy.tmp");
        std::fs::copy(&a, &tmp)
            .and_then(|_| std::fs::rename(&tmp, &b))
            .map_err(|e| {
                CliError::failed(format!(
                    "cannot copy {} to {}: {e}",
                    a.display(),
                    b.display()
                ))
            })?;
    }
    Ok(())
}

pub fn run(args: Args) -> Result<(), CliError> {
    let text = std::fs::read_to_string(&args.config)
        .map_err(|e| CliError::input(format!("{}: cannot read: {e}", args.config.display())))?;
    let cfg: RunConfig = parse_toml(&text)
        .map_err(|m| CliError::input(format!("{}: {m}", args.config.display())))?;
    let bad = |m: String| CliError::input(format!("{}: {m}", args.config.display()));
    cfg.eval.validate().map_err(bad)?;
    cfg.r#loop.validate().map_err(bad)?;
    let ladder: Vec<PlayerSpec> = cfg
        .eval
        .ladder
        .iter()
        .map(|p| p.parse().map_err(|e: String| bad(e)))
        .collect::<Result<_, _>>()?;

    let run = &args.run;
    for d in ["networks", "games", "eval"] {
        std::fs::create_dir_all(run.join(d)).map_err(|e| {
            CliError::input(format!("{}: cannot create: {e}", run.join(d).display()))
        })?;
    }
    let config_copy = run.join("config.toml");
    match std::fs::read_to_string(&config_copy) {
        Ok(old) if old != text => {
            return Err(CliError::input(format!(
                "{} holds a run of another config (its config.toml differs from {}); use the same file or a new --run",
                run.display(),
                args.config.display()
            )))
        }
        Ok(_) => {}
        Err(_) => write_atomic(&config_copy, &text)?,
    }
    let state_path = run.join("state.json");
    let matches_path = run.join("matches.json");
    let mut state: State = read_json(&state_path)?.unwrap_or_default();
    let mut matches: Matches = read_json(&matches_path)?.unwrap_or_default();
    let net_path = |g: u32| {
        run.join("networks")
            .join(format!("{}.safetensors", gen_name(g)))
    };
    let save_state = |s: &State| {
        write_atomic(
            &state_path,
            &serde_json::to_string_pretty(s).unwrap_or_default(),
        )
    };
    let lc = &cfg.r#loop;
    let config_arg = config_copy.display().to_string();

    while state.stage != Stage::Done {
        let g = state.generation;
        match state.stage {
            Stage::Init => {
                let model_cfg =
                    model::ModelConfig::from_toml_str(&text).map_err(|e| bad(e.to_string()))?;
                let net =
                    model::Network::new(&model_cfg, cfg.seed).map_err(|e| bad(e.to_string()))?;
                let info = model::CheckpointInfo::new(net.shape(), 0);
                net.save(&net_path(0), &info)
                    .map_err(|e| CliError::failed(e.to_string()))?;
                eprintln!(
                    "generation 0: a random network ({} parameters)",
                    net.parameter_count()
                );
                state.stage = Stage::Eval;
            }
            Stage::Selfplay => {
                let dir = run.join("games").join(gen_name(g));
                if dir.exists() {
                    // An interrupted generation is played again from scratch.
                    std::fs::remove_dir_all(&dir)
                        .map_err(|e| CliError::failed(format!("{}: {e}", dir.display())))?;
                }
                eprintln!("generation {g}: self-play with {}", gen_name(state.best));
                child(&[
                    "selfplay".into(),
                    "--config".into(),
                    config_arg.clone(),
                    "--model".into(),
                    net_path(state.best).display().to_string(),
                    "--games".into(),
                    lc.games_per_generation.to_string(),
                    "--out".into(),
                    dir.display().to_string(),
                    "--seed".into(),
                    (cfg.seed.wrapping_mul(1000) + g as u64).to_string(),
                    "--json".into(),
                ])?;
                state.stage = Stage::Train;
            }
            Stage::Train => {
                eprintln!("generation {g}: training");
                let train_dir = run.join("train");
                let mut a: Vec<String> = vec![
                    "train".into(),
                    "--config".into(),
                    config_arg.clone(),
                    "--out".into(),
                    train_dir.display().to_string(),
                    "--steps".into(),
                    (lc.train_steps_per_generation * g as u64).to_string(),
                    "--json".into(),
                ];
                if train::latest_checkpoint(&train_dir).is_some() {
                    a.push("--resume".into());
                } else {
                    a.push("--init".into());
                    a.push(net_path(0).display().to_string());
                }
                a.push("--data".into());
                for k in 1..=g {
                    let d = run.join("games").join(gen_name(k));
                    if d.exists() {
                        a.push(d.display().to_string());
                    }
                }
                child(&a)?;
                let (latest, _) = train::latest_checkpoint(&train_dir).ok_or_else(|| {
                    CliError::failed(format!(
                        "{}: training wrote no checkpoint",
                        train_dir.display()
                    ))
                })?;
                copy_checkpoint(&latest, &net_path(g))?;
                state.stage = Stage::Eval;
            }
            Stage::Eval => {
                let me = gen_name(g);
                let net = |k: u32| {
                    PlayerSpec::Net(eval::arena::players::NetSpec {
                        path: net_path(k).display().to_string(),
                        sims: cfg.eval.simulations,
                        options: vec![],
                    })
                };
                let mut players = vec![net(g)];
                let mut names = vec![me.clone()];
                if g > 0 {
                    players.push(net(g - 1));
                    names.push(gen_name(g - 1));
                    if state.best != g - 1 {
                        players.push(net(state.best));
                        names.push(gen_name(state.best));
                    }
                }
                for (p, n) in ladder.iter().zip(&cfg.eval.ladder) {
                    players.push(p.clone());
                    names.push(n.clone());
                }
                let pairs = cfg.eval.games.div_ceil(2).max(1);
                let openings = random_openings(pairs, cfg.eval.random_plies, cfg.seed ^ g as u64);
                let schedule = Schedule::gauntlet(players.len(), pairs, openings.len());
                let opts = RunOptions {
                    threads: cfg.eval.threads,
                    max_plies: cfg.eval.max_plies,
                    seed: cfg.seed.wrapping_add(g as u64),
                };
                eprintln!("generation {g}: {} evaluation games", schedule.games.len());
                let bar = ProgressBar::new(schedule.games.len() as u64);
                bar.set_style(
                    ProgressStyle::with_template(
                        "{bar:30} {pos}/{len} evaluation games [{elapsed}]",
                    )
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
                );
                let device = cfg.model.tch_device().map_err(|e| bad(e.to_string()))?;
                let factory = selfplay_players::factory(device);
                let mut table = Table::new(players.len());
                let games = arena::run(
                    &players,
                    &schedule,
                    &openings,
                    &opts,
                    factory.as_deref(),
                    |gm| {
                        table.add(gm);
                        bar.inc(1);
                        true
                    },
                )
                .map_err(CliError::failed)?;
                bar.finish_and_clear();
                let shard = run.join("eval").join(format!("{me}.parquet"));
                let mut w = data::ShardWriter::create(&shard)
                    .map_err(|e| CliError::failed(e.to_string()))?;
                for (i, gm) in games.iter().enumerate() {
                    w.push_game(&game_record(gm, &players, ((g as u64) << 32) | i as u64))
                        .map_err(|e| CliError::failed(e.to_string()))?;
                }
                w.finish().map_err(|e| CliError::failed(e.to_string()))?;
                for (j, opponent) in names.iter().enumerate().skip(1) {
                    let r = table.wdl[0][j];
                    eprintln!(
                        "  {me} vs {}: +{} ={} -{} (score {:.2})",
                        opponent,
                        r.wins,
                        r.draws,
                        r.losses,
                        r.score()
                    );
                    let (a, b) = (matches.index(&me), matches.index(opponent));
                    for (x, y, rec) in [(a, b, r), (b, a, r.flipped())] {
                        let cell = &mut matches.wdl[x][y];
                        cell[0] += rec.wins;
                        cell[1] += rec.draws;
                        cell[2] += rec.losses;
                    }
                }
                write_atomic(
                    &matches_path,
                    &serde_json::to_string_pretty(&matches).unwrap_or_default(),
                )?;
                write_ratings(run, &matches, g)?;
                if g > 0 {
                    let vs_best = names
                        .iter()
                        .position(|n| *n == gen_name(state.best))
                        .unwrap_or(1);
                    let score = table.wdl[0][vs_best].score();
                    if !lc.gating || score >= lc.gate_score {
                        state.best = g;
                    } else {
                        eprintln!(
                            "  gating: {me} scored {score:.2} < {} against {}; self-play keeps {}",
                            lc.gate_score,
                            gen_name(state.best),
                            gen_name(state.best)
                        );
                    }
                }
                if g >= lc.generations {
                    state.stage = Stage::Done;
                } else {
                    state.generation = g + 1;
                    state.stage = Stage::Selfplay;
                }
            }
            Stage::Done => {}
        }
        save_state(&state)?;
    }

    let ratings = fitted(&matches);
    if args.json {
        print_json(&json!({
            "generations": state.generation,
            "best": gen_name(state.best),
            "ratings": matches.players.iter().zip(&ratings).map(|(p, r)| json!({"player": p, "elo": if r.is_finite() { json!((r * 10.0).round() / 10.0) } else { serde_json::Value::Null }})).collect::<Vec<_>>(),
        }));
    } else {
        println!("{}", ratings_table(&matches, &ratings));
        println!(
            "run complete: {} (best network {})",
            run.display(),
            gen_name(state.best)
        );
    }
    Ok(())
}

fn fitted(m: &Matches) -> Vec<f64> {
    if m.players.is_empty() {
        return Vec::new();
    }
    let anchor = m.players.iter().position(|p| p == "random").unwrap_or(0);
    eval::elo::fit_ratings(&m.table(), anchor)
}

/// A Markdown table of the ratings, best first.
fn ratings_table(m: &Matches, ratings: &[f64]) -> String {
    let table = m.table();
    let mut order: Vec<usize> = (0..m.players.len()).collect();
    order.sort_by(|&a, &b| ratings[b].total_cmp(&ratings[a]));
    let mut s = String::from("| player | Elo | games | score |\n| --- | ---: | ---: | ---: |\n");
    for i in order {
        let total = table[i].iter().fold(Wdl::default(), |a, r| {
            Wdl::new(a.wins + r.wins, a.draws + r.draws, a.losses + r.losses)
        });
        s.push_str(&format!(
            "| {} | {:.0} | {} | {:.3} |\n",
            m.players[i],
            ratings[i],
            total.games(),
            total.score()
        ));
    }
    s
}

/// `ratings.csv`: generation, Elo (anchored at random), and the score
/// against each ladder opponent, refitted over all games after every
/// evaluation.
fn write_ratings(run: &Path, m: &Matches, up_to: u32) -> Result<(), CliError> {
    let ratings = fitted(m);
    let table = m.table();
    let ladder: Vec<usize> = (0..m.players.len())
        .filter(|&i| !m.players[i].starts_with("gen-"))
        .collect();
    let mut csv = String::from("generation,elo");
    for &j in &ladder {
        csv.push_str(&format!(",score_vs_{}", m.players[j].replace(',', ";")));
    }
    csv.push('\n');
    for g in 0..=up_to {
        let Some(i) = m.players.iter().position(|p| *p == gen_name(g)) else {
            continue;
        };
        csv.push_str(&format!("{g},{:.1}", ratings[i]));
        for &j in &ladder {
            csv.push_str(&format!(",{:.3}", table[i][j].score()));
        }
        csv.push('\n');
    }
    write_atomic(&run.join("ratings.csv"), &csv)?;
    write_atomic(&run.join("ratings.md"), &ratings_table(m, &ratings))
}

/// Used by tests: the path of a generation's network.
#[allow(dead_code)]
pub fn network_path(run: &Path, g: u32) -> PathBuf {
    run.join("networks")
        .join(format!("{}.safetensors", gen_name(g)))
}
