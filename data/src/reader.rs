//! Finding shards and reading them, whole or by column.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, UInt32Type, UInt64Type};
use arrow_array::{Array, BooleanArray, RecordBatch};
use parquet::arrow::arrow_reader::{ArrowPredicateFn, ParquetRecordBatchReaderBuilder, RowFilter};
use parquet::arrow::ProjectionMask;

use crate::error::DataError;
use crate::record::PositionRecord;
use crate::schema::{col, SCHEMA_VERSION, SCHEMA_VERSION_KEY};
use crate::writer::TMP_SUFFIX;

/// A shard found on disk.
#[derive(Debug, Clone)]
pub struct ShardFile {
    pub path: PathBuf,
    pub modified: SystemTime,
    /// The last run of digits in the file stem (`shard-000042.parquet` → 42).
    pub sequence: Option<u64>,
}

fn sequence_number(path: &Path) -> Option<u64> {
    let stem = path.file_name()?.to_str()?.strip_suffix(".parquet")?;
    let digits: String = stem
        .chars()
        .rev()
        .skip_while(|c| !c.is_ascii_digit())
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.chars().rev().collect::<String>().parse().ok()
}

fn shard_file(path: PathBuf) -> Result<ShardFile, DataError> {
    let meta = std::fs::metadata(&path).map_err(|e| DataError::new(&path, e.to_string()))?;
    Ok(ShardFile {
        modified: meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
        sequence: sequence_number(&path),
        path,
    })
}

/// Lists the shards under `paths` (files, or directories searched one level
/// deep for `*.parquet`), oldest first: by modification time, then by the
/// sequence number in the name, then by name. Files still being written
/// (`*.tmp`) are skipped; naming one explicitly is an error.
pub fn list_shards<P: AsRef<Path>>(paths: &[P]) -> Result<Vec<ShardFile>, DataError> {
    let mut out = Vec::new();
    for p in paths {
        let p = p.as_ref();
        let meta = std::fs::metadata(p).map_err(|e| DataError::new(p, e.to_string()))?;
        if meta.is_dir() {
            let entries = std::fs::read_dir(p).map_err(|e| DataError::new(p, e.to_string()))?;
            for entry in entries {
                let entry = entry.map_err(|e| DataError::new(p, e.to_string()))?;
                let path = entry.path();
                let name = entry.file_name();
                let name = name.to_string_lossy();
                if name.ends_with(".parquet") && path.is_file() {
                    out.push(shard_file(path)?);
                }
            }
        } else if p.to_string_lossy().ends_with(TMP_SUFFIX) {
            return Err(DataError::new(
                p,
                "is a shard still being written (temporary name); readers ignore it",
            ));
        } else {
            out.push(shard_file(p.to_path_buf())?);
        }
    }
    out.sort_by(|a, b| (a.modified, a.sequence, &a.path).cmp(&(b.modified, b.sequence, &b.path)));
    out.dedup_by(|a, b| a.path == b.path);
    Ok(out)
}

/// An open shard: the footer has been read and the schema version checked.
pub struct ShardReader {
    path: PathBuf,
    builder: ParquetRecordBatchReaderBuilder<File>,
    version: Option<u32>,
}

/// Runs `f`, turning a panic inside the Parquet decoder (possible on
/// corrupt input) into an error naming the file.
fn guarded<T>(path: &Path, f: impl FnOnce() -> Result<T, DataError>) -> Result<T, DataError> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(_) => Err(DataError::new(path, "corrupt shard (decoder failed)")),
    }
}

