//! The shared specification (`../shared/spec` beside the repository) for
//! tests: one rule for every test that reads it.

use std::path::{Path, PathBuf};

/// Reads `rel` (e.g. `vectors/mate1.txt`) from the shared specification,
/// found as `shared/spec` beside an ancestor of `manifest_dir` (pass
/// `env!("CARGO_MANIFEST_DIR")`). When it cannot be read: with
/// `TRIAD_REQUIRE_SHARED=1` (set by `.ci/run`) this panics with the
/// reason; otherwise it says on stderr that the test is skipped and
/// returns `None`.
pub fn read_shared_spec(manifest_dir: &str, rel: &str) -> Option<String> {
    read_shared(manifest_dir, &format!("spec/{rel}"))
}

/// [`read_shared_spec`] for any file under `shared/` (`rel` relative to
/// it, e.g. `benchmarks/connect4/Test_L3_R1`), with the same rule: a
/// note and `None` when it is missing, a panic under
/// `TRIAD_REQUIRE_SHARED=1`.
pub fn read_shared(manifest_dir: &str, rel: &str) -> Option<String> {
    let found: Option<PathBuf> = Path::new(manifest_dir)
        .ancestors()
        .map(|a| a.join("shared").join(rel))
        .find(|p| p.exists());
    let result = match &found {
        Some(p) => std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display())),
        None => Err(format!(
            "shared/{rel} not found beside any folder above {manifest_dir}"
        )),
    };
    match result {
        Ok(text) => Some(text),
        Err(reason) => {
            if std::env::var("TRIAD_REQUIRE_SHARED").as_deref() == Ok("1") {
                panic!("TRIAD_REQUIRE_SHARED=1 but the shared spec is missing: {reason}");
            }
            eprintln!("skipped: {reason}");
            None
        }
    }
}
