//! `data::import`: the inventor's record and Connect Four move strings
//! become imported shards that `data::verify` passes; bad records are
//! reported by line and left out, the rest kept.

use connect4::Connect4;
use data::import::{import, ImportError, ImportFormat, ImportInput, ImportOptions};
use data::{read_shard, Source};
use game::{GameResult, Termination};
use piratechnics::Piratechnics;
use std::path::Path;

fn repo_file(rel: &str) -> String {
    game::read_repo_file(env!("CARGO_MANIFEST_DIR"), rel)
}

fn options(format: ImportFormat) -> ImportOptions {
    ImportOptions {
        format,
        ..ImportOptions::default()
    }
}

/// The shard passes `triad data verify`'s checks.
fn verified<G: game::Game>(game: &G, path: &Path) {
    let check = data::verify::verify_shard(game, path, &Default::default());
    assert!(check.ok(), "{:?}", check.first_fault());
}

#[test]
fn the_inventors_game_imports_with_its_resignation_and_no_search_columns() {
    let dir = tempfile::tempdir().unwrap();
    let g = Piratechnics::standard();
    let text = repo_file("games/piratechnics/vectors/sample-game-1.txt");
    // The same game with an analysis line and a comment after a move, as
    // the inventor annotates: the same moves, one warning.
    let annotated = text
        .replacen("c1<KN>-b1,", "c1<KN>-b1 forced,", 1)
        .replacen(
            "30)",
            "30)\t\t\tif\td4R-d1 *;\nthen\t31)\tc1K x d1R,\t\tf2<QBN>-e2 *;\n30)",
            1,
        );
    assert_ne!(annotated, text);
    let out = dir.path().join("inventor.parquet");
    let inputs = [
        ImportInput {
            name: "vectors/sample-game-1.txt",
            text: &text,
        },
        ImportInput {
            name: "annotated.txt",
            text: &annotated,
        },
    ];
    let (report, shard) = import(&g, &inputs, &options(ImportFormat::Record), &out, || {}).unwrap();
    assert_eq!(report.games, 2, "{:?}", report.rejected);
    assert!(report.rejected.is_empty(), "{:?}", report.rejected);
    assert_eq!(report.results, [0, 0, 2, 0]);
    assert_eq!(report.warnings.len(), 1, "{:?}", report.warnings);
    assert!(
        report.warnings[0].starts_with("annotated.txt:1: "),
        "{:?}",
        report.warnings
    );
    assert!(
        report.warnings[0].contains("\"forced\""),
        "{:?}",
        report.warnings
    );
    assert_eq!(shard.rows, 128);
    let rows = read_shard(&out).unwrap();
    assert_eq!(rows.len(), 128);
    for r in &rows {
        assert_eq!(r.source, Source::Imported);
        assert_eq!(r.result, Some(GameResult::BlackWin));
        assert_eq!(r.termination, Termination::Resignation);
        assert_eq!(r.game_length, 64);
        assert!(r.visits.is_none() && r.policy_target.is_none() && r.root_wdl.is_none());
        assert!(r.simulations.is_none() && r.root_value.is_none());
    }
    assert_eq!(rows[0].game_id, data::import::DEFAULT_FIRST_ID);
    assert_eq!(rows[64].game_id, data::import::DEFAULT_FIRST_ID + 1);
    assert_eq!(rows[0].model_id, "imported:sample-game-1.txt");
    // Both games are the same moves.
    let moves = |id| {
        rows.iter()
            .filter(|r| r.game_id == id)
            .map(|r| r.chosen_move)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        moves(data::import::DEFAULT_FIRST_ID),
        moves(data::import::DEFAULT_FIRST_ID + 1)
    );
    verified(&g, &out);
}

