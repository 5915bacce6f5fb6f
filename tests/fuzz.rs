//! Fuzz targets, one per parser, on stable Rust: a seeded mutation fuzzer
//! (SplitMix64 edits of valid inputs, plus random bytes) drives each parser
//! for a fixed budget and checks that it never panics, and that what it
//! accepts round-trips. The budget is `TRIAD_FUZZ_CASES` inputs per target
//! (default 2,000; shards a tenth of it); every failure prints the input
//! (clipped) and its seed, so it can be replayed. docs/reliability.md says
//! what the targets ran and found.

use game::{Game, GameState, History, SplitMix};
use piratechnics::{Piratechnics, VARIANTS};
use std::panic::{catch_unwind, AssertUnwindSafe};

fn budget() -> usize {
    std::env::var("TRIAD_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000)
}

/// One random edit of `text`: delete, insert, replace or duplicate a span,
/// with bytes drawn from `alphabet` (kept valid UTF-8 by editing chars).
fn mutate(rng: &mut SplitMix, text: &str, alphabet: &[char]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let edits = 1 + rng.below(4);
    for _ in 0..edits {
        let n = chars.len();
        let at = if n == 0 {
            0
        } else {
            rng.below(n as u64) as usize
        };
        let pick = |rng: &mut SplitMix| alphabet[rng.below(alphabet.len() as u64) as usize];
        match rng.below(5) {
            0 if n > 0 => {
                let len = (1 + rng.below(8) as usize).min(n - at);
                chars.drain(at..at + len);
            }
            1 => {
                for _ in 0..1 + rng.below(6) {
                    chars.insert(at.min(chars.len()), pick(rng));
                }
            }
            2 if n > 0 => chars[at] = pick(rng),
            3 if n > 0 => {
                let len = (1 + rng.below(40) as usize).min(n - at);
                let span: Vec<char> = chars[at..at + len].to_vec();
                let times = 1 + rng.below(20) as usize;
                for _ in 0..times {
                    chars.splice(at..at, span.iter().copied());
                }
            }
            _ => {
                let c = char::from_u32(rng.below(0x3000) as u32).unwrap_or('?');
                chars.insert(at.min(chars.len()), c);
            }
        }
    }
    chars.into_iter().collect()
}

/// One input in ten is random ASCII; the others are a mutation of one of
/// `seeds` drawn from `alphabet`.
fn random_or_mutated(rng: &mut SplitMix, seeds: &[String], alphabet: &[char]) -> String {
    if rng.below(10) == 0 {
        (0..rng.below(200))
            .map(|_| char::from(rng.below(128) as u8))
            .collect()
    } else {
        let s = &seeds[rng.below(seeds.len() as u64) as usize];
        mutate(rng, s, alphabet)
    }
}

/// Runs `check` on `cases` inputs from `make`; a panic fails the test with
/// the input and its case number.
fn fuzz(
    name: &str,
    cases: usize,
    mut make: impl FnMut(&mut SplitMix) -> String,
    check: impl Fn(&str),
) {
    let mut rng = SplitMix::new(0x00F0_2255 ^ name.len() as u64);
    for case in 0..cases {
        let input = make(&mut rng);
        if catch_unwind(AssertUnwindSafe(|| check(&input))).is_err() {
            panic!(
                "fuzz target {name}: case {case} panicked on {:?}",
                game::clip(&input, 400)
            );
        }
    }
    eprintln!("fuzz target {name}: {cases} inputs, no panic");
}

const TFEN_CHARS: [char; 32] = [
    '[', ']', '/', ' ', '-', 'w', 'b', 'K', 'Q', 'R', 'B', 'N', 'P', 'k', 'q', 'r', 'b', 'n', 'p',
    '0', '1', '2', '3', '6', '8', '9', 'a', 'c', 'f', 'h', 'x', '=',
];

/// Positions of seeded random games of `g` (their texts are the seeds the
/// mutations start from).
fn sample_positions<G: Game>(g: &G, n: usize) -> Vec<G::State> {
    game::random_positions(&g.start(), n, 3, 120)
}

#[test]
fn fuzz_position_text_of_every_variant() {
    for (name, _) in VARIANTS {
        let g = Piratechnics::named(name, None).unwrap();
        let seeds: Vec<String> = sample_positions(&g, 64)
            .iter()
            .map(|p| p.to_text())
            .collect();
        let cases = budget();
        fuzz(
            &format!("piratechnics/{name} position text"),
            cases,
            |rng| random_or_mutated(rng, &seeds, &TFEN_CHARS),
            |text| {
                if let Ok(pos) = g.parse_state(text) {
                    // Accepted: it round-trips and its moves can be made.
                    assert_eq!(g.parse_state(&pos.to_text()).as_ref(), Ok(&pos));
                    let mut moves = Vec::new();
                    pos.legal_moves(&mut moves);
                    let _ = pos.outcome(1);
                }
            },
        );
    }
}

#[test]
fn fuzz_move_text() {
    let g = Piratechnics::standard();
    let positions = sample_positions(&g, 64);
    let mut texts = Vec::new();
    let mut moves = Vec::new();
    for p in &positions {
        p.legal_moves(&mut moves);
        texts.extend(moves.iter().take(8).map(|&m| p.move_text(m)));
    }
    let alphabet: Vec<char> = "abcdefgh12345678-x=<>* KQRBNPkqrbnp own".chars().collect();
    let k = std::cell::Cell::new(0usize);
    fuzz(
        "piratechnics move text",
        budget(),
        |rng| {
            k.set(rng.below(positions.len() as u64) as usize);
            let i = rng.below(texts.len() as u64) as usize;
            mutate(rng, &texts[i], &alphabet)
        },
        |text| {
            let pos = &positions[k.get()];
            if let Ok(m) = pos.parse_move(text) {
                if pos.is_legal(m) {
                    assert_eq!(pos.parse_move(&pos.move_text(m)), Ok(m));
                }
            }
        },
    );
}

#[test]
fn fuzz_game_records() {
    let g = Piratechnics::standard();
    let mut rng = SplitMix::new(5);
    let mut records = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..8 {
        let mut h = History::new(g.start());
        while h.outcome().is_none() && h.ply() < 60 {
            h.position().legal_moves(&mut moves);
            h.play(moves[rng.below(moves.len() as u64) as usize]);
        }
        records.push(g.record_text(&h, rng.below(2) == 0));
    }
    let alphabet: Vec<char> = "abcdef12345678-x<>*; ,)\n\tifthenandresigns.KQRBNPkqrbnp"
        .chars()
        .collect();
    fuzz(
        "piratechnics records",
        budget() / 4,
        |rng| {
            let i = rng.below(records.len() as u64) as usize;
            mutate(rng, &records[i], &alphabet)
        },
        |text| {
            let _ = g.replay_record(g.start(), text);
            let _ = game::replay_numbered(g.start(), text);
        },
    );
}

#[test]
fn fuzz_run_files() {
    let seeds: Vec<String> = ["quickstart.toml", "gpu.toml", "quickstart-8x8.toml"]
        .iter()
        .map(|f| {
            std::fs::read_to_string(format!("{}/configs/{f}", env!("CARGO_MANIFEST_DIR"))).unwrap()
        })
        .collect();
    let alphabet: Vec<char> = "[]=\"#.\n -0123456789eEinfatrueslx_abcdefghijklmnopqrstuvwxyz"
        .chars()
        .collect();
    fuzz(
        "run file",
        budget(),
        |rng| {
            let i = rng.below(seeds.len() as u64) as usize;
            mutate(rng, &seeds[i], &alphabet)
        },
        |text| {
            let _ = pipeline::RunConfig::parse(text);
        },
    );
}

#[test]
fn fuzz_checkpoint_sidecars() {
    let dir = tempfile::tempdir().unwrap();
    let weights = dir.path().join("net.safetensors");
    std::fs::write(&weights, b"").unwrap();
    let seed = r#"{"format":"triad-checkpoint","game":"piratechnics","variant":"standard","encoding_version":1,"shape":{"blocks":1,"channels":8,"move_embed":8,"policy_hidden":8,"value_hidden":8,"planes":47,"move_features":25},"step":0,"parent":null,"metadata":{}}"#;
    let alphabet: Vec<char> = "{}[]\":,0123456789-e.truefalsn ".chars().collect();
    let tag = game::GameTag::of(&Piratechnics::standard());
    fuzz(
        "checkpoint sidecar",
        budget(),
        |rng| mutate(rng, seed, &alphabet),
        |text| {
            std::fs::write(dir.path().join("net.json"), text).unwrap();
            if let Ok(info) = model::checkpoint::read_info(&weights) {
                let _ = info.check_game(&weights, &tag);
                // An accepted sidecar has sizes a network can be built with.
                assert!(info.shape.validate().is_ok());
            }
        },
    );
}

/// A version 2 shard of a few random Connect Four games, written by this
/// build's writer (the byte-level target's second seed).
fn v2_shard_bytes(dir: &std::path::Path) -> Vec<u8> {
    let path = dir.join("seed-v2.parquet");
    let g = connect4::Connect4::standard();
    let start = g.start();
    let mut w = data::ShardWriter::create(&path).unwrap();
    for id in 0..6 {
        w.push_game(&data::synthetic::random_game(&g, id, &start, 9, 60))
            .unwrap();
    }
    w.finish().unwrap();
    std::fs::read(&path).unwrap()
}

#[test]
fn fuzz_shards() {
    let v1 = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/tests/data/v1-selfplay.parquet"
    ))
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let seeds = [v1, v2_shard_bytes(dir.path())];
    let path = dir.path().join("f.parquet");
    let cases = (budget() / 10).max(10);
    let mut rng = SplitMix::new(77);
    for case in 0..cases {
        let mut bytes = seeds[case % 2].clone();
        match rng.below(3) {
            0 => {
                // Flip bytes anywhere (footer, page headers, data pages).
                for _ in 0..1 + rng.below(16) {
                    let i = rng.below(bytes.len() as u64) as usize;
                    bytes[i] ^= 1 << rng.below(8);
                }
            }
            1 => {
                let cut = rng.below(bytes.len() as u64) as usize;
                bytes.truncate(cut);
            }
            _ => {
                // Overwrite a span near the end: the footer and its schema.
                let len = bytes.len();
                let at = len - 1 - rng.below(len.min(2048) as u64) as usize;
                for b in bytes.iter_mut().skip(at).take(1 + rng.below(64) as usize) {
                    *b = rng.below(256) as u8;
                }
            }
        }
        std::fs::write(&path, &bytes).unwrap();
        let read = catch_unwind(AssertUnwindSafe(|| {
            data::ShardReader::open(&path).and_then(|r| r.read_records())
        }));
        assert!(read.is_ok(), "shard case {case} panicked the reader");
        let shards = data::list_shards(&[&path]).unwrap();
        let indexed = catch_unwind(AssertUnwindSafe(|| {
            data::explore::ExploreIndex::build(&shards, |_| {})
        }));
        assert!(
            indexed.is_ok(),
            "shard case {case} panicked the explorer's index"
        );
    }
    eprintln!("fuzz target shards (v1 and v2 seeds): {cases} inputs, no panic");
}

