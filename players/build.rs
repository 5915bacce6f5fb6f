//! Link set-up for this crate's test binaries: an rpath to libtorch and
//! `libtorch_cuda` kept linked (see `build-support/link_libtorch.rs`).

include!("../build-support/link_libtorch.rs");

fn main() {
    link_libtorch("../build-support/link_libtorch.rs");
}
