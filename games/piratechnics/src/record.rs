//! Game records in the inventor's format (like
//! `shared/spec/games/sample-game-1.txt`, RULES.md §9.2): numbered lines
//! `N) WHITE, BLACK;` and header lines without a number. Analysis lines are
//! skipped: a line whose first word is `if`, `then`, `and` or `or`, and a
//! line that puts `if` after its move number (`30)  if  d7K x c7P;`). Words
//! after a move that are not suffixes are a comment (`d1K-c1 forced`), kept
//! with the move and reported as a warning by [`replay`].

use crate::moves::Move;
use crate::notation::Marks;
use crate::outcome::{outcome_of, Game, GameResult, Outcome, Termination};
use crate::position::Position;
use crate::types::{Color, Square};
use std::fmt;

/// One entry of a record: a move's text or a resignation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordItem {
    Move {
        /// 1-based line number in the file.
        line: usize,
        text: String,
    },
    Resigns {
        line: usize,
    },
}

/// The first word of `s`, in lower case (`If` in `If 33)`).
fn first_word(s: &str) -> String {
    s.trim_start()
        .chars()
        .take_while(|c| c.is_alphabetic())
        .collect::<String>()
        .to_lowercase()
}

/// Whether `part` begins with a cell, as every move does.
fn starts_with_cell(part: &str) -> bool {
    part.get(..2).and_then(Square::parse).is_some()
}

/// Reads the move texts of a record, in order. A move's text keeps what is
/// written after it up to the next `,` or `;`, and further parts that do
/// not begin with a cell (`d2<KN>-b1, illegal move because ...`): they are
/// its comment, not moves.
pub fn parse_record(text: &str) -> Vec<RecordItem> {
    let mut items = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if matches!(first_word(line).as_str(), "if" | "then" | "and" | "or") {
            continue; // analysis: `if 33) d2K-d1, then ...`
        }
        let digits = line.chars().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 || !line[digits..].starts_with(')') {
            continue; // header or comment
        }
        let body = &line[digits + 1..];
        if first_word(body) == "if" {
            continue; // analysis after the move number: `30)  if  d7K x c7P;`
        }
        // The item index and start (in `body`) of the line's last move.
        let mut last_move: Option<(usize, usize)> = None;
        let mut start = 0;
        let ends = body.match_indices([',', ';']).map(|(at, _)| at);
        for end in ends.chain([body.len()]) {
            let part_start = start;
            let part = body[start..end].trim();
            start = end + 1;
            if part.is_empty() {
                continue;
            }
            let lower = part.trim_end_matches('.').to_ascii_lowercase();
            if lower == "resigns" || lower == "resign" || lower == "resigned" {
                items.push(RecordItem::Resigns { line: i + 1 });
                last_move = None;
                continue;
            }
            if let (false, Some((k, from))) = (starts_with_cell(part), last_move) {
                // A comment after a `,`: part of the move before it.
                if let RecordItem::Move { text, .. } = &mut items[k] {
                    *text = body[from..end].trim().to_string();
                }
                continue;
            }
            last_move = Some((items.len(), part_start));
            items.push(RecordItem::Move {
                line: i + 1,
                text: part.to_string(),
            });
        }
    }
    items
}

/// A ply of a replayed game.
#[derive(Debug, Clone)]
pub struct ReplayedPly {
    pub text: String,
    pub mv: Move,
    /// Canonical text with `+` for check and `#` for mate.
    pub canonical: String,
    pub check: bool,
    pub mate: bool,
    pub marks: Marks,
}

/// A replayed record.
#[derive(Debug, Clone)]
pub struct Replay {
    pub plies: Vec<ReplayedPly>,
    pub game: Game,
    pub outcome: Option<Outcome>,
    pub warnings: Vec<String>,
}

impl Replay {
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn result_str(&self) -> &'static str {
        self.outcome.map_or("*", |o| o.result.as_str())
    }
    pub fn termination(&self) -> Termination {
        self.outcome
            .map_or(Termination::Unfinished, |o| o.termination)
    }
}

/// An illegal or unreadable move in a record.
#[derive(Debug, Clone)]
pub struct ReplayError {
    pub ply: usize,
    pub line: usize,
    pub text: String,
    pub reason: String,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ply {} (line {}) \"{}\": {}",
            self.ply,
            self.line,
            game::clip(&self.text, 80),
            game::clip(&self.reason, 200)
        )
    }
}
impl std::error::Error for ReplayError {}

