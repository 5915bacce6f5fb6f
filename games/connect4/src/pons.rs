//! Pascal Pons's benchmark files (`Test_LX_RY.moves`: `moves score v1 …
//! v7`, `.` for a full column; see `benchmarks/connect4/README.md`) and
//! AlphaZero.jl's error: a move errs when the outcome class (win, draw,
//! loss: the sign of its exact value) is worse than the best column's. Any
//! winning move is right, however slow; in a lost position nothing is an
//! error.

use crate::position::Size;
use crate::variant::{Column, Connect4};
use game::GameError;
use game::{Game, SuiteCase, SuiteFile};
use std::path::Path;

/// The six files, easiest first, with their stage names.
pub const FILES: [(&str, &str); 6] = [
    ("Test_L3_R1", "end-easy"),
    ("Test_L2_R1", "middle-easy"),
    ("Test_L2_R2", "middle-medium"),
    ("Test_L1_R1", "beginning-easy"),
    ("Test_L1_R2", "beginning-medium"),
    ("Test_L1_R3", "beginning-hard"),
];

/// One line of a `.moves` file: the position's move sequence, its exact
/// score and each column's (`None` for a full column).
#[derive(Clone, Debug, PartialEq)]
pub struct PonsLine {
    pub sequence: String,
    pub score: i32,
    pub values: Vec<Option<i32>>,
}

impl PonsLine {
    /// Whether playing column `c` (0-based) is an error by AlphaZero.jl's
    /// definition.
    pub fn is_error(&self, c: Column) -> bool {
        let v = self
            .values
            .get(c.0 as usize)
            .copied()
            .flatten()
            .unwrap_or(i32::MIN);
        v.signum() < self.score.signum()
    }
}

/// Reads a `.moves` file; errors name the file and line.
pub fn read_moves_file(path: &Path) -> Result<Vec<PonsLine>, GameError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| GameError::record(None, format!("{}: {e}", path.display())).because(e))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let bad = |why: &str| {
                GameError::record(
                    Some(i + 1),
                    format!("{} line {}: {why}", path.display(), i + 1),
                )
            };
            let f: Vec<&str> = l.split_whitespace().collect();
            if f.len() < 3 {
                return Err(bad("expected `moves score v1 … vN`"));
            }
            let score = f[1]
                .parse()
                .map_err(|e| bad("the score is not a number").because(e))?;
            let values = f[2..]
                .iter()
                .map(|v| match *v {
                    "." => Ok(None),
                    v => v
                        .parse()
                        .map(Some)
                        .map_err(|e| bad("a column value is not a number").because(e)),
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(PonsLine {
                sequence: f[0].to_string(),
                score,
                values,
            })
        })
        .collect()
}

/// The six files of `dir` as a benchmark suite of `game` (which must be
/// the 7×6 board): each case's right moves are the columns that do not
/// err.
pub fn read_suite(
    game: &Connect4,
    dir: &Path,
) -> Result<Vec<SuiteFile<crate::Position>>, GameError> {
    if game.size() != Size::STANDARD {
        return Err(GameError::record(
            None,
            format!(
                "Pons's benchmark positions are for the 7x6 board, not {}",
                game.variant()
            ),
        ));
    }
    FILES
        .iter()
        .map(|&(name, stage)| {
            read_suite_file(game, &dir.join(format!("{name}.moves")), name, stage)
        })
        .collect()
}

/// Any files in Pons's `.moves` format (a held-out set of one's own, say)
/// as a benchmark suite of `game`, each named by its file stem: positions
/// of any board size, as `triad solve --game connect4/WxH --columns`
/// labels them (a line's column values must be the board's width).
pub fn read_suite_files(
    game: &Connect4,
    paths: &[std::path::PathBuf],
) -> Result<Vec<SuiteFile<crate::Position>>, GameError> {
    paths
        .iter()
        .map(|path| {
            let name = path.file_stem().map_or_else(
                || path.display().to_string(),
                |s| s.to_string_lossy().into_owned(),
            );
            read_suite_file(game, path, &name, &name)
        })
        .collect()
}

/// One `.moves` file as a suite file: each case's right moves are the
/// columns that do not err.
fn read_suite_file(
    game: &Connect4,
    path: &Path,
    name: &str,
    stage: &str,
) -> Result<SuiteFile<crate::Position>, GameError> {
    let cases = read_moves_file(path)?
        .into_iter()
        .enumerate()
        .map(|(i, line)| {
            let position = game.parse_state(&line.sequence).map_err(|e| {
                let message = format!("{} line {}: {e}", path.display(), i + 1);
                GameError::record(Some(i + 1), message).because(e)
            })?;
            if line.values.len() != game.size().width as usize {
                return Err(GameError::record(Some(i + 1), format!(
                    "{} line {}: {} column values for a board of {} columns (`triad solve --columns` writes them)",
                    path.display(),
                    i + 1,
                    line.values.len(),
                    game.size().width
                )));
            }
            let good = (0..line.values.len() as u8)
                .map(Column)
                .filter(|&c| line.values[c.0 as usize].is_some() && !line.is_error(c))
                .collect();
            Ok(SuiteCase { position, good })
        })
        .collect::<Result<_, GameError>>()?;
    Ok(SuiteFile {
        name: name.to_string(),
        stage: stage.to_string(),
        cases,
    })
}
