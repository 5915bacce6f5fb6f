//! Search limits and engine specifications such as `ab:depth=3`.
//!
//! An [`EngineSpec`] is how the match runner and `triad play` name an
//! alpha-beta player: a limit (depth, nodes or time per move) plus optional
//! seeded randomness and the hash table size. Depth and node limits make the
//! engine fully deterministic; only `movetime` consults the clock.

use std::fmt;
use std::str::FromStr;

/// When to stop searching. At least one limit must be set; when several are,
/// the first one reached stops the search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration to complete (plies).
    pub depth: Option<u32>,
    /// Node budget (search plus quiescence nodes).
    pub nodes: Option<u64>,
    /// Wall-clock budget in milliseconds (the only non-deterministic limit).
    pub movetime: Option<u64>,
}

impl Limits {
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }
    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }
    pub fn movetime(ms: u64) -> Limits {
        Limits {
            movetime: Some(ms),
            ..Limits::default()
        }
    }
    pub fn is_set(&self) -> bool {
        self.depth.is_some() || self.nodes.is_some() || self.movetime.is_some()
    }
}

/// A named alpha-beta player: `ab:depth=4,random=20,seed=7`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    pub limits: Limits,
    /// Amplitude in centipawns of a per-position pseudo-random evaluation
    /// offset (0 = none). The offset is a hash of position and seed, so the
    /// engine stays deterministic for a given seed while games vary.
    pub random: u32,
    pub seed: u64,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Most plies of quiescence search (captures and promotions after the
    /// last full ply); `None` for the engine's default. `quiesce=0` makes a
    /// weak rung for ladders: leaves are judged statically (mate and
    /// stalemate still recognised).
    pub quiesce: Option<u32>,
}

/// Default transposition table size: small enough for many engines in one
/// match process, big enough for the depths the baseline reaches per move.
pub const DEFAULT_HASH_MB: usize = 16;
/// Deepest iteration the engine will search.
pub const MAX_DEPTH: u32 = 64;
/// The longest `movetime=` in milliseconds (a day), for `ab:` and `net:`
/// players alike.
pub const MAX_MOVETIME_MS: u64 = 86_400_000;

impl EngineSpec {
    pub fn new(limits: Limits) -> EngineSpec {
        EngineSpec {
            limits,
            random: 0,
            seed: 0,
            hash_mb: DEFAULT_HASH_MB,
            quiesce: None,
        }
    }
}

/// Why an engine specification was rejected: the spec as given and what
/// is wrong with it (which names the part).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("engine spec `{spec}`: {problem}")]
pub struct EngineSpecError {
    /// The spec as given.
    pub spec: String,
    pub problem: EngineSpecProblem,
}

/// What is wrong with an engine specification.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineSpecProblem {
    /// Not an `ab:` spec.
    #[error("must start with `ab:` (e.g. `ab:depth=3`)")]
    NotAlphaBeta,
    /// A part without `=`.
    #[error("`{part}` is not key=value")]
    NotKeyValue { part: String },
    /// A value that is not a whole number.
    #[error("{key}=`{value}` is not a whole number")]
    NotWholeNumber { key: String, value: String },
    /// A value outside its key's range `min..=max`.
    #[error("{key}={value} is outside {min}..={max}")]
    OutOfRange {
        key: String,
        value: u64,
        min: u64,
        max: u64,
    },
    /// A key the spec does not have.
    #[error("unknown key `{key}` (known: depth, nodes, movetime, random, seed, hash, quiesce)")]
    UnknownKey { key: String },
    /// No depth, node or time limit.
    #[error("needs a limit: depth=D, nodes=N or movetime=MS")]
    NoLimit,
}

impl FromStr for EngineSpec {
    type Err = EngineSpecError;

