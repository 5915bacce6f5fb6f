//! Pirate Chess through the binary.

use crate::common::{json, triad};

/// `triad perft --suite` on the game's vectors, which mix board sizes
/// (8×8, 6×6, 10×8 ...): each line is read on its own size, and every count
/// to depth 1 matches (deeper counts are the crate's tests). It failed at
/// the first 6×6 line.
#[test]
fn perft_suite_reads_every_board_size_of_the_vectors() {
    let text = game::read_repo_file(env!("CARGO_MANIFEST_DIR"), "games/pirate/vectors/perft.txt");
    let lines = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .count();
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/pirate/vectors/perft.txt");
    let path = path.to_str().unwrap();
    let out = triad(&[
        "perft",
        "--game",
        "pirate",
        "--suite",
        path,
        "--max-depth",
        "1",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    assert_eq!(v["failed"], 0);
    assert_eq!(
        v["passed"].as_u64().unwrap() as usize,
        lines,
        "one D1 per line"
    );
    // A wrong count is still a failed check (exit 1), naming the position.
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(
        &bad,
        "6/6/6/6/6/6 b FPDJBSGCfpdjbsgc 00/00 0/0 0 0 ; D1 541\n",
    )
    .unwrap();
    let out = triad(&[
        "perft",
        "--game",
        "pirate",
        "--suite",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("expected 541, got 540"));
}
