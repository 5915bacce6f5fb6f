//! Influence Chess through the game boundary, over seeded random games:
//! texts, codes and hashes round-trip, no move leaves the mover's army's
//! king in check, the counting paths agree with the list, the encoding
//! stays in range, the symmetries preserve the rules, and the `[game]`
//! options change what they say and are recorded in the variant.

use game::{perft, Game, GameMove, GameState, GameTag, History, SplitMix};
use influence::{Influence, Move, Options, Player, Position};

/// Random games from the start (and from the Above-helps-Black start),
/// calling `check(position, legal moves)` at every ply.
fn random_games(g: &Influence, games: usize, seed: u64, mut check: impl FnMut(&Position, &[Move])) {
    let mut rng = SplitMix::new(seed);
    let mut moves = Vec::new();
    for i in 0..games {
        let start = if i % 2 == 0 {
            g.start()
        } else {
            g.parse_state(influence::START_ABOVE_BLACK).unwrap()
        };
        let mut h = History::new(start);
        while h.outcome().is_none() && h.ply() < 300 {
            let pos = *h.position();
            pos.legal_moves(&mut moves);
            check(&pos, &moves);
            h.play(moves[rng.below(moves.len() as u64) as usize]);
        }
        let last = *h.position();
        last.legal_moves(&mut moves);
        check(&last, &moves);
    }
}

#[test]
fn random_games_round_trip_and_keep_the_rules() {
    let g = Influence::standard();
    let e = g.encoding();
    let mut planes = vec![0.0; e.plane_len()];
    let mut features = vec![0.0; e.move_features];
    let (mut plies, mut middle, mut captures, mut accompanied, mut checks) = (0, 0, 0, 0, 0);
    random_games(&g, 24, 7, |pos, moves| {
        plies += 1;
        let text = pos.to_text();
        assert_eq!(g.parse_state(&text).unwrap(), *pos, "{text}");
        assert_eq!(pos.hash(), pos.computed_hash(), "{text}");
        assert_eq!(pos.count_legal_moves(), moves.len() as u64, "{text}");
        assert_eq!(pos.has_legal_move(), !moves.is_empty(), "{text}");
        checks += pos.in_check() as u32;
        pos.encode_planes(1, &mut planes);
        assert!(planes.iter().all(|v| (0.0..=1.0).contains(v)));
        let mine = pos.army_of(pos.turn());
        let mut seen = std::collections::HashSet::new();
        for &m in moves {
            assert!(seen.insert(m), "{m:?} twice in {text}");
            let mt = pos.move_text(m);
            assert_eq!(pos.parse_move(&mt), Ok(m), "{mt} in {text}");
            assert_eq!(Move::from_code(GameMove::code(m)), Some(m));
            assert!(pos.is_legal(m));
            let after = pos.play(m);
            // No move leaves the mover's own army's king in check.
            assert!(!after.army_in_check(mine), "{mt} in {text}");
            assert_eq!(after.hash(), after.computed_hash(), "{mt} in {text}");
            let (from, to) = pos.encode_move(m, &mut features);
            assert!(from < e.cells() && to < e.cells());
            if m.is_middle() {
                middle += 1;
                captures += pos.piece_at(m.to()).is_some() as u32;
                accompanied += m.is_accompanied() as u32;
            }
        }
    });
    // The games reach the parts of the rules the checks are about.
    assert!(plies > 1000, "{plies} plies");
    assert!(
        middle > 1000 && captures > 50 && accompanied > 200 && checks > 20,
        "middle {middle}, captures {captures}, accompanied {accompanied}, checks {checks}"
    );
}

