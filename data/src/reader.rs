//! Finding shards and reading them, whole or by column.

use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, UInt32Type, UInt64Type};
use arrow_array::{
    Array, ArrayRef, BooleanArray, RecordBatch, RecordBatchOptions, StringArray, UInt32Array,
};
use arrow_schema::Schema;
use game::{Color, GameTag, Termination};
use parquet::arrow::arrow_reader::{ArrowPredicateFn, ParquetRecordBatchReaderBuilder, RowFilter};
use parquet::arrow::ProjectionMask;

use crate::error::{BatchError, ColumnError, DataError, RowProblem};
use crate::layout::{self, generation_of_path, parse_gen, GAMES_DIR};
use crate::record::{parse_result, PositionRecord, ShardGame, Source};
use crate::schema::{
    arrow_schema, col, ALL_COLUMNS, GAME_KEY, OLDEST_SCHEMA_VERSION, SCHEMA_VERSION,
    SCHEMA_VERSION_KEY, SEARCH_COLUMNS, V1_GAME, V1_VARIANT, VARIANT_KEY,
};
use crate::writer::TMP_SUFFIX;

/// A shard found on disk.
#[derive(Debug, Clone)]
pub struct ShardFile {
    pub path: PathBuf,
    pub modified: SystemTime,
    /// The last run of digits in the file stem (`shard-000042.parquet` → 42).
    pub sequence: Option<u64>,
    /// The run generation the shard belongs to: `N` of its folder
    /// `gen-NNNN/` (a run's `games/gen-NNNN/*.parquet`), else of its own
    /// name `gen-NNNN.parquet` (a run's `eval/gen-NNNN.parquet`); `None`
    /// for any other shard.
    pub generation: Option<u32>,
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
        generation: generation_of_path(&path),
        path,
    })
}

/// A range of generations of a run, both ends included; an open end is
/// unbounded. Written `A..B`, `A..`, `..B` or `N` (just generation N).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Generations {
    pub first: Option<u32>,
    pub last: Option<u32>,
}

impl Generations {
    /// Every generation.
    pub const ALL: Generations = Generations {
        first: None,
        last: None,
    };

    pub fn contains(&self, generation: u32) -> bool {
        self.first.is_none_or(|f| generation >= f) && self.last.is_none_or(|l| generation <= l)
    }
}

/// A range of generations (`--generations`) that does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenerationsError {
    /// An end that is not a number.
    #[error("{text:?} is not a generation number (give A..B, A.., ..B or N)")]
    NotANumber { text: String },
    /// An end beyond `u32`.
    #[error("generation {text} is too large")]
    TooLarge { text: String },
    /// `..` alone.
    #[error("{text:?} names no generation (give A..B, A.., ..B or N)")]
    NoGeneration { text: String },
    /// `A..B` with `A` after `B`.
    #[error("{text} is empty: {first} comes after {last}")]
    Empty { text: String, first: u32, last: u32 },
}

impl std::str::FromStr for Generations {
    type Err = GenerationsError;

    /// Parses `A..B`, `A..`, `..B` or `N`; the error is one line ("5..2
    /// is empty: 5 comes after 2").
    fn from_str(text: &str) -> Result<Generations, GenerationsError> {
        let number = |s: &str| -> Result<u32, GenerationsError> {
            let s = s.trim();
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(GenerationsError::NotANumber {
                    text: s.to_string(),
                });
            }
            s.parse().map_err(|_| GenerationsError::TooLarge {
                text: s.to_string(),
            })
        };
        let text = text.trim();
        let range = match text.split_once("..") {
            None => {
                let n = number(text)?;
                Generations {
                    first: Some(n),
                    last: Some(n),
                }
            }
            Some((a, b)) if a.trim().is_empty() && b.trim().is_empty() => {
                return Err(GenerationsError::NoGeneration {
                    text: text.to_string(),
                })
            }
            Some((a, b)) => Generations {
                first: (!a.trim().is_empty()).then(|| number(a)).transpose()?,
                last: (!b.trim().is_empty()).then(|| number(b)).transpose()?,
            },
        };
        if let (Some(a), Some(b)) = (range.first, range.last) {
            if a > b {
                return Err(GenerationsError::Empty {
                    text: text.to_string(),
                    first: a,
                    last: b,
                });
            }
        }
        Ok(range)
    }
}

