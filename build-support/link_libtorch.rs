// Link set-up shared by the build scripts of every package whose executables
// (the binary, test binaries) link tch: `build.rs`, `model/build.rs`,
// `selfplay/build.rs`, `mcts/build.rs`, `explore/build.rs` include this file
// with `include!`.
//
// torch-sys (`links = "tch"`) finds libtorch (see `.cargo/config.toml`:
// `LIBTORCH` points at the wheel in `.venv`) and exports its library folder
// to the build scripts of packages that depend on it directly, as
// `DEP_TCH_LIBTORCH_LIB`. Link arguments set by a dependency's build script
// (tch has its own) do not reach our executables, so each such package
// repeats them:
//
// 1. an rpath to the libtorch lib folder, so executables run from any
//    directory with no `LD_LIBRARY_PATH`. The folder is canonicalised so that
//    `$ORIGIN` in libtorch's own rpath (`$ORIGIN/../../nvidia/*/lib`, where the
//    wheel's CUDA libraries live) resolves inside the real site-packages and
//    not through the `.venv/libtorch` link;
// 2. `libtorch` (and `libtorch_cuda` when present) linked with
//    `--no-as-needed`: nothing calls into libtorch_cuda directly, so the
//    default `--as-needed` would drop it and CUDA would never be available.

/// Emits the link arguments; returns the canonical libtorch lib folder, or
/// `None` where torch-sys does not export it. `this_file` is the path of this
/// file relative to the calling package (so cargo reruns on changes to it).
fn link_libtorch(this_file: &str) -> Option<std::path::PathBuf> {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={this_file}");
    println!("cargo:rerun-if-env-changed=DEP_TCH_LIBTORCH_LIB");
    let lib = std::path::PathBuf::from(std::env::var_os("DEP_TCH_LIBTORCH_LIB")?);
    let lib = std::fs::canonicalize(&lib).unwrap_or(lib);
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", lib.display());
    println!("cargo:rustc-link-arg=-Wl,--no-as-needed");
    if lib.join("libtorch_cuda.so").exists() {
        println!("cargo:rustc-link-arg=-ltorch_cuda");
    }
    println!("cargo:rustc-link-arg=-ltorch");
    Some(lib)
}
