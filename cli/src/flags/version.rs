//! The flags of `triad version` (its `run` is `src/cmd/version.rs`).

/// Print the triad and libtorch versions, CUDA and MKL-DNN availability and
/// the thread counts in use.
#[derive(clap::Args)]
pub struct Args {
    /// Print one JSON object with the keys triad, libtorch, libtorch_build,
    /// cuda, cuda_devices, mkldnn, threads, interop_threads, cpus.
    #[arg(long)]
    pub json: bool,
}
