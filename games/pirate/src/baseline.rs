//! What the alpha-beta baseline (`eval::search`) needs of Pirate Chess: a
//! static evaluation and move facts (docs/games/pirate.md lists the terms).
//!
//! The evaluation, per side, then mover minus opponent:
//! - material: each ship on the board by its rank (§6), ships in reserve a
//!   little less (safe, but not yet in play);
//! - anchored ships: a bonus each (safe from all but the PIRATE, §4);
//! - mobility: the distinct destinations of each un-anchored ship;
//! - presence: a side with three deployments loses when its last ship goes
//!   (§8.1), so fewer than two ships on the board is a danger;
//! - threats: the mover's best attack, a share of what it wins (the
//!   opponent's are left to the search).

use crate::position::Position;
use crate::types::{Effect, Main, Move, Ship, ShipType, Side, ToggleAt};
use game::{AlphaBetaState, CaptureFacts, MoveOrder};

/// Weights of the evaluation (centipawn-like units; a DHOW is 150).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EvalParams {
    /// Value of each type on the board, by [`ShipType::index`]
    /// (F P D J B S G C).
    pub material: [i32; 8],
    /// Share (in 1/64) of a ship's value kept while it is in reserve.
    pub reserve_share: i32,
    /// Per anchored own ship.
    pub anchored: i32,
    /// Per destination of an un-anchored ship.
    pub mobility: i32,
    /// Per missing ship below two on the board, once three are deployed.
    pub presence: i32,
    /// Share (in 1/64) of the mover's best attack's gain.
    pub threat: i32,
    /// Bonus for the side to move.
    pub tempo: i32,
}

impl Default for EvalParams {
    fn default() -> Self {
        EvalParams {
            material: [900, 700, 150, 250, 400, 400, 400, 400],
            reserve_share: 56,
            anchored: 20,
            mobility: 2,
            presence: 250,
            threat: 32,
            tempo: 10,
        }
    }
}

/// Value of a type for move ordering.
#[inline]
fn value(t: ShipType) -> i32 {
    [900, 700, 150, 250, 400, 400, 400, 400][t.index()]
}

impl Position {
    /// The material a legal attack `m` wins at once: a sink takes the
    /// victim; a capture takes it and turns it, losing the attacker.
    #[inline]
    fn attack_gain(&self, m: Move) -> i32 {
        let victim = self.ship_at(m.to()).map_or(0, |s| value(s.kind()));
        match (m.effect(), m.main()) {
            (Effect::Sink, _) => victim,
            (Effect::Capture, Main::Sail(from)) => {
                2 * victim - self.ship_at(from).map_or(0, |s| value(s.kind()))
            }
            _ => 0,
        }
    }

    /// Whether `side` can attack the ship on `sq` in one turn (an anchored
    /// attacker may un-anchor first, §5).
    pub fn can_attack(&self, side: Side, sq: u8) -> bool {
        if !self.attacks_allowed() {
            return false;
        }
        let Some(target) = self.ship_at(sq) else {
            return false;
        };
        if target.owner() == side {
            return false;
        }
        let occupied = self.occupied();
        for s in self.occ[side.index()] {
            let t = Ship(self.board[s as usize]).kind();
            if target.anchored() && t != ShipType::Pirate {
                continue;
            }
            let mut hit = false;
            self.geo
                .for_each_destination(t, s, &occupied, |d| hit |= d == sq);
            if hit {
                return true;
            }
        }
        false
    }
}

/// Static evaluation of `pos` from the side to move's view.
pub fn evaluate(pos: &Position, p: &EvalParams) -> i32 {
    let me = pos.side();
    let occupied = pos.occupied();
    let attacks = pos.attacks_allowed();
    let mut score = [0i32; 2];
    let mut best_threat = 0;
    for side in Side::ALL {
        let si = side.index();
        let mut on_board = 0;
        for s in pos.occ[si] {
            let ship = Ship(pos.board[s as usize]);
            let t = ship.kind();
            on_board += 1;
            score[si] += p.material[t.index()];
            if ship.anchored() {
                score[si] += p.anchored;
            }
            let anchored = ship.anchored();
            let mut mobility = 0;
            pos.geo.for_each_destination(t, s, &occupied, |d| {
                let b = pos.board[d as usize];
                if b == 0 {
                    mobility += 1;
                    return;
                }
                let victim = Ship(b);
                if side == me
                    && attacks
                    && victim.owner() != side
                    && (!victim.anchored() || t == ShipType::Pirate)
                {
                    let v = p.material[victim.kind().index()];
                    let gain = if victim.kind().rank() > t.rank() {
                        2 * v - p.material[t.index()]
                    } else {
                        v
                    };
                    best_threat = best_threat.max(gain);
                }
            });
            if !anchored {
                score[si] += p.mobility * mobility;
            }
        }
        for t in ShipType::ALL {
            if pos.in_reserve(side, t) {
                score[si] += p.material[t.index()] * p.reserve_share / 64;
            }
        }
        if pos.deployed(side) >= 3 && on_board < 2 {
            score[si] -= p.presence * (2 - on_board);
        }
    }
    score[me.index()] += best_threat * p.threat / 64;
    score[me.index()] - score[me.other().index()] + p.tempo
}

