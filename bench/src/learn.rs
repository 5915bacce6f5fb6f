//! A learning benchmark (`triad bench learn`). Two (or more) run files,
//! the loop from scratch for each under one seed and the same wall-clock
//! budget on this machine, their generations interleaved so that a change
//! in the machine's load hits every run alike; then the curve of strength
//! against minutes for each, in one plot and one figures object.
//!
//! Strength is what the runs record: Elo and the score against each rung
//! of the `[eval]` ladder (`ratings.csv`), and with `[eval] suite` the error
//! rate on the game's benchmark positions (`suite.csv`: Connect Four's
//! ground truth). Minutes come from the loop's `timings.csv`.

use crate::Error;
use indicatif::ProgressBar;
use pipeline::run::Timings;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What to compare, for how long, and where.
#[derive(Clone, Debug)]
pub struct LearnOptions {
    /// The run files (two or more to compare).
    pub configs: Vec<PathBuf>,
    /// Wall-clock minutes of loop stages per run (positive and finite).
    pub minutes: f64,
    /// The folder of the runs (one subfolder per run file).
    pub out: PathBuf,
    /// The seed of every run (default: the first run file's).
    pub seed: Option<u64>,
    /// Where to write the plot (default `out`/learn.png).
    pub plot: Option<PathBuf>,
    /// The `triad` binary, whose `loop` command runs each generation.
    pub exe: PathBuf,
}

/// A run file as loaded: its game, its text and its seed.
#[derive(Clone, Debug)]
pub struct RunFile {
    /// `[game] name`.
    pub game: String,
    /// The file's text.
    pub text: String,
    /// Its `seed`.
    pub seed: u64,
}

/// One evaluated generation of a run.
#[derive(Clone, Debug, Serialize)]
pub struct Point {
    /// The generation.
    pub generation: u32,
    /// Minutes of loop stages up to the end of its evaluation.
    pub minutes: f64,
    /// Its Elo (random = 0), if rated.
    pub elo: Option<f64>,
    /// Its score against each rung of the ladder.
    pub scores: BTreeMap<String, Option<f64>>,
    /// Its error rate (%) on each benchmark file.
    pub suite_error_pct: BTreeMap<String, Option<f64>>,
}

/// One run's curve.
#[derive(Clone, Debug, Serialize)]
pub struct RunCurve {
    /// The run's name (its file's stem, numbered when taken).
    pub name: String,
    /// The run file given.
    pub config: String,
    /// The run's folder.
    pub dir: String,
    /// Minutes of loop stages it has used.
    pub minutes_used: f64,
    /// Strength against minutes.
    pub curve: Vec<Point>,
}

/// The figures of `triad bench learn` (its `--json` object).
#[derive(Clone, Debug, Serialize)]
pub struct LearnFigures {
    /// The budget per run.
    pub minutes: f64,
    /// The seed of every run.
    pub seed: u64,
    /// The plot written.
    pub plot: String,
    /// Each run's curve.
    pub runs: Vec<RunCurve>,
}

/// A point's named figures (the ladder's scores, the suite's error rates).
type Figures = BTreeMap<String, Option<f64>>;

/// Reads one of a point's named figures.
type Field = fn(&Point) -> &Figures;

/// One run of the benchmark.
struct Run {
    name: String,
    config: PathBuf,
    dir: PathBuf,
    generations: u32,
}

/// Prepares a run folder per run file (loaded by `load`, which returns
/// the caller's errors for a bad file), runs their loops in turn until
/// each has used the budget, then reads their curves and draws the plot;
/// `bar` shows the time spent over the whole budget (its length is set
/// here).
pub fn run(
    options: &LearnOptions,
    load: &dyn Fn(&Path) -> Result<RunFile, Error>,
    bar: &ProgressBar,
) -> Result<LearnFigures, Error> {
    let seed = match options.seed {
        Some(s) => s,
        None => load(&options.configs[0])?.seed,
    };
    let mut runs = prepare(options, seed, load)?;
    let budget = options.minutes * 60.0;
    bar.set_length((budget * runs.len() as f64) as u64);
    let exe = &options.exe;
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
                options.minutes
            ));
            run_loop(exe, r)?;
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
    let curves: Vec<Vec<Point>> = runs.iter().map(curve).collect::<Result<_, _>>()?;
    let plot = options
        .plot
        .clone()
        .unwrap_or_else(|| options.out.join("learn.png"));
    draw(&runs, &curves, &plot)?;
    Ok(LearnFigures {
        minutes: options.minutes,
        seed,
        plot: plot.display().to_string(),
        runs: runs
            .iter()
            .zip(curves)
            .map(|(r, curve)| RunCurve {
                name: r.name.clone(),
                config: r.config.display().to_string(),
                dir: r.dir.display().to_string(),
                minutes_used: seconds_used(&r.dir).unwrap_or(0.0) / 60.0,
                curve,
            })
            .collect(),
    })
}