#[test]
fn a_thousand_connect_four_games_import_and_bad_lines_are_reported_by_line() {
    let dir = tempfile::tempdir().unwrap();
    let g = Connect4::standard();
    let games = repo_file("tests/fixtures/connect4-games.txt");
    let out = dir.path().join("c4.parquet");
    let inputs = [ImportInput {
        name: "connect4-games.txt",
        text: &games,
    }];
    let (report, shard) = import(&g, &inputs, &options(ImportFormat::Lines), &out, || {}).unwrap();
    assert_eq!(report.games, 1000, "{:?}", report.rejected.first());
    assert!(report.rejected.is_empty());
    let [w, d, b, u] = report.results;
    assert_eq!(w + d + b, 1000, "every game is played to its end");
    assert_eq!(u, 0);
    assert_eq!(shard.rows, report.rows);
    verified(&g, &out);

    // Pons's lines read as they are (the score is not a move): unfinished
    // games. Bad lines among good ones: a column the board has not, a
    // stone in a full column, a move after a four, nothing legible.
    let mixed = "4453 2\n\n# a comment\n48\n1111111\n45454545\n4455667 \nxyz\n12 -3 . . 1\n";
    let out = dir.path().join("mixed.parquet");
    let inputs = [ImportInput {
        name: "mixed.txt",
        text: mixed,
    }];
    let mut seen = 0;
    let (report, _) = import(&g, &inputs, &options(ImportFormat::Lines), &out, || {
        seen += 1
    })
    .unwrap();
    assert_eq!(seen, 7, "every record counted for progress");
    assert_eq!(report.games, 3, "{:?}", report.rejected);
    assert_eq!(report.results, [1, 0, 0, 2]);
    let refused: Vec<(usize, &str)> = report
        .rejected
        .iter()
        .map(|r| (r.line, r.message.as_str()))
        .collect();
    assert_eq!(refused.len(), 4, "{refused:?}");
    assert_eq!(refused[0].0, 4);
    assert!(refused[0].1.contains("move 2 \"8\""), "{refused:?}");
    assert_eq!(refused[1].0, 5);
    assert!(refused[1].1.contains("move 7"), "{refused:?}");
    assert_eq!(refused[2].0, 6);
    assert!(refused[2].1.contains("already over"), "{refused:?}");
    assert_eq!(refused[3].0, 8);
    assert!(report.rejected[3].to_string().starts_with("mixed.txt:8: "));
    verified(&g, &out);
}

#[test]
fn exported_records_import_with_their_stated_results_and_lies_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let g = Connect4::standard();
    let header = |id: u64, plies: usize, result: &str, how: &str| {
        format!("Game {id} ({plies} plies, connect4/7x6): {result} {how}\nModel m, no search, seed 1, selfplay\nStart \n\n\tWhite\t\tBlack\n")
    };
    // A finished game, an unfinished one, one cut by max-length (a result
    // only the record knows), one that says the wrong winner, one whose
    // header miscounts its plies, one with an illegal move.
    let text = [
        header(1, 7, "1-0", "line") + "1)\t4,\t3;\n2)\t4,\t3;\n3)\t4,\t3;\n4)\t4;\n",
        header(2, 2, "*", "unfinished") + "1)\t4,\t4;\n",
        header(3, 4, "1/2-1/2", "max-length") + "1)\t1,\t2;\n2)\t3,\t4;\n",
        header(4, 7, "0-1", "line") + "1)\t4,\t3;\n2)\t4,\t3;\n3)\t4,\t3;\n4)\t4;\n",
        header(5, 3, "*", "unfinished") + "1)\t4,\t4;\n",
        header(6, 2, "*", "unfinished") + "1)\t4,\t9;\n",
    ]
    .concat();
    let out = dir.path().join("export.parquet");
    let inputs = [ImportInput {
        name: "export.txt",
        text: &text,
    }];
    let (report, _) = import(&g, &inputs, &options(ImportFormat::Record), &out, || {}).unwrap();
    assert_eq!(report.games, 3, "{:?}", report.rejected);
    assert_eq!(report.results, [1, 1, 0, 1]);
    let lines: Vec<usize> = report.rejected.iter().map(|r| r.line).collect();
    let game_line = |k: usize| {
        text.lines()
            .position(|l| l.starts_with(&format!("Game {k} ")))
            .unwrap()
            + 1
    };
    assert_eq!(lines, vec![game_line(4), game_line(5), game_line(6)]);
    assert!(report.rejected[0]
        .message
        .contains("the header says 0-1 line, the moves give 1-0 line"));
    assert!(report.rejected[1]
        .message
        .contains("the header says 3 plies, the record has 2"));
    // The illegal move's message names its line in the file.
    let bad = text.lines().position(|l| l.contains("\t9;")).unwrap() + 1;
    assert!(
        report.rejected[2].message.contains(&format!("line {bad}:")),
        "{}",
        report.rejected[2]
    );
    let rows = read_shard(&out).unwrap();
    let third: Vec<_> = rows.iter().filter(|r| r.game_length == 4).collect();
    assert_eq!(third.len(), 4);
    assert!(third
        .iter()
        .all(|r| r.termination == Termination::MaxLength));
    verified(&g, &out);

    // A record of another game is refused, and when nothing is left the
    // shard is not written at all.
    let other =
        header(7, 2, "*", "unfinished").replace("connect4/7x6", "connect4/8x6") + "1)\t4,\t4;\n";
    let out = dir.path().join("none.parquet");
    let inputs = [ImportInput {
        name: "other.txt",
        text: &other,
    }];
    match import(&g, &inputs, &options(ImportFormat::Record), &out, || {}) {
        Err(ImportError::Nothing { count, first }) => {
            assert_eq!(count, 1);
            assert!(first.message.contains("a game of connect4/8x6"), "{first}");
        }
        other => panic!("{other:?}"),
    }
    assert!(!out.exists());
    assert_eq!(
        std::fs::read_dir(dir.path())
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .ends_with(".tmp")
            })
            .count(),
        0
    );
}
