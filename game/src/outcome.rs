//! Results of games: who won and how it ended, and the two seats.
//!
//! Every game has two players; the first to move is `White` (PiRaTeKnIcS's
//! white, Connect Four's first player, ...). Results are written as in
//! chess, `1-0`, `0-1`, `1/2-1/2`, from the first player's side.

use std::fmt;

/// The two seats. `White` moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The letter of position texts and shards, `w` or `b`.
    pub fn letter(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.flip()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

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
    /// The winner completed a line (Connect Four's four in a row).
    Line,
    /// The board is full and nobody has won (a draw).
    BoardFull,
    /// The loser has no piece left on the board (Pirate Chess §8.1).
    Elimination,
    /// The side to move has no legal turn and loses by it (Pirate Chess
    /// §8.2; chess-like games whose stalemate is a draw use `Stalemate`).
    NoMoves,
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
            Termination::Line => "line",
            Termination::BoardFull => "board-full",
            Termination::Elimination => "elimination",
            Termination::NoMoves => "no-moves",
            Termination::Unfinished => "unfinished",
        }
    }
    /// Every termination, in declaration order.
    pub const ALL: [Termination; 12] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::Repetition,
        Termination::NoCapture,
        Termination::Resignation,
        Termination::MaxLength,
        Termination::Adjudication,
        Termination::Line,
        Termination::BoardFull,
        Termination::Elimination,
        Termination::NoMoves,
        Termination::Unfinished,
    ];

    pub fn parse(s: &str) -> Option<Termination> {
        Termination::ALL.into_iter().find(|t| t.as_str() == s)
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