#[test]
fn texts_in_relaxed_forms_and_errors() {
    let g = Influence::standard();
    let p = g.start();
    assert_eq!(p.to_text(), influence::START);
    assert_eq!(p.move_text(p.parse_move("Pb3b2").unwrap()), "Pb3-b2");
    assert!(p
        .parse_move("Cb3-b2")
        .unwrap_err()
        .message()
        .contains("prince"));
    assert!(p
        .parse_move("b2-b3")
        .unwrap_err()
        .message()
        .contains("not legal"));
    assert!(p
        .parse_move("zz")
        .unwrap_err()
        .message()
        .contains("not a move"));
    // A promotion in the relaxed form.
    let q = g
        .parse_state("k3/2P1/4/4/4/4/K3 4/2C1/4/4/4/4/4 4/4/4/4/4/4/4 A w 0 1")
        .unwrap();
    let m = q.parse_move("c6c7q&").unwrap();
    assert_eq!(q.move_text(m), "c6-c7=Q&");
    // Three promotions, each with and without the commander going along,
    // and the commander's 8 one-square and 3 two-square moves from c6.
    assert_eq!(q.count_legal(), 3 * 2 + 8 + 3);
    for (bad, why) in [
        (
            "rkqn/pppp/4/4/4/PPPP/NQKR 4/4/P1P1/1C2/1P1P/4/4 A w 0 1",
            "7",
        ),
        (
            "rkqn/pppp/4/4/4/PPPP/NQK 4/4/P1P1/1C2/1P1P/4/4 4/4/1P1P/2C1/P1P1/4/4 A w 0 1",
            "3 squares",
        ),
        (
            "rkqn/pppp/4/4/4/PPPP/NQKR 4/4/P1P1/1C2/1P1P/4/4 4/4/1P1P/2C1/P1P1/4/4 A x 0 1",
            "army",
        ),
        (
            "rkqn/pppp/4/4/4/PPPP/NQKR 4/4/P1P1/1C2/1P1P/4/4 4/4/1P1P/2C1/P1P1/4/4 C w 0 1",
            "turn",
        ),
        (
            "rkqn/pppp/4/4/4/PPPP/NQPR 4/4/P1P1/1C2/1P1P/4/4 4/4/1P1P/2C1/P1P1/4/4 A w 0 1",
            "rank 1",
        ),
        (
            "rqqn/pppp/4/4/4/PPPP/NQKR 4/4/P1P1/1C2/1P1P/4/4 4/4/1P1P/2C1/P1P1/4/4 A w 0 1",
            "kings",
        ),
        (
            "rkqn/pppp/22/4/4/PPPP/NQKR 4/4/P1P1/1C2/1P1P/4/4 4/4/1P1P/2C1/P1P1/4/4 A w 0 1",
            "two digits",
        ),
        (
            "rkqn/pppp/4/4/4/PPPP/NQKR 4/4/P1P1/1C2/1P1P/4/4 4/4/1P1P/2C1/P1P1/4/4 A w x 1",
            "clock",
        ),
        // Below (not to move) in check: Below helps Black, Above's commander
        // on b1 controls the White rook there, which attacks the king on b7.
        (
            "1k2/4/4/4/4/4/1R1K 4/4/4/4/4/4/1C2 4/4/4/4/4/4/4 A w 0 1",
            "not to move",
        ),
    ] {
        let e = g.parse_state(bad).unwrap_err();
        assert!(e.message().contains(why), "{bad}: {e}");
    }
}

#[test]
fn symmetries_preserve_the_rules() {
    let g = Influence::standard();
    assert_eq!(g.symmetries(), 4);
    let mut positions = vec![g.start()];
    random_games(&g, 4, 3, |pos, _| {
        if pos.fullmove() % 7 == 0 {
            positions.push(*pos);
        }
    });
    positions.push(
        g.parse_state("k3/4/4/4/2q1/2K1/4 4/4/1P2/4/1PCP/4/P3 4/2P1/4/4/P1PC/4/P3 A w 0 1")
            .unwrap(),
    );
    assert!(positions.len() > 10);
    let mut moves = Vec::new();
    let mut image_moves = Vec::new();
    for p in &positions {
        p.legal_moves(&mut moves);
        for sym in 0..g.symmetries() {
            let q = p.transform(sym);
            assert_eq!(q.hash(), q.computed_hash());
            assert_eq!(g.parse_state(&q.to_text()).unwrap(), q);
            // Applied twice, each symmetry is the identity.
            assert_eq!(q.transform(sym), *p);
            // The image's legal moves are the images of the legal moves.
            q.legal_moves(&mut image_moves);
            let mut mapped: Vec<Move> = moves.iter().map(|&m| p.transform_move(m, sym)).collect();
            mapped.sort();
            image_moves.sort();
            assert_eq!(mapped, image_moves, "symmetry {sym} of {}", p.to_text());
            assert_eq!(
                perft(&q, 3),
                perft(p, 3),
                "symmetry {sym} of {}",
                p.to_text()
            );
            assert_eq!(q.in_check(), p.in_check());
        }
    }
}

