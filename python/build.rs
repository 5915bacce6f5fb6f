//! Link set-up of the extension: an rpath to the libtorch of `.venv`'s
//! torch wheel (the one `import torch` loads, so one process holds one
//! libtorch) and `libtorch_cuda` kept linked (see
//! `build-support/link_libtorch.rs`).

include!("../build-support/link_libtorch.rs");

fn main() {
    link_libtorch("../build-support/link_libtorch.rs");
}