impl std::fmt::Display for Generations {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.first, self.last) {
            (Some(a), Some(b)) if a == b => write!(f, "{a}"),
            (a, b) => {
                if let Some(a) = a {
                    write!(f, "{a}")?;
                }
                write!(f, "..")?;
                if let Some(b) = b {
                    write!(f, "{b}")?;
                }
                Ok(())
            }
        }
    }
}

/// Adds the finished shards (`*.parquet`) directly in `dir`.
fn push_dir_shards(dir: &Path, out: &mut Vec<ShardFile>) -> Result<(), DataError> {
    for path in dir_entries(dir)? {
        let is_shard = path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.ends_with(".parquet"));
        if is_shard && path.is_file() {
            out.push(shard_file(path)?);
        }
    }
    Ok(())
}

/// Adds the shards of a folder of shards: those directly in it and those
/// of its generation folders `gen-NNNN/` (one level each). A generation
/// folder of the old layout (`g000003/`, not empty) refuses the folder,
/// naming the upgrade ([`layout::old_layout_message`]).
fn push_folder_shards(dir: &Path, out: &mut Vec<ShardFile>) -> Result<(), DataError> {
    push_dir_shards(dir, out)?;
    for path in dir_entries(dir)? {
        let name = path.file_name().and_then(|n| n.to_str());
        if name.and_then(parse_gen).is_some() && path.is_dir() {
            push_dir_shards(&path, out)?;
        }
    }
    refuse_old(dir)
}

/// An error naming the upgrade when a generation folder of the old layout
/// in `dir` (`g000003/`) holds anything.
fn refuse_old(dir: &Path) -> Result<(), DataError> {
    for path in dir_entries(dir)? {
        let name = path.file_name().and_then(|n| n.to_str());
        let old = name.and_then(layout::v1::parse_gen).is_some() && path.is_dir();
        if old && !dir_entries(&path)?.is_empty() {
            return Err(old_layout(dir));
        }
    }
    Ok(())
}

/// The refusal of the run of the old shard folder `dir` (`RUN/shards/`, or
/// a folder given as it is).
fn old_layout(dir: &Path) -> DataError {
    let run = match dir.file_name().and_then(|n| n.to_str()) {
        Some(n) if format!("{n}/") == layout::v1::SHARDS => dir.parent().unwrap_or(dir),
        _ => dir,
    };
    DataError::new(run, layout::old_layout_message(&run.display().to_string()))
}

fn dir_entries(dir: &Path) -> Result<Vec<PathBuf>, DataError> {
    let entries = std::fs::read_dir(dir).map_err(|e| DataError::new(dir, e.to_string()))?;
    entries
        .map(|e| {
            e.map(|e| e.path())
                .map_err(|e| DataError::new(dir, e.to_string()))
        })
        .collect()
}

