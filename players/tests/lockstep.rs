//! Matches played in lockstep (`players::lockstep`): reproducible from
//! their seed, batched suites, symmetry-averaged players, bad checkpoints.
use eval::arena::{self, openings::random_openings, players::PlayerSpec, RunOptions, Schedule};
use eval::arena::{PlayedGame, Table};
use game::{Game, GameTag};
use model::{CheckpointInfo, Network, Shape};
use piratechnics::{Piratechnics, Position};
use players::NetPlayers;

fn tiny_net(dir: &std::path::Path, name: &str, seed: u64) -> String {
    let game = Piratechnics::standard();
    let shape = Shape {
        blocks: 1,
        channels: 8,
        ..Shape::of(&model::ModelConfig::default(), game.encoding())
    };
    let path = dir.join(name);
    Network::with_shape(shape, tch::Device::Cpu, seed)
        .save(&path, &CheckpointInfo::new(&GameTag::of(&game), shape, 0))
        .unwrap();
    path.display().to_string()
}

fn moves(games: &[PlayedGame<Piratechnics>]) -> Vec<Vec<u64>> {
    games.iter().map(|g| g.game.hashes().to_vec()).collect()
}

/// Two networks, an alpha-beta and a random player in one round robin,
/// played in lockstep: every game ends, the same games come out on a
/// second run (on 1 and on 3 threads), and a stop after 5 games returns
/// exactly the 5 games the callback saw.
#[test]
fn lockstep_matches_are_reproducible_and_stop_where_told() {
    let dir = tempfile::tempdir().unwrap();
    let a = tiny_net(dir.path(), "a.safetensors", 3);
    let b = tiny_net(dir.path(), "b.safetensors", 4);
    let players: Vec<PlayerSpec> = [
        // One network keeps its trees between moves (reuse), one not.
        format!("net:{a},sims=8,reuse=true"),
        format!("net:{b},sims=6"),
        "ab:depth=1".into(),
        "random".into(),
    ]
    .iter()
    .map(|s| s.parse().unwrap())
    .collect();
    let game = Piratechnics::standard();
    let openings = random_openings(&game, 3, 2, 9);
    let schedule = Schedule::round_robin(players.len(), 3, openings.len());
    let nets = NetPlayers::<Position>::new(tch::Device::Cpu, false);
    let play = |threads: usize, stop_after: usize| {
        let opts = RunOptions {
            threads,
            max_plies: 40,
            seed: 11,
        };
        let mut seen = 0;
        let games = arena::run(
            &game,
            &players,
            &schedule,
            &openings,
            &opts,
            Some(&nets),
            |_| {
                seen += 1;
                seen < stop_after
            },
        )
        .unwrap();
        assert_eq!(games.len(), seen);
        games
    };
    let one = play(1, usize::MAX);
    assert_eq!(one.len(), schedule.games.len());
    let mut table = Table::new(players.len());
    for g in &one {
        assert!(g.game.ply() > 0);
        table.add(g);
    }
    // Every pair met: the networks' seats were driven by the batches.
    assert!((0..players.len()).all(|i| table.total(i).games() > 0));
    assert_eq!(moves(&one), moves(&play(1, usize::MAX)));
    let three = play(3, usize::MAX);
    assert_eq!(three.len(), schedule.games.len());
    assert_eq!(moves(&three), moves(&play(3, usize::MAX)));
    let stopped = play(2, 5);
    assert_eq!(stopped.len(), 5);
}

