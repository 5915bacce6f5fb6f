//! The board as two bitboards, Pascal Pons's layout: column `c` holds bits
//! `c·(H+1) .. c·(H+1)+H`, row 0 at the bottom, with one empty sentinel bit
//! above each column so that shifts never carry a line from one column into
//! the next. `current` holds the stones of the side to move, `mask` every
//! stone; the key `current + mask` identifies a position uniquely.

use game::GameError;
use std::fmt;

/// Largest board side: lines are found by shifts of up to 3·(H+2) bits.
pub const MAX_SIDE: u8 = 16;

/// A board size: `width` columns of `height` cells, `width·(height+1) ≤ 64`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Size {
    pub width: u8,
    pub height: u8,
}

impl Size {
    pub const STANDARD: Size = Size {
        width: 7,
        height: 6,
    };

    /// A size, or why it is not one (every side 4..=16, and one bit more
    /// than the height per column must fit 64 bits).
    pub fn new(width: u32, height: u32) -> Result<Size, GameError> {
        let side = 4..=MAX_SIDE as u32;
        if !side.contains(&width) || !side.contains(&height) {
            return Err(GameError::options(
                "variant",
                format!("{width}x{height}: width and height must be 4..={MAX_SIDE}"),
            ));
        }
        if width * (height + 1) > 64 {
            return Err(GameError::options(
                "variant",
                format!("{width}x{height}: width x (height + 1) must be at most 64 (the bitboard)"),
            ));
        }
        Ok(Size {
            width: width as u8,
            height: height as u8,
        })
    }

    /// Cells of the board.
    pub fn cells(self) -> u32 {
        self.width as u32 * self.height as u32
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

/// One Connect Four position, with the columns played to reach it (its
/// text is that sequence). A plain copy: no heap data.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// Stones of the side to move.
    pub(crate) current: u64,
    /// Every stone.
    pub(crate) mask: u64,
    /// The bottom cell of every column.
    pub(crate) bottom: u64,
    /// Every cell of the board.
    pub(crate) board: u64,
    pub(crate) size: Size,
    /// Stones played.
    pub(crate) moves: u8,
    /// The last stone completed a line: the game is over.
    pub(crate) won: bool,
    /// The columns played, 0-based, `moves` of them.
    seq: [u8; 64],
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({} {:?})", self.size, self.sequence_text())
    }
}

impl Position {
    /// The empty board.
    pub fn empty(size: Size) -> Position {
        let (w, h1) = (size.width as u32, size.height as u32 + 1);
        let mut bottom = 0u64;
        for c in 0..w {
            bottom |= 1u64 << (c * h1);
        }
        let board = bottom * ((1u64 << size.height) - 1);
        Position {
            current: 0,
            mask: 0,
            bottom,
            board,
            size,
            moves: 0,
            won: false,
            seq: [0; 64],
        }
    }

    pub fn size(&self) -> Size {
        self.size
    }
    /// Stones on the board.
    pub fn moves_played(&self) -> u32 {
        self.moves as u32
    }
    /// Whether the last stone completed a line.
    pub fn is_won(&self) -> bool {
        self.won
    }
    /// Whether the first player is to move.
    pub fn first_to_move(&self) -> bool {
        self.moves.is_multiple_of(2)
    }
    /// The unique key of the position (`current + mask`).
    #[inline]
    pub fn key(&self) -> u64 {
        self.current + self.mask
    }
    /// Columns played, 0-based.
    pub fn sequence(&self) -> &[u8] {
        &self.seq[..self.moves as usize]
    }

    #[inline]
    fn h1(&self) -> u32 {
        self.size.height as u32 + 1
    }
    /// The cells of column `c`.
    #[inline]
    pub(crate) fn column_mask(&self, c: u8) -> u64 {
        ((1u64 << self.size.height) - 1) << (c as u32 * self.h1())
    }
    #[inline]
    fn top_cell(&self, c: u8) -> u64 {
        1u64 << (self.size.height as u32 - 1 + c as u32 * self.h1())
    }

    /// Whether column `c` (0-based) has room (ignores a won game).
    #[inline]
    pub fn column_open(&self, c: u8) -> bool {
        c < self.size.width && self.mask & self.top_cell(c) == 0
    }

    /// The cells where a stone can land now, one per open column.
    #[inline]
    pub(crate) fn possible(&self) -> u64 {
        (self.mask + self.bottom) & self.board
    }

    /// Drops a stone of the side to move into open column `c`.
    #[inline]
    pub fn drop_stone(&mut self, c: u8) {
        debug_assert!(self.column_open(c) && !self.won);
        let stone = (self.mask + (1u64 << (c as u32 * self.h1()))) & self.column_mask(c);
        self.current ^= self.mask;
        self.mask |= stone;
        // The mover's stones are now `current ^ mask`.
        self.won = self.aligned(self.current ^ self.mask);
        self.seq[self.moves as usize] = c;
        self.moves += 1;
    }

