//! Fixed-depth self-play matches between evaluation variants, used to pick
//! the material values in `docs/search.md`.
//!
//! `cargo run -p eval --release --example material_match -- DEPTH PAIRS`
//! plays, for each variant against the default values, PAIRS opening pairs
//! (each opening with both colours) at DEPTH plies. An opening is 4 random
//! legal plies from the start (seeded). Games longer than 160 plies are
//! adjudicated by classical material (1/3/3/5/9): a lead of 3 pawns or more
//! wins, otherwise a draw. An optional third argument keeps only the
//! variants whose name contains it.

use eval::search::{Limits, Searcher};
use piratechnics::{Color, EvalParams, Game, GameResult, Kind, Position};

fn rng(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn classical(pos: &Position) -> i32 {
    let m = pos.material();
    let v = [1, 3, 3, 5, 9, 0];
    let mut s = 0;
    for k in Kind::ALL {
        s += v[k.index()] * (m[k.index()] as i32 - m[6 + k.index()] as i32);
    }
    s
}

/// Plays one game; returns the score for `a` (1, 0.5, 0).
fn play(
    opening: &Position,
    a: &EvalParams,
    b: &EvalParams,
    a_white: bool,
    depth: u32,
    stats: &mut Stats,
) -> f64 {
    let mut game = Game::new(opening.clone());
    let mut sa: Searcher<Position> = Searcher::new(8);
    let mut sb: Searcher<Position> = Searcher::new(8);
    sa.params = *a;
    sb.params = *b;
    loop {
        if let Some(o) = game.outcome() {
            stats.plies += game.ply();
            *stats.ends.entry(o.termination.as_str()).or_default() += 1;
            let white = match o.result {
                GameResult::WhiteWin => 1.0,
                GameResult::BlackWin => 0.0,
                GameResult::Draw => 0.5,
            };
            return if a_white { white } else { 1.0 - white };
        }
        if game.ply() >= 160 {
            stats.plies += game.ply();
            *stats.ends.entry("adjudicated").or_default() += 1;
            let c = classical(game.position());
            let white = if c >= 3 {
                1.0
            } else if c <= -3 {
                0.0
            } else {
                0.5
            };
            return if a_white { white } else { 1.0 - white };
        }
        let white_to_move = game.position().side() == Color::White;
        let s = if white_to_move == a_white {
            &mut sa
        } else {
            &mut sb
        };
        let m = s
            .search_game(&game, Limits::depth(depth), |_| {})
            .best
            .expect("a move");
        game.play(m);
    }
}

#[derive(Default)]
struct Stats {
    plies: usize,
    ends: std::collections::BTreeMap<&'static str, u32>,
}

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2);
    let pairs: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(10);
    let filter = args.next().unwrap_or_default();
    let base = EvalParams::default();
    let variant = |f: &dyn Fn(&mut EvalParams)| {
        let mut p = base;
        f(&mut p);
        p
    };
    let variants: Vec<(&str, EvalParams)> = vec![
        ("pawn=130", variant(&|p| p.material[0] = 130)),
        ("pawn=80", variant(&|p| p.material[0] = 80)),
        (
            "minors=N260,B300",
            variant(&|p| {
                p.material[1] = 260;
                p.material[2] = 300
            }),
        ),
        ("B=N=300", variant(&|p| p.material[2] = 300)),
        (
            "rook=550,queen=1000",
            variant(&|p| {
                p.material[3] = 550;
                p.material[4] = 1000
            }),
        ),
        (
            "classical 100/300/300/500/900",
            variant(&|p| p.material = [100, 300, 300, 500, 900, 0]),
        ),
    ];
    for (name, v) in variants.iter().filter(|(n, _)| n.contains(&filter)) {
        let mut seed = 12345u64;
        let mut score = 0.0;
        let mut games = 0;
        let mut stats = Stats::default();
        for _ in 0..pairs {
            let mut pos = Position::start();
            for _ in 0..4 {
                let moves = pos.legal_move_vec();
                let m = moves[(rng(&mut seed) % moves.len() as u64) as usize];
                pos = pos.play(m);
            }
            score += play(&pos, v, &base, true, depth, &mut stats);
            score += play(&pos, v, &base, false, depth, &mut stats);
            games += 2;
        }
        let pct = score / games as f64;
        let elo = if pct > 0.0 && pct < 1.0 {
            -400.0 * (1.0 / pct - 1.0).log10()
        } else {
            f64::NAN
        };
        println!(
            "{name:32} vs default: {score:.1}/{games} = {:.1}% ({elo:+.0} Elo); {:.0} plies/game; {:?}",
            100.0 * pct,
            stats.plies as f64 / games as f64,
            stats.ends
        );
    }
}
