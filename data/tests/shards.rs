//! Shard round trip, temporary names, corrupt files, replay window, opening tree.

use std::path::Path;

use data::openings::{read_opening_games, OpeningTree};
use data::synthetic::random_game;
use data::{
    group_games, list_shards, read_shard, PositionRecord, ReplayWindow, ShardGame, ShardReader,
    ShardWriter, Source, WindowOptions,
};
use game::{Color, Game, GameResult, GameTag, Termination};
use piratechnics::{Piratechnics, Position};

fn standard() -> Piratechnics {
    Piratechnics::standard()
}

fn write_games(path: &Path, first_id: u64, count: u64, seed: u64) -> Vec<PositionRecord> {
    write_games_of(&standard(), path, first_id, count, seed)
}

fn write_games_of<G: Game>(
    game: &G,
    path: &Path,
    first_id: u64,
    count: u64,
    seed: u64,
) -> Vec<PositionRecord> {
    let start = game.start();
    let mut w = ShardWriter::create(path).unwrap();
    let mut rows = Vec::new();
    for id in first_id..first_id + count {
        let g = random_game(game, id, &start, seed, 60);
        w.push_game(&g).unwrap();
        rows.extend(g.positions);
    }
    w.finish().unwrap();
    rows
}

/// Three rows that differ in every column, with every nullable column both
/// null and not null.
fn distinct_rows() -> Vec<PositionRecord> {
    let a = PositionRecord {
        game: "piratechnics".into(),
        variant: "standard".into(),
        game_id: u64::MAX - 7,
        ply: 0,
        side_to_move: Color::White,
        position: Position::start().to_tfen(),
        repetitions: Some(1),
        position_hash: 0xDEAD_BEEF_0123_4567,
        legal_moves: vec![1, 2, 300_000],
        visits: Some(vec![10, 0, 54]),
        policy_target: Some(vec![0.25, 0.0, 0.75]),
        root_value: Some(-0.125),
        root_wdl: Some([0.25, 0.375, 0.375]),
        chosen_move: 300_000,
        result: Some(GameResult::BlackWin),
        termination: Termination::Checkmate,
        game_length: 2,
        source: Source::SelfPlay,
        model_id: "net-0042".into(),
        simulations: Some(800),
        temperature: 1.25,
        full_search: true,
        seed: 12345,
    };
    let b = PositionRecord {
        game: "piratechnics".into(),
        variant: "standard".into(),
        game_id: 3,
        ply: 1,
        side_to_move: Color::Black,
        position: "not checked by the writer".into(),
        repetitions: Some(3),
        position_hash: 1,
        legal_moves: vec![],
        visits: Some(vec![]),
        policy_target: None,
        root_value: Some(0.5),
        root_wdl: Some([0.6, 0.3, 0.1]),
        chosen_move: 9,
        result: Some(GameResult::Draw),
        termination: Termination::NoCapture,
        game_length: 77,
        source: Source::Imported,
        model_id: String::new(),
        simulations: Some(32),
        temperature: 0.0,
        full_search: false,
        seed: u64::MAX,
    };
    // A match move of a player without a search: every search column null,
    // an unfinished game, an unknown repetition count.
    let c = PositionRecord {
        game: "piratechnics".into(),
        variant: "standard".into(),
        game_id: 0,
        ply: 7,
        side_to_move: Color::White,
        position: "x".into(),
        repetitions: None,
        position_hash: 0,
        legal_moves: vec![5, 6],
        visits: None,
        policy_target: None,
        root_value: None,
        root_wdl: None,
        chosen_move: 6,
        result: None,
        termination: Termination::Unfinished,
        game_length: 8,
        source: Source::Match,
        model_id: "ab:depth=2".into(),
        simulations: None,
        temperature: 0.0,
        full_search: false,
        seed: 0,
    };
    vec![a, b, c]
}

fn kv(path: &Path, key: &str) -> Option<String> {
    let file = std::fs::File::open(path).unwrap();
    let reader = parquet::file::reader::SerializedFileReader::new(file).unwrap();
    use parquet::file::reader::FileReader;
    reader
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .and_then(|kv| kv.iter().find(|k| k.key == key))
        .and_then(|k| k.value.clone())
}

