//! Matches of PiRaTeKnIcS through the generic arena: players, the runner,
//! openings and the shard rows of match games.

use eval::arena::openings::{random_openings, read_openings};
use eval::arena::players::PlayerSpec;
use eval::arena::record::game_record;
use eval::arena::{run, RunOptions, Schedule, Table};
use game::{Game, GameState, History};
use piratechnics::{Piratechnics, Position};

#[test]
fn alpha_beta_beats_random_and_results_add_up() {
    let game = Piratechnics::standard();
    let players: Vec<PlayerSpec> = vec!["ab:depth=1".parse().unwrap(), PlayerSpec::Random];
    let openings = random_openings(&game, 2, 2, 3);
    let schedule = Schedule::gauntlet(2, 2, openings.len());
    let opts = RunOptions {
        threads: 2,
        max_plies: 200,
        seed: 9,
    };
    let mut seen = 0;
    let games = run(&game, &players, &schedule, &openings, &opts, None, |_| {
        seen += 1;
        true
    })
    .unwrap();
    assert_eq!(games.len(), 4);
    assert_eq!(seen, 4);
    let mut t = Table::new(2);
    for (i, g) in games.iter().enumerate() {
        t.add(g);
        // Every game replays legally from its opening.
        let mut check = History::new(g.game.start().clone());
        for &m in g.game.moves() {
            check.try_play(m).unwrap();
        }
        // Its shard rows are valid and replay to the same game.
        let rec = game_record(&game, g, &players, i as u64);
        assert_eq!(rec.positions.len(), g.game.ply());
        for r in &rec.positions {
            r.validate().unwrap();
            assert_eq!(&*r.game, "piratechnics");
            assert_eq!(&*r.variant, "standard");
        }
        let replayed = rec.replay(&game).unwrap();
        assert_eq!(replayed.moves(), g.game.moves());
        assert_eq!(rec.result(), Some(g.outcome.result));
    }
    assert_eq!(t.total(0).games(), 4);
    assert_eq!(t.total(0), t.total(1).flipped());
    assert!(t.total(0).score() > 0.5, "{:?}", t.total(0));
}

#[test]
fn stopping_early_keeps_finished_games() {
    let game = Piratechnics::standard();
    let players = vec![PlayerSpec::Random, PlayerSpec::Random];
    let openings = vec![Position::start()];
    let schedule = Schedule::gauntlet(2, 10, 1);
    let opts = RunOptions {
        threads: 1,
        max_plies: 40,
        seed: 1,
    };
    let games = run(&game, &players, &schedule, &openings, &opts, None, |_| {
        false
    })
    .unwrap();
    // The stopping game, plus at most the one its thread had started.
    assert!((1..=2).contains(&games.len()), "{}", games.len());
}

#[test]
fn openings_are_of_the_games_variant() {
    let game = Piratechnics::named("capacity2", None).unwrap();
    let openings = random_openings(&game, 3, 4, 5);
    assert_eq!(openings.len(), 3);
    for p in &openings {
        assert_eq!(p.variant().name, game.variant());
        assert!(p.outcome(1).is_none());
    }
    // A file of position texts reads back in the same variant.
    let dir = std::env::temp_dir().join(format!("eval-openings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("openings.txt");
    let text: Vec<String> = openings.iter().map(|p| p.to_text()).collect();
    std::fs::write(&path, format!("# three\n{}\n", text.join(" ; x\n"))).unwrap();
    let read = read_openings(&game, &path).unwrap();
    assert_eq!(read, openings);
    // A bad line, an empty file and a missing file are each an
    // `EvalError::Openings` naming the file (and the line).
    std::fs::write(&path, format!("{}\nnot a position\n", text[0])).unwrap();
    let e = read_openings(&game, &path).unwrap_err();
    assert!(matches!(e, eval::EvalError::Openings(_)), "{e:?}");
    assert!(
        e.to_string()
            .starts_with(&format!("{}:2: ", path.display())),
        "{e}"
    );
    std::fs::write(&path, "# nothing\n").unwrap();
    let e = read_openings(&game, &path).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("{}: no openings in the file", path.display())
    );
    std::fs::remove_dir_all(&dir).unwrap();
    let e = read_openings(&game, &path).unwrap_err();
    assert!(matches!(e, eval::EvalError::Openings(_)), "{e:?}");
    assert!(e.to_string().starts_with("cannot read openings"), "{e}");
}

#[test]
fn network_players_need_a_factory() {
    let game = Piratechnics::standard();
    let players: Vec<PlayerSpec> = vec!["net:x.safetensors".parse().unwrap(), PlayerSpec::Random];
    let schedule = Schedule::gauntlet(2, 1, 1);
    let err = run(
        &game,
        &players,
        &schedule,
        &[game.start()],
        &RunOptions::default(),
        None,
        |_| true,
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            eval::EvalError::Player(eval::PlayerError::NoNetworks { .. })
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("not available"), "{err}");
}
