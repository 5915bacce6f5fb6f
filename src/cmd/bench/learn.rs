//! `triad bench learn`: a learning benchmark. Two (or more) run files, the
//! loop from scratch for each under one seed and the same wall-clock budget
//! on this machine, their generations interleaved so that a change in the
//! machine's load hits every run alike; then the curve of strength against
//! minutes for each, in one plot and one JSON object.
//!
//! Strength is what the runs record: Elo and the score against each rung
//! of the `[eval]` ladder (`ratings.csv`), and with `[eval] suite` the error
//! rate on the game's benchmark positions (`suite.csv`: Connect Four's
//! ground truth). Minutes come from the loop's `timings.csv`.

use crate::cmd::{print_json, CliError};
use crate::config::load_run;
use indicatif::{ProgressBar, ProgressStyle};
use pipeline::run::Timings;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

#[derive(clap::Args)]
#[command(
    after_help = "Each run file is copied to OUT/<name>/run.toml with `seed` set to --seed (the \
first file's seed by default), and run there by `triad loop` one generation at a time, the \
runs taking turns (`triad loop --open-ended`: no generation is treated as the last), until \
its stages have taken --minutes of wall time (the generation under way when the budget runs \
out is finished). Each loop's log goes to OUT/<name>/loop.log. \
Running the same command again resumes, and a larger --minutes extends. The runs must be of \
one game and should share their [eval] ladder, so that their scores are against the same \
rungs. Writes OUT/learn.png (or --plot FILE): Elo, each rung's score and each benchmark \
file's error rate against minutes, a line per run.\n\n\
Examples:\n  triad bench learn --config configs/connect4-quickstart.toml --config my-c4.toml --minutes 10 --out runs/learn-c4\n  \
triad bench learn --config a.toml --config b.toml --minutes 30 --out runs/ab --json"
)]
pub struct Args {
    /// A run file; give two (or more) to compare.
    #[arg(long = "config", value_name = "FILE", required = true)]
    configs: Vec<PathBuf>,
    /// Wall-clock minutes of loop stages per run.
    #[arg(long, value_name = "M")]
    minutes: f64,
    /// The folder of the runs (one subfolder per run file).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// The seed of every run (replaces each file's `seed`).
    #[arg(long)]
    seed: Option<u64>,
    /// Where to write the plot (.png or .svg; default OUT/learn.png).
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,
    /// Print one JSON object with every run's curve.
    #[arg(long)]
    json: bool,
}

/// One run of the benchmark.
struct Run {
    name: String,
    config: PathBuf,
    dir: PathBuf,
    generations: u32,
}

