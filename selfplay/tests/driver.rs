//! The batched driver: determinism from the seed, shards that replay.

use data::{group_games, read_shard, ShardWriter};
use game::{Game as _, GameMove, History, Termination};
use mcts::{Algorithm, NetworkEvaluator, UniformEvaluator};
use piratechnics::{Move, Piratechnics, Position};
use selfplay::{FinishedGame, SelfPlay, SelfplayConfig};

fn small(algorithm: Algorithm, threads: usize) -> SelfplayConfig {
    SelfplayConfig {
        algorithm,
        simulations: 12,
        cheap_simulations: 4,
        cheap_share: 0.5,
        gumbel_m: 4,
        max_plies: 40,
        games_in_flight: 3,
        cache_size: 1024,
        threads,
        resign_threshold: -0.5,
        resign_plies: 1,
        no_resign_share: 0.5,
        ..Default::default()
    }
}

fn play(config: &SelfplayConfig, seed: u64, games: u64) -> (Vec<FinishedGame>, selfplay::Totals) {
    let mut sp = SelfPlay::new(&Piratechnics::standard(), config, seed, games, "uniform");
    let mut out = Vec::new();
    let mut rounds = 0;
    while !sp.is_done() {
        sp.round(&mut UniformEvaluator, &mut out).unwrap();
        rounds += 1;
        assert!(rounds < 100_000, "runaway");
    }
    (out, sp.totals)
}

/// Plays `games` Connect Four games with the uniform evaluator from `seed`.
fn play_connect4(config: &SelfplayConfig, seed: u64, games: u64) -> Vec<FinishedGame> {
    let mut sp = SelfPlay::new(
        &connect4::Connect4::standard(),
        config,
        seed,
        games,
        "uniform",
    );
    let mut out = Vec::new();
    while !sp.is_done() {
        sp.round(&mut UniformEvaluator, &mut out).unwrap();
    }
    out
}

#[test]
fn same_seed_same_games_any_thread_count() {
    for algorithm in [Algorithm::Puct, Algorithm::Gumbel] {
        let (a, ta) = play(&small(algorithm, 1), 7, 5);
        let (b, _) = play(&small(algorithm, 2), 7, 5);
        let (c, _) = play(&small(algorithm, 1), 8, 5);
        assert_eq!(a.len(), 5);
        assert_eq!(ta.games, 5);
        let rows =
            |g: &[FinishedGame]| g.iter().flat_map(|g| g.records.clone()).collect::<Vec<_>>();
        assert_eq!(
            rows(&a),
            rows(&b),
            "{algorithm:?}: same seed, other thread count"
        );
        assert_ne!(rows(&a), rows(&c), "{algorithm:?}: another seed");
        let mut ids: Vec<u64> = a.iter().map(|g| g.game_id).collect();
        ids.sort();
        assert_eq!(ids, [0, 1, 2, 3, 4]);
        assert!(ta.positions > 0 && ta.evaluations > 0);
        assert!(ta.mean_batch() <= 3.0);
    }
}

