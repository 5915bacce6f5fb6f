//! Legal turns (RULES.md §5–§7), one per distinct turn in the canonical form
//! of §9, and their number counted without listing them (§9's formula),
//! which perft uses at its last ply.
//!
//! The listing fills the caller's buffer and allocates nothing else: a
//! position has about a thousand turns (every deploy times every toggle
//! that may follow it), so this is the hot path of self-play.

use crate::position::{Position, UPGRADE_LIMIT};
use crate::types::{Bits, Effect, Move, Ship, ShipType, Side};

/// "No square" for the skip arguments below (squares are below 256).
const NO_SQ: u16 = 0x100;

/// The own non-PIRATE ships of the mover: the squares a toggle may name.
struct Togglable {
    sq: [u8; 32],
    n: usize,
}

impl Togglable {
    #[inline]
    fn of(p: &Position, me: Side) -> Togglable {
        let mut t = Togglable { sq: [0; 32], n: 0 };
        for s in p.occ[me.index()] {
            if Ship(p.board[s as usize]).kind() != ShipType::Pirate && t.n < 32 {
                t.sq[t.n] = s;
                t.n += 1;
            }
        }
        t
    }
    #[inline]
    fn list(&self) -> &[u8] {
        &self.sq[..self.n]
    }
}

/// Pushes `base` alone and followed by each toggle the position after it
/// allows: every square of `before` but `skip_a` and `skip_b` (ships that
/// left), and `add` (the ship that arrived, when it anchors).
#[inline]
fn push_with_toggles(
    out: &mut Vec<Move>,
    base: Move,
    before: &[u8],
    skip_a: u16,
    skip_b: u16,
    add: u16,
) {
    out.push(base);
    for &q in before {
        if q as u16 != skip_a && q as u16 != skip_b {
            out.push(base.with_toggle_after(q));
        }
    }
    if add != NO_SQ {
        out.push(base.with_toggle_after(add as u8));
    }
}

/// The upgrade choices left to `side` (§7): bit 0 FRIGATE, bit 1 PIRATE.
#[inline]
fn upgrade_choices(p: &Position, side: Side) -> u8 {
    let [f, pi] = p.upgrades(side);
    (f < UPGRADE_LIMIT) as u8 | (((pi < UPGRADE_LIMIT) as u8) << 1)
}

