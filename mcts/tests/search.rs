//! The search core with a uniform evaluator: mates found, visit counts
//! consistent, Gumbel's sequential halving visiting exactly its plan.

use mcts::{gumbel_schedule, Algorithm, Rng, Search, SearchConfig, SearchParams, UniformEvaluator};
use piratechnics::{Game, Position};

/// No noise or FPU reduction, and no mate check: the search alone.
fn quiet(algorithm: Algorithm) -> SearchConfig {
    SearchConfig {
        algorithm,
        fpu_reduction: 0.0,
        root_fpu_reduction: 0.0,
        mate_check: false,
        ..Default::default()
    }
}

fn params(simulations: u32) -> SearchParams {
    SearchParams {
        simulations,
        noise: false,
    }
}

/// `(position, mating moves)` of the mate-in-one vectors.
fn mate_vectors() -> Vec<(Position, Vec<piratechnics::Move>)> {
    let text = game::read_repo_file(
        env!("CARGO_MANIFEST_DIR"),
        "games/piratechnics/vectors/mate1.txt",
    );
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (tfen, moves) = line.split_once(';').expect("TFEN ; moves");
        let pos = Position::from_tfen(tfen.trim()).expect("valid TFEN");
        let mates = moves
            .split_whitespace()
            .map(|m| pos.parse_move(m).expect("valid move"))
            .collect();
        out.push((pos, mates));
    }
    assert!(!out.is_empty());
    out
}

#[test]
fn puct_finds_mate_in_one_with_a_uniform_network() {
    let vectors = mate_vectors();
    for (pos, mates) in vectors {
        let legal = pos.count_legal() as u32;
        // Every move once, then the mate's +1 takes over.
        let sims = legal + 32;
        let game = Game::new(pos.clone());
        let mut search = Search::new(&quiet(Algorithm::Puct), &Position::start(), None);
        let mut rng = Rng::new(1);
        search.run(&game, params(sims), &mut UniformEvaluator, &mut rng);
        let m = search.choose_move(0.0, &mut rng);
        assert!(
            mates.contains(&m),
            "{pos}: chose {} after {sims} simulations ({legal} legal moves)",
            pos.move_to_text(m)
        );
        assert!(
            search.root_value().0 > 0.5,
            "{pos}: root value {:?}",
            search.root_value()
        );
    }
}

#[test]
fn gumbel_finds_mate_in_one_with_a_uniform_network() {
    let vectors = mate_vectors();
    for (pos, mates) in vectors {
        let legal = pos.count_legal() as u32;
        let config = SearchConfig {
            gumbel_m: legal,
            ..quiet(Algorithm::Gumbel)
        };
        let game = Game::new(pos.clone());
        let mut search = Search::new(&config, &Position::start(), None);
        let mut rng = Rng::new(2);
        search.run(&game, params(2 * legal), &mut UniformEvaluator, &mut rng);
        let m = search.choose_move(0.0, &mut rng);
        assert!(mates.contains(&m), "{pos}: chose {}", pos.move_to_text(m));
        // The completed-Q target puts most of its mass on the mates.
        let mut target = Vec::new();
        assert!(search.improved_policy(&mut target));
        let on_mates: f32 = search
            .root_moves()
            .zip(&target)
            .filter(|(mv, _)| mates.contains(mv))
            .map(|(_, p)| p)
            .sum();
        assert!(on_mates > 0.9, "{pos}: {on_mates}");
    }
}

#[test]
fn mate_check_plays_the_mate_with_a_tiny_budget() {
    let vectors = mate_vectors();
    for algorithm in [Algorithm::Puct, Algorithm::Gumbel] {
        for (pos, mates) in &vectors {
            let config = SearchConfig {
                mate_check: true,
                gumbel_m: 4,
                ..quiet(algorithm)
            };
            let game = Game::new(pos.clone());
            let mut search = Search::new(&config, &Position::start(), None);
            let mut rng = Rng::new(3);
            search.run(&game, params(4), &mut UniformEvaluator, &mut rng);
            let m = search.choose_move(0.0, &mut rng);
            assert!(
                mates.contains(&m),
                "{algorithm:?} {pos}: chose {}",
                pos.move_to_text(m)
            );
            assert!(search.mate_hits >= 1);
        }
    }
}