pub fn run(args: Args) -> Result<(), CliError> {
    if !(args.minutes > 0.0 && args.minutes.is_finite()) {
        return Err(CliError::input(
            "--minutes must be a positive number of minutes",
        ));
    }
    let mut runs = prepare(&args)?;
    let budget = args.minutes * 60.0;
    let bar = ProgressBar::new((budget * runs.len() as f64) as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {msg} [{elapsed}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let exe = std::env::current_exe()
        .map_err(|e| CliError::failed(format!("cannot find the triad binary: {e}")))?;
    // Generations interleaved: every run's generation k before any k + 1.
    loop {
        let mut progressed = false;
        for r in runs.iter_mut() {
            let used = seconds_used(&r.dir)?;
            if used >= budget {
                continue;
            }
            r.generations += 1;
            bar.set_message(format!(
                "{}: generation {} ({:.1} of {} min)",
                r.name,
                r.generations,
                used / 60.0,
                args.minutes
            ));
            run_loop(&exe, r)?;
            progressed = true;
        }
        let mut spent = 0.0;
        for r in &runs {
            spent += seconds_used(&r.dir)?.min(budget);
        }
        bar.set_position(spent as u64);
        if !progressed {
            break;
        }
    }
    bar.finish_and_clear();
    let curves: Vec<Value> = runs.iter().map(curve).collect::<Result<_, _>>()?;
    let plot = args
        .plot
        .clone()
        .unwrap_or_else(|| args.out.join("learn.png"));
    draw(&runs, &curves, &plot)?;
    let report = json!({
        "minutes": args.minutes,
        "seed": seed_of(&args)?,
        "plot": plot.display().to_string(),
        "runs": runs.iter().zip(&curves).map(|(r, c)| json!({
            "name": r.name,
            "config": r.config.display().to_string(),
            "dir": r.dir.display().to_string(),
            "minutes_used": seconds_used(&r.dir).unwrap_or(0.0) / 60.0,
            "curve": c,
        })).collect::<Vec<_>>(),
    });
    if args.json {
        print_json(&report);
    } else {
        for (r, c) in runs.iter().zip(&curves) {
            println!("{} ({}):", r.name, r.config.display());
            for p in c.as_array().into_iter().flatten() {
                println!("  {p}");
            }
        }
        println!("{}", plot.display());
    }
    Ok(())
}

fn seed_of(args: &Args) -> Result<u64, CliError> {
    match args.seed {
        Some(s) => Ok(s),
        None => Ok(load_run(&args.configs[0])?.config.seed),
    }
}

/// Checks the run files (one game), and writes each one's copy with the
/// common seed into its folder.
fn prepare(args: &Args) -> Result<Vec<Run>, CliError> {
    let seed = seed_of(args)?;
    let mut game = None;
    let mut runs: Vec<Run> = Vec::new();
    for path in &args.configs {
        let loaded = load_run(path)?;
        let name_of_game = loaded.config.game.name.clone();
        match &game {
            None => game = Some(name_of_game),
            Some(g) if *g != name_of_game => {
                return Err(CliError::input(format!(
                    "{}: game `{name_of_game}`, but the first run file's is `{g}`; compare run files of one game",
                    path.display()
                )))
            }
            Some(_) => {}
        }
        let mut table: toml::Table = toml::from_str(&loaded.text)
            .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
        table.insert("seed".into(), toml::Value::Integer(seed as i64));
        let text = toml::to_string(&table)
            .map_err(|e| CliError::failed(format!("{}: {e}", path.display())))?;
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "run".into());
        let mut name = stem.clone();
        let mut k = 2;
        while runs.iter().any(|r| r.name == name) {
            name = format!("{stem}-{k}");
            k += 1;
        }
        let dir = args.out.join(&name);
        std::fs::create_dir_all(&dir)
            .map_err(|e| CliError::input(format!("cannot create {}: {e}", dir.display())))?;
        let copy = dir.join("run.toml");
        pipeline::run::write_atomic(&copy, &text).map_err(|e| CliError::failed(e.to_string()))?;
        let generations = generations_done(&dir)?;
        runs.push(Run {
            name,
            config: path.clone(),
            dir,
            generations,
        });
    }
    Ok(runs)
}

/// Generations a run has finished (0 when new).
fn generations_done(dir: &Path) -> Result<u32, CliError> {
    let (_, rows) = read_table(&dir.join("ratings.csv"))?;
    Ok(rows
        .iter()
        .filter_map(|r| r.first().copied().flatten())
        .fold(0, |m, g| m.max(g as u32)))
}

/// Runs `triad loop` for the run up to its `generations`.
fn run_loop(exe: &Path, r: &Run) -> Result<(), CliError> {
    let log_path = r.dir.join("loop.log");
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log_path)
        .map_err(|e| CliError::failed(format!("{}: {e}", log_path.display())))?;
    let status = Command::new(exe)
        .arg("loop")
        .arg("--config")
        .arg(r.dir.join("run.toml"))
        .arg("--run")
        .arg(r.dir.join("run"))
        .arg("--generations")
        .arg(r.generations.to_string())
        .arg("--open-ended")
        .stdout(Stdio::null())
        .stderr(log)
        .status()
        .map_err(|e| CliError::failed(format!("cannot start triad loop: {e}")))?;
    if !status.success() {
        return Err(CliError::failed(format!(
            "{}: triad loop failed ({status}); its log is {}",
            r.name,
            log_path.display()
        )));
    }
    Ok(())
}

