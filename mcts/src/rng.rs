//! The random stream of one game: SplitMix64 plus the few distributions the
//! search needs (uniform, gamma/Dirichlet, Gumbel). Written here rather than
//! taken from `rand` so a seed gives the same games on every platform and
//! every version of the dependencies.

use game::SplitMix;

/// The workspace's SplitMix64 (`game::SplitMix`) with the search's
/// distributions on top: fast, seedable, good enough for sampling and noise.
#[derive(Debug, Clone)]
pub struct Rng(SplitMix);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(SplitMix::new(seed))
    }

    /// A seed for stream `index` of a master seed (e.g. one per game), so
    /// games are independent of the order they are started in.
    pub fn derive(seed: u64, index: u64) -> u64 {
        let mut r = Rng::new(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
        r.next_u64();
        r.next_u64()
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in [0, 1).
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in (0, 1): safe to take the logarithm of.
    pub fn open_uniform(&mut self) -> f64 {
        ((self.next_u64() >> 11) as f64 + 0.5) * (1.0 / (1u64 << 53) as f64)
    }

    /// Standard normal (Box–Muller; one of the pair is dropped for simplicity).
    pub fn normal(&mut self) -> f64 {
        let u1 = self.open_uniform();
        let u2 = self.uniform();
        (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
    }

    /// Gamma(shape, 1) by Marsaglia and Tsang, with the usual boost for
    /// shape < 1 (Dirichlet noise uses shapes around 0.3).
    pub fn gamma(&mut self, shape: f64) -> f64 {
        if shape < 1.0 {
            let u = self.open_uniform();
            return self.gamma(shape + 1.0) * u.powf(1.0 / shape);
        }
        let d = shape - 1.0 / 3.0;
        let c = 1.0 / (9.0 * d).sqrt();
        loop {
            let x = self.normal();
            let v = (1.0 + c * x).powi(3);
            if v <= 0.0 {
                continue;
            }
            let u = self.open_uniform();
            if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
                return d * v;
            }
        }
    }

    /// Fills `out` with a sample of the symmetric Dirichlet(alpha).
    pub fn dirichlet(&mut self, alpha: f64, out: &mut [f32]) {
        let mut sum = 0.0;
        for x in out.iter_mut() {
            let g = self.gamma(alpha);
            *x = g as f32;
            sum += g;
        }
        if sum > 0.0 {
            for x in out.iter_mut() {
                *x = (*x as f64 / sum) as f32;
            }
        } else {
            out.fill(1.0 / out.len().max(1) as f32);
        }
    }

    /// Standard Gumbel: `-ln(-ln(u))`.
    pub fn gumbel(&mut self) -> f32 {
        (-(-self.open_uniform().ln()).ln()) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dirichlet_sums_to_one_and_gamma_has_its_mean() {
        let mut r = Rng::new(7);
        let mut v = [0.0f32; 20];
        r.dirichlet(0.3, &mut v);
        let s: f32 = v.iter().sum();
        assert!((s - 1.0).abs() < 1e-4, "{s}");
        assert!(v.iter().all(|&x| x >= 0.0));
        let n = 20_000;
        let mean: f64 = (0..n).map(|_| r.gamma(0.3)).sum::<f64>() / n as f64;
        assert!((mean - 0.3).abs() < 0.02, "{mean}");
        let mean: f64 = (0..n).map(|_| r.gamma(2.5)).sum::<f64>() / n as f64;
        assert!((mean - 2.5).abs() < 0.08, "{mean}");
        // Gumbel mean is the Euler–Mascheroni constant.
        let mean: f64 = (0..n).map(|_| r.gumbel() as f64).sum::<f64>() / n as f64;
        assert!((mean - 0.5772).abs() < 0.03, "{mean}");
    }
}
