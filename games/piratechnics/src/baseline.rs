//! PiRaTeKnIcS for the alpha-beta baseline (`game::AlphaBetaState`, with
//! `game::CaptureFacts` and per-variant `game::EvalTables`): the
//! hand-written evaluation, in centipawns from the side to move's view, and
//! the move facts the engine's ordering and quiescence use (MVV-LVA values,
//! single-crewman captures, queen promotions, the losing-capture test).
//!
//! One pass over the crewed ships builds, for each side, where its crew
//! reach (mobility), which cells they attack (once and twice) and which they
//! attack with a pawn; the terms below are then bit operations. Every term is
//! described, with its weight, in `docs/search.md`:
//!
//! - material (the values were chosen by fixed-depth self-play matches);
//! - mobility: cells each kind of crewman on a ship reaches;
//! - pawn advancement and promotion threats;
//! - king safety: enemy attacks on the king's cell and its neighbours;
//! - ships you can sail: own-crewed ships that have somewhere to go;
//! - free places on ships that carry only own crew;
//! - hostages: enemy crew on ships where we are the majority;
//! - crew on attacked ships: undefended, or attacked by a pawn when worth more;
//! - a small bonus for having the move.

use crate::crew::Crew;
use crate::{Bitboard, Color, Kind, Move, Piece, Position, Square, Variant};
use game::{AlphaBetaState, CaptureFacts, EvalTables, MoveOrder};

/// Weights of the evaluation. Defaults are the values documented in
/// `docs/search.md`; the struct is public so self-play matches can compare
/// variants of them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EvalParams {
    /// Material by kind (P N B R Q K); the king's value is unused.
    pub material: [i32; 6],
    /// Mobility per reachable cell, by kind.
    pub mobility: [i32; 6],
    /// Pawn bonus by number of steps still to go to its promotion cell
    /// (index 0 unused, 1 = one step away).
    pub pawn_advance: [i32; 8],
    /// Extra bonus for a pawn one step from promotion whose step cell the
    /// enemy does not attack.
    pub promotion_threat: i32,
    /// King-zone danger, indexed by the number of enemy attacks (capped).
    pub king_danger: [i32; 10],
    /// Per own-crewed ship that can sail somewhere.
    pub sailable_ship: i32,
    /// Per free place on a ship carrying only own crew.
    pub free_place: i32,
    /// Per enemy crewman held on a ship where we have more crew.
    pub hostage: i32,
    /// Share (in 1/64) of the most valuable own crewman on an attacked,
    /// undefended ship that is lost as a penalty.
    pub hanging: i32,
    /// Share (in 1/64) of the value above a pawn's of crew on a ship a pawn attacks.
    pub pawn_threat: i32,
    /// Bonus for the side to move.
    pub tempo: i32,
}

impl Default for EvalParams {
    fn default() -> Self {
        EvalParams {
            material: [100, 300, 330, 480, 900, 0],
            mobility: [1, 4, 3, 2, 1, 0],
            pawn_advance: [0, 70, 35, 18, 8, 3, 0, 0],
            promotion_threat: 40,
            king_danger: [0, 0, 8, 20, 36, 60, 90, 130, 180, 240],
            sailable_ship: 6,
            free_place: 2,
            hostage: 12,
            hanging: 16,
            pawn_threat: 16,
            tempo: 10,
        }
    }
}

/// What the evaluation needs of one variant beyond the rules engine's own
/// reach tables ([`Variant`]): each pawn's distance to promotion.
pub struct Geometry {
    variant: &'static Variant,
    /// Steps a pawn of each colour on a cell needs to reach its promotion cell.
    pawn_distance: [[u8; 64]; 2],
    capacity: u32,
}

impl Geometry {
    pub fn new(v: &'static Variant) -> Geometry {
        let mut pawn_distance = [[0u8; 64]; 2];
        for s in v.cells {
            for c in Color::ALL {
                // Forward until the promotion cell; a missing cell ends the
                // walk after it is counted.
                let (mut n, mut at) = (0u8, s);
                while v.promotion[c.index()].0 & at.bit() == 0 {
                    n += 1;
                    let step = v.pawn_step(c, at);
                    if step == 0 {
                        break;
                    }
                    at = Square::from_index(step.trailing_zeros() as usize);
                }
                pawn_distance[c.index()][s.index()] = n;
            }
        }
        Geometry {
            variant: v,
            pawn_distance,
            capacity: v.capacity as u32,
        }
    }

