//! Small strongly typed values: colours, crew kinds, pieces and squares.
//!
//! Squares use an 8-wide layout (`index = rank * 8 + file`) whatever the
//! variant's real width, so one `u64` bitboard covers every board up to 8×8
//! and the geometry of a variant is a mask plus precomputed tables.

use std::fmt;

pub use game::Color;

/// A crew kind. The order is by rising value; it fixes the bit layout of
/// [`crate::Crew`] and [`crate::KindCounts`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl Kind {
    /// Rising value: pawn, knight, bishop, rook, queen, king.
    pub const ALL: [Kind; 6] = [
        Kind::Pawn,
        Kind::Knight,
        Kind::Bishop,
        Kind::Rook,
        Kind::Queen,
        Kind::King,
    ];
    /// The order crew letters are written in (TFEN and canonical moves).
    pub const WRITING_ORDER: [Kind; 6] = [
        Kind::King,
        Kind::Queen,
        Kind::Rook,
        Kind::Bishop,
        Kind::Knight,
        Kind::Pawn,
    ];
    /// What a pawn may promote to, in writing order.
    pub const PROMOTIONS: [Kind; 4] = [Kind::Queen, Kind::Rook, Kind::Bishop, Kind::Knight];

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub fn from_index(i: usize) -> Kind {
        Kind::ALL[i]
    }

    /// Upper-case letter: `P N B R Q K`.
    pub fn letter(self) -> char {
        ['P', 'N', 'B', 'R', 'Q', 'K'][self.index()]
    }

    /// Parses a letter of either case.
    pub fn from_letter(c: char) -> Option<Kind> {
        match c.to_ascii_uppercase() {
            'P' => Some(Kind::Pawn),
            'N' => Some(Kind::Knight),
            'B' => Some(Kind::Bishop),
            'R' => Some(Kind::Rook),
            'Q' => Some(Kind::Queen),
            'K' => Some(Kind::King),
            _ => None,
        }
    }

    /// Index among the promotion kinds (knight 0, bishop 1, rook 2, queen 3).
    #[inline]
    pub fn promotion_index(self) -> Option<usize> {
        match self {
            Kind::Knight => Some(0),
            Kind::Bishop => Some(1),
            Kind::Rook => Some(2),
            Kind::Queen => Some(3),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        ["pawn", "knight", "bishop", "rook", "queen", "king"][self.index()]
    }
}

/// A crewman: a kind and a colour. Index `color * 6 + kind` (0..12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    pub color: Color,
    pub kind: Kind,
}

impl Piece {
    #[inline]
    pub fn new(color: Color, kind: Kind) -> Piece {
        Piece { color, kind }
    }

    #[inline]
    pub fn index(self) -> usize {
        self.color.index() * 6 + self.kind.index()
    }

    #[inline]
    pub fn from_index(i: usize) -> Piece {
        Piece {
            color: if i < 6 { Color::White } else { Color::Black },
            kind: Kind::from_index(i % 6),
        }
    }

    /// The TFEN letter: upper case for White, lower case for Black.
    pub fn letter(self) -> char {
        let c = self.kind.letter();
        match self.color {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    pub fn from_letter(c: char) -> Option<Piece> {
        let kind = Kind::from_letter(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, kind })
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A cell of the board, `rank * 8 + file` with file 0 = `a`, rank 0 = `1`.
/// Whether the cell exists is a question for the [`crate::Variant`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    #[inline]
    pub fn new(file: u8, rank: u8) -> Square {
        debug_assert!(file < 8 && rank < 8);
        Square(rank * 8 + file)
    }

    #[inline]
    pub fn from_index(i: usize) -> Square {
        debug_assert!(i < 64);
        Square(i as u8)
    }

    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub fn file(self) -> u8 {
        self.0 & 7
    }

    #[inline]
    pub fn rank(self) -> u8 {
        self.0 >> 3
    }

    #[inline]
    pub fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// The square with the file mirrored within a board `width` files wide.
    #[inline]
    pub fn mirror_file(self, width: u8) -> Square {
        Square::new(width - 1 - self.file(), self.rank())
    }

    /// The square with the rank mirrored within a board `height` ranks high.
    #[inline]
    pub fn mirror_rank(self, height: u8) -> Square {
        Square::new(self.file(), height - 1 - self.rank())
    }

    /// Parses `a1`..`h8` (lower case). Existence on a board is checked by the caller.
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let f = b[0].wrapping_sub(b'a');
        let r = b[1].wrapping_sub(b'1');
        if f < 8 && r < 8 {
            Some(Square::new(f, r))
        } else {
            None
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}

/// A set of squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);

    #[inline]
    pub fn has(self, sq: Square) -> bool {
        self.0 & sq.bit() != 0
    }
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    #[inline]
    pub fn count(self) -> u32 {
        self.0.count_ones()
    }
    #[inline]
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square(self.0.trailing_zeros() as u8))
        }
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let s = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(Square(s))
        }
    }
}

macro_rules! bb_op {
    ($tr:ident, $f:ident, $op:tt, $tra:ident, $fa:ident) => {
        impl std::ops::$tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, o: Bitboard) -> Bitboard { Bitboard(self.0 $op o.0) }
        }
        impl std::ops::$tra for Bitboard {
            #[inline]
            fn $fa(&mut self, o: Bitboard) { self.0 = self.0 $op o.0; }
        }
    };
}
bb_op!(BitAnd, bitand, &, BitAndAssign, bitand_assign);
bb_op!(BitOr, bitor, |, BitOrAssign, bitor_assign);
bb_op!(BitXor, bitxor, ^, BitXorAssign, bitxor_assign);

impl std::ops::Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}
