//! One player's move in one position (`triad move`): the smallest interface
//! for outside programs that pit their own engines against triad's players,
//! one position at a time or as a line protocol (`POSITION [SEED]` in, the
//! move or `error: …` out).

use crate::arena::players::{build_player, NetFactory, PlayerSpec};
use game::{AlphaBetaState, Game, GameState, History};

/// A move chosen, in canonical text, and the seconds the choice took.
#[derive(Debug, Clone)]
pub struct Choice {
    /// The move in canonical text.
    pub text: String,
    /// Seconds the player took to choose (building it not included).
    pub seconds: f64,
}

/// The move of a fresh player of `spec` (seeded by `seed`) in `pos`, which
/// must not be over. The error is the player's: a bad spec or checkpoint.
pub fn choose_move<G: Game>(
    game: &G,
    spec: &PlayerSpec,
    seed: u64,
    nets: Option<&dyn NetFactory<G>>,
    pos: &G::State,
) -> Result<Choice, crate::EvalError>
where
    G::State: AlphaBetaState,
{
    let mut player = build_player(game, spec, seed, nets)?;
    let t = std::time::Instant::now();
    let m = player.choose(&History::new(pos.clone()));
    Ok(Choice {
        text: pos.move_text(m),
        seconds: t.elapsed().as_secs_f64(),
    })
}

/// The answer to one line of the line protocol: `POSITION [SEED]` (`-` or
/// nothing: the start; no seed: `seed`) gives the move in canonical text,
/// and a line that cannot be answered gives `error: WHAT`.
pub fn answer_line<G: Game>(
    game: &G,
    spec: &PlayerSpec,
    seed: u64,
    nets: Option<&dyn NetFactory<G>>,
    line: &str,
) -> String
where
    G::State: AlphaBetaState,
{
    let mut words = line.split_whitespace();
    let text = words.next().unwrap_or("-");
    let seed = match words.next().map(str::parse::<u64>) {
        None => seed,
        Some(Ok(s)) => s,
        Some(Err(_)) => return "error: the seed is not a number".to_string(),
    };
    game::position_to_move(game, Some(text))
        .map_err(crate::EvalError::from)
        .and_then(|pos| choose_move(game, spec, seed, nets, &pos))
        .map_or_else(|e| format!("error: {e}"), |c| c.text)
}
