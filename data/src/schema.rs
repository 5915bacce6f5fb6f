//! The shard schema (version 2). `docs/data.md` documents every column and
//! the differences from version 1; keep the two in step and bump
//! [`SCHEMA_VERSION`] on any incompatible change.
//!
//! Version 1 shards (PiRaTeKnIcS only, before the game boundary) are still
//! read: the reader upgrades their batches to the version 2 layout (see
//! `reader.rs` and `docs/data.md`).

use std::sync::Arc;

use arrow_schema::{DataType, Field, Schema, SchemaRef};

/// Version of the column layout written, stored in the file's key-value
/// metadata under [`SCHEMA_VERSION_KEY`]. Readers refuse a file with a
/// newer version or one older than [`OLDEST_SCHEMA_VERSION`].
pub const SCHEMA_VERSION: u32 = 2;
/// The oldest version the reader still reads (upgrading it on the fly).
pub const OLDEST_SCHEMA_VERSION: u32 = 1;
/// Key of the schema version in the Parquet key-value metadata.
pub const SCHEMA_VERSION_KEY: &str = "triad.schema_version";
/// Key naming the program that wrote the file.
pub const WRITER_KEY: &str = "triad.writer";
/// Key of the game's registry name (`game::Game::NAME`), the same as every
/// row's `game` column (version 2).
pub const GAME_KEY: &str = "triad.game";
/// Key of the game's variant, the same as every row's `variant` column
/// (version 2).
pub const VARIANT_KEY: &str = "triad.variant";
/// Key of the ply cap its writer stopped games at (self-play's `[selfplay]
/// max_plies`, a match's `max_plies`): a game the rules did not end whose
/// termination is `max-length` or `adjudication` is exactly this long
/// (`triad data verify` checks it). Absent from shards written before it
/// existed and from imported ones.
pub const MAX_PLIES_KEY: &str = "triad.max_plies";

/// The game of every version 1 shard (they had no `game` column).
pub const V1_GAME: &str = "piratechnics";
/// The variant of every version 1 shard (they had no `variant` column).
pub const V1_VARIANT: &str = "standard";

/// Column names, in file order (version 2).
pub mod col {
    pub const GAME: &str = "game";
    pub const VARIANT: &str = "variant";
    pub const GAME_ID: &str = "game_id";
    pub const PLY: &str = "ply";
    pub const SIDE_TO_MOVE: &str = "side_to_move";
    pub const POSITION: &str = "position";
    pub const REPETITIONS: &str = "repetitions";
    pub const POSITION_HASH: &str = "position_hash";
    pub const LEGAL_MOVES: &str = "legal_moves";
    pub const VISITS: &str = "visits";
    pub const POLICY_TARGET: &str = "policy_target";
    pub const ROOT_VALUE: &str = "root_value";
    pub const ROOT_WIN: &str = "root_win";
    pub const ROOT_DRAW: &str = "root_draw";
    pub const ROOT_LOSS: &str = "root_loss";
    pub const CHOSEN_MOVE: &str = "chosen_move";
    pub const RESULT: &str = "result";
    pub const TERMINATION: &str = "termination";
    pub const GAME_LENGTH: &str = "game_length";
    pub const SOURCE: &str = "source";
    pub const MODEL_ID: &str = "model_id";
    pub const SIMULATIONS: &str = "simulations";
    pub const TEMPERATURE: &str = "temperature";
    pub const FULL_SEARCH: &str = "full_search";
    pub const SEED: &str = "seed";

    /// Version 1's name of [`POSITION`].
    pub const V1_TFEN: &str = "tfen";
}

