//! Game records (`triad data export`, `triad replay`). The default record
//! of the `game` crate separates the two moves of a line with `,` and `;`,
//! which Pirate Chess's move text uses itself (`F@c3,+c3`), so this game
//! writes numbered lines with tabs between the moves instead:
//!
//! ```text
//! <tab>Blue<tab><tab>Red
//! 1)<tab>F@d4,+d4<tab><tab>P@c6
//! 2)<tab>D@d3<tab><tab>B@f6,+f6
//! ```
//!
//! `...` stands for Blue's move when a record starts with Red to move;
//! `resigns.` after the last move is the resignation of the side to move.
//! The header lines of `triad data export` (`Game`, `Model`, `Start`) are
//! read too, so an exported game replays as it is.

use crate::position::Position;
use crate::types::{Move, Side};
use game::GameError;
use game::{GameResult, History, Outcome, RecordReplay, Termination};

/// The record of `history` (and of a resignation by the side to move).
pub fn write(history: &History<Position>, resigned: bool) -> String {
    let mut out = String::from("\tBlue\t\tRed\n");
    let mut pos = history.start().clone();
    let mut number = 1;
    let mut line = String::new();
    for &m in history.moves() {
        let t = pos.move_text(m);
        if pos.side() == Side::Blue {
            line = format!("{number})\t{t}");
        } else {
            if line.is_empty() {
                line = format!("{number})\t...");
            }
            out.push_str(&format!("{line}\t\t{t}\n"));
            line.clear();
            number += 1;
        }
        pos.apply(m);
    }
    match (resigned, line.is_empty()) {
        (true, true) => out.push_str(&format!("{number})\tresigns.\n")),
        (true, false) => out.push_str(&format!("{line}\t\tresigns.\n")),
        (false, false) => out.push_str(&format!("{line}\n")),
        (false, true) => {}
    }
    out
}

/// Replays a record of [`write`]'s format from `start`, checking every
/// turn; the error names the line and the turn.
pub fn replay(start: Position, text: &str) -> Result<RecordReplay<Position>, GameError> {
    let mut history = History::new(start);
    let mut moves = Vec::new();
    let mut outcome: Option<Outcome> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with("Blue") {
            continue;
        }
        // The header of `triad data export`: its start must be ours.
        if let Some(text) = line.strip_prefix("Start ") {
            if text != history.start().to_text() {
                return Err(GameError::record(Some(i + 1), format!(
                    "line {}: the record starts from {text}: replay it from there (--position '{text}')",
                    i + 1
                )));
            }
            continue;
        }
        if line.starts_with("Game ") || line.starts_with("Model ") {
            continue;
        }
        let body = match line.split_once(')') {
            Some((n, rest)) if n.trim().chars().all(|c| c.is_ascii_digit()) => rest,
            _ => line,
        };
        for token in body.split_whitespace() {
            if token == "..." {
                continue;
            }
            if let Some(o) = outcome.or_else(|| history.outcome()) {
                return Err(GameError::record(
                    Some(i + 1),
                    format!(
                        "line {}: {token:?}: the game is already over ({})",
                        i + 1,
                        o.termination
                    ),
                ));
            }
            if token == "resigns." || token == "resigns" {
                let loser = history.position().side();
                outcome = Some(Outcome {
                    result: GameResult::win_for(loser.other().seat()),
                    termination: Termination::Resignation,
                });
                continue;
            }
            let pos = history.position().clone();
            let m: Move = pos.parse_move(token).map_err(|e| {
                GameError::record(Some(i + 1), format!("line {}: {token:?}: {e}", i + 1)).because(e)
            })?;
            history.play(m);
            moves.push(pos.move_text(m));
        }
    }
    let outcome = outcome.or_else(|| history.outcome());
    Ok(RecordReplay {
        history,
        moves,
        outcome,
        warnings: Vec::new(),
    })
}
