//! Synthetic but legal games from random playouts, for any game: test data,
//! benchmark data and documentation examples without a network or a search.
//! The game's own rules end them (`GameState::terminal` through
//! `History`), or the `max_plies` cap.

use game::{Game, GameMove, GameResult, GameState, History, Outcome, Termination};

use crate::record::{GameRecord, PositionRecord, Source};
use crate::window::SplitMix64;

/// Plies after which a random game is stopped (recorded as "max-length").
pub const DEFAULT_MAX_PLIES: u32 = 200;

/// Plays one random game of `game` from `start` and records every position
/// with made-up search statistics (visit counts summing to 64 simulations,
/// a policy target on every other game, every fourth position a cheap
/// search). The game ends by its rules (with its repetition counts) or as a
/// draw by `max-length` after `max_plies` plies. Rows are `selfplay` rows of
/// model `random`. Deterministic in `seed` and `game_id`.
pub fn random_game<G: Game>(
    game: &G,
    game_id: u64,
    start: &G::State,
    seed: u64,
    max_plies: u32,
) -> GameRecord {
    let mut rng = SplitMix64::new(seed ^ game_id.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let simulations = 64u32;
    let (name, variant): (std::sync::Arc<str>, std::sync::Arc<str>) =
        (G::NAME.into(), game.variant().into());
    let mut history = History::new(start.clone());
    let mut moves: Vec<G::Move> = Vec::new();
    let mut rows: Vec<PositionRecord> = Vec::new();
    let outcome = loop {
        let pos = history.position();
        pos.legal_moves(&mut moves);
        let repetitions = history.repetition_count();
        if let Some(o) = pos.terminal(!moves.is_empty(), repetitions) {
            break o;
        }
        if rows.len() as u32 >= max_plies {
            break Outcome {
                result: GameResult::Draw,
                termination: Termination::MaxLength,
            };
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
            game: name.clone(),
            variant: variant.clone(),
            game_id,
            ply: rows.len() as u32,
            side_to_move: pos.side(),
            position: pos.to_text(),
            repetitions: Some(repetitions),
            position_hash: pos.hash(),
            legal_moves: moves.iter().map(|m| m.code()).collect(),
            visits: Some(visits),
            policy_target,
            root_value: Some(win - loss),
            root_wdl: Some([win, 1.0 - win - loss, loss]),
            chosen_move: chosen.code(),
            result: None,
            termination: Termination::Unfinished,
            game_length: 0,
            source: Source::SelfPlay,
            model_id: "random".into(),
            simulations: Some(simulations),
            temperature: 1.0,
            full_search: rows.len() % 4 != 3,
            seed,
        });
        history.play(chosen);
    };
    let length = rows.len() as u32;
    for r in &mut rows {
        r.result = Some(outcome.result);
        r.termination = outcome.termination;
        r.game_length = length;
    }
    GameRecord {
        game_id,
        positions: rows,
    }
}
