//! Perft for any game: the leaf count of the legal-move tree, the standard
//! check of a move generator.

use crate::GameState;

/// The deepest perft count: the walk recurses once per ply, so its depth is
/// bounded to keep the stack (and the per-ply buffers) small whatever the
/// input says; deeper counts would take years anyway. [`perft_suite`] and
/// `triad perft --depth` refuse more; the walks below panic on more (a
/// caller's bug, never a stack overflow).
pub const MAX_PERFT_DEPTH: u32 = 30;

/// Leaf count of the legal-move tree of `depth` plies (at most
/// [`MAX_PERFT_DEPTH`]). The last ply is counted without being played
/// ("bulk counting"). Buffers are reused per ply, so the walk allocates only
/// at the start.
pub fn perft<S: GameState>(pos: &S, depth: u32) -> u64 {
    assert!(
        depth <= MAX_PERFT_DEPTH,
        "perft depth {depth} is over MAX_PERFT_DEPTH ({MAX_PERFT_DEPTH})"
    );
    let mut bufs: Vec<Vec<S::Move>> = (0..depth.max(1)).map(|_| Vec::with_capacity(256)).collect();
    perft_with(pos, depth, &mut bufs)
}

fn perft_with<S: GameState>(pos: &S, depth: u32, bufs: &mut [Vec<S::Move>]) -> u64 {
    match depth {
        0 => return 1,
        1 => return pos.count_legal_moves(),
        _ => {}
    }
    let (buf, rest) = bufs.split_first_mut().expect("one buffer per ply");
    pos.legal_moves(buf);
    let mut n = 0;
    for &m in buf.iter() {
        n += perft_with(&pos.play(m), depth - 1, rest);
    }
    n
}

/// Leaf counts below each root move (`perft --divide`).
pub fn divide<S: GameState>(pos: &S, depth: u32) -> Vec<(S::Move, u64)> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|m| {
            let n = if depth <= 1 {
                1
            } else {
                perft(&pos.play(m), depth - 1)
            };
            (m, n)
        })
        .collect()
}

/// Perft split across `threads` threads at the root (the root moves are
/// handed out one at a time, so threads stay busy when subtrees differ).
pub fn perft_parallel<S: GameState>(pos: &S, depth: u32, threads: usize) -> u64 {
    if depth <= 1 || threads <= 1 {
        return perft(pos, depth);
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut total = 0;
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(&m) = moves.get(i) else { break };
                        total += perft(&pos.play(m), depth - 1);
                    }
                    total
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("perft thread"))
            .sum()
    })
}

/// One perft count, timed (`triad perft`).
#[derive(Debug, Clone)]
pub struct PerftReport {
    /// Leaves of the tree.
    pub nodes: u64,
    /// With `divide`: each root move in canonical text and its leaf count.
    pub divide: Vec<(String, u64)>,
    /// Wall-clock seconds of the count.
    pub seconds: f64,
}

impl PerftReport {
    /// Leaves counted per second.
    pub fn nodes_per_s(&self) -> f64 {
        self.nodes as f64 / self.seconds.max(1e-9)
    }

    /// `triad perft`'s text: each root move's count (with `divide`), then
    /// the total, the time and the speed on `threads` threads.
    pub fn text(&self, depth: u32, threads: usize) -> String {
        let mut s: String = self
            .divide
            .iter()
            .map(|(m, n)| format!("{m} {n}\n"))
            .collect();
        s.push_str(&format!(
            "depth {depth} nodes {} time {:.3}s ({:.1} M nodes/s, {threads} thread{})\n",
            self.nodes,
            self.seconds,
            self.nodes_per_s() / 1e6,
            if threads == 1 { "" } else { "s" }
        ));
        s
    }
}

/// Counts the leaves of `depth` plies from `pos`, timed: below each root
/// move with `divide` (on one thread), else split over `threads`.
pub fn timed_perft<S: GameState>(pos: &S, depth: u32, threads: usize, divide: bool) -> PerftReport {
    let t0 = std::time::Instant::now();
    let (nodes, lines) = if divide {
        let lines: Vec<(String, u64)> = self::divide(pos, depth)
            .into_iter()
            .map(|(m, n)| (pos.move_text(m), n))
            .collect();
        (lines.iter().map(|l| l.1).sum(), lines)
    } else {
        (perft_parallel(pos, depth, threads), Vec::new())
    };
    PerftReport {
        nodes,
        divide: lines,
        seconds: t0.elapsed().as_secs_f64(),
    }
}

