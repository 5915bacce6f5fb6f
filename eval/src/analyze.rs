//! One position searched by the alpha-beta engine and reported as people
//! and programs read it (`triad analyze`): each completed depth as a line,
//! then the best move, the score and the principal variation in the game's
//! canonical move text.

use crate::search::{Limits, Score, SearchInfo, Searcher};
use game::{AlphaBetaState, GameResult, GameState};
use serde::Serialize;
use std::fmt;

/// One completed depth of the search, its moves in text.
#[derive(Debug, Clone)]
pub struct DepthLine {
    /// The depth completed.
    pub depth: u32,
    /// Deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// The score from the side to move's view.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Milliseconds since the search began.
    pub time_ms: u128,
    /// The principal variation, each move in the position it is played from.
    pub pv: Vec<String>,
}

impl fmt::Display for DepthLine {
    /// `depth D seldepth S score X nodes N nps R time MS pv MOVES`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "depth {} seldepth {} score {} nodes {} nps {} time {} pv {}",
            self.depth,
            self.seldepth,
            self.score,
            self.nodes,
            self.nps,
            self.time_ms,
            self.pv.join(" ")
        )
    }
}

/// What a search of one position found (the keys of `triad analyze --json`).
#[derive(Debug, Clone, Serialize)]
pub struct Analysis {
    /// The position searched, in the game's text.
    pub position: String,
    /// The best move in canonical text; `None` when there is no legal move.
    pub bestmove: Option<String>,
    /// The score in pawns from the side to move's view (`None` with a mate).
    pub score: Option<f64>,
    /// Mate in N moves (N < 0: the side to move is mated; 0: it is already).
    pub mate: Option<i32>,
    /// The last completed depth.
    pub depth: u32,
    /// Its deepest ply, quiescence included.
    pub seldepth: u32,
    /// All nodes searched, the unfinished iteration included.
    pub nodes: u64,
    /// Nodes per second of the last completed depth.
    pub nps: u64,
    /// Milliseconds to the last completed depth.
    pub time_ms: u64,
    /// The principal variation in canonical text.
    pub pv: Vec<String>,
    /// Why there is no move when there is none: how the game ended, or
    /// `no legal move`.
    #[serde(skip)]
    pub no_move: String,
}

impl Analysis {
    /// `bestmove MOVE`, or `bestmove (none): WHY` when there is no move.
    pub fn bestmove_line(&self) -> String {
        match &self.bestmove {
            Some(m) => format!("bestmove {m}"),
            None => format!("bestmove (none): {}", self.no_move),
        }
    }
}

/// The moves of `line` in canonical text, each written in the position it
/// is played from (starting at `pos`).
pub fn line_text<S: GameState>(pos: &S, line: &[S::Move]) -> Vec<String> {
    let mut p = pos.clone();
    line.iter()
        .map(|&m| {
            let t = p.move_text(m);
            p.apply(m);
            t
        })
        .collect()
}

/// Searches `pos` within `limits` (depth 6 when none is set) with a fresh
/// engine of `hash_mb` MiB of transposition table; each completed depth goes
/// to `on_depth` as it is found.
pub fn analyze<S: AlphaBetaState>(
    pos: &S,
    limits: Limits,
    hash_mb: usize,
    mut on_depth: impl FnMut(&DepthLine),
) -> Analysis {
    let mut limits = limits;
    if !limits.is_set() {
        limits.depth = Some(6);
    }
    let mut searcher = Searcher::<S>::new(hash_mb);
    let result = searcher.search(pos, &[], limits, |info: &SearchInfo<S::Move>| {
        on_depth(&DepthLine {
            depth: info.depth,
            seldepth: info.seldepth,
            score: info.score,
            nodes: info.nodes,
            nps: info.nps(),
            time_ms: info.time.as_millis(),
            pv: line_text(pos, &info.pv),
        })
    });
    let outcome = pos.outcome(1);
    let (score, mate) = match result.info.as_ref().map(|i| i.score) {
        Some(Score::Cp(cp)) => (Some(cp as f64 / 100.0), None),
        Some(Score::Mate(n)) => (None, Some(n)),
        None if outcome.is_some_and(|o| o.result != GameResult::Draw) => (None, Some(0)),
        None => (Some(0.0), None),
    };
    let info = result.info.as_ref();
    Analysis {
        position: pos.to_text(),
        bestmove: result.best.map(|m| pos.move_text(m)),
        score,
        mate,
        depth: info.map_or(0, |i| i.depth),
        seldepth: info.map_or(0, |i| i.seldepth),
        nodes: result.nodes,
        nps: info.map_or(0, |i| i.nps()),
        time_ms: info.map_or(0, |i| i.time.as_millis() as u64),
        pv: info.map_or_else(Vec::new, |i| line_text(pos, &i.pv)),
        no_move: outcome.map_or("no legal move".to_string(), |o| o.termination.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::Game;
    use piratechnics::Piratechnics;

    /// One line per completed depth, and the analysis's best move is the
    /// first move of its principal variation.
    #[test]
    fn lines_per_depth_and_the_best_move() {
        let game = Piratechnics::standard();
        let pos = game.start();
        let mut lines = Vec::new();
        let a = analyze(&pos, Limits::depth(2), 1, |l| lines.push(l.to_string()));
        assert_eq!(lines.len(), 2);
        assert!(lines[0].starts_with("depth 1 seldepth "), "{}", lines[0]);
        assert_eq!(a.depth, 2);
        let best = a.bestmove.clone().expect("a move");
        assert_eq!(a.pv.first(), Some(&best));
        assert_eq!(a.bestmove_line(), format!("bestmove {best}"));
        assert_eq!(a.position, pos.to_text());
    }

    /// The perft vector file's reader: counts checked, mismatches reported,
    /// a bad line named.
    #[test]
    fn perft_suite_checks_reports_and_names_bad_lines() {
        let game = Piratechnics::standard();
        let start = game.start().to_text();
        let d1 = game::perft(&game.start(), 1);
        let text = format!("# c\n\n{start} ; D1 {d1} ; D2 1\n");
        let mut seen = Vec::new();
        let counts = game::perft_suite(&game, &text, 9, 1, |m| seen.push(m.to_string()));
        assert_eq!(counts, Ok((1, 1)));
        assert_eq!(seen.len(), 1);
        assert!(seen[0].starts_with("MISMATCH depth 2: expected 1, got "));
        let bad = format!("{start} ; D1 {d1}\n{start} ; X1 5\n");
        let e = game::perft_suite(&game, &bad, 9, 1, |_| {}).unwrap_err();
        assert_eq!(
            (e.line, e.problem.to_string().as_str()),
            (2, "bad depth \"X1\"")
        );
    }
}
