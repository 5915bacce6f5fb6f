//! The small values of the game: sides, ship types, ships as they sit on a
//! square, square sets, and moves (RULES.md §2, §5, §9).

use std::fmt;

/// The two fleets (RULES.md §2). Blue moves first, so it is the boundary's
/// `White` seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    Blue = 0,
    Red = 1,
}

impl Side {
    pub const ALL: [Side; 2] = [Side::Blue, Side::Red];

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub fn other(self) -> Side {
        match self {
            Side::Blue => Side::Red,
            Side::Red => Side::Blue,
        }
    }

    /// The boundary's seat: Blue moves first, as `White` does.
    #[inline]
    pub fn seat(self) -> game::Color {
        match self {
            Side::Blue => game::Color::White,
            Side::Red => game::Color::Black,
        }
    }

    /// The letter of the position string's side field (`b` or `r`).
    pub fn letter(self) -> char {
        match self {
            Side::Blue => 'b',
            Side::Red => 'r',
        }
    }
}

/// The eight ship types, in the order of the reserve field (RULES.md §2,
/// §10.1): the index of a type is its bit in a reserve mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ShipType {
    Frigate = 0,
    Pirate = 1,
    Dhow = 2,
    Junk = 3,
    Barque = 4,
    Schooner = 5,
    Brig = 6,
    Caravel = 7,
}

impl ShipType {
    pub const ALL: [ShipType; 8] = [
        ShipType::Frigate,
        ShipType::Pirate,
        ShipType::Dhow,
        ShipType::Junk,
        ShipType::Barque,
        ShipType::Schooner,
        ShipType::Brig,
        ShipType::Caravel,
    ];

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    #[inline]
    pub fn from_index(i: usize) -> ShipType {
        ShipType::ALL[i & 7]
    }

    /// The upper-case letter of position strings and move text.
    pub fn letter(self) -> char {
        b"FPDJBSGC"[self.index()] as char
    }

    /// The type of an upper-case letter.
    pub fn from_letter(c: char) -> Option<ShipType> {
        ShipType::ALL.into_iter().find(|t| t.letter() == c)
    }

    /// The rank order of RULES.md §6: F > P > B = S = G = C > J > D.
    #[inline]
    pub fn rank(self) -> u8 {
        RANK[self.index()]
    }

    /// Whether the ship can be anchored (every type but the PIRATE, §4).
    #[inline]
    pub fn anchors(self) -> bool {
        self != ShipType::Pirate
    }
}

const RANK: [u8; 8] = [5, 4, 1, 2, 3, 3, 3, 3];

/// A ship on a square: owner, type and anchored flag in one byte (bit 7
/// marks a ship, bit 4 the owner, bit 3 the anchor, bits 0–2 the type), so
/// that the board is a plain byte array and an empty square is 0.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ship(pub(crate) u8);

impl Ship {
    const PRESENT: u8 = 0x80;
    const RED: u8 = 0x10;
    const ANCHORED: u8 = 0x08;

    #[inline]
    pub fn new(owner: Side, kind: ShipType, anchored: bool) -> Ship {
        Ship(Ship::PRESENT | ((owner as u8) << 4) | ((anchored as u8) << 3) | kind as u8)
    }
    #[inline]
    pub fn owner(self) -> Side {
        if self.0 & Ship::RED != 0 {
            Side::Red
        } else {
            Side::Blue
        }
    }
    #[inline]
    pub fn kind(self) -> ShipType {
        ShipType::from_index((self.0 & 7) as usize)
    }
    #[inline]
    pub fn anchored(self) -> bool {
        self.0 & Ship::ANCHORED != 0
    }
    /// The same ship with the anchor flipped.
    #[inline]
    pub fn toggled(self) -> Ship {
        Ship(self.0 ^ Ship::ANCHORED)
    }
    /// Index 0..32 of (owner, anchored, type), for Zobrist keys.
    #[inline]
    pub fn key_index(self) -> usize {
        (self.0 & 0x1f) as usize
    }
    /// The letter of the position string: upper case Blue, lower case Red.
    pub fn letter(self) -> char {
        let c = self.kind().letter();
        match self.owner() {
            Side::Blue => c,
            Side::Red => c.to_ascii_lowercase(),
        }
    }
}

impl fmt::Debug for Ship {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            self.letter(),
            if self.anchored() { "@" } else { "" }
        )
    }
}

/// A set of squares of a board of up to 16 × 16 (256 bits).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bits(pub [u64; 4]);

impl Bits {
    pub const EMPTY: Bits = Bits([0; 4]);

