//! Match games as shard rows, so evaluation games are kept in the same
//! Parquet format as self-play (and `triad data export` turns them into the
//! inventor's notation).

use super::players::PlayerSpec;
use super::PlayedGame;
use data::{GameRecord, PositionRecord};
use piratechnics::Color;

/// The rows of one match game. Evaluation games have no search statistics:
/// each row's visit counts are 1 for the move played and 0 elsewhere, the
/// root value is the final score for the side to move, `model_id` names the
/// player who moved, and `simulations` is 0.
pub fn game_record(g: &PlayedGame, players: &[PlayerSpec], game_id: u64) -> GameRecord {
    let mut pos = g.game.start().clone();
    let result = g.outcome.result.as_str().to_string();
    let termination = g.outcome.termination.as_str().to_string();
    let length = g.game.moves().len() as u32;
    let mut rows = Vec::with_capacity(g.game.moves().len());
    for (ply, &m) in g.game.moves().iter().enumerate() {
        let legal = pos.legal_move_vec();
        let codes: Vec<u32> = legal.iter().map(|x| x.code()).collect();
        let visits: Vec<u32> = legal.iter().map(|&x| (x == m) as u32).collect();
        let side = pos.side();
        let score = g.outcome.result.score_for(side);
        let player = if side == Color::White {
            g.pairing.white
        } else {
            g.pairing.black
        };
        rows.push(PositionRecord {
            game_id,
            ply: ply as u32,
            side_to_move: side,
            tfen: pos.to_tfen(),
            position_hash: pos.hash(),
            legal_moves: codes,
            visits,
            policy_target: None,
            root_value: 2.0 * score - 1.0,
            root_wdl: match score {
                s if s > 0.75 => [1.0, 0.0, 0.0],
                s if s < 0.25 => [0.0, 0.0, 1.0],
                _ => [0.0, 1.0, 0.0],
            },
            chosen_move: m.code(),
            result: result.clone(),
            termination: termination.clone(),
            game_length: length,
            model_id: players[player].to_string(),
            simulations: 0,
            temperature: 0.0,
            full_search: false,
            seed: g.seed,
        });
        pos.apply(m);
    }
    GameRecord {
        game_id,
        positions: rows,
    }
}
