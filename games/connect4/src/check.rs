//! Solving a list of positions and checking them against expected values
//! (`triad solve`): reading positions from arguments and files in Pons's
//! formats ([`read_inputs`], [`prepare`]), solving each with one
//! [`Solver`] ([`solve_all`]), and comparing with the scores and column
//! values that follow each position in the file, in a [`Report`] that
//! serializes as the command's `--json`. Errors are one line naming the
//! argument or `FILE:LINE`.

use crate::{Connect4, Position, Solver};
use game::Game;
use game::GameError;
use serde::{Serialize, Serializer};
use std::io::BufRead;
use std::path::Path;
use std::time::Instant;

/// One position to solve: its text, where it came from (for messages),
/// and the words after it on its line (expected values, for a check).
#[derive(Debug, Clone, PartialEq)]
pub struct Input {
    /// The move sequence (`4453`; `-` is the empty board).
    pub text: String,
    /// `argument N` or `FILE:LINE`.
    pub origin: String,
    /// The words after the position on its line.
    pub rest: Vec<String>,
}

/// The positions of `arguments` and of `file`, one per line (the first
/// word of the line, so Pons's test files work as they are; `#` starts a
/// comment line; `-` as the file reads standard input). The error names
/// the file: `--file FILE: ...`.
pub fn read_inputs(arguments: &[String], file: Option<&Path>) -> Result<Vec<Input>, GameError> {
    let mut out: Vec<Input> = arguments
        .iter()
        .enumerate()
        .map(|(i, t)| Input {
            text: t.clone(),
            origin: format!("argument {}", i + 1),
            rest: Vec::new(),
        })
        .collect();
    if let Some(path) = file {
        let name = path.display().to_string();
        let mut read = |r: &mut dyn BufRead| -> std::io::Result<()> {
            for (i, line) in r.lines().enumerate() {
                let line = line?;
                let mut words = line.split_whitespace();
                if let Some(word) = words.next() {
                    if !word.starts_with('#') {
                        out.push(Input {
                            text: word.to_string(),
                            origin: format!("{name}:{}", i + 1),
                            rest: words.map(String::from).collect(),
                        });
                    }
                }
            }
            Ok(())
        };
        if path.as_os_str() == "-" {
            read(&mut std::io::stdin().lock())
        } else {
            std::fs::File::open(path).and_then(|f| read(&mut std::io::BufReader::new(f)))
        }
        .map_err(|e| GameError::record(None, format!("--file {name}: {e}")).because(e))?;
    }
    Ok(out)
}

/// The expected score and, when columns are checked, column values (`None`
/// a full column) of a checked line.
#[derive(Debug, Clone, PartialEq)]
pub struct Expected {
    /// The position's score, in Pons's convention.
    pub score: i32,
    /// Each column's value, when columns are checked.
    pub columns: Option<Vec<Option<i32>>>,
}

/// A position read and parsed, with what it should solve to when checked.
#[derive(Debug, Clone)]
pub struct Case {
    /// Where it came from.
    pub input: Input,
    /// The position.
    pub position: Position,
    /// Its expected values (a check only).
    pub expected: Option<Expected>,
}

/// Parses every input as a position of `game` and, with `check`, the
/// expected values after it (`moves score`, or with `columns` `moves
/// score v1 .. vW`). Errors name the input's origin: a position that does
/// not parse or is already won, a missing or bad expected value.
pub fn prepare(
    game: &Connect4,
    inputs: Vec<Input>,
    columns: bool,
    check: bool,
) -> Result<Vec<Case>, GameError> {
    let width = columns.then_some(game.size().width as usize);
    let mut cases = Vec::with_capacity(inputs.len());
    for input in inputs {
        let t = &input.text;
        let position = game.parse_state(t).map_err(|e| {
            let message = format!("{}: position {:?}: {e}", input.origin, game::clip(t, 80));
            GameError::position(t.as_str(), message).because(e)
        })?;
        if position.is_won() {
            return Err(GameError::position(
                t.as_str(),
                format!(
                    "{}: position {t:?}: the game is already won, there is nothing to solve",
                    input.origin
                ),
            ));
        }
        let expected = if check {
            Some(expected(&input, width)?)
        } else {
            None
        };
        cases.push(Case {
            input,
            position,
            expected,
        });
    }
    Ok(cases)
}

