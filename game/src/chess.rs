//! What the chess-like games (PiRaTeKnIcS, Pirate Chess, Influence Chess)
//! share beyond the game traits: the board geometry of chess pieces, the
//! FEN-like writer of a board's rows, the compile-time SplitMix of their
//! Zobrist keys, and the forwarding of [`GameState`](crate::GameState) and
//! [`GameMove`](crate::GameMove) to a position's own methods
//! ([`forward_game_state!`](crate::forward_game_state),
//! [`forward_game_move!`](crate::forward_game_move)).
//!
//! Nothing here knows one of those games; a new board game takes what fits.

/// File and rank steps of the eight line directions. The first four
/// increase the square index of a rank-major board (N, E, NE, NW), the
/// last four decrease it (S, W, SW, SE): the first blocker on a ray is its
/// lowest or highest set bit. One step in each is a king's move.
pub const RAY_DIRECTIONS: [(i8, i8); 8] = [
    (0, 1),   // north
    (1, 0),   // east
    (1, 1),   // north-east
    (-1, 1),  // north-west
    (0, -1),  // south
    (-1, 0),  // west
    (-1, -1), // south-west
    (1, -1),  // south-east
];

/// The orthogonal directions among [`RAY_DIRECTIONS`] (rook lines).
pub const ORTHOGONAL: [usize; 4] = [0, 1, 4, 5];

/// The diagonal directions among [`RAY_DIRECTIONS`] (bishop lines).
pub const DIAGONAL: [usize; 4] = [2, 3, 6, 7];

/// File and rank steps of a knight's eight leaps, clockwise from
/// (1, 2). Games index them, so the order is fixed.
pub const KNIGHT_LEAPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// One step of SplitMix64 in a `const` context: the next state and the
/// value drawn (the same sequence as [`crate::SplitMix`]). Zobrist tables
/// built at compile time from a fixed seed are the same in every build.
#[inline]
pub const fn splitmix_step(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// `N` SplitMix64 values drawn from `seed`, at compile time (Zobrist keys).
pub const fn splitmix_table<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (s, v) = splitmix_step(state);
        state = s;
        out[i] = v;
        i += 1;
    }
    out
}

/// What a board's cell holds, for [`write_rows`].
pub enum Cell<T> {
    /// No cell there (a board that is not a rectangle): not written, not
    /// counted.
    Missing,
    /// An empty cell: counted in a run of empty cells.
    Empty,
    /// A cell with something to write.
    Holds(T),
}

/// Writes a board's rows as FEN does: the top rank first, ranks separated
/// by `/`, each run of empty cells as its length in decimal, and what a
/// cell holds by `write`. `at(file, rank)` says what is on a cell (files
/// `0..files`, ranks `0..ranks`, both 0-based).
pub fn write_rows<T>(
    out: &mut String,
    files: u8,
    ranks: u8,
    mut at: impl FnMut(u8, u8) -> Cell<T>,
    mut write: impl FnMut(&mut String, T),
) {
    for rank in (0..ranks).rev() {
        let mut run = 0u32;
        for file in 0..files {
            match at(file, rank) {
                Cell::Missing => {}
                Cell::Empty => run += 1,
                Cell::Holds(x) => {
                    if run > 0 {
                        out.push_str(&run.to_string());
                        run = 0;
                    }
                    write(out, x);
                }
            }
        }
        if run > 0 {
            out.push_str(&run.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
}

/// Inside `impl GameState for Position`, the methods that only forward to
/// the position's own (inherent) methods of the same name:
/// `legal_moves`, `has_legal_move`, `is_legal`, `apply`, `play` and `hash`,
/// with `count_legal_moves` from `count_legal` and `reversible_plies` from
/// `clock` (plies since the last irreversible move). The position type
/// must have those inherent methods (a missing one would make the trait
/// method call itself, which rustc's `unconditional_recursion` lint
/// reports).
#[macro_export]
macro_rules! forward_game_state {
    () => {
        #[inline]
        fn legal_moves(&self, out: &mut Vec<Self::Move>) {
            Self::legal_moves(self, out)
        }
        #[inline]
        fn has_legal_move(&self) -> bool {
            Self::has_legal_move(self)
        }
        #[inline]
        fn count_legal_moves(&self) -> u64 {
            Self::count_legal(self)
        }
        #[inline]
        fn is_legal(&self, m: Self::Move) -> bool {
            Self::is_legal(self, m)
        }
        #[inline]
        fn apply(&mut self, m: Self::Move) {
            Self::apply(self, m)
        }
        #[inline]
        fn play(&self, m: Self::Move) -> Self {
            Self::play(self, m)
        }
        #[inline]
        fn hash(&self) -> u64 {
            Self::hash(self)
        }
        #[inline]
        fn reversible_plies(&self) -> u32 {
            Self::clock(self) as u32
        }
    };
}

/// `impl GameMove for $move` by the move type's own `code` and `from_code`.
#[macro_export]
macro_rules! forward_game_move {
    ($move:ty) => {
        impl $crate::GameMove for $move {
            #[inline]
            fn code(self) -> u32 {
                <$move>::code(self)
            }
            #[inline]
            fn from_code(code: u32) -> Option<$move> {
                <$move>::from_code(code)
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_step_follows_splitmix() {
        let mut rng = crate::SplitMix::new(42);
        let t: [u64; 4] = splitmix_table(42);
        for v in t {
            assert_eq!(v, rng.next_u64());
        }
    }

    #[test]
    fn rows_count_runs_and_skip_missing_cells() {
        let mut s = String::new();
        // 3 files, 2 ranks: a piece on (0, 1) and (2, 0); (1, 0) missing.
        write_rows(
            &mut s,
            3,
            2,
            |f, r| match (f, r) {
                (0, 1) => Cell::Holds('a'),
                (2, 0) => Cell::Holds('b'),
                (1, 0) => Cell::Missing,
                _ => Cell::Empty,
            },
            |out, c| out.push(c),
        );
        assert_eq!(s, "a2/1b");
        let mut wide = String::new();
        write_rows(&mut wide, 12, 1, |_, _| Cell::<char>::Empty, |_, _| {});
        assert_eq!(wide, "12");
    }

    #[test]
    fn directions_split_into_lines() {
        for d in ORTHOGONAL {
            let (f, r) = RAY_DIRECTIONS[d];
            assert_eq!((f * r, f.abs() + r.abs()), (0, 1));
        }
        for d in DIAGONAL {
            let (f, r) = RAY_DIRECTIONS[d];
            assert_eq!((f.abs(), r.abs()), (1, 1));
        }
        for (f, r) in KNIGHT_LEAPS {
            assert_eq!(f.abs() + r.abs(), 3);
        }
    }
}
