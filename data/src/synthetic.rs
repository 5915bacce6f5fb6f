//! Synthetic but legal games from random playouts: test data, benchmark
//! data and documentation examples without a network or a search.

use piratechnics::{Move, Position};

use crate::record::{GameRecord, PositionRecord};
use crate::window::SplitMix64;

/// Plies after which a random game is stopped (recorded as "max-length").
pub const DEFAULT_MAX_PLIES: u32 = 200;

/// Plays one random game from `start` and records every position with made-up
/// search statistics (visit counts summing to `simulations`, a policy target
/// on every other game). Deterministic in `seed`.
pub fn random_game(game_id: u64, start: &Position, seed: u64, max_plies: u32) -> GameRecord {
    let mut rng = SplitMix64::new(seed ^ game_id.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let simulations = 64u32;
    let mut pos = start.clone();
    let mut moves: Vec<Move> = Vec::new();
    let mut rows: Vec<PositionRecord> = Vec::new();
    let (result, termination) = loop {
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            let winner_is_white = pos.side() == piratechnics::Color::Black;
            break if pos.in_check() {
                (if winner_is_white { "1-0" } else { "0-1" }, "checkmate")
            } else {
                ("1/2-1/2", "stalemate")
            };
        }
        if pos.clock() >= 100 {
            break ("1/2-1/2", "no-capture");
        }
        if rows.len() as u32 >= max_plies {
            break ("1/2-1/2", "max-length");
        }
        let chosen = moves[rng.below(moves.len() as u64) as usize];
        let mut visits = vec![0u32; moves.len()];
        for _ in 0..simulations {
            visits[rng.below(moves.len() as u64) as usize] += 1;
        }
        let policy_target = game_id.is_multiple_of(2).then(|| {
            visits
                .iter()
                .map(|&v| v as f32 / simulations as f32)
                .collect()
        });
        let win = (rng.below(1000) as f32) / 2000.0;
        let loss = (rng.below(1000) as f32) / 2000.0;
        rows.push(PositionRecord {
            game_id,
            ply: rows.len() as u32,
            side_to_move: pos.side(),
            tfen: pos.to_tfen(),
            position_hash: pos.hash(),
            legal_moves: moves.iter().map(|m| m.code()).collect(),
            visits,
            policy_target,
            root_value: win - loss,
            root_wdl: [win, 1.0 - win - loss, loss],
            chosen_move: chosen.code(),
            result: String::new(),
            termination: String::new(),
            game_length: 0,
            model_id: "random".into(),
            simulations,
            temperature: 1.0,
            full_search: rows.len() % 4 != 3,
            seed,
        });
        pos.apply(chosen);
    };
    let length = rows.len() as u32;
    for r in &mut rows {
        r.result = result.into();
        r.termination = termination.into();
        r.game_length = length;
    }
    GameRecord {
        game_id,
        positions: rows,
    }
}
