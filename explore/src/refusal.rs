//! Why the explorer refused a request: each variant a mistake the page
//! (or a client) can fix, answered as HTTP 400 with `{"error": MESSAGE}`
//! (the wire format keeps the message, one line), or, for the two
//! `Internal` cases, a fault of the server's own.

use std::path::PathBuf;

/// A request the explorer refused, with what was wrong.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// `line`: a move code that is not a number.
    #[error("line: {text:?} is not a move code")]
    MoveCode { text: String },
    /// `start`: an index past the start positions.
    #[error("start: no start position {start}")]
    NoStart { start: u32 },
    /// A start position the game cannot read.
    #[error("start position: {source}")]
    StartPosition {
        #[source]
        source: game::GameError,
    },
    /// `line`: a move that is not legal where it is played.
    #[error("line: move {ply} (code {code}) is not legal there")]
    IllegalCode { ply: usize, code: u32 },
    /// `by`: neither `position` nor `line`.
    #[error("by: {value:?} is not `position` or `line`")]
    By { value: String },
    /// `marks`: neither `share`, `prior` nor `none`.
    #[error("marks: {value:?} is not share, prior or none")]
    Marks { value: String },
    /// `game`: an index past the games.
    #[error("game: no game {index}")]
    NoGame { index: u32 },
    /// A shard that cannot be read.
    #[error(transparent)]
    Shard(#[from] data::DataError),
    /// A shard's row whose position the game refuses.
    #[error("{}: game {game_id} ply {ply}: {source}", path.display())]
    Row {
        path: PathBuf,
        game_id: u64,
        ply: u32,
        #[source]
        source: game::GameError,
    },
    /// `position`: a position text the game refuses.
    #[error("position: {source}")]
    Position {
        #[source]
        source: game::GameError,
    },
    /// `moves`: a move the game refuses.
    #[error("moves: {source}")]
    Moves {
        #[source]
        source: game::GameError,
    },
    /// `moves`: not a JSON list of texts.
    #[error("moves: not a JSON list of move texts ({source})")]
    MovesJson {
        #[source]
        source: serde_json::Error,
    },
    /// `player`: a spec that does not parse or a player that cannot be
    /// seated.
    #[error("player: {reason}")]
    Player { reason: String },
    /// `player`: a `net:` player that is not one of the networks offered
    /// by name (a path, when paths are not accepted).
    #[error(
        "player: {given:?} is not a network offered here; net: takes one of these names: {allowed}"
    )]
    NetName { given: String, allowed: String },
    /// A move asked of a finished game.
    #[error("the game is over ({result} {termination}): {what}")]
    Over {
        result: String,
        termination: String,
        /// What there is not to do (`there is no move to reply`,
        /// `nothing to analyse`).
        what: &'static str,
    },
    /// `visits`: out of range.
    #[error("visits: {value} is not in 1..={max}")]
    Visits { value: u32, max: u32 },
    /// `every`: out of range.
    #[error("every: {value} is not seconds in {min}..=60")]
    Every { value: f64, min: f64 },
    /// A save of a game with no move.
    #[error("nothing to save: no move has been played")]
    NothingToSave,
    /// A game record that cannot be written as text.
    #[error("the record: {source}")]
    Record {
        #[source]
        source: data::RecordError,
    },
    /// The folder of saved games cannot be made.
    #[error("cannot create the games folder {}: {source}", dir.display())]
    GamesFolder {
        dir: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A saved game's file cannot be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The analysis engine cannot seat the player.
    #[error(transparent)]
    Engine(#[from] analysis::Error),
    /// A request body that is not the JSON asked for.
    #[error("the request body: {text}")]
    Body { text: String },
    /// A query string that is not the one asked for.
    #[error("the query: {text}")]
    Query { text: String },
    /// A fault of the server's own (a worker that panicked, a player that
    /// broke its contract).
    #[error("internal error: {what}")]
    Internal { what: String },
}
