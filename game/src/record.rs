//! Game records read back (`triad replay`): a game's moves in its own
//! notation, checked move by move against the rules.

use crate::{Color, GameResult, GameState, History, Outcome, Termination};

/// A replayed record.
#[derive(Debug, Clone)]
pub struct RecordReplay<S: GameState> {
    /// The game as replayed.
    pub history: History<S>,
    /// Each ply's move in the game's canonical move text (games may add
    /// marks, e.g. `+` for check).
    pub moves: Vec<String>,
    /// How the game ended: by the rules, or by a resignation in the record.
    pub outcome: Option<Outcome>,
    /// Disagreements between the record and the rules that did not stop
    /// the replay (a check mark where there is no check, ...).
    pub warnings: Vec<String>,
}

impl<S: GameState> RecordReplay<S> {
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn result_str(&self) -> &'static str {
        self.outcome.map_or("*", |o| o.result.as_str())
    }
    pub fn termination(&self) -> Termination {
        self.outcome
            .map_or(Termination::Unfinished, |o| o.termination)
    }

    /// The moves as numbered pairs, one line each: `1. WHITE BLACK` (the
    /// last line `N. WHITE ` when Black has not replied).
    pub fn numbered_pairs(&self) -> Vec<String> {
        self.moves
            .chunks(2)
            .enumerate()
            .map(|(i, pair)| {
                let black = pair.get(1).map_or("", |p| p.as_str());
                format!("{}. {} {}", i + 1, pair[0], black)
            })
            .collect()
    }
}

/// Replays the default record format of [`crate::Game::record_text`]:
/// lines `N) WHITE, BLACK;` of [`GameState::parse_move`] text (a lone `,`
/// for a missing White move), `N) resigns.` for a resignation. Lines
/// without a move number (blank lines, the column line, the header `triad
/// data export` writes, `#` comments) are skipped. The error names the
/// line.
pub fn replay_numbered<S: GameState>(
    start: S,
    text: &str,
) -> Result<RecordReplay<S>, crate::GameError> {
    let mut history = History::new(start);
    let mut moves = Vec::new();
    let mut outcome = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let body = match line.split_once(')') {
            Some((n, rest))
                if !n.trim().is_empty() && n.trim().chars().all(|c| c.is_ascii_digit()) =>
            {
                rest
            }
            _ => continue,
        };
        for token in body.split([',', ';']).map(str::trim) {
            if token.is_empty() {
                continue;
            }
            if token.trim_end_matches('.') == "resigns" {
                let loser = history.position().side();
                outcome = Some(Outcome {
                    result: GameResult::win_for(!loser),
                    termination: Termination::Resignation,
                });
                continue;
            }
            let over = outcome.or_else(|| history.outcome());
            let place = format!("line {}", i + 1);
            moves.push(play_text(&mut history, over, (i + 1, &place), ": ", token)?);
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

/// Replays a game given as its moves' texts ([`GameState::parse_move`]),
/// played in turn from `start`; the rules give the outcome (a game that
/// has not ended is unfinished). The error names the move by its number
/// (1-based) and says what is wrong. [`crate::Game::replay_line`] reads a
/// one-line game with it.
pub fn replay_moves<'a, S: GameState>(
    start: S,
    moves: impl IntoIterator<Item = &'a str>,
) -> Result<RecordReplay<S>, crate::GameError> {
    let mut history = History::new(start);
    let mut texts = Vec::new();
    for (i, token) in moves.into_iter().enumerate() {
        let over = history.outcome();
        let place = format!("move {}", i + 1);
        texts.push(play_text(&mut history, over, (i + 1, &place), " ", token)?);
    }
    let outcome = history.outcome();
    Ok(RecordReplay {
        history,
        moves: texts,
        outcome,
        warnings: Vec::new(),
    })
}

/// Plays one move given as text on `history` and returns its canonical
/// text: refused when the game is `over`, the text does not parse, or the
/// move is illegal. Errors read `{place}{sep}"TOKEN": why` (`line 3: "…"`,
/// `move 2 "…"`), or `{place}: why` for an illegal move, with `line`
/// (the line or move number of `place`) as the error's line and the move's
/// own error as its source; the replays of both record formats share it.
fn play_text<S: GameState>(
    history: &mut History<S>,
    over: Option<Outcome>,
    (line, place): (usize, &str),
    sep: &str,
    token: &str,
) -> Result<String, crate::GameError> {
    if let Some(o) = over {
        return Err(crate::GameError::record(
            Some(line),
            format!(
                "{place}{sep}\"{}\": the game is already over ({})",
                crate::clip(token, 80),
                o.termination
            ),
        ));
    }
    let pos = history.position().clone();
    let m = pos.parse_move(token).map_err(|e| {
        let message = format!(
            "{place}{sep}\"{}\": {}",
            crate::clip(token, 80),
            crate::clip(e.message(), 200)
        );
        crate::GameError::record(Some(line), message).because(e)
    })?;
    history
        .try_play(m)
        .map_err(|e| crate::GameError::record(Some(line), format!("{place}: {e}")).because(e))?;
    Ok(pos.move_text(m))
}

/// Writes a game as numbered move pairs, the layout of the inventor's
/// PiRaTeKnIcS records that every game's default record uses: a
/// `White`/`Black` column line, then `N)\tWHITE,\t\tBLACK;` lines numbered
/// from `first_number` (a lone `,` for a missing White move), and
/// `N)\tresigns.` for the side to move after the last move when
/// `resigned`. `text(before, m, after)` writes each move; `moves` must be
/// legal from `start`.
pub fn write_numbered<S: GameState>(
    start: &S,
    moves: &[S::Move],
    first_number: usize,
    resigned: bool,
    mut text: impl FnMut(&S, S::Move, &S) -> String,
) -> String {
    let mut out = String::from("\tWhite\t\tBlack\n");
    let mut pos = start.clone();
    let mut number = first_number;
    let mut line = String::new();
    if start.side() == Color::Black {
        line = format!("{number})\t,\t");
    }
    for &m in moves {
        let after = pos.play(m);
        let t = text(&pos, m, &after);
        if pos.side() == Color::White {
            line = format!("{number})\t{t},\t");
        } else {
            line.push_str(&format!("\t{t};\n"));
            out.push_str(&line);
            line.clear();
            number += 1;
        }
        pos = after;
    }
    if !line.is_empty() {
        out.push_str(line.trim_end_matches([',', '\t']));
        out.push_str(";\n");
    }
    if resigned {
        let side = if pos.side() == Color::White {
            ""
        } else {
            "\t,"
        };
        out.push_str(&format!("{number}){side}\tresigns.\n"));
    }
    out
}
