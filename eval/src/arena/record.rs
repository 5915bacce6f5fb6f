//! Match games as shard rows, so evaluation games are kept in the same
//! Parquet format as self-play (and `triad data export` turns them into the
//! game's notation).

use super::players::PlayerSpec;
use super::PlayedGame;
use data::{GameRecord, PositionRecord, Source};
use game::{Color, Game, GameMove, GameState, History};
use std::sync::Arc;

/// The rows of one match game of `game` (its game and variant name every
/// row). Match players report no search statistics, so the search columns
/// (visits, policy target, root value and W/D/L, simulations) are null;
/// `model_id` names the player who moved and `source` is `match`.
pub fn game_record<G: Game>(
    game: &G,
    g: &PlayedGame<G>,
    players: &[PlayerSpec],
    game_id: u64,
) -> GameRecord {
    let name: Arc<str> = Arc::from(G::NAME);
    let variant: Arc<str> = Arc::from(game.variant());
    let length = g.game.moves().len() as u32;
    let mut history = History::new(g.game.start().clone());
    let mut rows = Vec::with_capacity(g.game.moves().len());
    let mut legal = Vec::new();
    for (ply, &m) in g.game.moves().iter().enumerate() {
        let pos = history.position();
        pos.legal_moves(&mut legal);
        let side = pos.side();
        let player = if side == Color::White {
            g.pairing.white
        } else {
            g.pairing.black
        };
        rows.push(PositionRecord {
            game: name.clone(),
            variant: variant.clone(),
            game_id,
            ply: ply as u32,
            side_to_move: side,
            position: pos.to_text(),
            repetitions: Some(history.repetition_count()),
            position_hash: pos.hash(),
            legal_moves: legal.iter().map(|x| x.code()).collect(),
            visits: None,
            policy_target: None,
            root_value: None,
            root_wdl: None,
            chosen_move: m.code(),
            result: Some(g.outcome.result),
            termination: g.outcome.termination,
            game_length: length,
            source: Source::Match,
            model_id: players[player].to_string(),
            simulations: None,
            temperature: 0.0,
            full_search: false,
            seed: g.seed,
        });
        history.play(m);
    }
    GameRecord {
        game_id,
        positions: rows,
    }
}
