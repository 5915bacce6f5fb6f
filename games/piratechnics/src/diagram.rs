//! A position drawn as text for the terminal (`triad show`, `triad play`).

use crate::{Color, Position, Square};

/// Draws a position: one box per cell, `[...]` a ship with its crew (White
/// upper case, Black lower case), `[ ]` an empty ship, `.` no ship, blank a
/// missing corner; then side to move, check, reversal and clocks.
pub fn diagram(pos: &Position) -> String {
    let v = pos.variant();
    let mut s = String::new();
    let w = v.capacity as usize + 2;
    for rank in (0..v.height).rev() {
        s.push_str(&format!(" {} ", rank + 1));
        for file in 0..v.width {
            let sq = Square::new(file, rank);
            let cell = if !v.exists(sq) {
                String::new()
            } else {
                match pos.ship_at(sq) {
                    None => ".".to_string(),
                    Some(c) => format!("[{}]", c.letters()),
                }
            };
            s.push_str(&format!(" {cell:^w$}"));
        }
        s.push('\n');
    }
    s.push_str("   ");
    for file in 0..v.width {
        s.push_str(&format!(" {:^w$}", (b'a' + file) as char));
    }
    s.push('\n');
    let side = if pos.side() == Color::White {
        "White"
    } else {
        "Black"
    };
    s.push_str(&format!(
        "{side} to move{}; move {}, {} plies since a capture",
        if pos.in_check() { ", in check" } else { "" },
        pos.fullmove(),
        pos.clock()
    ));
    if let Some((y, x)) = pos.reversal() {
        s.push_str(&format!("; the ship on {y} may not sail back to {x}"));
    }
    s.push('\n');
    s
}