    #[inline]
    pub fn has(&self, sq: u8) -> bool {
        self.0[(sq >> 6) as usize] >> (sq & 63) & 1 != 0
    }
    #[inline]
    pub fn set(&mut self, sq: u8) {
        self.0[(sq >> 6) as usize] |= 1 << (sq & 63);
    }
    #[inline]
    pub fn clear(&mut self, sq: u8) {
        self.0[(sq >> 6) as usize] &= !(1 << (sq & 63));
    }
    #[inline]
    pub fn popcount(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }
    #[inline]
    pub fn or(self, o: Bits) -> Bits {
        Bits([
            self.0[0] | o.0[0],
            self.0[1] | o.0[1],
            self.0[2] | o.0[2],
            self.0[3] | o.0[3],
        ])
    }
    #[inline]
    pub fn and_not(self, o: Bits) -> Bits {
        Bits([
            self.0[0] & !o.0[0],
            self.0[1] & !o.0[1],
            self.0[2] & !o.0[2],
            self.0[3] & !o.0[3],
        ])
    }
}

impl Iterator for Bits {
    type Item = u8;
    #[inline]
    fn next(&mut self) -> Option<u8> {
        for (i, w) in self.0.iter_mut().enumerate() {
            if *w != 0 {
                let b = w.trailing_zeros();
                *w &= *w - 1;
                return Some((i as u32 * 64 + b) as u8);
            }
        }
        None
    }
}

/// What a main action does at its destination (RULES.md §6, §7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Effect {
    /// Onto an empty square.
    Plain = 0,
    /// An attack that sinks the enemy ship.
    Sink = 1,
    /// An attack that captures the (higher-ranked) enemy ship.
    Capture = 2,
    /// A harbour upgrade to a FRIGATE.
    UpgradeF = 3,
    /// A harbour upgrade to a PIRATE.
    UpgradeP = 4,
}

impl Effect {
    const ALL: [Effect; 5] = [
        Effect::Plain,
        Effect::Sink,
        Effect::Capture,
        Effect::UpgradeF,
        Effect::UpgradeP,
    ];
    #[inline]
    pub fn is_attack(self) -> bool {
        matches!(self, Effect::Sink | Effect::Capture)
    }
    #[inline]
    pub fn is_upgrade(self) -> bool {
        matches!(self, Effect::UpgradeF | Effect::UpgradeP)
    }
    /// The upgrade of choice `c` (0 FRIGATE, 1 PIRATE).
    #[inline]
    pub fn upgrade(c: usize) -> Effect {
        if c == 0 {
            Effect::UpgradeF
        } else {
            Effect::UpgradeP
        }
    }
    /// The type an upgrade makes.
    #[inline]
    pub fn upgraded_type(self) -> Option<ShipType> {
        match self {
            Effect::UpgradeF => Some(ShipType::Frigate),
            Effect::UpgradeP => Some(ShipType::Pirate),
            _ => None,
        }
    }
}

/// The main action of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Main {
    /// A toggle-only turn.
    None,
    /// A ship of this type from the reserve onto `to`.
    Deploy(ShipType),
    /// The ship on this square sails to `to`.
    Sail(u8),
}

/// Where a move's toggle stands (RULES.md §9's canonical form).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ToggleAt {
    /// No toggle.
    None,
    /// After the main action (or alone, in a toggle-only turn), on the
    /// square as it is then.
    After(u8),
    /// Before the main action, which needs it: un-anchor the ship that
    /// sails, or anchor the upgrade's target.
    Before(u8),
}

/// One turn in canonical form (RULES.md §9), packed in 31 bits:
/// bits 0–7 destination, 8–15 origin square (sail) or deployed type
/// (deploy), 16–17 kind (0 toggle only, 1 deploy, 2 sail), 18–20
/// [`Effect`], 21–22 toggle (0 none, 1 after, 2 before), 23–30 toggle
/// square. The code is the shards' move code; it does not depend on the
/// board size, and [`Move::from_code`] refuses every value no turn has.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u32);

const KIND_NONE: u32 = 0;
const KIND_DEPLOY: u32 = 1;
const KIND_SAIL: u32 = 2;

impl Move {
    /// A toggle-only turn on `sq`.
    #[inline]
    pub fn toggle_only(sq: u8) -> Move {
        Move((KIND_NONE << 16) | (1 << 21) | ((sq as u32) << 23))
    }
    /// A deploy of `t` onto `to`, no toggle.
    #[inline]
    pub fn deploy(t: ShipType, to: u8, effect: Effect) -> Move {
        Move(to as u32 | ((t as u32) << 8) | (KIND_DEPLOY << 16) | ((effect as u32) << 18))
    }
    /// A sail from `from` to `to`, no toggle.
    #[inline]
    pub fn sail(from: u8, to: u8, effect: Effect) -> Move {
        Move(to as u32 | ((from as u32) << 8) | (KIND_SAIL << 16) | ((effect as u32) << 18))
    }
    /// This main action followed by a toggle on `sq`.
    #[inline]
    pub fn with_toggle_after(self, sq: u8) -> Move {
        Move((self.0 & 0x1f_ffff) | (1 << 21) | ((sq as u32) << 23))
    }
    /// This main action preceded by a toggle on `sq`.
    #[inline]
    pub fn with_toggle_before(self, sq: u8) -> Move {
        Move((self.0 & 0x1f_ffff) | (2 << 21) | ((sq as u32) << 23))
    }
    /// The main action alone (toggle removed).
    #[inline]
    pub fn main_only(self) -> Move {
        Move(self.0 & 0x1f_ffff)
    }

