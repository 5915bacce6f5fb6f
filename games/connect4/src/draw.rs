//! A Connect Four position as a picture (`game::GameState::drawing`): the
//! rack of `height` rows by `width` columns on slots, one disc per stone
//! (the first player's White), row 0 the top row, the columns labelled as
//! Pons's notation writes them (`1`, `2`, ...).

use crate::position::{column_char, Position};
use game::{CellRef, Color, Drawing, GameState, Ground, Panel, Token};

/// The drawing of `p`: one panel and a caption (who moves, or the result).
pub(crate) fn drawing(p: &Position) -> Drawing {
    let (w, h) = (p.size.width, p.size.height);
    let mut panel = Panel::plain(h as usize, w as usize, Ground::Slot);
    panel.col_labels = (0..w).map(|c| column_char(c).to_string()).collect();
    for col in 0..w {
        for row in 0..h {
            let side = match p.stone(col, row) {
                0 => continue,
                1 => Color::White,
                _ => Color::Black,
            };
            panel
                .cell_mut((h - 1 - row) as usize, col as usize)
                .tokens
                .push(Token::disc(side));
        }
    }
    Drawing {
        panels: vec![panel],
        caption: game::draw::caption(p.side(), p.outcome(1), ["White", "Black"]),
    }
}

/// The cell a stone dropped into column `c` lands on, twice; `None` for a
/// full column.
pub(crate) fn move_cells(p: &Position, c: u8) -> Option<(CellRef, CellRef)> {
    let h = p.size.height as u32;
    if c >= p.size.width || !p.column_open(c) {
        return None;
    }
    let row = p.landing_row(c);
    let cell = CellRef::new(0, (h - 1 - row) as usize, c as usize);
    Some((cell, cell))
}
