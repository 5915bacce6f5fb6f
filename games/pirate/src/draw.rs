//! A position as a picture (`game::GameState::drawing`): the sea (the
//! whole board, RULES.md §1) with the harbour's four squares on sand, chess
//! labels (rank 1 at the bottom), each ship a hull in its fleet's colour
//! (Blue is the first seat, drawn light; Red dark) with its type letter, an
//! anchor marker on an anchored ship; and beside the sea a second panel,
//! the reserves: Blue's column and Red's, one row per type in the order
//! F P D J B S G C from the top.

use crate::position::Position;
use crate::types::{Main, Move, Ship, ShipType, Side};
use game::{CellRef, Drawing, GameState, Ground, Panel, Shape, Token};

/// The label of the anchor marker.
const ANCHOR: &str = "⚓";

/// The panel of the reserves.
const RESERVES: usize = 1;

/// The drawing cell of square `sq`.
fn cell(pos: &Position, sq: u8) -> CellRef {
    let g = pos.geometry();
    CellRef::new(
        0,
        (g.height() - 1 - g.rank(sq)) as usize,
        g.file(sq) as usize,
    )
}

/// The reserve cell of `side`'s ship of type `t`.
fn reserve_cell(side: Side, t: ShipType) -> CellRef {
    CellRef::new(RESERVES, t.index(), side.index())
}

fn ship_tokens(ship: Ship) -> Vec<Token> {
    let side = ship.owner().seat();
    let mut tokens = vec![
        Token::ship("", Some(side)),
        Token::piece(ship.kind().letter().to_string(), side),
    ];
    if ship.anchored() {
        tokens.push(Token {
            label: ANCHOR.into(),
            side: Some(side),
            shape: Shape::Marker,
        });
    }
    tokens
}

/// The drawing of `pos`: the sea and the reserves, and a caption (who
/// moves or the result, the deployments, the clock and the ply).
pub(crate) fn drawing(pos: &Position) -> Drawing {
    let g = pos.geometry();
    let (h, w) = (g.height() as usize, g.width() as usize);
    let mut sea = Panel::plain(h, w, Ground::Water).with_chess_labels();
    sea.title = "Sea".into();
    for sq in 0..(h * w) as u8 {
        let at = cell(pos, sq);
        let c = sea.cell_mut(at.row, at.col);
        if g.harbour_set.has(sq) {
            c.ground = Ground::Light;
        }
        if let Some(ship) = pos.ship_at(sq) {
            c.tokens = ship_tokens(ship);
        }
    }
    let mut reserves = Panel::plain(ShipType::ALL.len(), Side::ALL.len(), Ground::Light);
    reserves.title = "Reserves".into();
    reserves.col_labels = vec!["Blue".into(), "Red".into()];
    reserves.row_labels = ShipType::ALL
        .iter()
        .map(|t| t.letter().to_string())
        .collect();
    for side in Side::ALL {
        for t in ShipType::ALL {
            if pos.in_reserve(side, t) {
                let at = reserve_cell(side, t);
                reserves.cell_mut(at.row, at.col).tokens = ship_tokens(Ship::new(side, t, false));
            }
        }
    }
    let outcome = pos.outcome(1);
    let mut caption = game::draw::caption(GameState::side(pos), outcome, ["Blue", "Red"]);
    caption.push_str(&format!(
        "; deployed {}/{}; clock {}; ply {}",
        pos.deployed(Side::Blue),
        pos.deployed(Side::Red),
        pos.clock(),
        pos.plies()
    ));
    Drawing {
        panels: vec![sea, reserves],
        caption,
    }
}

/// The cells of a turn's main action: a sail's squares; a deploy from the
/// reserve to its square; a toggle-only turn's square twice.
pub(crate) fn move_cells(pos: &Position, m: Move) -> Option<(CellRef, CellRef)> {
    let to = cell(pos, m.to());
    let from = match m.main() {
        Main::Sail(from) => cell(pos, from),
        Main::Deploy(t) => reserve_cell(pos.side(), t),
        Main::None => to,
    };
    Some((from, to))
}