impl ShardReader {
    pub fn open(path: impl AsRef<Path>) -> Result<ShardReader, DataError> {
        let path = path.as_ref().to_path_buf();
        let file =
            File::open(&path).map_err(|e| DataError::new(&path, format!("cannot open: {e}")))?;
        let builder = guarded(&path, || {
            ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| {
                DataError::new(
                    &path,
                    format!("not a readable Parquet shard (truncated or corrupt?): {e}"),
                )
            })
        })?;
        let version = builder
            .metadata()
            .file_metadata()
            .key_value_metadata()
            .and_then(|kv| kv.iter().find(|k| k.key == SCHEMA_VERSION_KEY))
            .and_then(|k| k.value.as_deref())
            .and_then(|v| v.parse::<u32>().ok());
        match version {
            Some(v) if v > SCHEMA_VERSION => {
                return Err(DataError::new(
                    &path,
                    format!("schema version {v} is newer than this program's {SCHEMA_VERSION}"),
                ))
            }
            None => {
                return Err(DataError::new(
                    &path,
                    format!("no {SCHEMA_VERSION_KEY} in the file metadata: not a triad shard"),
                ))
            }
            _ => {}
        }
        Ok(ShardReader {
            path,
            builder,
            version,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The schema version stored in the file.
    pub fn schema_version(&self) -> u32 {
        self.version.unwrap_or(0)
    }

    pub fn num_rows(&self) -> u64 {
        self.builder.metadata().file_metadata().num_rows().max(0) as u64
    }

    fn root_indices(&self, columns: &[&str]) -> Result<Vec<usize>, DataError> {
        let schema = self.builder.schema();
        columns
            .iter()
            .map(|c| {
                schema
                    .index_of(c)
                    .map_err(|_| DataError::new(&self.path, format!("missing column {c:?}")))
            })
            .collect()
    }

    /// Reads only the named columns (every row), as Arrow batches whose
    /// columns are in file order.
    pub fn read_columns(self, columns: &[&str]) -> Result<Vec<RecordBatch>, DataError> {
        self.read_filtered(columns, None)
    }

    /// Reads the named columns of the rows with `ply < max_ply` (the other
    /// rows' pages of the wider columns are mostly not decoded), or of every
    /// row if `max_ply` is `None`.
    pub fn read_filtered(
        self,
        columns: &[&str],
        max_ply: Option<u32>,
    ) -> Result<Vec<RecordBatch>, DataError> {
        let indices = self.root_indices(columns)?;
        let ply_index = self.root_indices(&[col::PLY])?;
        let path = self.path;
        guarded(&path.clone(), move || {
            let mask = ProjectionMask::roots(self.builder.parquet_schema(), indices);
            let mut builder = self.builder.with_projection(mask).with_batch_size(8192);
            if let Some(limit) = max_ply {
                let ply_mask = ProjectionMask::roots(builder.parquet_schema(), ply_index);
                let predicate = ArrowPredicateFn::new(ply_mask, move |batch: RecordBatch| {
                    let ply = batch.column(0).as_primitive::<UInt32Type>();
                    Ok(ply
                        .iter()
                        .map(|p| Some(p.is_some_and(|p| p < limit)))
                        .collect::<BooleanArray>())
                });
                builder = builder.with_row_filter(RowFilter::new(vec![Box::new(predicate)]));
            }
            let reader = builder
                .build()
                .map_err(|e| DataError::new(&path, format!("cannot read: {e}")))?;
            reader
                .map(|b| b.map_err(|e| DataError::new(&path, format!("corrupt data: {e}"))))
                .collect()
        })
    }

    /// Reads every row as records.
    pub fn read_records(self) -> Result<Vec<PositionRecord>, DataError> {
        let path = self.path.clone();
        let batches = self.read_filtered(&ALL_COLUMNS, None)?;
        let mut out = Vec::new();
        for b in &batches {
            decode_records(b, &mut out).map_err(|m| DataError::new(&path, m))?;
        }
        Ok(out)
    }
}

const ALL_COLUMNS: [&str; 21] = [
    col::GAME_ID,
    col::PLY,
    col::SIDE_TO_MOVE,
    col::TFEN,
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
    col::MODEL_ID,
    col::SIMULATIONS,
    col::TEMPERATURE,
    col::FULL_SEARCH,
    col::SEED,
];

/// Typed access to one column of a batch, with an error naming the column
/// when it is missing or of the wrong type.
pub struct Columns<'a> {
    batch: &'a RecordBatch,
}

impl<'a> Columns<'a> {
    pub fn new(batch: &'a RecordBatch) -> Columns<'a> {
        Columns { batch }
    }

    fn get(&self, name: &str) -> Result<&'a dyn Array, String> {
        self.batch
            .column_by_name(name)
            .map(|a| a.as_ref())
            .ok_or_else(|| format!("missing column {name:?}"))
    }

    pub fn u64(&self, name: &str) -> Result<&'a arrow_array::UInt64Array, String> {
        self.get(name)?
            .as_primitive_opt::<UInt64Type>()
            .ok_or_else(|| format!("column {name:?} is not uint64"))
    }