    /// Whether these tables belong to `v`.
    pub fn is_for(&self, v: &'static Variant) -> bool {
        std::ptr::eq(self.variant, v)
    }

    /// Quiet reach and capture reach of a crewman (RULES.md §3, §4).
    #[inline]
    fn reach(&self, c: Color, k: Kind, sq: usize, blockers: u64) -> (u64, u64) {
        let v = self.variant;
        let s = Square::from_index(sq);
        let r = match k {
            Kind::Pawn => return (v.pawn_push(c, s, blockers), v.pawn_capture_reach(c, s)),
            Kind::Knight => v.knight_reach(s),
            Kind::Bishop => v.bishop_reach(s, blockers),
            Kind::Rook => v.rook_reach(s, blockers),
            Kind::Queen => v.rook_reach(s, blockers) | v.bishop_reach(s, blockers),
            Kind::King => v.king_reach(s),
        };
        (r, r)
    }
}

/// Static evaluation of `pos` from the side to move's point of view.
pub fn evaluate(pos: &Position, g: &Geometry, p: &EvalParams) -> i32 {
    let crewed = pos.crewed().0;
    let no_ship = pos.variant().cells.0 & !pos.ships().0;

    // Pass 1: attack maps, mobility, material and per-ship facts.
    let mut m = Maps {
        attacks: [0; 2],
        attacks2: [0; 2],
        pawn_attacks: [0; 2],
        score: [0; 2],
        sailable: [0; 2],
    };
    for s in Bitboard(crewed) {
        let crew = match pos.ship_at(s) {
            Some(c) => c,
            None => continue,
        };
        m.add_ship(g, p, s.index(), crew, crewed, no_ship);
    }

    // Pass 2: terms that need both sides' attack maps.
    for c in Color::ALL {
        let ci = c.index();
        m.score[ci] += p.sailable_ship * m.sailable[ci];
        m.score[ci] += m.promotion_threats(pos, g, p, c);
        m.score[ci] -= m.king_danger(pos, g, p, c);
        m.score[ci] -= m.threatened_crew(pos, p, c);
    }

    let us = pos.side().index();
    m.score[us] - m.score[1 - us] + p.tempo
}

/// What the first pass over the crewed ships gathers, for each side
/// (indexed by colour): the cells its crew attack (once, twice, with a
/// pawn), its score so far, and its ships that can sail.
struct Maps {
    attacks: [u64; 2],
    attacks2: [u64; 2],
    pawn_attacks: [u64; 2],
    score: [i32; 2],
    sailable: [i32; 2],
}

impl Maps {
    /// Adds each side's crew on the ship `crew` on cell `i`: material,
    /// mobility, pawn advancement, attacks, and the ship's sailing, free
    /// places and hostages.
    #[inline]
    fn add_ship(
        &mut self,
        g: &Geometry,
        p: &EvalParams,
        i: usize,
        crew: Crew,
        crewed: u64,
        no_ship: u64,
    ) {
        for c in Color::ALL {
            let own = crew.color(c);
            if !own.is_empty() {
                self.add_crew(g, p, i, crew, c, (crewed, no_ship));
            }
        }
    }

    /// Adds `c`'s crew on the ship `crew` on cell `i` (`crewed` and
    /// `no_ship` the cells with crew and without a ship).
    #[inline]
    fn add_crew(
        &mut self,
        g: &Geometry,
        p: &EvalParams,
        i: usize,
        crew: Crew,
        c: Color,
        (crewed, no_ship): (u64, u64),
    ) {
        let own = crew.color(c);
        let ci = c.index();
        let mut any_quiet = 0u64;
        for k in Kind::ALL {
            let n = own.get(k);
            if n == 0 {
                continue;
            }
            let ki = k.index();
            self.score[ci] += p.material[ki] * n as i32;
            let (quiet, capture) = g.reach(c, k, i, crewed);
            any_quiet |= quiet;
            // Crew on the same ship never attack each other, and the
            // ship's own cell is never in its reach.
            self.attacks2[ci] |= self.attacks[ci] & capture;
            self.attacks[ci] |= capture;
            if k == Kind::Pawn {
                self.pawn_attacks[ci] |= capture;
                let dist = g.pawn_distance[ci][i] as usize;
                self.score[ci] += p.pawn_advance[dist.min(7)] * n as i32;
            } else if k != Kind::King {
                // Cells the crewman could go to or capture on: empty
                // cells and ships, minus ships holding only own crew
                // and no room (cheap approximation: all of them).
                self.score[ci] += p.mobility[ki] * (quiet | capture).count_ones() as i32;
            }
        }
        if any_quiet & no_ship != 0 {
            self.sailable[ci] += 1;
        }
        let theirs = crew.color(!c).total();
        let mine = own.total();
        if theirs == 0 {
            self.score[ci] += p.free_place * g.capacity.saturating_sub(mine) as i32;
        } else if mine > theirs {
            self.score[ci] += p.hostage * theirs as i32;
        }
    }