/// Whether the side to move after `m` can mate at once.
fn allows_mate(pos: &Position, m: piratechnics::Move) -> bool {
    let after = pos.play(m);
    after.legal_move_vec().iter().any(|&r| {
        let p = after.play(r);
        p.in_check() && !p.has_legal_move()
    })
}

#[test]
fn mate_check_avoids_moves_that_allow_mate_in_one() {
    // Positions from seeded random games where some moves allow a mate in
    // one and others do not; with a uniform network, only the mate check
    // tells them apart.
    let mut rng = Rng::new(11);
    let mut found = 0;
    for _game in 0..400 {
        let mut pos = Position::start();
        for _ply in 0..120 {
            let moves = pos.legal_move_vec();
            if moves.is_empty() {
                break;
            }
            let losing = moves.iter().filter(|&&m| allows_mate(&pos, m)).count();
            if losing > 0 && losing < moves.len() && !pos.in_check() {
                let config = SearchConfig {
                    mate_check: true,
                    ..quiet(Algorithm::Puct)
                };
                let game = Game::new(pos.clone());
                let mut search = Search::new(&config, &Position::start(), None);
                let sims = 3 * moves.len() as u32;
                search.run(&game, params(sims), &mut UniformEvaluator, &mut rng);
                let m = search.choose_move(0.0, &mut rng);
                assert!(
                    !allows_mate(&pos, m),
                    "{pos}: chose {}, which allows mate ({losing} of {} moves do)",
                    pos.move_to_text(m),
                    moves.len()
                );
                found += 1;
                break;
            }
            let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
            pos.apply(m);
        }
        if found >= 5 {
            break;
        }
    }
    assert!(found >= 5, "only {found} test positions found");
}

#[test]
fn visit_counts_add_up_and_survive_tree_reuse() {
    let mut game = Game::new(Position::start());
    let mut search = Search::new(&SearchConfig::default(), &Position::start(), None);
    let mut rng = Rng::new(3);
    search.run(&game, params(150), &mut UniformEvaluator, &mut rng);
    search.check_visits().unwrap();
    assert_eq!(search.root_visit_count(), 151);
    let mut visits = Vec::new();
    search.root_visits(&mut visits);
    assert_eq!(visits.iter().sum::<u32>(), 150);
    assert_eq!(visits.len() as u64, game.position().count_legal());
    // Reuse: the played move's subtree becomes the root, its visits kept.
    let best = search.choose_move(0.0, &mut rng);
    let kept = visits[search.root_moves().position(|m| m == best).unwrap()];
    assert!(kept > 1);
    game.play(best);
    search.advance(best);
    search.begin(&game, params(150));
    assert_eq!(search.root_visit_count(), kept);
    search.check_visits().unwrap();
    assert!(search.tree_size() as u32 <= kept + 200);
    let mut rng2 = Rng::new(4);
    while search.step(None, &mut rng2) {
        let (mut p, mut w) = (Vec::new(), Vec::new());
        use mcts::Evaluator;
        UniformEvaluator.evaluate(&[search.request()], &mut p, &mut w);
        search.provide(&p, w[0]);
    }
    // PUCT budgets count reused visits: the root reaches 1 + 150.
    assert_eq!(search.root_visit_count(), 151);
    search.check_visits().unwrap();
}

/// Runs `search` to its budget with the uniform evaluator.
fn finish(search: &mut Search<Position>, rng: &mut Rng) {
    use mcts::Evaluator;
    let (mut p, mut w) = (Vec::new(), Vec::new());
    while search.step(None, rng) {
        UniformEvaluator.evaluate(&[search.request()], &mut p, &mut w);
        search.provide(&p, w[0]);
    }
}

