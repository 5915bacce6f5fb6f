//! The network's view of a position and of each legal turn
//! (docs/games/pirate.md has the tables).
//!
//! Planes are `height × width` grids indexed like squares (`rank * width +
//! file`), seen from the side to move: "own" is the mover's. Nothing is
//! turned or mirrored for Red, because directions are absolute and the same
//! for both sides (RULES.md §3.1): a turned board would change how the ships
//! move. The board is a torus with no edge; the planes assume that the
//! trunk pads circularly (each edge's neighbour is the opposite edge), see
//! the doc.

use crate::position::{Position, PLY_LIMIT, QUIET_PLY_LIMIT};
use crate::types::{Effect, Main, Move, ShipType, ToggleAt};

/// Bumped whenever a plane or a move feature changes meaning.
pub const ENCODING_VERSION: u32 = 1;
/// Input planes per position.
pub const PLANES: usize = 45;
/// Numbers per legal move besides its two cells.
pub const MOVE_FEATURES: usize = 42;

const P_OWN: usize = 0; // 8 planes, by type
const P_ENEMY: usize = 8; // 8 planes, by type
const P_OWN_ANCHORED: usize = 16;
const P_ENEMY_ANCHORED: usize = 17;
const P_HARBOUR: usize = 18;
const P_OWN_RESERVE: usize = 19; // 8 constant planes, by type
const P_ENEMY_RESERVE: usize = 27; // 8 constant planes, by type
const P_UPGRADES: usize = 35; // own F, own P, enemy F, enemy P (count / 2)
const P_DEPLOYED: usize = 39; // own, enemy (count / 8)
const P_ATTACKS: usize = 41;
const P_CLOCK: usize = 42;
const P_PLIES: usize = 43;
const P_REPETITION: usize = 44;

/// Writes the [`PLANES`] planes of `pos` into `out` (plane-major).
pub fn encode_planes(pos: &Position, repetitions: u8, out: &mut [f32]) {
    let g = pos.geometry();
    let hw = g.size.cells();
    let out = &mut out[..PLANES * hw];
    out.fill(0.0);
    let me = pos.side();
    let them = me.other();
    for (base, side) in [(P_OWN, me), (P_ENEMY, them)] {
        let anchored = if side == me {
            P_OWN_ANCHORED
        } else {
            P_ENEMY_ANCHORED
        };
        for sq in pos.ships_of(side) {
            let Some(ship) = pos.ship_at(sq) else {
                continue;
            };
            out[(base + ship.kind().index()) * hw + sq as usize] = 1.0;
            if ship.anchored() {
                out[anchored * hw + sq as usize] = 1.0;
            }
        }
    }
    for &h in &g.harbour {
        out[P_HARBOUR * hw + h as usize] = 1.0;
    }
    let mut fill = |plane: usize, v: f32| {
        if v != 0.0 {
            out[plane * hw..(plane + 1) * hw].fill(v);
        }
    };
    for t in ShipType::ALL {
        fill(
            P_OWN_RESERVE + t.index(),
            pos.in_reserve(me, t) as u8 as f32,
        );
        fill(
            P_ENEMY_RESERVE + t.index(),
            pos.in_reserve(them, t) as u8 as f32,
        );
    }
    let [of, op] = pos.upgrades(me);
    let [ef, ep] = pos.upgrades(them);
    for (i, n) in [of, op, ef, ep].into_iter().enumerate() {
        fill(P_UPGRADES + i, n as f32 / 2.0);
    }
    fill(P_DEPLOYED, pos.deployed(me) as f32 / 8.0);
    fill(P_DEPLOYED + 1, pos.deployed(them) as f32 / 8.0);
    fill(P_ATTACKS, pos.attacks_allowed() as u8 as f32);
    fill(
        P_CLOCK,
        (pos.clock() as f32 / QUIET_PLY_LIMIT as f32).min(1.0),
    );
    fill(P_PLIES, (pos.plies() as f32 / PLY_LIMIT as f32).min(1.0));
    fill(
        P_REPETITION,
        (repetitions.saturating_sub(1) as f32 / 2.0).min(1.0),
    );
}