/// Lists the shards under `paths`, oldest first. Each path is a shard file;
/// or a directory, whose shards are the `*.parquet` in it and in its
/// generation folders `gen-NNNN/`, and, when it has a `games/` folder (a
/// run directory, of `triad loop` or `triad trainer`; [`layout`]), those
/// of that folder and its generation folders: a run directory gives its
/// self-play shards, never its evaluation games (`eval/`, which can be
/// named explicitly). A run in the old distributed layout (`shards/g…/`)
/// is refused, naming the upgrade.
///
/// Order: by generation (shards outside a generation first, see
/// [`ShardFile::generation`]); within a generation by the sequence number
/// in the name, then by name (never by time: a generation's shards are
/// written at once, by self-play pools or workers, and the order they
/// finish in must not change what a run trains on); outside one by
/// modification time, then sequence number, then name. A shard listed twice is kept
/// once. Files still being written (`*.tmp`) are skipped; naming one
/// explicitly is an error.
pub fn list_shards<P: AsRef<Path>>(paths: &[P]) -> Result<Vec<ShardFile>, DataError> {
    let mut out = Vec::new();
    for p in paths {
        let p = p.as_ref();
        let meta = std::fs::metadata(p).map_err(|e| DataError::new(p, e.to_string()))?;
        if meta.is_dir() {
            push_folder_shards(p, &mut out)?;
            let games = p.join(GAMES_DIR);
            if games.is_dir() {
                push_folder_shards(&games, &mut out)?;
            }
            let old = p.join(layout::v1::SHARDS);
            if old.is_dir() {
                refuse_old(&old)?;
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
    // The shards of one generation are written at once (by self-play pools
    // or workers) and finish in any order: their names, not their times,
    // keep the order, and with it the training run, the same from run to run.
    let time = |s: &ShardFile| s.generation.is_none().then_some(s.modified);
    out.sort_by(|a, b| {
        (a.generation, time(a), a.sequence, &a.path).cmp(&(
            b.generation,
            time(b),
            b.sequence,
            &b.path,
        ))
    });
    out.dedup_by(|a, b| a.path == b.path);
    Ok(out)
}

/// The other boards of a `[loop] mix` run under `paths`, which
/// [`list_shards`] leaves out (a run's listing is of one variant): for each
/// board folder `gen-NNNN/<variant>/` of a run directory, its `games/`
/// folder or one generation folder given as it is (of the generations in
/// `range`, all without one), the variant's name and how many finished
/// shards its folders hold. Paths that are files or do not exist here
/// (object-store URLs) add nothing.
pub fn list_mix_shards<P: AsRef<Path>>(
    paths: &[P],
    range: Option<&Generations>,
) -> Result<BTreeMap<String, usize>, DataError> {
    let is_gen = |d: &Path| {
        d.file_name()
            .and_then(|n| n.to_str())
            .and_then(parse_gen)
            .is_some_and(|g| range.is_none_or(|r| r.contains(g)))
            && d.is_dir()
    };
    let mut out = BTreeMap::new();
    let mut gen_folders = Vec::new();
    for p in paths.iter().map(AsRef::as_ref).filter(|p| p.is_dir()) {
        if is_gen(p) {
            gen_folders.push(p.to_path_buf());
        }
        for root in [p.to_path_buf(), p.join(GAMES_DIR)] {
            if root.is_dir() {
                gen_folders.extend(dir_entries(&root)?.into_iter().filter(|d| is_gen(d)));
            }
        }
    }
    gen_folders.sort();
    gen_folders.dedup();
    for g in gen_folders {
        for board in dir_entries(&g)?.into_iter().filter(|d| d.is_dir()) {
            let Some(name) = board.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            let mut shards = Vec::new();
            push_dir_shards(&board, &mut shards)?;
            if !shards.is_empty() {
                *out.entry(name.to_string()).or_default() += shards.len();
            }
        }
    }
    Ok(out)
}

/// The positions in the shards under `paths` ([`list_shards`]'s listing),
/// counted from the footers: no row is read.
pub fn count_rows<P: AsRef<Path>>(paths: &[P]) -> Result<u64, DataError> {
    let mut rows = 0;
    for shard in list_shards(paths)? {
        rows += ShardReader::open(&shard.path)?.num_rows();
    }
    Ok(rows)
}

/// As [`list_shards`], keeping the shards of the generations in `range`
/// (in the same order). A shard of no generation (not in a `gen-NNNN/`
/// folder nor named `gen-NNNN.parquet`) is an error: a range selects among
/// a run's generations.
pub fn list_shards_in<P: AsRef<Path>>(
    paths: &[P],
    range: &Generations,
) -> Result<Vec<ShardFile>, DataError> {
    let shards = list_shards(paths)?;
    if let Some(s) = shards.iter().find(|s| s.generation.is_none()) {
        return Err(DataError::new(
            &s.path,
            format!(
                "is in no generation folder (gen-NNNN/), so generations {range} cannot select it"
            ),
        ));
    }
    Ok(shards
        .into_iter()
        .filter(|s| s.generation.is_some_and(|g| range.contains(g)))
        .collect())
}

/// An open shard: the footer has been read and the schema version checked.
///
/// Version 1 shards are read as version 2: every batch this reader returns
/// has the version 2 columns and names (see [`ShardReader::read_filtered`]).
pub struct ShardReader {
    path: PathBuf,
    builder: ParquetRecordBatchReaderBuilder<File>,
    version: u32,
    game: Option<ShardGame>,
    max_plies: Option<u32>,
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
        let kv = |key: &str| -> Option<String> {
            builder
                .metadata()
                .file_metadata()
                .key_value_metadata()
                .and_then(|kv| kv.iter().find(|k| k.key == key))
                .and_then(|k| k.value.clone())
        };
        let version = match kv(SCHEMA_VERSION_KEY).and_then(|v| v.parse::<u32>().ok()) {
            Some(v) if v > SCHEMA_VERSION => {
                return Err(DataError::new(
                    &path,
                    format!("schema version {v} is newer than this program's {SCHEMA_VERSION}"),
                ))
            }
            Some(v) if v < OLDEST_SCHEMA_VERSION => {
                return Err(DataError::new(
                    &path,
                    format!("schema version {v} is older than the oldest this program reads ({OLDEST_SCHEMA_VERSION})"),
                ))
            }
            Some(v) => v,
            None => {
                return Err(DataError::new(
                    &path,
                    format!("no {SCHEMA_VERSION_KEY} in the file metadata: not a triad shard"),
                ))
            }
        };
        check_column_types(&path, builder.schema(), version)?;
        let max_plies = kv(crate::schema::MAX_PLIES_KEY).and_then(|v| v.parse::<u32>().ok());
        let game = if version == 1 {
            Some(ShardGame::new(V1_GAME, V1_VARIANT))
        } else {
            kv(GAME_KEY)
                .zip(kv(VARIANT_KEY))
                .map(|(name, variant)| ShardGame { name, variant })
        };
        Ok(ShardReader {
            path,
            builder,
            version,
            game,
            max_plies,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The ply cap its writer stopped games at
    /// ([`crate::schema::MAX_PLIES_KEY`]), if it recorded one.
    pub fn max_plies(&self) -> Option<u32> {
        self.max_plies
    }

    /// The schema version stored in the file (1 or 2).
    pub fn schema_version(&self) -> u32 {
        self.version
    }

    /// The game and variant of every row: from the file's metadata
    /// (`triad.game`, `triad.variant`), `piratechnics/standard` for a
    /// version 1 shard. `None` only for an empty shard whose writer never
    /// learnt its game.
    pub fn game(&self) -> Option<&ShardGame> {
        self.game.as_ref()
    }

    /// Checks that the shard is of `expected`'s game and variant; the error
    /// names the file and both games ("shard is piratechnics/8x8; this run
    /// plays piratechnics/standard"). An empty shard without a game passes.
    pub fn check_game(&self, expected: &GameTag) -> Result<(), DataError> {
        match &self.game {
            Some(g) if g.matches(expected) => Ok(()),
            Some(g) => Err(DataError::new(
                &self.path,
                format!("shard is {g}; this run plays {expected}"),
            )),
            None if self.num_rows() == 0 => Ok(()),
            None => Err(DataError::new(
                &self.path,
                format!("shard records no game ({GAME_KEY} missing); this run plays {expected}"),
            )),
        }
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

    /// Reads only the named columns (version 2 names, every row), as Arrow
    /// batches whose columns are in version 2 file order (see
    /// [`ShardReader::read_filtered`]).
    pub fn read_columns(self, columns: &[&str]) -> Result<Vec<RecordBatch>, DataError> {
        self.read_filtered(columns, None)
    }

    /// Reads the named columns (version 2 names, [`crate::schema::col`]) of
    /// the rows with `ply < max_ply` (the other rows' pages of the wider
    /// columns are mostly not decoded), or of every row if `max_ply` is
    /// `None`. The batches' columns are in version 2 file order.
    ///
    /// A version 1 shard is upgraded batch by batch: `tfen` is renamed
    /// `position`; `game`/`variant` are `piratechnics`/`standard`;
    /// `repetitions` is null; rows with `simulations` 0 (match games, whose
    /// search columns version 1 filled with made-up values) get `source`
    /// `match` and null search columns, the others `selfplay`.
    pub fn read_filtered(
        self,
        columns: &[&str],
        max_ply: Option<u32>,
    ) -> Result<Vec<RecordBatch>, DataError> {
        if let Some(c) = columns.iter().find(|c| !ALL_COLUMNS.contains(c)) {
            return Err(DataError::new(&self.path, format!("missing column {c:?}")));
        }
        let wanted: Vec<&str> = ALL_COLUMNS
            .iter()
            .copied()
            .filter(|c| columns.contains(c))
            .collect();
        let v1 = self.version == 1;
        let physical: Vec<&str> = if v1 {
            let mut p: Vec<&str> = wanted.iter().filter_map(|&c| v1_column(c)).collect();
            let needs_search_flag = wanted
                .iter()
                .any(|c| *c == col::SOURCE || SEARCH_COLUMNS.contains(c));
            if needs_search_flag && !p.contains(&col::SIMULATIONS) {
                p.push(col::SIMULATIONS);
            }
            p
        } else {
            wanted.clone()
        };
        let indices = self.root_indices(&physical)?;
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
                .map(|b| {
                    let b = b.map_err(|e| DataError::new(&path, format!("corrupt data: {e}")))?;
                    if v1 {
                        upgrade_v1(&b, &wanted).map_err(|e| DataError::caused(&path, e))
                    } else {
                        Ok(b)
                    }
                })
                .collect()
        })
    }

    /// Reads every row as records.
    pub fn read_records(self) -> Result<Vec<PositionRecord>, DataError> {
        let path = self.path.clone();
        let batches = self.read_filtered(&ALL_COLUMNS, None)?;
        let mut out = Vec::new();
        for b in &batches {
            decode_records(b, &mut out).map_err(|e| DataError::caused(&path, e))?;
        }
        Ok(out)
    }
}

/// Checks every known column of a shard's schema against the type this
/// reader expects, so that a wrongly typed column (a shard written by
/// another tool, or tampered with) is refused at open with its name, instead
/// of panicking inside an Arrow downcast later. Lists are compared by their
/// element types: writers name the element field differently (`item`,
/// `element`). Columns this reader does not know are left alone.
fn check_column_types(path: &Path, file: &Schema, version: u32) -> Result<(), DataError> {
    let expected = arrow_schema();
    for field in file.fields() {
        let name = match (version, field.name().as_str()) {
            (1, col::V1_TFEN) => col::POSITION,
            (_, n) => n,
        };
        let Ok(want) = expected.field_with_name(name) else {
            continue;
        };
        if !same_type(field.data_type(), want.data_type()) {
            return Err(DataError::new(
                path,
                format!(
                    "column {:?} is {} (expected {}): not a shard this program wrote",
                    field.name(),
                    field.data_type(),
                    want.data_type()
                ),
            ));
        }
    }
    Ok(())
}

/// Type equality that ignores the name and nullability of list elements.
fn same_type(a: &arrow_schema::DataType, b: &arrow_schema::DataType) -> bool {
    use arrow_schema::DataType::List;
    match (a, b) {
        (List(x), List(y)) => same_type(x.data_type(), y.data_type()),
        _ => a == b,
    }
}

/// The version 1 column holding version 2's column `c`, if any.
fn v1_column(c: &str) -> Option<&str> {
    match c {
        col::POSITION => Some(col::V1_TFEN),
        col::GAME | col::VARIANT | col::SOURCE | col::REPETITIONS => None,
        other => Some(other),
    }
}

/// Turns a batch of a version 1 shard (the physical columns for `wanted`,
/// plus `simulations` when a search column or `source` is wanted) into the
/// version 2 layout of `wanted` (in version 2 order).
fn upgrade_v1(batch: &RecordBatch, wanted: &[&str]) -> Result<RecordBatch, BatchError> {
    let n = batch.num_rows();
    let column = |name: &str| -> Result<ArrayRef, ColumnError> {
        batch
            .column_by_name(name)
            .cloned()
            .ok_or_else(|| ColumnError::Missing {
                name: name.to_string(),
            })
    };
    let repeat = |text: &str| -> ArrayRef {
        Arc::new(StringArray::from_iter_values(std::iter::repeat_n(text, n)))
    };
    // Version 1 stored match games with made-up search statistics and
    // `simulations` 0; self-play always searched.
    let no_search: Option<BooleanArray> = match batch.column_by_name(col::SIMULATIONS) {
        Some(a) => {
            let sims = a
                .as_primitive_opt::<UInt32Type>()
                .ok_or_else(|| ColumnError::NotA {
                    name: col::SIMULATIONS.to_string(),
                    expected: "uint32".to_string(),
                })?;
            Some(sims.iter().map(|s| Some(s == Some(0))).collect())
        }
        None => None,
    };
    let any_no_search = no_search.as_ref().is_some_and(|m| m.true_count() > 0);
    let schema = arrow_schema();
    let mut fields = Vec::with_capacity(wanted.len());
    let mut arrays: Vec<ArrayRef> = Vec::with_capacity(wanted.len());
    for &name in wanted {
        let array = match name {
            col::GAME => repeat(V1_GAME),
            col::VARIANT => repeat(V1_VARIANT),
            col::REPETITIONS => Arc::new(UInt32Array::new_null(n)),
            col::SOURCE => match &no_search {
                Some(m) if any_no_search => Arc::new(
                    m.iter()
                        .map(|x| {
                            Some(if x == Some(true) {
                                Source::Match.as_str()
                            } else {
                                Source::SelfPlay.as_str()
                            })
                        })
                        .collect::<StringArray>(),
                ),
                _ => repeat(Source::SelfPlay.as_str()),
            },
            col::POSITION => column(col::V1_TFEN)?,
            other => {
                let a = column(other)?;
                match &no_search {
                    Some(m) if any_no_search && SEARCH_COLUMNS.contains(&other) => {
                        arrow_select::nullif::nullif(&a, m)?
                    }
                    _ => a,
                }
            }
        };
        let field = schema.field_with_name(name)?;
        if field.data_type() != array.data_type() {
            return Err(ColumnError::Type {
                name: name.to_string(),
                found: array.data_type().clone(),
                expected: field.data_type().clone(),
            }
            .into());
        }
        fields.push(field.clone());
        arrays.push(array);
    }
    RecordBatch::try_new_with_options(
        Arc::new(Schema::new(fields)),
        arrays,
        &RecordBatchOptions::new().with_row_count(Some(n)),
    )
    .map_err(BatchError::Upgrade)
}

/// Typed access to one column of a batch, with an error naming the column
/// when it is missing or of the wrong type.
pub struct Columns<'a> {
    batch: &'a RecordBatch,
}

impl<'a> Columns<'a> {
    pub fn new(batch: &'a RecordBatch) -> Columns<'a> {
        Columns { batch }
    }

    fn get(&self, name: &str) -> Result<&'a dyn Array, ColumnError> {
        self.batch
            .column_by_name(name)
            .map(|a| a.as_ref())
            .ok_or_else(|| ColumnError::Missing {
                name: name.to_string(),
            })
    }

    pub fn u64(&self, name: &str) -> Result<&'a arrow_array::UInt64Array, ColumnError> {
        self.get(name)?
            .as_primitive_opt::<UInt64Type>()
            .ok_or_else(|| not_a(name, "uint64"))
    }

    pub fn u32(&self, name: &str) -> Result<&'a arrow_array::UInt32Array, ColumnError> {
        self.get(name)?
            .as_primitive_opt::<UInt32Type>()
            .ok_or_else(|| not_a(name, "uint32"))
    }

    pub fn f32(&self, name: &str) -> Result<&'a arrow_array::Float32Array, ColumnError> {
        self.get(name)?
            .as_primitive_opt::<Float32Type>()
            .ok_or_else(|| not_a(name, "float32"))
    }

    pub fn str(&self, name: &str) -> Result<&'a arrow_array::StringArray, ColumnError> {
        self.get(name)?
            .as_string_opt::<i32>()
            .ok_or_else(|| not_a(name, "a string"))
    }

    pub fn bool(&self, name: &str) -> Result<&'a BooleanArray, ColumnError> {
        self.get(name)?
            .as_boolean_opt()
            .ok_or_else(|| not_a(name, "boolean"))
    }

    pub fn list(&self, name: &str) -> Result<&'a arrow_array::ListArray, ColumnError> {
        self.get(name)?
            .as_list_opt::<i32>()
            .ok_or_else(|| not_a(name, "a list"))
    }
}

