//! `triad analysis`: the JSON-lines analysis engine (KataGo's protocol) on
//! Connect Four positions whose values Pons's files give.

use crate::common::triad_with_input;

/// Pipes `input` into `triad analysis ARGS` at once and returns its
/// answer lines, parsed.
fn analysis(args: &[&str], input: &str) -> Vec<serde_json::Value> {
    let args: Vec<&str> = std::iter::once("analysis")
        .chain(args.iter().copied())
        .collect();
    let out = triad_with_input(&args, input);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect()
}

/// 100 positions of Pons's end-game file piped at once to the solver: every
/// answer's id is its query's, every column's reported score is Pons's,
/// the move ranked first has the best score, and its winrate is the
/// position's result. A query with a bad position gets an error line naming
/// it, and the query after it is still answered.
#[test]
fn the_solver_answers_100_queries_with_pons_values() {
    let text = game::read_repo_file(
        env!("CARGO_MANIFEST_DIR"),
        "benchmarks/connect4/Test_L3_R1.moves",
    );
    let lines: Vec<&str> = text.lines().take(100).collect();
    assert_eq!(lines.len(), 100);
    let mut input = String::new();
    for (i, line) in lines.iter().enumerate() {
        let moves = line.split_whitespace().next().expect("moves");
        // Half as a position text, half as moves from the start.
        let query = if i % 2 == 0 {
            serde_json::json!({"id": format!("q{i}"), "initialPosition": moves})
        } else {
            let list: Vec<String> = moves.chars().map(String::from).collect();
            serde_json::json!({"id": format!("q{i}"), "moves": list})
        };
        input.push_str(&query.to_string());
        input.push('\n');
        if i == 10 {
            input.push_str("{\"id\":\"bad\",\"initialPosition\":\"448\"}\n");
            input.push_str("not json\n");
        }
    }
    let answers = analysis(&["--game", "connect4", "--player", "solver"], &input);
    assert_eq!(answers.len(), 102);
    let bad = &answers[11];
    assert_eq!(bad["id"], "bad", "{bad}");
    assert!(
        bad["error"].as_str().unwrap().contains("initialPosition"),
        "{bad}"
    );
    assert!(answers[12]["id"].is_null() && answers[12]["error"].is_string());
    let good: Vec<&serde_json::Value> = answers.iter().filter(|a| a["error"].is_null()).collect();
    assert_eq!(good.len(), 100);
    for (i, (a, line)) in good.iter().zip(&lines).enumerate() {
        assert_eq!(a["id"], format!("q{i}"), "{a}");
        let f: Vec<&str> = line.split_whitespace().collect();
        let score: i64 = f[1].parse().unwrap();
        let infos = a["moveInfos"].as_array().unwrap();
        let open: Vec<(usize, i64)> = f[2..]
            .iter()
            .enumerate()
            .filter_map(|(c, v)| v.parse().ok().map(|v| (c + 1, v)))
            .collect();
        assert_eq!(infos.len(), open.len(), "{a}");
        for info in infos {
            let col: usize = info["move"].as_str().unwrap().parse().unwrap();
            let want = open.iter().find(|o| o.0 == col).expect("an open column").1;
            assert_eq!(info["score"].as_i64(), Some(want), "column {col} of {line}");
        }
        assert_eq!(infos[0]["order"], 0);
        assert_eq!(
            infos[0]["score"].as_i64(),
            Some(score),
            "best move of {line}"
        );
        let winrate = match score.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        };
        assert_eq!(a["rootInfo"]["winrate"].as_f64(), Some(winrate), "{a}");
        assert_eq!(infos[0]["pv"][0], infos[0]["move"]);
    }
}

/// Every other player answers in the protocol's shape: `mcts:` with the
/// query's visits, `ab:` its best move and line, `random` every legal move
/// at a uniform prior; `analyzeTurns` answers each turn.
#[test]
fn other_players_answer_in_the_same_shape() {
    let q = r#"{"id":"m","initialPosition":"4453","maxVisits":60}"#;
    let a = &analysis(&["--game", "connect4", "--player", "mcts:sims=10"], q)[0];
    let visits: u64 = a["moveInfos"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["visits"].as_u64().unwrap())
        .sum();
    assert_eq!(visits, 60, "{a}");
    let a = &analysis(&["--game", "connect4", "--player", "ab:depth=3"], q)[0];
    assert_eq!(a["moveInfos"][0]["pv"].as_array().unwrap().len(), 3, "{a}");
    let a = &analysis(&["--game", "connect4", "--player", "random"], q)[0];
    let infos = a["moveInfos"].as_array().unwrap();
    assert_eq!(infos.len(), 7);
    assert!(infos.iter().all(|m| m["prior"].as_f64() == Some(1.0 / 7.0)));
    let q = r#"{"id":"t","moves":["4","4","5"],"analyzeTurns":[0,3]}"#;
    let answers = analysis(&["--game", "connect4", "--player", "ab:depth=2"], q);
    let turns: Vec<u64> = answers
        .iter()
        .map(|a| a["turnNumber"].as_u64().unwrap())
        .collect();
    assert_eq!(turns, [0, 3]);
    assert_eq!(answers[1]["rootInfo"]["position"], "445");
    // A game of a solver-less game with the solver is refused at start.
    let out = crate::common::triad(&["analysis", "--player", "solver"]);
    crate::common::refused_naming(&out, "solver", "no solver");
}

/// `triad play` against a player other than alpha-beta: the solver,
/// playing Black from a Pons end-game position that Black wins, wins it
/// whatever the person plays (here: the leftmost open column each time).
#[test]
fn play_against_the_solver_to_the_end() {
    let text = game::read_repo_file(env!("CARGO_MANIFEST_DIR"), "benchmarks/connect4/Test_L3_R1");
    let start = text
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[0].to_string(), f[1].parse::<i32>().unwrap())
        })
        .find(|(m, score)| m.len() % 2 == 0 && *score < 0)
        .expect("a position White to move loses")
        .0;
    let mut input = String::new();
    for _ in 0..21 {
        for c in 1..=7 {
            input.push_str(&format!("{c}\n"));
        }
    }
    let out = triad_with_input(
        &[
            "play",
            "--game",
            "connect4",
            "--position",
            &start,
            "--engine",
            "solver",
        ],
        &input,
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("You play white against solver."), "{text}");
    assert!(text.contains("engine plays "), "{text}");
    assert!(text.contains("Game over: 0-1"), "{text}");
}