/// A torus displacement from `a` to `b` along a side of `n` squares, in
/// `[-n/2, n/2)`, divided by `n`.
#[inline]
fn wrap(a: u8, b: u8, n: u8) -> f32 {
    let n = n as i32;
    let d = (b as i32 - a as i32).rem_euclid(n);
    let d = if d >= n / 2 { d - n } else { d };
    d as f32 / n as f32
}

/// Writes the [`MOVE_FEATURES`] numbers of `m`, a legal turn of `pos`, and
/// returns its (origin, destination) cells: a sail's two squares, a
/// deploy's square twice, a toggle-only turn's square twice.
///
/// 0–2 kind (toggle only, deploy, sail); 3–10 the acting ship's type (the
/// deployed, sailing or toggled ship); 11–15 effect (plain, sink, capture,
/// upgrade to F, to P); 16–23 the type on the destination before the turn
/// (victim or upgrade target); 24–26 toggle (none, before, after); 27
/// anchors, 28 un-anchors; 29 the toggle is on the ship that has just
/// arrived; 30–37 the toggled ship's type; 38–39 the toggle square's file
/// and rank displacement from the destination; 40–41 the sail's file and
/// rank displacement (each over the side, on the torus).
pub fn encode_move(pos: &Position, m: Move, out: &mut [f32]) -> (usize, usize) {
    let g = pos.geometry();
    let out = &mut out[..MOVE_FEATURES];
    out.fill(0.0);
    let to = m.to();
    let (w, h) = (g.width(), g.height());
    let kind_of = |sq: u8| pos.ship_at(sq).map(|s| s.kind());
    let from = match m.main() {
        Main::None => {
            out[0] = 1.0;
            to
        }
        Main::Deploy(t) => {
            out[1] = 1.0;
            out[3 + t.index()] = 1.0;
            to
        }
        Main::Sail(from) => {
            out[2] = 1.0;
            if let Some(t) = kind_of(from) {
                out[3 + t.index()] = 1.0;
            }
            out[40] = wrap(g.file(from), g.file(to), w);
            out[41] = wrap(g.rank(from), g.rank(to), h);
            from
        }
    };
    if m.main() != Main::None {
        out[11 + m.effect() as usize] = 1.0;
        if let Some(t) = kind_of(to) {
            out[16 + t.index()] = 1.0;
        }
    }
    let (sq, before) = match m.toggle() {
        ToggleAt::None => {
            out[24] = 1.0;
            return (from as usize, to as usize);
        }
        ToggleAt::Before(sq) => (sq, true),
        ToggleAt::After(sq) => (sq, false),
    };
    out[if before { 25 } else { 26 }] = 1.0;
    let arrived = !before && m.main() != Main::None && sq == to;
    // The toggled ship as the toggle finds it.
    let (kind, anchored) = if arrived {
        let kind = match (m.main(), m.effect()) {
            (_, Effect::UpgradeF) => Some(ShipType::Frigate),
            (_, Effect::UpgradeP) => Some(ShipType::Pirate),
            (_, Effect::Capture) => kind_of(to),
            (Main::Deploy(t), _) => Some(t),
            _ => kind_of(from),
        };
        (kind, false)
    } else {
        let s = pos.ship_at(sq);
        (s.map(|s| s.kind()), s.is_some_and(|s| s.anchored()))
    };
    out[if anchored { 28 } else { 27 }] = 1.0;
    out[29] = arrived as u8 as f32;
    if m.main() == Main::None {
        if let Some(t) = kind {
            out[3 + t.index()] = 1.0;
        }
    }
    if let Some(t) = kind {
        out[30 + t.index()] = 1.0;
    }
    out[38] = wrap(g.file(to), g.file(sq), w);
    out[39] = wrap(g.rank(to), g.rank(sq), h);
    (from as usize, to as usize)
}