#[test]
fn options_change_the_rules_and_the_recorded_variant() {
    let book = Influence::standard();
    assert_eq!(book.variant(), "standard");
    assert_eq!(GameTag::of(&book).to_string(), "influence/standard");
    let start = book.start();

    // A3: a commander that moves exactly two squares has 3 moves from b4
    // (b6, d4, d2; b2 and d6 are behind the princes on b3 and c5) instead
    // of 8 (5 one-square moves and the same 3).
    let two = Influence::named("standard", [("commander", "two")]).unwrap();
    assert_eq!(two.variant(), "standard,commander=two");
    let commander_moves = |g: &Influence| {
        let p = g.start();
        let mut v = Vec::new();
        p.legal_moves(&mut v);
        v.iter()
            .filter(|m| p.commander(Player::Above) & m.from().bit() != 0)
            .count()
    };
    assert_eq!(commander_moves(&book), 8);
    assert_eq!(commander_moves(&two), 3);
    let jump = Influence::named("standard", [("commander", "jump")]).unwrap();
    assert!(commander_moves(&jump) >= commander_moves(&book));

    // A4: no accompaniment of knight moves.
    let d2 = "K3/4/4/4/3n/4/k3 4/4/P1P1/1C2/1P1P/4/4 4/4/3P/3P/PCP1/4/4 A w 0 1";
    let nk = Influence::named("", [("knight_accompaniment", "false")]).unwrap();
    let with = book.parse_state(d2).unwrap();
    let without = nk.parse_state(d2).unwrap();
    assert!(with.parse_move("d3-b2&").is_ok());
    assert!(without.parse_move("d3-b2&").is_err());
    assert!(without.parse_move("d3-b2").is_ok());

    // A5: queen-only promotion.
    let promo = "k3/2P1/4/4/4/4/K3 4/2C1/4/4/4/4/4 4/4/4/4/4/4/4 A w 0 1";
    let q = Influence::named("standard", [("promotion", "q")]).unwrap();
    assert!(book
        .parse_state(promo)
        .unwrap()
        .parse_move("c6-c7=N")
        .is_ok());
    assert!(q.parse_state(promo).unwrap().parse_move("c6-c7=N").is_err());
    assert!(q.parse_state(promo).unwrap().parse_move("c6-c7=Q").is_ok());

    // A8: moving the enemy army's king into check. Above helps White; his
    // commander on c7 lets him move the Black king, and his prince on b1
    // controls the White rook there, so b6 is a square where that king is
    // in check: allowed by the book, refused under safe_kings.
    let walk = "2k1/4/4/4/4/4/1R1K 2C1/4/4/4/4/4/1P2 4/4/4/4/4/4/4 A w 0 1";
    let safe = Influence::named("standard", [("safe_kings", "true")]).unwrap();
    assert_eq!(safe.variant(), "standard,safe_kings=true");
    assert!(book.parse_state(walk).unwrap().parse_move("c7-b6").is_ok());
    assert!(safe.parse_state(walk).unwrap().parse_move("c7-b6").is_err());
    assert!(safe.parse_state(walk).unwrap().parse_move("c7-c6").is_ok());

    // A11, A12, A13: the end rules.
    let strict = Influence::named(
        "standard",
        [
            ("stalemate", "loss"),
            ("move_limit", "200"),
            ("repetition", "false"),
            ("army", "b"),
        ],
    )
    .unwrap();
    assert_eq!(
        strict.variant(),
        "standard,stalemate=loss,move_limit=200,repetition=false,army=b"
    );
    assert_eq!(strict.start().above_army(), influence::Army::Black);
    let s = strict.start();
    assert!(GameState::terminal(&s, true, 3).is_none());
    assert!(GameState::terminal(&start, true, 3).is_some());
    let stale = GameState::terminal(&s, false, 1).unwrap();
    assert_eq!(stale.result, game::GameResult::BlackWin);
    let clock = "rkqn/pppp/4/4/4/PPPP/NQKR 4/4/P1P1/1C2/1P1P/4/4 4/4/1P1P/2C1/P1P1/4/4 A w 150 80";
    assert!(GameState::terminal(&book.parse_state(clock).unwrap(), true, 1).is_some());
    assert!(GameState::terminal(&strict.parse_state(clock).unwrap(), true, 1).is_none());

    // Errors name the key.
    for (k, v) in [
        ("commander", "three"),
        ("move_limit", "-1"),
        ("colour", "w"),
    ] {
        let e = Influence::named("standard", [(k, v)]).unwrap_err();
        assert!(e.message().contains(&format!("game.{k}")), "{e}");
    }
    assert!(Influence::named("big", [])
        .unwrap_err()
        .message()
        .contains("game.variant"));
    // The recorded variant text reads back to the same game (as the
    // registry reads a shard's variant: `base,key=value,...`).
    let text = strict.variant().to_string();
    let mut parts = text.split(',');
    let base = parts.next().unwrap();
    let pairs: Vec<(&str, &str)> = parts.map(|p| p.split_once('=').unwrap()).collect();
    let again = Influence::named(base, pairs).unwrap();
    assert_eq!(again.variant(), strict.variant());
    assert_eq!(*again.options(), *strict.options());
    assert_ne!(*again.options(), Options::default());
}

/// Records round-trip through `Game::record_text` and `Game::replay_record`,
/// with the header `triad data export` puts above them, and resignations.
#[test]
fn records_round_trip() {
    let g = Influence::standard();
    let mut rng = SplitMix::new(11);
    let mut moves = Vec::new();
    for i in 0..6 {
        let mut h = History::new(g.start());
        while h.outcome().is_none() && h.ply() < 90 + i {
            h.position().legal_moves(&mut moves);
            h.play(moves[rng.below(moves.len() as u64) as usize]);
        }
        let resigned = h.outcome().is_none();
        let record = g.record_text(&h, resigned);
        assert!(record.starts_with("\tAbove\t\tBelow\n"), "{record}");
        let text = format!(
            "Game {i} (x plies, influence/standard): * unfinished\nStart {}\n{record}",
            g.start().to_text()
        );
        let back = g.replay_record(g.start(), &text).unwrap();
        assert_eq!(back.history.moves(), h.moves(), "{record}");
        if resigned {
            assert_eq!(back.termination(), game::Termination::Resignation);
        }
    }
}
