//! Match games as shard rows, so evaluation games are kept in the same
//! Parquet format as self-play (and `triad data export` turns them into the
//! game's notation).

use super::players::PlayerSpec;
use super::PlayedGame;
use data::{GameRecord, Source};
use game::{Color, Game};

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
    GameRecord::unsearched(
        game,
        game_id,
        &g.game,
        Some(g.outcome),
        Source::Match,
        g.seed,
        |side| {
            let player = if side == Color::White {
                g.pairing.white
            } else {
                g.pairing.black
            };
            players[player].to_string()
        },
    )
}