/// A match player sees the game only between its own moves: `follow`
/// walks its tree down its move and the opponent's reply, keeping the
/// reply's subtree, and drops the tree for another game or with reuse off.
#[test]
fn a_match_player_follows_the_game_down_its_tree() {
    let start = Position::start();
    let mut game = Game::new(start.clone());
    let mut search = Search::new(&SearchConfig::default(), &start, None);
    let mut rng = Rng::new(5);
    search.run(&game, params(3000), &mut UniformEvaluator, &mut rng);
    let mine = search.choose_move(0.0, &mut rng);
    // Nothing played since: the whole tree stays.
    search.follow(&game);
    search.begin(&game, params(3000));
    assert_eq!(search.root_visit_count(), 3001);
    // The reply's visits in the tree, read through explicit advances.
    let mut reference = Search::new(&SearchConfig::default(), &start, None);
    reference.run(&game, params(3000), &mut UniformEvaluator, &mut Rng::new(5));
    reference.advance(mine);
    game.play(mine);
    reference.begin(&game, params(1));
    let mut visits = Vec::new();
    reference.root_visits(&mut visits);
    let (i, &kept) = visits.iter().enumerate().max_by_key(|&(_, v)| *v).unwrap();
    let reply = reference.root_moves().nth(i).unwrap();
    assert!(kept >= 1, "the reply was searched");
    game.play(reply);
    search.follow(&game);
    search.begin(&game, params(3000));
    assert_eq!(search.root_visit_count(), kept);
    search.check_visits().unwrap();
    finish(&mut search, &mut rng);
    assert_eq!(search.root_visit_count(), 3001);
    // Another game (the start again): a fresh tree.
    let other = Game::new(start.clone());
    search.follow(&other);
    search.begin(&other, params(10));
    assert_eq!(search.root_visit_count(), 0);
    // Reuse off: a fresh tree even where the game continues.
    let config = SearchConfig {
        tree_reuse: false,
        ..SearchConfig::default()
    };
    let mut plain = Search::new(&config, &start, None);
    let mut game = Game::new(start.clone());
    plain.run(&game, params(200), &mut UniformEvaluator, &mut rng);
    let m = plain.choose_move(0.0, &mut rng);
    game.play(m);
    plain.follow(&game);
    plain.begin(&game, params(10));
    assert_eq!(plain.root_visit_count(), 0);
}

