//! Games from elsewhere as shard rows (`triad data import`): records in a
//! game's own notation (the inventor's PiRaTeKnIcS notation with its
//! commentary, the numbered pairs of the other games, the records `triad
//! data export` writes) or one game a line (Connect Four's move strings).
//!
//! Every game is replayed through the game's rules as it is read: its moves
//! must be legal, a result the record states must agree with the rules, and
//! the rows built from it are checked as `triad data verify` checks a
//! shard ([`crate::verify::Verifier`]). A record that fails is reported with
//! its file and line and left out; the others are kept. Rows are
//! `source = "imported"` with null search columns; the result is the
//! record's (a resignation, an export header's `max-length`) or the rules'.

use std::fmt;
use std::path::Path;

use game::{Game, GameError, History, Outcome, RecordReplay, Termination};

use crate::error::DataError;
use crate::export::{header_game, header_result, header_start};
use crate::record::{GameRecord, ShardGame, Source};
use crate::verify::{GameIds, Verifier};
use crate::writer::{ShardOptions, ShardSummary, ShardWriter};

/// How an input writes its games.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImportFormat {
    /// Records in the game's own notation ([`Game::replay_record`]): one
    /// game a file, or several, each beginning with the header `triad data
    /// export` writes (`Game N (P plies, NAME/VARIANT): RESULT HOW`).
    Record,
    /// One game a line ([`Game::replay_line`]): Connect Four's move strings
    /// (`4453…`, the first word, as in Pons's `.moves` files); blank lines
    /// and lines starting with `#` are skipped.
    Lines,
}

impl ImportFormat {
    /// The format's name on the command line (`record`, `lines`).
    pub fn as_str(self) -> &'static str {
        match self {
            ImportFormat::Record => "record",
            ImportFormat::Lines => "lines",
        }
    }

    /// Reads a format's name.
    pub fn parse(s: &str) -> Option<ImportFormat> {
        [ImportFormat::Record, ImportFormat::Lines]
            .into_iter()
            .find(|f| f.as_str() == s)
    }
}

/// Ids of imported games start here unless told otherwise: far above the
/// ids a run's self-play gives (which count from 0), so imported and
/// self-play shards can be trained on together.
pub const DEFAULT_FIRST_ID: u64 = 1_000_000_000_000;

/// What to import and how.
#[derive(Debug, Clone)]
pub struct ImportOptions {
    /// How the inputs write their games.
    pub format: ImportFormat,
    /// The first game's id; the next games count up from it.
    pub first_id: u64,
}

impl Default for ImportOptions {
    fn default() -> Self {
        ImportOptions {
            format: ImportFormat::Record,
            first_id: DEFAULT_FIRST_ID,
        }
    }
}

/// One input: a name for messages (its path), whose last part names the
/// rows' player (`model_id = imported:FILE`), and its text.
#[derive(Debug, Clone, Copy)]
pub struct ImportInput<'a> {
    pub name: &'a str,
    pub text: &'a str,
}

impl ImportInput<'_> {
    /// The name's last part (`sample-game-1.txt` of
    /// `games/piratechnics/vectors/sample-game-1.txt`).
    pub fn file_name(&self) -> &str {
        Path::new(self.name)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or(self.name)
    }
}

/// A record that was left out: the input, the line it begins on (1-based)
/// and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejected {
    pub input: String,
    pub line: usize,
    pub message: String,
}

impl fmt::Display for Rejected {
    /// `INPUT:LINE: MESSAGE`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.input, self.line, self.message)
    }
}

/// What an import read and wrote.
#[derive(Debug, Clone, Default)]
pub struct ImportReport {
    /// Games written to the shard.
    pub games: u64,
    /// Their rows (one per move).
    pub rows: u64,
    /// Records left out, in input order.
    pub rejected: Vec<Rejected>,
    /// The replays' warnings on games that were kept (a comment after a
    /// move, a check mark the position does not have), `INPUT:LINE: ...`.
    pub warnings: Vec<String>,
    /// Games by result: white wins, draws, black wins, unfinished.
    pub results: [u64; 4],
}

impl ImportReport {
    /// `imported G games (R rows) to SHARD: W-D-L-U (white wins, draws,
    /// black wins, unfinished); N records refused`, one line.
    pub fn text(&self, shard: &ShardSummary) -> String {
        let [w, d, b, u] = self.results;
        format!(
            "imported {} games ({} rows) to {}: {w} white wins, {d} draws, {b} black wins, {u} unfinished; {} record(s) refused",
            self.games,
            self.rows,
            shard.path.display(),
            self.rejected.len()
        )
    }

