//! `triad data verify`: shards whose rows lie (each kind of the fuzz
//! target's lies, a row copied from another game, a game id in two shards,
//! a wrong result) are each caught with the right file, game and ply;
//! clean shards of all four games pass.

use crate::common::triad;
use data::GameRecord;
use game::{Game, GameMove, GameState};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The ply cap of the test games.
const CAP: u32 = 40;

/// Four random games of `g` (ids `first..first + 4`), stopped at [`CAP`].
fn games_of<G: Game>(g: &G, first: u64, seed: u64) -> Vec<GameRecord> {
    let start = g.start();
    (first..first + 4)
        .map(|id| data::synthetic::random_game(g, id, &start, seed, CAP))
        .collect()
}

/// A shard of `games`, recording their cap as self-play does.
fn write(path: &Path, games: &[GameRecord]) {
    let mut w = data::ShardWriter::create_capped(path, CAP).unwrap();
    for game in games {
        w.push_game(game).unwrap();
    }
    w.finish().unwrap();
}

/// `data verify PATHS --json`: its exit status and report.
fn verify(paths: &[&Path]) -> (Option<i32>, Value) {
    let mut args = vec!["data", "verify", "--json"];
    args.extend(paths.iter().map(|p| p.to_str().unwrap()));
    let out = triad(&args);
    let report = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON report ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code(), report)
}

/// The faults of `report` as (file, kind, game, ply).
fn faults(report: &Value) -> Vec<(String, String, Option<u64>, Option<u64>)> {
    let mut out = Vec::new();
    for s in report["shards"].as_array().unwrap() {
        for f in s["faults"].as_array().unwrap() {
            out.push((
                s["file"].as_str().unwrap().to_string(),
                f["kind"].as_str().unwrap().to_string(),
                f["game"].as_u64(),
                f["ply"].as_u64(),
            ));
        }
    }
    out
}

#[test]
fn clean_shards_of_every_game_pass() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name);
    write(
        &p("piratechnics.parquet"),
        &games_of(&piratechnics::Piratechnics::standard(), 0, 1),
    );
    write(
        &p("connect4.parquet"),
        &games_of(&connect4::Connect4::standard(), 0, 2),
    );
    write(
        &p("pirate.parquet"),
        &games_of(&pirate::Pirate::standard(), 0, 3),
    );
    write(
        &p("influence.parquet"),
        &games_of(&influence::Influence::standard(), 0, 4),
    );
    for name in ["piratechnics", "connect4", "pirate", "influence"] {
        let path = p(&format!("{name}.parquet"));
        let (code, report) = verify(&[&path]);
        assert_eq!(code, Some(0), "{name}: {report}");
        assert_eq!(report["ok"], true, "{report}");
        assert_eq!(report["games"], 4, "{report}");
        assert!(report["rows"].as_u64().unwrap() >= 4, "{report}");
        assert_eq!(report["faults"], 0, "{report}");
    }
    // Text: the summary line, exit 0.
    let out = triad(&["data", "verify", p("connect4.parquet").to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("1 file(s), 4 games") && text.contains("no fault"),
        "{text}"
    );
}

/// A lie told in one row: what is changed, and where the verifier must
/// find it (kind, game, ply).
struct Lie {
    name: &'static str,
    kind: &'static str,
    tell: fn(&mut Vec<GameRecord>) -> (u64, u64),
}

/// The row the lies change: game 1, ply 3 (every game has more than 4
/// plies: checked).
const GAME: usize = 1;
const PLY: usize = 3;

