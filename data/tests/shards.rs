//! Shard round trip, temporary names, corrupt files, replay window, opening tree.

use std::path::Path;

use data::openings::{read_opening_games, OpeningTree};
use data::synthetic::random_game;
use data::{
    group_games, list_shards, read_shard, PositionRecord, ReplayWindow, ShardReader, ShardWriter,
    WindowOptions,
};
use piratechnics::{Color, Position};

fn write_games(path: &Path, first_id: u64, count: u64, seed: u64) -> Vec<PositionRecord> {
    let start = Position::start();
    let mut w = ShardWriter::create(path).unwrap();
    let mut rows = Vec::new();
    for id in first_id..first_id + count {
        let g = random_game(id, &start, seed, 60);
        w.push_game(&g).unwrap();
        rows.extend(g.positions);
    }
    w.finish().unwrap();
    rows
}

/// Two rows that differ in every column, including a null policy target.
fn distinct_rows() -> Vec<PositionRecord> {
    let a = PositionRecord {
        game_id: u64::MAX - 7,
        ply: 0,
        side_to_move: Color::White,
        tfen: Position::start().to_tfen(),
        position_hash: 0xDEAD_BEEF_0123_4567,
        legal_moves: vec![1, 2, 300_000],
        visits: vec![10, 0, 54],
        policy_target: Some(vec![0.25, 0.0, 0.75]),
        root_value: -0.125,
        root_wdl: [0.25, 0.375, 0.375],
        chosen_move: 300_000,
        result: "0-1".into(),
        termination: "checkmate".into(),
        game_length: 2,
        model_id: "net-0042".into(),
        simulations: 800,
        temperature: 1.25,
        full_search: true,
        seed: 12345,
    };
    let b = PositionRecord {
        game_id: 3,
        ply: 1,
        side_to_move: Color::Black,
        tfen: "not checked by the writer".into(),
        position_hash: 1,
        legal_moves: vec![],
        visits: vec![],
        policy_target: None,
        root_value: 0.5,
        root_wdl: [0.6, 0.3, 0.1],
        chosen_move: 9,
        result: "1/2-1/2".into(),
        termination: "no-capture".into(),
        game_length: 77,
        model_id: String::new(),
        simulations: 32,
        temperature: 0.0,
        full_search: false,
        seed: u64::MAX,
    };
    vec![a, b]
}

#[test]
fn round_trip_of_every_column() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.parquet");
    let rows = distinct_rows();
    let mut w = ShardWriter::create(&path).unwrap();
    for r in &rows {
        w.push(r).unwrap();
    }
    let summary = w.finish().unwrap();
    assert_eq!(summary.rows, 2);
    let reader = ShardReader::open(&path).unwrap();
    assert_eq!(reader.schema_version(), data::SCHEMA_VERSION);
    assert_eq!(reader.num_rows(), 2);
    assert_eq!(read_shard(&path).unwrap(), rows);
}

#[test]
fn many_rows_round_trip_and_games_are_recoverable() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.parquet");
    let rows = write_games(&path, 0, 160, 7);
    assert!(rows.len() > 8192, "spans several write batches");
    let back = read_shard(&path).unwrap();
    assert_eq!(back, rows);
    let games = group_games(back).unwrap();
    assert_eq!(games.len(), 160);
    for g in &games {
        let (start, moves) = g.replay().unwrap();
        assert_eq!(start.to_tfen(), g.start_tfen());
        assert_eq!(moves.len(), g.positions.len());
        assert_eq!(
            moves.iter().map(|m| m.code()).collect::<Vec<_>>(),
            g.move_codes()
        );
    }
}

#[test]
fn projection_reads_only_the_named_columns() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.parquet");
    let rows = write_games(&path, 0, 3, 1);
    let batches = ShardReader::open(&path)
        .unwrap()
        .read_columns(&["ply", "chosen_move"])
        .unwrap();
    let n: usize = batches.iter().map(|b| b.num_rows()).sum();
    assert_eq!(n, rows.len());
    assert_eq!(batches[0].num_columns(), 2);
    assert_eq!(batches[0].schema().field(1).name(), "chosen_move");
}

#[test]
fn invalid_rows_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut w = ShardWriter::create(dir.path().join("x.parquet")).unwrap();
    let mut r = distinct_rows().remove(0);
    r.visits.pop();
    assert!(w.push(&r).is_err());
    let mut r = distinct_rows().remove(0);
    r.result = "white".into();
    assert!(w.push(&r).is_err());
}

