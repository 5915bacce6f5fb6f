//! The symmetries of the rules (docs/games/pirate.md): the board's mirror
//! images, with the four middle-ranked types renamed so that each keeps
//! moving along the mapped directions.
//!
//! BARQUE, SCHOONER, BRIG and CARAVEL each move along one diagonal and the
//! two orthogonals next to it (NE+N+E, SE+E+S, SW+S+W, NW+N+W; RULES.md
//! §3.2), and the four share one rank (§6). A mirror of the board maps the
//! diagonals onto each other and each diagonal's orthogonals along with it,
//! so renaming the type that owns each diagonal keeps every rule: moves,
//! blocking, ranks, the harbour (which every mirror of the centre 2×2 maps
//! onto itself). The rule book's other types move alike in every direction.
//! Every element of the dihedral group of the square qualifies: 8 on a
//! square board; 4 (identity, file mirror, rank mirror, half turn) on the
//! others, where the transposes would not map the board onto itself.
//! The colour swap also holds but is invisible to the encoding (which is
//! from the mover's view), so it is not offered.

use crate::geometry::Geometry;
use crate::position::Position;
use crate::types::{Main, Move, Ship, ShipType, ToggleAt};

/// How many symmetries a board has (the identity included).
pub fn count(g: &Geometry) -> usize {
    if g.width() == g.height() {
        8
    } else {
        4
    }
}

/// Symmetry `sym`: bit 0 mirrors the files, bit 1 the ranks, bit 2 then
/// swaps files and ranks (square boards only).
#[inline]
fn map_vector(sym: usize, (df, dr): (i8, i8)) -> (i8, i8) {
    let df = if sym & 1 != 0 { -df } else { df };
    let dr = if sym & 2 != 0 { -dr } else { dr };
    if sym & 4 != 0 {
        (dr, df)
    } else {
        (df, dr)
    }
}

/// The type a ship of type `t` becomes under `sym`.
pub fn map_type(sym: usize, t: ShipType) -> ShipType {
    const DIAGONAL: [(ShipType, (i8, i8)); 4] = [
        (ShipType::Barque, (1, 1)),
        (ShipType::Schooner, (1, -1)),
        (ShipType::Brig, (-1, -1)),
        (ShipType::Caravel, (-1, 1)),
    ];
    match DIAGONAL.iter().find(|d| d.0 == t) {
        None => t,
        Some(&(_, v)) => {
            let mapped = map_vector(sym, v);
            DIAGONAL.iter().find(|d| d.1 == mapped).map_or(t, |d| d.0)
        }
    }
}

/// The square `sq` becomes under `sym`.
#[inline]
pub fn map_square(g: &Geometry, sym: usize, sq: u8) -> u8 {
    let (w, h) = (g.width(), g.height());
    let mut f = g.file(sq);
    let mut r = g.rank(sq);
    if sym & 1 != 0 {
        f = w - 1 - f;
    }
    if sym & 2 != 0 {
        r = h - 1 - r;
    }
    if sym & 4 != 0 {
        std::mem::swap(&mut f, &mut r);
    }
    g.square(f, r)
}

/// `pos` under symmetry `sym` (`0..count`).
pub fn transform(pos: &Position, sym: usize) -> Position {
    if sym == 0 {
        return pos.clone();
    }
    let g = pos.geometry();
    let mut reserve = [0u8; 2];
    for (i, r) in reserve.iter_mut().enumerate() {
        for t in ShipType::ALL {
            if pos.reserve[i] >> t.index() & 1 != 0 {
                *r |= 1 << map_type(sym, t).index();
            }
        }
    }
    let mut out = Position::empty(
        g.size,
        pos.side(),
        reserve,
        pos.upgrades,
        pos.clock(),
        pos.plies(),
    );
    for sq in pos.occupied() {
        if let Some(s) = pos.ship_at(sq) {
            let ship = Ship::new(s.owner(), map_type(sym, s.kind()), s.anchored());
            out.put(map_square(g, sym, sq), ship);
        }
    }
    out
}

/// `m`, a move of `pos`, as the move of `transform(pos, sym)`.
pub fn transform_move(pos: &Position, m: Move, sym: usize) -> Move {
    if sym == 0 {
        return m;
    }
    let g = pos.geometry();
    let sq = |s: u8| map_square(g, sym, s);
    let base = match m.main() {
        Main::None => match m.toggle() {
            ToggleAt::After(s) | ToggleAt::Before(s) => return Move::toggle_only(sq(s)),
            ToggleAt::None => return m,
        },
        Main::Deploy(t) => Move::deploy(map_type(sym, t), sq(m.to()), m.effect()),
        Main::Sail(from) => Move::sail(sq(from), sq(m.to()), m.effect()),
    };
    match m.toggle() {
        ToggleAt::None => base,
        ToggleAt::After(s) => base.with_toggle_after(sq(s)),
        ToggleAt::Before(s) => base.with_toggle_before(sq(s)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_follow_their_diagonal() {
        use ShipType::*;
        // The file mirror swaps east and west.
        assert_eq!(map_type(1, Barque), Caravel);
        assert_eq!(map_type(1, Schooner), Brig);
        // The half turn.
        assert_eq!(map_type(3, Barque), Brig);
        assert_eq!(map_type(3, Schooner), Caravel);
        // The transpose keeps NE and SW.
        assert_eq!(map_type(4, Barque), Barque);
        assert_eq!(map_type(4, Schooner), Caravel);
        for sym in 0..8 {
            for t in [Frigate, Pirate, Dhow, Junk] {
                assert_eq!(map_type(sym, t), t);
            }
            // A permutation.
            let mut seen: Vec<_> = ShipType::ALL.iter().map(|&t| map_type(sym, t)).collect();
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len(), 8);
        }
    }
}
