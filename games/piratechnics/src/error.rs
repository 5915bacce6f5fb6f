//! The errors of reading a position or building a variant, below both
//! (`tfen` reads positions of a variant; a variant's start is a position):
//! each a typed value whose `Display` is the message alone.

use crate::types::{Color, Square};
use std::fmt;

/// Why a TFEN string was rejected; the message names the offending part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TfenError {
    pub tfen: String,
    pub reason: TfenProblem,
}

/// What is wrong with a TFEN string. Ranks are numbered from 1 at the
/// bottom, as written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TfenProblem {
    #[error("expected 5 fields (ranks side reversal clock move), found {found}")]
    Fields { found: usize },
    #[error("side to move '{0}' is not 'w' or 'b'")]
    Side(String),
    #[error("clock '{0}' is not a number")]
    Clock(String),
    #[error("move number '{0}' is not a number")]
    MoveNumber(String),
    #[error("move number must be at least 1")]
    MoveNumberZero,
    /// The side not to move is in check.
    #[error("{them} is in check but it is {side}'s move")]
    InCheck { them: Color, side: Color },
    #[error("expected {expected} ranks separated by '/', found {found}")]
    Ranks { expected: u8, found: usize },
    #[error("{color} has {kings} kings; exactly one is required")]
    Kings { color: Color, kings: u32 },
    #[error("rank {rank} \"{text}\" describes more than its {cells} cells")]
    RankTooLong {
        rank: u8,
        text: String,
        cells: usize,
    },
    #[error("rank {rank}: empty run '0'")]
    EmptyRun { rank: u8 },
    #[error("rank {rank}: unexpected '{found}' (expected a digit or '[')")]
    RankChar { rank: u8, found: char },
    #[error("rank {rank} \"{text}\" describes {found} of its {cells} cells")]
    RankTooShort {
        rank: u8,
        text: String,
        found: usize,
        cells: usize,
    },
    #[error("rank {rank}: a ship holds more than {capacity} crew")]
    CrewTooLarge { rank: u8, capacity: u8 },
    #[error("rank {rank}: '{letter}' is not a crew letter (KQRBNP or kqrbnp)")]
    CrewLetter { rank: u8, letter: char },
    #[error("rank {rank}: unclosed '['")]
    Unclosed { rank: u8 },
    #[error("reversal '{text}': there is no ship on {cell}")]
    ReversalNoShip { text: String, cell: Square },
    #[error("reversal '{0}' is not '-' or two cells like 'c3b1'")]
    Reversal(String),
}

impl fmt::Display for TfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid TFEN \"{}\": {}",
            game::clip(&self.tfen, 200),
            game::clip(&self.reason.to_string(), 200)
        )
    }
}
impl std::error::Error for TfenError {}

/// Why a variant could not be built or named.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    /// A board size outside 2..=8 files and an even 4..=8 ranks.
    #[error("board {width}x{height}: width must be 2..=8 and height an even number 4..=8")]
    Board { width: u8, height: u8 },
    /// A ship capacity outside 1..=6.
    #[error("ship capacity {capacity}: must be 1..=6")]
    Capacity { capacity: u8 },
    /// A name that is not one of the named variants (`known`).
    #[error("unknown piratechnics variant {name:?}: expected one of {}", known.join(", "))]
    Unknown {
        name: String,
        known: Vec<&'static str>,
    },
    /// A variant (`name,capacity=N` with a capacity) whose start position
    /// is not a legal position of it (ships beyond a lowered capacity).
    #[error("variant {variant}: start position: {source}")]
    Start { variant: String, source: TfenError },
}
