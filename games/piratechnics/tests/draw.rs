//! PiRaTeKnIcS drawn (`GameState::drawing`, `move_cells`): every ship and
//! crewman of the position is on its cell, missing corners are off the
//! board, and every legal move starts on a ship with crew of the mover.

use game::{draw, Color, Drawing, Game, GameState, Ground, Shape};
use piratechnics::{Piratechnics, Position, VARIANTS};

fn count(d: &Drawing, shape: Shape, side: Option<Color>) -> usize {
    d.panels
        .iter()
        .flat_map(|p| &p.cells)
        .flat_map(|c| &c.tokens)
        .filter(|t| t.shape == shape && t.side == side)
        .count()
}

/// The drawing holds exactly the position's ships and crew, White's
/// pieces at the bottom of the start.
fn check_tokens(p: &Position) {
    let d = p.drawing();
    let m = p.material();
    for color in Color::ALL {
        let on_board: u32 = m[color.index() * 6..color.index() * 6 + 6].iter().sum();
        assert_eq!(
            count(&d, Shape::Piece, Some(color)),
            on_board as usize,
            "{p:?}"
        );
    }
    assert_eq!(count(&d, Shape::Ship, None), p.ships().count() as usize);
    // Each drawn cell holds what the position's cell holds.
    let v = p.variant();
    let panel = &d.panels[0];
    for sq in p.ships() {
        let row = (v.height - 1 - sq.rank()) as usize;
        let tokens = &panel.cells[row * panel.cols + sq.file() as usize].tokens;
        assert_eq!(tokens[0].shape, Shape::Ship);
        let crew = p.ship_at(sq).unwrap();
        assert_eq!(tokens.len() - 1, crew.total() as usize, "{p:?} {sq}");
    }
}

/// Every legal move goes between cells of the drawing, from a cell whose
/// ship carries crew of the side to move.
fn check_moves(p: &Position) {
    let d = p.drawing();
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    for &m in &moves {
        let (from, to) = p.move_cells(m).expect("every move is drawn");
        for c in [from, to] {
            assert!(c.panel < d.panels.len());
            let panel = &d.panels[c.panel];
            assert!(c.row < panel.rows && c.col < panel.cols, "{p:?} {m:?}");
            assert_ne!(panel.cells[c.row * panel.cols + c.col].ground, Ground::Off);
        }
        let panel = &d.panels[from.panel];
        let tokens = &panel.cells[from.row * panel.cols + from.col].tokens;
        assert!(
            tokens
                .iter()
                .any(|t| t.shape == Shape::Piece && t.side == Some(p.side())),
            "{p:?} {}: no crew of the mover on its cell",
            p.move_text(m)
        );
        assert_ne!(from, to);
    }
}

#[test]
fn every_variant_draws_its_ships_and_crew_and_every_move_between_its_cells() {
    for (name, _) in VARIANTS {
        let g = Piratechnics::named(name, None).unwrap();
        let start = g.start();
        let v = g.variant_tables();
        let d = start.drawing();
        assert_eq!(d.panels.len(), 1);
        let panel = &d.panels[0];
        assert_eq!(
            (panel.rows, panel.cols),
            (v.height as usize, v.width as usize)
        );
        let on_board = panel.cells.iter().filter(|c| c.ground != Ground::Off);
        assert_eq!(on_board.count(), v.cells.count() as usize, "{name}");
        assert!(d.caption.starts_with("White to move"), "{}", d.caption);
        // Rank 1 (White's) is the bottom row, rank 8 the top.
        let bottom = &panel.cells[(panel.rows - 1) * panel.cols..];
        let top = &panel.cells[..panel.cols];
        for (row, side) in [(bottom, Color::White), (top, Color::Black)] {
            let pieces = row.iter().flat_map(|c| &c.tokens);
            assert!(pieces
                .filter(|t| t.shape == Shape::Piece)
                .all(|t| t.side == Some(side)));
        }
        check_tokens(&start);
        check_moves(&start);
        for p in game::random_positions(&start, 12, 5, 60) {
            check_tokens(&p);
            check_moves(&p);
            assert!(draw::svg(&p.drawing(), &[]).starts_with("<svg"));
        }
    }
    // The standard board: the corners a1 and f8 are off it.
    let d = Piratechnics::standard().start().drawing();
    assert_eq!(d.panels[0].cells[7 * 6].ground, Ground::Off);
    assert_eq!(d.panels[0].cells[5].ground, Ground::Off);
}
