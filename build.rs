//! Link-time set-up for the `triad` binary (and this package's tests).
//!
//! torch-sys (`links = "tch"`) finds libtorch (see `.cargo/config.toml`:
//! `LIBTORCH` points at the wheel in `.venv`) and exports its library folder
//! to the build scripts of packages that depend on it directly, as
//! `DEP_TCH_LIBTORCH_LIB`. Link arguments set by a dependency's build script
//! (tch has its own) do not reach our binary, so every package that builds
//! executables linking tch (binaries, tests, benches) needs this file; the
//! `model` crate has a copy. It:
//!
//! 1. adds an rpath to the libtorch lib folder, so the binary runs from any
//!    directory with no `LD_LIBRARY_PATH`. The folder is canonicalised so that
//!    `$ORIGIN` in libtorch's own rpath (`$ORIGIN/../../nvidia/*/lib`, where the
//!    wheel's CUDA libraries live) resolves inside the real site-packages and
//!    not through the `.venv/libtorch` link;
//! 2. links `libtorch` (and `libtorch_cuda` when present) with
//!    `--no-as-needed`: nothing calls into libtorch_cuda directly, so the
//!    default `--as-needed` would drop it and CUDA would never be available;
//! 3. embeds the libtorch version (from the wheel's `torch/version.py`) as
//!    `TRIAD_LIBTORCH_VERSION` for `triad version`.
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=DEP_TCH_LIBTORCH_LIB");
    let Some(lib) = std::env::var_os("DEP_TCH_LIBTORCH_LIB") else {
        // torch-sys on a platform where it does not export the folder.
        println!("cargo:rustc-env=TRIAD_LIBTORCH_VERSION=unknown");
        return;
    };
    let lib = PathBuf::from(lib);
    let lib = std::fs::canonicalize(&lib).unwrap_or(lib);
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", lib.display());
    println!("cargo:rustc-link-arg=-Wl,--no-as-needed");
    if lib.join("libtorch_cuda.so").exists() {
        println!("cargo:rustc-link-arg=-ltorch_cuda");
    }
    println!("cargo:rustc-link-arg=-ltorch");
    println!(
        "cargo:rustc-env=TRIAD_LIBTORCH_VERSION={}",
        libtorch_version(&lib).unwrap_or_else(|| "unknown".into())
    );
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
