//! The small types of the rules: squares of the 7×4 boards, the two armies
//! of the middle board, the two players who steer them, the pieces of each
//! board and the moves (RULES.md §1, §2, §10).

use std::fmt;

/// Squares per board (4 files × 7 ranks).
pub const SQUARES: usize = 28;
/// Files per rank.
pub const FILES: u8 = 4;
/// Ranks per file.
pub const RANKS: u8 = 7;
/// Every square of a board as a bit set.
pub const ALL: u32 = (1 << SQUARES) - 1;

/// A square of any of the three boards: `index = (rank-1)*4 + file`, `a1` = 0,
/// `d7` = 27 (RULES.md §1). The three boards share the coordinates: a square
/// *corresponds* to the square of the same index on the other two.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square of `index` (`< 28`, checked in debug builds).
    #[inline]
    pub const fn new(index: u8) -> Square {
        debug_assert!((index as usize) < SQUARES);
        Square(index)
    }
    /// The square on 0-based `file` (a = 0) and `rank` (rank 1 = 0).
    #[inline]
    pub const fn at(file: u8, rank: u8) -> Square {
        Square(rank * FILES + file)
    }
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }
    /// 0-based rank (rank 1 is 0).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }
    #[inline]
    pub const fn bit(self) -> u32 {
        1 << self.0
    }
    /// Reads `a1` … `d7`; `None` for anything else.
    pub fn parse(text: &str) -> Option<Square> {
        let b = text.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let f = b[0].wrapping_sub(b'a');
        let r = b[1].wrapping_sub(b'1');
        (f < FILES && r < RANKS).then(|| Square::at(f, r))
    }
    /// This square mirrored left to right (a ↔ d).
    #[inline]
    pub const fn mirror_file(self) -> Square {
        Square::at(FILES - 1 - self.file(), self.rank())
    }
    /// This square mirrored top to bottom (rank 1 ↔ rank 7).
    #[inline]
    pub const fn mirror_rank(self) -> Square {
        Square::at(self.file(), RANKS - 1 - self.rank())
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// Iterates the squares of a bit set, lowest index first.
#[derive(Clone, Copy)]
pub struct Bits(pub u32);

impl Iterator for Bits {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Square(i as u8))
    }
}

/// One of the two chess armies of the middle board. Neither belongs to a
/// player (RULES.md §2.1, §4). White's pawns move towards rank 7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Army {
    White = 0,
    Black = 1,
}

impl Army {
    pub const BOTH: [Army; 2] = [Army::White, Army::Black];
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
    #[inline]
    pub const fn other(self) -> Army {
        match self {
            Army::White => Army::Black,
            Army::Black => Army::White,
        }
    }
    /// `w` or `b`, as in the position string's army field.
    pub const fn letter(self) -> char {
        match self {
            Army::White => 'w',
            Army::Black => 'b',
        }
    }
    /// The 0-based rank where this army's pawns promote.
    #[inline]
    pub const fn last_rank(self) -> u8 {
        match self {
            Army::White => RANKS - 1,
            Army::Black => 0,
        }
    }
}

impl fmt::Display for Army {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Army::White => "White",
            Army::Black => "Black",
        })
    }
}

/// One of the two players, each with his own influence board. Above moves
/// first, so he sits in the toolkit's first seat (`game::Color::White`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    Above = 0,
    Below = 1,
}

impl Player {
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
    #[inline]
    pub const fn other(self) -> Player {
        match self {
            Player::Above => Player::Below,
            Player::Below => Player::Above,
        }
    }
    /// `A` or `B`, as in the position string's turn field.
    pub const fn letter(self) -> char {
        match self {
            Player::Above => 'A',
            Player::Below => 'B',
        }
    }
    /// The toolkit's seat: Above is the first player.
    #[inline]
    pub const fn seat(self) -> game::Color {
        match self {
            Player::Above => game::Color::White,
            Player::Below => game::Color::Black,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::Above => "Above",
            Player::Below => "Below",
        })
    }
}

