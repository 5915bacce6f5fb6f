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
use piratechnics::Position;
use std::time::Instant;

const POSITIONS: [&str; 6] = [
    "[rbn][qrb][kbn][rbn]/[ppp]3[ppp][ppp]/6/1[pp][ppp][PP]2/2[pp][PPP][PP]1/6/[PPP][PPP]3[PPP]/[RBN][QRB][KBN][RBN] w c5c7 1 6",
    "[rbn][qrb][kbn][rbn]/4[ppp][ppp]/[ppp]1[P]3/1[p]1[PP]2/[PPP]1[pp]1[P]1/3[p]2/1[PPP]3[PPP]/[RBN][QRB][KBN][RBN] w a6a7 2 11",
    "[rbn][qrb][kbn][rbn]/4[ppp]1/[]1[P]3/1[p]1[PP]1[p]/[KBN][PPP][pp]1[pp][PPP]/3[p]2/6/[RBN][QRB][][RBN] w - 0 16",
    "[][q][kbn]1/[Nrb]3[ppp][n]/[]1[P]3/5[rbp]/1[PPP][pp][Prb][pp][PPP]/[RB]1[KB][p]2/6/1[QRB][][RBN] w d4d5 2 21",
    "[kqr][bpp][n]1/1[npp][ppp][][ppp][ppp]/6/2[bpp]3/[PPb]5/3[KNP]2/[P][RPP][PP][P][PPP][BP]/[BN][QR]1[N] b - 2 11",
    "[rbn][p][][knp]/[][ppp][p]2[ppp]/6/3[npp][Pp]1/3[Pp]2/2[PPP]3/[RPP][P]2[KPP][PPP]/[QBN][R][BN][] w d5d7 1 14",
];

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
    for (i, tfen) in POSITIONS.into_iter().enumerate() {
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
