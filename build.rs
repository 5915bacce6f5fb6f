//! Link-time set-up for the `triad` binary (and this package's tests): the
//! libtorch rpath and `--no-as-needed` link shared with the other crates
//! (`build-support/link_libtorch.rs`), plus the libtorch version embedded as
//! `TRIAD_LIBTORCH_VERSION` for `triad version`.

include!("build-support/link_libtorch.rs");

use std::path::Path;

fn main() {
    let version = link_libtorch("build-support/link_libtorch.rs")
        .and_then(|lib| libtorch_version(&lib))
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=TRIAD_LIBTORCH_VERSION={version}");
}

/// Reads `__version__ = '2.11.0+cu130'` from `torch/version.py` next to `lib/`.
fn libtorch_version(lib: &Path) -> Option<String> {
    let file = lib.parent()?.join("version.py");
    println!("cargo:rerun-if-changed={}", file.display());
    let text = std::fs::read_to_string(file).ok()?;
    let line = text.lines().find(|l| l.starts_with("__version__"))?;
    let value = line.split('=').nth(1)?.trim();
    Some(value.trim_matches(|c| c == '\'' || c == '"').to_string())
}
