//! Influence Chess drawn (`GameState::drawing`, `move_cells`): the three
//! boards hold every piece of the position, the middle board marks who
//! influences each piece, and every legal move starts on a piece it may
//! move: the mover's own influence piece, or a middle piece he influences.

use game::{draw, Color, Drawing, Game, GameState, Shape};
use influence::{Army, Influence, Player, Position};

/// The pieces (not markers) drawn on `panel` in `side`'s colour.
fn pieces(d: &Drawing, panel: usize, side: Color) -> usize {
    d.panels[panel]
        .cells
        .iter()
        .flat_map(|c| &c.tokens)
        .filter(|t| t.shape == Shape::Piece && t.side == Some(side))
        .count()
}

fn colour(a: Army) -> Color {
    match a {
        Army::White => Color::White,
        Army::Black => Color::Black,
    }
}

fn check(p: &Position) {
    let d = p.drawing();
    assert_eq!(d.panels.len(), 3);
    let titles: Vec<&str> = d.panels.iter().map(|p| p.title.as_str()).collect();
    assert_eq!(titles, ["Above", "Middle", "Below"]);
    for panel in &d.panels {
        assert_eq!((panel.rows, panel.cols), (7, 4));
        assert_eq!(panel.cells.len(), 28);
    }
    for army in [Army::White, Army::Black] {
        let n = p.army_pieces(army).count_ones() as usize;
        assert_eq!(pieces(&d, 1, colour(army)), n, "{p:?}");
    }
    for (player, panel) in [(Player::Above, 0), (Player::Below, 2)] {
        let n = p.influence_pieces(player).count_ones() as usize;
        let side = colour(p.army_of(player));
        assert_eq!(pieces(&d, panel, side), n, "{p:?}");
        assert_eq!(pieces(&d, panel, !side), 0, "{p:?}");
    }
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let mover = p.turn();
    for &m in &moves {
        let (from, to) = p.move_cells(m).expect("every move is drawn");
        assert_eq!(from.panel, to.panel);
        for c in [from, to] {
            assert!(c.panel < d.panels.len());
            let panel = &d.panels[c.panel];
            assert!(c.row < panel.rows && c.col < panel.cols, "{p:?} {m:?}");
        }
        let panel = &d.panels[from.panel];
        let tokens = &panel.cells[from.row * panel.cols + from.col].tokens;
        let text = p.move_text(m);
        if m.is_middle() {
            assert_eq!(from.panel, 1, "{text}");
            assert!(tokens.iter().any(|t| t.shape == Shape::Piece), "{text}");
            let marker = mover.letter().to_string();
            assert!(
                tokens
                    .iter()
                    .any(|t| t.shape == Shape::Marker && t.label == marker),
                "{p:?} {text}: the piece is not marked as influenced by the mover"
            );
        } else {
            assert_eq!(from.panel, if mover == Player::Above { 0 } else { 2 });
            let side = Some(colour(p.army_of(mover)));
            assert!(
                tokens
                    .iter()
                    .any(|t| t.shape == Shape::Piece && t.side == side),
                "{p:?} {text}"
            );
        }
    }
}

#[test]
fn the_three_boards_hold_every_piece_and_every_move_starts_on_one_the_mover_may_move() {
    let g = Influence::standard();
    for start in [
        g.start(),
        g.parse_state(influence::START_ABOVE_BLACK).unwrap(),
    ] {
        let d = start.drawing();
        // The start: eight pieces an army, five influence pieces a player,
        // nobody influences a middle piece.
        assert_eq!(pieces(&d, 1, Color::White), 8);
        assert_eq!(pieces(&d, 1, Color::Black), 8);
        assert_eq!(pieces(&d, 0, colour(start.army_of(Player::Above))), 5);
        let markers = d.panels[1].cells.iter().flat_map(|c| &c.tokens);
        assert_eq!(markers.filter(|t| t.shape == Shape::Marker).count(), 0);
        assert!(d.caption.starts_with("Above ("), "{}", d.caption);
        // White's king is on c1: bottom row, third column.
        let c1 = &d.panels[1].cells[6 * 4 + 2].tokens[0];
        assert_eq!((c1.label.as_str(), c1.side), ("K", Some(Color::White)));
        check(&start);
        for p in game::random_positions(&start, 30, 21, 60) {
            check(&p);
            assert!(draw::svg(&p.drawing(), &[]).starts_with("<svg"));
        }
    }
}
