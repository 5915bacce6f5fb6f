//! Property tests over seeded random games.

use piratechnics::{Color, Kind, Move, Piece, Position};
use proptest::prelude::*;

/// A small deterministic generator (splitmix64), so a seed names a game.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Plays a random game of at most `plies` plies, calling `check` on every
/// position with its legal moves.
fn random_game(seed: u64, plies: usize, mut check: impl FnMut(&Position, &[Move])) {
    let mut rng = Rng(seed);
    let mut pos = Position::start();
    let mut buf = Vec::new();
    for _ in 0..plies {
        pos.legal_moves(&mut buf);
        check(&pos, &buf);
        if buf.is_empty() {
            break;
        }
        // Prefer captures a little so games reach sparse, late positions.
        let caps: Vec<Move> = buf.iter().copied().filter(|m| m.is_capture()).collect();
        let m = if !caps.is_empty() && rng.below(3) == 0 {
            caps[rng.below(caps.len())]
        } else {
            buf[rng.below(buf.len())]
        };
        pos = pos.play(m);
    }
}

fn material_change(before: &Position, m: Move) -> [i32; 12] {
    let mut d = [0i32; 12];
    if let Some(p) = m.captured() {
        d[p.index()] -= 1;
    }
    let us = before.side();
    let promos = m.promotions();
    if !promos.is_empty() {
        d[Piece::new(us, Kind::Pawn).index()] -= promos.total() as i32;
        for k in [Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen] {
            d[Piece::new(us, k).index()] += promos.get(k) as i32;
        }
    }
    d
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn random_games_keep_every_invariant(seed in any::<u64>()) {
        random_game(seed, 160, |pos, moves| {
            // TFEN round trip and hash.
            let back = Position::from_tfen(&pos.to_tfen()).expect("own TFEN parses");
            assert_eq!(&back, pos);
            assert_eq!(back.hash(), pos.hash());
            assert_eq!(pos.hash(), pos.compute_hash(), "incremental hash");
            // The mirror commutes with move generation.
            let mirrored = pos.mirror();
            let mut a: Vec<u32> = moves.iter().map(|m| m.mirror(pos.variant()).code()).collect();
            let mut b: Vec<u32> = mirrored.legal_move_vec().iter().map(|m| m.code()).collect();
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "mirror of {pos}");
            let mut seen = std::collections::HashSet::new();
            let before = pos.material();
            for &m in moves {
                assert!(seen.insert(m), "duplicate move {m:?}");
                // Move code round trip.
                assert_eq!(Move::from_code(m.code()), Some(m));
                // Canonical and inventor text resolve to the same move.
                let text = pos.move_to_text(m);
                assert_eq!(pos.parse_move(&text), Ok(m), "canonical {text} in {pos}");
                let inv = pos.move_to_inventor(m);
                assert_eq!(pos.parse_inventor(&inv).map(|x| x.0), Ok(m), "inventor {inv} in {pos}");
                let after = pos.play(m);
                // The mover's king is not left in check.
                let mover = pos.side();
                assert!(!after.is_attacked(after.king(mover), !mover), "{text} leaves the king in check in {pos}");
                assert_eq!(after.hash(), after.compute_hash());
                // Crew conserved except by captures and promotions.
                let d = material_change(pos, m);
                let now = after.material();
                for i in 0..12 {
                    assert_eq!(now[i] as i32, before[i] as i32 + d[i], "piece {i} after {text} in {pos}");
                }
                // Capacity respected.
                for sq in after.ships() {
                    assert!(after.ship_at(sq).unwrap().total() <= 3);
                }
                // Kings are never captured.
                assert_eq!(now[5], 1);
                assert_eq!(now[11], 1);
            }
        });
    }
}

