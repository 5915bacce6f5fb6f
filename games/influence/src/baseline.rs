//! Influence Chess for the alpha-beta baseline (`game::AlphaBetaState`):
//! a cheap static evaluation in centipawns from the side to move's view,
//! and the move facts the engine's ordering and quiescence use.
//!
//! The evaluation, for the player to move and the army he helps, minus the
//! same for his opponent:
//! - material of the army (pawn 100, knight 300, rook 500, queen 900);
//! - control: middle pieces standing on squares the player influences (he
//!   can move them), more for his own army's pieces than for the enemy's;
//! - reach: middle pieces one step from one of his influence pieces (one
//!   influence move from control);
//! - pawn advance of his army;
//! - a small bonus for having the move.
//!
//! Captures are "good" when they take a piece of the army the mover fights,
//! "bad" when the mover uses an enemy piece to take one of his own army
//! (legal, rarely wise).

use crate::position::Position;
use crate::tables::KING;
use crate::types::{Army, Bits, Kind, Move, Player};
use game::{AlphaBetaState, CaptureFacts, MoveOrder};

/// Weights of the evaluation; the defaults are the documented values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EvalParams {
    /// By kind: P N R Q K (the king's value is unused).
    pub material: [i32; 5],
    /// Per own-army middle piece on a square the player influences.
    pub control_own: i32,
    /// Per enemy-army middle piece on a square the player influences.
    pub control_enemy: i32,
    /// Per middle piece one king step from one of the player's influence
    /// pieces, not controlled yet.
    pub reach: i32,
    /// Per rank a pawn of the player's army has advanced.
    pub pawn_advance: i32,
    /// For the side to move.
    pub tempo: i32,
}

impl Default for EvalParams {
    fn default() -> EvalParams {
        EvalParams {
            material: [100, 300, 500, 900, 0],
            control_own: 12,
            control_enemy: 8,
            reach: 3,
            pawn_advance: 6,
            tempo: 10,
        }
    }
}

/// The player's terms (see the module docs).
#[inline]
fn side_score(pos: &Position, player: Player, p: &EvalParams) -> i32 {
    let army = pos.army_of(player);
    let mut s = 0;
    for k in [Kind::Pawn, Kind::Knight, Kind::Rook, Kind::Queen] {
        s += p.material[k.index()] * pos.pieces(army, k).count_ones() as i32;
    }
    let infl = pos.influence(player);
    s += p.control_own * (infl & pos.army_pieces(army)).count_ones() as i32;
    s += p.control_enemy * (infl & pos.army_pieces(army.other())).count_ones() as i32;
    let mut near = 0;
    for sq in Bits(pos.influence_pieces(player)) {
        near |= KING[sq.index()];
    }
    s += p.reach * (near & !infl & pos.occupied()).count_ones() as i32;
    for sq in Bits(pos.pieces(army, Kind::Pawn)) {
        let advanced = match army {
            Army::White => sq.rank() as i32 - 1,
            Army::Black => 5 - sq.rank() as i32,
        };
        s += p.pawn_advance * advanced;
    }
    s
}

/// Static evaluation from the side to move's view.
pub fn evaluate(pos: &Position, p: &EvalParams) -> i32 {
    let me = pos.turn();
    side_score(pos, me, p) - side_score(pos, me.other(), p) + p.tempo
}

const ORDER_VALUE: [i32; 5] = [100, 300, 500, 900, 1000];

impl Position {
    /// The piece taken by `m`, if any.
    #[inline]
    fn victim(&self, m: Move) -> Option<crate::Piece> {
        if m.is_middle() {
            self.piece_at(m.to())
        } else {
            None
        }
    }

    /// What a promotion of the mover's own army's pawn gains.
    #[inline]
    fn own_promotion_gain(&self, m: Move) -> i32 {
        match m.promotion().kind() {
            Some(k)
                if self.piece_at(m.from()).map(|p| p.army) == Some(self.army_of(self.turn())) =>
            {
                ORDER_VALUE[k.index()] - ORDER_VALUE[0]
            }
            _ => 0,
        }
    }
}

impl AlphaBetaState for Position {
    type EvalParams = EvalParams;
    type EvalTables = ();
    type Captures = game::HasCaptures;
    type Solver = game::NoSolver;

