//! The shard writer: Parquet, zstd, written under `NAME.tmp` and renamed to
//! `NAME` by [`ShardWriter::finish`], so a reader never sees half a file.
//! One shard holds one game and variant: the writer refuses a row of
//! another, and records the game in the file's metadata.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, Float32Builder, ListBuilder, StringBuilder, UInt32Builder, UInt64Builder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{DataType, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;

use game::Color;

use crate::error::DataError;
use crate::record::{result_str, PositionRecord, ShardGame};
use crate::schema::{
    arrow_schema, item, GAME_KEY, SCHEMA_VERSION, SCHEMA_VERSION_KEY, VARIANT_KEY, WRITER_KEY,
};

/// Suffix of a shard that is still being written. Readers skip such files.
pub const TMP_SUFFIX: &str = ".tmp";

/// Writer settings. The defaults suit self-play shards of 10^4–10^6 rows.
#[derive(Debug, Clone)]
pub struct ShardOptions {
    /// Rows per row group (default 65 536: large enough for good compression
    /// and fast scans, small enough that a reader can skip by row group).
    pub row_group_rows: usize,
    /// zstd level (default 3: most of the size gain at a fraction of the time of higher levels).
    pub zstd_level: i32,
    /// Extra key-value metadata to store in the file (e.g. run name).
    pub metadata: Vec<(String, String)>,
    /// The shard's game and variant, known before the first row (then even
    /// an empty shard records it). `None`: the first row's.
    pub game: Option<ShardGame>,
}

impl Default for ShardOptions {
    fn default() -> Self {
        ShardOptions {
            row_group_rows: 65_536,
            zstd_level: 3,
            metadata: Vec::new(),
            game: None,
        }
    }
}

/// Rows buffered before they are handed to the Parquet writer as one batch.
const BATCH_ROWS: usize = 8192;

/// Column builders for one batch of rows.
struct Builders {
    game: StringBuilder,
    variant: StringBuilder,
    game_id: UInt64Builder,
    ply: UInt32Builder,
    side: StringBuilder,
    position: StringBuilder,
    repetitions: UInt32Builder,
    hash: UInt64Builder,
    legal: ListBuilder<UInt32Builder>,
    visits: ListBuilder<UInt32Builder>,
    policy: ListBuilder<Float32Builder>,
    value: Float32Builder,
    win: Float32Builder,
    draw: Float32Builder,
    loss: Float32Builder,
    chosen: UInt32Builder,
    result: StringBuilder,
    termination: StringBuilder,
    length: UInt32Builder,
    source: StringBuilder,
    model: StringBuilder,
    sims: UInt32Builder,
    temperature: Float32Builder,
    full: BooleanBuilder,
    seed: UInt64Builder,
    rows: usize,
}

impl Builders {
    fn new() -> Builders {
        Builders {
            game: StringBuilder::new(),
            variant: StringBuilder::new(),
            game_id: UInt64Builder::new(),
            ply: UInt32Builder::new(),
            side: StringBuilder::new(),
            position: StringBuilder::new(),
            repetitions: UInt32Builder::new(),
            hash: UInt64Builder::new(),
            legal: ListBuilder::new(UInt32Builder::new()).with_field(item(DataType::UInt32)),
            visits: ListBuilder::new(UInt32Builder::new()).with_field(item(DataType::UInt32)),
            policy: ListBuilder::new(Float32Builder::new()).with_field(item(DataType::Float32)),
            value: Float32Builder::new(),
            win: Float32Builder::new(),
            draw: Float32Builder::new(),
            loss: Float32Builder::new(),
            chosen: UInt32Builder::new(),
            result: StringBuilder::new(),
            termination: StringBuilder::new(),
            length: UInt32Builder::new(),
            source: StringBuilder::new(),
            model: StringBuilder::new(),
            sims: UInt32Builder::new(),
            temperature: Float32Builder::new(),
            full: BooleanBuilder::new(),
            seed: UInt64Builder::new(),
            rows: 0,
        }
    }

    fn push(&mut self, r: &PositionRecord) {
        self.game.append_value(&*r.game);
        self.variant.append_value(&*r.variant);
        self.game_id.append_value(r.game_id);
        self.ply.append_value(r.ply);
        self.side.append_value(match r.side_to_move {
            Color::White => "w",
            Color::Black => "b",
        });
        self.position.append_value(&r.position);
        self.repetitions.append_option(r.repetitions);
        self.hash.append_value(r.position_hash);
        self.legal.values().append_slice(&r.legal_moves);
        self.legal.append(true);
        match &r.visits {
            Some(v) => {
                self.visits.values().append_slice(v);
                self.visits.append(true);
            }
            None => self.visits.append(false),
        }
        match &r.policy_target {
            Some(p) => {
                self.policy.values().append_slice(p);
                self.policy.append(true);
            }
            None => self.policy.append(false),
        }
        self.value.append_option(r.root_value);
        self.win.append_option(r.root_wdl.map(|w| w[0]));
        self.draw.append_option(r.root_wdl.map(|w| w[1]));
        self.loss.append_option(r.root_wdl.map(|w| w[2]));
        self.chosen.append_value(r.chosen_move);
        self.result.append_value(result_str(r.result));
        self.termination.append_value(r.termination.as_str());
        self.length.append_value(r.game_length);
        self.source.append_value(r.source.as_str());
        self.model.append_value(&r.model_id);
        self.sims.append_option(r.simulations);
        self.temperature.append_value(r.temperature);
        self.full.append_value(r.full_search);
        self.seed.append_value(r.seed);
        self.rows += 1;
    }

