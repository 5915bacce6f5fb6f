//! Variants as parameters, and game results (mate, repetition, clock).

use piratechnics::{
    perft, Game, GameResult, Piratechnics, Position, Square, Termination, Variant, VariantError,
};

#[test]
fn an_8x8_board_with_capacity_2_works_without_new_code() {
    let start = "[rn][bq][kb][nr][rn][bq][kb][nr]/[pp][pp][pp][pp][pp][pp][pp][pp]/8/8/8/8/[PP][PP][PP][PP][PP][PP][PP][PP]/[RN][BQ][KB][NR][RN][BQ][KB][NR] w - 0 1";
    // Two kings per side are rejected, so use one king ship each.
    let start = start
        .replacen("[kb][nr][rn][bq][kb]", "[kb][nr][rn][bq][bb]", 1)
        .replacen("[KB][NR][RN][BQ][KB]", "[KB][NR][RN][BQ][BB]", 1);
    let v = Variant::custom("8x8", 8, 8, 2, &[], &start).unwrap();
    let pos = Position::start_of(v);
    assert_eq!(Position::from_tfen_in(&pos.to_tfen(), v).unwrap(), pos);
    let n1 = perft(&pos, 1);
    assert!(n1 > 0);
    // Every move respects capacity 2.
    for m in pos.legal_move_vec() {
        let after = pos.play(m);
        for sq in after.ships() {
            assert!(after.ship_at(sq).unwrap().total() <= 2);
        }
        assert_eq!(Position::from_tfen_in(&after.to_tfen(), v).unwrap(), after);
    }
    assert!(perft(&pos, 2) > n1);
    assert!(v.mirror_symmetric());
}

#[test]
fn bad_variants_are_rejected() {
    let board = Variant::custom("x", 9, 8, 3, &[], "").unwrap_err();
    assert_eq!(
        board,
        VariantError::Board {
            width: 9,
            height: 8
        }
    );
    assert_eq!(
        board.to_string(),
        "board 9x8: width must be 2..=8 and height an even number 4..=8"
    );
    let capacity = Variant::custom("x", 6, 8, 7, &[], "").unwrap_err();
    assert_eq!(capacity.to_string(), "ship capacity 7: must be 1..=6");
    let corners = [Square::new(0, 0)];
    assert!(
        Variant::custom("x", 6, 8, 3, &corners, "bad").is_ok(),
        "the start is parsed lazily"
    );
}

#[test]
fn bad_variant_names_are_named() {
    let unknown = Piratechnics::named("9x9", None).unwrap_err();
    assert_eq!(
        unknown.to_string(),
        "unknown piratechnics variant \"9x9\": expected one of standard, 8x8, capacity2, capacity4"
    );
    // The capacity-2 start has ships of two: not a position of capacity 1.
    match Piratechnics::named("capacity2", Some(1)).unwrap_err() {
        VariantError::Start { variant, source } => {
            assert_eq!(variant, "capacity2,capacity=1");
            let e = VariantError::Start {
                variant,
                source: source.clone(),
            };
            assert_eq!(
                e.to_string(),
                format!("variant capacity2,capacity=1: start position: {source}")
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn checkmate_ends_the_game() {
    let pos = Position::from_tfen(
        "[]1[b][knn]/[QBN]3[ppp]1/[]1[P]1[]1/[B]4[QRp]/1[PPP][r][]1[PPP]/4[pp]1/1[]1[n]1[BNq]/2[K][] b - 2 33",
    )
    .unwrap();
    let mut g = Game::new(pos);
    assert!(g.outcome().is_none());
    let m = g.position().parse_move("f2Q-d2").unwrap();
    g.play(m);
    let o = g.outcome().unwrap();
    assert_eq!(o.result, GameResult::BlackWin);
    assert_eq!(o.termination, Termination::Checkmate);
}

#[test]
fn threefold_repetition_draws() {
    let mut g = Game::new(Position::start());
    let cycle = ["b1-c3", "b8-c6", "c3-b1", "c6-b8"];
    // The position after the first b1-c3 (with its forbidden reversal c3->b1)
    // recurs after every fourth ply; its third occurrence is ply 9.
    for ply in 0..9 {
        assert!(g.outcome().is_none(), "over too early, at ply {ply}");
        let m = g.position().parse_move(cycle[ply % 4]).unwrap();
        g.play(m);
    }
    assert_eq!(g.repetition_count(), 3);
    assert_eq!(g.outcome().unwrap().termination, Termination::Repetition);
    assert_eq!(g.outcome().unwrap().result, GameResult::Draw);
    g.undo();
    assert!(g.outcome().is_none());
    assert_eq!(g.repetition_count(), 2);
}

#[test]
fn hundred_plies_without_capture_draw() {
    let pos = Position::from_tfen(
        "[rbn][qrb][kbn][rbn]/[ppp][ppp][ppp][ppp][ppp][ppp]/6/6/6/6/[PPP][PPP][PPP][PPP][PPP][PPP]/[RBN][QRB][KBN][RBN] w - 99 50",
    )
    .unwrap();
    let mut g = Game::new(pos);
    assert!(g.outcome().is_none());
    let m = g.position().parse_move("b1-c3").unwrap();
    g.play(m);
    assert_eq!(g.outcome().unwrap().termination, Termination::NoCapture);
}

/// Hostile TFENs: a ship with 16 or 31 identical crew letters was misread
/// (the per-kind counter wrapped: 16 P read as one knight) or panicked move
/// generation; now it is refused, and the message does not echo a huge
/// input whole.
#[test]
fn overfull_ships_are_refused_and_long_input_is_clipped() {
    for n in [4, 16, 31, 200] {
        let ship = "P".repeat(n);
        let tfen = format!("[rbn][qrb][kbn][rbn]/6/6/6/6/6/[{ship}]5/[RBN][QRB][KBN][RBN] w - 0 1");
        let err = Position::from_tfen(&tfen).unwrap_err().to_string();
        assert!(err.contains("more than 3 crew"), "{n}: {err}");
    }
    let huge = "x".repeat(100_000);
    let err = Position::from_tfen(&huge).unwrap_err().to_string();
    assert!(err.len() < 1000, "{} bytes", err.len());
}
