//! Adds an rpath to the libtorch library directory so that this crate's test
//! binaries (and anything linking them) run without `LD_LIBRARY_PATH`.
//!
//! torch-sys declares `links = "tch"` and prints `cargo:libtorch_lib=DIR`,
//! which cargo hands to dependents' build scripts as `DEP_TCH_LIBTORCH_LIB`.
fn main() {
    println!("cargo:rerun-if-env-changed=DEP_TCH_LIBTORCH_LIB");
    if let Ok(dir) = std::env::var("DEP_TCH_LIBTORCH_LIB") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
    }
}