/// The column `name` is not of the type `expected`.
fn not_a(name: &str, expected: impl Into<String>) -> ColumnError {
    ColumnError::NotA {
        name: name.to_string(),
        expected: expected.into(),
    }
}

/// Row `i`'s problem.
fn row(i: usize, problem: RowProblem) -> BatchError {
    BatchError::Row { row: i, problem }
}

/// A list column whose items are primitives of type `T`: each row's slice
/// is copied straight from the values buffer.
struct ListOf<'a, T: arrow_array::ArrowPrimitiveType> {
    list: &'a arrow_array::ListArray,
    values: &'a [T::Native],
}

impl<'a, T: arrow_array::ArrowPrimitiveType> ListOf<'a, T> {
    fn new(list: &'a arrow_array::ListArray, name: &str) -> Result<ListOf<'a, T>, ColumnError> {
        let values = list
            .values()
            .as_primitive_opt::<T>()
            .ok_or_else(|| not_a(name, format!("a list of {}", T::DATA_TYPE)))?;
        Ok(ListOf {
            list,
            values: values.values(),
        })
    }

    fn get(&self, row: usize) -> Option<Vec<T::Native>> {
        if self.list.is_null(row) {
            return None;
        }
        let offsets = self.list.value_offsets();
        Some(self.values[offsets[row] as usize..offsets[row + 1] as usize].to_vec())
    }
}

/// Shares one `Arc<str>` between consecutive equal values of a column.
#[derive(Default)]
struct Interned(Option<Arc<str>>);

impl Interned {
    fn get(&mut self, value: &str) -> Arc<str> {
        match &self.0 {
            Some(a) if &**a == value => a.clone(),
            _ => {
                let a: Arc<str> = Arc::from(value);
                self.0 = Some(a.clone());
                a
            }
        }
    }
}

/// Decodes a batch with every version 2 column (as [`ShardReader`] returns
/// them, whatever the file's version) into records appended to `out`.
pub fn decode_records(
    batch: &RecordBatch,
    out: &mut Vec<PositionRecord>,
) -> Result<(), BatchError> {
    let c = Columns::new(batch);
    let game = c.str(col::GAME)?;
    let variant = c.str(col::VARIANT)?;
    let game_id = c.u64(col::GAME_ID)?;
    let ply = c.u32(col::PLY)?;
    let side = c.str(col::SIDE_TO_MOVE)?;
    let position = c.str(col::POSITION)?;
    let repetitions = c.u32(col::REPETITIONS)?;
    let hash = c.u64(col::POSITION_HASH)?;
    let legal = ListOf::<UInt32Type>::new(c.list(col::LEGAL_MOVES)?, col::LEGAL_MOVES)?;
    let visits = ListOf::<UInt32Type>::new(c.list(col::VISITS)?, col::VISITS)?;
    let policy = ListOf::<Float32Type>::new(c.list(col::POLICY_TARGET)?, col::POLICY_TARGET)?;
    let value = c.f32(col::ROOT_VALUE)?;
    let win = c.f32(col::ROOT_WIN)?;
    let draw = c.f32(col::ROOT_DRAW)?;
    let loss = c.f32(col::ROOT_LOSS)?;
    let chosen = c.u32(col::CHOSEN_MOVE)?;
    let result = c.str(col::RESULT)?;
    let termination = c.str(col::TERMINATION)?;
    let length = c.u32(col::GAME_LENGTH)?;
    let source = c.str(col::SOURCE)?;
    let model = c.str(col::MODEL_ID)?;
    let sims = c.u32(col::SIMULATIONS)?;
    let temperature = c.f32(col::TEMPERATURE)?;
    let full = c.bool(col::FULL_SEARCH)?;
    let seed = c.u64(col::SEED)?;
    let opt_u32 = |a: &arrow_array::UInt32Array, i: usize| (!a.is_null(i)).then(|| a.value(i));
    let (mut games, mut variants) = (Interned::default(), Interned::default());
    out.reserve(batch.num_rows());
    for i in 0..batch.num_rows() {
        let side_to_move = match side.value(i) {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(row(i, RowProblem::SideToMove(other.to_string()))),
        };
        let root_wdl = match (win.is_null(i), draw.is_null(i), loss.is_null(i)) {
            (false, false, false) => Some([win.value(i), draw.value(i), loss.value(i)]),
            (true, true, true) => None,
            _ => return Err(row(i, RowProblem::PartialWdl)),
        };
        let result = parse_result(result.value(i))
            .ok_or_else(|| row(i, RowProblem::Result(result.value(i).to_string())))?;
        let termination = Termination::parse(termination.value(i))
            .ok_or_else(|| row(i, RowProblem::Termination(termination.value(i).to_string())))?;
        let source = Source::parse(source.value(i))
            .ok_or_else(|| row(i, RowProblem::Source(source.value(i).to_string())))?;
        out.push(PositionRecord {
            game: games.get(game.value(i)),
            variant: variants.get(variant.value(i)),
            game_id: game_id.value(i),
            ply: ply.value(i),
            side_to_move,
            position: position.value(i).to_string(),
            repetitions: opt_u32(repetitions, i),
            position_hash: hash.value(i),
            legal_moves: legal
                .get(i)
                .ok_or_else(|| row(i, RowProblem::NullLegalMoves))?,
            visits: visits.get(i),
            policy_target: policy.get(i),
            root_value: (!value.is_null(i)).then(|| value.value(i)),
            root_wdl,
            chosen_move: chosen.value(i),
            result,
            termination,
            game_length: length.value(i),
            source,
            model_id: model.value(i).to_string(),
            simulations: opt_u32(sims, i),
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

/// The game and variant of one shard (reads the footer only); `None` for
/// an empty shard that records none.
pub fn shard_game(path: impl AsRef<Path>) -> Result<Option<ShardGame>, DataError> {
    Ok(ShardReader::open(path)?.game)
}

/// The one game and variant of a set of shards (footers only): an error
/// naming both files when two shards are of different games or variants.
/// `None` when no shard records a game (none, or only empty ones).
pub fn common_game(shards: &[ShardFile]) -> Result<Option<ShardGame>, DataError> {
    let mut seen = SameGame::default();
    for s in shards {
        seen.check(&ShardReader::open(&s.path)?)?;
    }
    Ok(seen.0.map(|(g, _)| g))
}

/// The game of the first shard seen (and its path), which every later
/// shard must share.
#[derive(Default)]
pub(crate) struct SameGame(Option<(ShardGame, PathBuf)>);

impl SameGame {
    pub(crate) fn check(&mut self, reader: &ShardReader) -> Result<(), DataError> {
        let Some(g) = reader.game() else {
            return Ok(());
        };
        match &self.0 {
            Some((first, first_path)) if first != g => Err(DataError::new(
                reader.path(),
                format!(
                    "shard is {g}, but {} is {first}: one run's shards are of one game and variant",
                    first_path.display()
                ),
            )),
            Some(_) => Ok(()),
            None => {
                self.0 = Some((g.clone(), reader.path().to_path_buf()));
                Ok(())
            }
        }
    }
}

/// Checks that every shard is of `expected`'s game and variant (footers
/// only), as [`ShardReader::check_game`].
pub fn check_shards(shards: &[ShardFile], expected: &GameTag) -> Result<(), DataError> {
    shards
        .iter()
        .try_for_each(|s| ShardReader::open(&s.path)?.check_game(expected))
}
