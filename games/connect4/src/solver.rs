//! A perfect Connect Four solver, after Pascal Pons
//! (<http://blog.gamesolver.org>): negamax with alpha-beta, a
//! transposition table of lower and upper bounds, the non-losing-moves
//! pruning, move ordering by the threats a move creates (centre columns
//! first among equals), and null-window searches that bisect the score.
//!
//! Scores follow Pons: from the side to move's view, `(cells + 1 - n) / 2`
//! for a win with the stone that makes `n` stones on the board (on 7×6:
//! `22 - k` for a win with one's k-th stone), 0 for a draw, the negative
//! for a loss. A depth-limited search ([`Solver::solve_depth`]) stops
//! after a number of plies and calls everything beyond a draw: a weaker
//! player for a ladder.
//!
//! The search runs on [`Node`], Pons's three numbers (the side to move's
//! stones, every stone, the stone count), not on [`Position`]: copying a
//! child is 24 bytes and playing a stone three operations, with the board's
//! constants held once in [`Geometry`]. Node counts match Pons's published
//! ones; see docs/games/connect4.md for the figures.

use crate::position::{Position, Size};
use crate::variant::Column;
use game::{PerfectPlayer, SplitMix};

/// The constants of one board size that the bit tricks need.
#[derive(Clone, Copy)]
struct Geometry {
    size: Size,
    /// The height (the shift of the "/" diagonal), and height + 1 (the
    /// horizontal shift, bits per column).
    h: u32,
    h1: u32,
    /// The bottom cell of every column.
    bottom: u64,
    /// Every cell of the board.
    board: u64,
    cells: i32,
    /// The cells of each column.
    columns: [u64; 16],
    /// Columns from the centre outwards (3, 2, 4, 1, 5, 0, 6 on 7).
    order: [u8; 16],
    /// Smallest and largest score a searched node can have (Pons's
    /// `MIN_SCORE`, `MAX_SCORE`): they fix the table's value encoding.
    min_score: i32,
    max_score: i32,
}

impl Geometry {
    fn new(pos: &Position) -> Geometry {
        let size = pos.size();
        let mut columns = [0u64; 16];
        for c in 0..size.width {
            columns[c as usize] = pos.column_mask(c);
        }
        let cells = size.cells() as i32;
        Geometry {
            size,
            h: size.height as u32,
            h1: size.height as u32 + 1,
            bottom: pos.bottom,
            board: pos.board,
            cells,
            columns,
            order: centre_order(size.width),
            min_score: -cells / 2 + 3,
            max_score: (cells + 1) / 2 - 3,
        }
    }

    /// The empty cells where `stones` would complete a line, given every
    /// stone in `mask` (Pons's `compute_winning_position`).
    #[inline(always)]
    fn winning_cells(&self, stones: u64, mask: u64) -> u64 {
        // Vertical: three below.
        let mut r = (stones << 1) & (stones << 2) & (stones << 3);
        for shift in [self.h1, self.h, self.h + 2] {
            let p = (stones << shift) & (stones << (2 * shift));
            r |= p & (stones << (3 * shift));
            r |= p & (stones >> shift);
            let p = (stones >> shift) & (stones >> (2 * shift));
            r |= p & (stones << shift);
            r |= p & (stones >> (3 * shift));
        }
        r & (self.board ^ mask)
    }

    /// The cells where a stone can land now.
    #[inline(always)]
    fn possible(&self, n: Node) -> u64 {
        (n.mask + self.bottom) & self.board
    }

    /// Whether the side to move can complete a line with its next stone.
    #[inline(always)]
    fn can_win_next(&self, n: Node) -> bool {
        self.winning_cells(n.current, n.mask) & self.possible(n) != 0
    }

    /// Landing cells that do not let the opponent win at once (Pons's
    /// `possibleNonLosingMoves`); only meaningful when the side to move
    /// cannot win at once.
    #[inline(always)]
    fn non_losing_moves(&self, n: Node) -> u64 {
        let mut possible = self.possible(n);
        let opp = self.winning_cells(n.current ^ n.mask, n.mask);
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

    /// Threats the side to move would have after playing `cell` (Pons's
    /// `moveScore`).
    #[inline(always)]
    fn threats_after(&self, n: Node, cell: u64) -> i32 {
        self.winning_cells(n.current | cell, n.mask).count_ones() as i32
    }
}

/// A position as the search sees it: Pons's `current_position`, `mask`
/// and move count. A child is a 24-byte copy.
#[derive(Clone, Copy)]
struct Node {
    current: u64,
    mask: u64,
    moves: i32,
}

impl Node {
    fn of(pos: &Position) -> Node {
        Node {
            current: pos.current,
            mask: pos.mask,
            moves: pos.moves_played() as i32,
        }
    }

