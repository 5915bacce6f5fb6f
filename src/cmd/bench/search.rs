//! `triad bench search`: alpha-beta speed on fixed positions.

use crate::cmd::CliError;
use eval::search::{Limits, Searcher};
use piratechnics::Position;
use serde_json::json;
use std::time::Instant;

/// Middle-game positions from the inventor's first sample game and from
/// random play (`shared/spec/vectors/perft.txt`), fixed here so figures from
/// different builds compare.
const POSITIONS: [&str; 6] = [
    "[rbn][qrb][kbn][rbn]/[ppp]3[ppp][ppp]/6/1[pp][ppp][PP]2/2[pp][PPP][PP]1/6/[PPP][PPP]3[PPP]/[RBN][QRB][KBN][RBN] w c5c7 1 6",
    "[rbn][qrb][kbn][rbn]/4[ppp][ppp]/[ppp]1[P]3/1[p]1[PP]2/[PPP]1[pp]1[P]1/3[p]2/1[PPP]3[PPP]/[RBN][QRB][KBN][RBN] w a6a7 2 11",
    "[rbn][qrb][kbn][rbn]/4[ppp]1/[]1[P]3/1[p]1[PP]1[p]/[KBN][PPP][pp]1[pp][PPP]/3[p]2/6/[RBN][QRB][][RBN] w - 0 16",
    "[][q][kbn]1/[Nrb]3[ppp][n]/[]1[P]3/5[rbp]/1[PPP][pp][Prb][pp][PPP]/[RB]1[KB][p]2/6/1[QRB][][RBN] w d4d5 2 21",
    "[kqr][bpp][n]1/1[npp][ppp][][ppp][ppp]/6/2[bpp]3/[PPb]5/3[KNP]2/[P][RPP][PP][P][PPP][BP]/[BN][QR]1[N] b - 2 11",
    "[rbn][p][][knp]/[][ppp][p]2[ppp]/6/3[npp][Pp]1/3[Pp]2/2[PPP]3/[RPP][P]2[KPP][PPP]/[QBN][R][BN][] w d5d7 1 14",
];

/// Alpha-beta search speed.
///
/// Searches each of six fixed middle-game positions to a fixed node budget
/// and reports nodes per second, then searches the start position for one
/// second and reports the depth completed.
#[derive(clap::Args)]
pub struct Args {
    /// Nodes per middle-game position.
    #[arg(long, default_value_t = 1_000_000)]
    nodes: u64,
    /// Milliseconds for the start-position depth test.
    #[arg(long, default_value_t = 1000)]
    movetime: u64,
    /// Print one JSON object instead.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<(), CliError> {
    if args.nodes == 0 || args.movetime == 0 {
        return Err(CliError::input("--nodes and --movetime must be positive"));
    }
    let bar = indicatif::ProgressBar::new(POSITIONS.len() as u64 + 1);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len}")
            .expect("valid template"),
    );
    bar.set_message("bench search");
    let mut total_nodes = 0u64;
    let mut total_secs = 0.0f64;
    let mut per_position = Vec::new();
    for tfen in POSITIONS {
        let pos = Position::from_tfen(tfen).map_err(|e| CliError::failed(e.to_string()))?;
        let mut s = Searcher::new(64);
        let t = Instant::now();
        let r = s.search(&pos, &[], Limits::nodes(args.nodes), |_| {});
        let secs = t.elapsed().as_secs_f64();
        total_nodes += r.nodes;
        total_secs += secs;
        per_position.push(json!({
            "tfen": tfen,
            "nodes": r.nodes,
            "seconds": secs,
            "nps": (r.nodes as f64 / secs) as u64,
            "depth": r.info.map_or(0, |i| i.depth),
        }));
        bar.inc(1);
    }
    let nps = (total_nodes as f64 / total_secs) as u64;

    let start = Position::start();
    let mut s = Searcher::new(64);
    let r = s.search(&start, &[], Limits::movetime(args.movetime), |_| {});
    bar.finish_and_clear();
    let depth = r.info.as_ref().map_or(0, |i| i.depth);
    let start_nodes = r.nodes;
    if args.json {
        crate::cmd::print_json(&json!({
            "nps": nps,
            "nodes": total_nodes,
            "seconds": total_secs,
            "positions": per_position,
            "start_depth": depth,
            "start_movetime_ms": args.movetime,
            "start_nodes": start_nodes,
        }));
    } else {
        for p in &per_position {
            println!(
                "{:>9} nodes {:>10} nps depth {:>2}  {}",
                p["nodes"],
                p["nps"],
                p["depth"],
                p["tfen"].as_str().unwrap_or("")
            );
        }
        println!("middle-game: {total_nodes} nodes in {total_secs:.2} s = {nps} nodes/s");
        println!(
            "start position: depth {depth} completed in {} ms ({start_nodes} nodes)",
            args.movetime
        );
    }
    Ok(())
}