/// Shard rows that a writer accepts but that lie: a mutated position text,
/// a move code no move has or an illegal one, a ply out of order, a game id
/// shared by two games, legal moves that are not the position's. Every
/// reader that groups or replays games (the opening tree, the explorer's
/// index, a game's replay) must answer with an error or a warning, never a
/// panic; a row the writer refuses is fine too.
#[test]
fn fuzz_shard_rows() {
    let g = connect4::Connect4::standard();
    let start = g.start();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rows.parquet");
    let cases = (budget() / 10).max(10);
    let mut rng = SplitMix::new(0x005E_ED0F_F022);
    let (mut written, mut refused) = (0, 0);
    for case in 0..cases {
        let mut games: Vec<data::GameRecord> = (0..4)
            .map(|id| data::synthetic::random_game(&g, id, &start, case as u64, 40))
            .collect();
        for _ in 0..1 + rng.below(4) {
            let gi = rng.below(games.len() as u64) as usize;
            let rows = &mut games[gi].positions;
            let ri = rng.below(rows.len() as u64) as usize;
            let r = &mut rows[ri];
            match rng.below(7) {
                0 => {
                    r.position = mutate(&mut rng, &r.position, &['1', '4', '7', '9', '-', ' ', 'x'])
                }
                1 => r.chosen_move = rng.below(u32::MAX as u64) as u32,
                2 => r.chosen_move = rng.below(10) as u32,
                3 => r.ply = rng.below(100) as u32,
                4 => r.game_id = rng.below(4),
                5 => {
                    for c in &mut r.legal_moves {
                        *c = rng.below(12) as u32;
                    }
                }
                _ => r.position_hash = rng.next_u64(),
            }
        }
        let read = catch_unwind(AssertUnwindSafe(|| {
            let Ok(mut w) = data::ShardWriter::create(&path) else {
                return false;
            };
            for game in &games {
                if w.push_game(game).is_err() {
                    return false;
                }
            }
            if w.finish().is_err() {
                return false;
            }
            let shards = data::list_shards(&[&path]).unwrap();
            let index = data::explore::ExploreIndex::build(&shards, |_| {});
            for m in index.moves(data::explore::Key::Position(start.hash()), 0..=0) {
                assert!(m.games > 0);
            }
            if let Ok(opening) = data::openings::read_opening_games(&shards, 6, |_| {}) {
                let _ = data::openings::OpeningTree::build(&g, &opening, 6, |p, m| p.move_text(m));
            }
            if let Ok(rows) = data::read_shard(&path) {
                if let Ok(games) = data::group_games(rows) {
                    for game in &games {
                        let _ = game.replay(&g);
                    }
                }
            }
            true
        }));
        match read {
            Ok(true) => written += 1,
            Ok(false) => refused += 1,
            Err(_) => panic!("shard rows case {case} panicked a reader"),
        }
    }
    assert!(
        written > cases / 4,
        "only {written} of {cases} cases written"
    );
    eprintln!(
        "fuzz target shard rows: {cases} inputs ({written} written, {refused} refused by the writer), no panic"
    );
}

