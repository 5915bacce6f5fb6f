//! Link set-up for this crate's own executables (test binaries): they must
//! run without `LD_LIBRARY_PATH`, and must see CUDA when the wheel has it.
//!
//! torch-sys declares `links = "tch"` and prints `cargo:libtorch_lib=DIR`,
//! which cargo hands to dependents' build scripts as `DEP_TCH_LIBTORCH_LIB`.
//! A dependency's link arguments do not reach our executables, so this
//! repeats (self-contained) what the root package's `build.rs` does:
//! 1. an rpath to the canonical libtorch folder (canonical, so `$ORIGIN` in
//!    libtorch's own rpath finds the wheel's CUDA libraries);
//! 2. `libtorch_cuda` linked with `--no-as-needed`: nothing calls it directly,
//!    so `--as-needed` would drop it and CUDA would never be available.
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=DEP_TCH_LIBTORCH_LIB");
    let Some(lib) = std::env::var_os("DEP_TCH_LIBTORCH_LIB") else {
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
}