    /// The report as `triad data import --json` prints it.
    pub fn json(&self, shard: &ShardSummary) -> serde_json::Value {
        let [w, d, b, u] = self.results;
        serde_json::json!({
            "shard": shard.path.display().to_string(),
            "games": self.games,
            "rows": self.rows,
            "bytes": shard.bytes,
            "results": {"white_wins": w, "draws": d, "black_wins": b, "unfinished": u},
            "rejected": self.rejected.iter().map(|r| serde_json::json!({
                "input": r.input, "line": r.line, "message": r.message,
            })).collect::<Vec<_>>(),
            "warnings": self.warnings,
        })
    }
}

/// Why nothing could be imported.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The shard could not be written (the message names it).
    #[error(transparent)]
    Write(#[from] DataError),
    /// No record could be read; the first rejection says why.
    #[error("no game could be imported ({} record(s) refused; the first: {first})", .count)]
    Nothing {
        /// Records refused.
        count: usize,
        /// The first of them.
        first: Rejected,
    },
    /// The inputs hold no record at all.
    #[error("the inputs hold no game")]
    Empty,
}

/// Why a record was refused (the caller adds its input and line).
#[derive(Debug, thiserror::Error)]
enum RecordProblem {
    #[error("the record is a game of {found}, not of {expected}")]
    OtherGame { found: String, expected: String },
    #[error("bad start position: {0}")]
    BadStart(#[source] GameError),
    /// A move the game refuses.
    #[error(transparent)]
    Replay(GameError),
    #[error("no moves")]
    NoMoves,
    #[error("the header says {said} plies, the record has {found}")]
    Plies { said: usize, found: usize },
    #[error(
        "the header says {}, the moves give {}",
        outcome_text(said),
        outcome_text(found)
    )]
    OutcomeDiffers { said: Outcome, found: Outcome },
    #[error("the header says unfinished, the moves give {}", outcome_text(found))]
    Unfinished { found: Outcome },
}

/// `RESULT TERMINATION`, as headers write them.
fn outcome_text(o: &Outcome) -> String {
    format!("{} {}", o.result.as_str(), o.termination)
}

/// One game read from an input, before it becomes rows.
struct ReadGame<S: game::GameState> {
    history: History<S>,
    outcome: Option<Outcome>,
    line: usize,
    warnings: Vec<String>,
}

