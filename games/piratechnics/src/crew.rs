//! Ship contents as packed counts.
//!
//! A ship holds an unordered multiset of crew, so it is stored as counts:
//! [`Crew`] keeps one 4-bit count per piece (12 pieces, White's six kinds in
//! the low 24 bits, Black's in the next 24) and [`KindCounts`] keeps one
//! colour's six counts. Adding, removing and comparing whole groups of crew
//! are then single integer operations, which is what move generation and the
//! Zobrist update need. Counts never exceed the ship capacity (at most 6), so
//! nibbles never overflow.

use crate::types::{Color, Kind, Piece};
use std::fmt;

const NIBBLES_6: u64 = 0x11_1111;

/// Counts of each kind for one colour: six 4-bit counts, pawn in the low nibble.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct KindCounts(pub u32);

impl KindCounts {
    pub const EMPTY: KindCounts = KindCounts(0);

    #[inline]
    pub fn one(kind: Kind) -> KindCounts {
        KindCounts(1 << (4 * kind.index()))
    }

    #[inline]
    pub fn get(self, kind: Kind) -> u32 {
        (self.0 >> (4 * kind.index())) & 0xF
    }

    #[inline]
    pub fn total(self) -> u32 {
        // Each nibble of the product holds a running sum; the sixth holds them all.
        ((self.0 as u64 * NIBBLES_6) >> 20) as u32 & 0xF
    }

    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Bit `k` set when at least one crewman of kind `k` is counted.
    #[inline]
    pub fn kind_mask(self) -> u8 {
        let mut m = 0u8;
        let mut x = self.0;
        let mut k = 0;
        while x != 0 {
            if x & 0xF != 0 {
                m |= 1 << k;
            }
            x >>= 4;
            k += 1;
        }
        m
    }

    #[inline]
    #[allow(clippy::should_implement_trait)] // by value, no overflow semantics
    pub fn add(self, other: KindCounts) -> KindCounts {
        KindCounts(self.0 + other.0)
    }

    /// `self - other`; the caller guarantees `other` is contained in `self`.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn sub(self, other: KindCounts) -> KindCounts {
        debug_assert!(self.contains(other));
        KindCounts(self.0 - other.0)
    }

    /// Whether every count of `other` is at most the matching count here.
    #[inline]
    pub fn contains(self, other: KindCounts) -> bool {
        Kind::ALL.iter().all(|&k| other.get(k) <= self.get(k))
    }

    #[inline]
    pub fn with(self, kind: Kind, n: u32) -> KindCounts {
        let shift = 4 * kind.index();
        KindCounts((self.0 & !(0xF << shift)) | (n << shift))
    }

    /// Every sub-multiset, the empty one first, in a fixed order.
    pub fn for_each_subset(self, mut f: impl FnMut(KindCounts)) {
        // Mixed-radix counter over the six counts.
        let mut cur = 0u32;
        loop {
            f(KindCounts(cur));
            // Increment.
            let mut k = 0;
            loop {
                if k == 6 {
                    return;
                }
                let shift = 4 * k;
                let c = (cur >> shift) & 0xF;
                let lim = (self.0 >> shift) & 0xF;
                if c < lim {
                    cur += 1 << shift;
                    break;
                }
                cur &= !(0xF << shift);
                k += 1;
            }
        }
    }

    /// Writes the crew letters in writing order (K Q R B N P), upper case.
    pub fn letters(self) -> String {
        let mut s = String::new();
        for k in Kind::WRITING_ORDER {
            for _ in 0..self.get(k) {
                s.push(k.letter());
            }
        }
        s
    }
}

/// Promotion choices: counts of knights, bishops, rooks and queens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct PromoCounts(pub u16);

impl PromoCounts {
    pub const NONE: PromoCounts = PromoCounts(0);

    #[inline]
    pub fn get(self, kind: Kind) -> u32 {
        match kind.promotion_index() {
            Some(i) => ((self.0 >> (4 * i)) & 0xF) as u32,
            None => 0,
        }
    }

    #[inline]
    pub fn total(self) -> u32 {
        (0..4).map(|i| ((self.0 >> (4 * i)) & 0xF) as u32).sum()
    }

    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn add_one(self, kind: Kind) -> PromoCounts {
        let i = kind.promotion_index().expect("promotion kind");
        PromoCounts(self.0 + (1 << (4 * i)))
    }

    /// The promoted crew as kind counts.
    #[inline]
    pub fn as_kinds(self) -> KindCounts {
        let p = self.0 as u32;
        // Nibbles 0..4 (N B R Q) move to kind nibbles 1..5.
        KindCounts((p & 0xFFFF) << 4)
    }

