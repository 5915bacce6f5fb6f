//! Connect Four through the binary: `triad solve`, `triad bench pons`,
//! `triad move --stdin`, and a tiny loop with the pure-MCTS and alpha-beta
//! rungs.

use crate::common;

use crate::common::{json, succeeds, triad};

/// The first lines of a Pons file with per-column values.
fn pons_lines(name: &str, n: usize) -> Vec<String> {
    let text = game::read_repo_file(
        env!("CARGO_MANIFEST_DIR"),
        &format!("benchmarks/connect4/{name}.moves"),
    );
    text.lines().take(n).map(String::from).collect()
}

#[test]
fn solve_gives_pons_scores_and_column_values() {
    let lines = pons_lines("Test_L2_R1", 5);
    for line in lines {
        let f: Vec<&str> = line.split_whitespace().collect();
        let out = triad(&["solve", f[0], "--columns", "--json"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v = json(&out);
        let p = &v["positions"][0];
        assert_eq!(p["score"].as_i64().unwrap().to_string(), f[1], "{line}");
        let cols: Vec<String> = p["columns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_i64().map_or(".".into(), |c| c.to_string()))
            .collect();
        assert_eq!(cols, f[2..], "{line}");
    }
    for (bad, needle) in [
        (vec!["solve", "44x"], "not a column"),
        (vec!["solve", "1212121"], "already won"),
        (
            vec!["solve", "--game", "piratechnics", "1"],
            "Connect Four only",
        ),
        (vec!["solve"], "no positions"),
    ] {
        let out = triad(&bad);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {err}");
        assert!(err.contains(needle), "{bad:?}: {err}");
    }
}

#[test]
fn bench_pons_rates_players_on_every_file() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benchmarks/connect4");
    let rate = |player: &str| {
        let out = triad(&[
            "bench",
            "pons",
            "--player",
            player,
            "--sample",
            "50",
            "--json",
            "--dir",
            dir.to_str().unwrap(),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v = json(&out);
        let files = v["files"].as_array().unwrap().clone();
        assert_eq!(files.len(), 6);
        files
            .iter()
            .map(|f| {
                assert_eq!(f["positions"], 50);
                f["errors"].as_u64().unwrap()
            })
            .sum::<u64>()
    };
    let (random, ab) = (rate("random"), rate("ab:depth=5"));
    assert!(ab < random / 2, "ab:depth=5 {ab} errors, random {random}");
    let out = triad(&[
        "bench",
        "pons",
        "--player",
        "bogus",
        "--dir",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
}

/// `bench pons --misses`: every position counted as an error is listed,
/// and each listing agrees with its line of the file: the position's
/// moves, a played column whose exact value's sign is below the best
/// column's, and as right moves exactly the columns of the best sign.
#[test]
fn bench_pons_lists_the_positions_it_counts_as_errors() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benchmarks/connect4");
    let base = [
        "bench",
        "pons",
        "--player",
        "ab:depth=2",
        "--sample",
        "60",
        "--misses",
        "--dir",
        dir.to_str().unwrap(),
    ];
    let v = json(&succeeds(&[&base[..], &["--json"]].concat()));
    let mut listed = 0;
    for f in v["files"].as_array().unwrap() {
        let name = f["file"].as_str().unwrap();
        let lines: Vec<String> = std::fs::read_to_string(dir.join(format!("{name}.moves")))
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        let missed = f["missed"].as_array().cloned().unwrap_or_default();
        assert_eq!(missed.len() as u64, f["errors"].as_u64().unwrap(), "{name}");
        for m in &missed {
            let n = m["number"].as_u64().unwrap() as usize;
            let fields: Vec<&str> = lines[n - 1].split_whitespace().collect();
            assert_eq!(m["position"], fields[0], "{name} #{n}");
            let value = |c: usize| fields[2 + c - 1].parse::<i32>().ok().map(i32::signum);
            let best = (1..=7).filter_map(value).max().unwrap();
            let played: usize = m["played"].as_str().unwrap().parse().unwrap();
            assert!(value(played).unwrap() < best, "{name} #{n}: {m}");
            let right: Vec<usize> = m["right"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().parse().unwrap())
                .collect();
            let expected: Vec<usize> = (1..=7).filter(|&c| value(c) == Some(best)).collect();
            assert_eq!(right, expected, "{name} #{n}");
        }
        listed += missed.len();
    }
    assert!(listed > 0, "ab:depth=2 errs somewhere in 360 positions");
    // The text lists the same positions, one a line after the table.
    let text = String::from_utf8(succeeds(&base).stdout).unwrap();
    assert_eq!(
        text.lines().filter(|l| l.contains(" played ")).count(),
        listed,
        "{text}"
    );
}

#[test]
fn move_answers_positions_on_stdin() {
    // X to move wins at once in column 4; in the second position O can
    // block X's column 1 or win at once in its own column 2.
    let out = common::triad_with_input(
        &[
            "move",
            "--game",
            "connect4",
            "--player",
            "mcts:sims=300",
            "--stdin",
        ],
        "414141\n1212127 3\n44x\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "4", "{text}");
    assert_eq!(lines[1], "2", "{text}");
    assert!(lines[2].starts_with("error:"), "{text}");
}

#[test]
fn a_tiny_connect4_loop_runs_with_every_kind_of_rung() {
    // Every generation is also scored on Pons's files (`[eval] suite`).
    let pons = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benchmarks/connect4");
    let suite = format!(
        "suite = {:?}\nsuite_sample = 3\nsuite_final_sample = 5\nsuite_simulations = 4\n",
        pons.display().to_string()
    );
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("c4.toml");
    std::fs::write(
        &config,
        tiny_c4_loop(
            3,
            &format!(
                "simulations = 8\nladder = [\"random\", \"mcts:sims=50\", \"ab:depth=2\", \"solver:depth=2\"]\n{suite}"
            ),
            1,
        ),
    )
    .unwrap();
    let run = dir.path().join("run");
    let out = common::run_loop(&config, &run);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    // The run's self-play and evaluation games are what the rules say.
    for games in [run.clone(), run.join("eval")] {
        let v = common::json(&common::triad(&[
            "data",
            "verify",
            games.to_str().unwrap(),
            "--json",
        ]));
        assert_eq!(v["ok"], true, "{v}");
    }
    for rung in ["random", "mcts:sims=50", "ab:depth=2", "solver:depth=2"] {
        assert!(
            String::from_utf8_lossy(&out.stdout).contains(rung) || err.contains(rung),
            "{rung} not played"
        );
    }
    if !suite.is_empty() {
        // Generation 0 on 3 positions a file, the last on 5: six files
        // each, in suite.json and in suite.csv's rows, and in the plot.
        let csv = std::fs::read_to_string(run.join("suite.csv")).unwrap();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], "generation,positions,end-easy,middle-easy,middle-medium,beginning-easy,beginning-medium,beginning-hard", "{csv}");
        assert!(lines[1].starts_with("0,3,"), "{csv}");
        assert!(lines[2].starts_with("1,5,"), "{csv}");
        assert_eq!(lines.len(), 3, "{csv}");
        for row in &lines[1..] {
            for rate in row.split(',').skip(2) {
                let r: f64 = rate.parse().unwrap();
                assert!((0.0..=100.0).contains(&r), "{csv}");
            }
        }
        let plot = dir.path().join("plot.svg");
        let out = triad(&[
            "plot",
            run.to_str().unwrap(),
            "--out",
            plot.to_str().unwrap(),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let svg = std::fs::read_to_string(&plot).unwrap();
        assert!(
            svg.contains("benchmark error rate"),
            "no suite panel in the plot"
        );
    }
    // The shards are Connect Four's, and openings read them.
    let out = triad(&["openings", run.to_str().unwrap(), "--plies", "2"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `solver` and `solver:depth=N` as match players: two exact solvers
/// from any opening end the game with the opening's solved value; a
/// depth-limited one never misses a win it can see; games without a
/// solver refuse the spec with a message naming the game.
#[test]
fn solver_players_play_perfectly_and_by_depth() {
    use eval::arena::play_game;
    use eval::arena::players::{build_player, PlayerSpec};
    use game::{Color, Game, GameResult, GameState};

    let game = connect4::Connect4::named("5x4", None, None).unwrap();
    let exact: PlayerSpec = "solver".parse().unwrap();
    assert_eq!(exact.to_string(), "solver");
    let shallow: PlayerSpec = "solver:depth=3".parse().unwrap();
    assert_eq!(shallow, PlayerSpec::Solver(Some(3)));
    for bad in ["solver:depth=0", "solver:depth=x", "solver:plies=3"] {
        let e = bad.parse::<PlayerSpec>().unwrap_err();
        assert!(e.to_string().contains("solver:depth=N"), "{bad}: {e}");
    }
    assert!(PlayerSpec::starts_spec("solver:depth=2"));
    assert!(PlayerSpec::starts_spec("mcts:sims=9"));
    assert!(!PlayerSpec::starts_spec("c=2"));

    let mut solver = connect4::Solver::new(18);
    let mut decided = 0;
    for (k, opening) in ["", "3", "33", "1", "25", "5"].iter().enumerate() {
        let start = game.parse_state(opening).unwrap();
        let score = solver.solve(&start);
        let (h, outcome) = play_game(&game, &exact, &exact, &start, 100, k as u64, None).unwrap();
        let mover = start.side();
        let expected = match score.signum() {
            0 => GameResult::Draw,
            1 => GameResult::win_for(mover),
            _ => GameResult::win_for(mover.flip()),
        };
        assert_eq!(
            outcome.result, expected,
            "opening `{opening}` score {score}"
        );
        // A decided game ends on the stone the score promises (Pons: the
        // line made with n stones on a board of C cells scores
        // (C + 2 - n) / 2): perfect play of both sides, not only the
        // right result.
        if score != 0 {
            decided += 1;
            let n = h.position().moves_played() as i32;
            assert_eq!((20 + 2 - n) / 2, score.abs(), "opening `{opening}`");
        }
    }

    assert!(decided >= 2, "only {decided} decided openings: pick others");

    // A depth-4 solver takes a win in one, blocks one and sees short
    // forks; seated against random on the 7x6 board it wins every game.
    let game = connect4::Connect4::named("standard", None, None).unwrap();
    let two: PlayerSpec = "solver:depth=4".parse().unwrap();
    for seed in 0..6 {
        let (_, outcome) = play_game(
            &game,
            &two,
            &PlayerSpec::Random,
            &game.start(),
            100,
            seed,
            None,
        )
        .unwrap();
        assert_eq!(
            outcome.result,
            GameResult::win_for(Color::White),
            "seed {seed}"
        );
    }

    let pirate = piratechnics::Piratechnics::named("8x8", None).unwrap();
    let e = build_player(&pirate, &exact, 1, None).err().unwrap();
    assert!(e.to_string().contains("no solver"), "{e}");
}

/// A suite folder that is not there, or a game without a suite, stops the
/// loop before any work with exit 2 and a message naming `eval.suite`.
#[test]
fn a_bad_eval_suite_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    for (game, suite, says) in [
        ("connect4", "/nonexistent/pons", "Test_L3_R1.moves"),
        ("piratechnics", "/tmp", "has no benchmark suite"),
    ] {
        let config = dir.path().join(format!("{game}.toml"));
        std::fs::write(
            &config,
            format!("[game]\nname = \"{game}\"\n[eval]\nsuite = \"{suite}\"\n"),
        )
        .unwrap();
        let run = dir.path().join(format!("run-{game}"));
        let out = common::run_loop(&config, &run);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("eval.suite") && err.contains(says), "{err}");
        assert!(!run.join("networks").exists(), "work began: {err}");
    }
}

/// OpenSpiel's treatment of game-ending moves (`terminal=outcome`): a tried
/// immediate win is valued by its result alone, so it draws fewer visits
/// than under triad's default, and it is still the move played because a
/// known win ranks first.
#[test]
fn outcome_terminals_play_the_win_with_fewer_visits() {
    use game::Game;
    let game = connect4::Connect4::standard();
    // X to move wins at once in column 4 (index 3).
    let pos = game.parse_state("414141").unwrap();
    let mut visits = Vec::new();
    for spec in ["mcts:sims=400", "mcts:sims=400,terminal=outcome"] {
        let mut uct = eval::Uct::new(spec.parse().unwrap(), 7);
        let best = uct.search(&pos).unwrap();
        assert_eq!(best, connect4::Column(3), "{spec}");
        let win = uct
            .root_edges()
            .find(|e| e.0 == connect4::Column(3))
            .unwrap();
        visits.push(win.1);
    }
    assert!(
        visits[1] < visits[0] / 4,
        "visits to the win: default {}, outcome {}",
        visits[0],
        visits[1]
    );
}

/// `[eval] skip_decided`: a rung that the last generation beat in every
/// game, or lost to in every game, is not played by the next one (which
/// says so) until the run's last generation, which plays every rung; its
/// `ratings.csv` cell is empty, and the plot still draws.
/// Which rungs are decided is read from the run's own `matches.json`, and
/// a 12-ply solver horizon against a barely trained network makes sure at
/// least one is (the seed is fixed, so the run is the same every time).
#[test]
fn decided_ladder_rungs_are_skipped() {
    let (dir, err) = run_tiny_c4_loop(
        5,
        "simulations = 4\nladder = [\"random\", \"solver:depth=12\"]\nrandom_plies = 2\nskip_decided = 1\nreplay_decided_every = 100\n",
        3,
    );
    let run = dir.path().join("run");
    let wdl = match_records(&run);
    let mut skipped = 0;
    for rung in ["random", "solver:depth=12"] {
        let [w, d, l] = wdl("gen-0000", rung);
        assert_eq!(w + d + l, 2, "generation 0 plays every rung");
        let decided = d == 0 && (l == 0 || w == 0);
        let [w1, d1, l1] = wdl("gen-0001", rung);
        let [w2, d2, l2] = wdl("gen-0002", rung);
        if decided {
            skipped += 1;
            assert_eq!(w1 + d1 + l1, 0, "{rung} decided at generation 0: {err}");
            assert_eq!(w2 + d2 + l2, 0, "{rung} still decided: {err}");
            let [w3, d3, l3] = wdl("gen-0003", rung);
            assert_eq!(
                w3 + d3 + l3,
                2,
                "the last generation plays every rung: {err}"
            );
            assert!(err.contains(&format!("{rung}: skipped, decided")), "{err}");
        } else {
            assert_eq!(w1 + d1 + l1, 2, "{rung} undecided must be played: {err}");
        }
    }
    assert!(skipped >= 1, "the solver should decide its rung: {err}");
    let csv = std::fs::read_to_string(run.join("ratings.csv")).unwrap();
    assert!(
        csv.lines().nth(2).unwrap().contains(",,") || csv.lines().nth(2).unwrap().ends_with(','),
        "{csv}"
    );
    let plot = dir.path().join("plot.svg");
    let out = triad(&[
        "plot",
        run.to_str().unwrap(),
        "--out",
        plot.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `[eval] previous_games`: the games against the previous generation are
/// counted apart from the ladder's, here more (6) than the ladder's (2);
/// `matches.json` holds exactly those counts.
#[test]
fn games_against_the_previous_generation_have_their_own_count() {
    let (dir, err) = run_tiny_c4_loop(
        6,
        "simulations = 4\nladder = [\"random\"]\nrandom_plies = 2\nprevious_games = 6\n",
        2,
    );
    let wdl = match_records(&dir.path().join("run"));
    let games = |a: &str, b: &str| wdl(a, b).iter().sum::<u64>();
    assert_eq!(games("gen-0000", "random"), 2, "{err}");
    assert_eq!(games("gen-0001", "gen-0000"), 6, "{err}");
    assert_eq!(games("gen-0001", "random"), 2, "{err}");
    assert_eq!(games("gen-0002", "gen-0001"), 6, "{err}");
    assert_eq!(games("gen-0002", "random"), 2, "{err}");
    assert!(err.contains("generation 2: 8 evaluation games"), "{err}");
}

/// Runs [`tiny_c4_loop`] in a new temporary folder (its `run/`), checks
/// that it succeeded, and returns the folder and the loop's log.
fn run_tiny_c4_loop(seed: u64, eval: &str, generations: u32) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("c4.toml");
    std::fs::write(&config, tiny_c4_loop(seed, eval, generations)).unwrap();
    let out = common::run_loop(&config, &dir.path().join("run"));
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{err}");
    (dir, err)
}

/// A run's `matches.json` as a lookup: `wdl(a, b)` is a's wins, draws and
/// losses against b.
fn match_records(run: &std::path::Path) -> impl Fn(&str, &str) -> [u64; 3] {
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("matches.json")).unwrap()).unwrap();
    let players: Vec<String> = m["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_string())
        .collect();
    move |a: &str, b: &str| {
        let (i, j) = (
            players.iter().position(|p| p == a).unwrap(),
            players.iter().position(|p| p == b).unwrap(),
        );
        let c = &m["wdl"][i][j];
        [0, 1, 2].map(|k| c[k].as_u64().unwrap())
    }
}

/// A Connect Four loop small enough for a test: a 1-block network, 8 games
/// a generation, 5 training steps; `eval` is the `[eval]` section's body
/// and `generations` the loop's length.
fn tiny_c4_loop(seed: u64, eval: &str, generations: u32) -> String {
    format!(
        r#"seed = {seed}
[game]
name = "connect4"
[model]
blocks = 1
channels = 8
[selfplay]
simulations = 8
cheap_simulations = 4
max_plies = 42
games_in_flight = 8
[train]
batch_size = 16
schedule = "constant"
warmup_steps = 0
checkpoint_every = 5
metrics_every = 1
[eval]
games = 2
max_plies = 42
threads = 1
{eval}[loop]
generations = {generations}
games_per_generation = 8
train_steps_per_generation = 5
"#
    )
}

/// A held-out set of one's own, as scripts/connect4-heldout.sh makes it:
/// match games, `data positions` (none of Pons's), `solve --columns`, then
/// `bench pons --file`: the solver errs nowhere on it, and a Pons file
/// given by `--file` scores as it does in `--dir`.
#[test]
fn a_held_out_set_is_sampled_labelled_and_scored() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let pons = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benchmarks/connect4");
    let (games, positions_txt) = (p("games"), p("positions.txt"));
    succeeds(&[
        "eval",
        "--game",
        "connect4",
        "--round-robin",
        "--players",
        "random,mcts:sims=20,ab:depth=2",
        "--games",
        "4",
        "--random-plies",
        "2",
        "--out",
        &games,
    ]);
    let moves: Vec<String> = std::fs::read_dir(&pons)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|f| f.extension().is_some_and(|x| x == "moves"))
        .map(|f| f.to_str().unwrap().to_string())
        .collect();
    let mut args = vec![
        "data",
        "positions",
        &games,
        "--per-ply",
        "2",
        "--plies",
        "6..20",
        "--seed",
        "3",
        "--out",
        &positions_txt,
        "--exclude",
    ];
    args.extend(moves.iter().map(String::as_str));
    succeeds(&args);
    let positions = std::fs::read_to_string(p("positions.txt")).unwrap();
    let n = positions.lines().count();
    assert!(n >= 20, "{positions}");
    let listed: std::collections::HashSet<String> = moves
        .iter()
        .flat_map(|f| {
            std::fs::read_to_string(f)
                .unwrap()
                .lines()
                .map(|l| l.split(' ').next().unwrap().to_string())
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(
        positions.lines().all(|l| !listed.contains(l)),
        "a Pons position sampled"
    );
    let solved = succeeds(&["solve", "--file", &p("positions.txt"), "--columns"]);
    std::fs::write(p("Mine.moves"), &solved.stdout).unwrap();
    let score = |player: &str, file: &str| {
        let out = succeeds(&[
            "bench", "pons", "--player", player, "--file", file, "--json",
        ]);
        let v = json(&out);
        let f = &v["files"][0];
        (
            f["positions"].as_u64().unwrap(),
            f["errors"].as_u64().unwrap(),
        )
    };
    assert_eq!(score("solver", &p("Mine.moves")), (n as u64, 0));
    // A Pons file by --file scores as in --dir.
    let l3 = pons.join("Test_L3_R1.moves");
    let first_file = |flag: &str, path: &std::path::Path| {
        let out = succeeds(&[
            "bench",
            "pons",
            "--player",
            "ab:depth=2",
            "--sample",
            "40",
            "--json",
            flag,
            path.to_str().unwrap(),
        ]);
        json(&out)["files"][0].clone()
    };
    let (whole, alone) = (first_file("--dir", &pons), first_file("--file", &l3));
    assert_eq!(whole["file"], "Test_L3_R1", "{whole}");
    assert_eq!(alone["errors"], whole["errors"], "{alone} {whole}");
    assert_eq!(alone["positions"], whole["positions"], "{alone} {whole}");
    // Positions without column values are refused by name.
    let out = triad(&[
        "bench",
        "pons",
        "--player",
        "random",
        "--file",
        &p("positions.txt"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("positions.txt line 1"));
}

/// A test set of another board: games on 5x4, `data positions`, `solve
/// --game connect4/5x4 --columns`, scored by `bench pons --game
/// connect4/5x4 --file`; the solver errs nowhere, a player that plays
/// at random does; Pons's folder on that board and a 7x6 file read as 5x4 are
/// refused by name.
#[test]
fn bench_pons_scores_positions_of_another_board() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let (games, positions) = (p("games"), p("positions.txt"));
    succeeds(&[
        "eval",
        "--game",
        "connect4/5x4",
        "--players",
        "random,ab:depth=2",
        "--games",
        "6",
        "--random-plies",
        "2",
        "--out",
        &games,
    ]);
    succeeds(&[
        "data",
        "positions",
        &games,
        "--per-ply",
        "3",
        "--plies",
        "2..14",
        "--seed",
        "5",
        "--out",
        &positions,
    ]);
    let solved = succeeds(&[
        "solve",
        "--game",
        "connect4/5x4",
        "--file",
        &positions,
        "--columns",
    ]);
    let labelled = p("Five.moves");
    std::fs::write(&labelled, &solved.stdout).unwrap();
    let n = std::fs::read_to_string(&positions).unwrap().lines().count() as u64;
    assert!(n >= 20, "{n} positions");
    let score = |player: &str| {
        let out = succeeds(&[
            "bench",
            "pons",
            "--game",
            "connect4/5x4",
            "--player",
            player,
            "--file",
            &labelled,
            "--json",
        ]);
        let f = json(&out)["files"][0].clone();
        assert_eq!(f["file"], "Five", "{f}");
        (
            f["positions"].as_u64().unwrap(),
            f["errors"].as_u64().unwrap(),
        )
    };
    assert_eq!(score("solver"), (n, 0));
    let (_, random_errors) = score("random");
    assert!(
        random_errors > 0,
        "random play erred nowhere on {n} positions"
    );
    let refused = |args: &[&str], needle: &str| {
        let out = triad(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
    };
    refused(
        &[
            "bench",
            "pons",
            "--game",
            "connect4/5x4",
            "--player",
            "random",
        ],
        "7x6",
    );
    let l3 = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("benchmarks/connect4/Test_L3_R1.moves");
    refused(
        &[
            "bench",
            "pons",
            "--game",
            "connect4/5x4",
            "--player",
            "random",
            "--file",
            l3.to_str().unwrap(),
        ],
        "Test_L3_R1.moves line 1",
    );
    refused(
        &["bench", "pons", "--game", "influence", "--player", "random"],
        "Connect Four",
    );
}

#[test]
fn bench_env_reports_the_rust_loops_and_refuses_bad_input() {
    let out = triad(&[
        "bench",
        "env",
        "--game",
        "connect4",
        "--seconds",
        "0.05",
        "--rounds",
        "2",
        "--batch",
        "32",
        "--json",
    ]);
    let v = json(&out);
    assert_eq!(v["game"], "connect4/7x6");
    assert_eq!(v["rounds"], 2);
    for key in [
        "play_steps_per_s",
        "play_encode_steps_per_s",
        "encode_positions_per_s",
    ] {
        assert!(v[key]["min"].as_f64().unwrap() > 0.0, "{key}: {v}");
    }
    let plies = v["mean_plies"].as_f64().unwrap();
    assert!((7.0..=42.0).contains(&plies), "{plies}");
    for bad in [["--rounds", "0"], ["--seconds", "-1"]] {
        let out = triad(&["bench", "env", "--game", "connect4", bad[0], bad[1]]);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
    }
}
