//! Connect Four drawn (`GameState::drawing`, `move_cells`): the rack holds
//! one disc per stone, and every legal move lands on an empty slot of it.

use connect4::{Connect4, Position, Size};
use game::{draw, CellRef, Color, Drawing, Game, GameState, Ground, Shape};

fn discs(d: &Drawing, side: Color) -> usize {
    d.panels
        .iter()
        .flat_map(|p| &p.cells)
        .flat_map(|c| &c.tokens)
        .filter(|t| t.shape == Shape::Disc && t.side == Some(side))
        .count()
}

/// Every legal move of `p` lands on an empty slot inside the drawing: the
/// landing cell, twice, with a stone under it or on the bottom row.
fn check_moves(p: &Position) {
    let d = p.drawing();
    let panel = &d.panels[0];
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    for &m in &moves {
        let (from, to) = p.move_cells(m).expect("every legal column is drawn");
        assert_eq!(from, to, "{p:?} {m:?}");
        assert!(to.panel < d.panels.len() && to.row < panel.rows && to.col < panel.cols);
        assert_eq!(to.col, m.0 as usize);
        let cell = &panel.cells[to.row * panel.cols + to.col];
        assert_eq!(cell.ground, Ground::Slot);
        assert!(cell.tokens.is_empty(), "{p:?} {m:?}: lands on a stone");
        if to.row + 1 < panel.rows {
            let below = &panel.cells[(to.row + 1) * panel.cols + to.col];
            assert!(!below.tokens.is_empty(), "{p:?} {m:?}: floats");
        }
        // After the move the stone is there, in the mover's colour.
        let after = p.play(m).drawing();
        let CellRef { row, col, .. } = to;
        let placed = &after.panels[0].cells[row * panel.cols + col].tokens;
        assert_eq!(placed.len(), 1);
        assert_eq!(placed[0].side, Some(p.side()));
    }
}

#[test]
fn the_rack_holds_every_stone_and_every_move_lands_on_an_empty_slot() {
    for size in [Size::STANDARD, Size::new(9, 5).unwrap()] {
        let game = Connect4::sized(size);
        let start = game.start();
        let d = start.drawing();
        assert_eq!(d.panels.len(), 1);
        let panel = &d.panels[0];
        assert_eq!(
            (panel.rows, panel.cols),
            (size.height as usize, size.width as usize)
        );
        assert_eq!(panel.cells.len(), panel.rows * panel.cols);
        assert_eq!(panel.col_labels.first().map(String::as_str), Some("1"));
        assert_eq!(discs(&d, Color::White) + discs(&d, Color::Black), 0);
        assert_eq!(d.caption, "White to move");
        check_moves(&start);
        for p in game::random_positions(&start, 40, 11, 30) {
            let d = p.drawing();
            let n = p.moves_played() as usize;
            assert_eq!(discs(&d, Color::White), n.div_ceil(2), "{p:?}");
            assert_eq!(discs(&d, Color::Black), n / 2, "{p:?}");
            check_moves(&p);
            assert!(draw::svg(&d, &[]).starts_with("<svg"));
        }
    }
}

#[test]
fn the_bottom_row_is_drawn_last_and_the_caption_gives_the_result() {
    let game = Connect4::standard();
    // White's first stone in column 4: bottom row, fourth column.
    let p = game.parse_state("4").unwrap();
    let d = p.drawing();
    let cell = &d.panels[0].cells[5 * 7 + 3];
    assert_eq!(cell.tokens[0].side, Some(Color::White));
    assert_eq!(d.caption, "Black to move");
    // Four in column 1 for White.
    let won = game.parse_state("1212121").unwrap();
    assert_eq!(won.drawing().caption, "White wins (line)");
}
