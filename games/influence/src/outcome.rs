//! The end of a game (RULES.md §9), checked in the book's order: checkmate,
//! stalemate, threefold repetition, the 100-ply clock. The one home of the
//! terminal rules: search, self-play and matches all ask it.

use crate::position::Position;
use game::{GameResult, Outcome, Termination};

impl Position {
    /// The result by the rules, given whether the side to move has a legal
    /// move and how often this position has occurred (this time included).
    #[inline]
    pub fn terminal(&self, has_legal_move: bool, repetitions: u32) -> Option<Outcome> {
        let rules = self.rules();
        let mover = self.turn().seat();
        if !has_legal_move {
            return Some(if self.in_check() {
                Outcome {
                    result: GameResult::win_for(!mover),
                    termination: Termination::Checkmate,
                }
            } else {
                Outcome {
                    result: if rules.stalemate_loses {
                        GameResult::win_for(!mover)
                    } else {
                        GameResult::Draw
                    },
                    termination: Termination::Stalemate,
                }
            });
        }
        if rules.repetition && repetitions >= 3 {
            return Some(Outcome {
                result: GameResult::Draw,
                termination: Termination::Repetition,
            });
        }
        if rules.move_limit > 0 && self.clock() >= rules.move_limit {
            return Some(Outcome {
                result: GameResult::Draw,
                termination: Termination::NoCapture,
            });
        }
        None
    }
}
