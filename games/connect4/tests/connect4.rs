//! Connect Four: move generation (perft), text, symmetry, and the solver
//! against Pascal Pons's benchmark files (benchmarks/connect4 in the repository).

use connect4::{Column, Connect4, Position, Size, Solver};
use game::{perft, Game, GameResult, GameState, SplitMix, Termination};

/// Leaves of the game tree from the empty 7x6 board: 7^n until columns
/// fill (ply 7: the 7 one-column sequences are gone) and games end (from
/// ply 7 a won game has no children).
#[test]
fn perft_from_the_start() {
    let start = Connect4::standard().start();
    let expected = [1u64, 7, 49, 343, 2401, 16807, 117649, 823536, 5673234];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&start, d as u32), n, "depth {d}");
    }
}

#[test]
fn mirror_preserves_perft_and_moves() {
    let game = Connect4::standard();
    let mut rng = SplitMix::new(3);
    for _ in 0..20 {
        let p = random_position(&game, &mut rng, 12);
        let m = p.transform(1);
        assert_eq!(perft(&p, 4), perft(&m, 4), "{p:?}");
        assert_eq!(m.transform(1).key(), p.key());
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        for &mv in &moves {
            let a = p.play(mv).transform(1);
            let b = m.play(p.transform_move(mv, 1));
            assert_eq!(a.key(), b.key());
        }
    }
}

fn random_position(game: &Connect4, rng: &mut SplitMix, max: usize) -> Position {
    let mut p = game.start();
    let mut moves = Vec::new();
    let plies = rng.below(max as u64 + 1) as usize;
    for _ in 0..plies {
        p.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        p.apply(moves[rng.below(moves.len() as u64) as usize]);
    }
    p
}

/// Seeded random games on three board sizes: the text round-trips, every
/// move's text parses back, the key is unique to the stones, and a game
/// ends exactly when a line is made or the board is full.
#[test]
fn random_games_keep_their_invariants() {
    for size in [
        Size::STANDARD,
        Size::new(4, 4).unwrap(),
        Size::new(9, 5).unwrap(),
    ] {
        let game = Connect4::sized(size);
        let mut rng = SplitMix::new(size.cells() as u64);
        let mut moves = Vec::new();
        for _ in 0..200 {
            let mut p = game.start();
            loop {
                let text = p.to_text();
                let back = game.parse_state(&text).unwrap();
                assert_eq!(back, p);
                assert_eq!(back.hash(), p.hash());
                p.legal_moves(&mut moves);
                assert_eq!(p.count_legal_moves(), moves.len() as u64);
                assert_eq!(p.has_legal_move(), !moves.is_empty());
                if let Some(o) = p.terminal(!moves.is_empty(), 1) {
                    match o.termination {
                        Termination::Line => {
                            assert!(p.is_won());
                            assert_eq!(o.result, GameResult::win_for(!p.side()));
                        }
                        Termination::BoardFull => {
                            assert_eq!(p.moves_played(), size.cells());
                            assert_eq!(o.result, GameResult::Draw);
                        }
                        t => panic!("unexpected termination {t:?}"),
                    }
                    break;
                }
                let m = moves[rng.below(moves.len() as u64) as usize];
                assert_eq!(p.parse_move(&p.move_text(m)).unwrap(), m);
                let wins = p.is_winning_move(m);
                p.apply(m);
                assert_eq!(wins, p.is_won(), "{p:?}");
            }
        }
    }
}

#[test]
fn bad_text_is_refused_with_a_reason() {
    let game = Connect4::standard();
    for (bad, needle) in [
        ("448", "off the board"),
        ("4x", "not a column"),
        ("4444444", "full"),
        ("12121212", "already won"),
    ] {
        let e = game.parse_state(bad).unwrap_err();
        assert!(e.message().contains(needle), "{bad}: {e}");
    }
    assert!(game.parse_state("1212121").unwrap().is_won());
    assert_eq!(game.parse_state("").unwrap(), game.start());
    assert_eq!(game.parse_state("-").unwrap(), game.start());
    let p = game.parse_state("444444").unwrap();
    assert!(p.parse_move("4").unwrap_err().message().contains("full"));
    assert!(p.parse_move("44").is_err());
    assert_eq!(p.parse_move("7").unwrap(), Column(6));
    assert!(Size::new(10, 6).unwrap_err().message().contains("64"));
    assert!(Connect4::named("9x9", None, None).is_err());
    assert_eq!(
        Connect4::named("standard", Some(8), Some(7))
            .unwrap()
            .variant(),
        "8x7"
    );
}