    /// Takes the buffered rows as a batch (the builders are reset).
    fn finish(&mut self, schema: &SchemaRef) -> Result<RecordBatch, arrow_schema::ArrowError> {
        self.rows = 0;
        let columns: Vec<ArrayRef> = vec![
            Arc::new(self.game.finish()),
            Arc::new(self.variant.finish()),
            Arc::new(self.game_id.finish()),
            Arc::new(self.ply.finish()),
            Arc::new(self.side.finish()),
            Arc::new(self.position.finish()),
            Arc::new(self.repetitions.finish()),
            Arc::new(self.hash.finish()),
            Arc::new(self.legal.finish()),
            Arc::new(self.visits.finish()),
            Arc::new(self.policy.finish()),
            Arc::new(self.value.finish()),
            Arc::new(self.win.finish()),
            Arc::new(self.draw.finish()),
            Arc::new(self.loss.finish()),
            Arc::new(self.chosen.finish()),
            Arc::new(self.result.finish()),
            Arc::new(self.termination.finish()),
            Arc::new(self.length.finish()),
            Arc::new(self.source.finish()),
            Arc::new(self.model.finish()),
            Arc::new(self.sims.finish()),
            Arc::new(self.temperature.finish()),
            Arc::new(self.full.finish()),
            Arc::new(self.seed.finish()),
        ];
        RecordBatch::try_new(schema.clone(), columns)
    }
}

/// What [`ShardWriter::finish`] produced.
#[derive(Debug, Clone)]
pub struct ShardSummary {
    pub path: PathBuf,
    pub rows: u64,
    pub bytes: u64,
}

/// Writes one shard. Rows go to `PATH.tmp`; `finish` closes the file, syncs
/// it and renames it to `PATH`. Dropping an unfinished writer deletes the
/// temporary file (it has no footer and no reader could use it), and so
/// does a `finish` that fails (a full disk at the footer or the sync).
pub struct ShardWriter {
    path: PathBuf,
    tmp_path: PathBuf,
    /// Set once the shard is renamed into place: the temporary is gone.
    published: bool,
    schema: SchemaRef,
    writer: Option<ArrowWriter<File>>,
    builders: Builders,
    rows: u64,
    /// The shard's game and variant: from the options, else the first row's.
    game: Option<ShardGame>,
}

impl ShardWriter {
    /// Starts a shard at `path` (normally `something.parquet`) with default options.
    pub fn create(path: impl AsRef<Path>) -> Result<ShardWriter, DataError> {
        ShardWriter::with_options(path, &ShardOptions::default())
    }

    /// A writer of games stopped at `max_plies` (recorded under
    /// [`crate::schema::MAX_PLIES_KEY`], so that `data verify` can check
    /// that every game stopped by the cap is that long).
    pub fn create_capped(path: impl AsRef<Path>, max_plies: u32) -> Result<ShardWriter, DataError> {
        let options = ShardOptions {
            metadata: vec![(
                crate::schema::MAX_PLIES_KEY.to_string(),
                max_plies.to_string(),
            )],
            ..ShardOptions::default()
        };
        ShardWriter::with_options(path, &options)
    }