#[test]
fn written_games_replay_legally_move_by_move() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.parquet");
    let mut config = small(Algorithm::Puct, 2);
    config.cheap_share = 0.0;
    config.simulations = 8;
    config.max_plies = 200;
    config.resign_threshold = -1.0;
    let (games, _) = play(&config, 3, 4);
    let mut w = ShardWriter::create(&path).unwrap();
    for g in &games {
        for r in &g.records {
            w.push(r).unwrap();
        }
    }
    w.finish().unwrap();
    let rows = read_shard(&path).unwrap();
    let read = group_games(rows).unwrap();
    assert_eq!(read.len(), 4);
    for (g, original) in read.iter().zip(&games) {
        let replayed = g.replay(&Piratechnics::standard()).unwrap();
        assert_eq!(*replayed.start(), Position::start());
        // Independently: each code decodes to a legal move of the game, and
        // each row's repetition count is the game's.
        let mut game = History::new(Position::start());
        for (r, m) in g.positions.iter().zip(replayed.moves()) {
            let code = <Move as GameMove>::from_code(r.chosen_move).unwrap();
            assert_eq!(code, *m);
            assert!(r.legal_moves.contains(&r.chosen_move));
            assert_eq!(r.repetitions, Some(game.repetition_count()));
            assert_eq!(&*r.game, "piratechnics");
            assert_eq!(&*r.variant, "standard");
            assert_eq!(r.source, data::Source::SelfPlay);
            // The budget counts reused visits, so the root has at least that many.
            let visits = r.visits.as_ref().unwrap();
            assert!(visits.iter().sum::<u32>() >= r.simulations.unwrap());
            game.try_play(code).unwrap();
        }
        assert_eq!(game.ply() as u32, g.positions[0].game_length);
        // The stored result is what the rules (or the length cap) say.
        match game.outcome() {
            Some(o) => {
                assert_eq!(g.result(), Some(o.result));
                assert_eq!(g.termination(), o.termination);
            }
            None => {
                assert_eq!(g.termination(), Termination::MaxLength);
                assert_eq!(game.ply(), 200);
            }
        }
        assert_eq!(g.result(), Some(original.outcome.result));
    }
}

#[test]
fn resignation_and_false_positive_bookkeeping() {
    // A uniform network's values are 0 except near mates, so a threshold
    // just below 0 makes sides "resign" whenever a search sees a loss.
    let mut config = small(Algorithm::Puct, 1);
    config.resign_threshold = -0.05;
    config.no_resign_share = 1.0;
    config.max_plies = 60;
    let (games, totals) = play(&config, 1, 6);
    assert_eq!(totals.resignations, 0, "no game may resign");
    let flagged = games
        .iter()
        .filter(|g| g.false_resignation.is_some())
        .count() as u64;
    assert_eq!(flagged, totals.would_resign);
    config.no_resign_share = 0.0;
    let (games, totals) = play(&config, 1, 6);
    let resigned = games
        .iter()
        .filter(|g| g.outcome.termination == Termination::Resignation)
        .count() as u64;
    assert_eq!(resigned, totals.resignations);
    assert!(games.iter().all(|g| g.false_resignation.is_none()));
}

/// A one-block network of 8 channels on the CPU, one thread.
fn tiny_model() -> model::ModelConfig {
    model::ModelConfig {
        blocks: 1,
        channels: 8,
        move_embed: 8,
        policy_hidden: 8,
        value_hidden: 8,
        device: "cpu".into(),
        threads: 1,
        ..Default::default()
    }
}

#[test]
fn plays_with_a_tiny_network_in_batches() {
    let model = tiny_model();
    let game = Piratechnics::standard();
    let net = model::Network::new(&model, game.encoding(), 0).unwrap();
    let mut eval = NetworkEvaluator::new(net);
    let mut config = small(Algorithm::Gumbel, 2);
    config.max_plies = 12;
    config.games_in_flight = 4;
    let mut sp = SelfPlay::new(&game, &config, 0, 4, "tiny");
    let mut out = Vec::new();
    while !sp.is_done() {
        sp.round(&mut eval, &mut out).unwrap();
    }
    assert_eq!(out.len(), 4);
    assert!(
        sp.totals.mean_batch() > 1.0,
        "leaves of several games per call"
    );
    for g in &out {
        for r in &g.records {
            r.validate().unwrap();
            let target = r.policy_target.as_ref().unwrap();
            assert!((target.iter().sum::<f32>() - 1.0).abs() < 1e-3);
        }
    }
}

/// A deterministic evaluator that reads the network encoding (planes, move
/// cells and move features) the way a network would, without torch: games
/// played with it change if an encoding changes. `workers` says whether
/// the driver's tree workers encode the leaves (`evaluate_prepared`) or
/// the evaluator encodes the batch itself (`evaluate`).
/// The driver's prepared batches are scored as given.
struct Featured {
    workers: bool,
    enc: model::Encoder<Position>,
}