/// The errors carry what a caller matches on: the text at fault, whether a
/// move does not read or does not fit, the key, the cause.
#[test]
fn errors_carry_their_fields() {
    use game::{GameError, MoveFault};
    use std::error::Error;
    let game = Connect4::standard();
    let p = game.parse_state("444444").unwrap();
    let full = p.parse_move("4").unwrap_err();
    assert!(matches!(
        &full,
        GameError::Move { text, fault: MoveFault::Illegal, .. } if text == "4"
    ));
    let unreadable = p.parse_move("44").unwrap_err();
    assert!(matches!(
        unreadable,
        GameError::Move {
            fault: MoveFault::Unreadable,
            ..
        }
    ));
    let e = game.parse_state("448").unwrap_err();
    assert!(matches!(&e, GameError::Position { text, .. } if text == "448"));
    let inner = e.source().expect("the column refused is the source");
    assert_eq!(inner.to_string(), "column 8 is off the board (7 columns)");
    assert!(e.to_string().ends_with(&inner.to_string()), "{e}");
    let e = Connect4::named("9xz", None, None).unwrap_err();
    assert!(matches!(&e, GameError::Options { key, .. } if key == "variant"));
    assert!(e.source().is_some(), "the number that does not parse");
}

/// One line of a `.moves` file: the sequence, its score, every column's value.
type PonsLine = (String, i32, Vec<Option<i32>>);

/// The lines of a Pons file's `.moves` (benchmarks/connect4/ in the repository).
fn pons(name: &str) -> Vec<PonsLine> {
    let text = game::read_repo_file(
        env!("CARGO_MANIFEST_DIR"),
        &format!("benchmarks/connect4/{name}.moves"),
    );
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let values = f[2..]
                .iter()
                .map(|v| (*v != ".").then(|| v.parse().unwrap()))
                .collect();
            (f[0].to_string(), f[1].parse().unwrap(), values)
        })
        .collect()
}

/// Checks every `every`-th line of a file for its score, and every
/// `columns`-th line for every column's value as well (a column's value
/// can take far longer to prove than the position's best).
fn check_file(name: &str, every: usize, columns: usize) {
    let lines = pons(name);
    assert_eq!(lines.len(), 1000, "{name}");
    let game = Connect4::standard();
    let mut solver = Solver::new(20);
    for (i, (seq, score, values)) in lines.iter().enumerate() {
        if i % every != 0 && i % columns != 0 {
            continue;
        }
        let p = game.parse_state(seq).unwrap();
        assert_eq!(solver.solve(&p), *score, "{name}: {seq}");
        if i % columns == 0 {
            assert_eq!(&solver.column_values(&p), values, "{name}: {seq}");
        }
    }
}

#[test]
fn solver_matches_end_easy_whole() {
    check_file("Test_L3_R1", 1, 1);
}

#[test]
fn solver_matches_middle_easy_whole() {
    check_file("Test_L2_R1", 1, 1);
}

#[test]
fn solver_matches_beginning_easy_whole() {
    check_file("Test_L1_R1", 1, 100);
}

#[test]
fn solver_matches_middle_medium_sampled() {
    check_file("Test_L2_R2", 50, 100);
}

#[test]
fn solver_matches_beginning_medium_sampled() {
    // Five positions, one with its columns.
    check_file("Test_L1_R2", 200, 1000);
}

/// The slow files whole (the hardest takes hours with column values):
/// `cargo test --release -p connect4 -- --ignored`.
#[test]
#[ignore]
fn solver_matches_every_file_whole() {
    for f in ["Test_L2_R2", "Test_L1_R2", "Test_L1_R3"] {
        check_file(f, 1, 1);
    }
}

/// A sample of the hardest file (scores only; about 6 s a position).
#[test]
#[ignore]
fn solver_matches_beginning_hard_sampled() {
    check_file("Test_L1_R3", 100, usize::MAX);
}

