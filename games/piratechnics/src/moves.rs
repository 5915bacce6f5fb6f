//! Moves: identity, the compact `u32` code and the features the network sees.
//!
//! A [`Move`] carries exactly what RULES.md §8 says makes two moves the
//! same: kind, origin, destination, the multiset of moving own crew (crew
//! moves only; a ship move takes the whole ship), the captured crewman and the
//! multiset of promotion choices. Which crewman leads or pilots is not part
//! of it, so two leaders that reach the same ship give one move.

use crate::crew::{KindCounts, PromoCounts};
use crate::types::{Color, Kind, Piece, Square};
use std::sync::OnceLock;

/// Ship move (sails a whole ship) or crew move (sends crew to another ship).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MoveKind {
    Ship = 0,
    Crew = 1,
}

/// One move. 12 bytes, `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub(crate) from: Square,
    pub(crate) to: Square,
    /// Bit 7: crew move. Low 4 bits: captured piece index + 1, 0 for none.
    pub(crate) flags: u8,
    pub(crate) moving: KindCounts,
    pub(crate) promo: PromoCounts,
}

impl Move {
    /// A ship move. `promo` holds one choice per own pawn aboard when the
    /// destination is one of the mover's promotion cells.
    #[inline]
    pub fn ship(from: Square, to: Square, promo: PromoCounts) -> Move {
        Move {
            from,
            to,
            flags: 0,
            moving: KindCounts::EMPTY,
            promo,
        }
    }

    /// A crew move of the own crew `moving` (never empty).
    #[inline]
    pub fn crew(
        from: Square,
        to: Square,
        moving: KindCounts,
        captured: Option<Piece>,
        promo: PromoCounts,
    ) -> Move {
        let cap = captured.map_or(0, |p| p.index() as u8 + 1);
        Move {
            from,
            to,
            flags: 0x80 | cap,
            moving,
            promo,
        }
    }

    #[inline]
    pub fn kind(self) -> MoveKind {
        if self.flags & 0x80 != 0 {
            MoveKind::Crew
        } else {
            MoveKind::Ship
        }
    }
    #[inline]
    pub fn is_ship(self) -> bool {
        self.flags & 0x80 == 0
    }
    #[inline]
    pub fn from(self) -> Square {
        self.from
    }
    #[inline]
    pub fn to(self) -> Square {
        self.to
    }
    /// The own crew that travel in a crew move (empty for a ship move).
    #[inline]
    pub fn moving(self) -> KindCounts {
        self.moving
    }
    #[inline]
    pub fn captured(self) -> Option<Piece> {
        let c = self.flags & 0x0F;
        (c != 0).then(|| Piece::from_index(c as usize - 1))
    }
    #[inline]
    pub fn is_capture(self) -> bool {
        self.flags & 0x0F != 0
    }
    #[inline]
    pub fn promotions(self) -> PromoCounts {
        self.promo
    }

    /// The compact code: bit 0 kind, bits 1–6 origin, 7–12 destination,
    /// 13–16 captured piece (+1), 17–29 an index into the table of
    /// (moving crew, promotions) pairs. Round-trips through [`Move::from_code`].
    pub fn code(self) -> u32 {
        let combo = combo_index(self.moving, self.promo).expect("move within capacity 6");
        (self.kind() as u32)
            | (self.from.index() as u32) << 1
            | (self.to.index() as u32) << 7
            | ((self.flags & 0x0F) as u32) << 13
            | combo << 17
    }

    /// Decodes a code made by [`Move::code`]; `None` for a value no move has.
    pub fn from_code(code: u32) -> Option<Move> {
        let kind = code & 1;
        let from = Square::from_index(((code >> 1) & 63) as usize);
        let to = Square::from_index(((code >> 7) & 63) as usize);
        let cap = ((code >> 13) & 0xF) as u8;
        let combo = (code >> 17) as usize;
        if cap > 12 || code >> 30 != 0 {
            return None;
        }
        let &(moving, promo) = combos().get(combo)?;
        if (kind == 0) != moving.is_empty() || (kind == 0 && cap != 0) {
            return None;
        }
        Some(Move {
            from,
            to,
            flags: if kind == 1 { 0x80 | cap } else { 0 },
            moving,
            promo,
        })
    }

    /// The features the policy head embeds, from the mover's side.
    pub fn features(self, mover: Color) -> MoveFeatures {
        let mut moving = [0u8; 6];
        for k in Kind::ALL {
            moving[k.index()] = self.moving.get(k) as u8;
        }
        let mut promotions = [0u8; 4];
        for (i, k) in [Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen]
            .into_iter()
            .enumerate()
        {
            promotions[i] = self.promo.get(k) as u8;
        }
        MoveFeatures {
            is_crew: !self.is_ship(),
            from: self.from,
            to: self.to,
            moving,
            captured: self.captured().map(|p| (p.kind, p.color == mover)),
            promotions,
        }
    }
}

/// What the network is told about a move besides its two cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveFeatures {
    pub is_crew: bool,
    pub from: Square,
    pub to: Square,
    /// Moving own crew per kind (P N B R Q K); zero for ship moves.
    pub moving: [u8; 6],
    /// Captured kind, and whether it was the mover's own crewman.
    pub captured: Option<(Kind, bool)>,
    /// Promotion choices per kind (N B R Q).
    pub promotions: [u8; 4],
}

/// All (moving, promotions) pairs a move can carry on ships of capacity up
/// to 6, sorted, so a pair's index is its code.
fn combos() -> &'static [(KindCounts, PromoCounts)] {
    static TABLE: OnceLock<Vec<(KindCounts, PromoCounts)>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut v = Vec::new();
        let full = KindCounts(0x66_6666);
        full.for_each_subset(|m| {
            // (`total()` assumes a real ship's counts; sum exactly here.)
            if Kind::ALL.iter().map(|&k| m.get(k)).sum::<u32>() > 6 {
                return;
            }
            let pawns = m.get(Kind::Pawn);
            if m.is_empty() {
                // Ship moves: any number of promotions of the ship's own pawns.
                for n in 0..=6 {
                    PromoCounts::for_each_of_size(n, |p| v.push((m, p)));
                }
            } else {
                v.push((m, PromoCounts::NONE));
                if pawns > 0 {
                    PromoCounts::for_each_of_size(pawns, |p| v.push((m, p)));
                }
            }
        });
        v.sort();
        v.dedup();
        v
    })
}

fn combo_index(m: KindCounts, p: PromoCounts) -> Option<u32> {
    combos().binary_search(&(m, p)).ok().map(|i| i as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn combo_table_fits_13_bits() {
        assert!(combos().len() < 1 << 13, "{}", combos().len());
    }
}
