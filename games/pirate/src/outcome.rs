//! The end of a game (RULES.md §8), checked in the order of §8.4:
//! elimination, repetition, quiet plies, length, no legal turn. The one home
//! of these rules: search, self-play and matches all ask it.

use crate::position::{Position, PLY_LIMIT, QUIET_PLY_LIMIT};
use game::{GameResult, Outcome, Termination};

impl Position {
    /// The result by the rules, given whether the side to move has a legal
    /// turn and how often this position has occurred in its game (this
    /// time included).
    /// A side with no ship left loses by [`Termination::Elimination`]
    /// (§8.1), one with no legal turn by [`Termination::NoMoves`] (§8.2).
    pub fn terminal(&self, has_legal_move: bool, repetitions: u32) -> Option<Outcome> {
        if let Some(loser) = self.loser_by_elimination() {
            return Some(Outcome {
                result: GameResult::win_for(loser.other().seat()),
                termination: Termination::Elimination,
            });
        }
        let draw = |termination| {
            Some(Outcome {
                result: GameResult::Draw,
                termination,
            })
        };
        if repetitions >= 3 {
            return draw(Termination::Repetition);
        }
        if self.clock() >= QUIET_PLY_LIMIT {
            return draw(Termination::NoCapture);
        }
        if self.plies() >= PLY_LIMIT {
            return draw(Termination::MaxLength);
        }
        if !has_legal_move {
            return Some(Outcome {
                result: GameResult::win_for(self.side().other().seat()),
                termination: Termination::NoMoves,
            });
        }
        None
    }
}
