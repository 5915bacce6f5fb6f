//! The source's worked examples (RULES.md §12, diagrams 2–11, as the rule
//! book transcribes them) and the start of §3 and §10: the moves each says
//! are legal are legal, the ones it says are not are not.

use game::{Color, Game, GameResult, GameState, Termination};
use influence::{Influence, Move, Position, Square};

fn pos(text: &str) -> Position {
    Influence::standard()
        .parse_state(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn legal(p: &Position) -> Vec<Move> {
    let mut v = Vec::new();
    p.legal_moves(&mut v);
    v
}

/// The destinations of the middle moves from `from`, sorted.
fn middle_targets(p: &Position, from: &str) -> Vec<String> {
    let mut t: Vec<String> = legal(p)
        .into_iter()
        .filter(|m| m.is_middle() && m.from() == sq(from))
        .map(|m| m.to().to_string())
        .collect();
    t.sort();
    t.dedup();
    t
}

fn is_legal_text(p: &Position, text: &str) -> bool {
    p.parse_move(text).is_ok()
}

const KNIGHT_TARGETS: [&str; 4] = ["b2", "b4", "c1", "c5"];

#[test]
fn d1_start_has_31_influence_moves() {
    for text in [influence::START, influence::START_ABOVE_BLACK] {
        let p = pos(text);
        let moves = legal(&p);
        assert_eq!(moves.len(), 31);
        assert!(moves.iter().all(|m| !m.is_middle()));
        let from = |s: &str| moves.iter().filter(|m| m.from() == sq(s)).count();
        assert_eq!(
            [from("a5"), from("c5"), from("b3"), from("d3"), from("b4")],
            [4, 7, 7, 5, 8]
        );
        // Nobody influences any middle piece at the start.
        assert_eq!(p.influence(influence::Player::Above) & p.occupied(), 0);
        assert_eq!(p.influence(influence::Player::Below) & p.occupied(), 0);
    }
}

#[test]
fn d2_blank_square_lets_above_move_the_knight() {
    let p = pos("K3/4/4/4/3n/4/k3 4/4/P1P1/1C2/1P1P/4/4 4/4/3P/3P/PCP1/4/4 A w 0 1");
    assert_eq!(middle_targets(&p, "d3"), KNIGHT_TARGETS);
}

#[test]
fn d3_same_strength_still_lets_above_move_it() {
    let p = pos("K3/4/4/4/3n/4/k3 4/4/P1P1/1C2/1P1P/4/4 4/4/3P/3P/PC1P/4/4 A w 0 1");
    assert_eq!(middle_targets(&p, "d3"), KNIGHT_TARGETS);
}

#[test]
fn d4_a_stronger_below_piece_forbids_it() {
    let p = pos("K3/4/4/4/3n/4/k3 4/4/P1P1/1C2/1P1P/4/4 4/4/3P/3P/P1PC/4/4 A w 0 1");
    assert!(middle_targets(&p, "d3").is_empty());
    assert!(!is_legal_text(&p, "d3-c5"));
    assert!(!is_legal_text(&p, "d3-b2"));
}

#[test]
fn d5_the_commander_moves_it_regardless() {
    let p = pos("K3/4/4/4/3n/4/k3 4/4/P1P1/1P2/1P1C/4/4 4/4/3P/3P/P1PC/4/4 A w 0 1");
    assert_eq!(middle_targets(&p, "d3"), KNIGHT_TARGETS);
}

#[test]
fn d6_the_prince_may_make_the_same_move() {
    let p = pos("4/K3/4/4/3r/1k2/4 4/4/4/4/3P/4/PPPC 4/2C1/3P/3P/P1P1/4/4 A w 0 1");
    assert!(is_legal_text(&p, "d3-d7"));
    assert!(is_legal_text(&p, "d3-d7&"));
    // The prince goes four squares along with the rook.
    let after = p.play(p.parse_move("d3-d7&").unwrap());
    assert_ne!(after.princes(influence::Player::Above) & sq("d7").bit(), 0);
    assert_eq!(after.princes(influence::Player::Above) & sq("d3").bit(), 0);
    // Without it, the prince stays.
    let after = p.play(p.parse_move("d3-d7").unwrap());
    assert_ne!(after.princes(influence::Player::Above) & sq("d3").bit(), 0);
}

#[test]
fn d7_a_blocked_path_forbids_only_the_same_move() {
    let p = pos("4/K3/4/4/3r/1k2/4 4/4/3P/4/3P/4/4 4/2C1/3P/3P/P1P1/4/4 A w 0 1");
    assert!(is_legal_text(&p, "d3-d7"));
    assert!(!is_legal_text(&p, "d3-d7&"));
}

#[test]
fn d8_the_king_may_stand_on_a_square_the_opponent_cannot_use() {
    let p = pos("2K1/4/3r/4/4/1k2/4 4/4/1P2/3P/1P1C/4/4 2P1/4/4/4/P1PP/4/2C1 B b 0 1");
    assert!(is_legal_text(&p, "c7-d7"));
    // With an Above prince on d5, Above would control the rook: illegal.
    let q = pos("2K1/4/3r/4/4/1k2/4 4/4/1P1P/3P/1P1C/4/4 2P1/4/4/4/P1PP/4/2C1 B b 0 1");
    assert!(!is_legal_text(&q, "c7-d7"));
}

#[test]
fn d9_the_queen_may_not_expose_the_white_king() {
    let p = pos("k3/4/4/4/2q1/2K1/4 4/4/1P2/4/1PPC/4/P3 4/2P1/4/4/P1PC/4/P3 A w 0 1");
    assert!(!is_legal_text(&p, "c3-c6"));
    assert!(!is_legal_text(&p, "c3-c6&"));
    // White is already in check; the 19 replies are all queen moves and
    // none goes to c6.
    assert!(p.in_check());
    let moves = legal(&p);
    assert_eq!(moves.len(), 19);
    assert!(moves.iter().all(|m| m.is_middle() && m.from() == sq("c3")));
    assert!(moves.iter().all(|m| m.to() != sq("c6")));
}

#[test]
fn d10_legal_if_and_only_if_the_commander_goes_along() {
    let p = pos("k3/4/4/4/2q1/2K1/4 4/4/1P2/4/1PCP/4/P3 4/2P1/4/4/P1PC/4/P3 A w 0 1");
    assert!(is_legal_text(&p, "c3-c6&"));
    assert!(!is_legal_text(&p, "c3-c6"));
    // Afterwards Below has no move of the queen.
    let after = p.play(p.parse_move("c3-c6&").unwrap());
    assert!(legal(&after)
        .iter()
        .all(|m| m.from() != sq("c6") || !m.is_middle()));
}

#[test]
fn d11_below_is_checkmated_though_the_king_has_an_escape_square() {
    let p = pos("3K/PPP1/4/4/3r/1k2/4 4/4/1P1P/4/1P1C/4/P3 4/2C1/4/4/P1PP/4/1P2 B b 0 1");
    assert!(legal(&p).is_empty());
    assert!(p.in_check());
    let o = GameState::terminal(&p, false, 1).expect("the game is over");
    assert_eq!(o.termination, Termination::Checkmate);
    assert_eq!(o.result, GameResult::win_for(Color::White)); // Above's seat
                                                             // With a Below prince on d7 (the one from b1), d7-c7 would be legal.
    let q = pos("3K/PPP1/4/4/3r/1k2/4 4/4/1P1P/4/1P1C/4/P3 3P/2C1/4/4/P1PP/4/4 B b 0 1");
    assert!(is_legal_text(&q, "d7-c7"));
}
