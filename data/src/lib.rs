//! Game data in Parquet: the shard schema, a writer and a reader, the replay
//! window that feeds the trainer, and dataset statistics (summary, opening
//! tree). The schema is documented in `docs/data.md`.

pub mod chart;
mod error;
pub mod openings;
mod reader;
mod record;
pub mod schema;
pub mod summary;
pub mod synthetic;
mod window;
mod writer;

pub use error::DataError;
pub use reader::{decode_records, list_shards, read_shard, Columns, ShardFile, ShardReader};
pub use record::{group_games, GameRecord, PositionRecord};
pub use schema::{arrow_schema, SCHEMA_VERSION};
pub use window::{Batch, Prefetch, ReplayWindow, SplitMix64, WindowOptions};
pub use writer::{ShardOptions, ShardSummary, ShardWriter, TMP_SUFFIX};

/// Re-exported so callers can use the batches of [`ShardReader::read_columns`].
pub use arrow_array;
