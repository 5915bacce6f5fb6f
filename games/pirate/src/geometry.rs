//! The torus (RULES.md §1, §3): board sizes, square names, steps that wrap
//! around both edges, the harbour, and each ship type's moves.
//!
//! A square is the byte `rank * width + file` (0-based), so every board up to
//! 16 × 16 fits a byte and the network's `height × width` grid uses the same
//! index. The step tables of each size are built once per process and
//! shared (`&'static`), so a position stays a plain copy.

use crate::types::{Bits, ShipType};
use game::GameError;
use std::sync::OnceLock;

/// The smallest and largest side allowed (RULES.md §1).
pub const MIN_SIDE: u8 = 6;
pub const MAX_SIDE: u8 = 16;

/// Compass directions (file step, rank step), §3.1: N NE E SE S SW W NW,
/// then the eight PIRATE leaps (a knight's, [`game::chess::KNIGHT_LEAPS`]).
pub const STEPS: [(i8, i8); 16] = {
    let compass = [
        (0, 1),
        (1, 1),
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
        (-1, 0),
        (-1, 1),
    ];
    let mut steps = [(0, 0); 16];
    let mut i = 0;
    while i < 8 {
        steps[i] = compass[i];
        steps[8 + i] = game::chess::KNIGHT_LEAPS[i];
        i += 1;
    }
    steps
};

const N: u8 = 0;
const NE: u8 = 1;
const E: u8 = 2;
const SE: u8 = 3;
const S: u8 = 4;
const SW: u8 = 5;
const W: u8 = 6;
const NW: u8 = 7;

/// How a type moves (§3.2): its directions (indices into [`STEPS`]) and the
/// least and most steps of one move.
#[derive(Clone, Copy, Debug)]
pub struct Movement {
    pub dirs: &'static [u8],
    pub min: u8,
    pub max: u8,
}

/// The movement of each type, indexed by [`ShipType::index`].
pub const MOVEMENT: [Movement; 8] = [
    Movement {
        dirs: &[N, NE, E, SE, S, SW, W, NW],
        min: 1,
        max: 4,
    },
    Movement {
        dirs: &[8, 9, 10, 11, 12, 13, 14, 15],
        min: 1,
        max: 1,
    },
    Movement {
        dirs: &[N, E, S, W],
        min: 1,
        max: 1,
    },
    Movement {
        dirs: &[N, E, S, W],
        min: 2,
        max: 2,
    },
    Movement {
        dirs: &[N, E, NE],
        min: 1,
        max: 4,
    },
    Movement {
        dirs: &[E, S, SE],
        min: 1,
        max: 4,
    },
    Movement {
        dirs: &[S, W, SW],
        min: 1,
        max: 4,
    },
    Movement {
        dirs: &[N, W, NW],
        min: 1,
        max: 4,
    },
];

/// A board size, W files by H ranks, both even and 6..=16 (§1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Size {
    pub width: u8,
    pub height: u8,
}

impl Size {
    /// The default 8 × 8 board.
    pub const DEFAULT: Size = Size {
        width: 8,
        height: 8,
    };

    /// A size the rule book allows, or an error saying what is allowed.
    pub fn new(width: u32, height: u32) -> Result<Size, GameError> {
        let ok = |s: u32| (MIN_SIDE as u32..=MAX_SIDE as u32).contains(&s) && s.is_multiple_of(2);
        if !ok(width) || !ok(height) {
            return Err(GameError::options("variant", format!(
                "a {width}x{height} board: both sides must be even and between {MIN_SIDE} and {MAX_SIDE} (RULES.md §1)"
            )));
        }
        Ok(Size {
            width: width as u8,
            height: height as u8,
        })
    }

