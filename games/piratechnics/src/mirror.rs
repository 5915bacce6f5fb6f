//! The file mirror (a↔f on the standard board). The rules are symmetric
//! under it (the start position is not), so a mirrored position with its
//! mirrored moves is another valid training sample.

use crate::moves::Move;
use crate::position::Position;
use crate::types::{Bitboard, Color, Kind, Piece};
use crate::variant::Variant;

impl Position {
    /// This position with files mirrored.
    pub fn mirror(&self) -> Position {
        let v = self.variant;
        let mut p = Position::empty(v);
        for sq in Bitboard(self.ships) {
            let t = v.mirror(sq);
            let crew = self.cells[sq.index()];
            p.set_ship(t, crew);
            for c in Color::ALL {
                if crew.count(Piece::new(c, Kind::King)) > 0 {
                    p.kings[c.index()] = t;
                }
            }
        }
        p.side = self.side;
        p.reversal = self.reversal.map(|(a, b)| (v.mirror(a), v.mirror(b)));
        p.clock = self.clock;
        p.fullmove = self.fullmove;
        p.hash = p.compute_hash();
        p
    }
}

impl Move {
    /// This move with files mirrored.
    pub fn mirror(self, variant: &Variant) -> Move {
        Move {
            from: variant.mirror(self.from),
            to: variant.mirror(self.to),
            ..self
        }
    }
}