#[test]
fn v2_round_trip_of_every_column_with_nulls() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.parquet");
    let rows = distinct_rows();
    let mut w = ShardWriter::create(&path).unwrap();
    for r in &rows {
        w.push(r).unwrap();
    }
    let summary = w.finish().unwrap();
    assert_eq!(summary.rows, 3);
    let reader = ShardReader::open(&path).unwrap();
    assert_eq!(reader.schema_version(), 2);
    assert_eq!(data::SCHEMA_VERSION, 2);
    assert_eq!(reader.num_rows(), 3);
    assert_eq!(
        reader.game(),
        Some(&ShardGame::new("piratechnics", "standard"))
    );
    assert_eq!(read_shard(&path).unwrap(), rows);
    // The version marker and the game, readable by any Parquet tool.
    assert_eq!(kv(&path, "triad.schema_version").as_deref(), Some("2"));
    assert_eq!(kv(&path, "triad.game").as_deref(), Some("piratechnics"));
    assert_eq!(kv(&path, "triad.variant").as_deref(), Some("standard"));
    // Nulls are Parquet nulls, not sentinels.
    let batches = ShardReader::open(&path)
        .unwrap()
        .read_columns(&[
            "visits",
            "root_value",
            "simulations",
            "repetitions",
            "result",
            "source",
        ])
        .unwrap();
    use data::arrow_array::Array;
    let b = &batches[0];
    assert_eq!(b.num_columns(), 6);
    for name in ["visits", "root_value", "simulations", "repetitions"] {
        let a = b.column_by_name(name).unwrap();
        assert_eq!(a.null_count(), 1, "{name}");
        assert!(a.is_null(2), "{name}");
    }
    let c = data::Columns::new(b);
    assert_eq!(c.str("result").unwrap().value(2), "*");
    assert_eq!(c.str("source").unwrap().value(1), "imported");
    assert_eq!(c.str("source").unwrap().value(2), "match");
}

#[test]
fn v1_shard_of_the_previous_release_reads_as_v2() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/v1-selfplay.parquet");
    let reader = ShardReader::open(&path).unwrap();
    assert_eq!(reader.schema_version(), 1);
    assert_eq!(reader.num_rows(), 36);
    assert_eq!(
        reader.game(),
        Some(&ShardGame::new("piratechnics", "standard"))
    );
    let tag = GameTag::of(&standard());
    reader.check_game(&tag).unwrap();
    let eight = GameTag::of(&Piratechnics::named("8x8", None).unwrap());
    let e = reader.check_game(&eight).unwrap_err().to_string();
    assert!(
        e.contains("v1-selfplay.parquet")
            && e.contains("shard is piratechnics/standard; this run plays piratechnics/8x8"),
        "{e}"
    );
    let rows = reader.read_records().unwrap();
    assert_eq!(rows.len(), 36);
    let start = Position::start().to_tfen();
    for r in &rows {
        assert_eq!(&*r.game, "piratechnics");
        assert_eq!(&*r.variant, "standard");
        assert_eq!(r.source, Source::SelfPlay);
        assert_eq!(r.repetitions, None);
        assert_eq!(r.result, Some(GameResult::Draw));
        assert_eq!(r.termination, Termination::MaxLength);
        assert_eq!(r.game_length, 12);
        assert_eq!(r.model_id, "random-seed5");
        assert!(r.simulations == Some(100) || r.simulations == Some(4));
        assert_eq!(r.visits.as_ref().unwrap().len(), r.legal_moves.len());
        assert!(r.root_value.is_some() && r.root_wdl.is_some());
        assert_eq!(r.policy_target, None);
        assert_eq!(r.temperature, 1.0);
        assert!(r.legal_moves.contains(&r.chosen_move));
        if r.ply == 0 {
            assert_eq!(r.position, start);
            assert_eq!(r.side_to_move, Color::White);
        }
        r.validate().unwrap();
    }
    let first = &rows[0];
    assert_eq!((first.game_id, first.ply), (2, 0));
    assert_eq!(first.position_hash, 14435510170600699857);
    assert_eq!(first.legal_moves.len(), 60);
    assert_eq!(first.chosen_move, 2194);
    assert_eq!(first.seed, 4937455046679418394);
    // One allocation for the game's name, shared by the rows.
    assert!(std::sync::Arc::ptr_eq(&rows[0].game, &rows[35].game));
    // Three whole games, which replay in the new code's rules, and whose
    // repetition counts can be recovered.
    let mut games = group_games(rows).unwrap();
    assert_eq!(games.len(), 3);
    let mut ids: Vec<u64> = games.iter().map(|g| g.game_id).collect();
    ids.sort_unstable();
    assert_eq!(ids, [0, 1, 2]);
    for g in &mut games {
        assert_eq!(g.positions.len(), 12);
        let history = g.replay(&standard()).unwrap();
        assert_eq!(history.moves().len(), 12);
        g.fill_repetitions(&standard()).unwrap();
        assert!(g.positions.iter().all(|r| r.repetitions == Some(1)));
        g.replay(&standard()).unwrap();
    }
    // Narrow reads use version 2 names: `position`, not `tfen`.
    let batches = ShardReader::open(&path)
        .unwrap()
        .read_filtered(
            &["game", "ply", "position", "repetitions", "source"],
            Some(1),
        )
        .unwrap();
    let n: usize = batches.iter().map(|b| b.num_rows()).sum();
    assert_eq!(n, 3);
    let names: Vec<String> = batches[0]
        .schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect();
    assert_eq!(names, ["game", "ply", "position", "repetitions", "source"]);
    assert!(ShardReader::open(&path)
        .unwrap()
        .read_columns(&["tfen"])
        .is_err());
    // The window and the opening tree take it like any shard.
    let window = ReplayWindow::load_for(&[&path], 100, &tag).unwrap();
    assert_eq!(window.len(), 36);
    let shards = list_shards(&[&path]).unwrap();
    let opening = read_opening_games(&shards, 2, |_| {}).unwrap();
    assert_eq!(opening.len(), 3);
    let summary = data::summary::summarize(&shards).unwrap();
    assert_eq!(summary.games, 3);
    assert_eq!(summary.draws, 3);
    assert!(summary.games_played.contains("piratechnics/standard"));
}

