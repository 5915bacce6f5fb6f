//! A position described for people and programs (`triad show`, `triad
//! move`): its text, side to move, outcome and legal moves in canonical
//! text.

use crate::{Game, GameState};

/// What a position is: the keys of `triad show --json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionReport {
    /// The game's name.
    pub game: &'static str,
    /// The game's variant text.
    pub variant: String,
    /// The position in the game's text.
    pub position: String,
    /// The side to move.
    pub side: String,
    /// `RESULT TERMINATION` when the game is over in this position.
    pub outcome: Option<String>,
    /// The legal moves in canonical text.
    pub legal_moves: Vec<String>,
}

impl PositionReport {
    /// `N legal moves: M1 M2 ...`.
    pub fn moves_line(&self) -> String {
        format!(
            "{} legal moves: {}",
            self.legal_moves.len(),
            self.legal_moves.join(" ")
        )
    }
}

/// Describes `pos`, a position of `game`.
pub fn describe<G: Game>(game: &G, pos: &G::State) -> PositionReport {
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    let legal_moves: Vec<String> = legal.iter().map(|&m| pos.move_text(m)).collect();
    let outcome = pos.terminal(!legal.is_empty(), 1);
    PositionReport {
        game: G::NAME,
        variant: game.variant().to_string(),
        position: pos.to_text(),
        side: pos.side().to_string(),
        outcome: outcome.map(|o| format!("{} {}", o.result, o.termination)),
        legal_moves,
    }
}

/// The legal moves of `pos` in canonical text.
pub fn legal_move_texts<S: GameState>(pos: &S) -> Vec<String> {
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    legal.iter().map(|&m| pos.move_text(m)).collect()
}

/// The position of `text` in the game's text, or the start position when
/// there is none.
pub fn position_or_start<G: Game>(
    game: &G,
    text: Option<&str>,
) -> Result<G::State, crate::GameError> {
    text.map_or_else(|| Ok(game.start()), |t| game.parse_state(t))
}

/// The position of `text` (`None` or `-`: the start) when the game is not
/// over in it: a position to choose a move in.
pub fn position_to_move<G: Game>(
    game: &G,
    text: Option<&str>,
) -> Result<G::State, crate::GameError> {
    let pos = match text {
        Some(t) if t != "-" => game.parse_state(t)?,
        _ => game.start(),
    };
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    if pos.terminal(!moves.is_empty(), 1).is_some() {
        return Err(crate::GameError::position(
            text.unwrap_or("-"),
            "the game is over in this position: no move to choose",
        ));
    }
    Ok(pos)
}
