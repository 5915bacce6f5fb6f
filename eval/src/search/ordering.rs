//! Move ordering: hash move, then captures of enemy crew by victim value
//! (cheapest possible attacker first), promotions, killers, then quiet moves
//! by history. Self-captures (legal here) come last: they are rarely good.
//!
//! Scores go into a parallel array and moves are picked one at a time by
//! selection, so a cut-off after the first few moves skips sorting the rest.

use piratechnics::{Color, Kind, Move};

pub const HASH_MOVE: i32 = 2_000_000;
const CAPTURE: i32 = 1_000_000;
const KILLER_1: i32 = 900_000;
const KILLER_2: i32 = 890_000;
const SELF_CAPTURE: i32 = -1_000_000;
/// History scores stay within this bound (they are aged by halving).
pub const HISTORY_MAX: i32 = 400_000;

/// Value used to rank captures; the king never moves into a capture cheaply.
pub const ORDER_VALUE: [i32; 6] = [100, 300, 330, 480, 900, 1000];

/// The cheapest moving crewman: the least we risk on the target ship. The
/// real leader is not part of a move (RULES.md §8), so this is a bound.
#[inline]
pub fn cheapest_moving(m: Move) -> i32 {
    let moving = m.moving();
    Kind::ALL
        .into_iter()
        .find(|&k| moving.get(k) > 0)
        .map_or(0, |k| ORDER_VALUE[k.index()])
}

/// Value gained by promotions (queen minus pawn per queen, etc.).
#[inline]
pub fn promotion_gain(m: Move) -> i32 {
    let p = m.promotions();
    if p.is_empty() {
        return 0;
    }
    [Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen]
        .into_iter()
        .map(|k| p.get(k) as i32 * (ORDER_VALUE[k.index()] - ORDER_VALUE[0]))
        .sum()
}

/// Whether `m` is a capture of an enemy crewman by the side `us`.
#[inline]
pub fn captures_enemy(m: Move, us: Color) -> bool {
    matches!(m.captured(), Some(p) if p.color != us)
}

/// History index: kind of move, origin, destination.
#[inline]
pub fn history_index(m: Move) -> usize {
    ((m.is_ship() as usize) << 12) | (m.from().index() << 6) | m.to().index()
}

/// Ordering score of `m` (higher first).
#[inline]
pub fn score_move(
    m: Move,
    us: Color,
    hash_move: Option<Move>,
    killers: &[Option<Move>; 2],
    history: &[i32],
) -> i32 {
    if Some(m) == hash_move {
        return HASH_MOVE;
    }
    let promo = promotion_gain(m);
    if let Some(p) = m.captured() {
        if p.color != us {
            return CAPTURE + ORDER_VALUE[p.kind.index()] * 16 - cheapest_moving(m) + promo
                - 16 * m.moving().total() as i32;
        }
        return SELF_CAPTURE + promo + history[history_index(m)] / 16;
    }
    if promo > 0 {
        return CAPTURE + promo;
    }
    if killers[0] == Some(m) {
        return KILLER_1;
    }
    if killers[1] == Some(m) {
        return KILLER_2;
    }
    history[history_index(m)]
}

/// Selection step of a lazy sort: brings the best-scored of `moves[i..]`
/// (with its score) to position `i` and returns it. Cheaper than sorting
/// when a cut-off comes after the first few moves.
#[inline]
pub fn select_next(moves: &mut [Move], scores: &mut [i32], i: usize) -> Move {
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