/// Every column of version 2, in file order.
pub const ALL_COLUMNS: [&str; 25] = [
    col::GAME,
    col::VARIANT,
    col::GAME_ID,
    col::PLY,
    col::SIDE_TO_MOVE,
    col::POSITION,
    col::REPETITIONS,
    col::POSITION_HASH,
    col::LEGAL_MOVES,
    col::VISITS,
    col::POLICY_TARGET,
    col::ROOT_VALUE,
    col::ROOT_WIN,
    col::ROOT_DRAW,
    col::ROOT_LOSS,
    col::CHOSEN_MOVE,
    col::RESULT,
    col::TERMINATION,
    col::GAME_LENGTH,
    col::SOURCE,
    col::MODEL_ID,
    col::SIMULATIONS,
    col::TEMPERATURE,
    col::FULL_SEARCH,
    col::SEED,
];

/// The columns that hold search statistics: null on rows where no search
/// ran (e.g. a match move of a random or alpha-beta player).
pub const SEARCH_COLUMNS: [&str; 7] = [
    col::VISITS,
    col::POLICY_TARGET,
    col::ROOT_VALUE,
    col::ROOT_WIN,
    col::ROOT_DRAW,
    col::ROOT_LOSS,
    col::SIMULATIONS,
];

/// Game results as stored in the `result` column (`*`: unfinished).
pub const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];
/// The `result` text of an unfinished game.
pub const UNFINISHED_RESULT: &str = "*";
/// Ways a game ends, as stored in the `termination` column
/// (`game::Termination::as_str`).
pub const TERMINATIONS: [&str; 12] = [
    "checkmate",
    "stalemate",
    "repetition",
    "no-capture",
    "resignation",
    "max-length",
    "adjudication",
    "line",
    "board-full",
    "elimination",
    "no-moves",
    "unfinished",
];
/// Where a game came from, as stored in the `source` column
/// (`data::Source::as_str`).
pub const SOURCES: [&str; 3] = ["selfplay", "match", "imported"];

/// List items are non-null: a legal move always has a code and a count.
pub(crate) fn item(data_type: DataType) -> Arc<Field> {
    Arc::new(Field::new("item", data_type, false))
}

/// The Arrow schema of a shard (version 2).
pub fn arrow_schema() -> SchemaRef {
    use col::*;
    Arc::new(Schema::new(vec![
        Field::new(GAME, DataType::Utf8, false),
        Field::new(VARIANT, DataType::Utf8, false),
        Field::new(GAME_ID, DataType::UInt64, false),
        Field::new(PLY, DataType::UInt32, false),
        Field::new(SIDE_TO_MOVE, DataType::Utf8, false),
        Field::new(POSITION, DataType::Utf8, false),
        Field::new(REPETITIONS, DataType::UInt32, true),
        Field::new(POSITION_HASH, DataType::UInt64, false),
        Field::new(LEGAL_MOVES, DataType::List(item(DataType::UInt32)), false),
        Field::new(VISITS, DataType::List(item(DataType::UInt32)), true),
        Field::new(POLICY_TARGET, DataType::List(item(DataType::Float32)), true),
        Field::new(ROOT_VALUE, DataType::Float32, true),
        Field::new(ROOT_WIN, DataType::Float32, true),
        Field::new(ROOT_DRAW, DataType::Float32, true),
        Field::new(ROOT_LOSS, DataType::Float32, true),
        Field::new(CHOSEN_MOVE, DataType::UInt32, false),
        Field::new(RESULT, DataType::Utf8, false),
        Field::new(TERMINATION, DataType::Utf8, false),
        Field::new(GAME_LENGTH, DataType::UInt32, false),
        Field::new(SOURCE, DataType::Utf8, false),
        Field::new(MODEL_ID, DataType::Utf8, false),
        Field::new(SIMULATIONS, DataType::UInt32, true),
        Field::new(TEMPERATURE, DataType::Float32, false),
        Field::new(FULL_SEARCH, DataType::Boolean, false),
        Field::new(SEED, DataType::UInt64, false),
    ]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stored names are exactly the boundary's terminations.
    #[test]
    fn terminations_are_the_boundarys() {
        let names: Vec<&str> = game::Termination::ALL.iter().map(|t| t.as_str()).collect();
        assert_eq!(names, TERMINATIONS);
    }
}
