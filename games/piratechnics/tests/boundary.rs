//! PiRaTeKnIcS through the game boundary: every named variant starts,
//! round-trips its texts and codes through the traits, and ends by the
//! game's own rules.

use game::{perft, Game, GameMove, GameState, GameTag, History, SplitMix};
use piratechnics::{Piratechnics, VARIANTS};

fn variants() -> Vec<Piratechnics> {
    VARIANTS
        .iter()
        .map(|(name, _)| Piratechnics::named(name, None).unwrap())
        .collect()
}

#[test]
fn every_named_variant_plays_and_round_trips_through_the_traits() {
    for g in variants() {
        let tag = GameTag::of(&g);
        assert_eq!(tag.name, "piratechnics");
        let start = g.start();
        assert_eq!(g.parse_state(&start.to_text()).unwrap(), start, "{tag}");
        let e = g.encoding();
        assert_eq!(
            (e.height, e.width),
            if g.variant() == "8x8" { (8, 8) } else { (8, 6) }
        );
        assert!(perft(&start, 2) > perft(&start, 1), "{tag}");
        // Random games: texts, codes and hashes agree with the traits.
        let mut rng = SplitMix::new(7);
        let mut moves = Vec::new();
        for _ in 0..8 {
            let mut h = History::new(start.clone());
            while h.outcome().is_none() && h.ply() < 120 {
                let pos = h.position().clone();
                pos.legal_moves(&mut moves);
                let m = moves[rng.below(moves.len() as u64) as usize];
                assert_eq!(pos.parse_move(&pos.move_text(m)).unwrap(), m, "{tag}");
                assert_eq!(
                    <piratechnics::Move as GameMove>::from_code(m.code()),
                    Some(m)
                );
                h.play(m);
                let after = h.position();
                assert_eq!(g.parse_state(&after.to_text()).unwrap(), *after, "{tag}");
                let mut buf = vec![0.0; e.move_features];
                let (from, to) = pos.encode_move(m, &mut buf);
                assert!(from < e.cells() && to < e.cells());
            }
        }
    }
}

#[test]
fn capacity_is_a_key_of_the_variant_and_is_recorded() {
    let c2 = Piratechnics::named("capacity2", None).unwrap();
    assert_eq!(c2.variant_tables().capacity, 2);
    let c4 = Piratechnics::named("capacity4", None).unwrap();
    assert_eq!(c4.variant_tables().capacity, 4);
    let c5 = Piratechnics::named("standard", Some(5)).unwrap();
    assert_eq!(c5.variant(), "standard,capacity=5");
    assert_eq!(c5.variant_tables().capacity, 5);
    // The same name twice is the same tables.
    let again = Piratechnics::named("standard", Some(5)).unwrap();
    assert!(std::ptr::eq(c5.variant_tables(), again.variant_tables()));
    // A start that does not fit the capacity is refused, naming the variant.
    let err = Piratechnics::named("standard", Some(2))
        .unwrap_err()
        .to_string();
    assert!(err.contains("standard,capacity=2"), "{err}");
    let err = Piratechnics::named("9x9", None).unwrap_err().to_string();
    assert!(err.contains("unknown piratechnics variant"), "{err}");
}

#[test]
fn symmetries_follow_the_board() {
    for g in variants() {
        let n = g.symmetries();
        assert_eq!(n, 2, "{} has the file mirror", g.variant());
        let start = g.start();
        let m = start.transform(1);
        assert_eq!(perft(&m, 3), perft(&start, 3), "{}", g.variant());
        assert_eq!(m.transform(1), start);
    }
}

/// Records round-trip: the inventor's notation (`Game::record_text` of
/// PiRaTeKnIcS) through `Game::replay_record`, and the default numbered
/// format of canonical move text through `game::replay_numbered`.
#[test]
fn records_round_trip_in_both_notations() {
    let g = Piratechnics::standard();
    let mut rng = SplitMix::new(11);
    let mut moves = Vec::new();
    for _ in 0..6 {
        let mut h = History::new(g.start());
        while h.outcome().is_none() && h.ply() < 80 {
            h.position().legal_moves(&mut moves);
            h.play(moves[rng.below(moves.len() as u64) as usize]);
        }
        let inventor = g.record_text(&h, false);
        let back = g.replay_record(g.start(), &inventor).unwrap();
        assert_eq!(back.history.moves(), h.moves(), "{inventor}");
        let plain = game::write_numbered(h.start(), h.moves(), 1, true, |p, m, _| p.move_text(m));
        let back = game::replay_numbered(g.start(), &plain).unwrap();
        assert_eq!(back.history.moves(), h.moves(), "{plain}");
        assert_eq!(back.termination(), game::Termination::Resignation);
    }
}
