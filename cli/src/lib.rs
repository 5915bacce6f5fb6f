//! The `triad` binary's flags and its helpers that know nothing of the
//! libraries, as ripgrep's `grep-cli` is for its binary: every command's
//! flags and help text ([`flags`]), JSON and text output that tolerate a
//! closed pipe, a stop flag set by signals, and the process's start-up
//! settings. It depends on no crate of the workspace (a test checks it):
//! flags hold plain values, and the helpers that name triad's types (the
//! error every library error maps to, reading `--generations`, progress
//! over rows, player flags) live in the binary (`src/cli.rs`).

pub mod flags;

/// Prints one JSON object on stdout.
pub fn print_json(value: &serde_json::Value) {
    println!("{value}");
}

/// Prints `text` on stdout. A closed pipe (`| head`) is not an error and
/// must not panic, so write errors are ignored here.
pub fn emit(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
}

/// Prints a result: the JSON object with `--json`, else the text.
pub fn print_either(
    json: bool,
    value: impl FnOnce() -> serde_json::Value,
    text: impl FnOnce() -> String,
) {
    if json {
        print_json(&value());
    } else {
        print!("{}", text());
    }
}

/// Prints a progress line: on stderr when stdout carries `--json`, else on
/// stdout.
pub fn say(json: bool, line: impl std::fmt::Display) {
    if json {
        eprintln!("{line}");
    } else {
        println!("{line}");
    }
}

/// A flag set by Ctrl-C or SIGTERM, for the commands that stop cleanly.
/// Failing to install the handler (one already set) only loses the clean
/// stop; the command itself is fine.
pub fn stop_on_signal() -> std::sync::Arc<std::sync::atomic::AtomicBool> {
    use std::sync::atomic::{AtomicBool, Ordering};
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
    stop
}

/// Fixes glibc's malloc thresholds so that libtorch's large tensors are
/// reused from the heap instead of being `mmap`ed and unmapped on every
/// allocation. By default glibc serves blocks above a dynamic threshold
/// (128 KiB at first) with `mmap` and returns them at `free`; a training
/// step or a batched forward pass allocates and frees many such tensors, so
/// each step paid fresh page faults for them. Measured with
/// `triad bench train` on the quickstart network (2-core CPU): the raw step
/// ran at 1,240–2,040 samples/s with glibc's defaults and 2,680–2,820 with
/// these settings (docs/train.md). The cost is memory kept by the process
/// for reuse instead of given back to the system between steps.
pub fn keep_large_allocations() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes allocator parameters; it is called at
    // start-up before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 30);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 1 << 30);
    }
}

/// Output piped into `head` and the like: the process ends quietly when the
/// reader goes away, as command-line tools do, instead of panicking in
/// `println!` (the default disposition of SIGPIPE restored). Call first
/// thing in `main`.
pub fn end_quietly_on_closed_pipe() {
    // SAFETY: restoring the default disposition of a signal at start-up,
    // before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
