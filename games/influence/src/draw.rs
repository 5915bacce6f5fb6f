//! A position as a picture (`game::GameState::drawing`): the three boards
//! side by side as the diagram shows them, Above, Middle and Below, with
//! chess labels (rank 1 at the bottom). The middle board holds the two
//! armies; each influence board its owner's princes `P` and commander `C`,
//! drawn in the colour of the army that player helps. On the middle board a
//! marker `A` or `B` in a corner of a piece's cell says which player
//! influences it, that is, who may move it (RULES.md §5).

use crate::position::Position;
use crate::types::{Army, Bits, Move, Player, Square, FILES, RANKS};
use game::{CellRef, Color, Drawing, GameState, Panel, Shape, Token};

/// The drawing panel of each board.
const ABOVE: usize = 0;
const MIDDLE: usize = 1;
const BELOW: usize = 2;

fn colour(army: Army) -> Color {
    match army {
        Army::White => Color::White,
        Army::Black => Color::Black,
    }
}

/// The panel of `player`'s influence board.
fn board_of(player: Player) -> usize {
    match player {
        Player::Above => ABOVE,
        Player::Below => BELOW,
    }
}

/// The cell of square `s` on `panel`.
fn cell(panel: usize, s: Square) -> CellRef {
    CellRef::new(panel, (RANKS - 1 - s.rank()) as usize, s.file() as usize)
}

/// The drawing of `pos`: three panels and a caption (who moves and the
/// army he helps, check, or the result; the clock and the move number).
pub(crate) fn drawing(pos: &Position) -> Drawing {
    let mut panels: Vec<Panel> = ["Above", "Middle", "Below"]
        .into_iter()
        .map(|title| {
            let mut p = Panel::checkered(RANKS as usize, FILES as usize).with_chess_labels();
            p.title = title.into();
            p
        })
        .collect();
    for s in Bits(pos.occupied()) {
        let piece = pos.piece_at(s).expect("an occupied square has a piece");
        let at = cell(MIDDLE, s);
        let tokens = &mut panels[MIDDLE].cell_mut(at.row, at.col).tokens;
        tokens.push(Token::piece(
            piece.kind.letter().to_string(),
            colour(piece.army),
        ));
        for player in [Player::Above, Player::Below] {
            if pos.influence(player) & s.bit() != 0 {
                tokens.push(Token {
                    label: player.letter().to_string(),
                    side: Some(colour(pos.army_of(player))),
                    shape: Shape::Marker,
                });
            }
        }
    }
    for player in [Player::Above, Player::Below] {
        let side = colour(pos.army_of(player));
        let panel = &mut panels[board_of(player)];
        for (bits, letter) in [(pos.princes(player), "P"), (pos.commander(player), "C")] {
            for s in Bits(bits) {
                let at = cell(board_of(player), s);
                panel
                    .cell_mut(at.row, at.col)
                    .tokens
                    .push(Token::piece(letter, side));
            }
        }
    }
    let names = [Player::Above, Player::Below].map(|p| format!("{p} ({})", pos.army_of(p)));
    let outcome = pos.outcome(1);
    let mut caption = game::draw::caption(
        GameState::side(pos),
        outcome,
        [names[0].as_str(), names[1].as_str()],
    );
    if outcome.is_none() && pos.in_check() {
        caption.push_str(", in check");
    }
    caption.push_str(&format!("; clock {}; move {}", pos.clock(), pos.fullmove()));
    Drawing { panels, caption }
}

/// The cells a move goes from and to: on the middle board for a middle
/// move (an accompanying influence piece is not drawn), on the mover's
/// board for an influence move.
pub(crate) fn move_cells(pos: &Position, m: Move) -> Option<(CellRef, CellRef)> {
    let panel = if m.is_middle() {
        MIDDLE
    } else {
        board_of(pos.turn())
    };
    Some((cell(panel, m.from()), cell(panel, m.to())))
}
