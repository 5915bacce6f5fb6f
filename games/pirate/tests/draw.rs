//! Pirate Chess drawn (`GameState::drawing`, `move_cells`): every ship on
//! the board and in reserve is on its cell, and every legal turn's main
//! action starts on a ship of the mover (a deploy on its reserve cell).

use game::{draw, Drawing, Game, GameState, Ground, Shape};
use pirate::{Main, Pirate, Position, Side, Size};

fn ships(d: &Drawing, panel: usize, side: Side) -> usize {
    d.panels[panel]
        .cells
        .iter()
        .flat_map(|c| &c.tokens)
        .filter(|t| t.shape == Shape::Ship && t.side == Some(side.seat()))
        .count()
}

fn check(p: &Position) {
    let d = p.drawing();
    assert_eq!(d.panels.len(), 2);
    let g = p.geometry();
    let sea = &d.panels[0];
    assert_eq!(
        (sea.rows, sea.cols),
        (g.height() as usize, g.width() as usize)
    );
    assert_eq!(sea.cells.len(), sea.rows * sea.cols);
    let sand = sea.cells.iter().filter(|c| c.ground == Ground::Light);
    assert_eq!(sand.count(), 4, "the harbour");
    for side in Side::ALL {
        let on_board = p.ships_of(side).popcount() as usize;
        let in_reserve = p.reserve_mask(side).count_ones() as usize;
        assert_eq!(ships(&d, 0, side), on_board, "{p:?}");
        assert_eq!(ships(&d, 1, side), in_reserve, "{p:?}");
    }
    // Each ship carries its type letter, and an anchored one its marker.
    for sq in p.occupied() {
        let ship = p.ship_at(sq).unwrap();
        let row = (g.height() - 1 - g.rank(sq)) as usize;
        let tokens = &sea.cells[row * sea.cols + g.file(sq) as usize].tokens;
        assert!(tokens
            .iter()
            .any(|t| t.shape == Shape::Piece && t.label == ship.kind().letter().to_string()));
        let markers = tokens.iter().filter(|t| t.shape == Shape::Marker).count();
        assert_eq!(markers, ship.anchored() as usize, "{p:?} {}", g.name(sq));
    }
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    for &m in &moves {
        let (from, to) = p.move_cells(m).expect("every turn is drawn");
        for c in [from, to] {
            assert!(c.panel < d.panels.len());
            let panel = &d.panels[c.panel];
            assert!(c.row < panel.rows && c.col < panel.cols, "{p:?} {m:?}");
        }
        assert_eq!(to.panel, 0, "{m:?} ends on the sea");
        assert_eq!(from.panel, matches!(m.main(), Main::Deploy(_)) as usize);
        let panel = &d.panels[from.panel];
        let tokens = &panel.cells[from.row * panel.cols + from.col].tokens;
        assert!(
            tokens
                .iter()
                .any(|t| t.shape == Shape::Ship && t.side == Some(p.side().seat())),
            "{p:?} {}: no ship of the mover where it starts",
            p.move_text(m)
        );
    }
}

#[test]
fn every_ship_is_drawn_and_every_turn_starts_on_a_ship_of_the_mover() {
    for (w, h) in [(8, 8), (6, 6), (10, 8)] {
        let size = Size::new(w, h).unwrap();
        let g = Pirate::sized(size);
        let start = g.start();
        let d = start.drawing();
        // The start: an empty sea, sixteen ships in reserve.
        assert_eq!(ships(&d, 0, Side::Blue) + ships(&d, 0, Side::Red), 0);
        assert_eq!(ships(&d, 1, Side::Blue) + ships(&d, 1, Side::Red), 16);
        assert!(d.caption.starts_with("Blue to move"), "{}", d.caption);
        check(&start);
        for p in game::random_positions(&start, 10, 3, 40) {
            check(&p);
        }
        for p in pirate::middle_game_positions(size, 8, 9) {
            check(&p);
            assert!(draw::svg(&p.drawing(), &[]).starts_with("<svg"));
        }
    }
}