/// A version 1 match shard (`triad eval` wrote made-up one-hot visit
/// counts and `simulations` 0): read as `match` rows without search
/// statistics. Made by rewriting the v1 fixture with some rows at 0
/// simulations, as the previous release's arena wrote them.
#[test]
fn v1_rows_without_simulations_read_as_match_rows_without_search() {
    use data::arrow_array::{ArrayRef, RecordBatch, UInt32Array};
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    use parquet::arrow::ArrowWriter;
    use std::sync::Arc;
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/v1-selfplay.parquet");
    let builder =
        ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(&fixture).unwrap()).unwrap();
    let kv = builder
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .cloned();
    let batches: Vec<RecordBatch> = builder.build().unwrap().collect::<Result<_, _>>().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v1-match.parquet");
    let schema = batches[0].schema();
    let props = parquet::file::properties::WriterProperties::builder()
        .set_key_value_metadata(kv)
        .build();
    let mut w = ArrowWriter::try_new(
        std::fs::File::create(&path).unwrap(),
        schema.clone(),
        Some(props),
    )
    .unwrap();
    let sims_index = schema.index_of("simulations").unwrap();
    let ply_index = schema.index_of("ply").unwrap();
    for b in &batches {
        let ply = b
            .column(ply_index)
            .as_any()
            .downcast_ref::<UInt32Array>()
            .unwrap();
        // Even plies: a match player without a search.
        let sims: UInt32Array = b
            .column(sims_index)
            .as_any()
            .downcast_ref::<UInt32Array>()
            .unwrap()
            .iter()
            .zip(ply.iter())
            .map(|(s, p)| if p.unwrap() % 2 == 0 { Some(0) } else { s })
            .collect();
        let mut columns: Vec<ArrayRef> = b.columns().to_vec();
        columns[sims_index] = Arc::new(sims);
        w.write(&RecordBatch::try_new(schema.clone(), columns).unwrap())
            .unwrap();
    }
    w.close().unwrap();
    let rows = read_shard(&path).unwrap();
    assert_eq!(rows.len(), 36);
    for r in &rows {
        if r.ply % 2 == 0 {
            assert_eq!(r.source, Source::Match);
            assert_eq!(r.visits, None);
            assert_eq!(r.root_value, None);
            assert_eq!(r.root_wdl, None);
            assert_eq!(r.simulations, None);
            assert_eq!(r.policy_target, None);
        } else {
            assert_eq!(r.source, Source::SelfPlay);
            assert!(r.visits.is_some() && r.root_wdl.is_some() && r.simulations.is_some());
        }
    }
    // A narrow read of one search column alone applies the same rule.
    let batches = ShardReader::open(&path)
        .unwrap()
        .read_columns(&["visits"])
        .unwrap();
    use data::arrow_array::Array;
    assert_eq!(batches[0].num_columns(), 1);
    assert_eq!(batches[0].column(0).null_count(), 18);
}

