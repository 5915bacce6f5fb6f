//! A perfect Connect Four solver, after Pascal Pons
//! (<http://blog.gamesolver.org>): negamax with alpha-beta, a
//! transposition table of bounds, the non-losing-moves pruning, move
//! ordering by centre and by the threats a move creates, and iterative
//! null-window search on the score.
//!
//! Scores follow Pons: from the side to move's view, `(cells + 1 - n) / 2`
//! for a win with the stone that makes `n` stones on the board (on 7×6:
//! `22 - k` for a win with one's k-th stone), 0 for a draw, the negative
//! for a loss. A depth-limited search ([`Solver::solve_depth`]) stops
//! after a number of plies and calls everything beyond a draw: a weaker
//! player for a ladder.

use crate::position::Position;

/// A solver with its transposition table (reused across positions of one
/// board size).
pub struct Solver {
    keys: Vec<u64>,
    /// Stored bound, 0 for an empty slot: `v > UPPER_BASE` is a lower bound
    /// `v - UPPER_BASE + min`, else an upper bound `v + min - 1`.
    values: Vec<u8>,
    /// Nodes searched since the last [`Solver::reset_nodes`].
    pub nodes: u64,
    /// Plies left for a depth-limited search (u32::MAX: none).
    depth_limit: u32,
    /// The stone count of the root (the depth limit counts from it).
    root_moves: u32,
    /// Columns in search order, for boards `order_width` wide.
    order: [u8; 16],
    order_width: u8,
    /// `64 - log2(table size)`: the table index is the top bits of the
    /// key times a Fibonacci constant (the key's low bits only cover the
    /// first columns).
    shift: u32,
}

/// Bounds of the score on a board of `cells` cells.
fn min_score(cells: i32) -> i32 {
    -cells / 2 + 3
}
fn max_score(cells: i32) -> i32 {
    (cells + 1) / 2 - 3
}

impl Solver {
    /// A solver with a table of `2^log2_entries` entries (9 bytes each;
    /// 22 gives 4 M entries, 38 MB).
    pub fn new(log2_entries: u32) -> Solver {
        let bits = log2_entries.clamp(10, 30);
        let n = 1usize << bits;
        Solver {
            keys: vec![0; n],
            values: vec![0; n],
            nodes: 0,
            depth_limit: u32::MAX,
            root_moves: 0,
            order: [0; 16],
            order_width: 0,
            shift: 64 - bits,
        }
    }

    /// Empties the table (between positions of different board sizes).
    pub fn clear(&mut self) {
        self.keys.fill(0);
        self.values.fill(0);
    }

    pub fn reset_nodes(&mut self) {
        self.nodes = 0;
    }

    /// The exact score of `pos` (not over), by Pons's convention.
    pub fn solve(&mut self, pos: &Position) -> i32 {
        assert!(!pos.is_won(), "solve: the game is already won");
        if self.depth_limit != u32::MAX {
            // A table of depth-limited values must not serve exact searches.
            self.clear();
            self.depth_limit = u32::MAX;
        }
        self.search_score(pos)
    }

    /// The score of `pos` seen `depth` plies ahead (wins and losses within
    /// them are exact, everything beyond is 0): a weaker player. The table
    /// is cleared first, since its entries depend on the horizon.
    pub fn solve_depth(&mut self, pos: &Position, depth: u32) -> i32 {
        assert!(!pos.is_won(), "solve_depth: the game is already won");
        self.clear();
        self.depth_limit = depth.max(1);
        let s = self.search_score(pos);
        self.clear();
        self.depth_limit = u32::MAX;
        s
    }

    fn search_score(&mut self, pos: &Position) -> i32 {
        let cells = pos.size().cells() as i32;
        let n = pos.moves_played() as i32;
        self.root_moves = pos.moves_played();
        if self.order_width != pos.size().width {
            self.order = centre_order(pos.size().width);
            self.order_width = pos.size().width;
        }
        if pos.own_wins() & pos.possible() != 0 {
            return (cells + 1 - n) / 2;
        }
        let mut min = -(cells - n) / 2;
        let mut max = (cells + 1 - n) / 2;
        if self.depth_limit != u32::MAX {
            // Within the horizon a win or loss is exact; beyond it 0.
            min = min.min(0);
            max = max.max(0);
        }
        while min < max {
            let mut med = min + (max - min) / 2;
            if med <= 0 && min / 2 < med {
                med = min / 2;
            } else if med >= 0 && max / 2 > med {
                med = max / 2;
            }
            let r = self.negamax(pos, med, med + 1);
            if r <= med {
                max = r;
            } else {
                min = r;
            }
        }
        min
    }

