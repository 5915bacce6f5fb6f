//! Every vector of `games/influence/vectors/perft.txt`,
//! at every depth it gives.

use game::{perft, Game};
use influence::Influence;

/// One line of the file: a position and its `(depth, nodes)` counts.
type Vector = (String, Vec<(u32, u64)>);

fn vectors() -> Vec<Vector> {
    let text = game::read_repo_file(
        env!("CARGO_MANIFEST_DIR"),
        "games/influence/vectors/perft.txt",
    );
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let pos = parts.next().expect("a position").trim().to_string();
        let counts = parts
            .map(|p| {
                let mut w = p.split_whitespace();
                let d = w.next().and_then(|d| d.strip_prefix('D')).expect("Dn");
                let n = w.next().expect("a count");
                (d.parse().expect("a depth"), n.parse().expect("a count"))
            })
            .collect();
        out.push((pos, counts));
    }
    assert!(out.len() >= 20, "the perft file has {} vectors", out.len());
    out
}

fn check(max_depth: u32, min_depth: u32) {
    let mut deepest = 0;
    let vectors = vectors();
    let g = Influence::standard();
    let mut checked = 0;
    for (text, counts) in vectors {
        let pos = g
            .parse_state(&text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        for (d, want) in counts {
            if d > max_depth || d < min_depth {
                continue;
            }
            assert_eq!(perft(&pos, d), want, "perft {d} of {text}");
            checked += 1;
            deepest = deepest.max(d);
        }
    }
    assert!(
        checked >= 60 && deepest == 5,
        "{checked} counts, deepest {deepest}"
    );
}

/// Every count of every vector, the start's depth 5 (29 046 817 leaves)
/// included: about 0.25 s in the test profile, so nothing is left behind
/// `#[ignore]`.
#[test]
fn every_vector_at_every_depth() {
    check(u32::MAX, 1);
}
