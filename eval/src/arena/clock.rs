//! Where a player's time went in a match: how many moves it chose, the
//! wall time they took and, for a network player, the simulations its
//! searches ran. Collected where moves are chosen ([`super::play_game`]
//! for players one game at a time, the lockstep driver of `players` for
//! network seats) and summed per player by the caller.

use std::time::Duration;

/// One player's moves in one game, or summed over a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveClock {
    /// Moves chosen.
    pub moves: u64,
    /// Wall time spent choosing them, in nanoseconds.
    pub nanos: u64,
    /// Simulations searched for them, for players that count simulations
    /// (network players); `None` for the others (alpha-beta, random, ...).
    pub simulations: Option<u64>,
    /// Some of the moves were searched in lockstep: their time is the
    /// player's own search plus an equal share of each batched network
    /// call its leaves went through, not the wall time it shared with the
    /// other games in flight.
    pub lockstep: bool,
}

impl MoveClock {
    /// Counts one move that took `took`, with `simulations` when the
    /// player counts them.
    pub fn record(&mut self, took: Duration, simulations: Option<u32>) {
        self.moves += 1;
        self.nanos = self
            .nanos
            .saturating_add(u64::try_from(took.as_nanos()).unwrap_or(u64::MAX));
        if let Some(s) = simulations {
            *self.simulations.get_or_insert(0) += u64::from(s);
        }
    }

    /// Adds `other`'s moves to these.
    pub fn add(&mut self, other: &MoveClock) {
        self.moves += other.moves;
        self.nanos = self.nanos.saturating_add(other.nanos);
        if let Some(s) = other.simulations {
            *self.simulations.get_or_insert(0) += s;
        }
        self.lockstep |= other.lockstep;
    }

    /// Mean wall time per move in milliseconds; `None` without moves.
    pub fn ms_per_move(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.nanos as f64 / 1e6 / self.moves as f64)
    }

    /// Mean simulations per move; `None` without moves or for a player
    /// that counts none.
    pub fn simulations_per_move(&self) -> Option<f64> {
        let sims = self.simulations?;
        (self.moves > 0).then(|| sims as f64 / self.moves as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_count_moves_time_and_simulations() {
        let mut a = MoveClock::default();
        assert_eq!((a.ms_per_move(), a.simulations_per_move()), (None, None));
        a.record(Duration::from_millis(3), None);
        a.record(Duration::from_millis(5), None);
        assert_eq!(a.ms_per_move(), Some(4.0));
        assert_eq!(a.simulations_per_move(), None);
        let mut n = MoveClock::default();
        n.record(Duration::from_millis(10), Some(30));
        n.record(Duration::from_millis(20), Some(50));
        assert_eq!(n.simulations_per_move(), Some(40.0));
        let mut sum = MoveClock {
            lockstep: true,
            ..MoveClock::default()
        };
        sum.add(&n);
        sum.add(&n);
        assert_eq!(sum.moves, 4);
        assert_eq!(sum.ms_per_move(), Some(15.0));
        assert_eq!(sum.simulations, Some(160));
        assert!(sum.lockstep);
    }
}
