//! Times and checks the solver on Pascal Pons's test files: every
//! position's score against the file and, with `--columns`, every column's
//! value against the `.moves` file.
//!
//! ```sh
//! cargo run --release -p connect4 --example solve_bench -- \
//!     [--dir benchmarks/connect4] [--files Test_L2_R2,...] \
//!     [--skip S] [--lines N] [--every K] [--columns] [--threads T] [--table-bits B]
//! ```
//!
//! `--skip S` passes over the first S lines of each file, `--lines N`
//! takes the next N, `--every K` every K-th of those. Threads share out the positions round robin, each with
//! its own solver and table (`--table-bits`, default 24 for one thread,
//! 22 for more); the table is kept from one position to the next, as
//! Pons's benchmark does. Times are per position and per thread: wall
//! clock and the thread's CPU time (what counts on a busy machine).
//! Exits with status 1 when any score or value differs.

use connect4::{Connect4, Position, Solver};
use game::Game;
use std::process::ExitCode;
use std::time::Instant;

const FILES: [&str; 6] = [
    "Test_L3_R1",
    "Test_L2_R1",
    "Test_L2_R2",
    "Test_L1_R1",
    "Test_L1_R2",
    "Test_L1_R3",
];

struct Options {
    dir: String,
    files: Vec<String>,
    skip: usize,
    lines: usize,
    every: usize,
    columns: bool,
    threads: usize,
    table_bits: u32,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        dir: "benchmarks/connect4".into(),
        files: FILES.iter().map(|s| s.to_string()).collect(),
        skip: 0,
        lines: usize::MAX,
        every: 1,
        columns: false,
        threads: 1,
        table_bits: 0,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        let number = |v: String, name: &str| {
            v.parse::<usize>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or(format!("{name}: {v:?} is not a positive number"))
        };
        match a.as_str() {
            "--dir" => o.dir = value("--dir")?,
            "--files" => o.files = value("--files")?.split(',').map(String::from).collect(),
            "--skip" => {
                o.skip = value("--skip")?
                    .parse()
                    .map_err(|_| "--skip: not a number")?
            }
            "--lines" => o.lines = number(value("--lines")?, "--lines")?,
            "--every" => o.every = number(value("--every")?, "--every")?,
            "--threads" => o.threads = number(value("--threads")?, "--threads")?,
            "--table-bits" => o.table_bits = number(value("--table-bits")?, "--table-bits")? as u32,
            "--columns" => o.columns = true,
            _ => {
                return Err(format!(
                    "unknown argument {a:?} (see the example's doc comment)"
                ))
            }
        }
    }
    if o.table_bits == 0 {
        o.table_bits = if o.threads == 1 { 24 } else { 22 };
    }
    Ok(o)
}

/// One line of a `.moves` file: the position, its score, each column's value.
struct Case {
    line: usize,
    text: String,
    position: Position,
    score: i32,
    values: Vec<Option<i32>>,
}

fn read_cases(o: &Options, file: &str) -> Result<Vec<Case>, String> {
    let path = format!("{}/{file}.moves", o.dir);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    let game = Connect4::standard();
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .skip(o.skip)
        .take(o.lines)
        .step_by(o.every)
        .map(|(i, l)| {
            let bad = |what: &str| format!("{path}:{}: {what}", i + 1);
            let f: Vec<&str> = l.split_whitespace().collect();
            if f.len() < 2 {
                return Err(bad("expected `moves score v1 .. vW`"));
            }
            let values = f[2..]
                .iter()
                .map(|v| match *v {
                    "." => Ok(None),
                    v => v.parse().map(Some).map_err(|_| bad("bad column value")),
                })
                .collect::<Result<_, _>>()?;
            Ok(Case {
                line: i + 1,
                text: f[0].to_string(),
                position: game.parse_state(f[0]).map_err(|e| bad(e.message()))?,
                score: f[1].parse().map_err(|_| bad("bad score"))?,
                values,
            })
        })
        .collect()
}

/// The calling thread's CPU time in seconds.
fn thread_cpu() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

#[derive(Default)]
struct Tally {
    positions: u64,
    nodes: u64,
    wall: f64,
    cpu: f64,
    column_wall: f64,
    wrong: Vec<String>,
}

fn run_share(o: &Options, cases: &[Case], first: usize) -> Tally {
    let mut solver = Solver::new(o.table_bits);
    let mut t = Tally::default();
    for c in cases.iter().skip(first).step_by(o.threads) {
        solver.reset_nodes();
        let (w, cpu) = (Instant::now(), thread_cpu());
        let s = solver.solve(&c.position);
        t.wall += w.elapsed().as_secs_f64();
        t.cpu += thread_cpu() - cpu;
        t.nodes += solver.nodes;
        t.positions += 1;
        if s != c.score {
            t.wrong.push(format!(
                "line {} {}: score {s}, file {}",
                c.line, c.text, c.score
            ));
        }
        if o.columns {
            let w = Instant::now();
            let v = solver.column_values(&c.position);
            t.column_wall += w.elapsed().as_secs_f64();
            if v != c.values {
                t.wrong.push(format!(
                    "line {} {}: columns {v:?}, file {:?}",
                    c.line, c.text, c.values
                ));
            }
        }
    }
    t
}

fn main() -> ExitCode {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("solve_bench: {e}");
            return ExitCode::from(2);
        }
    };
    let mut failed = false;
    for file in &o.files {
        let cases = match read_cases(&o, file) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("solve_bench: {e}");
                return ExitCode::from(2);
            }
        };
        let start = Instant::now();
        let tallies: Vec<Tally> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..o.threads)
                .map(|i| {
                    let (o, cases) = (&o, &cases);
                    s.spawn(move || run_share(o, cases, i))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a solver thread panicked"))
                .collect()
        });
        let mut t = Tally::default();
        for x in tallies {
            t.positions += x.positions;
            t.nodes += x.nodes;
            t.wall += x.wall;
            t.cpu += x.cpu;
            t.column_wall += x.column_wall;
            t.wrong.extend(x.wrong);
        }
        let n = t.positions.max(1) as f64;
        println!(
            "{file}: {} positions, {} wrong; per position: {:.3} ms wall, {:.3} ms cpu, {:.0} nodes \
             ({:.1} Mnodes/s cpu){}; {:.1} s in all",
            t.positions,
            t.wrong.len(),
            1e3 * t.wall / n,
            1e3 * t.cpu / n,
            t.nodes as f64 / n,
            t.nodes as f64 / t.cpu.max(1e-9) / 1e6,
            if o.columns {
                format!(", columns {:.3} ms wall", 1e3 * t.column_wall / n)
            } else {
                String::new()
            },
            start.elapsed().as_secs_f64()
        );
        for w in &t.wrong {
            println!("  WRONG {w}");
        }
        failed |= !t.wrong.is_empty();
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