/// The expected values of a checked line (`width`: the columns too).
fn expected(input: &Input, columns: Option<usize>) -> Result<Expected, GameError> {
    let bad = |what: String| GameError::record(None, format!("{}: --check: {what}", input.origin));
    let score = input
        .rest
        .first()
        .ok_or_else(|| bad("no expected score after the position".into()))?;
    let score = score
        .parse()
        .map_err(|e| bad(format!("expected score {score:?} is not a number")).because(e))?;
    let Some(width) = columns else {
        return Ok(Expected {
            score,
            columns: None,
        });
    };
    if input.rest.len() != 1 + width {
        return Err(bad(format!(
            "--columns needs {width} column values after the score (`.` for a full column), found {}",
            input.rest.len() - 1
        )));
    }
    let values = input.rest[1..]
        .iter()
        .map(|v| match v.as_str() {
            "." => Ok(None),
            v => v
                .parse()
                .map(Some)
                .map_err(|e| bad(format!("column value {v:?} is not a number or `.`")).because(e)),
        })
        .collect::<Result<_, _>>()?;
    Ok(Expected {
        score,
        columns: Some(values),
    })
}

/// A line in Pons's formats: `moves score [v1 .. vW]` (`.` a full column,
/// `-` the empty board).
pub fn pons_line(text: &str, score: i32, columns: Option<&[Option<i32>]>) -> String {
    let mut line = format!("{} {score}", if text.is_empty() { "-" } else { text });
    for v in columns.unwrap_or_default() {
        line.push(' ');
        line.push_str(&v.map_or(".".to_string(), |v| v.to_string()));
    }
    line
}

/// How to solve: exactly or to a horizon, with or without column values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// Search only this many plies (wins and losses within them exact,
    /// the rest a draw); `None` solves exactly.
    pub depth: Option<u32>,
    /// Also give every column's value.
    pub columns: bool,
    /// The transposition table, log2 of entries.
    pub table_bits: u32,
    /// The cases carry expected values to compare with.
    pub check: bool,
}

/// One position solved.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Solved {
    /// The position's text, as given.
    pub position: String,
    /// Its score (Pons's convention: the side to move's view).
    pub score: i32,
    /// `win`, `draw` or `loss` for the side to move.
    pub outcome: &'static str,
    /// Each column's value (`None` a full column), when asked for.
    pub columns: Option<Vec<Option<i32>>>,
    /// Whether it agrees with the expected values (a check only).
    pub agrees: Option<bool>,
    /// Nodes searched for it.
    pub nodes: u64,
    /// Seconds spent on it.
    pub seconds: f64,
}

/// Every position solved, and how many disagreed with their expected
/// values. Serializes as `triad solve --json` prints it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// `connect4/VARIANT`.
    pub game: String,
    /// The horizon, if any.
    pub depth: Option<u32>,
    /// Each position, in order.
    pub positions: Vec<Solved>,
    /// Mean seconds per position.
    pub mean_seconds: f64,
    /// Mean nodes per position.
    pub mean_nodes: f64,
    /// Whether expected values were compared.
    pub checked: bool,
    /// One line per disagreement, `ORIGIN: solved `LINE`, expected `LINE``
    /// (serialized as their count).
    #[serde(serialize_with = "count")]
    pub disagreements: Vec<String>,
    /// Seconds for all positions.
    #[serde(skip)]
    pub seconds: f64,
}

fn count<S: Serializer>(list: &[String], s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u64(list.len() as u64)
}