#[test]
fn temporary_shards_are_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let done = write_games(&dir.path().join("a-000001.parquet"), 0, 2, 3);
    // A writer still open: its rows sit under the temporary name.
    let mut open = ShardWriter::create(dir.path().join("a-000002.parquet")).unwrap();
    open.push_game(&random_game(9, &Position::start(), 3, 20))
        .unwrap();
    assert!(dir.path().join("a-000002.parquet.tmp").exists());
    // And a leftover temporary file that is a complete shard.
    std::fs::copy(
        dir.path().join("a-000001.parquet"),
        dir.path().join("a-000003.parquet.tmp"),
    )
    .unwrap();
    let shards = list_shards(&[dir.path()]).unwrap();
    assert_eq!(shards.len(), 1);
    assert!(shards[0].path.ends_with("a-000001.parquet"));
    let window = ReplayWindow::load(&[dir.path()], 1_000_000).unwrap();
    assert_eq!(window.len(), done.len());
    // Naming a temporary file explicitly is an error, not a silent read.
    assert!(list_shards(&[dir.path().join("a-000003.parquet.tmp")]).is_err());
    // Dropping an unfinished writer removes its temporary file.
    drop(open);
    assert!(!dir.path().join("a-000002.parquet.tmp").exists());
}

#[test]
fn corrupt_and_truncated_shards_give_errors_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let good = write_games(&dir.path().join("good.parquet"), 0, 3, 5);
    let bytes = std::fs::read(dir.path().join("good.parquet")).unwrap();
    let truncated = dir.path().join("truncated.parquet");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let garbage = dir.path().join("garbage.parquet");
    std::fs::write(&garbage, b"this is not parquet at all").unwrap();
    // Damage the middle of the data pages but keep the footer.
    let mut damaged = bytes.clone();
    let mid = damaged.len() / 3;
    for b in &mut damaged[mid..mid + 200] {
        *b ^= 0x5A;
    }
    let damaged_path = dir.path().join("damaged.parquet");
    std::fs::write(&damaged_path, &damaged).unwrap();

    for p in [&truncated, &garbage] {
        let e = ShardReader::open(p).err().expect("must fail");
        assert!(
            e.to_string()
                .contains(p.file_name().unwrap().to_str().unwrap()),
            "{e}"
        );
    }
    // Corrupt pages: either the open or the read fails, naming the file.
    let result = ShardReader::open(&damaged_path).and_then(|r| r.read_records());
    if let Err(e) = result {
        assert!(e.to_string().contains("damaged.parquet"), "{e}");
    }

    let window = ReplayWindow::load(&[dir.path()], 1_000_000).unwrap();
    assert!(window.skipped().len() >= 2);
    assert!(window
        .skipped()
        .iter()
        .any(|e| e.path.ends_with("truncated.parquet")));
    assert!(window.len() >= good.len());
}

#[test]
fn window_keeps_the_newest_positions_and_shuffles_reproducibly() {
    let dir = tempfile::tempdir().unwrap();
    let old = write_games(&dir.path().join("w-000001.parquet"), 0, 3, 1);
    let new = write_games(&dir.path().join("w-000002.parquet"), 100, 3, 2);
    let capacity = new.len() + 10;
    let window = ReplayWindow::load(&[dir.path()], capacity).unwrap();
    assert_eq!(window.len(), capacity);
    assert_eq!(&window.records()[..10], &old[old.len() - 10..]);
    assert_eq!(&window.records()[10..], &new[..]);

    let options = WindowOptions {
        batch_size: 64,
        seed: 11,
        mirror: true,
        prefetch: 2,
        epochs: Some(2),
    };
    let batches: Vec<_> = window.batches(&options).collect();
    let mut seen: Vec<u32> = batches
        .iter()
        .filter(|b| b.epoch == 0)
        .flat_map(|b| b.indices.clone())
        .collect();
    let first_epoch = seen.clone();
    seen.sort_unstable();
    assert_eq!(seen, (0..capacity as u32).collect::<Vec<_>>());
    assert_ne!(first_epoch, seen, "shuffled");
    let mirrored = batches
        .iter()
        .flat_map(|b| b.mirrored.clone())
        .filter(|&m| m)
        .count();
    assert!(mirrored > capacity / 4 && mirrored < capacity * 7 / 4);
    let again: Vec<_> = window.batches(&options).collect();
    assert_eq!(
        again
            .iter()
            .flat_map(|b| b.indices.clone())
            .collect::<Vec<_>>(),
        batches
            .iter()
            .flat_map(|b| b.indices.clone())
            .collect::<Vec<_>>()
    );
    // Stopping early (dropping the stream) does not hang.
    let mut endless = window.batches(&WindowOptions::default());
    assert!(endless.next().is_some());
    drop(endless);
}