    /// Calls `f` with every multiset of `n` promotion choices.
    pub fn for_each_of_size(n: u32, mut f: impl FnMut(PromoCounts)) {
        for q in 0..=n {
            for r in 0..=(n - q) {
                for b in 0..=(n - q - r) {
                    let kn = n - q - r - b;
                    f(PromoCounts((kn | (b << 4) | (r << 8) | (q << 12)) as u16));
                }
            }
        }
    }

    /// Letters in writing order (Q R B N), e.g. `QN`.
    pub fn letters(self) -> String {
        let mut s = String::new();
        for k in Kind::PROMOTIONS {
            for _ in 0..self.get(k) {
                s.push(k.letter());
            }
        }
        s
    }
}

/// The crew aboard one ship: a 4-bit count per piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Crew(pub u64);

impl Crew {
    pub const EMPTY: Crew = Crew(0);

    #[inline]
    pub fn of(color: Color, counts: KindCounts) -> Crew {
        Crew((counts.0 as u64) << (24 * color.index()))
    }

    #[inline]
    pub fn count(self, piece: Piece) -> u32 {
        ((self.0 >> (4 * piece.index())) & 0xF) as u32
    }

    #[inline]
    pub fn color(self, color: Color) -> KindCounts {
        KindCounts(((self.0 >> (24 * color.index())) & 0xFF_FFFF) as u32)
    }

    #[inline]
    pub fn total(self) -> u32 {
        (self.0.wrapping_mul(0x1111_1111_1111) >> 44) as u32 & 0xF
    }

    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub fn add(self, color: Color, counts: KindCounts) -> Crew {
        Crew(self.0 + Crew::of(color, counts).0)
    }

    #[inline]
    pub fn sub(self, color: Color, counts: KindCounts) -> Crew {
        Crew(self.0 - Crew::of(color, counts).0)
    }

    #[inline]
    pub fn add_piece(self, p: Piece) -> Crew {
        Crew(self.0 + (1u64 << (4 * p.index())))
    }

    #[inline]
    pub fn remove_piece(self, p: Piece) -> Crew {
        debug_assert!(self.count(p) > 0);
        Crew(self.0 - (1u64 << (4 * p.index())))
    }

    /// Bit `i` set when piece index `i` is aboard.
    #[inline]
    pub fn piece_mask(self) -> u16 {
        let mut m = 0u16;
        let mut x = self.0;
        while x != 0 {
            let i = x.trailing_zeros() / 4;
            m |= 1 << i;
            x &= !(0xF << (4 * i));
        }
        m
    }

    /// Iterates over (piece, count) for every piece aboard.
    pub fn pieces(self) -> impl Iterator<Item = (Piece, u32)> {
        (0..12).filter_map(move |i| {
            let p = Piece::from_index(i);
            let n = self.count(p);
            (n > 0).then_some((p, n))
        })
    }

    /// TFEN contents: White first, each colour in K Q R B N P order.
    pub fn letters(self) -> String {
        let mut s = String::new();
        for color in Color::ALL {
            for k in Kind::WRITING_ORDER {
                let p = Piece::new(color, k);
                for _ in 0..self.count(p) {
                    s.push(p.letter());
                }
            }
        }
        s
    }

    /// The same crew with colours exchanged.
    #[inline]
    pub fn swap_colors(self) -> Crew {
        Crew(((self.0 & 0xFF_FFFF) << 24) | ((self.0 >> 24) & 0xFF_FFFF))
    }
}

impl fmt::Debug for Crew {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}]", self.letters())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_and_subsets() {
        let k = KindCounts::one(Kind::Rook)
            .add(KindCounts::one(Kind::Rook))
            .add(KindCounts::one(Kind::Pawn));
        assert_eq!(k.total(), 3);
        let mut n = 0;
        k.for_each_subset(|s| {
            assert!(k.contains(s));
            n += 1;
        });
        assert_eq!(n, 6); // (0..=1 pawns) x (0..=2 rooks)
        let c = Crew::of(Color::Black, k).add_piece(Piece::new(Color::White, Kind::King));
        assert_eq!(c.total(), 4);
        assert_eq!(c.letters(), "Krrp");
        assert_eq!(c.swap_colors().letters(), "RRPk");
        let mut m = 0;
        PromoCounts::for_each_of_size(2, |p| {
            assert_eq!(p.total(), 2);
            assert_eq!(p.as_kinds().total(), 2);
            m += 1
        });
        assert_eq!(m, 10);
    }
}