impl Featured {
    fn score(enc: &model::Encoder<Position>, policy: &mut Vec<f32>, wdl: &mut Vec<[f32; 3]>) {
        policy.clear();
        wdl.clear();
        let (planes, from, to, feats) = (
            enc.planes(),
            enc.move_from(),
            enc.move_to(),
            enc.move_features(),
        );
        for i in 0..enc.len() {
            let n = enc.moves(i).len();
            let logits: Vec<f32> = (0..n)
                .map(|j| {
                    let f: f32 = (0..feats.shape()[2])
                        .map(|k| feats[[i, j, k]] * (k as f32 + 1.0) * 0.3)
                        .sum();
                    f + ((from[[i, j]] * 7 + to[[i, j]]) % 13) as f32 * 0.2
                })
                .collect();
            let max = logits.iter().cloned().fold(f32::MIN, f32::max);
            let z: f32 = logits.iter().map(|l| (l - max).exp()).sum();
            policy.extend(logits.iter().map(|l| (l - max).exp() / z));
            let s: f32 = planes
                .index_axis(ndarray::Axis(0), i)
                .iter()
                .enumerate()
                .map(|(c, x)| x * ((c % 17) as f32 - 8.0))
                .sum();
            let w = 0.5 + 0.4 * (s * 0.01).tanh();
            wdl.push([w * 0.9, 0.1, (1.0 - w) * 0.9]);
        }
    }
}

