//! Game results and the history a position alone cannot know (repetitions).

use crate::moves::Move;
use crate::position::Position;
use crate::types::Color;
use std::fmt;

/// Who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    WhiteWin,
    BlackWin,
    Draw,
}

impl GameResult {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWin => "1-0",
            GameResult::BlackWin => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }
    pub fn parse(s: &str) -> Option<GameResult> {
        match s {
            "1-0" => Some(GameResult::WhiteWin),
            "0-1" => Some(GameResult::BlackWin),
            "1/2-1/2" => Some(GameResult::Draw),
            _ => None,
        }
    }
    /// The win of `color`.
    pub fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWin,
            Color::Black => GameResult::BlackWin,
        }
    }
    /// Score for `color`: 1 win, 0.5 draw, 0 loss.
    pub fn score_for(self, color: Color) -> f32 {
        match (self, color) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::WhiteWin, Color::White) | (GameResult::BlackWin, Color::Black) => 1.0,
            _ => 0.0,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    Checkmate,
    Stalemate,
    /// Threefold repetition (RULES.md §7).
    Repetition,
    /// 100 plies without a capture.
    NoCapture,
    Resignation,
    /// Stopped at a configured maximum length.
    MaxLength,
    /// Decided by an outside judgement (e.g. an engine's adjudication).
    Adjudication,
    Unfinished,
}

impl Termination {
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::Repetition => "repetition",
            Termination::NoCapture => "no-capture",
            Termination::Resignation => "resignation",
            Termination::MaxLength => "max-length",
            Termination::Adjudication => "adjudication",
            Termination::Unfinished => "unfinished",
        }
    }
    pub fn parse(s: &str) -> Option<Termination> {
        [
            Termination::Checkmate,
            Termination::Stalemate,
            Termination::Repetition,
            Termination::NoCapture,
            Termination::Resignation,
            Termination::MaxLength,
            Termination::Adjudication,
            Termination::Unfinished,
        ]
        .into_iter()
        .find(|t| t.as_str() == s)
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A finished game's result and how it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub result: GameResult,
    pub termination: Termination,
}

/// Plies without capture after which the game is drawn.
pub const NO_CAPTURE_LIMIT: u16 = 100;

/// A game: its start, its moves and the hash of every position so far, for
/// repetition detection.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    moves: Vec<Move>,
    /// Hash of the start and of the position after each move.
    hashes: Vec<u64>,
}

impl Game {
    pub fn new(start: Position) -> Game {
        let h = start.hash();
        Game {
            position: start.clone(),
            start,
            moves: Vec::new(),
            hashes: vec![h],
        }
    }

    pub fn start(&self) -> &Position {
        &self.start
    }
    pub fn position(&self) -> &Position {
        &self.position
    }
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
    /// Hashes of every position of the game, the current one last.
    pub fn hashes(&self) -> &[u64] {
        &self.hashes
    }
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// Plays a move that must be legal (checked in debug builds; use
    /// [`Game::try_play`] for moves from outside).
    pub fn play(&mut self, m: Move) {
        debug_assert!(self.position.is_legal(m), "illegal move {m:?}");
        self.position.apply(m);
        self.moves.push(m);
        self.hashes.push(self.position.hash());
    }

    /// Plays `m` if it is legal here.
    pub fn try_play(&mut self, m: Move) -> Result<(), String> {
        if !self.position.is_legal(m) {
            return Err(format!(
                "{} is not legal in {}",
                self.position.move_to_text(m),
                self.position
            ));
        }
        self.play(m);
        Ok(())
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.hashes.pop();
        let mut p = self.start.clone();
        for &x in &self.moves {
            p.apply(x);
        }
        self.position = p;
        Some(m)
    }

    /// How many times the current position (board, side, forbidden
    /// reversal) has occurred, this time included.
    pub fn repetition_count(&self) -> u32 {
        repetitions(&self.hashes, self.position.clock())
    }

    /// The result if the game is over by the rules, else `None`.
    pub fn outcome(&self) -> Option<Outcome> {
        outcome_of(&self.position, self.repetition_count())
    }
}

/// How many times the last hash occurs among the last `clock + 1` entries
/// (positions before the last capture cannot repeat it).
pub fn repetitions(hashes: &[u64], clock: u16) -> u32 {
    let Some(&last) = hashes.last() else { return 0 };
    let window = (clock as usize + 1).min(hashes.len());
    hashes[hashes.len() - window..]
        .iter()
        .rev()
        .step_by(2)
        .filter(|&&h| h == last)
        .count() as u32
}

/// The result of `pos` by the rules, given how often it has occurred.
/// Mate and stalemate come first, then repetition, then the capture clock.
pub fn outcome_of(pos: &Position, repetition_count: u32) -> Option<Outcome> {
    if !pos.has_legal_move() {
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
