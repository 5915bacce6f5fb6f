//! Alpha-beta speed on the six fixed middle-game positions of
//! `triad bench search`, at a fixed depth or node budget, with a fresh
//! 64 MiB engine per position (as `triad analyze --hash 64` and the bench).
//!
//! `cargo run -p eval --release --example search_speed -- [depth=5 | nodes=N] [I]`
//!
//! searches every position, or only the `I`th (1 to 6).
//!
//! At a fixed depth the node counts, best moves and scores are a
//! fingerprint of the search: equal figures from two builds mean the same
//! tree was searched.

use eval::search::{Limits, Searcher};
use piratechnics::{Position, BENCH_POSITIONS};
use std::time::Instant;

fn main() {
    let arg = std::env::args().nth(1).unwrap_or_else(|| "depth=5".into());
    let only: Option<usize> = std::env::args()
        .nth(2)
        .map(|i| i.parse().expect("index 1-6"));
    let limits = match arg.split_once('=') {
        Some(("depth", d)) => Limits::depth(d.parse().expect("depth=D")),
        Some(("nodes", n)) => Limits::nodes(n.parse().expect("nodes=N")),
        _ => panic!("expected depth=D or nodes=N, got {arg}"),
    };
    let (mut nodes, mut secs) = (0u64, 0.0f64);
    for (i, tfen) in BENCH_POSITIONS.into_iter().enumerate() {
        if only.is_some_and(|o| o != i + 1) {
            continue;
        }
        let pos = Position::from_tfen(tfen).expect("valid TFEN");
        let mut s: Searcher<Position> = Searcher::new(64);
        let t = Instant::now();
        let r = s.search(&pos, &[], limits, |_| {});
        let dt = t.elapsed().as_secs_f64();
        let info = r.info.expect("an iteration");
        let pv: Vec<String> = {
            let mut p = pos.clone();
            info.pv
                .iter()
                .map(|&m| {
                    let t = p.move_to_text(m);
                    p.apply(m);
                    t
                })
                .collect()
        };
        println!(
            "{:>9} nodes {:>9.0} nps depth {:>2} best {:<14} score {:<8} pv {}",
            r.nodes,
            r.nodes as f64 / dt,
            info.depth,
            pos.move_to_text(r.best.expect("a move")),
            info.score.to_string(),
            pv.join(" ")
        );
        nodes += r.nodes;
        secs += dt;
    }
    println!(
        "total: {nodes} nodes in {secs:.2} s = {:.0} nodes/s",
        nodes as f64 / secs
    );
}
