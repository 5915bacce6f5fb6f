//! A run's shards as the command line finds them (`data::list_shards`:
//! a run folder's self-play shards by generation, files being written
//! skipped), for `triad.data.read_shards`, which reads them with pyarrow.

use crate::value_error;
use pyo3::prelude::*;
use std::path::PathBuf;

/// The shard files under `paths` (files or folders, a run folder
/// included), in the order the trainer reads them; `ValueError` naming a
/// path that cannot be listed.
#[pyfunction]
pub fn list_shards(paths: Vec<PathBuf>) -> PyResult<Vec<PathBuf>> {
    let shards = data::list_shards(&paths).map_err(value_error)?;
    Ok(shards.into_iter().map(|s| s.path).collect())
}
