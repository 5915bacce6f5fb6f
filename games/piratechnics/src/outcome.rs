//! Game results and the history a position alone cannot know (repetitions).

use crate::position::Position;

pub use game::{repetitions, GameResult, Outcome, Termination};

/// Plies without capture after which the game is drawn.
pub const NO_CAPTURE_LIMIT: u16 = 100;

/// A game of PiRaTeKnIcS: its start, moves and position hashes.
pub type Game = game::History<Position>;

/// The result of `pos` by the rules, given how often it has occurred.
/// Mate and stalemate come first, then repetition, then the capture clock.
pub fn outcome_of(pos: &Position, repetition_count: u32) -> Option<Outcome> {
    outcome_of_with(pos, pos.has_legal_move(), repetition_count)
}

/// [`outcome_of`] for a caller that already knows whether the side to move
/// has a legal move (the search has just generated them): the one home of
/// the terminal rules of RULES.md §7.
#[inline]
pub fn outcome_of_with(
    pos: &Position,
    has_legal_move: bool,
    repetition_count: u32,
) -> Option<Outcome> {
    if !has_legal_move {
        return Some(if pos.in_check() {
            Outcome {
                result: GameResult::win_for(!pos.side()),
                termination: Termination::Checkmate,
            }
        } else {
            Outcome {
                result: GameResult::Draw,
                termination: Termination::Stalemate,
            }
        });
    }
    if repetition_count >= 3 {
        return Some(Outcome {
            result: GameResult::Draw,
            termination: Termination::Repetition,
        });
    }
    if pos.clock() >= NO_CAPTURE_LIMIT {
        return Some(Outcome {
            result: GameResult::Draw,
            termination: Termination::NoCapture,
        });
    }
    None
}