/// A count of a perft vector file that the move generator does not match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerftMismatch {
    /// The depth of the count.
    pub depth: u32,
    /// The count in the file.
    pub expected: u64,
    /// The generator's count.
    pub got: u64,
    /// The position's text as the file gives it.
    pub position: String,
}

impl std::fmt::Display for PerftMismatch {
    /// `MISMATCH depth D: expected N, got M: POSITION`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "MISMATCH depth {}: expected {}, got {}: {}",
            self.depth, self.expected, self.got, self.position
        )
    }
}

/// A line of a perft vector file that cannot be read: `line N: what is
/// wrong`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct PerftSuiteError {
    /// The line, counted from 1.
    pub line: usize,
    /// What is wrong with it.
    #[source]
    pub problem: PerftLineProblem,
}

/// What is wrong with a line of a perft vector file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PerftLineProblem {
    /// The position does not read.
    #[error("{0}")]
    Position(#[source] crate::GameError),
    /// A count that is not `D<depth> <nodes>` (the text, clipped).
    #[error("\"{0}\" is not like \"D3 1234\"")]
    NotACount(String),
    /// A depth that is not `D<number>` (the text, clipped).
    #[error("bad depth \"{0}\"")]
    BadDepth(String),
    /// A depth deeper than perft counts.
    #[error("depth {0} is deeper than perft counts ({MAX_PERFT_DEPTH} at most)")]
    TooDeep(u32),
    /// A node count that is not a number (the text, clipped).
    #[error("bad count \"{0}\"")]
    BadCount(String),
}

/// Checks every count of a perft vector file's `text` (lines `POSITION ;
/// D1 n ; D2 n ...`; blank lines and `#` comments skipped) up to
/// `max_depth`, each position in its own variant of `game` when the text
/// says so. Each mismatch goes to `on_mismatch` as it is found; the result
/// is `(passed, failed)`. A line that cannot be read (a depth over
/// [`MAX_PERFT_DEPTH`] included) stops the check (the counts of the lines
/// before it have been checked).
pub fn perft_suite<G: crate::Game>(
    game: &G,
    text: &str,
    max_depth: u32,
    threads: usize,
    mut on_mismatch: impl FnMut(&PerftMismatch),
) -> Result<(u32, u32), PerftSuiteError> {
    let (mut passed, mut failed) = (0u32, 0u32);
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |problem: PerftLineProblem| PerftSuiteError {
            line: i + 1,
            problem,
        };
        let mut parts = line.split(';');
        let tfen = parts.next().unwrap_or("").trim();
        // A file may mix board sizes: each line in its own variant.
        let own = game.variant_for_text(tfen);
        let pos = own
            .as_ref()
            .unwrap_or(game)
            .parse_state(tfen)
            .map_err(|e| at(PerftLineProblem::Position(e)))?;
        for p in parts {
            let mut w = p.split_whitespace();
            let (Some(d), Some(n), None) = (w.next(), w.next(), w.next()) else {
                return Err(at(PerftLineProblem::NotACount(
                    crate::clip(p.trim(), 40).to_string(),
                )));
            };
            let depth: u32 = d
                .strip_prefix('D')
                .and_then(|x| x.parse().ok())
                .ok_or_else(|| at(PerftLineProblem::BadDepth(crate::clip(d, 40).to_string())))?;
            if depth > MAX_PERFT_DEPTH {
                return Err(at(PerftLineProblem::TooDeep(depth)));
            }
            let expected: u64 = n
                .parse()
                .map_err(|_| at(PerftLineProblem::BadCount(crate::clip(n, 40).to_string())))?;
            if depth > max_depth {
                continue;
            }
            let got = perft_parallel(&pos, depth, threads.max(1));
            if got == expected {
                passed += 1;
            } else {
                failed += 1;
                on_mismatch(&PerftMismatch {
                    depth,
                    expected,
                    got,
                    position: tfen.to_string(),
                });
            }
        }
    }
    Ok((passed, failed))
}