/// Solves every case with one solver, comparing each with its expected
/// values. `on_solved` is called after each position with its result and
/// its Pons line (`moves score [v1 .. vW]`), for printing and progress.
pub fn solve_all(
    game: &Connect4,
    cases: &[Case],
    settings: &Settings,
    mut on_solved: impl FnMut(&Solved, &str),
) -> Report {
    let mut solver = Solver::new(settings.table_bits);
    let mut rows = Vec::with_capacity(cases.len());
    let start = Instant::now();
    let mut total_nodes = 0u64;
    let mut disagreements = Vec::new();
    for case in cases {
        let (text, p) = (&case.input.text, &case.position);
        solver.reset_nodes();
        let t = Instant::now();
        let score = match settings.depth {
            Some(d) => solver.solve_depth(p, d),
            None => solver.solve(p),
        };
        let columns = settings.columns.then(|| match settings.depth {
            Some(d) => solver.column_values_depth(p, d),
            None => solver.column_values(p),
        });
        let secs = t.elapsed().as_secs_f64();
        total_nodes += solver.nodes;
        let line = pons_line(text, score, columns.as_deref());
        let mut agrees = None;
        if let Some(want) = &case.expected {
            let ok = score == want.score && (want.columns.is_none() || want.columns == columns);
            if !ok {
                disagreements.push(format!(
                    "{}: solved `{line}`, expected `{}`",
                    case.input.origin,
                    pons_line(text, want.score, want.columns.as_deref())
                ));
            }
            agrees = Some(ok);
        }
        let solved = Solved {
            position: text.clone(),
            score,
            outcome: match score.signum() {
                1 => "win",
                0 => "draw",
                _ => "loss",
            },
            columns,
            agrees,
            nodes: solver.nodes,
            seconds: secs,
        };
        on_solved(&solved, &line);
        rows.push(solved);
    }
    let secs = start.elapsed().as_secs_f64();
    let n = cases.len() as f64;
    Report {
        game: format!("{}/{}", Connect4::NAME, game.variant()),
        depth: settings.depth,
        positions: rows,
        mean_seconds: secs / n,
        mean_nodes: total_nodes as f64 / n,
        checked: settings.check,
        disagreements,
        seconds: secs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs(lines: &[&str]) -> Vec<Input> {
        lines
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let mut words = l.split_whitespace();
                Input {
                    text: words.next().unwrap().to_string(),
                    origin: format!("f:{}", i + 1),
                    rest: words.map(String::from).collect(),
                }
            })
            .collect()
    }

    #[test]
    fn solves_and_checks_scores_and_columns() {
        let game = Connect4::standard();
        let cases = prepare(&game, inputs(&["4455 18", "4455 17"]), false, true).unwrap();
        let settings = Settings {
            depth: None,
            columns: false,
            table_bits: 16,
            check: true,
        };
        let mut lines = Vec::new();
        let report = solve_all(&game, &cases, &settings, |_, l| lines.push(l.to_string()));
        assert_eq!(lines, ["4455 18", "4455 18"]);
        assert_eq!(report.positions[0].agrees, Some(true));
        assert_eq!(report.positions[1].outcome, "win");
        assert_eq!(
            report.disagreements,
            ["f:2: solved `4455 18`, expected `4455 17`"]
        );
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["disagreements"], 1);
        assert_eq!(json["game"], "connect4/7x6");
        assert!(json.get("seconds").is_none());
    }

    #[test]
    fn bad_lines_name_their_origin() {
        let game = Connect4::standard();
        let err = |l: &str, columns| prepare(&game, inputs(&[l]), columns, true).unwrap_err();
        assert_eq!(
            err("4455", false),
            "f:1: --check: no expected score after the position"
        );
        assert!(err("4455 x", false)
            .message()
            .contains("expected score \"x\" is not a number"));
        assert!(err("4455 18 1 2", true)
            .message()
            .contains("--columns needs 7 column values"));
        assert!(err("1212121 0", false).message().contains("already won"));
        assert!(err("9 0", false)
            .message()
            .starts_with("f:1: position \"9\": "));
    }
}