#[test]
fn no_undo_forbids_the_reverse_ship_move() {
    // The sample game's end: Black sailed b1<NK>-d2; White may not sail the
    // ship straight back (the record itself says so).
    let pos = Position::from_tfen(
        "[]1[b][knn]/[QBN]3[ppp]1/[]1[P]1[]1/[B]4[QRp]/1[PPP][r][]1[PPP]/4[pp]1/1[]1[Kn]1[BNq]/2[][] w d2b1 1 33",
    )
    .unwrap();
    assert_eq!(pos.side(), Color::White);
    let e = pos.parse_move("d2<KN>-b1").unwrap_err();
    assert!(e.reason.to_string().contains("no undo"), "{e}");
    assert!(pos.parse_move("d2<KN>-d3").is_ok());
    // Once another move is made the reversal is forgotten.
    let start = Position::start();
    let after = start.play(start.parse_move("b1-c3").unwrap());
    assert_eq!(
        after
            .reversal()
            .map(|(y, x)| (y.to_string(), x.to_string())),
        Some(("c3".into(), "b1".into()))
    );
    let later = after.play(after.parse_move("d7-d5").unwrap());
    assert_eq!(
        later.reversal().map(|(y, _)| y.to_string()),
        Some("d5".into())
    );
    assert!(later.parse_move("c3-b1").is_ok());
}

#[test]
fn bad_tfens_are_errors_not_panics() {
    for bad in [
        "",
        "garbage",
        "[rbn][qrb][kbn][rbn]/6/6/6/6/6/6/[RBN][QRB][KBN][RBN] w - 0",
        "[rbn][qrb][kbn][rbn]/[ppp][ppp][ppp][ppp][ppp][ppp]/6/6/6/6/[PPP][PPP][PPP][PPP][PPP][PPP]/[RBN][QRB][KBN][RBN] x - 0 1",
        "[rbn][qrb][kbn][rbn]/[ppp][ppp][ppp][ppp][ppp][ppp]/7/6/6/6/[PPP][PPP][PPP][PPP][PPP][PPP]/[RBN][QRB][KBN][RBN] w - 0 1",
        "[rbnp][qrb][kbn][rbn]/[ppp][ppp][ppp][ppp][ppp][ppp]/6/6/6/6/[PPP][PPP][PPP][PPP][PPP][PPP]/[RBN][QRB][KBN][RBN] w - 0 1",
        "[rbn][qrb][bbn][rbn]/[ppp][ppp][ppp][ppp][ppp][ppp]/6/6/6/6/[PPP][PPP][PPP][PPP][PPP][PPP]/[RBN][QRB][KBN][RBN] w - 0 1",
        "[rbn][qrb][kbn][rbn]/[ppp][ppp][ppp][ppp][ppp][ppp]/6/6/6/6/[PPP][PPP][PPP][PPP][PPP][PPP]/[RBN][QRB][KBN][RBN] w z9 0 1",
        "[rbn][qrb][kbn][rbn]/[ppp][ppp][ppp][ppp][ppp][ppp]/6/6/6/6/[PPP][PPP][PPP][PPP][PPP][PPP]/[RBN][QRB][KBN][RBN] w - x 1",
        "[rbn][qrb][kbn][rbn]/[ppp][ppx][ppp][ppp][ppp][ppp]/6/6/6/6/[PPP][PPP][PPP][PPP][PPP][PPP]/[RBN][QRB][KBN][RBN] w - 0 1",
    ] {
        let e = Position::from_tfen(bad).unwrap_err();
        assert!(!e.reason.to_string().is_empty());
    }
}

#[test]
fn bad_moves_name_the_problem() {
    let pos = Position::start();
    for (text, needle) in [
        ("d2-d6", "pilot"),
        ("z9-d4", "origin"),
        ("d3-d4", "no ship on d3"),
        ("b1R-c2", "none of R"),
        ("d7-d5", "no white crew"),
        ("b1Rxb2q", "no enemy queen"),
        ("d2<PP>-d4", "carries PPP"),
    ] {
        let e = pos.parse_move(text).unwrap_err();
        assert!(e.to_string().contains(needle), "{text}: {e}");
    }
}

#[test]
fn inventor_slips_are_accepted() {
    // Start: White self-captures are legal; the inventor writes them with `own`.
    let pos = Position::start();
    let a = pos.parse_move("b1R x b2 own P").unwrap();
    let b = pos.parse_move("b1Rxb2P").unwrap();
    assert_eq!(a, b);
    assert_eq!(
        pos.parse_move("b1R-b2P").unwrap(),
        a,
        "captured kind after '-'"
    );
    assert_eq!(
        pos.parse_move("b1N-c3").unwrap(),
        pos.parse_move("b1-c3").unwrap(),
        "crew-style ship move"
    );
    assert_eq!(
        pos.parse_move("b1(NRB)-c3").unwrap(),
        pos.parse_move("b1-c3").unwrap(),
        "(...) for <...>"
    );
}