#[test]
fn depth_limited_search_sees_only_its_horizon() {
    let game = Connect4::standard();
    let mut solver = Solver::new(16);
    // X to move wins at once in column 4 (three stacked below): any depth.
    let p = game.parse_state("414141").unwrap();
    assert_eq!(solver.solve_depth(&p, 1), solver.solve(&p));
    // The start is a first-player win at the 21st stone... far beyond 4 plies.
    let start = game.start();
    assert_eq!(solver.solve_depth(&start, 4), 0);
}

/// Plain minimax over the legal moves (no pruning; a memo): Pons's score
/// from the rules alone, to check the solver on boards without published
/// values. `depth` plies at most (`None`: to the end).
#[derive(Default)]
struct Minimax {
    memo: std::collections::HashMap<(u64, Option<u32>), i32>,
}

impl Minimax {
    fn value(&mut self, p: &Position, depth: Option<u32>) -> i32 {
        let cells = p.size().cells() as i32;
        let n = p.moves_played() as i32;
        if p.is_won() {
            // The opponent made its line with the n-th stone.
            return -(cells + 2 - n) / 2;
        }
        if n == cells || depth == Some(0) {
            return 0;
        }
        if let Some(&v) = self.memo.get(&(p.key(), depth)) {
            return v;
        }
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        let best = moves
            .iter()
            .map(|&m| -self.value(&p.play(m), depth.map(|d| d - 1)))
            .max()
            .expect("a position that is not over has a move");
        self.memo.insert((p.key(), depth), best);
        best
    }
}

/// The solver against plain minimax on small boards, even and odd numbers
/// of cells (the score's formula depends on the parity), from random
/// positions: the score, every column's value, the best column, and the
/// depth-limited search (a win or loss it reports is exact, and one within
/// its horizon is never missed).
#[test]
fn solver_matches_minimax_on_small_boards() {
    for (w, h, min_plies, positions) in
        [(4, 4, 0, 60), (5, 4, 4, 60), (5, 5, 11, 40), (6, 4, 8, 40)]
    {
        let size = Size::new(w, h).unwrap();
        let game = Connect4::sized(size);
        let mut rng = SplitMix::new(w as u64 * 100 + h as u64);
        let mut minimax = Minimax::default();
        let mut solver = Solver::new(16);
        let mut moves = Vec::new();
        let mut checked = 0;
        while checked < positions {
            let mut p = game.start();
            let plies = min_plies + rng.below(size.cells() as u64 - min_plies as u64) as u32;
            for _ in 0..plies {
                p.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                p.apply(moves[rng.below(moves.len() as u64) as usize]);
            }
            let exact = minimax.value(&p, None);
            assert_eq!(solver.solve(&p), exact, "{size} {p:?}");
            if p.terminal(p.has_legal_move(), 1).is_some() {
                assert_eq!(solver.best_column(&p, None), None);
                continue;
            }
            checked += 1;
            let values: Vec<Option<i32>> = (0..size.width)
                .map(|c| {
                    p.is_legal(Column(c))
                        .then(|| -minimax.value(&p.play(Column(c)), None))
                })
                .collect();
            assert_eq!(solver.column_values(&p), values, "{size} {p:?}");
            let (best, score) = solver.best_column(&p, None).unwrap();
            assert_eq!((values[best as usize], score), (Some(exact), exact));
            for depth in [1, 2, 3, 5] {
                let limited = minimax.value(&p, Some(depth));
                let seen = solver.solve_depth(&p, depth);
                if seen != 0 {
                    assert_eq!(seen, exact, "{size} {p:?} depth {depth}");
                }
                if limited != 0 {
                    assert_eq!(seen, limited, "{size} {p:?} depth {depth}");
                }
            }
        }
    }
}

/// Over games: a won position is lost for the side to move, at the
/// winner's speed; a full board is a draw; neither has columns.
#[test]
fn solver_scores_finished_games() {
    let game = Connect4::standard();
    let mut solver = Solver::new(12);
    // X's fourth stone in column 1 (the 7th stone): X won with k = 4.
    let won = game.parse_state("1212121").unwrap();
    assert_eq!(solver.solve(&won), -(22 - 4));
    assert_eq!(solver.solve_depth(&won, 3), -(22 - 4));
    assert!(solver.column_values(&won).iter().all(Option::is_none));
    let small = Connect4::sized(Size::new(4, 4).unwrap());
    // A full 4x4 board without a line.
    let full = small.parse_state("1234123421432143").unwrap();
    assert!(!full.has_legal_move() && !full.is_won());
    assert_eq!(solver.solve(&full), 0);
    assert_eq!(solver.best_column(&full, None), None);
}

