//! A position as a picture (`game::GameState::drawing`): the board with
//! chess labels (rank 1 at the bottom), missing corners left out, and on
//! each cell with a ship a hull (ships belong to nobody, RULES.md §2) with
//! its crew riding in it, White's first, each colour in K Q R B N P order.

use crate::types::{Color, Kind, Square};
use crate::{Move, Position};
use game::{CellRef, Drawing, GameState, Ground, Panel, Token};

/// The drawing cell of `sq` on a board `height` ranks high.
fn cell(sq: Square, height: u8) -> CellRef {
    CellRef::new(0, (height - 1 - sq.rank()) as usize, sq.file() as usize)
}

/// The drawing of `pos`: one panel and a caption (who moves and whether in
/// check, or the result; the move number; a forbidden reversal).
pub(crate) fn drawing(pos: &Position) -> Drawing {
    let v = pos.variant();
    let (h, w) = (v.height, v.width);
    let mut panel = Panel::checkered(h as usize, w as usize).with_chess_labels();
    for rank in 0..h {
        for file in 0..w {
            let sq = Square::new(file, rank);
            let at = cell(sq, h);
            let c = panel.cell_mut(at.row, at.col);
            if !v.exists(sq) {
                c.ground = Ground::Off;
                continue;
            }
            let Some(crew) = pos.ship_at(sq) else {
                continue;
            };
            c.tokens.push(Token::ship("", None));
            for color in Color::ALL {
                let counts = crew.color(color);
                for kind in Kind::WRITING_ORDER {
                    for _ in 0..counts.get(kind) {
                        c.tokens
                            .push(Token::piece(kind.letter().to_string(), color));
                    }
                }
            }
        }
    }
    let outcome = pos.outcome(1);
    let mut caption = game::draw::caption(pos.side(), outcome, ["White", "Black"]);
    if outcome.is_none() && pos.in_check() {
        caption.push_str(", in check");
    }
    caption.push_str(&format!("; move {}", pos.fullmove()));
    if let (None, Some((y, x))) = (outcome, pos.reversal()) {
        caption.push_str(&format!("; the ship on {y} may not sail back to {x}"));
    }
    Drawing {
        panels: vec![panel],
        caption,
    }
}

/// The cells a move goes from and to: the ship's, for a ship move and for
/// a crew move alike.
pub(crate) fn move_cells(pos: &Position, m: Move) -> Option<(CellRef, CellRef)> {
    let h = pos.variant().height;
    Some((cell(m.from(), h), cell(m.to(), h)))
}