#[test]
fn one_shard_holds_one_game_and_variant() {
    let dir = tempfile::tempdir().unwrap();
    let eight = Piratechnics::named("8x8", None).unwrap();
    let g8 = random_game(&eight, 1, &eight.start(), 1, 10);
    assert!(g8.positions.iter().all(|r| &*r.variant == "8x8"));
    let gs = random_game(&standard(), 2, &standard().start(), 1, 10);
    let mut w = ShardWriter::create(dir.path().join("mixed.parquet")).unwrap();
    w.push_game(&gs).unwrap();
    let e = w.push_game(&g8).unwrap_err().to_string();
    assert!(
        e.contains("piratechnics/8x8") && e.contains("piratechnics/standard"),
        "{e}"
    );
    // Pinned up front: even the first row of another game is refused.
    let options = data::ShardOptions {
        game: Some(ShardGame::of(&eight)),
        ..Default::default()
    };
    let mut w = ShardWriter::with_options(dir.path().join("e.parquet"), &options).unwrap();
    assert!(w.push_game(&gs).is_err());
    w.push_game(&g8).unwrap();
    let path = w.finish().unwrap().path;
    assert_eq!(
        data::shard_game(&path).unwrap(),
        Some(ShardGame::of(&eight))
    );
    // The writer's own metadata keys cannot be overridden.
    let options = data::ShardOptions {
        metadata: vec![("triad.game".into(), "chess".into())],
        ..Default::default()
    };
    assert!(ShardWriter::with_options(dir.path().join("k.parquet"), &options).is_err());
}

#[test]
fn readers_check_the_game_of_a_run() {
    let dir = tempfile::tempdir().unwrap();
    let eight = Piratechnics::named("8x8", None).unwrap();
    write_games(&dir.path().join("a-000001.parquet"), 0, 2, 1);
    let other = dir.path().join("a-000002.parquet");
    write_games_of(&eight, &other, 10, 2, 1);
    let standard_tag = GameTag::of(&standard());
    let e = ReplayWindow::load_for(&[dir.path()], 1000, &standard_tag)
        .err()
        .expect("a shard of another variant")
        .to_string();
    assert!(
        e.contains("a-000002.parquet")
            && e.contains("shard is piratechnics/8x8; this run plays piratechnics/standard"),
        "{e}"
    );
    // Without an expected game, the window still refuses to mix.
    let e = ReplayWindow::load(&[dir.path()], 1000)
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("piratechnics/standard") && e.contains("piratechnics/8x8"),
        "{e}"
    );
    let shards = list_shards(&[dir.path()]).unwrap();
    assert!(data::check_shards(&shards, &standard_tag).is_err());
    assert!(data::common_game(&shards).is_err());
    assert!(read_opening_games(&shards, 2, |_| {}).is_err());
    assert_eq!(
        data::common_game(&shards[..1]).unwrap(),
        Some(ShardGame::of(&standard()))
    );
    // A window of the right game refuses a new shard of another on refresh.
    std::fs::remove_file(&other).unwrap();
    let mut window = ReplayWindow::load_for(&[dir.path()], 1000, &standard_tag).unwrap();
    assert_eq!(window.game(), Some(&ShardGame::of(&standard())));
    let before = window.len();
    write_games_of(&eight, &dir.path().join("a-000003.parquet"), 20, 1, 1);
    assert!(window.refresh(&[dir.path()]).is_err());
    assert_eq!(window.len(), before);
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
        let history = g.replay(&standard()).unwrap();
        assert_eq!(history.start().to_tfen(), g.start_position());
        assert_eq!(history.moves().len(), g.positions.len());
        assert_eq!(
            history.moves().iter().map(|m| m.code()).collect::<Vec<_>>(),
            g.move_codes()
        );
        // The recorded repetition counts are the history's (checked by
        // replay), and the end is the rules' verdict or the length cap.
        match g.termination() {
            Termination::MaxLength => assert_eq!(g.positions.len(), 60),
            t => {
                let o = history.outcome().expect("ended by the rules");
                assert_eq!((Some(o.result), o.termination), (g.result(), t));
            }
        }
    }
}