#[test]
fn gumbel_schedule_matches_sequential_halving() {
    let mut s = Vec::new();
    gumbel_schedule(4, 16, &mut s);
    assert_eq!(s, [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
    gumbel_schedule(1, 5, &mut s);
    assert_eq!(s, [0, 1, 2, 3, 4]);
    gumbel_schedule(16, 3, &mut s);
    assert_eq!(s, [0, 0, 0]);
    for (m, n) in [(2, 7), (8, 50), (16, 200), (5, 5)] {
        gumbel_schedule(m, n, &mut s);
        assert_eq!(s.len(), n as usize);
    }
}

/// Root visit counts of a Gumbel search from the start, sorted by each
/// move's Gumbel sample (best first).
fn gumbel_visits_by_rank(m: u32, n: u32, seed: u64) -> Vec<u32> {
    let config = SearchConfig {
        gumbel_m: m,
        ..quiet(Algorithm::Gumbel)
    };
    let game = Game::new(Position::start());
    let mut search = Search::new(&config, &Position::start(), None);
    search.run(&game, params(n), &mut UniformEvaluator, &mut Rng::new(seed));
    search.check_visits().unwrap();
    let mut visits = Vec::new();
    search.root_visits(&mut visits);
    assert_eq!(visits.iter().sum::<u32>(), n, "exactly n simulations");
    let g = search.root_gumbel().to_vec();
    let mut order: Vec<usize> = (0..visits.len()).collect();
    order.sort_by(|&a, &b| g[b].total_cmp(&g[a]));
    order.into_iter().map(|i| visits[i]).collect()
}

#[test]
fn gumbel_visits_exactly_the_planned_actions() {
    // Uniform priors and values: the ranking is the Gumbel samples alone.
    // m = 4, n = 16: two phases, 2 visits each to the top 4, then 4 more
    // each to the top 2.
    for seed in 0..5 {
        let v = gumbel_visits_by_rank(4, 16, seed);
        assert_eq!(&v[..4], &[6, 6, 2, 2], "seed {seed}: {v:?}");
        assert!(v[4..].iter().all(|&x| x == 0), "seed {seed}: {v:?}");
    }
    // n = 10: phase 1 gives max(1, 10 / (2·4)) = 1 visit to each of 4,
    // then phases of 10 / (2·2) = 2 visits each to the top 2, the last one
    // cut short after 2 simulations.
    let v = gumbel_visits_by_rank(4, 10, 9);
    assert_eq!(&v[..4], &[4, 4, 1, 1]);
    assert!(v[4..].iter().all(|&x| x == 0));
    // m = 8, n = 24: 1 visit each to 8, then 2 each (3 total) to 4, then
    // the remaining 8 split over the top 2: 3 + 4 + ... see the schedule.
    let mut s = Vec::new();
    gumbel_schedule(8, 24, &mut s);
    let mut planned = [0u32; 8];
    for &t in &s {
        // Simulation visits the best-ranked action with t visits.
        let i = planned.iter().position(|&x| x == t).unwrap();
        planned[i] += 1;
    }
    let v = gumbel_visits_by_rank(8, 24, 11);
    assert_eq!(&v[..8], &planned);
    assert!(v[8..].iter().all(|&x| x == 0));
}

/// The MCTS-solver on Connect Four, checked against the perfect solver:
/// with a uniform network, every result it proves at the root is the
/// position's true result, a proven win is played (a winning column), and
/// a proven draw is not thrown away. Seeded random positions 16 to 32 plies
/// in; enough of them are proven that the check means something.
#[test]
fn solver_proofs_agree_with_the_perfect_solver() {
    use connect4::{Column, Connect4, Solver};
    use game::{Game as _, GameState, History};
    let c4 = Connect4::standard();
    let mut exact = Solver::new(20);
    let mut rng = Rng::new(21);
    let config = SearchConfig {
        solver: true,
        mate_check: true,
        ..quiet(Algorithm::Puct)
    };
    let (mut proven, mut tried) = (0, 0);
    let mut moves: Vec<Column> = Vec::new();
    for _ in 0..1000 {
        if tried == 150 {
            break;
        }
        let mut pos = c4.start();
        let plies = 16 + (rng.next_u64() % 17) as usize;
        let mut over = false;
        for _ in 0..plies {
            pos.legal_moves(&mut moves);
            let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
            if pos.is_winning_move(m) {
                over = true;
                break;
            }
            pos.apply(m);
        }
        pos.legal_moves(&mut moves);
        if over || moves.is_empty() {
            continue;
        }
        tried += 1;
        let truth = exact.solve(&pos).signum() as f32;
        let values = exact.column_values(&pos);
        let mut search = Search::new(&config, &c4.start(), None);
        search.run(
            &History::new(pos),
            params(400),
            &mut UniformEvaluator,
            &mut rng,
        );
        search.check_visits().unwrap();
        let chosen = search.choose_move(0.0, &mut rng);
        let chosen_value = values[chosen.0 as usize].expect("a legal column").signum() as f32;
        if let Some(v) = search.root_proof() {
            proven += 1;
            assert_eq!(
                v,
                truth,
                "{}: proved {v}, truly {truth}",
                pos.sequence_text()
            );
            if v >= 0.0 {
                assert_eq!(
                    chosen_value,
                    truth,
                    "{}: proved {v} but played column {}",
                    pos.sequence_text(),
                    chosen.0 + 1
                );
            }
        }
    }
    assert_eq!(tried, 150, "positions");
    assert!(proven >= 30, "only {proven} of {tried} roots proven");
    eprintln!("{proven} of {tried} roots proven");
}

/// Without `solver` nothing is proven and the search is what it was.
#[test]
fn without_the_solver_nothing_is_proven() {
    use connect4::Connect4;
    use game::{Game as _, History};
    let c4 = Connect4::standard();
    let pos = c4.parse_state("4455").unwrap();
    let mut search = Search::new(&quiet(Algorithm::Puct), &c4.start(), None);
    let mut rng = Rng::new(2);
    search.run(
        &History::new(pos),
        params(300),
        &mut UniformEvaluator,
        &mut rng,
    );
    assert_eq!(search.root_proof(), None);
    assert_eq!(search.proofs, 0);
}

/// A peaked prior (the first legal move 0.6, the rest sharing 0.4) and an
/// even value: PUCT piles its visits on the first move, so forced playouts
/// have something to change.
struct Peaked;

impl mcts::Evaluator<Position> for Peaked {
    fn evaluate(
        &mut self,
        batch: &[mcts::Request<'_, Position>],
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    ) {
        policy.clear();
        wdl.clear();
        for r in batch {
            let n = r.moves.len();
            let rest = if n > 1 { 0.4 / (n - 1) as f32 } else { 0.0 };
            policy.extend((0..n).map(|i| {
                if i == 0 && n > 1 {
                    0.6
                } else if n == 1 {
                    1.0
                } else {
                    rest
                }
            }));
            wdl.push([0.3, 0.4, 0.3]);
        }
    }
}

/// Root visits, pruned visits and the pruned policy of one noisy (`noise`)
/// 400-simulation search from the start with `forced_playouts = k`.
fn forced_search(k: f32, noise: bool) -> (Vec<u32>, Vec<f32>, Option<Vec<f32>>) {
    let config = SearchConfig {
        forced_playouts: k,
        mate_check: false,
        ..Default::default()
    };
    let game = Game::new(Position::start());
    let mut search = Search::new(&config, &Position::start(), None);
    let mut rng = Rng::new(17);
    let params = SearchParams {
        simulations: 400,
        noise,
    };
    search.run(&game, params, &mut Peaked, &mut rng);
    search.check_visits().unwrap();
    let (mut visits, mut pruned, mut policy) = (Vec::new(), Vec::new(), Vec::new());
    search.root_visits(&mut visits);
    search.pruned_visits(&mut pruned);
    let has = search.pruned_policy(&mut policy);
    (visits, pruned, has.then_some(policy))
}

/// KataGo's forced playouts: in a noisy search they move visits from the
/// favourite to the other moves; pruning takes them back out of the policy
/// target (never adding any, keeping the favourite's count, dropping moves
/// left with one visit), so the target is sharper than the raw visits.
/// Without noise (cheap searches, matches) nothing changes.
#[test]
fn forced_playouts_widen_the_search_and_pruning_takes_them_back() {
    let (plain, plain_pruned, plain_policy) = forced_search(0.0, true);
    assert!(plain_policy.is_none(), "no target without forced playouts");
    assert_eq!(
        plain_pruned,
        plain.iter().map(|&n| n as f32).collect::<Vec<_>>()
    );
    let (forced, pruned, policy) = forced_search(2.0, true);
    assert_eq!(forced.iter().sum::<u32>(), 400);
    let best = (0..forced.len())
        .max_by_key(|&i| (forced[i], std::cmp::Reverse(i)))
        .unwrap();
    let others = |v: &[u32]| {
        v.iter()
            .enumerate()
            .filter(|&(i, _)| i != best)
            .map(|(_, &n)| n)
            .sum::<u32>()
    };
    assert!(
        others(&forced) > others(&plain),
        "forced playouts widen the search: {} against {} visits off the favourite",
        others(&forced),
        others(&plain)
    );
    assert_eq!(
        pruned[best], forced[best] as f32,
        "the favourite keeps its visits"
    );
    for (i, (&p, &n)) in pruned.iter().zip(&forced).enumerate() {
        assert!(p <= n as f32, "move {i}: pruned {p} above its {n} visits");
        assert!(p == 0.0 || p >= 2.0, "move {i}: a pruned count of {p}");
    }
    let kept: f32 = pruned.iter().sum();
    assert!(
        kept < 400.0,
        "some forced visits are taken back ({kept} of 400 kept)"
    );
    let policy = policy.expect("a pruned policy target");
    assert!((policy.iter().sum::<f32>() - 1.0).abs() < 1e-4);
    assert!(policy[best] > forced[best] as f32 / 400.0);

    // No noise (a cheap search or a match): forced playouts are off.
    let (quiet, quiet_pruned, quiet_policy) = forced_search(2.0, false);
    assert!(quiet_policy.is_none());
    assert_eq!(quiet, forced_search(0.0, false).0);
    assert_eq!(
        quiet_pruned,
        quiet.iter().map(|&n| n as f32).collect::<Vec<_>>()
    );
}

/// A hint that says `p` for every position and counts its calls.
struct FixedHint {
    p: f32,
    calls: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl mcts::LeafHint<Position> for FixedHint {
    fn win_probability(&mut self, _: &Position) -> f32 {
        self.calls
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.p
    }
}

/// `leaf_eval_weight`, with the hint handed to `Search::new`: every
/// expanded leaf's value is the mix
/// `(1 - w)·(W - L) + w·(2p - 1)` and its draw share `(1 - w)·D`; the
/// hint is asked once per expanded node; weight 0 removes it, and the
/// search is then exactly the plain one.
#[test]
fn the_leaf_hint_is_mixed_into_every_expanded_leaf() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    let game = Game::new(Position::start());
    let run = |weight: f32, p: f32| {
        let calls = Arc::new(AtomicUsize::new(0));
        let config = SearchConfig {
            leaf_eval_weight: weight,
            ..quiet(Algorithm::Puct)
        };
        let hint = FixedHint {
            p,
            calls: calls.clone(),
        };
        let mut search = Search::new(&config, &Position::start(), Some(Box::new(hint)));
        let mut rng = Rng::new(1);
        search.run(&game, params(40), &mut UniformEvaluator, &mut rng);
        search.check_visits().unwrap();
        let mut visits = Vec::new();
        search.root_visits(&mut visits);
        let mut rng = Rng::new(2);
        let best = search.choose_move(0.0, &mut rng);
        (
            search.root_wdl(),
            search.root_value(),
            calls.load(Ordering::Relaxed),
            search.tree_size(),
            visits,
            best,
        )
    };
    // The uniform evaluator says W = D = L = 1/3 (value 0); near the start
    // nothing is terminal, so every node has the same mixed judgement.
    let (wdl, _, calls, nodes, visits, _) = run(0.5, 0.9);
    let expanded = 1 + visits.iter().filter(|&&v| v > 0).count();
    assert!(
        calls >= expanded && calls <= nodes,
        "{calls} calls, {nodes} nodes"
    );
    let draw = (1.0 - 0.5) / 3.0;
    assert!((wdl[1] - draw).abs() < 1e-5, "draw share {wdl:?}");
    // Weight 1 and p = 1/2: every leaf is an even game with no draw.
    let (wdl, (value, _), ..) = run(1.0, 0.5);
    assert!(wdl[1].abs() < 1e-6 && value.abs() < 1e-6, "{wdl:?} {value}");
    // The hint's verdict reaches the root: the leaves one ply down are
    // judged for the opponent, so a hint that favours the side to move
    // everywhere makes every root move look bad, and the root's value
    // (its own leaf plus its children's) is below 0.
    let (_, (value, _), ..) = run(1.0, 0.9);
    assert!(value < 0.0, "root value {value}");
    // Weight 0: no calls, and the very search of no hint at all.
    let (wdl0, v0, calls0, nodes0, visits0, best0) = run(0.0, 0.9);
    assert_eq!(calls0, 0);
    let mut plain = Search::new(&quiet(Algorithm::Puct), &Position::start(), None);
    let mut rng = Rng::new(1);
    plain.run(&game, params(40), &mut UniformEvaluator, &mut rng);
    let mut visits = Vec::new();
    plain.root_visits(&mut visits);
    assert_eq!(visits, visits0);
    assert_eq!(plain.tree_size(), nodes0);
    assert_eq!(plain.root_wdl(), wdl0);
    assert_eq!(plain.root_value(), v0);
    assert_eq!(plain.choose_move(0.0, &mut Rng::new(2)), best0);
}

/// A leaf weight without a hint is refused at construction: no caller can
/// lose the hint unseen.
#[test]
#[should_panic(expected = "needs a leaf hint")]
fn a_leaf_weight_needs_a_hint() {
    let config = SearchConfig {
        leaf_eval_weight: 0.5,
        ..SearchConfig::default()
    };
    let _ = Search::new(&config, &Position::start(), None);
}

/// A Connect Four network that likes column `fav` at the root (prior 0.9)
/// and barely looks at column `win` (0.02), but values every position
/// below `win` as won for the root's mover (0.9) and every other as a
/// little worse than even for it (-0.2): the shape of a winning move the
/// prior missed, which PUCT finds only late in the search.
struct LateWin {
    root: String,
    fav: u8,
    win: u8,
}

impl mcts::Evaluator<connect4::Position> for LateWin {
    fn evaluate(
        &mut self,
        batch: &[mcts::Request<'_, connect4::Position>],
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    ) {
        policy.clear();
        wdl.clear();
        for r in batch {
            let seq = r.position.sequence_text();
            let below = &seq[self.root.len()..];
            if below.is_empty() {
                let others = 0.08 / (r.moves.len() - 2) as f32;
                policy.extend(r.moves.iter().map(|m| match m.0 {
                    c if c == self.fav => 0.9,
                    c if c == self.win => 0.02,
                    _ => others,
                }));
            } else {
                let n = r.moves.len() as f32;
                policy.extend(r.moves.iter().map(|_| 1.0 / n));
            }
            let won = below.starts_with(char::from(b'1' + self.win));
            let for_root_mover = if won { 0.9 } else { -0.2 };
            // The leaf's side to move is the root's mover after an even
            // number of plies below it.
            let v = if below.len() % 2 == 0 {
                for_root_mover
            } else {
                -for_root_mover
            };
            wdl.push([(1.0 + v) / 2.0, 0.0, (1.0 - v) / 2.0]);
        }
    }
}

/// LCB move selection (`lcb_stdevs`): when the winning move the prior
/// missed has fewer visits than the favourite but far the better value,
/// the most visited move is the favourite and LCB plays the win; when the
/// win has too few visits to be considered (under 15% of the favourite's)
/// the favourite stays. The search itself is the same with or without it.
#[test]
fn lcb_selection_plays_a_late_found_winning_move() {
    use connect4::Connect4;
    use game::{Game as _, History};
    let c4 = Connect4::standard();
    let root = "44";
    let pos = c4.parse_state(root).unwrap();
    let (fav, win) = (2u8, 5u8);
    let searched = |lcb: f32, sims: u32| {
        let config = SearchConfig {
            lcb_stdevs: lcb,
            ..quiet(Algorithm::Puct)
        };
        let mut search = Search::new(&config, &c4.start(), None);
        let mut net = LateWin {
            root: root.to_string(),
            fav,
            win,
        };
        let mut rng = Rng::new(3);
        search.run(&History::new(pos), params(sims), &mut net, &mut rng);
        search.check_visits().unwrap();
        let mut stats = Vec::new();
        search.root_stats(&mut stats);
        let chosen = search.choose_move(0.0, &mut rng).0;
        (stats, chosen)
    };
    let of = |stats: &[mcts::MoveStats<connect4::Column>], c: u8| {
        *stats.iter().find(|s| s.mv.0 == c).expect("a legal column")
    };
    for sims in [60, 70, 80] {
        let (plain, plain_move) = searched(0.0, sims);
        let (lcb, lcb_move) = searched(5.0, sims);
        assert_eq!(plain, lcb, "{sims} simulations: LCB changed the search");
        let (f, w) = (of(&plain, fav), of(&plain, win));
        // What the test is about: the win found, valued far above the
        // favourite, with fewer visits but more than 15% of its.
        assert!(w.visits < f.visits, "{sims}: {w:?} against {f:?}");
        assert!(
            w.visits as f32 >= 0.15 * f.visits as f32,
            "{sims}: {w:?} against {f:?}"
        );
        assert!(w.value > f.value + 0.5, "{sims}: {w:?} against {f:?}");
        assert_eq!(plain_move, fav, "{sims}: the most visited move");
        assert_eq!(lcb_move, win, "{sims}: LCB's move");
    }
    // Just found (a visit or two against dozens): not yet considered.
    let (plain, _) = searched(0.0, 50);
    let (f, w) = (of(&plain, fav), of(&plain, win));
    assert!(
        w.visits >= 1 && (w.visits as f32) < 0.15 * f.visits as f32,
        "{w:?} against {f:?}"
    );
    assert_eq!(searched(5.0, 50).1, fav);
}

/// Priors that point the second player (black) at column 6: 0.99 of the
/// mass, the rest sharing 0.01; uniform for the first player; every value
/// even.
struct ColumnSix;

impl mcts::Evaluator<connect4::Position> for ColumnSix {
    fn evaluate(
        &mut self,
        batch: &[mcts::Request<'_, connect4::Position>],
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    ) {
        policy.clear();
        wdl.clear();
        for r in batch {
            let n = r.moves.len();
            let black = game::GameState::side(r.position) == game::Color::Black;
            let six = r.moves.iter().position(|m| m.0 == 5).filter(|_| black);
            let rest = match six {
                Some(_) if n > 1 => 0.01 / (n - 1) as f32,
                _ => 1.0 / n as f32,
            };
            policy.extend((0..n).map(|i| match six {
                Some(k) if k == i && n > 1 => 0.99,
                Some(k) if k == i => 1.0,
                _ => rest,
            }));
            wdl.push([0.3, 0.4, 0.3]);
        }
    }
}

/// The MCTS-solver never searches a move again once it is proven lost, so
/// its siblings get the visits and the node can be proven. Pons's End-Easy
/// #473 (`triad solve --columns` reads 0 0 5 . . 0 0): column 3 wins in
/// three plies, every reply losing to a four at once; the defender's prior
/// points at one reply (column 6). Before the rule every later visit went
/// down that lost reply, first-play urgency ranking the unvisited ones
/// below a certain loss, and column 3 was never proven at 600
/// simulations.
#[test]
fn the_solver_skips_moves_proven_lost_and_proves_a_three_ply_win() {
    use connect4::Connect4;
    use game::{Game as _, History};
    let c4 = Connect4::standard();
    let pos = c4
        .parse_state("665161347545545635162742244772")
        .expect("Pons's End-Easy #473");
    let config = SearchConfig {
        solver: true,
        mate_check: true,
        fpu_reduction: 0.2,
        ..quiet(Algorithm::Puct)
    };
    let mut search = Search::new(&config, &c4.start(), None);
    let mut rng = Rng::new(3);
    search.run(&History::new(pos), params(600), &mut ColumnSix, &mut rng);
    search.check_visits().unwrap();
    assert_eq!(
        search.root_proof(),
        Some(1.0),
        "column 3 wins in three plies"
    );
    assert_eq!(search.choose_move(0.0, &mut rng).0, 2, "column 3 is played");
}

/// A search given a deadline (`Search::stop_at`, the `movetime=` players)
/// runs at least one simulation, stops once the deadline has passed even
/// with an unbounded budget, and the next `begin` drops the deadline.
/// Times here are upper bounds with a generous margin, never speeds.
#[test]
fn a_deadline_stops_the_search_after_one_simulation_at_least() {
    use std::time::{Duration, Instant};
    let game = Game::new(Position::start());
    for algorithm in [Algorithm::Puct, Algorithm::Gumbel] {
        let mut search = Search::new(&quiet(algorithm), &Position::start(), None);
        let mut rng = Rng::new(3);
        // A deadline already past: one simulation, however big the budget.
        search.begin(&game, params(64));
        search.stop_at(Instant::now());
        finish(&mut search, &mut rng);
        assert_eq!(search.simulations(), 1, "{algorithm:?}");
        // The next search has no deadline: its whole budget.
        search.reset();
        search.begin(&game, params(8));
        finish(&mut search, &mut rng);
        assert_eq!(search.simulations(), 8, "{algorithm:?}");
    }
    // An unbounded PUCT budget stops at its deadline.
    let mut search = Search::new(&quiet(Algorithm::Puct), &Position::start(), None);
    let mut rng = Rng::new(4);
    let start = Instant::now();
    search.begin(&game, params(u32::MAX));
    search.stop_at(start + Duration::from_millis(50));
    finish(&mut search, &mut rng);
    let took = start.elapsed();
    assert!(took >= Duration::from_millis(50), "{took:?}");
    assert!(took < Duration::from_millis(50 + 250), "{took:?}");
    assert!(search.simulations() >= 1);
}
