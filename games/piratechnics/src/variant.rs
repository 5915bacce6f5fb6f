//! Board geometry and rule parameters of a game variant.
//!
//! The standard game is a 6×8 board without its four corners and ships of
//! capacity 3. The inventor sketched other shapes (an 8×8 board, other
//! capacities and start positions); they are values of [`Variant`], not new
//! code. A variant owns every precomputed table move generation needs, and
//! positions hold a `&'static Variant` so that copying a position stays a
//! plain memory copy.

use crate::error::VariantError;
use crate::types::{Bitboard, Color, Square};
use std::sync::OnceLock;

// Ray directions: the first four increase the square index, the last four
// decrease it, which tells slider code which end of a ray is nearest.
pub(crate) use game::chess::{DIAGONAL, ORTHOGONAL, RAY_DIRECTIONS as DIRS};

/// A board shape, ship capacity and start position, with its lookup tables.
#[derive(Debug)]
pub struct Variant {
    pub name: String,
    pub width: u8,
    pub height: u8,
    /// Most crew one ship may hold (1..=6).
    pub capacity: u8,
    /// The cells that exist.
    pub cells: Bitboard,
    /// Each side's own half (pawns may step several cells inside it).
    pub half: [Bitboard; 2],
    /// Each side's promotion cells: the last cell of every file going forward.
    pub promotion: [Bitboard; 2],
    /// The start position as TFEN.
    pub start_tfen: String,
    pub(crate) knight: [Bitboard; 64],
    pub(crate) king: [Bitboard; 64],
    /// Cells a pawn of each colour on a cell captures on.
    pub(crate) pawn_capture: [[Bitboard; 64]; 2],
    /// Cells from which a pawn of each colour captures onto a cell.
    pub(crate) pawn_attackers: [[Bitboard; 64]; 2],
    /// The cell one step forward for each colour (empty when off the board).
    pub(crate) pawn_step: [[Bitboard; 64]; 2],
    pub(crate) rays: [[Bitboard; 8]; 64],
}

/// The standard start position (RULES.md §9.1).
pub const STANDARD_START: &str = "[rbn][qrb][kbn][rbn]/[ppp][ppp][ppp][ppp][ppp][ppp]/6/6/6/6/[PPP][PPP][PPP][PPP][PPP][PPP]/[RBN][QRB][KBN][RBN] w - 0 1";

