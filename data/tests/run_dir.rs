//! Listing the shards of a run directory (`games/gen-NNNN/*.parquet`, not
//! `eval/`), of its `games/` folder, and of a range of generations.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use data::synthetic::random_game;
use data::{list_shards, list_shards_in, Generations, ReplayWindow, ShardWriter};
use game::Game;
use piratechnics::Piratechnics;

/// Writes `count` random games with ids from `first_id` to `path`.
fn write_shard(path: &Path, first_id: u64, count: u64) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let game = Piratechnics::standard();
    let start = game.start();
    let mut w = ShardWriter::create(path).unwrap();
    for id in first_id..first_id + count {
        w.push_game(&random_game(&game, id, &start, 3, 20)).unwrap();
    }
    w.finish().unwrap();
}

fn set_modified(path: &Path, t: SystemTime) {
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(t)
        .unwrap();
}

/// A run directory as `triad loop` lays it out. Generation 2's shard is
/// made older on disk than generation 1's: the order must follow the
/// generations, not the modification times.
struct Run {
    _dir: tempfile::TempDir,
    root: PathBuf,
    a: PathBuf,
    b: PathBuf,
    eval: PathBuf,
}

fn fake_run() -> Run {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("run");
    let a = root.join("games/gen-0001/a.parquet");
    let b = root.join("games/gen-0002/b.parquet");
    let eval = root.join("eval/gen-0001.parquet");
    write_shard(&a, 0, 2);
    write_shard(&b, 0, 3);
    write_shard(&eval, 1 << 31, 2);
    let now = SystemTime::now();
    set_modified(&a, now);
    set_modified(&b, now - Duration::from_secs(3600));
    std::fs::write(root.join("config.toml"), "seed = 1\n").unwrap();
    std::fs::create_dir_all(root.join("networks")).unwrap();
    Run {
        _dir: dir,
        root,
        a,
        b,
        eval,
    }
}

fn paths(shards: &[data::ShardFile]) -> Vec<PathBuf> {
    shards.iter().map(|s| s.path.clone()).collect()
}

#[test]
fn a_run_directory_gives_its_self_play_shards_in_generation_order() {
    let run = fake_run();
    let shards = list_shards(&[&run.root]).unwrap();
    assert_eq!(paths(&shards), vec![run.a.clone(), run.b.clone()]);
    assert_eq!(
        shards.iter().map(|s| s.generation).collect::<Vec<_>>(),
        vec![Some(1), Some(2)]
    );
    // Its games/ folder gives the same; both together list each shard once.
    let games = run.root.join("games");
    assert_eq!(
        paths(&list_shards(&[&games]).unwrap()),
        vec![run.a.clone(), run.b.clone()]
    );
    assert_eq!(
        paths(&list_shards(&[&run.root, &games]).unwrap()),
        vec![run.a.clone(), run.b.clone()]
    );
    // One generation folder is a plain folder of shards.
    assert_eq!(
        paths(&list_shards(&[games.join("gen-0002")]).unwrap()),
        vec![run.b.clone()]
    );
    // The evaluation games are read when named.
    let eval = list_shards(&[run.root.join("eval")]).unwrap();
    assert_eq!(paths(&eval), vec![run.eval.clone()]);
    assert_eq!(eval[0].generation, Some(1));
    // Named files keep their generation, hence the order.
    assert_eq!(
        paths(&list_shards(&[&run.b, &run.a]).unwrap()),
        vec![run.a.clone(), run.b.clone()]
    );
}

#[test]
fn shards_being_written_in_a_generation_folder_are_skipped() {
    let run = fake_run();
    let tmp = run.root.join("games/gen-0003/c.parquet.tmp");
    std::fs::create_dir_all(tmp.parent().unwrap()).unwrap();
    std::fs::write(&tmp, b"half a shard").unwrap();
    assert_eq!(
        paths(&list_shards(&[&run.root]).unwrap()),
        vec![run.a.clone(), run.b.clone()]
    );
}

#[test]
fn a_generation_range_picks_the_generations() {
    let run = fake_run();
    let pick = |range: &str| -> Vec<PathBuf> {
        let r: Generations = range.parse().unwrap();
        paths(&list_shards_in(&[&run.root], &r).unwrap())
    };
    assert_eq!(pick("1..2"), vec![run.a.clone(), run.b.clone()]);
    assert_eq!(pick("2.."), vec![run.b.clone()]);
    assert_eq!(pick("..1"), vec![run.a.clone()]);
    assert_eq!(pick("1"), vec![run.a.clone()]);
    assert_eq!(pick("0..5"), vec![run.a.clone(), run.b.clone()]);
    assert!(pick("3..").is_empty());
    let games = run.root.join("games");
    let r: Generations = "2".parse().unwrap();
    assert_eq!(
        paths(&list_shards_in(&[&games], &r).unwrap()),
        vec![run.b.clone()]
    );
    assert_eq!(
        paths(&list_shards_in(&[run.root.join("eval")], &r).unwrap()),
        Vec::<PathBuf>::new()
    );
}

#[test]
fn a_generation_range_refuses_shards_of_no_generation() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("shards/shard-000001.parquet");
    write_shard(&plain, 0, 1);
    let shards = list_shards(&[dir.path().join("shards")]).unwrap();
    assert_eq!(paths(&shards), vec![plain.clone()]);
    assert_eq!(shards[0].generation, None);
    let err = list_shards_in(&[dir.path().join("shards")], &Generations::ALL).unwrap_err();
    assert_eq!(err.path, plain);
    assert!(err.message.contains("gen-NNNN"), "{err}");
}