#[test]
fn opening_tree_counts_add_up() {
    let dir = tempfile::tempdir().unwrap();
    let mut rows = write_games(&dir.path().join("o-1.parquet"), 0, 120, 9);
    rows.extend(write_games(&dir.path().join("o-2.parquet"), 1000, 80, 10));
    let shards = list_shards(&[dir.path()]).unwrap();
    let plies = 3;
    let games = read_opening_games(&shards, plies, |_| {}).unwrap();
    assert_eq!(games.len(), 200);
    let tree =
        OpeningTree::build(&games, plies, |p, m| format!("{}{}", p.hash(), m.code())).unwrap();
    assert_eq!(tree.total_games(), 200);
    for (i, node) in tree.nodes.iter().enumerate() {
        let s = &node.stats;
        assert_eq!(s.results.iter().sum::<u64>(), s.games);
        if node.depth < plies {
            let children: u64 = node
                .children
                .values()
                .map(|&c| tree.nodes[c].stats.games)
                .sum();
            assert_eq!(children + s.ended_here, s.games, "node {i}");
        } else {
            assert!(node.children.is_empty());
        }
    }
    // First moves match the rows at ply 0.
    let first = tree.sorted_children(tree.roots[0].1);
    let total_first: u64 = first.iter().map(|&c| tree.nodes[c].stats.games).sum();
    let ply0 = rows.iter().filter(|r| r.ply == 0).count() as u64;
    assert_eq!(total_first, ply0);
    // min_games hides rare lines.
    assert!(tree.lines(0).len() >= tree.lines(5).len());
    assert!(tree
        .lines(5)
        .iter()
        .all(|&n| tree.nodes[n].stats.games >= 5));
}

#[test]
fn mirrored_samples_are_legal_and_mirror_back() {
    let g = random_game(4, &Position::start(), 21, 40);
    for r in &g.positions {
        let m = r.mirrored().unwrap();
        let pos = Position::from_tfen(&m.tfen).unwrap();
        assert_eq!(pos.hash(), m.position_hash);
        let mut legal: Vec<u32> = pos.legal_move_vec().iter().map(|m| m.code()).collect();
        let mut stored = m.legal_moves.clone();
        legal.sort_unstable();
        stored.sort_unstable();
        assert_eq!(legal, stored, "ply {}", r.ply);
        assert!(m.legal_moves.contains(&m.chosen_move));
        assert_eq!(m.visits, r.visits);
        assert_eq!(&m.mirrored().unwrap(), r);
    }
}

#[test]
fn exported_games_replay_to_the_same_moves() {
    for id in 0..6 {
        let g = random_game(id, &Position::start(), 33, 120);
        let text = g.to_inventor().unwrap();
        let replayed = piratechnics::replay(Position::start(), &text).unwrap();
        let codes: Vec<u32> = replayed.plies.iter().map(|p| p.mv.code()).collect();
        assert_eq!(codes, g.move_codes(), "game {id}:\n{text}");
        assert!(replayed.warnings.is_empty(), "{:?}", replayed.warnings);
    }
}

#[test]
fn refresh_adds_new_shards_and_drops_the_oldest_rows() {
    let dir = tempfile::tempdir().unwrap();
    let first = write_games(&dir.path().join("r-000001.parquet"), 0, 2, 1);
    let capacity = first.len() + 5;
    let mut window = ReplayWindow::load(&[dir.path()], capacity).unwrap();
    assert_eq!(window.len(), first.len());
    assert_eq!(window.refresh(&[dir.path()]).unwrap(), 0);
    let second = write_games(&dir.path().join("r-000002.parquet"), 10, 2, 2);
    assert_eq!(window.refresh(&[dir.path()]).unwrap(), second.len());
    assert_eq!(window.len(), capacity);
    assert_eq!(window.records().last(), second.last());
    assert_eq!(window.shards().len(), 2);
}
