//! Every vector of `../shared/spec/pirate/perft.txt` (read in place).

use pirate::Position;

/// One line of the file: a position and its `(depth, nodes)` counts.
type Vector = (String, Vec<(u32, u64)>);

fn vectors() -> Option<Vec<Vector>> {
    let text = game::read_shared_spec(env!("CARGO_MANIFEST_DIR"), "pirate/perft.txt")?;
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
    assert!(out.len() >= 20, "the shared perft file has {} vectors", out.len());
    Some(out)
}

/// Checks every count up to `max_nodes` leaves; returns how many.
fn check(max_nodes: u64) -> usize {
    let Some(vectors) = vectors() else { return 0 };
    let mut checked = 0;
    for (text, counts) in vectors {
        let pos = Position::parse(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(pos.to_text(), text, "the vector's string round-trips");
        for (d, want) in counts {
            if want > max_nodes {
                continue;
            }
            assert_eq!(game::perft(&pos, d), want, "perft {d} of {text}");
            checked += 1;
        }
    }
    checked
}

#[test]
fn shared_vectors_up_to_a_few_million_leaves() {
    let n = check(3_000_000);
    eprintln!("{n} counts checked");
}

/// Every count, the start's depth 3 (1 119 210 900 leaves) included.
#[test]
#[ignore = "every depth of every vector: about a minute in release"]
fn every_shared_vector_at_every_depth() {
    check(u64::MAX);
}