    #[inline]
    pub fn main(self) -> Main {
        match (self.0 >> 16) & 3 {
            KIND_DEPLOY => Main::Deploy(ShipType::from_index(((self.0 >> 8) & 7) as usize)),
            KIND_SAIL => Main::Sail((self.0 >> 8) as u8),
            _ => Main::None,
        }
    }
    /// The destination of the main action (the toggle square for a
    /// toggle-only turn).
    #[inline]
    pub fn to(self) -> u8 {
        match self.main() {
            Main::None => (self.0 >> 23) as u8,
            _ => self.0 as u8,
        }
    }
    #[inline]
    pub fn effect(self) -> Effect {
        Effect::ALL[((self.0 >> 18) & 7) as usize]
    }
    #[inline]
    pub fn toggle(self) -> ToggleAt {
        let sq = (self.0 >> 23) as u8;
        match (self.0 >> 21) & 3 {
            1 => ToggleAt::After(sq),
            2 => ToggleAt::Before(sq),
            _ => ToggleAt::None,
        }
    }
    /// Whether the main action attacks (sinks or captures).
    #[inline]
    pub fn is_attack(self) -> bool {
        self.effect().is_attack()
    }

    /// The shards' code.
    #[inline]
    pub fn code(self) -> u32 {
        self.0
    }

    /// The move of a code, `None` for any value no turn has.
    pub fn from_code(code: u32) -> Option<Move> {
        if code >> 31 != 0 {
            return None;
        }
        let m = Move(code);
        let raw_effect = (code >> 18) & 7;
        if raw_effect > 4 {
            return None;
        }
        let effect = m.effect();
        let tsq = (code >> 23) as u8;
        let mode = (code >> 21) & 3;
        let to = code as u8;
        let from = (code >> 8) as u8;
        let ok = match (code >> 16) & 3 {
            KIND_NONE => code & 0x1f_ffff == 0 && mode == 1,
            KIND_DEPLOY => {
                from < 8
                    && !effect.is_attack()
                    && match mode {
                        0 => tsq == 0,
                        1 => true,
                        2 => effect.is_upgrade() && tsq == to,
                        _ => false,
                    }
            }
            KIND_SAIL => {
                from != to
                    && match mode {
                        0 => tsq == 0,
                        1 => tsq != from,
                        2 => tsq == from || (effect.is_upgrade() && tsq == to),
                        _ => false,
                    }
            }
            _ => false,
        };
        ok.then_some(m)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Move({:?} to {} {:?} {:?})",
            self.main(),
            self.to(),
            self.effect(),
            self.toggle()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ship_bytes_round_trip() {
        for side in Side::ALL {
            for t in ShipType::ALL {
                for a in [false, true] {
                    let s = Ship::new(side, t, a);
                    assert_ne!(s.0, 0);
                    assert_eq!((s.owner(), s.kind(), s.anchored()), (side, t, a));
                    assert_eq!(s.toggled().anchored(), !a);
                }
            }
        }
    }

    #[test]
    fn move_codes_round_trip_and_refuse_garbage() {
        let moves = [
            Move::toggle_only(17),
            Move::deploy(ShipType::Junk, 27, Effect::UpgradeF).with_toggle_before(27),
            Move::deploy(ShipType::Pirate, 3, Effect::Plain).with_toggle_after(9),
            Move::sail(10, 44, Effect::Capture).with_toggle_before(10),
            Move::sail(10, 44, Effect::Sink),
        ];
        for m in moves {
            assert_eq!(Move::from_code(m.code()), Some(m), "{m:?}");
        }
        // An attack by deploy, a sail onto its own square, a stray bit.
        assert_eq!(
            Move::from_code(Move::deploy(ShipType::Dhow, 3, Effect::Sink).code()),
            None
        );
        assert_eq!(
            Move::from_code(Move::sail(5, 5, Effect::Plain).code()),
            None
        );
        assert_eq!(Move::from_code(1 << 31), None);
        assert_eq!(
            Move::from_code(Move::sail(1, 2, Effect::Plain).code() | 7 << 18),
            None
        );
    }
}
