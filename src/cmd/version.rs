//! `triad version`: what this binary was built against and what it will use
//! at run time, the first thing to look at when a run is slower than expected
//! (CUDA missing, a single thread) or a build picked up the wrong libtorch.

use super::CliError;

/// Print the triad and libtorch versions, CUDA and MKL-DNN availability and
/// the thread counts in use.
#[derive(clap::Args)]
pub struct Args {
    /// Print one JSON object with the keys triad, libtorch, libtorch_build,
    /// cuda, cuda_devices, mkldnn, threads, interop_threads, cpus.
    #[arg(long)]
    json: bool,
}

/// What `triad version` reports.
struct Report {
    triad: &'static str,
    /// Read from the wheel's `torch/version.py` by `build.rs` at build time
    /// (tch has no run-time version call): `2.11.0+cu130` gives libtorch
    /// `2.11.0` and build `cu130` (`cpu` for the CPU-only wheel).
    libtorch: &'static str,
    libtorch_build: &'static str,
    cuda: bool,
    cuda_devices: i64,
    mkldnn: bool,
    /// libtorch intra-op threads (one forward pass is split across them).
    threads: i32,
    /// libtorch inter-op threads (independent ops run concurrently).
    interop_threads: i32,
    /// CPUs this process may use.
    cpus: usize,
}

impl Report {
    fn collect() -> Report {
        let (libtorch, libtorch_build) = env!("TRIAD_LIBTORCH_VERSION")
            .split_once('+')
            .unwrap_or((env!("TRIAD_LIBTORCH_VERSION"), ""));
        Report {
            triad: env!("CARGO_PKG_VERSION"),
            libtorch,
            libtorch_build,
            cuda: tch::Cuda::is_available(),
            cuda_devices: tch::Cuda::device_count(),
            mkldnn: tch::utils::has_mkldnn(),
            threads: tch::get_num_threads(),
            interop_threads: tch::get_num_interop_threads(),
            cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

pub fn run(args: Args) -> Result<(), CliError> {
    let r = Report::collect();
    if args.json {
        super::print_json(&serde_json::json!({
            "triad": r.triad,
            "libtorch": r.libtorch,
            "libtorch_build": r.libtorch_build,
            "cuda": r.cuda,
            "cuda_devices": r.cuda_devices,
            "mkldnn": r.mkldnn,
            "threads": r.threads,
            "interop_threads": r.interop_threads,
            "cpus": r.cpus,
        }));
    } else {
        let yes_no = |b: bool| if b { "yes" } else { "no" };
        println!("triad            {}", r.triad);
        if r.libtorch_build.is_empty() {
            println!("libtorch         {}", r.libtorch);
        } else {
            println!("libtorch         {} ({})", r.libtorch, r.libtorch_build);
        }
        println!(
            "cuda             {} ({} device{})",
            yes_no(r.cuda),
            r.cuda_devices,
            if r.cuda_devices == 1 { "" } else { "s" }
        );
        println!("mkldnn           {}", yes_no(r.mkldnn));
        println!("threads          {}", r.threads);
        println!("interop threads  {}", r.interop_threads);
        println!("cpus             {}", r.cpus);
    }
    Ok(())
}