/// The held-out set (benchmarks/connect4-heldout, made by
/// scripts/connect4-heldout.sh): 84 distinct positions of each number of
/// stones from 6 to 41, none of them in Pons's files, and its labels the
/// solver's. One position of every number of stones from 10 on, drawn
/// with a fixed seed, is solved again: its score, and from 18 stones on
/// every column's value (earlier columns take minutes each in a test
/// build). The whole file: `cargo test --release -p connect4 -- --ignored`.
#[test]
fn held_out_labels_match_the_solver_on_a_sample() {
    check_heldout(&heldout());
}

#[test]
#[ignore]
fn held_out_labels_match_the_solver_whole() {
    let game = Connect4::standard();
    let mut solver = Solver::new(24);
    for l in heldout() {
        let p = game.parse_state(&l.sequence).unwrap();
        assert_eq!(solver.solve(&p), l.score, "{}", l.sequence);
        assert_eq!(solver.column_values(&p), l.values, "{}", l.sequence);
    }
}

fn heldout() -> Vec<connect4::pons::PonsLine> {
    let path = game::repo_path(
        env!("CARGO_MANIFEST_DIR"),
        "benchmarks/connect4-heldout/Heldout.moves",
    );
    connect4::pons::read_moves_file(&path).unwrap()
}

fn check_heldout(lines: &[connect4::pons::PonsLine]) {
    assert_eq!(lines.len(), 3024);
    let mut per_stones = [0usize; 43];
    let mut seen = std::collections::HashSet::new();
    for l in lines {
        per_stones[l.sequence.len()] += 1;
        assert!(seen.insert(l.sequence.clone()), "{} twice", l.sequence);
        assert_eq!(l.values.len(), 7, "{}", l.sequence);
    }
    for (stones, n) in per_stones.iter().enumerate() {
        let want = if (6..=41).contains(&stones) { 84 } else { 0 };
        assert_eq!(*n, want, "positions of {stones} stones");
    }
    for (name, _) in connect4::pons::FILES {
        for p in pons(name) {
            assert!(!seen.contains(&p.0), "{} is in Pons's {name}", p.0);
        }
    }
    let game = Connect4::standard();
    let mut solver = Solver::new(22);
    let mut rng = SplitMix::new(43);
    for stones in 10..=41 {
        let i = (stones - 6) * 84 + rng.below(84) as usize;
        let l = &lines[i];
        assert_eq!(l.sequence.len(), stones);
        let p = game.parse_state(&l.sequence).unwrap();
        assert_eq!(solver.solve(&p), l.score, "{}", l.sequence);
        if stones >= 18 {
            assert_eq!(solver.column_values(&p), l.values, "{}", l.sequence);
        }
    }
}

/// The test sets of smaller boards (benchmarks/connect4-sizes): each read
/// as its board's positions, no line twice, every tenth line's score and
/// column values the solver's.
#[test]
fn smaller_board_sets_match_the_solver_on_a_sample() {
    for (w, h, lines) in [(5, 4, 512), (6, 4, 520), (6, 5, 520), (7, 5, 527)] {
        let path = game::repo_path(
            env!("CARGO_MANIFEST_DIR"),
            &format!("benchmarks/connect4-sizes/Heldout-{w}x{h}.moves"),
        );
        let set = connect4::pons::read_moves_file(&path).unwrap();
        assert_eq!(set.len(), lines, "{}", path.display());
        let game = Connect4::sized(Size::new(w, h).unwrap());
        let mut seen = std::collections::HashSet::new();
        let mut solver = Solver::new(22);
        for (i, l) in set.iter().enumerate() {
            assert!(seen.insert(&l.sequence), "{w}x{h}: {} twice", l.sequence);
            assert_eq!(l.values.len(), w as usize, "{w}x{h}: {}", l.sequence);
            let p = game.parse_state(&l.sequence).unwrap();
            if i % 10 == 0 {
                assert_eq!(solver.solve(&p), l.score, "{w}x{h}: {}", l.sequence);
                assert_eq!(
                    solver.column_values(&p),
                    l.values,
                    "{w}x{h}: {}",
                    l.sequence
                );
            }
        }
    }
}