#[test]
fn a_plain_folder_keeps_its_order() {
    // Modification time first, then the sequence number, then the name,
    // as before run directories were read.
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("z-000009.parquet");
    let new = dir.path().join("a-000001.parquet");
    let same_a = dir.path().join("b-000002.parquet");
    let same_b = dir.path().join("b-000010.parquet");
    for (i, p) in [&old, &new, &same_a, &same_b].into_iter().enumerate() {
        write_shard(p, i as u64, 1);
    }
    let t = SystemTime::now() - Duration::from_secs(60);
    set_modified(&old, t - Duration::from_secs(60));
    set_modified(&new, t + Duration::from_secs(60));
    set_modified(&same_a, t);
    set_modified(&same_b, t);
    assert_eq!(
        paths(&list_shards(&[dir.path()]).unwrap()),
        vec![old, same_a, same_b, new]
    );
}

#[test]
fn a_generations_shards_keep_their_names_order_whatever_their_times() {
    // Self-play pools write a generation's shards at once and finish in
    // any order; training must read them in the same order every run.
    let dir = tempfile::tempdir().unwrap();
    let gen = dir.path().join("games/gen-0005");
    let p0 = gen.join("selfplay-s1005-p0-0000.parquet");
    let p1 = gen.join("selfplay-s1005-p1-0000.parquet");
    let p0_next = gen.join("selfplay-s1005-p0-0001.parquet");
    for (i, p) in [&p0, &p1, &p0_next].into_iter().enumerate() {
        write_shard(p, i as u64 * 10, 1);
    }
    let t = SystemTime::now() - Duration::from_secs(600);
    let want = vec![p0.clone(), p1.clone(), p0_next.clone()];
    for order in [
        [&p0, &p1, &p0_next],
        [&p0_next, &p1, &p0],
        [&p1, &p0_next, &p0],
    ] {
        for (i, p) in order.into_iter().enumerate() {
            set_modified(p, t + Duration::from_secs(60 * i as u64));
        }
        assert_eq!(paths(&list_shards(&[dir.path()]).unwrap()), want);
    }
}

#[test]
fn the_replay_window_of_a_run_takes_the_newest_generation() {
    let run = fake_run();
    let b_rows = data::read_shard(&run.b).unwrap().len();
    let window = ReplayWindow::load(&[&run.root], b_rows).unwrap();
    assert_eq!(window.shards(), std::slice::from_ref(&run.b));
    let all = ReplayWindow::load(&[&run.root], usize::MAX).unwrap();
    assert_eq!(all.shards(), &[run.a.clone(), run.b.clone()]);
}

#[test]
fn generation_ranges_parse_and_print() {
    let g = |s: &str| s.parse::<Generations>();
    let range = |first, last| Generations { first, last };
    assert_eq!(g("3..7"), Ok(range(Some(3), Some(7))));
    assert_eq!(g("3.."), Ok(range(Some(3), None)));
    assert_eq!(g("..7"), Ok(range(None, Some(7))));
    assert_eq!(g("4"), Ok(range(Some(4), Some(4))));
    assert_eq!(g("0004"), Ok(range(Some(4), Some(4))));
    assert_eq!(g("5..5"), Ok(range(Some(5), Some(5))));
    for bad in [
        "5..2",
        "x",
        "",
        "..",
        "1..x",
        "-1",
        "1...3",
        "1..=3",
        "99999999999",
    ] {
        let e = g(bad).unwrap_err();
        assert!(!e.to_string().contains('\n'), "{bad}: {e}");
    }
    assert!(g("5..2").unwrap_err().to_string().contains("5..2"));
    for text in ["3..7", "3..", "..7", "4"] {
        assert_eq!(g(text).unwrap().to_string(), text);
    }
    assert_eq!(Generations::ALL.to_string(), "..");
    let r = g("2..3").unwrap();
    assert!(!r.contains(1) && r.contains(2) && r.contains(3) && !r.contains(4));
    assert!(Generations::ALL.contains(0) && Generations::ALL.contains(u32::MAX));
}

/// Two shards whose games reuse the same ids (two runs, or two workers
/// before ids were unique): the summary and the opening tree count every
/// game once, grouping by (shard, game id), never merging two games.
#[test]
fn colliding_game_ids_in_two_shards_are_two_games_each() {
    let dir = tempfile::tempdir().unwrap();
    write_shard(&dir.path().join("a.parquet"), 0, 5);
    write_shard(&dir.path().join("b.parquet"), 0, 5);
    let shards = list_shards(&[dir.path()]).unwrap();
    let s = data::summary::summarize(&shards).unwrap();
    assert_eq!(s.games, 10);
    let games = data::openings::read_opening_games(&shards, 2, |_| {}).unwrap();
    assert_eq!(games.len(), 10);
}

#[test]
fn a_run_in_the_old_distributed_layout_is_refused_naming_the_upgrade() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    write_shard(&run.join("games/gen-0001/w0000-ab-s000001.parquet"), 0, 1);
    write_shard(&run.join("shards/g000000/w0000-ab-s000000.parquet"), 1, 1);
    for given in [run.clone(), run.join("shards")] {
        let err = list_shards(&[&given]).unwrap_err();
        assert_eq!(err.path, run, "{err}");
        assert!(err.message.contains("triad data upgrade"), "{err}");
        assert!(!err.to_string().contains('\n'), "{err}");
    }
    // Emptied by an upgrade, its old folders are no longer a run of old.
    std::fs::remove_file(run.join("shards/g000000/w0000-ab-s000000.parquet")).unwrap();
    assert_eq!(list_shards(&[&run]).unwrap().len(), 1);
}
