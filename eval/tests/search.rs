//! Behaviour of the alpha-beta engine on the shared test vectors.

use eval::search::{Limits, Score, Searcher, MATE};
use game::Position;
use std::path::PathBuf;

fn vectors(name: &str) -> Option<String> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/spec/vectors")
        .join(name);
    match std::fs::read_to_string(&p) {
        Ok(s) => Some(s),
        Err(_) => {
            eprintln!("note: {} not found; test skipped", p.display());
            None
        }
    }
}

/// (position, expected moves) from a `TFEN ; move move ...` file.
fn cases(text: &str) -> Vec<(Position, Vec<String>)> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (tfen, moves) = l.split_once(';').expect("TFEN ; moves");
            let pos = Position::from_tfen(tfen.trim()).expect("valid TFEN");
            let moves = moves.split_whitespace().map(String::from).collect();
            (pos, moves)
        })
        .collect()
}

fn depth(d: u32) -> Limits {
    Limits::depth(d)
}

#[test]
fn finds_every_mate_in_one_at_depth_2() {
    let Some(text) = vectors("mate1.txt") else {
        return;
    };
    let cases = cases(&text);
    assert!(!cases.is_empty());
    for (pos, mating) in cases {
        let mut s = Searcher::new(4);
        let r = s.search(&pos, &[], depth(2), |_| {});
        let best = r.best.expect("a move");
        let text = pos.move_to_text(best);
        assert!(
            mating.contains(&text),
            "{pos}: played {text}, mates are {mating:?}"
        );
        // The move really mates, and the score says mate in 1.
        let after = pos.play(best);
        assert!(
            after.in_check() && after.count_legal() == 0,
            "{pos}: {text} does not mate"
        );
        let info = r.info.expect("an iteration");
        assert_eq!(info.score, Score::Mate(1), "{pos}");
        assert_eq!(info.value, MATE - 1);
    }
}

#[test]
fn finds_the_forced_mate_in_two() {
    let Some(text) = vectors("mate2.txt") else {
        return;
    };
    for (pos, firsts) in cases(&text) {
        let mut s = Searcher::new(8);
        let r = s.search(&pos, &[], depth(4), |_| {});
        let best = r.best.expect("a move");
        let expected: Vec<_> = firsts
            .iter()
            .map(|t| pos.parse_move(t).expect("parses"))
            .collect();
        assert!(
            expected.contains(&best),
            "{pos}: played {}",
            pos.move_to_text(best)
        );
        assert_eq!(r.info.unwrap().score, Score::Mate(2), "{pos}");
    }
}

#[test]
fn mated_side_sees_negative_mate() {
    let Some(text) = vectors("mate1.txt") else {
        return;
    };
    let (pos, mating) = &cases(&text)[0];
    let after = pos.play(pos.parse_move(&mating[0]).unwrap());
    // The mated side has no move: no best move, no info.
    let mut s = Searcher::new(1);
    assert!(s.search(&after, &[], depth(2), |_| {}).best.is_none());
    // One move earlier, from the loser's side, after a move that allows mate.
    let mut s = Searcher::new(4);
    let r = s.search(pos, &[], depth(3), |_| {});
    assert_eq!(r.info.unwrap().score, Score::Mate(1));
}

fn sample_positions() -> Vec<Position> {
    let mut v = vec![Position::start()];
    if let Some(text) = vectors("perft.txt") {
        for l in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .take(12)
        {
            let tfen = l.split(';').next().unwrap().trim();
            v.push(Position::from_tfen(tfen).unwrap());
        }
    }
    v
}

#[test]
fn transposition_table_does_not_change_results() {
    for pos in sample_positions() {
        for d in 1..=3 {
            let mut with = Searcher::new(4);
            let mut without = Searcher::new(4);
            with.set_selective(false);
            without.set_selective(false);
            without.set_tt(false);
            let a = with.search(&pos, &[], depth(d), |_| {}).info.unwrap();
            let b = without.search(&pos, &[], depth(d), |_| {}).info.unwrap();
            assert_eq!(a.value, b.value, "{pos} depth {d}");
        }
    }
}

#[test]
fn respects_depth_and_node_limits() {
    let pos = Position::start();
    let mut s = Searcher::new(4);
    let mut depths = Vec::new();
    let r = s.search(&pos, &[], depth(3), |i| depths.push(i.depth));
    assert_eq!(depths, vec![1, 2, 3]);
    assert_eq!(r.info.unwrap().depth, 3);

    // A node budget stops the search close to the budget (one node of
    // overshoot per ply unwinding at most) after the first iteration.
    let first = Searcher::new(4).search(&pos, &[], depth(1), |_| {}).nodes;
    let budget = first + 5_000;
    let r = Searcher::new(4).search(&pos, &[], Limits::nodes(budget), |_| {});
    assert!(r.nodes <= budget + 1, "{} > {}", r.nodes, budget);
    assert!(r.best.is_some());
    // And it is deterministic.
    let r2 = Searcher::new(4).search(&pos, &[], Limits::nodes(budget), |_| {});
    assert_eq!(r.best, r2.best);
    assert_eq!(r.nodes, r2.nodes);
}

#[test]
fn repetition_in_history_is_a_draw() {
    // Kings and a few ships only: shuffling is all there is.
    let pos = Position::from_tfen(
        "[][][]1/1[]1[]2/6/1[][]3/2[B]2[]/1[][]1[][k]/[]2[]1[]/[][][][K] b - 3 57",
    )
    .unwrap();
    let mut s = Searcher::new(4);
    let r = s.search(&pos, &[], depth(3), |_| {});
    assert!(r.best.is_some());
    // With the current position already in the history, every line that
    // returns to it scores 0; the search still returns a legal move.
    let hist = vec![pos.hash(), 1, 2, 3];
    let r = s.search(&pos, &hist, depth(4), |_| {});
    assert!(pos.is_legal(r.best.unwrap()));
}
