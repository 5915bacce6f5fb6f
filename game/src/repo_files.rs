//! Data files the tests read from the repository (perft vectors, mate
//! positions, sample games under `games/<name>/vectors/`, Pons's positions
//! under `benchmarks/connect4/`): one rule for every test that reads them.

use std::path::{Path, PathBuf};

/// The path of `rel` (relative to the repository's root, e.g.
/// `games/piratechnics/vectors/mate1.txt`), found beside the first folder
/// above `manifest_dir` (pass `env!("CARGO_MANIFEST_DIR")`) that holds it.
/// Panics with the path looked for when no folder does: the files are part
/// of the repository, so a missing one is a broken checkout, never a skip.
pub fn repo_path(manifest_dir: &str, rel: &str) -> PathBuf {
    Path::new(manifest_dir)
        .ancestors()
        .map(|a| a.join(rel))
        .find(|p| p.exists())
        .unwrap_or_else(|| {
            panic!("{rel} not found in any folder above {manifest_dir}: the repository's data files are missing (a partial checkout?)")
        })
}

/// Reads the repository file `rel` (see [`repo_path`]); panics naming the
/// file when it cannot be read.
pub fn read_repo_file(manifest_dir: &str, rel: &str) -> String {
    let path = repo_path(manifest_dir, rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_file_above_the_crate_and_names_a_missing_one() {
        let text = read_repo_file(env!("CARGO_MANIFEST_DIR"), "Cargo.lock");
        assert!(text.contains("[[package]]"));
        let missing =
            std::panic::catch_unwind(|| repo_path(env!("CARGO_MANIFEST_DIR"), "no/such/file.txt"));
        let message = missing.unwrap_err();
        let message = message.downcast_ref::<String>().unwrap();
        assert!(message.contains("no/such/file.txt"), "{message}");
    }
}
