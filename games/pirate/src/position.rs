//! A position (RULES.md §2, §10.1) and how a turn changes it (§5–§7).

use crate::geometry::{Geometry, Size};
use crate::types::{Bits, Effect, Main, Move, Ship, ShipType, Side, ToggleAt};
use crate::zobrist;

/// Every type, as a reserve mask: the start's reserve.
pub const FULL_RESERVE: u8 = 0xff;
/// Upgrades of each kind a side may make (§7).
pub const UPGRADE_LIMIT: u8 = 2;
/// Plies without an attack, deployment or upgrade that draw (§8.3).
pub const QUIET_PLY_LIMIT: u16 = 100;
/// Plies that draw the game (§8.3).
pub const PLY_LIMIT: u16 = 400;
/// Deployments each side must have made before attacks (§6) and before
/// an empty board loses (§8.1).
pub const DEPLOYMENTS_TO_ATTACK: u32 = 3;

/// One position. A plain copy (no heap data): the board is a byte array,
/// the step tables are shared.
#[derive(Clone)]
pub struct Position {
    pub(crate) board: [u8; 256],
    /// The squares of each side's ships.
    pub(crate) occ: [Bits; 2],
    pub(crate) geo: &'static Geometry,
    /// Each side's reserve as a mask of type bits.
    pub(crate) reserve: [u8; 2],
    /// `[side][0 FRIGATE, 1 PIRATE]`: upgrades made.
    pub(crate) upgrades: [[u8; 2]; 2],
    pub(crate) side: Side,
    pub(crate) clock: u16,
    pub(crate) plies: u16,
    pub(crate) hash: u64,
}

impl PartialEq for Position {
    fn eq(&self, o: &Position) -> bool {
        self.geo.size == o.geo.size
            && self.board == o.board
            && self.reserve == o.reserve
            && self.upgrades == o.upgrades
            && self.side == o.side
            && self.clock == o.clock
            && self.plies == o.plies
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_text())
    }
}

impl Position {
    /// The start on a board of `size`: empty board, both fleets in
    /// reserve, Blue to move (§2).
    pub fn start(size: Size) -> Position {
        Position::empty(size, Side::Blue, [FULL_RESERVE; 2], [[0; 2]; 2], 0, 0)
    }

    /// An empty board with these fields (the parser then places ships).
    pub(crate) fn empty(
        size: Size,
        side: Side,
        reserve: [u8; 2],
        upgrades: [[u8; 2]; 2],
        clock: u16,
        plies: u16,
    ) -> Position {
        let mut p = Position {
            board: [0; 256],
            occ: [Bits::EMPTY; 2],
            geo: Geometry::of(size),
            reserve,
            upgrades,
            side,
            clock,
            plies,
            hash: 0,
        };
        p.hash = p.compute_hash();
        p
    }

    /// Puts `ship` on the empty square `sq` (hash kept).
    #[inline]
    pub(crate) fn put(&mut self, sq: u8, ship: Ship) {
        debug_assert_eq!(self.board[sq as usize], 0);
        self.board[sq as usize] = ship.0;
        self.occ[ship.owner().index()].set(sq);
        self.hash ^= zobrist::ship(sq, ship.key_index());
    }

    /// Takes the ship off `sq` (hash kept).
    #[inline]
    pub(crate) fn remove(&mut self, sq: u8) -> Ship {
        let ship = Ship(self.board[sq as usize]);
        debug_assert_ne!(ship.0, 0);
        self.board[sq as usize] = 0;
        self.occ[ship.owner().index()].clear(sq);
        self.hash ^= zobrist::ship(sq, ship.key_index());
        ship
    }

    #[inline]
    fn flip_anchor(&mut self, sq: u8) {
        let ship = Ship(self.board[sq as usize]);
        let t = ship.toggled();
        self.board[sq as usize] = t.0;
        self.hash ^= zobrist::ship(sq, ship.key_index()) ^ zobrist::ship(sq, t.key_index());
    }

