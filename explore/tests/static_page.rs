//! The explorer's answers and its static page on real shards of random
//! Connect Four games: the page holds one position per line of the opening
//! tree (and the start), the answers count what the tree counts, and bad
//! requests are answered with what was wrong.

use std::collections::BTreeMap;
use std::path::Path;

use connect4::Connect4;
use data::openings::{read_opening_games, Report};
use data::synthetic::random_game;
use data::{list_shards, ShardWriter};
use explore::{Explorer, PositionQuery};
use game::Game;

fn shards(dir: &Path) -> Vec<data::ShardFile> {
    let g = Connect4::standard();
    let start = g.start();
    let mut w = ShardWriter::create(dir.join("a.parquet")).unwrap();
    for id in 0..60 {
        w.push_game(&random_game(&g, id, &start, 7, 42)).unwrap();
    }
    w.finish().unwrap();
    list_shards(&[dir]).unwrap()
}

#[test]
fn the_static_page_holds_every_line_of_the_opening_tree() {
    let dir = tempfile::tempdir().unwrap();
    let shards = shards(dir.path());
    let (page, positions) = explore::static_page(Connect4::standard(), &shards, 2, 3).unwrap();
    let games = read_opening_games(&shards, 2, |_| {}).unwrap();
    let report = Report::build(&Connect4::standard(), &games, 2, 3).unwrap();
    assert_eq!(positions, 1 + report.rows.len(), "the start and each line");
    assert!(page.starts_with("<!doctype html>"));
    assert!(
        !page.contains("/*TRIAD_STATIC*/null"),
        "the answers are baked in"
    );
    assert!(page.contains("\"positions\":{"));
}

#[test]
fn a_position_counts_what_the_tree_counts_and_bad_requests_say_why() {
    let dir = tempfile::tempdir().unwrap();
    let shards = shards(dir.path());
    let (index, _) = explore::build_index(&shards);
    let explorer = Explorer {
        game: Connect4::standard(),
        index,
        net: None,
    };
    assert_eq!(explorer.info()["games"], 60);
    let games = read_opening_games(&shards, 1, |_| {}).unwrap();
    let report = Report::build(&Connect4::standard(), &games, 1, 1).unwrap();
    let q = PositionQuery {
        by: Some("line".into()),
        ..PositionQuery::default()
    };
    let v = explorer.position(&q, true).unwrap();
    let played: BTreeMap<String, u64> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["text"].as_str().unwrap().to_string(),
                m["games"].as_u64().unwrap(),
            )
        })
        .collect();
    let tree: BTreeMap<String, u64> = report
        .rows
        .iter()
        .map(|r| (r.line.clone(), r.games))
        .collect();
    assert_eq!(played, tree);
    assert_eq!(v["game_count"], 60);
    let bad = PositionQuery {
        line: "x".into(),
        ..PositionQuery::default()
    };
    assert_eq!(
        explorer.position(&bad, false).unwrap_err().to_string(),
        "line: \"x\" is not a move code"
    );
    assert!(matches!(
        explorer.game(60).unwrap_err(),
        explore::Refusal::NoGame { index: 60 }
    ));
    assert_eq!(
        explorer.game(60).unwrap_err().to_string(),
        "game: no game 60"
    );
    assert!(explorer.game(0).unwrap()["plies"].as_array().unwrap().len() > 7);
}