/// Position text and move text of every other game through the game
/// boundary (`Game::parse_state`, `GameState::parse_move`), seeded by the
/// texts of positions and legal moves of seeded random games: no panic; an
/// accepted position round-trips and generates its moves; an accepted legal
/// move round-trips. The alphabet is the characters of the seeds plus
/// punctuation, so that edits stay close to the notation.
fn fuzz_texts_of<G: Game>(label: &str, g: &G) {
    let positions = sample_positions(g, 64);
    let seeds: Vec<String> = positions.iter().map(|p| p.to_text()).collect();
    let mut moves = Vec::new();
    let mut move_texts: Vec<(usize, String)> = Vec::new();
    for (i, p) in positions.iter().enumerate() {
        p.legal_moves(&mut moves);
        move_texts.extend(moves.iter().take(8).map(|&m| (i, p.move_text(m))));
    }
    let mut alphabet: Vec<char> = seeds
        .iter()
        .flat_map(|s| s.chars())
        .chain(move_texts.iter().flat_map(|(_, t)| t.chars()))
        .chain(" /-,;:@+*=0123456789".chars())
        .collect();
    alphabet.sort_unstable();
    alphabet.dedup();
    // Accepted inputs, so that the round-trip checks are known to have run.
    let accepted = std::cell::Cell::new((0usize, 0usize));
    fuzz(
        &format!("{label} position text"),
        budget(),
        |rng| random_or_mutated(rng, &seeds, &alphabet),
        |text| {
            if let Ok(pos) = g.parse_state(text) {
                accepted.set((accepted.get().0 + 1, accepted.get().1));
                assert_eq!(
                    g.parse_state(&pos.to_text()).map(|p| p.to_text()),
                    Ok(pos.to_text())
                );
                let mut moves = Vec::new();
                pos.legal_moves(&mut moves);
                let _ = pos.outcome(1);
            }
        },
    );
    let k = std::cell::Cell::new(0usize);
    fuzz(
        &format!("{label} move text"),
        budget(),
        |rng| {
            let (i, t) = &move_texts[rng.below(move_texts.len() as u64) as usize];
            k.set(*i);
            mutate(rng, t, &alphabet)
        },
        |text| {
            let pos = &positions[k.get()];
            if let Ok(m) = pos.parse_move(text) {
                if pos.is_legal(m) {
                    accepted.set((accepted.get().0, accepted.get().1 + 1));
                    assert_eq!(pos.parse_move(&pos.move_text(m)), Ok(m));
                }
            }
        },
    );
    let (positions_ok, moves_ok) = accepted.get();
    eprintln!("{label}: {positions_ok} mutated positions and {moves_ok} legal moves accepted");
    assert!(
        positions_ok > 0 && moves_ok > 0,
        "{label}: no mutated input was accepted ({positions_ok}, {moves_ok}): the round-trip checks never ran"
    );
}

#[test]
fn fuzz_texts_of_connect4_pirate_and_influence() {
    fuzz_texts_of("connect4/7x6", &connect4::Connect4::standard());
    fuzz_texts_of(
        "connect4/8x6",
        &connect4::Connect4::named("8x6", None, None).unwrap(),
    );
    fuzz_texts_of("pirate/8x8", &pirate::Pirate::standard());
    fuzz_texts_of(
        "pirate/10x6",
        &pirate::Pirate::named("standard", Some(10), Some(6)).unwrap(),
    );
    fuzz_texts_of("influence/standard", &influence::Influence::standard());
}
