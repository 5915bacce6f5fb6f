//! The transposition table: a fixed-size array of two-entry buckets keyed by
//! the position's hash (`GameState::hash`).
//!
//! Each bucket has a depth-preferred slot (kept unless the new result is at
//! least as deep or the old one is from an earlier search) and an
//! always-replace slot, the usual scheme that keeps expensive deep results
//! while still caching the many shallow ones. An entry is two `u64`s: the full
//! key and a packed record (best move code, score, depth, bound, age), so the
//! table never allocates after creation. Move codes (`GameMove::code`) must
//! fit in 30 bits.

use game::GameMove;
use std::marker::PhantomData;

/// What a stored score means relative to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value (a PV node).
    Exact,
    /// The true value is at least this (a fail-high).
    Lower,
    /// The true value is at most this (a fail-low).
    Upper,
}

/// One decoded entry.
#[derive(Clone, Copy, Debug)]
pub struct Entry<M> {
    pub mv: Option<M>,
    /// Score as stored: mate scores are relative to this node (see
    /// `score_to_tt` in the search module).
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    data: u64,
}

/// The table of one game's positions (`M` is its move type).
pub struct Table<M> {
    buckets: Vec<[Slot; 2]>,
    mask: usize,
    age: u64,
    moves: PhantomData<fn() -> M>,
}

const MOVE_BITS: u64 = (1 << 30) - 1;

impl<M: GameMove> Table<M> {
    /// A table of about `mb` MiB (rounded down to a power of two buckets).
    pub fn new(mb: usize) -> Table<M> {
        let bytes = mb.max(1) << 20;
        let n = (bytes / std::mem::size_of::<[Slot; 2]>()).next_power_of_two() / 2;
        Table::with_buckets(n.max(1024))
    }

    /// A table of `n` buckets (a power of two).
    pub fn with_buckets(n: usize) -> Table<M> {
        debug_assert!(n.is_power_of_two());
        Table {
            buckets: vec![[Slot::default(); 2]; n],
            mask: n - 1,
            age: 0,
            moves: PhantomData,
        }
    }

    /// Forgets everything (tests compare searches from a clean state).
    pub fn clear(&mut self) {
        self.buckets.fill([Slot::default(); 2]);
        self.age = 0;
    }

    /// Marks the start of a new search: older entries become replaceable.
    pub fn new_search(&mut self) {
        self.age = (self.age + 1) & 63;
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        // High bits: the low bits of Zobrist keys feed the key check too.
        (key >> 32) as usize & self.mask
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        let b = &self.buckets[self.bucket(key)];
        b.iter().find(|s| s.key == key && s.data != 0).map(|s| {
            let d = s.data;
            let mv = if d >> 30 & 1 != 0 {
                M::from_code((d & MOVE_BITS) as u32)
            } else {
                None
            };
            Entry {
                mv,
                bound: match (d >> 31) & 3 {
                    0 => Bound::Exact,
                    1 => Bound::Lower,
                    _ => Bound::Upper,
                },
                depth: ((d >> 39) & 0xFF) as i32,
                score: ((d >> 47) as u16) as i16 as i32,
            }
        })
    }

    #[inline]
    pub fn store(&mut self, key: u64, mv: Option<M>, score: i32, depth: i32, bound: Bound) {
        let age = self.age;
        let idx = self.bucket(key);
        let b = &mut self.buckets[idx];
        let old_mv = |s: &Slot| s.data & ((1 << 31) - 1);
        let (code, has) = match mv {
            Some(m) => {
                debug_assert!(m.code() as u64 <= MOVE_BITS, "move code over 30 bits");
                (m.code() as u64, 1u64)
            }
            None => (0, 0),
        };
        let bound_bits = match bound {
            Bound::Exact => 0u64,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        let pack = |moves: u64| {
            moves
                | bound_bits << 31
                | age << 33
                | (depth.clamp(0, 255) as u64) << 39
                | ((score.clamp(-32767, 32767) as i16 as u16) as u64) << 47
        };
        let slot_depth = |s: &Slot| ((s.data >> 39) & 0xFF) as i32;
        let slot_age = |s: &Slot| (s.data >> 33) & 63;
        // Same position already stored: update in place, keeping its move
        // when the new result has none.
        for s in b.iter_mut() {
            if s.key == key && s.data != 0 {
                let moves = if has == 1 { code | 1 << 30 } else { old_mv(s) };
                s.data = pack(moves);
                return;
            }
        }
        let moves = code | has << 30;
        let deep = &b[0];
        let i = if deep.data == 0 || slot_age(deep) != age || depth >= slot_depth(deep) {
            // The displaced deep entry survives in the other slot.
            b[1] = b[0];
            0
        } else {
            1
        };
        b[i] = Slot {
            key,
            data: pack(moves),
        };
    }

    /// Permille of the first 1000 buckets' slots used in this search.
    pub fn hashfull(&self) -> u32 {
        let n = self.buckets.len().min(1000);
        let used: usize = self.buckets[..n]
            .iter()
            .map(|b| {
                b.iter()
                    .filter(|s| s.data != 0 && (s.data >> 33) & 63 == self.age)
                    .count()
            })
            .sum();
        (used * 1000 / (2 * n)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A move type of no game: a bare code.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    struct TestMove(u32);

    impl GameMove for TestMove {
        fn code(self) -> u32 {
            self.0
        }
        fn from_code(code: u32) -> Option<TestMove> {
            Some(TestMove(code))
        }
    }

    #[test]
    fn store_and_probe_round_trip() {
        let mut t = Table::new(1);
        let key = 0x0123_4567_89AB_CDEF_u64;
        let m = TestMove((1 << 30) - 2);
        t.store(key, Some(m), -31990, 5, Bound::Lower);
        let e = t.probe(key).unwrap();
        assert_eq!(e.mv, Some(m));
        assert_eq!((e.score, e.depth, e.bound), (-31990, 5, Bound::Lower));
        // An update without a move keeps the move.
        t.store(key, None, 12, 6, Bound::Exact);
        let e = t.probe(key).unwrap();
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound),
            (Some(m), 12, 6, Bound::Exact)
        );
        assert!(t.probe(key ^ 1).is_none());
        // Code 0 is a move like any other.
        t.store(key ^ 2, Some(TestMove(0)), 0, 1, Bound::Upper);
        assert_eq!(t.probe(key ^ 2).unwrap().mv, Some(TestMove(0)));
    }
}
