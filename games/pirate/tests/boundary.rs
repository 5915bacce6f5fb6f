//! Pirate Chess through the game boundary, over seeded random games on
//! several board sizes: texts and codes round-trip, the incremental hash
//! equals the recomputed one, the §9 count equals the listing, and the
//! symmetries map legal turns onto legal turns and keep perft.

use game::{perft, Game, GameState, GameTag, History, SplitMix};
use pirate::{Move, Pirate, Position, Size};

fn games() -> Vec<Pirate> {
    [(8, 8), (6, 6), (10, 8), (8, 12), (16, 16)]
        .into_iter()
        .map(|(w, h)| Pirate::sized(Size::new(w, h).unwrap()))
        .collect()
}

/// Random games of `g` to their end (or `max_plies`), calling `visit` on
/// each position before its move and on the final position.
fn random_games(
    g: &Pirate,
    seed: u64,
    games: usize,
    max_plies: usize,
    mut visit: impl FnMut(&History<Position>, &[Move], Option<Move>),
) {
    let mut rng = SplitMix::new(seed);
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut h = History::new(g.start());
        loop {
            h.position().legal_moves(&mut moves);
            let over = h.outcome().is_some() || h.ply() >= max_plies;
            if over || moves.is_empty() {
                visit(&h, &moves, None);
                break;
            }
            // Prefer attacks half of the time, so that games reach the
            // middle and the end instead of deploying and toggling.
            let attacks: Vec<Move> = moves.iter().copied().filter(|m| m.is_attack()).collect();
            let m = if !attacks.is_empty() && rng.below(2) == 0 {
                attacks[rng.below(attacks.len() as u64) as usize]
            } else {
                moves[rng.below(moves.len() as u64) as usize]
            };
            visit(&h, &moves, Some(m));
            h.play(m);
        }
    }
}

#[test]
fn random_games_round_trip_texts_codes_and_hashes() {
    for g in games() {
        let tag = GameTag::of(&g);
        let e = g.encoding();
        let mut planes = vec![0.0; e.plane_len()];
        let mut features = vec![0.0; e.move_features];
        let mut positions = 0;
        let mut endings = 0;
        random_games(&g, 7, 6, 400, |h, moves, played| {
            let p = h.position();
            positions += 1;
            assert_eq!(g.parse_state(&p.to_text()).unwrap(), *p, "{tag}");
            assert_eq!(p.hash(), p.compute_hash(), "{tag} {}", p.to_text());
            assert_eq!(
                p.count_legal_moves(),
                moves.len() as u64,
                "{tag} {}",
                p.to_text()
            );
            let mut sorted = moves.to_vec();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), moves.len(), "a turn twice in {}", p.to_text());
            p.encode_planes(1, &mut planes);
            assert!(planes
                .iter()
                .all(|v| v.is_finite() && (0.0..=1.0).contains(v)));
            // Every turn's text reads back as the same turn (every few
            // positions: reading checks legality by listing).
            if positions % 7 == 0 {
                for &m in moves {
                    let text = p.move_text(m);
                    assert_eq!(p.parse_move(&text), Ok(m), "{text} in {}", p.to_text());
                }
            }
            for &m in moves.iter().step_by(5) {
                assert_eq!(Move::from_code(m.code()), Some(m));
                let (from, to) = p.encode_move(m, &mut features);
                assert!(from < e.cells() && to < e.cells());
                assert!(features
                    .iter()
                    .all(|v| v.is_finite() && (-1.0..=1.0).contains(v)));
            }
            match played {
                Some(m) => {
                    let after = p.play(m);
                    assert_eq!(
                        after.hash(),
                        after.compute_hash(),
                        "{tag} after {}",
                        p.move_text(m)
                    );
                    assert!(
                        !after.eliminated(after.side().other()),
                        "the mover never eliminates itself"
                    );
                    let text = p.move_text(m);
                    assert_eq!(p.parse_move(&text), Ok(m), "{text} in {}", p.to_text());
                }
                None => {
                    endings += 1;
                    if h.ply() < 400 {
                        assert!(h.outcome().is_some(), "{tag}: stopped without an outcome");
                    }
                }
            }
        });
        assert_eq!(endings, 6);
        assert!(positions > 100, "{tag}: {positions} positions");
    }
}

/// Games end by elimination when attacks are preferred.
#[test]
fn random_games_reach_eliminations() {
    let g = Pirate::standard();
    let mut wins = 0;
    random_games(&g, 3, 8, 400, |h, _, played| {
        if played.is_none() {
            if let Some(o) = h.outcome() {
                if o.result != game::GameResult::Draw {
                    wins += 1;
                    let p = h.position();
                    assert!(p.loser_by_elimination().is_some() || !p.has_legal_move());
                }
            }
        }
    });
    assert!(wins >= 4, "{wins} decisive games of 8");
}