    /// The node after the side to move plays the landing cell `cell`.
    #[inline(always)]
    fn play(self, cell: u64) -> Node {
        Node {
            current: self.current ^ self.mask,
            mask: self.mask | cell,
            moves: self.moves + 1,
        }
    }

    /// The unique key: `current + mask`.
    #[inline(always)]
    fn key(self) -> u64 {
        self.current + self.mask
    }
}

/// A table of bounds: one `u64` per slot, so one cache line per probe.
///
/// The key goes through a bijection (a multiplication by an odd constant
/// modulo 2⁶⁴); the top `bits` bits of the product pick the slot and the
/// other `64 - bits` bits (at most 54) are stored above the 8-bit value.
/// Since the product determines the key, a matching slot and tag is the
/// very key: no false hits on any board size, in 8 bytes an entry.
struct Table {
    slots: Vec<u64>,
    shift: u32,
}

const FIBONACCI: u64 = 0x9E37_79B9_7F4A_7C15;

impl Table {
    fn new(bits: u32) -> Table {
        let mut slots = vec![0u64; 1usize << bits];
        // The zeroed allocation is mapped lazily, page by page as probes
        // touch it: on 2 MB pages that is a few dozen faults, not one per
        // probe, and a solver used for one position pays for little.
        huge_pages(&mut slots);
        Table {
            slots,
            shift: 64 - bits,
        }
    }

    fn clear(&mut self) {
        self.slots.fill(0);
    }

    #[inline(always)]
    fn locate(&self, key: u64) -> (usize, u64) {
        let h = key.wrapping_mul(FIBONACCI);
        ((h >> self.shift) as usize, h & ((1u64 << self.shift) - 1))
    }

    /// The stored value of `key` (`1..=255`), or 0.
    #[inline(always)]
    fn get(&self, key: u64) -> i32 {
        let (slot, tag) = self.locate(key);
        let e = self.slots[slot];
        if e >> 8 == tag {
            (e & 0xff) as i32
        } else {
            0
        }
    }

    /// Stores `value` (`1..=255`) for `key`, replacing the slot's entry.
    #[inline(always)]
    fn put(&mut self, key: u64, value: i32) {
        debug_assert!((1..=255).contains(&value), "table value {value}");
        let (slot, tag) = self.locate(key);
        self.slots[slot] = tag << 8 | value as u64;
    }
}

/// Asks Linux to back `slots` with 2 MB pages (transparent huge pages in
/// `madvise` mode): a probe of a big table then costs a cache miss but
/// rarely a TLB miss as well, which nearly halves the time per node with
/// a 128 MB table. Harmless where the kernel says no.
fn huge_pages(slots: &mut [u64]) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = slots.as_mut_ptr() as usize;
        let end = start + std::mem::size_of_val(slots);
        let first = start.next_multiple_of(PAGE);
        if end > first {
            // SAFETY: the range lies inside `slots`, page-aligned as
            // madvise requires; MADV_HUGEPAGE changes no contents.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    (end - first) / PAGE * PAGE,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = slots;
}

/// Entries of the table that depth-limited searches use (2²⁰, 8 MB at
/// most): it is cleared before every such search, since its bounds hold
/// for one horizon only.
const DEPTH_TABLE_BITS: u32 = 20;

/// A perfect solver with its transposition table, reused across positions
/// (of one board size; another size clears it).
///
/// ```
/// use connect4::{Connect4, Solver};
/// use game::Game;
/// let game = Connect4::standard();
/// let mut solver = Solver::new(16);
/// let p = game.parse_state("4455").unwrap();
/// assert_eq!(solver.solve(&p), 18); // the side to move wins with its 4th stone
/// ```
pub struct Solver {
    exact: Table,
    /// For depth-limited searches; allocated on first use.
    shallow: Option<Table>,
    geometry: Option<Geometry>,
    /// Nodes searched since the last [`Solver::reset_nodes`].
    pub nodes: u64,
}

impl Solver {
    /// A solver with a table of `2^log2_entries` entries (8 bytes each;
    /// 24 gives 16 M entries, 128 MB). `log2_entries` is clamped to 10..=30.
    pub fn new(log2_entries: u32) -> Solver {
        Solver {
            exact: Table::new(log2_entries.clamp(10, 30)),
            shallow: None,
            geometry: None,
            nodes: 0,
        }
    }

    /// Empties the table (the solver stays correct without it: entries
    /// are exact; this only frees the search from earlier work).
    pub fn clear(&mut self) {
        self.exact.clear();
    }

    pub fn reset_nodes(&mut self) {
        self.nodes = 0;
    }

    /// The geometry of `pos`'s board, clearing the table when the size
    /// changes (keys of different sizes would mean different positions).
    fn geometry(&mut self, pos: &Position) -> Geometry {
        match self.geometry {
            Some(g) if g.size == pos.size() => g,
            _ => {
                let g = Geometry::new(pos);
                if self.geometry.is_some() {
                    self.exact.clear();
                }
                self.geometry = Some(g);
                g
            }
        }
    }

