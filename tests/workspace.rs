//! Checks of the workspace's shape that cargo itself does not make.

use std::path::Path;

/// Every crate that uses `tch` links libtorch into its test binaries, and
/// those run only with an rpath to the wheel's `lib/` folder: the crate
/// needs `build.rs` calling `build-support/link_libtorch.rs`, and a direct
/// `torch-sys` dependency (only direct dependents see
/// `DEP_TCH_LIBTORCH_LIB`). A crate without them builds, and its tests
/// fail on a clean clone with "libtorch_cpu.so: cannot open shared object
/// file" (CI's failure of 2026-11-27).
#[test]
fn every_crate_using_tch_sets_up_the_libtorch_link() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("root Cargo.toml");
    let members: Vec<String> = manifest
        .split_once("members = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(list, _)| {
            list.split(',')
                .map(|m| m.trim().trim_matches('"').to_string())
                .filter(|m| !m.is_empty())
                .collect()
        })
        .expect("a members list in the root Cargo.toml");
    assert!(members.len() > 10, "read only {members:?}");
    let mut crates: Vec<&str> = members.iter().map(String::as_str).collect();
    crates.push(".");
    let mut using_tch = 0;
    for member in crates {
        let dir = root.join(member);
        let toml = std::fs::read_to_string(dir.join("Cargo.toml")).expect("member Cargo.toml");
        let deps = toml
            .split_once("[dependencies]")
            .map(|(_, d)| d.split("\n[").next().unwrap_or(""))
            .unwrap_or("");
        let has = |name: &str| deps.lines().any(|l| l.trim_start().starts_with(name));
        if !has("tch ") && !has("tch=") {
            continue;
        }
        using_tch += 1;
        assert!(
            has("torch-sys"),
            "{member}/Cargo.toml uses tch without a direct torch-sys dependency"
        );
        assert!(
            !toml.contains("build = false"),
            "{member}/Cargo.toml uses tch with its build script turned off"
        );
        let build = std::fs::read_to_string(dir.join("build.rs"))
            .unwrap_or_else(|e| panic!("{member}/build.rs: {e}"));
        assert!(
            build.contains("link_libtorch"),
            "{member}/build.rs does not call build-support/link_libtorch.rs"
        );
    }
    assert!(using_tch >= 7, "found only {using_tch} crates using tch");
}