impl Position {
    /// Every legal turn, in a fixed order: toggle-only turns, then each own
    /// ship's sails (by square, destinations in the order of §3.2's
    /// directions), then deploys onto empty squares, then deploy-upgrades.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.loser_by_elimination().is_some() {
            return;
        }
        let me = self.side;
        let togg = Togglable::of(self, me);
        let l = togg.list();
        let choices = upgrade_choices(self, me);
        let occupied = self.occupied();

        // 1. Toggle only.
        for &s in l {
            out.push(Move::toggle_only(s));
        }
        // 2. Sails.
        let attacks = self.attacks_allowed();
        for s in self.occ[me.index()] {
            self.push_sails(out, s, l, choices, attacks, &occupied);
        }
        // 3. and 4. Deploys.
        let reserve = self.reserve[me.index()];
        if reserve != 0 {
            self.push_deploys(out, reserve, l, &occupied);
            if choices != 0 {
                self.push_deploy_upgrades(out, reserve, l, choices);
            }
        }
    }

    /// The sails of the mover's ship on `s`, with the un-anchor before
    /// (an anchored ship) or any toggle of `l` after (an un-anchored one).
    #[inline]
    fn push_sails(
        &self,
        out: &mut Vec<Move>,
        s: u8,
        l: &[u8],
        choices: u8,
        attacks: bool,
        occupied: &Bits,
    ) {
        let me = self.side;
        let harbour = &self.geo.harbour_set;
        let ship = Ship(self.board[s as usize]);
        let t = ship.kind();
        let anchored = ship.anchored();
        let not_p = t != ShipType::Pirate;
        let from_skip = if not_p { s as u16 } else { NO_SQ };
        self.geo.for_each_destination(t, s, occupied, |d| {
            let target = self.board[d as usize];
            let emit = |out: &mut Vec<Move>, m: Move, skip_b: u16, add: u16| {
                if anchored {
                    out.push(m.with_toggle_before(s));
                } else {
                    push_with_toggles(out, m, l, from_skip, skip_b, add);
                }
            };
            if target == 0 {
                let add = if not_p { d as u16 } else { NO_SQ };
                emit(out, Move::sail(s, d, Effect::Plain), NO_SQ, add);
                return;
            }
            let victim = Ship(target);
            if victim.owner() != me {
                if !attacks || (victim.anchored() && not_p) {
                    return;
                }
                let add = if not_p { d as u16 } else { NO_SQ };
                emit(out, Move::sail(s, d, Effect::Sink), NO_SQ, add);
                if victim.kind().rank() > t.rank() {
                    let add = if victim.kind() != ShipType::Pirate {
                        d as u16
                    } else {
                        NO_SQ
                    };
                    emit(out, Move::sail(s, d, Effect::Capture), NO_SQ, add);
                }
                return;
            }
            if !harbour.has(d) || victim.kind() == ShipType::Pirate {
                return;
            }
            for c in 0..2 {
                if choices >> c & 1 == 0 {
                    continue;
                }
                let m = Move::sail(s, d, Effect::upgrade(c));
                if victim.anchored() {
                    let add = if c == 0 { d as u16 } else { NO_SQ };
                    emit(out, m, d as u16, add);
                } else if !anchored {
                    out.push(m.with_toggle_before(d));
                }
            }
        });
    }

    /// Deploys of the `reserve` ships onto empty squares, alone, with a
    /// toggle of `l` (a ship already there) or with anchoring the new ship.
    #[inline]
    fn push_deploys(&self, out: &mut Vec<Move>, reserve: u8, l: &[u8], occupied: &Bits) {
        for e in self.geo.all.and_not(*occupied) {
            for ti in 0..8 {
                if reserve >> ti & 1 == 0 {
                    continue;
                }
                let t = ShipType::from_index(ti);
                let add = if t != ShipType::Pirate {
                    e as u16
                } else {
                    NO_SQ
                };
                push_with_toggles(out, Move::deploy(t, e, Effect::Plain), l, NO_SQ, NO_SQ, add);
            }
        }
    }

    /// Deploy-upgrades of the `reserve` ships onto the mover's own harbour
    /// ships, with the upgrade `choices` left.
    #[inline]
    fn push_deploy_upgrades(&self, out: &mut Vec<Move>, reserve: u8, l: &[u8], choices: u8) {
        let me = self.side;
        for &h in &self.geo.harbour {
            let b = self.board[h as usize];
            if b == 0 {
                continue;
            }
            let target = Ship(b);
            if target.owner() != me || target.kind() == ShipType::Pirate {
                continue;
            }
            for ti in 0..8 {
                if reserve >> ti & 1 == 0 {
                    continue;
                }
                let t = ShipType::from_index(ti);
                for c in 0..2 {
                    if choices >> c & 1 == 0 {
                        continue;
                    }
                    let m = Move::deploy(t, h, Effect::upgrade(c));
                    if target.anchored() {
                        let add = if c == 0 { h as u16 } else { NO_SQ };
                        push_with_toggles(out, m, l, h as u16, NO_SQ, add);
                    } else {
                        out.push(m.with_toggle_before(h));
                    }
                }
            }
        }
    }

    /// The number of legal turns, by the formula of §9 (no listing).
    pub fn count_legal(&self) -> u64 {
        if self.loser_by_elimination().is_some() {
            return 0;
        }
        let me = self.side;
        let togg = Togglable::of(self, me);
        let n = togg.n as u64;
        let choices = upgrade_choices(self, me);
        let nu = choices.count_ones() as u64;
        let attacks = self.attacks_allowed();
        let occupied = self.occupied();
        let harbour = &self.geo.harbour_set;
        let mut total = n;

        for s in self.occ[me.index()] {
            let ship = Ship(self.board[s as usize]);
            let t = ship.kind();
            let anchored = ship.anchored();
            let not_p = (t != ShipType::Pirate) as u64;
            self.geo.for_each_destination(t, s, &occupied, |d| {
                let target = self.board[d as usize];
                if target == 0 {
                    total += if anchored { 1 } else { 1 + n };
                    return;
                }
                let victim = Ship(target);
                if victim.owner() != me {
                    if !attacks || (victim.anchored() && not_p == 1) {
                        return;
                    }
                    total += if anchored { 1 } else { 1 + n };
                    if victim.kind().rank() > t.rank() {
                        let vnp = (victim.kind() != ShipType::Pirate) as u64;
                        total += if anchored { 1 } else { 1 + n - not_p + vnp };
                    }
                    return;
                }
                if !harbour.has(d) || victim.kind() == ShipType::Pirate {
                    return;
                }
                if victim.anchored() {
                    if anchored {
                        total += nu;
                    } else {
                        if choices & 1 != 0 {
                            total += n - not_p + 1;
                        }
                        if choices & 2 != 0 {
                            total += n - not_p;
                        }
                    }
                } else if !anchored {
                    total += nu;
                }
            });
        }

        let reserve = self.reserve[me.index()];
        if reserve != 0 {
            let r = reserve.count_ones() as u64;
            let r_np = (reserve & !(1 << ShipType::Pirate.index())).count_ones() as u64;
            let e = self.geo.all.and_not(occupied).popcount() as u64;
            total += e * (r * (1 + n) + r_np);
            if choices != 0 {
                for &h in &self.geo.harbour {
                    let b = self.board[h as usize];
                    if b == 0 {
                        continue;
                    }
                    let target = Ship(b);
                    if target.owner() != me || target.kind() == ShipType::Pirate {
                        continue;
                    }
                    if target.anchored() {
                        let mut per = 0;
                        if choices & 1 != 0 {
                            per += n + 1;
                        }
                        if choices & 2 != 0 {
                            per += n;
                        }
                        total += r * per;
                    } else {
                        total += r * nu;
                    }
                }
            }
        }
        total
    }

    /// Whether the mover has a legal turn (§8.2), without counting them all
    /// when a toggle or a deploy settles it.
    pub fn has_legal_move(&self) -> bool {
        if self.loser_by_elimination().is_some() {
            return false;
        }
        let me = self.side;
        let mine = self.occ[me.index()];
        if mine
            .into_iter()
            .any(|s| Ship(self.board[s as usize]).kind() != ShipType::Pirate)
        {
            return true;
        }
        if self.reserve[me.index()] != 0 && !self.geo.all.and_not(self.occupied()).is_empty() {
            return true;
        }
        self.count_legal() > 0
    }

    /// Whether `m` is a legal turn here (for moves from outside: files,
    /// players, shards).
    pub fn is_legal(&self, m: Move) -> bool {
        let mut buf = Vec::new();
        self.legal_moves(&mut buf);
        buf.contains(&m)
    }

    /// Own non-PIRATE ships: how many squares a toggle may name.
    pub fn togglable_count(&self, side: Side) -> usize {
        self.occ[side.index()]
            .into_iter()
            .filter(|&s| Ship(self.board[s as usize]).kind() != ShipType::Pirate)
            .count()
    }
}