/// Every symmetry maps legal turns onto legal turns, commutes with playing
/// them, is undone by its inverse's position, and keeps perft.
#[test]
fn symmetries_keep_the_rules() {
    for g in games() {
        let n = g.symmetries();
        let size = g.size();
        assert_eq!(n, if size.width == size.height { 8 } else { 4 });
        let mut checked = 0;
        random_games(&g, 11, 2, 60, |h, moves, _| {
            if h.ply() % 15 != 14 {
                return;
            }
            let p = h.position();
            for sym in 1..n {
                let t = p.transform(sym);
                assert_eq!(t.hash(), t.compute_hash());
                let mut tm = Vec::new();
                t.legal_moves(&mut tm);
                assert_eq!(tm.len(), moves.len(), "sym {sym} of {}", p.to_text());
                let mut mapped: Vec<Move> =
                    moves.iter().map(|&m| p.transform_move(m, sym)).collect();
                mapped.sort();
                tm.sort();
                assert_eq!(mapped, tm, "sym {sym} of {}", p.to_text());
                for &m in moves.iter().step_by(37) {
                    assert_eq!(p.play(m).transform(sym), t.play(p.transform_move(m, sym)));
                }
                assert_eq!(perft(&t, 2), perft(p, 2), "sym {sym} of {}", p.to_text());
                checked += 1;
            }
        });
        assert!(checked > 0);
    }
}

/// The symmetries keep perft of the vectors' positions at depth 2
/// (the rule book's perft vectors exercise every rule).
#[test]
fn symmetries_keep_perft_of_the_vectors() {
    let text = game::read_repo_file(env!("CARGO_MANIFEST_DIR"), "games/pirate/vectors/perft.txt");
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let pos = Position::parse(line.split(';').next().unwrap_or("").trim()).unwrap();
        let g = Pirate::sized(pos.size());
        let want = perft(&pos, 2);
        for sym in 1..g.symmetries() {
            assert_eq!(perft(&pos.transform(sym), 2), want, "sym {sym} of {line}");
            checked += 1;
        }
    }
    assert!(checked >= 100, "{checked}");
}

#[test]
fn the_game_value_checks_sizes() {
    let g = Pirate::named("standard", None, None).unwrap();
    assert_eq!((g.variant(), Pirate::NAME), ("8x8", "pirate"));
    let g = Pirate::named("", Some(10), None).unwrap();
    assert_eq!(g.variant(), "10x8");
    assert_eq!(Pirate::named("6x6", None, None).unwrap().variant(), "6x6");
    assert!(Pirate::named("7x7", None, None).is_err());
    assert!(Pirate::named("huge", None, None).is_err());
    assert!(Pirate::named("", Some(18), None).is_err());
    let err = g
        .parse_state("8/8/8/8/8/8/8/8 b FPDJBSGCfpdjbsgc 00/00 0/0 0 0")
        .unwrap_err();
    assert!(
        err.message().contains("8x8") && err.message().contains("10x8"),
        "{err}"
    );
    let start = Pirate::standard().start();
    assert_eq!(perft(&start, 1), 960);
    assert_eq!(start.encoding().cells(), 64);
}

#[test]
fn bench_positions_are_middle_games() {
    let g = Pirate::standard();
    let positions = g.bench_positions();
    assert_eq!(positions.len(), 6);
    for p in &positions {
        assert!(p.has_legal_move() && p.terminal(true, 1).is_none());
        assert!(p.plies() >= 16, "{}", p.to_text());
    }
    assert_eq!(positions, g.bench_positions(), "deterministic");
}

/// Records round-trip through `Game::record_text`/`replay_record`, from
/// Blue's start and from a Red-to-move position, with a resignation.
#[test]
fn records_round_trip() {
    let g = Pirate::standard();
    let mut games = Vec::new();
    random_games(&g, 21, 4, 120, |h, _, played| {
        if played.is_none() {
            games.push(h.clone());
        }
    });
    for h in &games {
        // A finished game cannot also be resigned.
        for resigned in [false, h.outcome().is_none()] {
            let text = g.record_text(h, resigned);
            let back = g
                .replay_record(g.start(), &text)
                .unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(back.history.moves(), h.moves(), "{text}");
            if resigned {
                assert_eq!(back.termination(), game::Termination::Resignation);
            }
        }
    }
    // From Red to move.
    let start = g
        .parse_state("8/8/8/8/3F@4/8/8/8 r PDJBSGCfpdjbsgc 00/00 1/0 0 1")
        .unwrap();
    let mut h = History::new(start.clone());
    for text in ["P@c6", "D@d3", "B@f6,+f6"] {
        let m = h.position().parse_move(text).unwrap();
        h.play(m);
    }
    let text = g.record_text(&h, true);
    assert!(text.contains("1)\t...\t\tP@c6"), "{text}");
    let back = g.replay_record(start, &text).unwrap();
    assert_eq!(back.history.moves(), h.moves());
    // Blue is to move and resigns.
    assert_eq!(back.outcome.unwrap().result, game::GameResult::BlackWin);
}