    /// Promotion threats: `c`'s pawns one step away whose step cell is safe.
    #[inline]
    fn promotion_threats(&self, pos: &Position, g: &Geometry, p: &EvalParams, c: Color) -> i32 {
        let (ci, ti) = (c.index(), (!c).index());
        let mut bonus = 0;
        for s in pos.cells_with(Piece::new(c, Kind::Pawn)) {
            let i = s.index();
            if g.pawn_distance[ci][i] == 1 && g.variant.pawn_step(c, s) & self.attacks[ti] == 0 {
                bonus += p.promotion_threat;
            }
        }
        bonus
    }

    /// King safety: enemy attacks on `c`'s king's cell and neighbours.
    #[inline]
    fn king_danger(&self, pos: &Position, g: &Geometry, p: &EvalParams, c: Color) -> i32 {
        let ti = (!c).index();
        let k = pos.king(c).index();
        let zone = g.variant.king_reach(pos.king(c)) | (1 << k);
        let n = (zone & self.attacks[ti]).count_ones() + (zone & self.attacks2[ti]).count_ones();
        p.king_danger[(n as usize).min(9)]
    }

    /// Crew on attacked ships: `c`'s best crewman on each ship the enemy
    /// attacks, undefended, or attacked by a pawn when worth more.
    #[inline]
    fn threatened_crew(&self, pos: &Position, p: &EvalParams, c: Color) -> i32 {
        let (ci, ti) = (c.index(), (!c).index());
        let mut penalty = 0;
        let mut threatened = pos.cells_of(c).0 & self.attacks[ti];
        while threatened != 0 {
            let i = threatened.trailing_zeros() as usize;
            threatened &= threatened - 1;
            let crew = match pos.ship_at(Square::from_index(i)) {
                Some(x) => x.color(c),
                None => continue,
            };
            let best = [
                Kind::Queen,
                Kind::Rook,
                Kind::Bishop,
                Kind::Knight,
                Kind::Pawn,
            ]
            .into_iter()
            .find(|&k| crew.get(k) > 0);
            let v = match best {
                Some(k) => p.material[k.index()],
                None => continue, // only the king, which is never captured
            };
            if self.attacks[ci] & (1 << i) == 0 {
                penalty += v * p.hanging / 64;
            } else if self.pawn_attacks[ti] & (1 << i) != 0 && v > p.material[0] {
                penalty += (v - p.material[0]) * p.pawn_threat / 64;
            }
        }
        penalty
    }
}

/// Value used to rank captures; the king never moves into a capture cheaply.
const ORDER_VALUE: [i32; 6] = [100, 300, 330, 480, 900, 1000];

/// The cheapest moving crewman: the least we risk on the target ship. The
/// real leader is not part of a move (RULES.md §8), so this is a bound.
#[inline]
fn cheapest_moving(m: Move) -> i32 {
    let moving = m.moving();
    Kind::ALL
        .into_iter()
        .find(|&k| moving.get(k) > 0)
        .map_or(0, |k| ORDER_VALUE[k.index()])
}

/// Value gained by promotions (queen minus pawn per queen, etc.).
#[inline]
fn promotion_gain(m: Move) -> i32 {
    let p = m.promotions();
    if p.is_empty() {
        return 0;
    }
    [Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen]
        .into_iter()
        .map(|k| p.get(k) as i32 * (ORDER_VALUE[k.index()] - ORDER_VALUE[0]))
        .sum()
}

/// Ordering value of the victim of `m` (0 for a move that takes nothing).
#[inline]
fn victim_value(m: Move) -> i32 {
    m.captured().map_or(0, |p| ORDER_VALUE[p.kind.index()])
}

/// The baseline's view of PiRaTeKnIcS. Move ordering: captures of enemy
/// crew by victim value (cheapest possible attacker first, fewer companions
/// first), then promotions, killers and quiet moves; self-captures (legal
/// here) come last: they are rarely good. Quiescence follows captures of
/// enemy crew by a single crewman (companions rarely change a capture's
/// outcome and multiply the moves) and promotions to queens only
/// (under-promotion is left to the full-width search).
impl AlphaBetaState for Position {
    type EvalParams = EvalParams;
    type EvalTables = Geometry;
    type Captures = game::HasCaptures;
    type Solver = game::NoSolver;

