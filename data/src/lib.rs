//! Game data in Parquet: the shard schema, a writer and a reader, the replay
//! window that feeds the trainer, the check of shards against their game's
//! rules (`verify`), and dataset statistics (summary, opening
//! tree). The schema (version 2; version 1 is still read) is documented in
//! `docs/data.md`.
//!
//! Nothing here knows a particular game: rows carry their game's name,
//! variant, position text and `u32` move codes, and whatever needs the
//! rules (replaying a game, symmetries, the opening tree, synthetic games)
//! is generic over `game::Game`.

mod error;
pub mod explore;
mod export;
pub mod import;
pub mod layout;
pub mod openings;
mod reader;
mod record;
pub mod sample;
pub mod schema;
pub mod summary;
pub mod synthetic;
pub mod verify;
mod window;
mod writer;

pub use error::{BatchError, ColumnError, DataError, RecordError, RowFault, RowProblem};
pub use export::{
    export_text, find_game, header_game, header_result, header_start, replay_json, replay_record,
    replay_text, FindGameError, ReplayError,
};
pub use reader::{
    check_shards, common_game, count_rows, decode_records, list_mix_shards, list_shards,
    list_shards_in, read_shard, shard_game, Columns, Generations, GenerationsError, ShardFile,
    ShardReader,
};
pub use record::{
    group_games, parse_result, result_str, GameRecord, PositionRecord, ShardGame, Source,
};
pub use schema::{arrow_schema, OLDEST_SCHEMA_VERSION, SCHEMA_VERSION};
pub use window::{Batch, Prefetch, ReplayWindow, SplitMix64, WindowOptions};
pub use writer::{ShardOptions, ShardSummary, ShardWriter, TMP_SUFFIX};

/// Re-exported so callers can use the batches of [`ShardReader::read_columns`].
pub use arrow_array;