    /// Reads `WxH` (`8x8`, `10x8`).
    pub fn parse(text: &str) -> Result<Size, GameError> {
        let (w, h) = text.split_once('x').ok_or_else(|| {
            GameError::options(
                "variant",
                format!("board size {text:?}: write it as WxH, e.g. 8x8"),
            )
        })?;
        let num = |s: &str| {
            s.parse::<u32>().map_err(|e| {
                GameError::options(
                    "variant",
                    format!("board size {text:?}: write it as WxH, e.g. 8x8"),
                )
                .because(e)
            })
        };
        Size::new(num(w)?, num(h)?)
    }

    #[inline]
    pub fn cells(self) -> usize {
        self.width as usize * self.height as usize
    }
}

impl std::fmt::Display for Size {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

/// The tables of one board size.
#[derive(Debug)]
pub struct Geometry {
    pub size: Size,
    /// `step[d][sq]`: the square one step of [`STEPS`]`[d]` from `sq`.
    pub step: [[u8; 256]; 16],
    /// Every square of the board.
    pub all: Bits,
    /// The harbour's four squares (§1) and their set.
    pub harbour: [u8; 4],
    pub harbour_set: Bits,
}

impl Geometry {
    fn build(size: Size) -> Geometry {
        let (w, h) = (size.width as i32, size.height as i32);
        let mut step = [[0u8; 256]; 16];
        let mut all = Bits::EMPTY;
        for r in 0..h {
            for f in 0..w {
                let sq = (r * w + f) as usize;
                all.set(sq as u8);
                for (d, &(df, dr)) in STEPS.iter().enumerate() {
                    let nf = (f + df as i32).rem_euclid(w);
                    let nr = (r + dr as i32).rem_euclid(h);
                    step[d][sq] = (nr * w + nf) as u8;
                }
            }
        }
        let (hf, hr) = (w / 2 - 1, h / 2 - 1);
        let harbour = [
            (hr * w + hf) as u8,
            (hr * w + hf + 1) as u8,
            ((hr + 1) * w + hf) as u8,
            ((hr + 1) * w + hf + 1) as u8,
        ];
        let mut harbour_set = Bits::EMPTY;
        for s in harbour {
            harbour_set.set(s);
        }
        Geometry {
            size,
            step,
            all,
            harbour,
            harbour_set,
        }
    }

    /// The shared tables of `size` (built on first use).
    pub fn of(size: Size) -> &'static Geometry {
        const SIDES: usize = ((MAX_SIDE - MIN_SIDE) / 2 + 1) as usize;
        static TABLES: [[OnceLock<Geometry>; SIDES]; SIDES] =
            [const { [const { OnceLock::new() }; SIDES] }; SIDES];
        let i = ((size.width - MIN_SIDE) / 2) as usize;
        let j = ((size.height - MIN_SIDE) / 2) as usize;
        TABLES[i][j].get_or_init(|| Geometry::build(size))
    }

    #[inline]
    pub fn width(&self) -> u8 {
        self.size.width
    }
    #[inline]
    pub fn height(&self) -> u8 {
        self.size.height
    }
    #[inline]
    pub fn file(&self, sq: u8) -> u8 {
        sq % self.size.width
    }
    #[inline]
    pub fn rank(&self, sq: u8) -> u8 {
        sq / self.size.width
    }
    #[inline]
    pub fn square(&self, file: u8, rank: u8) -> u8 {
        rank * self.size.width + file
    }

    /// The name of a square: file letter, rank number (`a1`, `p16`).
    pub fn name(&self, sq: u8) -> String {
        format!(
            "{}{}",
            (b'a' + self.file(sq)) as char,
            self.rank(sq) as u32 + 1
        )
    }

