//! Times the solver on Pons's files: `cargo run --release --example
//! solve_bench -- DIR [LINES]` (LINES per file, default all).
use connect4::{Connect4, Solver};
use game::Game;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args
        .next()
        .unwrap_or_else(|| "../../../shared/benchmarks/connect4".into());
    let lines: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(1000);
    let game = Connect4::standard();
    let mut solver = Solver::new(24);
    for f in [
        "Test_L3_R1",
        "Test_L2_R1",
        "Test_L2_R2",
        "Test_L1_R1",
        "Test_L1_R2",
        "Test_L1_R3",
    ] {
        let text = std::fs::read_to_string(format!("{dir}/{f}")).expect("file");
        let (mut n, mut nodes, mut bad) = (0u64, 0u64, 0);
        let t = Instant::now();
        for l in text.lines().take(lines) {
            let (seq, score) = l.split_once(' ').unwrap();
            let p = game.parse_state(seq).unwrap();
            solver.reset_nodes();
            let s = solver.solve(&p);
            bad += (s != score.trim().parse::<i32>().unwrap()) as u32;
            nodes += solver.nodes;
            n += 1;
        }
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{f}: {n} positions, {bad} wrong, mean {:.1} us, {:.0} nodes, {:.2} Mnodes/s",
            secs * 1e6 / n as f64,
            nodes as f64 / n as f64,
            nodes as f64 / secs / 1e6
        );
    }
}