/// Reads every game of `inputs` in `game` and writes them to the shard
/// `out` (whole, under a temporary name until it is complete). `on_game`
/// is called after each record read (kept or not), for progress. Fails
/// when the shard cannot be written or no game could be read (then
/// nothing is written).
pub fn import<G: Game>(
    game: &G,
    inputs: &[ImportInput<'_>],
    options: &ImportOptions,
    out: &Path,
    mut on_game: impl FnMut(),
) -> Result<(ImportReport, ShardSummary), ImportError> {
    let mut report = ImportReport::default();
    let mut writer: Option<ShardWriter> = None;
    let mut next_id = options.first_id;
    let mut verifier = Verifier::new(game);
    for input in inputs {
        for read in read_games(game, input, options.format) {
            on_game();
            let read = match read {
                Ok(r) => r,
                Err(rejected) => {
                    report.rejected.push(rejected);
                    continue;
                }
            };
            let model = format!("imported:{}", input.file_name());
            let record = GameRecord::unsearched(
                game,
                next_id,
                &read.history,
                read.outcome,
                Source::Imported,
                0,
                |_| model.clone(),
            );
            // The check of `triad data verify`, on the rows as written.
            if let Some(fault) = verifier
                .records(&record.positions, &GameIds::default())
                .faults
                .into_iter()
                .next()
            {
                report.rejected.push(Rejected {
                    input: input.name.to_string(),
                    line: read.line,
                    message: format!("the rows fail verification: {fault}"),
                });
                continue;
            }
            let w = match &mut writer {
                Some(w) => w,
                None => writer.insert(ShardWriter::with_options(
                    out,
                    &ShardOptions {
                        game: Some(ShardGame::of(game)),
                        metadata: vec![("source".into(), Source::Imported.as_str().into())],
                        ..ShardOptions::default()
                    },
                )?),
            };
            w.push_game(&record)?;
            next_id += 1;
            report.games += 1;
            report.rows += record.positions.len() as u64;
            report.results[match read.outcome.map(|o| o.result) {
                Some(game::GameResult::WhiteWin) => 0,
                Some(game::GameResult::Draw) => 1,
                Some(game::GameResult::BlackWin) => 2,
                None => 3,
            }] += 1;
            report.warnings.extend(
                read.warnings
                    .into_iter()
                    .map(|w| format!("{}:{}: {w}", input.name, read.line)),
            );
        }
    }
    match writer {
        Some(w) => Ok((report, w.finish()?)),
        None => match report.rejected.first() {
            Some(first) => Err(ImportError::Nothing {
                count: report.rejected.len(),
                first: first.clone(),
            }),
            None => Err(ImportError::Empty),
        },
    }
}

/// The games of one input, each read and checked, in order.
fn read_games<G: Game>(
    game: &G,
    input: &ImportInput<'_>,
    format: ImportFormat,
) -> Vec<Result<ReadGame<G::State>, Rejected>> {
    let reject = |line: usize, message: String| Rejected {
        input: input.name.to_string(),
        line,
        message,
    };
    match format {
        ImportFormat::Lines => input
            .text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            .map(|(i, l)| {
                let r = game
                    .replay_line(game.start(), l)
                    .map_err(|e| reject(i + 1, e.to_string()))?;
                finish(r, None, i + 1).map_err(|e| reject(i + 1, e.to_string()))
            })
            .collect(),
        ImportFormat::Record => record_chunks(input.text)
            .into_iter()
            .map(|(first, chunk)| {
                read_record(game, first, chunk).map_err(|e| reject(first + 1, e.to_string()))
            })
            .collect(),
    }
}

/// The games of a record file: `(index of the first line, text)` of each
/// part that begins with an export header (`Game N (...`), or the whole
/// text when there is none.
fn record_chunks(text: &str) -> Vec<(usize, &str)> {
    let mut starts = Vec::new();
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if header_game(line).is_some() {
            starts.push((i, offset));
        }
        offset += line.len();
    }
    if starts.first().is_none_or(|&(i, _)| i != 0) {
        // Text before the first header (or no header at all) is a game of
        // its own when it holds anything.
        starts.insert(0, (0, 0));
    }
    let mut chunks = Vec::new();
    for (k, &(line, at)) in starts.iter().enumerate() {
        let end = starts.get(k + 1).map_or(text.len(), |&(_, e)| e);
        let chunk = &text[at..end];
        if !chunk.trim().is_empty() {
            chunks.push((line, chunk));
        }
    }
    chunks
}

/// One record of a record file, whose first line is line `first` (0-based)
/// of its file: replayed from its header's start (else the game's), with
/// the file's line numbers in the replay's messages.
fn read_record<G: Game>(
    game: &G,
    first: usize,
    chunk: &str,
) -> Result<ReadGame<G::State>, RecordProblem> {
    if let Some(tag) = header_game(chunk) {
        let own = ShardGame::of(game);
        if tag != own.to_string() {
            return Err(RecordProblem::OtherGame {
                found: tag.to_string(),
                expected: own.to_string(),
            });
        }
    }
    let start = match header_start(chunk) {
        Some(t) => game.parse_state(t).map_err(RecordProblem::BadStart)?,
        None => game.start(),
    };
    // Blank lines before the record keep the replay's line numbers those
    // of the file (every record reader skips blank lines).
    let padded = format!("{}{chunk}", "\n".repeat(first));
    let r = game
        .replay_record(start, &padded)
        .map_err(RecordProblem::Replay)?;
    finish(r, header_result(chunk), first + 1)
}

/// A replayed game with the result its record states (an export header's
/// plies, result and termination), checked against the rules.
fn finish<S: game::GameState>(
    r: RecordReplay<S>,
    stated: Option<(usize, Option<game::GameResult>, Termination)>,
    line: usize,
) -> Result<ReadGame<S>, RecordProblem> {
    let plies = r.history.moves().len();
    if plies == 0 {
        return Err(RecordProblem::NoMoves);
    }
    let mut outcome = r.outcome;
    if let Some((n, result, termination)) = stated {
        if n != plies {
            return Err(RecordProblem::Plies {
                said: n,
                found: plies,
            });
        }
        let said = result.map(|result| Outcome {
            result,
            termination,
        });
        match (outcome, said) {
            (Some(o), Some(s)) if o != s => {
                return Err(RecordProblem::OutcomeDiffers { said: s, found: o })
            }
            (Some(o), None) => return Err(RecordProblem::Unfinished { found: o }),
            // A result the rules do not give (max-length, adjudication,
            // resignation): the record's.
            (None, Some(s)) => outcome = Some(s),
            _ => {}
        }
    }
    Ok(ReadGame {
        history: r.history,
        outcome,
        line,
        warnings: r.warnings,
    })
}
