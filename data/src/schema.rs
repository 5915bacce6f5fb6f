//! The shard schema (version 1). `docs/data.md` documents every column; keep
//! the two in step and bump [`SCHEMA_VERSION`] on any incompatible change.

use std::sync::Arc;

use arrow_schema::{DataType, Field, Schema, SchemaRef};

/// Version of the column layout, stored in the file's key-value metadata
/// under [`SCHEMA_VERSION_KEY`]. Readers refuse a file with a newer version.
pub const SCHEMA_VERSION: u32 = 1;
/// Key of the schema version in the Parquet key-value metadata.
pub const SCHEMA_VERSION_KEY: &str = "triad.schema_version";
/// Key naming the program that wrote the file.
pub const WRITER_KEY: &str = "triad.writer";

/// Column names, in file order.
pub mod col {
    pub const GAME_ID: &str = "game_id";
    pub const PLY: &str = "ply";
    pub const SIDE_TO_MOVE: &str = "side_to_move";
    pub const TFEN: &str = "tfen";
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
    pub const MODEL_ID: &str = "model_id";
    pub const SIMULATIONS: &str = "simulations";
    pub const TEMPERATURE: &str = "temperature";
    pub const FULL_SEARCH: &str = "full_search";
    pub const SEED: &str = "seed";
}

/// Game results as stored in the `result` column.
pub const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];
/// Ways a game ends, as stored in the `termination` column.
pub const TERMINATIONS: [&str; 8] = [
    "checkmate",
    "stalemate",
    "repetition",
    "no-capture",
    "resignation",
    "max-length",
    "adjudication",
    "unfinished",
];

/// List items are non-null: a legal move always has a code and a count.
pub(crate) fn item(data_type: DataType) -> Arc<Field> {
    Arc::new(Field::new("item", data_type, false))
}

/// The Arrow schema of a shard.
pub fn arrow_schema() -> SchemaRef {
    use col::*;
    Arc::new(Schema::new(vec![
        Field::new(GAME_ID, DataType::UInt64, false),
        Field::new(PLY, DataType::UInt32, false),
        Field::new(SIDE_TO_MOVE, DataType::Utf8, false),
        Field::new(TFEN, DataType::Utf8, false),
        Field::new(POSITION_HASH, DataType::UInt64, false),
        Field::new(LEGAL_MOVES, DataType::List(item(DataType::UInt32)), false),
        Field::new(VISITS, DataType::List(item(DataType::UInt32)), false),
        Field::new(POLICY_TARGET, DataType::List(item(DataType::Float32)), true),
        Field::new(ROOT_VALUE, DataType::Float32, false),
        Field::new(ROOT_WIN, DataType::Float32, false),
        Field::new(ROOT_DRAW, DataType::Float32, false),
        Field::new(ROOT_LOSS, DataType::Float32, false),
        Field::new(CHOSEN_MOVE, DataType::UInt32, false),
        Field::new(RESULT, DataType::Utf8, false),
        Field::new(TERMINATION, DataType::Utf8, false),
        Field::new(GAME_LENGTH, DataType::UInt32, false),
        Field::new(MODEL_ID, DataType::Utf8, false),
        Field::new(SIMULATIONS, DataType::UInt32, false),
        Field::new(TEMPERATURE, DataType::Float32, false),
        Field::new(FULL_SEARCH, DataType::Boolean, false),
        Field::new(SEED, DataType::UInt64, false),
    ]))
}