#[test]
fn synthetic_games_end_by_the_games_rules() {
    // Long random games reach the no-capture rule or a repetition, which
    // the generator must take from the rules, not re-code.
    let mut seen = std::collections::BTreeSet::new();
    for id in 0..40 {
        let g = random_game(&standard(), id, &Position::start(), 3, 400);
        let history = g.replay(&standard()).unwrap();
        match g.termination() {
            Termination::MaxLength => assert_eq!(g.positions.len(), 400),
            t => assert_eq!(history.outcome().map(|o| o.termination), Some(t)),
        }
        assert!(g.positions.iter().all(|r| r.repetitions.is_some()));
        seen.insert(g.termination().as_str());
    }
    assert!(seen.len() >= 2, "{seen:?}");
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
    r.visits.as_mut().unwrap().pop();
    assert!(w.push(&r).is_err());
    let mut r = distinct_rows().remove(0);
    r.result = None;
    assert!(w.push(&r).is_err(), "`*` with checkmate");
    let mut r = distinct_rows().remove(2);
    r.termination = Termination::Resignation;
    assert!(w.push(&r).is_err(), "resignation without a result");
    let mut r = distinct_rows().remove(0);
    r.repetitions = Some(0);
    assert!(w.push(&r).is_err());
    let mut r = distinct_rows().remove(0);
    r.game = "".into();
    assert!(w.push(&r).is_err());
}

#[test]
fn temporary_shards_are_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let done = write_games(&dir.path().join("a-000001.parquet"), 0, 2, 3);
    // A writer still open: its rows sit under the temporary name.
    let mut open = ShardWriter::create(dir.path().join("a-000002.parquet")).unwrap();
    open.push_game(&random_game(&standard(), 9, &Position::start(), 3, 20))
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

/// A shard whose `ply` column is a string (another tool's writer, or a
/// tampered file) panicked inside an Arrow downcast before the clean error:
/// it is refused at open, naming the file, the column and both types.
#[test]
fn a_wrongly_typed_column_is_refused_at_open_by_name() {
    use arrow_schema::{DataType, Field, Schema};
    use data::arrow_array::{ArrayRef, RecordBatch, StringArray, UInt32Array};
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    use parquet::arrow::ArrowWriter;
    use std::sync::Arc;
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.parquet");
    write_games(&good, 0, 2, 9);
    let builder =
        ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(&good).unwrap()).unwrap();
    let kv = builder
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .cloned();
    let batches: Vec<RecordBatch> = builder.build().unwrap().collect::<Result<_, _>>().unwrap();
    let old = batches[0].schema();
    let ply = old.index_of("ply").unwrap();
    let fields: Vec<Field> = old
        .fields()
        .iter()
        .enumerate()
        .map(|(i, f)| {
            if i == ply {
                Field::new("ply", DataType::Utf8, false)
            } else {
                f.as_ref().clone()
            }
        })
        .collect();
    let schema = Arc::new(Schema::new(fields));
    let bad = dir.path().join("typed.parquet");
    let props = parquet::file::properties::WriterProperties::builder()
        .set_key_value_metadata(kv)
        .build();
    let mut w = ArrowWriter::try_new(
        std::fs::File::create(&bad).unwrap(),
        schema.clone(),
        Some(props),
    )
    .unwrap();
    for b in &batches {
        let text: StringArray = b
            .column(ply)
            .as_any()
            .downcast_ref::<UInt32Array>()
            .unwrap()
            .iter()
            .map(|p| p.map(|p| p.to_string()))
            .collect();
        let mut columns: Vec<ArrayRef> = b.columns().to_vec();
        columns[ply] = Arc::new(text);
        w.write(&RecordBatch::try_new(schema.clone(), columns).unwrap())
            .unwrap();
    }
    w.close().unwrap();
    let e = ShardReader::open(&bad)
        .err()
        .expect("a string ply must be refused");
    let msg = e.to_string();
    assert!(msg.contains("typed.parquet"), "{msg}");
    assert!(msg.contains("\"ply\" is Utf8 (expected UInt32)"), "{msg}");
    // The good shard still opens, and a window over both skips the bad one.
    assert!(ShardReader::open(&good).is_ok());
    let window = ReplayWindow::load(&[dir.path()], 1_000_000).unwrap();
    assert_eq!(window.skipped().len(), 1);
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
        symmetries: standard().symmetries(),
        prefetch: 2,
        epochs: Some(2),
    };
    assert_eq!(options.symmetries, 2);
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
        .flat_map(|b| b.iter().map(|(_, s)| s).collect::<Vec<_>>())
        .filter(|&s| s == 1)
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
    let tree = OpeningTree::build(&standard(), &games, plies, |p, m| {
        format!("{}{}", p.hash(), m.code())
    })
    .unwrap();
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
fn transformed_samples_are_legal_and_transform_back() {
    let game = standard();
    let g = random_game(&game, 4, &Position::start(), 21, 40);
    for r in &g.positions {
        assert_eq!(&r.transformed(&game, 0).unwrap(), r);
        let m = r.transformed(&game, 1).unwrap();
        assert_ne!(m.position, r.position);
        let pos = Position::from_tfen(&m.position).unwrap();
        assert_eq!(pos.hash(), m.position_hash);
        let mut legal: Vec<u32> = pos.legal_move_vec().iter().map(|m| m.code()).collect();
        let mut stored = m.legal_moves.clone();
        legal.sort_unstable();
        stored.sort_unstable();
        assert_eq!(legal, stored, "ply {}", r.ply);
        assert!(m.legal_moves.contains(&m.chosen_move));
        assert_eq!(m.visits, r.visits);
        assert_eq!(&m.transformed(&game, 1).unwrap(), r);
    }
    assert!(g.positions[0].transformed(&game, 2).is_err());
    // A row is read only in its own game and variant.
    let eight = Piratechnics::named("8x8", None).unwrap();
    let e = g.positions[0].transformed(&eight, 0).unwrap_err();
    assert!(
        e.message().contains("piratechnics/standard") && e.message().contains("piratechnics/8x8"),
        "{e}"
    );
}