    /// Reads a square name on this board; the error says why it is not one.
    pub fn parse_square(&self, text: &str) -> Result<u8, GameError> {
        let mut chars = text.chars();
        let file = chars.next().filter(|c| c.is_ascii_lowercase());
        let digits = chars.as_str();
        let rank = (!digits.is_empty()
            && !digits.starts_with('0')
            && digits.chars().all(|c| c.is_ascii_digit()))
        .then(|| digits.parse::<u32>().ok())
        .flatten();
        match (file, rank) {
            (Some(f), Some(r))
                if ((f as u32 - 'a' as u32) < self.size.width as u32)
                    && (1..=self.size.height as u32).contains(&r) =>
            {
                Ok(self.square(f as u8 - b'a', (r - 1) as u8))
            }
            _ => Err(GameError::position(
                text,
                format!(
                    "{text:?} is not a square of the {} board (files a..{}, ranks 1..{})",
                    self.size,
                    (b'a' + self.size.width - 1) as char,
                    self.size.height
                ),
            )),
        }
    }

    /// Calls `f` once for every distinct destination (§3.4) a ship of type
    /// `t` on `from` can reach when `occupied` are the squares holding a
    /// ship: every square of the path must be empty, the destination may
    /// hold a ship, and a destination reached by several paths comes once.
    #[inline]
    pub fn for_each_destination(
        &self,
        t: ShipType,
        from: u8,
        occupied: &Bits,
        mut f: impl FnMut(u8),
    ) {
        let mv = &MOVEMENT[t.index()];
        let mut seen = Bits::EMPTY;
        for &d in mv.dirs {
            let table = &self.step[d as usize];
            let mut at = from;
            for k in 1..=mv.max {
                at = table[at as usize];
                if at == from {
                    // Back on the start square (impossible with sides of 6
                    // or more and 4 steps; §3.3 for completeness).
                    break;
                }
                if k >= mv.min && !seen.has(at) {
                    seen.set(at);
                    f(at);
                }
                if occupied.has(at) {
                    break;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn destinations(size: Size, t: ShipType) -> usize {
        let g = Geometry::of(size);
        let mut n = 0;
        g.for_each_destination(t, 0, &Bits::EMPTY, |_| n += 1);
        n
    }

    /// §3.4: a lone FRIGATE has 27 destinations on 8×8, 19 on 6×6, 29 on
    /// 8 files × 10 ranks and 32 when both sides are at least 10.
    #[test]
    fn frigate_destinations_follow_the_rule_book() {
        let f = ShipType::Frigate;
        assert_eq!(destinations(Size::new(8, 8).unwrap(), f), 27);
        assert_eq!(destinations(Size::new(6, 6).unwrap(), f), 19);
        assert_eq!(destinations(Size::new(8, 10).unwrap(), f), 29);
        assert_eq!(destinations(Size::new(10, 10).unwrap(), f), 32);
        assert_eq!(destinations(Size::new(16, 12).unwrap(), f), 32);
    }

    #[test]
    fn harbours_and_names() {
        let g = Geometry::of(Size::DEFAULT);
        let names: Vec<_> = g.harbour.iter().map(|&s| g.name(s)).collect();
        assert_eq!(names, ["d4", "e4", "d5", "e5"]);
        let g = Geometry::of(Size::new(16, 16).unwrap());
        let names: Vec<_> = g.harbour.iter().map(|&s| g.name(s)).collect();
        assert_eq!(names, ["h8", "i8", "h9", "i9"]);
        assert_eq!(g.parse_square("p16"), Ok(255));
        assert!(g.parse_square("q1").is_err());
        assert!(g.parse_square("a0").is_err());
        assert!(g.parse_square("a01").is_err());
        assert!(g.parse_square("a17").is_err());
        let g = Geometry::of(Size::new(10, 8).unwrap());
        let names: Vec<_> = g.harbour.iter().map(|&s| g.name(s)).collect();
        assert_eq!(names, ["e4", "f4", "e5", "f5"]);
    }

    #[test]
    fn sizes_are_checked() {
        assert!(Size::new(7, 8).is_err());
        assert!(Size::new(18, 8).is_err());
        assert!(Size::new(4, 4).is_err());
        assert_eq!(Size::parse("10x8").unwrap(), Size::new(10, 8).unwrap());
        assert!(Size::parse("8").is_err());
    }
}
