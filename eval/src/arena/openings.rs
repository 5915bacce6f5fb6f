//! Match openings: from a file of position texts, or made by a few random
//! plies.

use crate::OpeningsError;
use game::{Game, GameState, SplitMix};
use std::path::Path;

/// Reads one position of `game` per line, in the game's position text
/// (`Game::parse_state`); blank lines and `#` comments are skipped, and a
/// line may carry `; ...` after the position, as in the spec's vector files.
pub fn read_openings<G: Game>(game: &G, path: &Path) -> Result<Vec<G::State>, crate::EvalError> {
    let text = std::fs::read_to_string(path).map_err(|source| OpeningsError::Unreadable {
        path: path.to_path_buf(),
        source,
    })?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split(';').next().unwrap_or("").trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pos = game
            .parse_state(line)
            .map_err(|source| OpeningsError::BadPosition {
                path: path.to_path_buf(),
                line: i + 1,
                source,
            })?;
        if pos.outcome(1).is_some() {
            return Err(OpeningsError::GameOver {
                path: path.to_path_buf(),
                line: i + 1,
            }
            .into());
        }
        out.push(pos);
    }
    if out.is_empty() {
        return Err(OpeningsError::Empty {
            path: path.to_path_buf(),
        }
        .into());
    }
    Ok(out)
}

/// Random plies an opening may have at most (`--random-plies`,
/// `[eval] random_plies`).
pub const MAX_RANDOM_PLIES: u32 = 200;

/// `count` openings of `game`, each `plies` random legal plies from its
/// start (a line that ends the game is drawn again). A line is drawn at
/// most `64 · count + 1024` times in all: when the game ends that early so
/// often, the openings are shortened to the last ply that left the game
/// open, so the call always ends.
pub fn random_openings<G: Game>(game: &G, count: usize, plies: u32, seed: u64) -> Vec<G::State> {
    let mut rng = SplitMix::new(seed ^ 0x0BE1_1175);
    let mut out = Vec::with_capacity(count);
    let mut buf = Vec::new();
    let start = game.start();
    let mut tries_left = 64 * count + 1024;
    while out.len() < count {
        let mut pos = start.clone();
        let mut open = start.clone();
        let mut ok = true;
        for _ in 0..plies {
            pos.legal_moves(&mut buf);
            if buf.is_empty() {
                ok = false;
                break;
            }
            pos = pos.play(buf[rng.below(buf.len() as u64) as usize]);
            if pos.outcome(1).is_none() {
                open = pos.clone();
            }
        }
        if ok && pos.outcome(1).is_none() {
            out.push(pos);
        } else if tries_left == 0 {
            out.push(open);
        } else {
            tries_left -= 1;
        }
    }
    out
}
