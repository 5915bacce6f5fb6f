//! Timing shared by the benchmarks: `measure` runs a closure for a time
//! budget after its warm-up calls, and `spread` summarises repeated
//! figures as their median, minimum and maximum.

use serde::Serialize;
use std::time::{Duration, Instant};

/// What [`measure`] counted: the timed calls and the time they took (the
/// warm-up calls are in neither).
#[derive(Clone, Copy, Debug)]
pub struct Measured {
    /// Timed calls.
    pub iterations: usize,
    /// Wall time of the timed calls.
    pub elapsed: Duration,
}

impl Measured {
    /// The elapsed time in seconds.
    pub fn secs(&self) -> f64 {
        self.elapsed.as_secs_f64()
    }
}

/// Runs `f` `warmup` times untimed, then until `budget` has passed and at
/// least 3 times, timing those calls.
pub fn measure(budget: Duration, warmup: usize, mut f: impl FnMut()) -> Measured {
    for _ in 0..warmup {
        f();
    }
    let start = Instant::now();
    let mut iterations = 0;
    while iterations < 3 || start.elapsed() < budget {
        f();
        iterations += 1;
    }
    Measured {
        iterations,
        elapsed: start.elapsed(),
    }
}

/// The median, minimum and maximum of repeated figures.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Spread {
    /// The middle figure (the mean of the two middle ones for an even count).
    pub median: f64,
    /// The smallest figure.
    pub min: f64,
    /// The largest figure.
    pub max: f64,
}

/// The spread of `xs`, which must not be empty.
pub fn spread(xs: &[f64]) -> Spread {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    let median = if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    };
    Spread {
        median,
        min: v[0],
        max: v[n - 1],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measure_warms_up_then_counts_at_least_three_calls() {
        for warmup in [0, 1, 2] {
            let mut calls = 0;
            let m = measure(Duration::ZERO, warmup, || calls += 1);
            assert_eq!(m.iterations, 3);
            assert_eq!(calls, warmup + 3);
        }
        let mut calls = 0;
        let m = measure(Duration::from_millis(20), 1, || calls += 1);
        assert!(m.elapsed >= Duration::from_millis(20));
        assert_eq!(calls, m.iterations + 1);
    }

    #[test]
    fn spread_is_median_min_and_max() {
        let s = spread(&[3.0, 1.0, 2.0]);
        assert_eq!((s.median, s.min, s.max), (2.0, 1.0, 3.0));
        let s = spread(&[4.0, 1.0, 2.0, 3.0]);
        assert_eq!((s.median, s.min, s.max), (2.5, 1.0, 4.0));
        let s = spread(&[5.0]);
        assert_eq!((s.median, s.min, s.max), (5.0, 5.0, 5.0));
    }
}
