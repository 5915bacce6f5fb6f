//! The game's vectors (games/piratechnics/vectors/): perft counts (to depth 3), the
//! mate-in-one positions, and the inventor's sample game.

use piratechnics::{perft, replay, Position, Termination};
use std::collections::BTreeSet;

fn spec(rel: &str) -> String {
    game::read_repo_file(env!("CARGO_MANIFEST_DIR"), rel)
}

fn data_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

#[test]
fn perft_vectors_to_depth_3() {
    let text = spec("games/piratechnics/vectors/perft.txt");
    let mut checked = 0;
    for line in data_lines(&text) {
        let mut parts = line.split(';');
        let tfen = parts.next().unwrap().trim();
        let pos = Position::from_tfen(tfen).expect("vector TFEN parses");
        assert_eq!(pos.to_tfen(), tfen, "TFEN prints back identically");
        for p in parts {
            let mut w = p.split_whitespace();
            let d: u32 = w.next().unwrap()[1..].parse().unwrap();
            let n: u64 = w.next().unwrap().parse().unwrap();
            if d <= 3 {
                assert_eq!(perft(&pos, d), n, "perft {d} of {tfen}");
                checked += 1;
            }
        }
    }
    assert!(checked > 40, "only {checked} counts checked");
}

#[test]
fn mate_in_one_vectors_list_exactly_the_mating_moves() {
    let text = spec("games/piratechnics/vectors/mate1.txt");
    for line in data_lines(&text) {
        let (tfen, moves) = line.split_once(';').unwrap();
        let pos = Position::from_tfen(tfen.trim()).unwrap();
        let expected: BTreeSet<String> = moves.split_whitespace().map(String::from).collect();
        // Every listed text parses to a legal move and prints back the same.
        for t in &expected {
            let m = pos.parse_move(t).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(&pos.move_to_text(m), t);
        }
        let found: BTreeSet<String> = pos
            .legal_move_vec()
            .into_iter()
            .filter(|&m| {
                let after = pos.play(m);
                after.in_check() && !after.has_legal_move()
            })
            .map(|m| pos.move_to_text(m))
            .collect();
        assert_eq!(found, expected, "mating moves of {tfen}");
    }
}

#[test]
fn sample_game_replays_without_warnings() {
    let text = spec("games/piratechnics/vectors/sample-game-1.txt");
    let r = replay(Position::start(), &text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.warnings, Vec::<String>::new());
    assert_eq!(r.plies.len(), 64);
    let last = r.game.position();
    assert!(last.in_check(), "White ends in check");
    assert_eq!(last.count_legal(), 2);
    assert_eq!(r.result_str(), "0-1");
    assert_eq!(r.termination(), Termination::Resignation);
}