impl mcts::Evaluator<Position> for Featured {
    fn evaluate(
        &mut self,
        batch: &[mcts::Request<'_, Position>],
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    ) {
        self.enc.clear();
        for r in batch {
            self.enc.push_with_moves(r.position, r.repetitions, r.moves);
        }
        self.enc.finish();
        Featured::score(&self.enc, policy, wdl);
    }
    fn wants_encoding(&self) -> bool {
        self.workers
    }
    fn evaluate_prepared(
        &mut self,
        batch: &[mcts::Request<'_, Position>],
        encoded: &model::Encoder<Position>,
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    ) {
        assert!(self.workers, "prepared batches only when asked for");
        assert_eq!(encoded.len(), batch.len());
        Featured::score(encoded, policy, wdl);
    }
}

/// Encoding the leaves in the tree workers changes no game: with the same
/// seed and a deterministic evaluator that reads the encoding, the games
/// are the same whether the workers or the evaluator encode, for one or
/// two tree threads, and with the real (tiny, CPU) network as well.
#[test]
fn encoding_in_the_tree_workers_changes_no_game() {
    let game = Piratechnics::standard();
    let run = |eval: &mut dyn mcts::Evaluator<Position>, threads: usize| {
        let mut config = small(Algorithm::Puct, threads);
        config.max_plies = 30;
        config.games_in_flight = 6;
        let mut sp = SelfPlay::new(&game, &config, 11, 6, "featured");
        let mut out = Vec::new();
        while !sp.is_done() {
            sp.round(eval, &mut out).unwrap();
        }
        assert_eq!(out.len(), 6);
        out.iter()
            .flat_map(|g| g.records.clone())
            .collect::<Vec<_>>()
    };
    let featured = |workers| Featured {
        workers,
        enc: model::Encoder::new(),
    };
    let owner = run(&mut featured(false), 1);
    assert_eq!(owner, run(&mut featured(true), 1));
    assert_eq!(owner, run(&mut featured(true), 2));
    assert_ne!(
        owner,
        run(&mut UniformEvaluator, 1),
        "the evaluator's answers steer the games"
    );

    // The network: owner encoding through a wrapper that declines leaves.
    struct Declines(NetworkEvaluator<Position>);
    impl mcts::Evaluator<Position> for Declines {
        fn evaluate(
            &mut self,
            batch: &[mcts::Request<'_, Position>],
            policy: &mut Vec<f32>,
            wdl: &mut Vec<[f32; 3]>,
        ) {
            self.0.evaluate(batch, policy, wdl);
        }
    }
    let model = tiny_model();
    let net = || model::Network::new(&model, game.encoding(), 3).unwrap();
    let with_net_owner = run(&mut Declines(NetworkEvaluator::new(net())), 1);
    let with_net_workers = run(&mut NetworkEvaluator::new(net()), 2);
    assert_eq!(with_net_owner, with_net_workers);
}

/// `[selfplay] adjudicate`: a game stopped at `max_plies` is won by the side
/// the adjudicator puts at least the margin ahead (termination
/// `adjudication`, on every row); below the margin, without an adjudicator,
/// or with the margin 0 it stays a draw by `max-length`. Games that end by
/// the rules before the cap are not touched.
#[test]
fn games_at_the_ply_cap_are_adjudicated_by_the_margin() {
    use game::{Color, GameResult};
    use std::sync::Arc;
    let game = Piratechnics::standard();
    let config = |margin: u32| SelfplayConfig {
        max_plies: 6,
        adjudicate: margin,
        resign_threshold: -1.0,
        ..small(Algorithm::Puct, 1)
    };
    // The side to move after 6 plies is White: +eval means White is ahead.
    let run = |margin: u32, eval: Option<i32>| -> Vec<FinishedGame> {
        let mut sp = SelfPlay::new(&game, &config(margin), 3, 4, "uniform");
        if let Some(e) = eval {
            sp = sp.with_adjudicator(Arc::new(move |p: &Position| {
                assert_eq!(p.side(), Color::White);
                e
            }));
        }
        let mut out = Vec::new();
        while !sp.is_done() {
            sp.round(&mut UniformEvaluator, &mut out).unwrap();
        }
        assert_eq!(out.len(), 4);
        out
    };
    let outcomes = |games: &[FinishedGame]| {
        games
            .iter()
            .map(|g| {
                assert_eq!(g.records.len(), 6, "every game reaches the cap");
                assert!(g
                    .records
                    .iter()
                    .all(|r| r.termination == g.outcome.termination
                        && r.result == Some(g.outcome.result)));
                (g.outcome.result, g.outcome.termination)
            })
            .collect::<Vec<_>>()
    };
    let won = (GameResult::WhiteWin, Termination::Adjudication);
    let lost = (GameResult::BlackWin, Termination::Adjudication);
    let draw = (GameResult::Draw, Termination::MaxLength);
    assert_eq!(outcomes(&run(300, Some(300))), [won; 4]);
    assert_eq!(outcomes(&run(300, Some(-450))), [lost; 4]);
    assert_eq!(
        outcomes(&run(300, Some(299))),
        [draw; 4],
        "below the margin"
    );
    assert_eq!(outcomes(&run(0, Some(10_000))), [draw; 4], "margin 0: off");
    assert_eq!(outcomes(&run(300, None)), [draw; 4], "no adjudicator");
    // Adjudication changes results, never the moves played.
    let moves = |g: &[FinishedGame]| {
        g.iter()
            .flat_map(|g| g.records.iter().map(|r| r.chosen_move))
            .collect::<Vec<_>>()
    };
    assert_eq!(moves(&run(300, Some(300))), moves(&run(0, None)));
}

/// With the MCTS-solver, a row whose root was proven records the proof
/// (value +1, 0 or -1 and an exactly one-hot W/D/L: what the trainer's
/// `proven_value_targets` takes as exact), and the game ends as proven;
/// rows not proven, and every row without the solver, are never one-hot
/// (the root's own evaluation is in the average).
#[test]
fn proven_roots_record_the_proof_as_their_value() {
    use connect4::Connect4;
    let game = Connect4::standard();
    let one_hot = |w: &[f32; 3]| w.iter().all(|&p| p == 0.0 || p == 1.0);
    let run = |solver: bool| {
        let config = SelfplayConfig {
            simulations: 200,
            cheap_share: 0.0,
            max_plies: 42,
            games_in_flight: 4,
            solver,
            resign_threshold: -1.0,
            ..small(Algorithm::Puct, 1)
        };
        let mut sp = SelfPlay::new(&game, &config, 5, 4, "uniform");
        let mut out = Vec::new();
        while !sp.is_done() {
            sp.round(&mut UniformEvaluator, &mut out).unwrap();
        }
        out
    };
    let mut proven = 0;
    for g in run(true) {
        for r in &g.records {
            let wdl = r.root_wdl.unwrap();
            if !one_hot(&wdl) {
                continue;
            }
            proven += 1;
            let v = r.root_value.unwrap();
            let want = [
                (v == 1.0) as u8 as f32,
                (v == 0.0) as u8 as f32,
                (v == -1.0) as u8 as f32,
            ];
            assert_eq!(wdl, want, "game {} ply {}: value {v}", r.game_id, r.ply);
            assert_eq!(
                r.outcome_for_side_to_move(),
                Some(v),
                "game {} ply {}: a proof the game's end disagrees with",
                r.game_id,
                r.ply
            );
        }
    }
    assert!(
        proven > 0,
        "a 200-simulation search proves the ends of games"
    );
    for g in run(false) {
        assert!(g.records.iter().all(|r| !one_hot(&r.root_wdl.unwrap())));
    }
}

/// A driver whose `leaf_eval_weight` asks for a leaf hint refuses to play
/// without one: the hint cannot be lost unseen.
#[test]
#[should_panic(expected = "leaf_eval_weight needs a leaf hint")]
fn a_leaf_weight_without_a_hint_is_refused() {
    let config = SelfplayConfig {
        leaf_eval_weight: 0.5,
        ..small(Algorithm::Puct, 1)
    };
    play(&config, 1, 1);
}

/// `[selfplay] random_plies`: each game opens with that many unsearched
/// rows (search columns null), drawn from the game's own stream (the same
/// seed gives the same openings), the searched rows follow, and the shard
/// passes `triad data verify`'s replay.
#[test]
fn random_opening_plies_are_unsearched_rows_that_replay() {
    use connect4::Connect4;
    let game = Connect4::standard();
    let mut config = small(Algorithm::Puct, 1);
    config.max_plies = 42;
    config.random_plies = 4;
    config.resign_threshold = -1.0;
    let games = play_connect4(&config, 5, 12);
    assert_eq!(games.len(), 12);
    let mut openings = std::collections::HashSet::new();
    for g in &games {
        assert!(g.records.len() > 4, "game {} too short", g.game_id);
        for (ply, r) in g.records.iter().enumerate() {
            assert_eq!(r.ply as usize, ply);
            let searched = ply >= 4;
            assert_eq!(r.simulations.is_some(), searched, "ply {ply}");
            assert_eq!(r.visits.is_some(), searched, "ply {ply}");
            assert_eq!(r.root_value.is_some(), searched, "ply {ply}");
            assert_eq!(r.root_wdl.is_some(), searched, "ply {ply}");
            assert!(r.legal_moves.contains(&r.chosen_move));
            assert_eq!(r.result, Some(g.outcome.result));
        }
        openings.insert(
            g.records[..4]
                .iter()
                .map(|r| r.chosen_move)
                .collect::<Vec<_>>(),
        );
    }
    // Twelve games of four uniform plies out of 7^4 lines: all alike
    // would mean the plies are not drawn.
    assert!(openings.len() > 6, "{} distinct openings", openings.len());
    let rows: Vec<_> = games.iter().flat_map(|g| g.records.clone()).collect();
    let checked = data::verify::verify_records(&game, &rows);
    assert_eq!(checked.games, 12);
    assert!(checked.faults.is_empty(), "{:?}", checked.faults);
    // Reproducible from the seed; and 0 random plies searches from ply 0.
    let again = play_connect4(&config, 5, 12);
    for (a, b) in games.iter().zip(&again) {
        assert_eq!(a.records, b.records);
    }
    config.random_plies = 0;
    for g in play_connect4(&config, 5, 12) {
        assert!(g.records.iter().all(|r| r.simulations.is_some()));
    }
}

/// `[selfplay] random_plies_max`: each game draws its number of random
/// opening plies from `random_plies..=random_plies_max`; the counts stay in
/// the range, differ between games, repeat with the seed, and the shard
/// replays. A maximum equal to `random_plies` draws nothing: the games are
/// those of the key's default.
#[test]
fn random_opening_lengths_are_drawn_per_game_in_the_range() {
    use connect4::Connect4;
    let game = Connect4::standard();
    let mut config = small(Algorithm::Puct, 1);
    config.max_plies = 42;
    config.random_plies = 2;
    config.random_plies_max = 6;
    config.resign_threshold = -1.0;
    let games = play_connect4(&config, 9, 20);
    assert_eq!(games.len(), 20);
    let mut counts = std::collections::BTreeSet::new();
    for g in &games {
        let random = g
            .records
            .iter()
            .take_while(|r| r.simulations.is_none())
            .count();
        assert!(
            (2..=6).contains(&random),
            "game {}: {random} random plies",
            g.game_id
        );
        assert!(
            g.records[random..].iter().all(|r| r.simulations.is_some()),
            "game {}: an unsearched row after the opening",
            g.game_id
        );
        counts.insert(random);
    }
    // Twenty uniform draws from five lengths: fewer than three distinct
    // would mean the length is not drawn per game.
    assert!(counts.len() >= 3, "lengths {counts:?}");
    let rows: Vec<_> = games.iter().flat_map(|g| g.records.clone()).collect();
    let checked = data::verify::verify_records(&game, &rows);
    assert_eq!(checked.games, 20);
    assert!(checked.faults.is_empty(), "{:?}", checked.faults);
    let again = play_connect4(&config, 9, 20);
    for (a, b) in games.iter().zip(&again) {
        assert_eq!(a.records, b.records);
    }
    config.random_plies_max = 2;
    let fixed = play_connect4(&config, 9, 20);
    config.random_plies_max = 0;
    let default = play_connect4(&config, 9, 20);
    for (a, b) in fixed.iter().zip(&default) {
        assert_eq!(a.records, b.records);
        assert_eq!(
            a.records
                .iter()
                .take_while(|r| r.simulations.is_none())
                .count(),
            2
        );
    }
}

/// `[selfplay] random_move_share`: before `random_move_plies`, that share
/// of the searched moves is a uniformly random legal move. The rows stay
/// searched; at temperature 0 the move played is a most-visited one on
/// every row without the share, and on far fewer of the early rows with
/// it at 1 (a uniform draw among seven columns hits one about a seventh
/// of the time, more where visits tie). The games replay, and the same
/// seed gives the same games.
#[test]
fn random_moves_are_played_from_searched_rows() {
    use connect4::Connect4;
    let game = Connect4::standard();
    let mut config = small(Algorithm::Puct, 1);
    config.max_plies = 42;
    config.simulations = 48;
    config.cheap_share = 0.0;
    config.temperature_plies = 0;
    config.final_temperature = 0.0;
    config.resign_threshold = -1.0;
    config.random_move_plies = 10;
    // (early rows, of which a most-visited move was played; the same later)
    let greedy = |games: &[FinishedGame]| {
        let mut counts = [(0usize, 0usize); 2];
        for r in games.iter().flat_map(|g| &g.records) {
            assert!(r.simulations.is_some(), "every row is searched");
            let visits = r.visits.as_ref().expect("visits");
            let best = visits.iter().copied().max().unwrap_or(0);
            let i = r.legal_moves.iter().position(|&m| m == r.chosen_move);
            let i = i.expect("the chosen move is legal");
            let c = &mut counts[(r.ply >= 10) as usize];
            c.0 += 1;
            c.1 += (visits[i] == best) as usize;
        }
        counts
    };
    let plain = play_connect4(&config, 9, 24);
    let [early, late] = greedy(&plain);
    assert_eq!(early.1, early.0, "without the share every move is greedy");
    assert_eq!(late.1, late.0);
    config.random_move_share = 1.0;
    let games = play_connect4(&config, 9, 24);
    let [early, late] = greedy(&games);
    assert!(early.0 > 24 * 8, "{} early rows", early.0);
    assert!(
        (early.1 as f64) < 0.6 * early.0 as f64,
        "{} of {} early moves greedy",
        early.1,
        early.0
    );
    assert_eq!(late.1, late.0, "after random_move_plies the search plays");
    let rows: Vec<_> = games.iter().flat_map(|g| g.records.clone()).collect();
    let checked = data::verify::verify_records(&game, &rows);
    assert_eq!(checked.games, 24);
    assert!(checked.faults.is_empty(), "{:?}", checked.faults);
    for (a, b) in games.iter().zip(&play_connect4(&config, 9, 24)) {
        assert_eq!(a.records, b.records);
    }
}

/// The uniform evaluator, declining every `every`-th call (a Python model
/// that raised): it answers nothing then.
struct Flaky {
    calls: u64,
    every: u64,
    declined: u64,
}

impl mcts::Evaluator<Position> for Flaky {
    fn evaluate(
        &mut self,
        batch: &[mcts::Request<'_, Position>],
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    ) {
        UniformEvaluator.evaluate(batch, policy, wdl);
    }

    fn try_evaluate(
        &mut self,
        batch: &[mcts::Request<'_, Position>],
        _encoded: Option<&model::Encoder<Position>>,
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    ) -> Result<(), mcts::Declined> {
        self.calls += 1;
        if self.calls.is_multiple_of(self.every) {
            self.declined += 1;
            // What a failed model leaves behind must not be read.
            policy.clear();
            policy.resize(7, f32::NAN);
            wdl.clear();
            return Err(mcts::Declined);
        }
        UniformEvaluator.evaluate(batch, policy, wdl);
        Ok(())
    }
}

/// An evaluator that declines (in either half of a round, many times)
/// costs nothing but the call: the driver asks for the same leaves again,
/// and the games, rows and figures come out as those of a run whose
/// evaluator never failed.
#[test]
fn a_declined_batch_is_asked_again_and_the_games_are_unchanged() {
    for algorithm in [Algorithm::Puct, Algorithm::Gumbel] {
        let config = SelfplayConfig {
            games_in_flight: 4,
            ..small(algorithm, 1)
        };
        let (plain, totals) = play(&config, 11, 6);
        let mut sp = SelfPlay::new(&Piratechnics::standard(), &config, 11, 6, "uniform");
        let mut flaky = Flaky {
            calls: 0,
            every: 3,
            declined: 0,
        };
        let mut out = Vec::new();
        let mut errors = 0;
        while !sp.is_done() {
            if sp.round(&mut flaky, &mut out).is_err() {
                errors += 1;
            }
            assert!(errors < 100_000, "runaway");
        }
        assert!(flaky.declined > 10, "declined {} times", flaky.declined);
        assert_eq!(errors, flaky.declined);
        let key = |g: &FinishedGame| g.game_id;
        let (mut a, mut b) = (plain.clone(), out.clone());
        a.sort_by_key(key);
        b.sort_by_key(key);
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x.game_id, y.game_id);
            assert_eq!(x.outcome, y.outcome);
            assert_eq!(format!("{:?}", x.records), format!("{:?}", y.records));
        }
        assert_eq!(sp.totals.games, totals.games);
        assert_eq!(sp.totals.positions, totals.positions);
    }
}
