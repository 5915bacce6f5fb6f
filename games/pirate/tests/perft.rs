//! Every vector of `games/pirate/vectors/perft.txt`.

use pirate::Position;

/// One line of the file: a position and its `(depth, nodes)` counts.
type Vector = (String, Vec<(u32, u64)>);

fn vectors() -> Vec<Vector> {
    let text = game::read_repo_file(env!("CARGO_MANIFEST_DIR"), "games/pirate/vectors/perft.txt");
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

/// Checks every count up to `max_nodes` leaves; returns how many.
fn check(max_nodes: u64) -> usize {
    let vectors = vectors();
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

/// Every count of every vector, the start's depth 3 (1 119 210 900
/// leaves) included: about 4 s in the test profile thanks to the §9 count
/// at the last ply, so nothing is left behind `#[ignore]`.
#[test]
fn every_vector_at_every_depth() {
    let n = check(u64::MAX);
    if n > 0 {
        assert!(n >= 58, "{n} counts checked");
    }
}

/// Leaves of `depth` plies, listing the last ply instead of counting it.
fn perft_listed(p: &Position, depth: u32, bufs: &mut [Vec<pirate::Move>]) -> u64 {
    let (buf, rest) = bufs.split_first_mut().expect("a buffer per ply");
    p.legal_moves(buf);
    if depth == 1 {
        return buf.len() as u64;
    }
    let mut n = 0;
    for &m in buf.iter() {
        n += perft_listed(&p.play(m), depth - 1, rest);
    }
    n
}

/// The start's depth 3 with every last-ply position listed (907 200
/// listings): checks the listing against the vector where the suite checks
/// the §9 count. About a minute in the test profile, so ignored; run with
/// `cargo test -p pirate --release -- --ignored`.
#[test]
#[ignore = "907 200 listings of about 1 200 turns: about a minute"]
fn start_depth_3_by_listing() {
    let p = Position::start(pirate::Size::DEFAULT);
    let mut bufs: Vec<Vec<pirate::Move>> = (0..3).map(|_| Vec::with_capacity(2048)).collect();
    assert_eq!(perft_listed(&p, 3, &mut bufs), 1_119_210_900);
}