    /// The hash recomputed from scratch (tests compare it with the
    /// incremental one).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for sq in self.occ[0].or(self.occ[1]) {
            h ^= zobrist::ship(sq, Ship(self.board[sq as usize]).key_index());
        }
        for s in Side::ALL {
            for t in 0..8 {
                if self.reserve[s.index()] >> t & 1 != 0 {
                    h ^= zobrist::RESERVE[s.index() * 8 + t];
                }
            }
            for k in 0..2 {
                h ^= zobrist::upgrades(s.index(), k, self.upgrades[s.index()][k]);
            }
        }
        if self.side == Side::Red {
            h ^= zobrist::RED_TO_MOVE;
        }
        h
    }

    #[inline]
    pub fn size(&self) -> Size {
        self.geo.size
    }
    #[inline]
    pub fn geometry(&self) -> &'static Geometry {
        self.geo
    }
    #[inline]
    pub fn side(&self) -> Side {
        self.side
    }
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// Plies since the last attack, deployment or upgrade (§8.3).
    #[inline]
    pub fn clock(&self) -> u16 {
        self.clock
    }
    /// Plies since the start.
    #[inline]
    pub fn plies(&self) -> u16 {
        self.plies
    }
    /// The ship on `sq`, if any.
    #[inline]
    pub fn ship_at(&self, sq: u8) -> Option<Ship> {
        let b = self.board[sq as usize];
        (b != 0).then_some(Ship(b))
    }
    /// The squares of `side`'s ships.
    #[inline]
    pub fn ships_of(&self, side: Side) -> Bits {
        self.occ[side.index()]
    }
    #[inline]
    pub fn occupied(&self) -> Bits {
        self.occ[0].or(self.occ[1])
    }
    /// Whether `t` is in `side`'s reserve.
    #[inline]
    pub fn in_reserve(&self, side: Side, t: ShipType) -> bool {
        self.reserve[side.index()] >> t.index() & 1 != 0
    }
    /// `side`'s reserve as a mask of type bits.
    #[inline]
    pub fn reserve_mask(&self, side: Side) -> u8 {
        self.reserve[side.index()]
    }
    /// Upgrades `side` has made: `[FRIGATE, PIRATE]`.
    #[inline]
    pub fn upgrades(&self, side: Side) -> [u8; 2] {
        self.upgrades[side.index()]
    }
    /// Deployments `side` has made (§2): 8 minus its reserve.
    #[inline]
    pub fn deployed(&self, side: Side) -> u32 {
        8 - self.reserve[side.index()].count_ones()
    }
    /// Whether attacks are allowed this turn: both sides have made at least
    /// three deployments (§6).
    #[inline]
    pub fn attacks_allowed(&self) -> bool {
        self.deployed(Side::Blue) >= DEPLOYMENTS_TO_ATTACK
            && self.deployed(Side::Red) >= DEPLOYMENTS_TO_ATTACK
    }
    /// Whether `side` has been eliminated (§8.1): three or more
    /// deployments and no ship on the board.
    #[inline]
    pub fn eliminated(&self, side: Side) -> bool {
        self.occ[side.index()].is_empty() && self.deployed(side) >= DEPLOYMENTS_TO_ATTACK
    }
    /// The side eliminated in this position, if any.
    #[inline]
    pub fn loser_by_elimination(&self) -> Option<Side> {
        Side::ALL.into_iter().find(|&s| self.eliminated(s))
    }

    /// Plays a legal move in place (§5: toggle before, main action, toggle
    /// after; then the counters and the side to move).
    pub fn apply(&mut self, m: Move) {
        let me = self.side;
        if let ToggleAt::Before(sq) = m.toggle() {
            self.flip_anchor(sq);
        }
        let mut resets = false;
        let to = m.to();
        match m.main() {
            Main::None => {}
            Main::Deploy(t) => {
                self.reserve[me.index()] &= !(1 << t.index());
                self.hash ^= zobrist::RESERVE[me.index() * 8 + t.index()];
                resets = true;
                match m.effect().upgraded_type() {
                    None => self.put(to, Ship::new(me, t, false)),
                    Some(u) => {
                        self.remove(to);
                        self.count_upgrade(u);
                        self.put(to, Ship::new(me, u, false));
                    }
                }
            }
            Main::Sail(from) => {
                let ship = self.remove(from);
                match m.effect() {
                    Effect::Plain => self.put(to, Ship::new(me, ship.kind(), false)),
                    Effect::Sink => {
                        self.remove(to);
                        self.put(to, Ship::new(me, ship.kind(), false));
                        resets = true;
                    }
                    Effect::Capture => {
                        let victim = self.remove(to);
                        self.put(to, Ship::new(me, victim.kind(), false));
                        resets = true;
                    }
                    Effect::UpgradeF | Effect::UpgradeP => {
                        let u = m.effect().upgraded_type().unwrap_or(ShipType::Frigate);
                        self.remove(to);
                        self.count_upgrade(u);
                        self.put(to, Ship::new(me, u, false));
                        resets = true;
                    }
                }
            }
        }
        if let ToggleAt::After(sq) = m.toggle() {
            self.flip_anchor(sq);
        }
        self.clock = if resets {
            0
        } else {
            self.clock.saturating_add(1)
        };
        self.plies = self.plies.saturating_add(1);
        self.side = me.other();
        self.hash ^= zobrist::RED_TO_MOVE;
    }

    #[inline]
    fn count_upgrade(&mut self, u: ShipType) {
        let s = self.side.index();
        let k = (u == ShipType::Pirate) as usize;
        let before = self.upgrades[s][k];
        self.upgrades[s][k] = before + 1;
        self.hash ^= zobrist::upgrades(s, k, before) ^ zobrist::upgrades(s, k, before + 1);
    }

    /// This position after `m` (copy-make).
    #[inline]
    pub fn play(&self, m: Move) -> Position {
        let mut p = self.clone();
        p.apply(m);
        p
    }
}