/// History slots: (origin square, or 256 + deployed type, or 264 for a
/// toggle-only turn) × destination.
const ORIGINS: usize = 265;

impl AlphaBetaState for Position {
    type EvalParams = EvalParams;
    type EvalTables = ();
    type Captures = game::HasCaptures;
    type Solver = game::NoSolver;

    #[inline]
    fn evaluate(&self, _: &(), params: &EvalParams) -> i32 {
        evaluate(self, params)
    }

    const HISTORY_SLOTS: usize = ORIGINS * 256;

    #[inline]
    fn history_index(m: Move) -> usize {
        let origin = match m.main() {
            Main::Sail(from) => from as usize,
            Main::Deploy(t) => 256 + t.index(),
            Main::None => 264,
        };
        origin * 256 + m.to() as usize
    }

    /// Attacks first, by gain, those without a toggle after before the
    /// rest; then upgrades; everything else is quiet.
    #[inline]
    fn order_move(&self, m: Move) -> MoveOrder {
        let after = matches!(m.toggle(), ToggleAt::After(_));
        if m.is_attack() {
            return MoveOrder::Good(self.attack_gain(m) * 4 - if after { 400 } else { 0 });
        }
        if m.effect().is_upgrade() {
            return MoveOrder::Good(100 - if after { 50 } else { 0 });
        }
        MoveOrder::Quiet
    }

    #[inline]
    fn is_quiet(&self, m: Move) -> bool {
        !m.is_attack() && !m.effect().is_upgrade()
    }
}

/// Attacks are the captures (sinks and captures of §5); there is no check.
impl CaptureFacts for Position {
    /// Attacks with no toggle after (the toggle rarely changes what an
    /// exchange wins, and multiplies the moves by the fleet's size).
    #[inline]
    fn is_quiescence_move(&self, m: Move) -> bool {
        m.is_attack() && !matches!(m.toggle(), ToggleAt::After(_))
    }

    #[inline]
    fn capture_cell(&self, m: Move) -> Option<u32> {
        m.is_attack().then(|| m.to() as u32)
    }

    #[inline]
    fn material_gain(&self, m: Move) -> i32 {
        if m.is_attack() {
            self.attack_gain(m)
        } else {
            0
        }
    }

    /// A sink by a ship worth more than its victim, on a square the
    /// opponent can attack at once.
    #[inline]
    fn is_losing_capture(&self, m: Move, after: &Position) -> bool {
        let Main::Sail(from) = m.main() else {
            return false;
        };
        if m.effect() != Effect::Sink {
            return false;
        }
        let attacker = self.ship_at(from).map_or(0, |s| value(s.kind()));
        let victim = self.ship_at(m.to()).map_or(0, |s| value(s.kind()));
        attacker > victim && after.can_attack(after.side(), m.to())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Size;

    #[test]
    fn the_start_is_balanced_and_material_counts() {
        let p = Position::start(Size::DEFAULT);
        let params = EvalParams::default();
        assert_eq!(evaluate(&p, &params), params.tempo);
        // Red to move, a FRIGATE against a DHOW down.
        let q = Position::parse("F7/8/8/8/3F4/8/8/4f1d1 r - 00/00 8/8 0 9").unwrap();
        assert!(evaluate(&q, &params) < -500);
    }

    #[test]
    fn move_facts_agree() {
        let p = Position::parse("8/8/8/8/8/2f@1b3/4Ds@2/1P6 b FJBSGpdjgc 00/00 3/3 0 9").unwrap();
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        let mut attacks = 0;
        for &m in &moves {
            assert_eq!(p.is_quiet(m), p.order_move(m) == MoveOrder::Quiet);
            assert_eq!(p.capture_cell(m).is_some(), m.is_attack());
            assert!(Position::history_index(m) < Position::HISTORY_SLOTS);
            if p.is_quiescence_move(m) {
                attacks += 1;
                assert!(p.material_gain(m) > 0);
            }
        }
        // b1xc3, b1xc3=, e2xe3, e2xe3= without a toggle after.
        assert_eq!(attacks, 4);
        // The capture of the FRIGATE by the PIRATE wins more than the sink.
        let sink = p.parse_move("b1xc3").unwrap();
        let capture = p.parse_move("b1xc3=").unwrap();
        assert!(p.material_gain(capture) > p.material_gain(sink));
        assert!(p.can_attack(Side::Blue, p.geometry().parse_square("c3").unwrap()));
        // Red's anchored FRIGATE and SCHOONER reach neither b1 nor e2.
        assert!(!p.can_attack(Side::Red, p.geometry().parse_square("b1").unwrap()));
        assert!(!p.can_attack(Side::Red, p.geometry().parse_square("e2").unwrap()));
    }
}