/// Seconds of loop stages the run has recorded.
fn seconds_used(dir: &Path) -> Result<f64, CliError> {
    Ok(timings(dir)?.total())
}

/// The run's `timings.csv`.
fn timings(dir: &Path) -> Result<Timings, CliError> {
    Timings::read(&dir.join("run")).map_err(|e| CliError::failed(e.to_string()))
}

/// A CSV's header and rows of numbers (an empty cell or text: `None`).
type Table = (Vec<String>, Vec<Vec<Option<f64>>>);

/// A CSV of numbers with a header (ratings.csv, suite.csv); empty when
/// missing.
fn read_table(path: &Path) -> Result<Table, CliError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), Vec::new())),
        Err(e) => return Err(CliError::failed(format!("{}: {e}", path.display()))),
    };
    let mut lines = text.lines();
    let header: Vec<String> = lines
        .next()
        .unwrap_or("")
        .split(',')
        .map(String::from)
        .collect();
    let rows = lines
        .map(|l| l.split(',').map(|x| x.parse().ok()).collect::<Vec<_>>())
        .filter(|r: &Vec<Option<f64>>| r.len() == header.len())
        .collect();
    Ok((header, rows))
}

/// The run's points: for each evaluated generation, the minutes of stages
/// up to the end of its evaluation, Elo, the ladder scores and the suite's
/// error rates.
fn curve(r: &Run) -> Result<Value, CliError> {
    let run = r.dir.join("run");
    let t = timings(&r.dir)?;
    let (rh, rrows) = read_table(&run.join("ratings.csv"))?;
    let (sh, srows) = read_table(&run.join("suite.csv"))?;
    let mut points = Vec::new();
    for row in &rrows {
        let Some(g) = row.first().copied().flatten() else {
            continue;
        };
        let g = g as u32;
        let mut scores = serde_json::Map::new();
        for (h, v) in rh.iter().zip(row).skip(2) {
            scores.insert(h.trim_start_matches("score_vs_").to_string(), json!(*v));
        }
        let mut suite = serde_json::Map::new();
        if let Some(srow) = srows
            .iter()
            .find(|s| s.first().copied().flatten() == Some(g as f64))
        {
            for (h, v) in sh.iter().zip(srow).skip(2) {
                suite.insert(h.clone(), json!(*v));
            }
        }
        points.push(json!({
            "generation": g,
            "minutes": t.through(g) / 60.0,
            "elo": row.get(1).copied().flatten(),
            "scores": scores,
            "suite_error_pct": suite,
        }));
    }
    Ok(Value::Array(points))
}

/// Elo, each rung's score and each suite file's error rate against
/// minutes, a line per run.
fn draw(runs: &[Run], curves: &[Value], out: &Path) -> Result<(), CliError> {
    use train::plot::Panel;
    let series = |c: &Value, f: &dyn Fn(&Value) -> Option<f64>| -> Vec<(f64, f64)> {
        c.as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| Some((p["minutes"].as_f64()?, f(p)?)))
            .collect()
    };
    let keys = |field: &str| -> Vec<String> {
        let mut k: Vec<String> = Vec::new();
        for c in curves {
            for p in c.as_array().into_iter().flatten() {
                for name in p[field].as_object().into_iter().flat_map(|m| m.keys()) {
                    if !k.contains(name) {
                        k.push(name.clone());
                    }
                }
            }
        }
        k
    };
    let mut elo = Panel::new("Elo (random = 0)", "minutes");
    for (r, c) in runs.iter().zip(curves) {
        elo = elo.with(&r.name, series(c, &|p| p["elo"].as_f64()));
    }
    let mut panels = vec![elo];
    for (field, title) in [
        ("scores", "score against"),
        ("suite_error_pct", "error rate (%) on"),
    ] {
        for key in keys(field) {
            let mut panel = Panel::new(&format!("{title} {key}"), "minutes");
            for (r, c) in runs.iter().zip(curves) {
                panel = panel.with(&r.name, series(c, &|p| p[field][key.as_str()].as_f64()));
            }
            panels.push(panel);
        }
    }
    train::plot::render(&panels, out).map_err(CliError::input)
}