    #[inline]
    fn evaluate(&self, _: &(), params: &EvalParams) -> i32 {
        evaluate(self, params)
    }

    /// One slot per action index (RULES.md §10).
    const HISTORY_SLOTS: usize = crate::types::ACTIONS as usize;

    #[inline]
    fn history_index(m: Move) -> usize {
        m.code() as usize
    }

    #[inline]
    fn order_move(&self, m: Move) -> MoveOrder {
        let promo = self.own_promotion_gain(m);
        if let Some(v) = self.victim(m) {
            if v.army != self.army_of(self.turn()) {
                let attacker = self
                    .piece_at(m.from())
                    .map_or(0, |p| ORDER_VALUE[p.kind.index()]);
                return MoveOrder::Good(ORDER_VALUE[v.kind.index()] * 16 - attacker / 10 + promo);
            }
            return MoveOrder::Bad(promo);
        }
        if m.promotion().kind().is_some() {
            return if promo > 0 {
                MoveOrder::Good(promo)
            } else {
                MoveOrder::Bad(0)
            };
        }
        MoveOrder::Quiet
    }

    #[inline]
    fn is_quiet(&self, m: Move) -> bool {
        self.victim(m).is_none() && m.promotion().kind().is_none()
    }
}

impl CaptureFacts for Position {
    #[inline]
    fn in_check(&self) -> bool {
        Position::in_check(self)
    }

    /// Captures of the enemy army's pieces and queen promotions of the own
    /// army's pawns, without the influence piece going along (which keeps
    /// the quiescence tree narrow; the full-width search tries both).
    #[inline]
    fn is_quiescence_move(&self, m: Move) -> bool {
        if !m.is_middle() || m.is_accompanied() {
            return false;
        }
        let mine = self.army_of(self.turn());
        match m.promotion().kind() {
            Some(Kind::Queen) | None => {}
            Some(_) => return false,
        }
        match self.victim(m) {
            Some(v) => v.army != mine,
            None => self.own_promotion_gain(m) > 0,
        }
    }

    #[inline]
    fn capture_cell(&self, m: Move) -> Option<u32> {
        self.victim(m).map(|_| m.to().index() as u32)
    }

    #[inline]
    fn material_gain(&self, m: Move) -> i32 {
        let mine = self.army_of(self.turn());
        let taken = match self.victim(m) {
            Some(v) if v.army != mine => ORDER_VALUE[v.kind.index()],
            _ => 0,
        };
        taken + self.own_promotion_gain(m)
    }

    /// The capturer is worth more than its victim and the opponent
    /// influences a piece of his army that can take it back.
    #[inline]
    fn is_losing_capture(&self, m: Move, after: &Position) -> bool {
        let (Some(attacker), Some(victim)) = (self.piece_at(m.from()), self.victim(m)) else {
            return false;
        };
        if ORDER_VALUE[attacker.kind.index()] <= ORDER_VALUE[victim.kind.index()] {
            return false;
        }
        let them = after.turn();
        let their_army = after.army_of(them);
        after.attackers(m.to(), their_army) & after.influence(them) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::GameState;

    #[test]
    fn the_start_is_level_but_for_the_tempo() {
        let pos = Position::start(crate::Rules::BOOK, Army::White);
        let p = EvalParams::default();
        assert_eq!(evaluate(&pos, &p), p.tempo);
    }

    /// Move facts agree with one another over a random game.
    #[test]
    fn move_facts_agree() {
        let mut pos = Position::start(crate::Rules::BOOK, Army::White);
        let mut buf = Vec::new();
        let mut rng = game::SplitMix::new(5);
        for _ in 0..150 {
            GameState::legal_moves(&pos, &mut buf);
            if buf.is_empty() {
                break;
            }
            for &m in &buf {
                let quiet = pos.is_quiet(m);
                assert_eq!(quiet, pos.order_move(m) == MoveOrder::Quiet, "{m:?}");
                assert_eq!(pos.capture_cell(m).is_some(), pos.victim(m).is_some());
                if pos.is_quiescence_move(m) {
                    assert!(!quiet);
                }
                assert!(pos.material_gain(m) >= 0);
            }
            pos = pos.play(buf[rng.below(buf.len() as u64) as usize]);
        }
    }
}
