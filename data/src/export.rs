//! A game of the shards written out in its own record notation (`triad
//! data export`), and such a record read back (`triad replay`): finding the
//! game's rows by id, the header naming the game and its start, the text.

use std::fmt;
use std::path::PathBuf;

use game::{Game, Termination};

use crate::reader::{ShardFile, ShardReader};
use crate::record::GameRecord;

/// Why a game could not be taken out of a set of shards.
#[derive(Debug, Clone, thiserror::Error)]
pub enum FindGameError {
    /// A shard could not be read (the error names it).
    #[error(transparent)]
    Read(#[from] crate::DataError),
    /// The id is in several shards (shards of two runs): the id and the
    /// paths.
    #[error(
        "game {id} is in {count} shards ({list}): the ids of these shards collide; give the one shard to export from",
        id = .0,
        count = .1.len(),
        list = .1.join(", ")
    )]
    Collision(u64, Vec<String>),
    /// No shard holds the id: the id and how many shards were searched.
    #[error("game {0} not found in {1} shard(s)")]
    NotFound(u64, usize),
    /// The game's rows do not make a game: its shard and what is wrong.
    #[error("{}: {source}", shard.display())]
    Rows {
        shard: PathBuf,
        source: Box<crate::RecordError>,
    },
}

/// The game `id` of `shards` and the shard that holds it. A game is written
/// whole into one shard: the same id in two shards is two games (shards of
/// two runs), never one to merge, and is refused.
pub fn find_game(shards: &[ShardFile], id: u64) -> Result<(GameRecord, PathBuf), FindGameError> {
    let mut rows = Vec::new();
    let mut found_in: Vec<&ShardFile> = Vec::new();
    for shard in shards {
        let reader = ShardReader::open(&shard.path)?;
        let found = reader.read_records()?;
        let before = rows.len();
        rows.extend(found.into_iter().filter(|r| r.game_id == id));
        if rows.len() > before {
            found_in.push(shard);
        }
    }
    if found_in.len() > 1 {
        return Err(FindGameError::Collision(
            id,
            found_in
                .iter()
                .map(|s| s.path.display().to_string())
                .collect(),
        ));
    }
    let Some(shard) = found_in.first() else {
        return Err(FindGameError::NotFound(id, shards.len()));
    };
    let record = GameRecord::from_rows(rows).map_err(|source| FindGameError::Rows {
        shard: shard.path.clone(),
        source: Box::new(source),
    })?;
    Ok((record, shard.path.clone()))
}

/// The `NAME/VARIANT` of an exported record's first line, `Game N (P plies,
/// NAME/VARIANT): ...` (as [`GameRecord::header`] writes it).
pub fn header_game(text: &str) -> Option<String> {
    let first = text.lines().next()?.strip_prefix("Game ")?;
    let inside = first.split_once('(')?.1.split_once(')')?.0;
    let tag = inside.split_once(", ")?.1.trim();
    (!tag.is_empty()).then(|| tag.to_string())
}

/// What an exported record's first line says of the game (as
/// [`GameRecord::header`] writes it): its plies, its result (`None`:
/// unfinished) and how it ended. `None` when the line is not such a header.
pub fn header_result(text: &str) -> Option<(usize, Option<game::GameResult>, Termination)> {
    let first = text.lines().next()?.strip_prefix("Game ")?;
    let (inside, after) = first.split_once('(')?.1.split_once(')')?;
    let plies = inside.split_once(" plies")?.0.trim().parse().ok()?;
    let mut words = after.strip_prefix(':')?.split_whitespace();
    let result = crate::record::parse_result(words.next()?)?;
    let termination = Termination::parse(words.next()?)?;
    Some((plies, result, termination))
}

/// The start position of an exported record's header (`Start TEXT`, in the
/// first few lines, before the moves).
pub fn header_start(text: &str) -> Option<&str> {
    text.lines()
        .take(4)
        .find_map(|l| l.strip_prefix("Start "))
        .map(str::trim)
}

/// Why a record could not be replayed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplayError {
    /// The start position's text is not a position of the game.
    Start(game::GameError),
    /// A move of the record is illegal or cannot be read.
    Record(game::GameError),
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Start(e) | ReplayError::Record(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ReplayError {}

/// Replays a game record in `game`'s own notation (`triad replay`) from
/// `start` (a position's text), else the record header's `Start` line, else
/// the game's start position.
pub fn replay_record<G: Game>(
    game: &G,
    text: &str,
    start: Option<&str>,
) -> Result<game::RecordReplay<G::State>, ReplayError> {
    let start = match start.or_else(|| header_start(text)) {
        Some(t) => game.parse_state(t).map_err(ReplayError::Start)?,
        None => game.start(),
    };
    game.replay_record(start, text).map_err(ReplayError::Record)
}

/// A replayed record as `triad replay --json` prints it: plies, moves,
/// result, termination, final position and the replay's warnings.
pub fn replay_json<S: game::GameState>(r: &game::RecordReplay<S>) -> serde_json::Value {
    serde_json::json!({
        "plies": r.moves.len(),
        "moves": r.moves,
        "result": r.result_str(),
        "termination": r.termination().as_str(),
        "final_tfen": r.history.position().to_text(),
        "warnings": r.warnings,
    })
}

/// A replayed record as `triad replay` prints it: the numbered move pairs,
/// the final position and `result RESULT TERMINATION`, lines ended by `\n`
/// (the warnings are for stderr, not here).
pub fn replay_text<S: game::GameState>(r: &game::RecordReplay<S>) -> String {
    let mut out = String::new();
    for line in r.numbered_pairs() {
        out += &format!("{line}\n");
    }
    out += &format!("{}\n", r.history.position().to_text());
    out += &format!("result {} {}\n", r.result_str(), r.termination());
    out
}

/// A game of the shards in the game's own record notation, after its
/// header (`triad data export`; `triad replay` reads it back).
pub fn export_text<G: Game>(game: &G, record: &GameRecord) -> Result<String, crate::RecordError> {
    let history = record.replay(game)?;
    let resigned = record.termination() == Termination::Resignation;
    Ok(format!(
        "{}\n{}",
        record.header(),
        game.record_text(&history, resigned)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_names_the_game_and_the_start() {
        let text = "Game 7 (12 plies, connect4/7x6): 1-0 line\nModel m, no search, seed 1, selfplay\nStart 44\n\n1)\t4,\t4;\n";
        assert_eq!(header_game(text).as_deref(), Some("connect4/7x6"));
        assert_eq!(
            header_result(text),
            Some((12, Some(game::GameResult::WhiteWin), Termination::Line))
        );
        assert_eq!(header_result("1) d2-d4, d7-d5;\n"), None);
        assert_eq!(header_start(text), Some("44"));
        assert_eq!(header_game("1) d2-d4, d7-d5;\n"), None);
        assert_eq!(header_start("1) d2-d4, d7-d5;\n"), None);
    }
}
