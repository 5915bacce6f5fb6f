//! Behaviour of the alpha-beta engine on the PiRaTeKnIcS test vectors, with
//! PiRaTeKnIcS's baseline (`piratechnics` implements `game::AlphaBetaState`).

use eval::search::{Limits, Score, Searcher, MATE};
use piratechnics::Position;

fn vectors(name: &str) -> String {
    game::read_repo_file(
        env!("CARGO_MANIFEST_DIR"),
        &format!("games/piratechnics/vectors/{name}"),
    )
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
    let text = vectors("mate1.txt");
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
    let text = vectors("mate2.txt");
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
    let text = vectors("mate2.txt");
    let (pos, firsts) = &cases(&text)[0];
    // After the first move of the mate in two, every reply allows mate in 1.
    let after = pos.play(pos.parse_move(&firsts[0]).unwrap());
    let mut s = Searcher::new(4);
    let info = s.search(&after, &[], depth(3), |_| {}).info.unwrap();
    assert_eq!(info.score, Score::Mate(-1), "{after}");
    assert_eq!(info.value, -(MATE - 2));
    // A mated position has no best move.
    let text = vectors("mate1.txt");
    let (pos, mating) = &cases(&text)[0];
    let mated = pos.play(pos.parse_move(&mating[0]).unwrap());
    assert!(s.search(&mated, &[], depth(2), |_| {}).best.is_none());
}

fn sample_positions() -> Vec<Position> {
    let mut v = vec![Position::start()];
    {
        let text = vectors("perft.txt");
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

#[test]
fn hundred_ply_rule_inside_the_search() {
    // White (rook against a pawn) is far ahead, but with the clock at 99
    // every move without a capture ends the game drawn, and none captures.
    let tfen = |clock: u32| {
        format!("[][]2/1[][][]2/2[k]3/2[][p]2/[][K][]3/2[]2[]/[][R]3[]/[][][][] w c6d6 {clock} 54")
    };
    let fresh = Position::from_tfen(&tfen(5)).unwrap();
    let late = Position::from_tfen(&tfen(99)).unwrap();
    assert!(late.legal_move_vec().iter().all(|m| !m.is_capture()));
    let v = |p: &Position| {
        Searcher::new(4)
            .search(p, &[], depth(3), |_| {})
            .info
            .unwrap()
            .value
    };
    assert!(v(&fresh) > 200, "{}", v(&fresh));
    assert_eq!(v(&late), 0);
}

/// `quiesce=0` judges leaves statically but still sees mate in one, and is
/// weaker than the full depth-1 engine (a ladder rung below it).
#[test]
fn quiescence_limit_keeps_mates_and_weakens_the_engine() {
    use eval::arena::players::PlayerSpec;
    use eval::arena::{openings::random_openings, run, RunOptions, Schedule, Table};
    let text = vectors("mate1.txt");
    let spec: eval::EngineSpec = "ab:depth=1,quiesce=0".parse().unwrap();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (tfen, _) = line.split_once(';').unwrap();
        let pos = piratechnics::Position::from_tfen(tfen.trim()).unwrap();
        let mut s = eval::Searcher::from_spec(&spec);
        let r = s.search(&pos, &[], spec.limits, |_| {});
        let after = pos.play(r.best.unwrap());
        assert!(after.in_check() && !after.has_legal_move(), "{tfen}");
    }
    let players: Vec<PlayerSpec> = vec![
        "ab:depth=1".parse().unwrap(),
        "ab:depth=1,quiesce=0".parse().unwrap(),
    ];
    let game = piratechnics::Piratechnics::standard();
    let openings = random_openings(&game, 3, 4, 11);
    let schedule = Schedule::gauntlet(2, 3, openings.len());
    let opts = RunOptions {
        threads: 2,
        max_plies: 200,
        seed: 3,
    };
    let mut t = Table::new(2);
    run(&game, &players, &schedule, &openings, &opts, None, |g| {
        t.add(g);
        true
    })
    .unwrap();
    assert!(t.total(0).score() > 0.5, "{:?}", t.total(0));
}