    /// Whether `stones` hold four in a row in any direction.
    #[inline]
    pub(crate) fn aligned(&self, stones: u64) -> bool {
        let h = self.size.height as u32;
        for shift in [1, h, h + 1, h + 2] {
            let m = stones & (stones >> shift);
            if m & (m >> (2 * shift)) != 0 {
                return true;
            }
        }
        false
    }

    /// The empty cells where `stones` would complete a line (Pons's
    /// `compute_winning_position`).
    #[inline]
    pub(crate) fn winning_cells(&self, stones: u64) -> u64 {
        let h = self.size.height as u32;
        // Vertical: three below.
        let mut r = (stones << 1) & (stones << 2) & (stones << 3);
        for shift in [h + 1, h, h + 2] {
            let p = (stones << shift) & (stones << (2 * shift));
            r |= p & (stones << (3 * shift));
            r |= p & (stones >> shift);
            let p = (stones >> shift) & (stones >> (2 * shift));
            r |= p & (stones << shift);
            r |= p & (stones >> (3 * shift));
        }
        r & (self.board ^ self.mask)
    }

    /// Cells where the side to move would complete a line.
    #[inline]
    pub(crate) fn own_wins(&self) -> u64 {
        self.winning_cells(self.current)
    }
    /// Cells where the opponent would complete a line.
    #[inline]
    pub(crate) fn opponent_wins(&self) -> u64 {
        self.winning_cells(self.current ^ self.mask)
    }

    /// Whether the side to move wins by dropping into column `c` now.
    #[inline]
    pub fn wins_with(&self, c: u8) -> bool {
        self.own_wins() & self.possible() & self.column_mask(c) != 0
    }

    /// The cell a stone dropped into open column `c` lands on.
    #[inline]
    pub(crate) fn landing(&self, c: u8) -> u64 {
        self.possible() & self.column_mask(c)
    }

    /// The row (0 = bottom) a stone dropped into column `c` lands on.
    pub fn landing_row(&self, c: u8) -> u32 {
        (self.mask & self.column_mask(c)).count_ones()
    }

    /// 0 empty, 1 the first player's stone, 2 the second player's.
    pub fn stone(&self, col: u8, row: u8) -> u8 {
        let bit = 1u64 << (col as u32 * self.h1() + row as u32);
        if self.mask & bit == 0 {
            0
        } else if (self.current & bit != 0) == self.first_to_move() {
            1
        } else {
            2
        }
    }

    /// The sequence as text: 1-based columns `1`–`9`, then `a`–`g` for
    /// columns 10–16 (Pons's notation on boards up to 9 wide).
    pub fn sequence_text(&self) -> String {
        self.sequence().iter().map(|&c| column_char(c)).collect()
    }

    /// Reads a move sequence from `size`'s empty board; `""` and `-` are
    /// the empty board. Every column must have room and no stone may follow
    /// a completed line.
    pub fn from_sequence(size: Size, text: &str) -> Result<Position, GameError> {
        let mut p = Position::empty(size);
        let text = text.trim();
        if text == "-" {
            return Ok(p);
        }
        for (i, ch) in text.chars().enumerate() {
            let c = parse_column(ch, size).map_err(|e| {
                let message = format!("move {} of {:?}: {e}", i + 1, game::clip(text, 80));
                GameError::position(text, message).because(e)
            })?;
            if p.won {
                return Err(GameError::position(
                    text,
                    format!(
                        "move {} of {:?}: the game was already won",
                        i + 1,
                        game::clip(text, 80)
                    ),
                ));
            }
            if !p.column_open(c) {
                return Err(GameError::position(
                    text,
                    format!(
                        "move {} of {:?}: column {} is full",
                        i + 1,
                        game::clip(text, 80),
                        column_char(c)
                    ),
                ));
            }
            p.drop_stone(c);
        }
        Ok(p)
    }

    /// This position with the columns mirrored (replayed from the empty
    /// board, so the sequence is mirrored too).
    pub fn mirrored(&self) -> Position {
        let mut p = Position::empty(self.size);
        for &c in self.sequence() {
            p.drop_stone(self.size.width - 1 - c);
        }
        p
    }
}

/// The character of 0-based column `c`.
pub fn column_char(c: u8) -> char {
    if c < 9 {
        (b'1' + c) as char
    } else {
        (b'a' + c - 9) as char
    }
}

/// The 0-based column of a column character on a board of `size`.
pub fn parse_column(ch: char, size: Size) -> Result<u8, GameError> {
    let c = match ch {
        '1'..='9' => ch as u8 - b'1',
        'a'..='g' => ch as u8 - b'a' + 9,
        _ => {
            return Err(GameError::position(
                ch,
                format!("{ch:?} is not a column (1-9, then a-g for columns 10-16)"),
            ))
        }
    };
    if c >= size.width {
        return Err(GameError::position(
            ch,
            format!("column {ch} is off the board ({} columns)", size.width),
        ));
    }
    Ok(c)
}