/// A kind of middle-board piece. The armies have no bishop (RULES.md §2.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Pawn = 0,
    Knight = 1,
    Rook = 2,
    Queen = 3,
    King = 4,
}

impl Kind {
    pub const ALL: [Kind; 5] = [
        Kind::Pawn,
        Kind::Knight,
        Kind::Rook,
        Kind::Queen,
        Kind::King,
    ];
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
    #[inline]
    pub const fn from_index(i: usize) -> Kind {
        Kind::ALL[i]
    }
    /// The upper-case letter (White's), `P N R Q K`.
    pub const fn letter(self) -> char {
        match self {
            Kind::Pawn => 'P',
            Kind::Knight => 'N',
            Kind::Rook => 'R',
            Kind::Queen => 'Q',
            Kind::King => 'K',
        }
    }
}

/// A piece of the middle board: its army and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub army: Army,
    pub kind: Kind,
}

impl Piece {
    /// The letter of position strings: upper case White, lower case Black.
    pub fn letter(self) -> char {
        let c = self.kind.letter();
        match self.army {
            Army::White => c,
            Army::Black => c.to_ascii_lowercase(),
        }
    }
    /// Reads a piece letter `KQRNP`/`kqrnp`.
    pub fn from_letter(c: char) -> Option<Piece> {
        let kind = match c.to_ascii_uppercase() {
            'P' => Kind::Pawn,
            'N' => Kind::Knight,
            'R' => Kind::Rook,
            'Q' => Kind::Queen,
            'K' => Kind::King,
            _ => return None,
        };
        let army = if c.is_ascii_uppercase() {
            Army::White
        } else {
            Army::Black
        };
        Some(Piece { army, kind })
    }
}

/// What a pawn becomes on its last rank (RULES.md §7): none, or a queen,
/// rook or knight of its own army.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Promotion {
    None = 0,
    Queen = 1,
    Rook = 2,
    Knight = 3,
}

impl Promotion {
    #[inline]
    pub const fn from_bits(b: u16) -> Promotion {
        match b & 3 {
            0 => Promotion::None,
            1 => Promotion::Queen,
            2 => Promotion::Rook,
            _ => Promotion::Knight,
        }
    }
    /// The piece kind a promotion makes (`None` for no promotion).
    #[inline]
    pub const fn kind(self) -> Option<Kind> {
        match self {
            Promotion::None => None,
            Promotion::Queen => Some(Kind::Queen),
            Promotion::Rook => Some(Kind::Rook),
            Promotion::Knight => Some(Kind::Knight),
        }
    }
    pub const fn letter(self) -> Option<char> {
        match self {
            Promotion::None => None,
            Promotion::Queen => Some('Q'),
            Promotion::Rook => Some('R'),
            Promotion::Knight => Some('N'),
        }
    }
}

/// A move (RULES.md §10): the tuple (kind, from, to, promotion,
/// accompanied), packed in 14 bits: `from` (5), `to` (5), promotion (2),
/// accompanied (1), middle move (1). Two moves are equal exactly when the
/// five fields agree.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u16);

/// Actions of the suggested fixed index of RULES.md §10 (784 influence
/// moves, 6272 middle moves).
pub const ACTIONS: u32 = 7056;
const INFLUENCE_ACTIONS: u32 = (SQUARES * SQUARES) as u32;
const MIDDLE_BIT: u16 = 1 << 13;
const ACCOMPANIED_BIT: u16 = 1 << 12;