fn lies() -> Vec<Lie> {
    vec![
        Lie {
            name: "position text",
            kind: "position",
            tell: |g| {
                let rows = &mut g[GAME].positions;
                rows[PLY].position = rows[PLY + 1].position.clone();
                (g[GAME].game_id, PLY as u64)
            },
        },
        Lie {
            name: "a move code no move has",
            kind: "illegal-move",
            tell: |g| {
                g[GAME].positions[PLY].chosen_move = u32::MAX - 7;
                (g[GAME].game_id, PLY as u64)
            },
        },
        Lie {
            name: "an illegal move",
            kind: "illegal-move",
            tell: |g| {
                let c4 = connect4::Connect4::standard();
                let r = &mut g[GAME].positions[PLY];
                let pos = c4.parse_state(&r.position).unwrap();
                r.chosen_move = (0..64u32)
                    .find(|&c| {
                        <connect4::Connect4 as Game>::Move::from_code(c)
                            .is_some_and(|m| !pos.is_legal(m))
                    })
                    .expect("a move code that is not legal here");
                (g[GAME].game_id, PLY as u64)
            },
        },
        Lie {
            name: "a ply out of order",
            kind: "plies",
            tell: |g| {
                g[GAME].positions[PLY].ply = 77;
                (g[GAME].game_id, 77)
            },
        },
        Lie {
            name: "a game id shared by two games",
            kind: "game-id",
            tell: |g| {
                let other = g[GAME + 1].game_id;
                g[GAME].positions[PLY].game_id = other;
                (other, PLY as u64)
            },
        },
        Lie {
            name: "legal moves that are not the position's",
            kind: "legal-moves",
            tell: |g| {
                let r = &mut g[GAME].positions[PLY];
                r.legal_moves.pop();
                r.legal_moves.push(r.legal_moves[0]);
                (g[GAME].game_id, PLY as u64)
            },
        },
        Lie {
            name: "a wrong hash",
            kind: "hash",
            tell: |g| {
                g[GAME].positions[PLY].position_hash ^= 1 << 17;
                (g[GAME].game_id, PLY as u64)
            },
        },
        Lie {
            name: "a row copied from another game",
            kind: "position",
            tell: |g| {
                // Game 0's row at the first ply where the two games differ,
                // told as game 1's.
                let k = (1..g[GAME].positions.len())
                    .find(|&k| g[0].positions[k].position != g[GAME].positions[k].position)
                    .expect("two random games that differ");
                let mut copy = g[0].positions[k].clone();
                let mine = &g[GAME].positions[k];
                copy.game_id = mine.game_id;
                copy.result = mine.result;
                copy.termination = mine.termination;
                copy.game_length = mine.game_length;
                g[GAME].positions[k] = copy;
                (g[GAME].game_id, k as u64)
            },
        },
        Lie {
            name: "a result the rules do not give",
            kind: "result",
            tell: |g| {
                let last = g[GAME].positions.len() - 1;
                for r in &mut g[GAME].positions {
                    r.result = Some(match r.result {
                        Some(game::GameResult::WhiteWin) => game::GameResult::BlackWin,
                        _ => game::GameResult::WhiteWin,
                    });
                    r.termination = game::Termination::Line;
                }
                (g[GAME].game_id, last as u64)
            },
        },
        Lie {
            name: "a policy target that does not sum to 1",
            kind: "search",
            tell: |g| {
                // Even ids carry a policy target (synthetic::random_game).
                let r = &mut g[0].positions[PLY];
                let p = r.policy_target.as_mut().expect("a policy target");
                p[0] += 0.5;
                (g[0].game_id, PLY as u64)
            },
        },
        Lie {
            name: "visits the search could not have made",
            kind: "search",
            tell: |g| {
                // A worker inflating one move's visits (to steer the
                // policy the trainer learns from counts) past its budget.
                let r = &mut g[GAME].positions[PLY];
                let sims = r.simulations.expect("a searched row");
                r.visits.as_mut().expect("visits")[0] += 2 * sims;
                (g[GAME].game_id, PLY as u64)
            },
        },
        Lie {
            name: "a game cut short and called a draw by the ply cap",
            kind: "result",
            tell: |g| {
                // A worker that stops its games early as draws, teaching
                // the value head that they were drawn.
                let rows = &mut g[GAME].positions;
                rows.truncate(PLY + 2);
                let n = rows.len() as u32;
                for r in rows.iter_mut() {
                    r.result = Some(game::GameResult::Draw);
                    r.termination = game::Termination::MaxLength;
                    r.game_length = n;
                }
                (g[GAME].game_id, PLY as u64 + 1)
            },
        },
    ]
}