impl Variant {
    /// The standard PiRaTeKnIcS board: 6×8 without corners, capacity 3.
    pub fn standard() -> &'static Variant {
        static STD: OnceLock<Variant> = OnceLock::new();
        STD.get_or_init(|| {
            let corners = [(0, 0), (5, 0), (0, 7), (5, 7)]
                .iter()
                .map(|&(f, r)| Square::new(f, r))
                .collect::<Vec<_>>();
            Variant::build("standard", 6, 8, 3, &corners, STANDARD_START)
                .expect("the standard variant is valid")
        })
    }

    /// Builds a variant and leaks it so positions can refer to it for the
    /// rest of the program (variants are created a handful of times per run).
    pub fn custom(
        name: &str,
        width: u8,
        height: u8,
        capacity: u8,
        missing: &[Square],
        start_tfen: &str,
    ) -> Result<&'static Variant, VariantError> {
        let v = Variant::build(name, width, height, capacity, missing, start_tfen)?;
        Ok(Box::leak(Box::new(v)))
    }

    fn build(
        name: &str,
        width: u8,
        height: u8,
        capacity: u8,
        missing: &[Square],
        start_tfen: &str,
    ) -> Result<Variant, VariantError> {
        if !(2..=8).contains(&width) || !(4..=8).contains(&height) || !height.is_multiple_of(2) {
            return Err(VariantError::Board { width, height });
        }
        if !(1..=6).contains(&capacity) {
            return Err(VariantError::Capacity { capacity });
        }
        let mut cells = 0u64;
        for r in 0..height {
            for f in 0..width {
                cells |= Square::new(f, r).bit();
            }
        }
        for sq in missing {
            cells &= !sq.bit();
        }
        let exists = |f: i8, r: i8| -> Option<Square> {
            if f < 0 || r < 0 || f >= width as i8 || r >= height as i8 {
                return None;
            }
            let s = Square::new(f as u8, r as u8);
            (cells & s.bit() != 0).then_some(s)
        };
        let mut v = Variant {
            name: name.to_string(),
            width,
            height,
            capacity,
            cells: Bitboard(cells),
            half: [Bitboard(0); 2],
            promotion: [Bitboard(0); 2],
            start_tfen: start_tfen.to_string(),
            knight: [Bitboard(0); 64],
            king: [Bitboard(0); 64],
            pawn_capture: [[Bitboard(0); 64]; 2],
            pawn_attackers: [[Bitboard(0); 64]; 2],
            pawn_step: [[Bitboard(0); 64]; 2],
            rays: [[Bitboard(0); 8]; 64],
        };
        for s in Bitboard(cells) {
            let (f, r) = (s.file() as i8, s.rank() as i8);
            if (r as u8) < height / 2 {
                v.half[0].0 |= s.bit();
            } else {
                v.half[1].0 |= s.bit();
            }
            for (df, dr) in game::chess::KNIGHT_LEAPS {
                if let Some(t) = exists(f + df, r + dr) {
                    v.knight[s.index()].0 |= t.bit();
                }
            }
            for (d, &(df, dr)) in DIRS.iter().enumerate() {
                if let Some(t) = exists(f + df, r + dr) {
                    v.king[s.index()].0 |= t.bit();
                }
                // A ray stops at the first cell that does not exist.
                let (mut x, mut y) = (f + df, r + dr);
                while let Some(t) = exists(x, y) {
                    v.rays[s.index()][d].0 |= t.bit();
                    x += df;
                    y += dr;
                }
            }
            for color in Color::ALL {
                let dr = if color == Color::White { 1 } else { -1 };
                if let Some(t) = exists(f, r + dr) {
                    v.pawn_step[color.index()][s.index()].0 |= t.bit();
                }
                for df in [-1, 1] {
                    if let Some(t) = exists(f + df, r + dr) {
                        v.pawn_capture[color.index()][s.index()].0 |= t.bit();
                        v.pawn_attackers[color.index()][t.index()].0 |= s.bit();
                    }
                }
            }
        }
        // Promotion cells: the last existing cell of each file, going forward.
        for f in 0..width as i8 {
            if let Some(s) = (0..height as i8).rev().find_map(|r| exists(f, r)) {
                v.promotion[0].0 |= s.bit();
            }
            if let Some(s) = (0..height as i8).find_map(|r| exists(f, r)) {
                v.promotion[1].0 |= s.bit();
            }
        }
        Ok(v)
    }

    #[inline]
    pub fn exists(&self, sq: Square) -> bool {
        self.cells.has(sq)
    }

    /// Cells a knight on `sq` reaches.
    #[inline]
    pub fn knight_reach(&self, sq: Square) -> u64 {
        self.knight[sq.index()].0
    }

    /// Cells a king on `sq` reaches.
    #[inline]
    pub fn king_reach(&self, sq: Square) -> u64 {
        self.king[sq.index()].0
    }

    /// Cells a pawn of `color` on `sq` captures on.
    #[inline]
    pub fn pawn_capture_reach(&self, color: Color, sq: Square) -> u64 {
        self.pawn_capture[color.index()][sq.index()].0
    }

    /// The cell one step forward for a pawn of `color` on `sq` (0 when off
    /// the board).
    #[inline]
    pub fn pawn_step(&self, color: Color, sq: Square) -> u64 {
        self.pawn_step[color.index()][sq.index()].0
    }

    /// Sliding reach from `sq` along direction `dir`, stopping at (and
    /// including) the first cell in `blockers`.
    #[inline]
    pub(crate) fn slide(&self, sq: Square, dir: usize, blockers: u64) -> u64 {
        let ray = self.rays[sq.index()][dir].0;
        let hit = ray & blockers;
        if hit == 0 {
            return ray;
        }
        let first = if dir < 4 {
            hit.trailing_zeros()
        } else {
            63 - hit.leading_zeros()
        };
        ray ^ self.rays[first as usize][dir].0
    }

    #[inline]
    pub fn rook_reach(&self, sq: Square, blockers: u64) -> u64 {
        ORTHOGONAL
            .iter()
            .fold(0, |a, &d| a | self.slide(sq, d, blockers))
    }

    #[inline]
    pub fn bishop_reach(&self, sq: Square, blockers: u64) -> u64 {
        DIAGONAL
            .iter()
            .fold(0, |a, &d| a | self.slide(sq, d, blockers))
    }

    /// Where a pawn of `color` on `sq` can go without capturing (RULES.md §4):
    /// any distance straight forward while start and end are in its own half,
    /// else one step; never through a blocking cell.
    #[inline]
    pub fn pawn_push(&self, color: Color, sq: Square, blockers: u64) -> u64 {
        let step = self.pawn_step[color.index()][sq.index()].0;
        let half = self.half[color.index()].0;
        if half & sq.bit() != 0 {
            let dir = if color == Color::White { 0 } else { 4 };
            step | (self.slide(sq, dir, blockers) & half)
        } else {
            step
        }
    }

    /// The file-mirrored square (a↔f on the standard board).
    #[inline]
    pub fn mirror(&self, sq: Square) -> Square {
        sq.mirror_file(self.width)
    }

    /// Whether the variant is symmetric under the file mirror (so mirrored
    /// training samples are valid).
    pub fn mirror_symmetric(&self) -> bool {
        Bitboard(self.cells.0).all(|s| self.exists(self.mirror(s)))
    }
}