    /// The exact score of `pos`, by Pons's convention. A position whose
    /// last stone completed a line is lost for the side to move: its score
    /// is the opponent's win, negated.
    pub fn solve(&mut self, pos: &Position) -> i32 {
        let g = self.geometry(pos);
        if let Some(s) = over_score(&g, pos) {
            return s;
        }
        let mut search = Search {
            g: &g,
            table: &mut self.exact,
            nodes: 0,
            horizon: i32::MAX,
        };
        let s = search.score(Node::of(pos), false);
        self.nodes += search.nodes;
        s
    }

    /// The score of `pos` seen `depth` plies ahead (at least 1): wins and
    /// losses within the horizon are exact, everything beyond it counts as
    /// a draw. A weaker, tunable player: depth 1 sees only wins in one.
    pub fn solve_depth(&mut self, pos: &Position, depth: u32) -> i32 {
        let g = self.geometry(pos);
        if let Some(s) = over_score(&g, pos) {
            return s;
        }
        let table = self.shallow_table();
        table.clear();
        let mut search = Search {
            g: &g,
            table,
            nodes: 0,
            horizon: (pos.moves_played() + depth.clamp(1, 64)) as i32,
        };
        let s = search.score(Node::of(pos), true);
        self.nodes += search.nodes;
        s
    }

    fn shallow_table(&mut self) -> &mut Table {
        let bits = DEPTH_TABLE_BITS.min(64 - self.exact.shift);
        self.shallow.get_or_insert_with(|| Table::new(bits))
    }

    /// The exact score of each column of `pos` for the side to move, as
    /// Pons's `.moves` files give them: `None` for a full column (and for
    /// every column once the game is over).
    pub fn column_values(&mut self, pos: &Position) -> Vec<Option<i32>> {
        self.columns(pos, None)
    }

    /// [`Solver::column_values`] seen `depth` plies ahead (the column's
    /// own stone is the first of them).
    pub fn column_values_depth(&mut self, pos: &Position, depth: u32) -> Vec<Option<i32>> {
        self.columns(pos, Some(depth.max(1)))
    }

    fn columns(&mut self, pos: &Position, depth: Option<u32>) -> Vec<Option<i32>> {
        let cells = pos.size().cells() as i32;
        let n = pos.moves_played() as i32;
        (0..pos.size().width)
            .map(|c| {
                if pos.is_won() || !pos.column_open(c) {
                    return None;
                }
                if pos.wins_with(c) {
                    return Some((cells + 1 - n) / 2);
                }
                let mut next = *pos;
                next.drop_stone(c);
                Some(match depth {
                    _ if next.has_no_moves() => 0,
                    Some(1) => 0,
                    Some(d) => -self.solve_depth(&next, d - 1),
                    None => -self.solve(&next),
                })
            })
            .collect()
    }

    /// The best column of `pos` (0-based) and its score: the highest
    /// value, the centre-most column among equals. `None` when the game
    /// is over. `depth` limits the search as in [`Solver::solve_depth`].
    pub fn best_column(&mut self, pos: &Position, depth: Option<u32>) -> Option<(u8, i32)> {
        let values = self.columns(pos, depth);
        let g = self.geometry(pos);
        g.order[..pos.size().width as usize]
            .iter()
            .filter_map(|&c| values[c as usize].map(|v| (c, v)))
            // `max_by_key` keeps the last maximum: reverse to keep the first.
            .rev()
            .max_by_key(|&(_, v)| v)
    }
}

/// The solver as a match player (`solver`, `solver:depth=N`): the column
/// of the highest score, a seeded random one among equals (so that games
/// from one opening differ), with a table of its own kept across the moves
/// of a game.
///
/// Exact play from the empty 7×6 board is slow (each of the first moves is
/// a solve of the whole game); a depth-limited player answers in
/// milliseconds and makes the weaker rungs of a ladder.
pub struct SolverPlayer {
    solver: Solver,
    depth: Option<u32>,
    rng: SplitMix,
}

impl SolverPlayer {
    /// Table entries of a player's solver (32 MB, mapped as it is used).
    const TABLE_BITS: u32 = 22;