/// Checks the run files (one game), and writes each one's copy with the
/// common seed into its folder.
fn prepare(
    options: &LearnOptions,
    seed: u64,
    load: &dyn Fn(&Path) -> Result<RunFile, Error>,
) -> Result<Vec<Run>, Error> {
    let mut game = None;
    let mut runs: Vec<Run> = Vec::new();
    for path in &options.configs {
        let loaded = load(path)?;
        let name_of_game = loaded.game;
        match &game {
            None => game = Some(name_of_game),
            Some(g) if *g != name_of_game => {
                return Err(Error::OtherGame {
                    path: path.clone(),
                    game: name_of_game.to_string(),
                    first: g.to_string(),
                })
            }
            Some(_) => {}
        }
        let mut table: toml::Table =
            toml::from_str(&loaded.text).map_err(|source| Error::RunFile {
                path: path.clone(),
                source,
            })?;
        table.insert("seed".into(), toml::Value::Integer(seed as i64));
        let text = toml::to_string(&table).map_err(|source| Error::RunFileText {
            path: path.clone(),
            source,
        })?;
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
        let dir = options.out.join(&name);
        std::fs::create_dir_all(&dir).map_err(|source| Error::CreateFolder {
            path: dir.clone(),
            source,
        })?;
        let copy = dir.join("run.toml");
        pipeline::run::write_atomic(&copy, &text)?;
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
fn generations_done(dir: &Path) -> Result<u32, Error> {
    let (_, rows) = read_table(&dir.join("ratings.csv"))?;
    Ok(rows
        .iter()
        .filter_map(|r| r.first().copied().flatten())
        .fold(0, |m, g| m.max(g as u32)))
}

/// Runs `triad loop` for the run up to its `generations`.
fn run_loop(exe: &Path, r: &Run) -> Result<(), Error> {
    let log_path = r.dir.join("loop.log");
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log_path)
        .map_err(|source| Error::Io {
            path: log_path.clone(),
            source,
        })?;
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
        .map_err(|source| Error::StartLoop { source })?;
    if !status.success() {
        return Err(Error::LoopFailed {
            run: r.name.clone(),
            status,
            log: log_path,
        });
    }
    Ok(())
}

/// Seconds of loop stages the run has recorded.
fn seconds_used(dir: &Path) -> Result<f64, Error> {
    Ok(timings(dir)?.total())
}

/// The run's `timings.csv`.
fn timings(dir: &Path) -> Result<Timings, Error> {
    Ok(Timings::read(&dir.join("run"))?)
}

/// A CSV's header and rows of numbers (an empty cell or text: `None`).
type Table = (Vec<String>, Vec<Vec<Option<f64>>>);

/// A CSV of numbers with a header (ratings.csv, suite.csv); empty when
/// missing.
fn read_table(path: &Path) -> Result<Table, Error> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), Vec::new())),
        Err(source) => {
            return Err(Error::Io {
                path: path.to_path_buf(),
                source,
            })
        }
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
fn curve(r: &Run) -> Result<Vec<Point>, Error> {
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
        let mut scores = BTreeMap::new();
        for (h, v) in rh.iter().zip(row).skip(2) {
            scores.insert(h.trim_start_matches("score_vs_").to_string(), *v);
        }
        let mut suite = BTreeMap::new();
        if let Some(srow) = srows
            .iter()
            .find(|s| s.first().copied().flatten() == Some(g as f64))
        {
            for (h, v) in sh.iter().zip(srow).skip(2) {
                suite.insert(h.clone(), *v);
            }
        }
        points.push(Point {
            generation: g,
            minutes: t.through(g) / 60.0,
            elo: row.get(1).copied().flatten(),
            scores,
            suite_error_pct: suite,
        });
    }
    Ok(points)
}

/// Elo, each rung's score and each suite file's error rate against
/// minutes, a line per run. Points without a finite value (JSON's `null`)
/// are left out.
fn draw(runs: &[Run], curves: &[Vec<Point>], out: &Path) -> Result<(), Error> {
    use plot::Panel;
    let series = |c: &[Point], f: &dyn Fn(&Point) -> Option<f64>| -> Vec<(f64, f64)> {
        c.iter()
            .filter_map(|p| {
                let y = f(p)?;
                (p.minutes.is_finite() && y.is_finite()).then_some((p.minutes, y))
            })
            .collect()
    };
    let keys = |field: Field| -> Vec<String> {
        let mut k: Vec<String> = Vec::new();
        for c in curves {
            for p in c {
                for name in field(p).keys() {
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
        elo = elo.with(&r.name, series(c, &|p| p.elo));
    }
    let mut panels = vec![elo];
    let fields: [(Field, &str); 2] = [
        (|p| &p.scores, "score against"),
        (|p| &p.suite_error_pct, "error rate (%) on"),
    ];
    for (field, title) in fields {
        for key in keys(field) {
            let mut panel = Panel::new(&format!("{title} {key}"), "minutes");
            for (r, c) in runs.iter().zip(curves) {
                panel = panel.with(
                    &r.name,
                    series(c, &|p| field(p).get(&key).copied().flatten()),
                );
            }
            panels.push(panel);
        }
    }
    Ok(plot::render(&panels, out)?)
}