    /// The score of each column of `pos` (not over) for the side to move:
    /// `None` for a full column.
    pub fn column_values(&mut self, pos: &Position) -> Vec<Option<i32>> {
        let cells = pos.size().cells() as i32;
        let n = pos.moves_played() as i32;
        (0..pos.size().width)
            .map(|c| {
                if !pos.column_open(c) {
                    return None;
                }
                if pos.wins_with(c) {
                    return Some((cells + 1 - n) / 2);
                }
                let mut next = *pos;
                next.drop_stone(c);
                if next.has_no_moves() {
                    return Some(0);
                }
                Some(-self.solve(&next))
            })
            .collect()
    }

    fn negamax(&mut self, pos: &Position, mut alpha: i32, mut beta: i32) -> i32 {
        debug_assert!(alpha < beta);
        self.nodes += 1;
        let cells = pos.size().cells() as i32;
        let n = pos.moves_played() as i32;
        let next = pos.non_losing_moves();
        if next == 0 {
            // Every move lets the opponent win at once.
            return -(cells - n) / 2;
        }
        if n >= cells - 2 {
            return 0;
        }
        if pos.moves_played() - self.root_moves >= self.depth_limit {
            return 0;
        }
        // The opponent cannot win with its next stone.
        let min = -(cells - 2 - n) / 2;
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        let mut max = (cells - 1 - n) / 2;
        let key = pos.key();
        let slot = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize;
        if self.keys[slot] == key && self.values[slot] != 0 {
            let v = self.values[slot] as i32;
            let (lo, hi) = (min_score(cells), max_score(cells));
            if v > hi - lo + 1 {
                let lower = v + 2 * lo - hi - 2;
                if alpha < lower {
                    alpha = lower;
                    if alpha >= beta {
                        return alpha;
                    }
                }
            } else {
                max = v + lo - 1;
            }
        }
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }
        // Children by threats created, centre columns first among equals.
        let w = pos.size().width;
        let mut moves: [(u64, i32); 16] = [(0, 0); 16];
        let mut count = 0;
        for &c in &self.order[..w as usize] {
            let cell = next & pos.column_mask(c);
            if cell != 0 {
                let score = pos.threats_after(cell);
                // Insertion sort, stable: equal scores keep centre order.
                let mut j = count;
                while j > 0 && moves[j - 1].1 < score {
                    moves[j] = moves[j - 1];
                    j -= 1;
                }
                moves[j] = (cell, score);
                count += 1;
            }
        }
        for &(cell, _) in &moves[..count] {
            let mut child = *pos;
            child.drop_cell(cell);
            let score = -self.negamax(&child, -beta, -alpha);
            if score >= beta {
                let v = score + max_score(cells) - 2 * min_score(cells) + 2;
                self.store(slot, key, v);
                return score;
            }
            if score > alpha {
                alpha = score;
            }
        }
        self.store(slot, key, alpha - min_score(cells) + 1);
        alpha
    }

    #[inline]
    fn store(&mut self, slot: usize, key: u64, value: i32) {
        // A clamped bound is a looser one, still true; 0 marks an empty slot.
        self.keys[slot] = key;
        self.values[slot] = value.clamp(1, 255) as u8;
    }
}

/// Columns from the centre outwards (3, 2, 4, 1, 5, 0, 6 on 7 columns; on
/// an even width the left of the two centre columns first).
fn centre_order(width: u8) -> [u8; 16] {
    let mut order = [0u8; 16];
    let mut cols: Vec<u8> = (0..width).collect();
    cols.sort_by_key(|&c| ((2 * c as i32 - (width as i32 - 1)).abs(), c));
    order[..width as usize].copy_from_slice(&cols);
    order
}

impl Position {
    /// Landing cells that do not let the opponent win at once (Pons's
    /// `possibleNonLosingMoves`); called when the side to move cannot win
    /// at once.
    pub(crate) fn non_losing_moves(&self) -> u64 {
        let mut possible = self.possible();
        let opp = self.opponent_wins();
        let forced = possible & opp;
        if forced != 0 {
            if forced & (forced - 1) != 0 {
                // Two threats at once: lost.
                return 0;
            }
            possible = forced;
        }
        // Never play directly below an opponent's winning cell.
        possible & !(opp >> 1)
    }

    /// Threats the side to move would have after playing `cell`.
    #[inline]
    pub(crate) fn threats_after(&self, cell: u64) -> i32 {
        self.winning_cells(self.current | cell).count_ones() as i32
    }

    /// Plays the stone on `cell` (a landing cell of the side to move).
    #[inline]
    pub(crate) fn drop_cell(&mut self, cell: u64) {
        let c = (cell.trailing_zeros() / (self.size.height as u32 + 1)) as u8;
        self.drop_stone(c);
    }

    /// Whether the board is full (or the game won).
    pub(crate) fn has_no_moves(&self) -> bool {
        self.won || self.mask == self.board
    }
}
