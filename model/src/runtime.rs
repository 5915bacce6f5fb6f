//! What libtorch this process runs on (`triad version`): its version, CUDA
//! and MKL-DNN availability, and the thread counts in use, the first thing
//! to look at when a run is slower than expected (CUDA missing, a single
//! thread) or a build picked up the wrong libtorch.

use serde::Serialize;

/// The libtorch runtime as this process sees it (the keys of `triad
/// version --json`, less `triad`).
#[derive(Debug, Clone, Serialize)]
pub struct Runtime {
    /// The libtorch version, e.g. `2.11.0`.
    pub libtorch: String,
    /// Its build, e.g. `cu130` (`cpu` for the CPU-only wheel; empty when
    /// the version names none).
    pub libtorch_build: String,
    /// Whether CUDA is available.
    pub cuda: bool,
    /// CUDA devices seen.
    pub cuda_devices: i64,
    /// Whether MKL-DNN is available.
    pub mkldnn: bool,
    /// libtorch intra-op threads (one forward pass is split across them).
    pub threads: i32,
    /// libtorch inter-op threads (independent ops run concurrently).
    pub interop_threads: i32,
    /// CPUs this process may use.
    pub cpus: usize,
}

impl Runtime {
    /// Reads the runtime. `version` is the libtorch version the binary was
    /// built against as the wheel writes it (`2.11.0+cu130`): tch has no
    /// run-time version call.
    pub fn collect(version: &str) -> Runtime {
        let (libtorch, build) = version.split_once('+').unwrap_or((version, ""));
        Runtime {
            libtorch: libtorch.to_string(),
            libtorch_build: build.to_string(),
            cuda: tch::Cuda::is_available(),
            cuda_devices: tch::Cuda::device_count(),
            mkldnn: tch::utils::has_mkldnn(),
            threads: tch::get_num_threads(),
            interop_threads: tch::get_num_interop_threads(),
            cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }

    /// The runtime as lines of `label  value`, each ending in a newline.
    pub fn text(&self) -> String {
        let yes_no = |b: bool| if b { "yes" } else { "no" };
        let mut out = if self.libtorch_build.is_empty() {
            format!("libtorch         {}\n", self.libtorch)
        } else {
            format!(
                "libtorch         {} ({})\n",
                self.libtorch, self.libtorch_build
            )
        };
        out.push_str(&format!(
            "cuda             {} ({} device{})\n",
            yes_no(self.cuda),
            self.cuda_devices,
            if self.cuda_devices == 1 { "" } else { "s" }
        ));
        out.push_str(&format!("mkldnn           {}\n", yes_no(self.mkldnn)));
        out.push_str(&format!("threads          {}\n", self.threads));
        out.push_str(&format!("interop threads  {}\n", self.interop_threads));
        out.push_str(&format!("cpus             {}\n", self.cpus));
        out
    }
}