    pub fn new(depth: Option<u32>, seed: u64) -> SolverPlayer {
        SolverPlayer {
            solver: Solver::new(Self::TABLE_BITS),
            depth: depth.map(|d| d.max(1)),
            rng: SplitMix::new(seed),
        }
    }
}

impl PerfectPlayer<Position> for SolverPlayer {
    fn choose(&mut self, pos: &Position) -> (Column, i32) {
        let values = self.solver.columns(pos, self.depth);
        let best = values.iter().flatten().copied().max().unwrap_or(0);
        let ties: Vec<u8> = (0..values.len() as u8)
            .filter(|&c| values[c as usize] == Some(best))
            .collect();
        let column = match ties.len() {
            0 => (0..pos.size().width)
                .find(|&c| pos.column_open(c))
                .unwrap_or(0),
            n => ties[self.rng.below(n as u64) as usize],
        };
        (Column(column), best)
    }

    /// Every open column with its score (Pons's convention).
    fn move_scores(&mut self, pos: &Position) -> Option<Vec<(Column, i32)>> {
        let values = self.solver.columns(pos, self.depth);
        Some(
            (0..values.len() as u8)
                .filter_map(|c| values[c as usize].map(|v| (Column(c), v)))
                .collect(),
        )
    }
}

/// The score of a finished game (`None` while it goes on): the side to
/// move lost to the line just made, or drew on a full board.
fn over_score(g: &Geometry, pos: &Position) -> Option<i32> {
    let n = pos.moves_played() as i32;
    if pos.is_won() {
        // The winner made the line with the stone that made n stones.
        Some(-(g.cells + 2 - n) / 2)
    } else if n == g.cells {
        Some(0)
    } else {
        None
    }
}

/// One search: the board's constants, the table, the node count and the
/// horizon (the stone count at which a depth-limited search stops).
struct Search<'a> {
    g: &'a Geometry,
    table: &'a mut Table,
    nodes: u64,
    horizon: i32,
}

impl Search<'_> {
    /// Pons's `solve`: null-window searches that narrow `[min, max]` to
    /// the score, probing near 0 first (most positions are close to it).
    fn score(&mut self, n: Node, limited: bool) -> i32 {
        let cells = self.g.cells;
        if self.g.can_win_next(n) {
            return (cells + 1 - n.moves) / 2;
        }
        let mut min = -(cells - n.moves) / 2;
        let mut max = (cells + 1 - n.moves) / 2;
        if limited {
            // Beyond the horizon everything is 0: it must be in range.
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
            let r = self.negamax(n, med, med + 1);
            if r <= med {
                max = r;
            } else {
                min = r;
            }
        }
        min
    }

    /// Pons's negamax (part 12 of his blog): the side to move cannot win
    /// with its next stone; returns the exact score when it lies within
    /// `(alpha, beta)`, else a bound on the same side of the window.
    fn negamax(&mut self, n: Node, mut alpha: i32, mut beta: i32) -> i32 {
        debug_assert!(alpha < beta);
        self.nodes += 1;
        let g = self.g;
        let cells = g.cells;
        let next = g.non_losing_moves(n);
        if next == 0 {
            // Every move lets the opponent win at once.
            return -(cells - n.moves) / 2;
        }
        if n.moves >= cells - 2 {
            // Neither side can win with the last two stones.
            return 0;
        }
        if n.moves >= self.horizon {
            return 0;
        }
        // The opponent cannot win with its next stone.
        let min = -(cells - 2 - n.moves) / 2;
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        // Nor can the side to move.
        let max = (cells - 1 - n.moves) / 2;
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }
        let key = n.key();
        let v = self.table.get(key);
        if v != 0 {
            if v > g.max_score - g.min_score + 1 {
                // A lower bound.
                let lower = v + 2 * g.min_score - g.max_score - 2;
                if alpha < lower {
                    alpha = lower;
                    if alpha >= beta {
                        return alpha;
                    }
                }
            } else {
                // An upper bound.
                let upper = v + g.min_score - 1;
                if beta > upper {
                    beta = upper;
                    if alpha >= beta {
                        return beta;
                    }
                }
            }
        }
        // Children by threats created, centre columns first among equals
        // (an insertion sort that keeps equal scores in centre order).
        let mut moves = [(0u64, 0i32); 16];
        let mut count = 0;
        for &c in &g.order[..g.size.width as usize] {
            let cell = next & g.columns[c as usize];
            if cell != 0 {
                let score = g.threats_after(n, cell);
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
            let score = -self.negamax(n.play(cell), -beta, -alpha);
            if score >= beta {
                // A lower bound. Clamping keeps it true (every score lies
                // within [min_score, max_score]) and its code in range.
                let lower = score.clamp(g.min_score, g.max_score);
                self.table
                    .put(key, lower + g.max_score - 2 * g.min_score + 2);
                return score;
            }
            if score > alpha {
                alpha = score;
            }
        }
        // An upper bound (clamped as above).
        let upper = alpha.clamp(g.min_score, g.max_score);
        self.table.put(key, upper - g.min_score + 1);
        alpha
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
    /// Whether the board is full (or the game won).
    pub(crate) fn has_no_moves(&self) -> bool {
        self.won || self.mask == self.board
    }
}