    pub fn with_options(
        path: impl AsRef<Path>,
        options: &ShardOptions,
    ) -> Result<ShardWriter, DataError> {
        let path = path.as_ref().to_path_buf();
        let mut tmp_name = path.as_os_str().to_os_string();
        tmp_name.push(TMP_SUFFIX);
        let tmp_path = PathBuf::from(tmp_name);
        let err = |m: String| DataError::new(&tmp_path, m);
        let reserved = [SCHEMA_VERSION_KEY, WRITER_KEY, GAME_KEY, VARIANT_KEY];
        if let Some((k, _)) = options
            .metadata
            .iter()
            .find(|(k, _)| reserved.contains(&k.as_str()))
        {
            return Err(err(format!("metadata key {k:?} is the writer's own")));
        }
        let level = ZstdLevel::try_new(options.zstd_level)
            .map_err(|e| err(format!("bad zstd level {}: {e}", options.zstd_level)))?;
        let mut kv = vec![
            KeyValue::new(SCHEMA_VERSION_KEY.to_string(), SCHEMA_VERSION.to_string()),
            KeyValue::new(
                WRITER_KEY.to_string(),
                format!("triad data {}", env!("CARGO_PKG_VERSION")),
            ),
        ];
        kv.extend(
            options
                .metadata
                .iter()
                .map(|(k, v)| KeyValue::new(k.clone(), v.clone())),
        );
        let props = WriterProperties::builder()
            .set_compression(Compression::ZSTD(level))
            .set_max_row_group_row_count(Some(options.row_group_rows.max(1)))
            .set_key_value_metadata(Some(kv))
            .build();
        let file = File::create(&tmp_path).map_err(|e| err(format!("cannot create: {e}")))?;
        let schema = arrow_schema();
        let writer = ArrowWriter::try_new(file, schema.clone(), Some(props)).map_err(|e| {
            let _ = std::fs::remove_file(&tmp_path);
            err(format!("cannot start Parquet writer: {e}"))
        })?;
        Ok(ShardWriter {
            path,
            tmp_path,
            published: false,
            schema,
            writer: Some(writer),
            builders: Builders::new(),
            rows: 0,
            game: options.game.clone(),
        })
    }

    /// The shard's game and variant, once known (from the options or the
    /// first row).
    pub fn game(&self) -> Option<&ShardGame> {
        self.game.as_ref()
    }

    /// The final path the shard will have.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Rows pushed so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Appends one row. Rows of a game should be pushed together in ply order
    /// (readers do not require it, but it keeps a game in one row group).
    /// A row that breaks [`PositionRecord::validate`] or is of another game
    /// or variant than the shard's is refused.
    pub fn push(&mut self, record: &PositionRecord) -> Result<(), DataError> {
        record
            .validate()
            .map_err(|e| DataError::caused(&self.tmp_path, e))?;
        match &self.game {
            Some(g) if *g.name == *record.game && *g.variant == *record.variant => {}
            Some(g) => {
                return Err(DataError::new(
                    &self.tmp_path,
                    format!(
                    "game {} ply {} is {}/{}, this shard {g}: one shard holds one game and variant",
                    record.game_id, record.ply, record.game, record.variant
                ),
                ))
            }
            None => self.game = Some(record.shard_game()),
        }
        self.builders.push(record);
        self.rows += 1;
        if self.builders.rows >= BATCH_ROWS {
            self.flush()?;
        }
        Ok(())
    }

    /// Appends every row of a game.
    pub fn push_game(&mut self, game: &crate::GameRecord) -> Result<(), DataError> {
        game.positions.iter().try_for_each(|r| self.push(r))
    }

    fn flush(&mut self) -> Result<(), DataError> {
        if self.builders.rows == 0 {
            return Ok(());
        }
        let batch = self
            .builders
            .finish(&self.schema)
            .map_err(|e| DataError::new(&self.tmp_path, format!("cannot build batch: {e}")))?;
        let writer = self
            .writer
            .as_mut()
            .ok_or_else(|| DataError::new(&self.tmp_path, "writer already closed"))?;
        writer
            .write(&batch)
            .map_err(|e| DataError::new(&self.tmp_path, format!("write failed: {e}")))
    }

    /// Completes the shard: writes the footer, syncs and renames
    /// `PATH.tmp` to `PATH`.
    pub fn finish(mut self) -> Result<ShardSummary, DataError> {
        self.flush()?;
        let mut writer = self
            .writer
            .take()
            .ok_or_else(|| DataError::new(&self.tmp_path, "writer already closed"))?;
        if let Some(g) = &self.game {
            writer.append_key_value_metadata(KeyValue::new(GAME_KEY.to_string(), g.name.clone()));
            writer.append_key_value_metadata(KeyValue::new(
                VARIANT_KEY.to_string(),
                g.variant.clone(),
            ));
        }
        let file = writer
            .into_inner()
            .map_err(|e| DataError::new(&self.tmp_path, format!("cannot close: {e}")))?;
        file.sync_all()
            .map_err(|e| DataError::new(&self.tmp_path, format!("cannot sync: {e}")))?;
        let bytes = file.metadata().map(|m| m.len()).unwrap_or(0);
        drop(file);
        std::fs::rename(&self.tmp_path, &self.path).map_err(|e| {
            DataError::new(
                &self.tmp_path,
                format!("cannot rename to {}: {e}", self.path.display()),
            )
        })?;
        self.published = true;
        Ok(ShardSummary {
            path: self.path.clone(),
            rows: self.rows,
            bytes,
        })
    }
}

impl Drop for ShardWriter {
    fn drop(&mut self) {
        // Close the file (if still open) before removing it.
        drop(self.writer.take());
        if !self.published {
            let _ = std::fs::remove_file(&self.tmp_path);
        }
    }
}