#[test]
fn every_kind_of_lie_is_caught_with_its_file_game_and_ply() {
    let dir = tempfile::tempdir().unwrap();
    let c4 = connect4::Connect4::standard();
    let clean = games_of(&c4, 10, 9);
    assert!(clean.iter().all(|g| g.positions.len() > PLY + 1));
    let mut files: Vec<(PathBuf, &'static str, &'static str, (u64, u64))> = Vec::new();
    for (i, lie) in lies().into_iter().enumerate() {
        let mut games = clean.clone();
        let at = (lie.tell)(&mut games);
        let path = dir.path().join(format!("lie-{i}.parquet"));
        write(&path, &games);
        files.push((path, lie.name, lie.kind, at));
    }
    // One at a time: exit 1, the lie found first or among the faults,
    // at its file, game and ply.
    for (path, name, kind, (game, ply)) in &files {
        let (code, report) = verify(&[path]);
        assert_eq!(code, Some(1), "{name}: {report}");
        assert_eq!(report["ok"], false, "{name}: {report}");
        let found = faults(&report);
        let file = path.display().to_string();
        assert!(
            found
                .iter()
                .any(|f| f.0 == file && f.1 == *kind && f.2 == Some(*game) && f.3 == Some(*ply)),
            "{name}: no {kind} fault at game {game} ply {ply} of {file}: {found:?}"
        );
    }
    // All together: each file is named, the clean one is not.
    let clean_path = dir.path().join("clean.parquet");
    write(&clean_path, &games_of(&c4, 100, 9));
    let mut all: Vec<&Path> = files.iter().map(|f| f.0.as_path()).collect();
    all.push(&clean_path);
    let (code, report) = verify(&all);
    assert_eq!(code, Some(1), "{report}");
    assert_eq!(report["files"], files.len() + 1, "{report}");
    assert_eq!(report["bad_files"], files.len(), "{report}");
    let named: Vec<String> = faults(&report).into_iter().map(|f| f.0).collect();
    assert!(
        !named.contains(&clean_path.display().to_string()),
        "{report}"
    );
}

#[test]
fn a_game_id_in_two_shards_is_caught_in_the_second() {
    let dir = tempfile::tempdir().unwrap();
    let c4 = connect4::Connect4::standard();
    let (a, b) = (
        dir.path().join("a-1.parquet"),
        dir.path().join("a-2.parquet"),
    );
    write(&a, &games_of(&c4, 0, 1));
    // Ids 3..7: game 3 is in both.
    write(&b, &games_of(&c4, 3, 2));
    let (code, report) = verify(&[&a, &b]);
    assert_eq!(code, Some(1), "{report}");
    let found = faults(&report);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, b.display().to_string());
    assert_eq!((found[0].1.as_str(), found[0].2), ("game-id", Some(3)));
    // Text: the fault names the file, the game and the other shard; the
    // error line says how many.
    let out = triad(&["data", "verify", a.to_str().unwrap(), b.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("{}: game 3 ply 0:", b.display())),
        "{text}"
    );
    assert!(text.contains(&a.display().to_string()), "{text}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("1 fault(s) in 1 of 2 file(s)"), "{err}");
}

/// `triad train --data` trains on nothing that fails verification: a
/// lying shard among clean ones is refused (exit 2, naming the file, the
/// game and the ply), and with --skip-bad-shards left out (said) while the
/// others are trained on.
#[test]
fn train_refuses_a_lying_shard_unless_told_to_skip_it() {
    let dir = tempfile::tempdir().unwrap();
    let c4 = connect4::Connect4::standard();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    write(&data.join("a-1.parquet"), &games_of(&c4, 0, 1));
    let mut lying = games_of(&c4, 10, 2);
    lying[2].positions[4].position_hash ^= 1;
    let bad = data.join("a-2.parquet");
    write(&bad, &lying);
    let config = dir.path().join("c4.toml");
    std::fs::write(
        &config,
        "seed = 5\n[game]\nname = \"connect4\"\n[model]\nblocks = 1\nchannels = 8\n[train]\nbatch_size = 16\nschedule = \"constant\"\nwarmup_steps = 0\ncheckpoint_every = 5\nmetrics_every = 1\n",
    )
    .unwrap();
    let train = |out: &str, extra: &[&str]| {
        let out = dir.path().join(out);
        let mut args = vec![
            "train",
            "--config",
            config.to_str().unwrap(),
            "--data",
            data.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--steps",
            "2",
        ];
        args.extend_from_slice(extra);
        (triad(&args), out)
    };
    let (refused, out) = train("refused", &[]);
    let err = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!("{}: game 12 ply 4:", bad.display())) && err.contains("(hash)"),
        "{err}"
    );
    assert!(!out.join("checkpoints").exists(), "trained on refused data");
    let (skipped, out) = train("skipped", &["--skip-bad-shards", "--json"]);
    let err = String::from_utf8_lossy(&skipped.stderr);
    assert_eq!(skipped.status.code(), Some(0), "{err}");
    assert!(
        err.contains(&format!("skipping {}", bad.display())),
        "{err}"
    );
    let summary: Value = serde_json::from_slice(&skipped.stdout).unwrap();
    let clean_rows: usize = games_of(&c4, 0, 1).iter().map(|g| g.positions.len()).sum();
    assert_eq!(summary["window_positions"], clean_rows, "{summary}");
    assert!(summary["checkpoint"].is_string(), "{summary}");
    assert!(out.join("checkpoints").exists());
}