/// A suite scored through the lockstep driver (each position a one-move
/// game, searches batched) counts the same errors as the same network
/// choosing one position at a time.
#[test]
fn a_batched_suite_counts_what_one_position_at_a_time_counts() {
    use eval::arena::players::{NetFactory, NetSpec, Player};
    use game::{SuiteCase, SuiteFile};
    /// The factory's players without its lockstep matches.
    struct OneByOne<'a>(&'a NetPlayers<Position>);
    impl NetFactory<Piratechnics> for OneByOne<'_> {
        fn build(
            &self,
            game: &Piratechnics,
            spec: &NetSpec,
            seed: u64,
        ) -> Result<Box<dyn Player<Piratechnics>>, eval::PlayerError> {
            self.0.build(game, spec, seed)
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let net = tiny_net(dir.path(), "n.safetensors", 7);
    let game = Piratechnics::standard();
    let cases: Vec<SuiteCase<Position>> = random_openings(&game, 24, 6, 3)
        .into_iter()
        .map(|position| {
            let mut moves = Vec::new();
            position.legal_moves(&mut moves);
            moves.truncate(moves.len() / 2);
            SuiteCase {
                position,
                good: moves,
            }
        })
        .collect();
    let files = [SuiteFile {
        name: "half".into(),
        stage: "test".into(),
        cases,
    }];
    let nets = NetPlayers::<Position>::new(tch::Device::Cpu, false);
    // Evaluated once, averaged over the file mirror, and under one
    // drawn symmetry a leaf (two salts).
    for options in [
        "",
        ",symmetry=average",
        ",symmetry=random",
        ",symmetry=random:5",
    ] {
        let spec: PlayerSpec = format!("net:{net},sims=24{options}").parse().unwrap();
        let score = |f: &dyn NetFactory<Piratechnics>| {
            eval::suite::score_suite(&game, &spec, Some(f), &files, None, 2, &|_| {}).unwrap()
        };
        let batched = score(&nets);
        let single = score(&OneByOne(&nets));
        assert_eq!(batched[0].positions, 24);
        assert_eq!(batched[0].errors, single[0].errors, "{spec}");
        // The same positions missed, named alike, in file order.
        assert_eq!(batched[0].missed, single[0].missed, "{spec}");
        assert_eq!(batched[0].missed.len(), batched[0].errors);
        assert!(batched[0]
            .missed
            .windows(2)
            .all(|w| w[0].number < w[1].number));
        assert!(
            batched[0].errors > 0 && batched[0].errors < 24,
            "{spec}: {batched:?}"
        );
    }
}

/// A network averaged over the mirror searches differently from the
/// same network evaluated once (two networks in one match), and plays
/// the same games again from the same seed.
#[test]
fn a_network_averaged_over_the_mirror_is_its_own_player() {
    let dir = tempfile::tempdir().unwrap();
    let net = tiny_net(dir.path(), "n.safetensors", 3);
    let players: Vec<PlayerSpec> = [
        format!("net:{net},sims=16"),
        format!("net:{net},sims=16,symmetry=average"),
    ]
    .iter()
    .map(|s| s.parse().unwrap())
    .collect();
    let game = Piratechnics::standard();
    let openings = random_openings(&game, 4, 4, 9);
    let schedule = Schedule::gauntlet(2, 4, openings.len());
    let nets = NetPlayers::<Position>::new(tch::Device::Cpu, false);
    let opts = RunOptions {
        threads: 1,
        max_plies: 12,
        seed: 5,
    };
    let play = || {
        arena::run(
            &game,
            &players,
            &schedule,
            &openings,
            &opts,
            Some(&nets),
            |_| true,
        )
        .unwrap()
    };
    let (a, b) = (play(), play());
    assert_eq!(a.len(), schedule.games.len());
    assert_eq!(moves(&a), moves(&b));
    // The same games with both seats evaluated once differ somewhere.
    let plain: Vec<PlayerSpec> = vec![players[0].clone(), players[0].clone()];
    let c = arena::run(
        &game,
        &plain,
        &schedule,
        &openings,
        &opts,
        Some(&nets),
        |_| true,
    )
    .unwrap();
    assert_ne!(moves(&a), moves(&c));
}

/// A checkpoint that does not read is an error before any game.
#[test]
fn a_bad_checkpoint_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.safetensors");
    std::fs::write(&bad, b"not a checkpoint").unwrap();
    let players: Vec<PlayerSpec> = [format!("net:{},sims=4", bad.display()), "random".into()]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    let game = Piratechnics::standard();
    let openings = random_openings(&game, 1, 0, 1);
    let schedule = Schedule::gauntlet(2, 1, openings.len());
    let nets = NetPlayers::<Position>::new(tch::Device::Cpu, false);
    let r = arena::run(
        &game,
        &players,
        &schedule,
        &openings,
        &RunOptions::default(),
        Some(&nets),
        |_| true,
    );
    assert!(r.is_err());
}
