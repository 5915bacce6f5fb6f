//! Every vector of `../shared/spec/influence/perft.txt` (read in place),
//! to the depth that keeps the suite quick in the test profile; the full
//! depths are behind `#[ignore]` (`cargo test -p influence --release --
//! --ignored`).

use game::{perft, Game};
use influence::Influence;

/// `(position, [(depth, nodes)])` of the shared vectors, or `None` (with a
/// note) when the shared spec is not beside the repository.
/// One line of the file: a position and its `(depth, nodes)` counts.
type Vector = (String, Vec<(u32, u64)>);

fn vectors() -> Option<Vec<Vector>> {
    let text = game::read_shared_spec(env!("CARGO_MANIFEST_DIR"), "influence/perft.txt")?;
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
    assert!(
        out.len() >= 20,
        "the shared perft file has {} vectors",
        out.len()
    );
    Some(out)
}

fn check(max_depth: u32, min_depth: u32) {
    let Some(vectors) = vectors() else { return };
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
        }
    }
    assert!(checked > 0);
}

/// Depths 1–3 of every vector (depth 4 of the start: under a second in
/// release, a few in the test profile).
#[test]
fn shared_vectors_to_depth_3() {
    check(3, 1);
}

#[test]
fn start_depth_4_both_armies() {
    let Some(vectors) = vectors() else { return };
    let g = Influence::standard();
    let mut n = 0;
    for (text, counts) in vectors.iter().take(2) {
        let pos = g.parse_state(text).unwrap();
        let want = counts.iter().find(|c| c.0 == 4).expect("a depth-4 count").1;
        assert_eq!(perft(&pos, 4), want, "{text}");
        n += 1;
    }
    assert_eq!(n, 2);
}

/// The deepest counts (the start's depth 5: 29 046 817 leaves).
#[test]
#[ignore = "deep perft: run with --release -- --ignored"]
fn shared_vectors_full_depth() {
    check(u32::MAX, 4);
}