    #[inline]
    fn evaluate(&self, tables: &Geometry, params: &EvalParams) -> i32 {
        evaluate(self, tables, params)
    }

    /// Ship or crew move, origin, destination: 2 × 64 × 64.
    const HISTORY_SLOTS: usize = 8192;

    #[inline]
    fn history_index(m: Move) -> usize {
        ((m.is_ship() as usize) << 12) | (m.from().index() << 6) | m.to().index()
    }

    #[inline]
    fn order_move(&self, m: Move) -> MoveOrder {
        let promo = promotion_gain(m);
        if let Some(p) = m.captured() {
            if p.color != self.side() {
                return MoveOrder::Good(
                    ORDER_VALUE[p.kind.index()] * 16 - cheapest_moving(m) + promo
                        - 16 * m.moving().total() as i32,
                );
            }
            return MoveOrder::Bad(promo);
        }
        if promo > 0 {
            return MoveOrder::Good(promo);
        }
        MoveOrder::Quiet
    }

    #[inline]
    fn is_quiet(&self, m: Move) -> bool {
        !m.is_capture() && m.promotions().is_empty()
    }
}

impl EvalTables<Position> for Geometry {
    fn build(pos: &Position) -> Geometry {
        Geometry::new(pos.variant())
    }

    #[inline]
    fn fits(&self, pos: &Position) -> bool {
        self.is_for(pos.variant())
    }
}

impl CaptureFacts for Position {
    #[inline]
    fn in_check(&self) -> bool {
        Position::in_check(self)
    }

    #[inline]
    fn is_quiescence_move(&self, m: Move) -> bool {
        let p = m.promotions();
        if !p.is_empty() && p.get(Kind::Queen) != p.total() {
            return false;
        }
        match m.captured() {
            Some(c) if c.color != self.side() => m.moving().total() == 1,
            Some(_) => false,
            None => !p.is_empty(),
        }
    }

    #[inline]
    fn capture_cell(&self, m: Move) -> Option<u32> {
        m.is_capture().then(|| m.to().index() as u32)
    }

    #[inline]
    fn material_gain(&self, m: Move) -> i32 {
        victim_value(m) + promotion_gain(m)
    }

    /// The capturer is worth more than the victim and the opponent can take
    /// it back.
    #[inline]
    fn is_losing_capture(&self, m: Move, after: &Position) -> bool {
        cheapest_moving(m) > victim_value(m) && after.is_attacked(m.to(), after.side())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::GameState;

    #[test]
    fn start_position_is_balanced() {
        let pos = Position::start();
        let g = Geometry::new(pos.variant());
        let p = EvalParams::default();
        // Symmetric position: only the tempo bonus remains.
        assert_eq!(evaluate(&pos, &g, &p), p.tempo);
        assert!(pos.eval_tables_fit(&g));
        assert_eq!(
            AlphaBetaState::evaluate(&pos, &pos.eval_tables(), &p),
            p.tempo
        );
    }

    #[test]
    fn pawn_distances() {
        let v = Variant::standard();
        let g = Geometry::new(v);
        let d2 = Square::parse("d2").unwrap().index();
        assert_eq!(g.pawn_distance[0][d2], 6);
        assert_eq!(g.pawn_distance[1][d2], 1);
        let a6 = Square::parse("a6").unwrap().index();
        assert_eq!(g.pawn_distance[0][a6], 1); // a7 is White's promotion cell
    }

    /// Every legal move of a few positions is classified consistently:
    /// quiet moves are exactly the ones ordered as quiet, quiescence moves
    /// capture or promote, and only captures have a capture cell.
    #[test]
    fn move_facts_agree() {
        let mut pos = Position::start();
        let mut buf = Vec::new();
        let mut rng = game::SplitMix::new(7);
        for _ in 0..60 {
            GameState::legal_moves(&pos, &mut buf);
            if buf.is_empty() {
                break;
            }
            for &m in &buf {
                let quiet = pos.is_quiet(m);
                assert_eq!(quiet, pos.order_move(m) == MoveOrder::Quiet, "{m:?}");
                assert_eq!(pos.capture_cell(m).is_some(), m.is_capture());
                if pos.is_quiescence_move(m) {
                    assert!(!quiet);
                }
                assert!(pos.material_gain(m) >= 0);
            }
            pos = pos.play(buf[rng.below(buf.len() as u64) as usize]);
        }
    }
}