/// The longest comment after a move (in characters): the inventor's are a
/// few words (`forced`, `illegal move because ...`); more is not a record
/// (a 10 MB token after a move was once taken for a comment and echoed
/// whole), and [`replay`] refuses it as a move that cannot be read.
pub const MAX_COMMENT_CHARS: usize = 1000;

/// Replays a record from `start`, checking every move and comparing the
/// record's check and mate marks with the rules (disagreements are warnings).
pub fn replay(start: Position, record: &str) -> Result<Replay, ReplayError> {
    let mut game = Game::new(start);
    let mut plies = Vec::new();
    let mut warnings = Vec::new();
    let mut outcome = None;
    for item in parse_record(record) {
        let ply = game.ply() + 1;
        let (line, text) = match item {
            RecordItem::Resigns { line } => {
                if outcome.is_none() {
                    let loser = game.position().side();
                    outcome = Some(Outcome {
                        result: GameResult::win_for(!loser),
                        termination: Termination::Resignation,
                    });
                } else {
                    warnings.push(format!("line {line}: resignation after the game ended"));
                }
                continue;
            }
            RecordItem::Move { line, text } => (line, text),
        };
        if let Some(o) = outcome {
            return Err(ReplayError {
                ply,
                line,
                text,
                reason: format!("the game is already over ({})", o.termination),
            });
        }
        plies.push(play_ply(&mut game, (ply, line), text, &mut warnings)?);
        if let Some(o) = outcome_of(game.position(), game.repetition_count()) {
            outcome = Some(o);
        }
    }
    Ok(Replay {
        plies,
        game,
        outcome,
        warnings,
    })
}

/// Plays the move `text` of the record's `line` (the game's `ply`) on
/// `game`: refused when it does not read or is not legal, or when what
/// follows it is too long for a comment; a shorter comment, or check and
/// mate marks that disagree with the position, are `warnings`.
fn play_ply(
    game: &mut Game,
    (ply, line): (usize, usize),
    text: String,
    warnings: &mut Vec<String>,
) -> Result<ReplayedPly, ReplayError> {
    let pos = game.position().clone();
    let (mv, marks) = pos.parse_inventor(&text).map_err(|e| ReplayError {
        ply,
        line,
        text: text.clone(),
        reason: e.reason.to_string(),
    })?;
    let mover = if pos.side() == Color::White {
        "White"
    } else {
        "Black"
    };
    if let Some(comment) = &marks.comment {
        let chars = comment.chars().count();
        if chars > MAX_COMMENT_CHARS {
            return Err(ReplayError {
                ply,
                line,
                text,
                reason: format!(
                    "{chars} characters after the move are not a comment (at most {MAX_COMMENT_CHARS})"
                ),
            });
        }
        warnings.push(format!(
            "ply {ply} (line {line}) {mover} \"{}\": \"{}\" is not a move or a suffix: kept as a comment",
            game::clip(text.trim(), 80),
            game::clip(comment, 80)
        ));
    }
    game.play(mv);
    let after = game.position();
    let check = after.in_check();
    let mate = check && !after.has_legal_move();
    let mut canonical = pos.move_to_text(mv);
    if mate {
        canonical.push('#');
    } else if check {
        canonical.push('+');
    }
    let said = check_word(marks.check, marks.mate);
    let is = check_word(check, mate);
    if said != is {
        warnings.push(format!(
            "ply {ply} (line {line}) {mover} \"{}\": the record marks {said}, the position has {is}",
            game::clip(text.trim(), 80)
        ));
    }
    Ok(ReplayedPly {
        text,
        mv,
        canonical,
        check,
        mate,
        marks,
    })
}

/// What a record's marks, or the position, say of a move: `mate`, `check`
/// or `no check`.
fn check_word(check: bool, mate: bool) -> &'static str {
    if mate {
        "mate"
    } else if check {
        "check"
    } else {
        "no check"
    }
}

/// The moves of a game in the inventor's format, with check (`*`) and mate
/// (`**`) marks: a `White`/`Black` column line, then numbered lines
/// `N)\tWHITE,\t\tBLACK;` (numbering from `start`'s full-move number), and
/// `resigns.` for the side to move after the last move when `resigned`.
/// [`replay`] reads it back; a header of non-numbered lines (such as
/// `data::GameRecord::header`) may precede it. `moves` must be legal.
pub fn write_record(start: &Position, moves: &[Move], resigned: bool) -> String {
    let first = start.fullmove().max(1) as usize;
    game::write_numbered(start, moves, first, resigned, |before, m, after| {
        let mut text = before.move_to_inventor(m);
        if after.in_check() {
            text.push_str(if !after.has_legal_move() { " **" } else { " *" });
        }
        text
    })
}