impl Move {
    /// An influence move of the mover's own piece on `from`.
    #[inline]
    pub const fn influence(from: Square, to: Square) -> Move {
        Move(from.0 as u16 | (to.0 as u16) << 5)
    }
    /// A middle-board move, with its promotion and whether the influence
    /// piece on `from` makes the same move.
    #[inline]
    pub const fn middle(from: Square, to: Square, promotion: Promotion, accompanied: bool) -> Move {
        Move(
            from.0 as u16
                | (to.0 as u16) << 5
                | (promotion as u16) << 10
                | if accompanied { ACCOMPANIED_BIT } else { 0 }
                | MIDDLE_BIT,
        )
    }
    #[inline]
    pub const fn from(self) -> Square {
        Square((self.0 & 31) as u8)
    }
    #[inline]
    pub const fn to(self) -> Square {
        Square((self.0 >> 5 & 31) as u8)
    }
    #[inline]
    pub const fn promotion(self) -> Promotion {
        Promotion::from_bits(self.0 >> 10)
    }
    #[inline]
    pub const fn is_accompanied(self) -> bool {
        self.0 & ACCOMPANIED_BIT != 0
    }
    /// Whether this moves a piece of the middle board (else it moves one of
    /// the mover's influence pieces).
    #[inline]
    pub const fn is_middle(self) -> bool {
        self.0 & MIDDLE_BIT != 0
    }

    /// The fixed action index of RULES.md §10: influence `from*28 + to`
    /// (0–783), middle `784 + ((from*28 + to)*4 + p)*2 + a` (784–7055).
    #[inline]
    pub const fn code(self) -> u32 {
        let ft = self.from().0 as u32 * SQUARES as u32 + self.to().0 as u32;
        if self.is_middle() {
            INFLUENCE_ACTIONS
                + (ft * 4 + self.promotion() as u32) * 2
                + self.is_accompanied() as u32
        } else {
            ft
        }
    }

    /// The move of an action index; `None` for an index no move has (out of
    /// range, or `from == to`).
    pub const fn from_code(code: u32) -> Option<Move> {
        if code >= ACTIONS {
            return None;
        }
        let (ft, middle, p, a) = if code < INFLUENCE_ACTIONS {
            (code, false, 0, false)
        } else {
            let c = code - INFLUENCE_ACTIONS;
            (c / 8, true, (c / 2) % 4, c % 2 == 1)
        };
        let from = (ft / SQUARES as u32) as u8;
        let to = (ft % SQUARES as u32) as u8;
        if from == to {
            return None;
        }
        Some(if middle {
            Move::middle(Square(from), Square(to), Promotion::from_bits(p as u16), a)
        } else {
            Move::influence(Square(from), Square(to))
        })
    }

    /// This move with both squares mapped by `f` (the symmetries).
    #[inline]
    pub fn map_squares(self, f: impl Fn(Square) -> Square) -> Move {
        let rest = self.0 & !0x3FF;
        Move(rest | f(self.from()).0 as u16 | (f(self.to()).0 as u16) << 5)
    }
}

impl fmt::Debug for Move {
    /// Context-free text: the position-aware text is
    /// `Position::move_text` (which knows the influence piece's letter and
    /// whether the move captures).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.is_middle() {
            return write!(f, "I{}-{}", self.from(), self.to());
        }
        write!(f, "{}-{}", self.from(), self.to())?;
        if let Some(c) = self.promotion().letter() {
            write!(f, "={c}")?;
        }
        if self.is_accompanied() {
            f.write_str("&")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_follow_the_rule_book_index() {
        assert_eq!(Square::parse("a1").unwrap().index(), 0);
        assert_eq!(Square::parse("d1").unwrap().index(), 3);
        assert_eq!(Square::parse("a7").unwrap().index(), 24);
        assert_eq!(Square::parse("d7").unwrap().index(), 27);
        assert_eq!(Square::parse("e1"), None);
        assert_eq!(Square::parse("a8"), None);
        assert_eq!(Square::parse("b3").unwrap().to_string(), "b3");
    }

    #[test]
    fn every_action_index_round_trips() {
        let mut n = 0;
        for code in 0..ACTIONS + 10 {
            if let Some(m) = Move::from_code(code) {
                assert_eq!(m.code(), code);
                n += 1;
            }
        }
        // 28 codes with from == to in each of the 9 groups are not moves.
        assert_eq!(n, ACTIONS - 28 * 9);
    }
}