#[test]
fn exported_games_replay_to_the_same_moves() {
    for id in 0..6 {
        let g = random_game(&standard(), id, &Position::start(), 33, 120);
        let history = g.replay(&standard()).unwrap();
        let resigned = g.termination() == Termination::Resignation;
        let text = format!(
            "{}\n{}",
            g.header(),
            piratechnics::write_record(history.start(), history.moves(), resigned)
        );
        assert!(text.starts_with(&format!(
            "Game {id} ({} plies, piratechnics/standard): ",
            g.positions.len()
        )));
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

/// The ply cap a writer records, and the verifier's check of games
/// stopped by it: against the shard's own cap, and against the run's.
#[test]
fn games_stopped_by_the_cap_are_checked_against_it() {
    use data::verify::{GameIds, Verifier};
    let dir = tempfile::tempdir().unwrap();
    let g = Piratechnics::standard();
    // Random PiRaTeKnIcS games of 12 plies never end by the rules.
    let games: Vec<_> = (0..3)
        .map(|id| data::synthetic::random_game(&g, id, &g.start(), 4, 12))
        .collect();
    assert!(games
        .iter()
        .all(|r| r.positions[0].termination == game::Termination::MaxLength));
    let path = dir.path().join("capped.parquet");
    let mut w = data::ShardWriter::create_capped(&path, 12).unwrap();
    for r in &games {
        w.push_game(r).unwrap();
    }
    w.finish().unwrap();
    assert_eq!(
        kv(&path, data::schema::MAX_PLIES_KEY).as_deref(),
        Some("12")
    );
    assert_eq!(
        data::ShardReader::open(&path).unwrap().max_plies(),
        Some(12)
    );
    let ids = GameIds::default();
    // Its own cap, and a run with the same: no fault.
    assert!(Verifier::new(&g).shard(&path, &ids).ok());
    assert!(Verifier::new(&g).with_max_plies(12).shard(&path, &ids).ok());
    // A run that stops games at 20: the shard's cap is a metadata fault,
    // and each game stopped at 12 a result fault.
    let check = Verifier::new(&g).with_max_plies(20).shard(&path, &ids);
    let kinds: Vec<&str> = check
        .checked
        .faults
        .iter()
        .map(|f| f.kind.as_str())
        .collect();
    assert_eq!(
        kinds.iter().filter(|k| **k == "metadata").count(),
        1,
        "{kinds:?}"
    );
    assert_eq!(
        kinds.iter().filter(|k| **k == "result").count(),
        3,
        "{kinds:?}"
    );
    assert!(
        check.checked.faults[0]
            .message
            .contains("stop at 12 plies; this run stops them at 20"),
        "{:?}",
        check.checked.faults[0]
    );
}
