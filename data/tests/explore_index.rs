//! The explorer's index (`data::explore`): by line it counts exactly what
//! the opening tree counts; by position, transpositions merge; a game that
//! repeats a position counts once there; a game with a missing ply, and an
//! unreadable shard, are left out with a warning.

use std::path::Path;

use data::explore::{line_hash, ExploreIndex, Key};
use data::openings::{read_opening_games, OpeningTree};
use data::synthetic::random_game;
use data::{list_shards, GameRecord, ShardWriter};
use game::{Game, GameState};
use piratechnics::Piratechnics;

fn games(first: u64, count: u64, seed: u64) -> Vec<GameRecord> {
    let g = Piratechnics::standard();
    let start = g.start();
    (first..first + count)
        .map(|id| random_game(&g, id, &start, seed, 30))
        .collect()
}

fn write(path: &Path, games: &[GameRecord]) {
    let mut w = ShardWriter::create(path).unwrap();
    for g in games {
        w.push_game(g).unwrap();
    }
    w.finish().unwrap();
}

#[test]
fn by_line_the_index_counts_what_the_opening_tree_counts() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("a.parquet"), &games(0, 120, 1));
    write(&dir.path().join("b.parquet"), &games(0, 80, 2));
    let shards = list_shards(&[dir.path()]).unwrap();
    let index = ExploreIndex::build(&shards, |_| {});
    assert!(index.warnings.is_empty(), "{:?}", index.warnings);
    assert_eq!(
        index.games.len(),
        200,
        "equal ids in two shards stay two games"
    );
    let g = Piratechnics::standard();
    let opening = read_opening_games(&shards, 3, |_| {}).unwrap();
    let tree = OpeningTree::build(&g, &opening, 3, |p, m| p.move_text(m)).unwrap();
    let start = &tree.roots[0].0;
    let mut checked = 0;
    for (n, node) in tree.nodes.iter().enumerate() {
        let Some(parent) = node.parent else { continue };
        let mut codes = Vec::new();
        let mut k = n;
        while let Some(p) = tree.nodes[k].parent {
            codes.push(tree.nodes[k].code);
            k = p;
        }
        codes.reverse();
        let before = &codes[..codes.len() - 1];
        let all = 0..=index.groups.len() as u32;
        let moves = index.moves(Key::Line(line_hash(start, before)), all.clone());
        let m = moves.iter().find(|m| m.code == node.code).unwrap();
        assert_eq!(m.games, node.stats.games, "line {codes:?}");
        assert_eq!(&m.results, &node.stats.results, "line {codes:?}");
        let by_pos = index.moves(Key::Position(tree.nodes[parent].position.hash()), all);
        let p = by_pos.iter().find(|m| m.code == node.code).unwrap();
        assert!(p.games >= m.games, "by position never fewer than by line");
        checked += 1;
    }
    assert!(checked > 100, "{checked} lines");
}

#[test]
fn a_repeated_position_counts_once_and_cut_games_and_bad_shards_are_left_out() {
    let dir = tempfile::tempdir().unwrap();
    // A game that stands on one position twice and plays the same move:
    // the same game twice at ply 0 and ply 2 (a copy of its first rows).
    let mut twice = games(0, 1, 3).remove(0);
    let (r0, r1) = (twice.positions[0].clone(), twice.positions[1].clone());
    twice.positions.truncate(2);
    for (ply, mut r) in [(2u32, r0), (3, r1)] {
        r.ply = ply;
        twice.positions.push(r);
    }
    for r in &mut twice.positions {
        r.game_length = 4;
    }
    let mut cut = games(1, 1, 3).remove(0);
    cut.positions.remove(1);
    write(&dir.path().join("a.parquet"), &[twice.clone(), cut.clone()]);
    std::fs::write(dir.path().join("b.parquet"), b"PAR1 not parquet").unwrap();
    let shards = list_shards(&[dir.path()]).unwrap();
    let index = ExploreIndex::build(&shards, |_| {});
    assert_eq!(index.games.len(), 1, "the cut game is left out");
    assert_eq!(index.warnings.len(), 2, "{:?}", index.warnings);
    assert!(index.warnings.iter().any(|w| w.contains("b.parquet")));
    assert!(index.warnings.iter().any(|w| w.contains("game 1 left out")));
    let hash = twice.positions[0].position_hash;
    let moves = index.moves(Key::Position(hash), 0..=0);
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].games, 1, "one game, though it stood there twice");
    assert_eq!(moves[0].code, twice.positions[0].chosen_move);
    let (list, count) = index.games_at(Key::Position(hash), 0..=0, 10);
    assert_eq!((list.len(), count), (1, 1));
    // By line, ply 0 and ply 2 are different lines.
    let start = &twice.positions[0].position;
    let at0 = index.moves(Key::Line(line_hash(start, &[])), 0..=0);
    let codes = [
        twice.positions[0].chosen_move,
        twice.positions[1].chosen_move,
    ];
    let at2 = index.moves(Key::Line(line_hash(start, &codes)), 0..=0);
    assert_eq!((at0[0].games, at2[0].games), (1, 1));
    // A position nobody reached has no moves.
    assert!(index.moves(Key::Position(hash ^ 1), 0..=0).is_empty());
}
