//! Move ordering: hash move, then the game's good moves (captures by victim
//! and attacker, promotions: [`MoveOrder::Good`]), killers, then quiet moves
//! by history; the game's bad moves ([`MoveOrder::Bad`]) come last.
//!
//! Scores go into a parallel array and moves are picked one at a time by
//! selection, so a cut-off after the first few moves skips sorting the rest.

use game::{AlphaBetaState, MoveOrder};

pub const HASH_MOVE: i32 = 2_000_000;
const GOOD: i32 = 1_000_000;
const KILLER_1: i32 = 900_000;
const KILLER_2: i32 = 890_000;
const BAD: i32 = -1_000_000;
/// History scores stay within this bound (they are aged by halving).
pub const HISTORY_MAX: i32 = 400_000;

/// Ordering score of `m`, a legal move of `pos` (higher first). `history`
/// is the side to move's table ([`AlphaBetaState::HISTORY_SLOTS`] long).
#[inline]
pub fn score_move<S: AlphaBetaState>(
    pos: &S,
    m: S::Move,
    hash_move: Option<S::Move>,
    killers: &[Option<S::Move>; 2],
    history: &[i32],
) -> i32 {
    if Some(m) == hash_move {
        return HASH_MOVE;
    }
    match pos.order_move(m) {
        MoveOrder::Good(v) => GOOD + v,
        MoveOrder::Bad(v) => BAD + v + history[S::history_index(m)] / 16,
        MoveOrder::Quiet => {
            if killers[0] == Some(m) {
                KILLER_1
            } else if killers[1] == Some(m) {
                KILLER_2
            } else {
                history[S::history_index(m)]
            }
        }
    }
}

/// Selection step of a lazy sort: brings the best-scored of `moves[i..]`
/// (with its score) to position `i` and returns it. Cheaper than sorting
/// when a cut-off comes after the first few moves.
#[inline]
pub fn select_next<M: Copy>(moves: &mut [M], scores: &mut [i32], i: usize) -> M {
    let mut j = i;
    for k in i + 1..moves.len() {
        if scores[k] > scores[j] {
            j = k;
        }
    }
    moves.swap(i, j);
    scores.swap(i, j);
    moves[i]
}