    /// Parses `ab:key=value,key=value`. Keys: `depth` (1..=64), `nodes`,
    /// `movetime` (ms), `random` (centipawns, 0..=1000), `seed`, `hash` (MiB,
    /// 1..=4096).
    fn from_str(s: &str) -> Result<EngineSpec, EngineSpecError> {
        let err = |problem: EngineSpecProblem| EngineSpecError {
            spec: s.to_string(),
            problem,
        };
        let rest = s
            .trim()
            .strip_prefix("ab:")
            .ok_or_else(|| err(EngineSpecProblem::NotAlphaBeta))?;
        let mut spec = EngineSpec::new(Limits::default());
        for part in rest.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part.split_once('=').ok_or_else(|| {
                err(EngineSpecProblem::NotKeyValue {
                    part: part.to_string(),
                })
            })?;
            let (key, value) = (key.trim(), value.trim());
            let num = |lo: u64, hi: u64| -> Result<u64, EngineSpecError> {
                let n: u64 = value.parse().map_err(|_| {
                    err(EngineSpecProblem::NotWholeNumber {
                        key: key.to_string(),
                        value: value.to_string(),
                    })
                })?;
                if n < lo || n > hi {
                    return Err(err(EngineSpecProblem::OutOfRange {
                        key: key.to_string(),
                        value: n,
                        min: lo,
                        max: hi,
                    }));
                }
                Ok(n)
            };
            match key {
                "depth" => spec.limits.depth = Some(num(1, MAX_DEPTH as u64)? as u32),
                "nodes" => spec.limits.nodes = Some(num(1, u64::MAX)?),
                "movetime" => spec.limits.movetime = Some(num(1, MAX_MOVETIME_MS)?),
                "random" => spec.random = num(0, 1000)? as u32,
                "seed" => spec.seed = num(0, u64::MAX)?,
                "hash" => spec.hash_mb = num(1, 4096)? as usize,
                "quiesce" => spec.quiesce = Some(num(0, 10)? as u32),
                _ => {
                    return Err(err(EngineSpecProblem::UnknownKey {
                        key: key.to_string(),
                    }))
                }
            }
        }
        if !spec.limits.is_set() {
            return Err(err(EngineSpecProblem::NoLimit));
        }
        Ok(spec)
    }
}

impl fmt::Display for EngineSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(d) = self.limits.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(n) = self.limits.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(t) = self.limits.movetime {
            parts.push(format!("movetime={t}"));
        }
        if self.random != 0 {
            parts.push(format!("random={}", self.random));
            parts.push(format!("seed={}", self.seed));
        }
        if self.hash_mb != DEFAULT_HASH_MB {
            parts.push(format!("hash={}", self.hash_mb));
        }
        if let Some(q) = self.quiesce {
            parts.push(format!("quiesce={q}"));
        }
        write!(f, "ab:{}", parts.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_specs() {
        let s: EngineSpec = "ab:depth=4,random=20,seed=7".parse().unwrap();
        assert_eq!(s.limits.depth, Some(4));
        assert_eq!(s.random, 20);
        assert_eq!(s.seed, 7);
        assert_eq!(s.to_string(), "ab:depth=4,random=20,seed=7");
        let n: EngineSpec = "ab:nodes=100000".parse().unwrap();
        assert_eq!(n.limits.nodes, Some(100_000));
        let t: EngineSpec = "ab:movetime=200".parse().unwrap();
        assert_eq!(t.limits.movetime, Some(200));
        assert_eq!(t.to_string().parse::<EngineSpec>().unwrap(), t);
        let q: EngineSpec = "ab:depth=1,quiesce=0".parse().unwrap();
        assert_eq!(q.quiesce, Some(0));
        assert_eq!(q.to_string(), "ab:depth=1,quiesce=0");
        assert!("ab:depth=1,quiesce=11".parse::<EngineSpec>().is_err());
    }

    /// Each message names the spec as given and the part at fault.
    #[test]
    fn messages_name_the_spec_and_the_part() {
        let msg = |s: &str| s.parse::<EngineSpec>().unwrap_err().to_string();
        assert_eq!(
            msg("depth=3"),
            "engine spec `depth=3`: must start with `ab:` (e.g. `ab:depth=3`)"
        );
        assert_eq!(
            msg("ab:depth"),
            "engine spec `ab:depth`: `depth` is not key=value"
        );
        assert_eq!(
            msg("ab:depth=x"),
            "engine spec `ab:depth=x`: depth=`x` is not a whole number"
        );
        assert_eq!(
            msg("ab:depth=0"),
            "engine spec `ab:depth=0`: depth=0 is outside 1..=64"
        );
        assert_eq!(
            msg("ab:speed=2"),
            "engine spec `ab:speed=2`: unknown key `speed` (known: depth, nodes, movetime, random, seed, hash, quiesce)"
        );
        assert_eq!(
            msg("ab:random=5"),
            "engine spec `ab:random=5`: needs a limit: depth=D, nodes=N or movetime=MS"
        );
        let e = "ab:hash=5000".parse::<EngineSpec>().unwrap_err();
        assert_eq!(
            e.problem,
            EngineSpecProblem::OutOfRange {
                key: "hash".into(),
                value: 5000,
                min: 1,
                max: 4096
            }
        );
    }

    #[test]
    fn rejects_bad_specs() {
        for (bad, needle) in [
            ("depth=3", "ab:"),
            ("ab:", "needs a limit"),
            ("ab:depth", "key=value"),
            ("ab:depth=x", "not a whole number"),
            ("ab:depth=0", "outside"),
            ("ab:depth=3,speed=2", "unknown key `speed`"),
            ("ab:random=5", "needs a limit"),
        ] {
            let e = bad.parse::<EngineSpec>().unwrap_err();
            assert!(e.to_string().contains(needle), "{bad}: {e}");
        }
    }
}