    pub fn u32(&self, name: &str) -> Result<&'a arrow_array::UInt32Array, String> {
        self.get(name)?
            .as_primitive_opt::<UInt32Type>()
            .ok_or_else(|| format!("column {name:?} is not uint32"))
    }

    pub fn f32(&self, name: &str) -> Result<&'a arrow_array::Float32Array, String> {
        self.get(name)?
            .as_primitive_opt::<Float32Type>()
            .ok_or_else(|| format!("column {name:?} is not float32"))
    }

    pub fn str(&self, name: &str) -> Result<&'a arrow_array::StringArray, String> {
        self.get(name)?
            .as_string_opt::<i32>()
            .ok_or_else(|| format!("column {name:?} is not a string"))
    }

    pub fn bool(&self, name: &str) -> Result<&'a BooleanArray, String> {
        self.get(name)?
            .as_boolean_opt()
            .ok_or_else(|| format!("column {name:?} is not boolean"))
    }

    pub fn list(&self, name: &str) -> Result<&'a arrow_array::ListArray, String> {
        self.get(name)?
            .as_list_opt::<i32>()
            .ok_or_else(|| format!("column {name:?} is not a list"))
    }
}

fn list_u32(list: &arrow_array::ListArray, row: usize, name: &str) -> Result<Vec<u32>, String> {
    let values = list.value(row);
    let values = values
        .as_primitive_opt::<UInt32Type>()
        .ok_or_else(|| format!("column {name:?} is not a list of uint32"))?;
    Ok(values.values().to_vec())
}

/// Decodes a full-width batch into records (appended to `out`).
pub fn decode_records(batch: &RecordBatch, out: &mut Vec<PositionRecord>) -> Result<(), String> {
    let c = Columns::new(batch);
    let game_id = c.u64(col::GAME_ID)?;
    let ply = c.u32(col::PLY)?;
    let side = c.str(col::SIDE_TO_MOVE)?;
    let tfen = c.str(col::TFEN)?;
    let hash = c.u64(col::POSITION_HASH)?;
    let legal = c.list(col::LEGAL_MOVES)?;
    let visits = c.list(col::VISITS)?;
    let policy = c.list(col::POLICY_TARGET)?;
    let value = c.f32(col::ROOT_VALUE)?;
    let win = c.f32(col::ROOT_WIN)?;
    let draw = c.f32(col::ROOT_DRAW)?;
    let loss = c.f32(col::ROOT_LOSS)?;
    let chosen = c.u32(col::CHOSEN_MOVE)?;
    let result = c.str(col::RESULT)?;
    let termination = c.str(col::TERMINATION)?;
    let length = c.u32(col::GAME_LENGTH)?;
    let model = c.str(col::MODEL_ID)?;
    let sims = c.u32(col::SIMULATIONS)?;
    let temperature = c.f32(col::TEMPERATURE)?;
    let full = c.bool(col::FULL_SEARCH)?;
    let seed = c.u64(col::SEED)?;
    out.reserve(batch.num_rows());
    for i in 0..batch.num_rows() {
        let side_to_move = match side.value(i) {
            "w" => piratechnics::Color::White,
            "b" => piratechnics::Color::Black,
            other => return Err(format!("row {i}: bad side_to_move {other:?}")),
        };
        let policy_target = if policy.is_null(i) {
            None
        } else {
            let values = policy.value(i);
            let values = values
                .as_primitive_opt::<Float32Type>()
                .ok_or_else(|| "column \"policy_target\" is not a list of float32".to_string())?;
            Some(values.values().to_vec())
        };
        out.push(PositionRecord {
            game_id: game_id.value(i),
            ply: ply.value(i),
            side_to_move,
            tfen: tfen.value(i).to_string(),
            position_hash: hash.value(i),
            legal_moves: list_u32(legal, i, col::LEGAL_MOVES)?,
            visits: list_u32(visits, i, col::VISITS)?,
            policy_target,
            root_value: value.value(i),
            root_wdl: [win.value(i), draw.value(i), loss.value(i)],
            chosen_move: chosen.value(i),
            result: result.value(i).to_string(),
            termination: termination.value(i).to_string(),
            game_length: length.value(i),
            model_id: model.value(i).to_string(),
            simulations: sims.value(i),
            temperature: temperature.value(i),
            full_search: full.value(i),
            seed: seed.value(i),
        });
    }
    Ok(())
}

/// Reads every row of one shard.
pub fn read_shard(path: impl AsRef<Path>) -> Result<Vec<PositionRecord>, DataError> {
    ShardReader::open(path)?.read_records()
}
