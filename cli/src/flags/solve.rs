//! The flags of `triad solve` (its `run` is `src/cmd/solve.rs`).

use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    after_help = "Scores follow Pascal Pons: from the side to move's view, 22 - k for a \
win with one's k-th stone on 7x6 (on any board (cells + 1 - n)/2, n the stones before the \
winning one), 0 for a draw, negative for a loss. Positions are move sequences of 1-based \
columns (`4453`; `-` is the empty board). Exit status: 0 solved (and every --check \
agreed), 1 a --check that disagreed, 2 bad input.\n\n\
Output: one line per position in Pons's formats, `moves score` and with --columns `moves \
score v1 .. vW` (`.` a full column), so that it compares with his files.\n\n\
Examples:\n  triad solve 4453\n  triad solve 4453 --columns --json\n  \
triad solve --file benchmarks/connect4/Test_L2_R1 --check\n  \
triad solve --file benchmarks/connect4/Test_L2_R1.moves --columns --check\n  \
triad solve 44 --depth 8       (a horizon: wins and losses within 8 plies, else 0)"
)]
pub struct Args {
    /// Positions (move sequences); see --file for many.
    pub positions: Vec<String>,
    /// Read positions from this file, one per line (the first word of the
    /// line: Pons's test files work as they are); `-` reads standard input.
    #[arg(long, value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// Also give the value of every column (`.` for a full column).
    #[arg(long)]
    pub columns: bool,
    /// Search only this many plies (a weaker player's view: wins and
    /// losses within them are exact, the rest counts as a draw); with
    /// --columns, each column's stone is the first of them.
    #[arg(long, value_name = "PLIES")]
    pub depth: Option<u32>,
    /// The game: connect4 or connect4/WxH.
    #[arg(long, default_value = "connect4", value_name = "GAME")]
    pub game: String,
    /// Transposition table size, log2 of entries (8 bytes each; 24: 128 MB).
    #[arg(long, default_value_t = 24, value_name = "BITS")]
    pub table_bits: u32,
    /// Compare with the expected values that follow each position in
    /// --file (`moves score`, or `moves score v1 .. vW` with --columns, as
    /// in Pons's files); exit 1 if any differs.
    #[arg(long, requires = "file", conflicts_with = "depth")]
    pub check: bool,
    /// Print one JSON object: every position's score (and columns), nodes and time.
    #[arg(long)]
    pub json: bool,
}
