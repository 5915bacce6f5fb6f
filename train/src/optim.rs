//! SGD with momentum and AdamW over a network's trainable variables, with
//! state that can be saved and restored.
//!
//! tch's `nn::Optimizer` keeps its momentum buffers inside libtorch where
//! they cannot be read back, so a resumed run would restart them from zero
//! and diverge from an uninterrupted one. These optimisers keep every buffer
//! as a named tensor, written next to each checkpoint.

use crate::config::{OptimizerKind, TrainConfig};
use crate::error::OptimizerStateError;
use std::collections::HashMap;
use std::path::Path;
use tch::{Device, Kind, Tensor};

/// One trainable variable and its buffers.
struct Slot {
    name: String,
    param: Tensor,
    /// Weight matrices and kernels decay; biases and norm scales do not.
    decay: bool,
    /// SGD momentum buffer or AdamW first moment.
    first: Tensor,
    /// AdamW second moment (undefined-size 0 tensor for SGD).
    second: Tensor,
}

/// The optimiser of a run.
pub struct Optimizer {
    kind: OptimizerKind,
    momentum: f64,
    nesterov: bool,
    betas: [f64; 2],
    eps: f64,
    weight_decay: f64,
    /// Updates applied so far (AdamW's bias correction needs it).
    updates: u64,
    slots: Vec<Slot>,
}

/// Names in the state file besides the per-variable buffers.
const UPDATES_KEY: &str = "__updates";

impl Optimizer {
    /// An optimiser over the trainable variables of `vs` (sorted by name, so
    /// the state file and the update order do not depend on hash order).
    pub fn new(vs: &tch::nn::VarStore, cfg: &TrainConfig) -> Optimizer {
        let mut vars: Vec<(String, Tensor)> = vs
            .variables()
            .into_iter()
            .filter(|(_, t)| t.requires_grad())
            .collect();
        vars.sort_by(|a, b| a.0.cmp(&b.0));
        let adam = cfg.optimizer == OptimizerKind::Adamw;
        let slots = vars
            .into_iter()
            .map(|(name, param)| {
                let first = param.zeros_like();
                let second = if adam {
                    param.zeros_like()
                } else {
                    Tensor::zeros([0], (Kind::Float, param.device()))
                };
                Slot {
                    decay: param.dim() >= 2,
                    name,
                    param,
                    first,
                    second,
                }
            })
            .collect();
        Optimizer {
            kind: cfg.optimizer,
            momentum: cfg.momentum,
            nesterov: cfg.nesterov,
            betas: cfg.betas,
            eps: cfg.eps,
            weight_decay: cfg.weight_decay,
            updates: 0,
            slots,
        }
    }

    /// Updates applied so far.
    pub fn updates(&self) -> u64 {
        self.updates
    }

    /// Clears every gradient before a backward pass.
    pub fn zero_grad(&mut self) {
        for s in &mut self.slots {
            s.param.zero_grad();
        }
    }

    /// Scales the gradients so that their global L2 norm is at most
    /// `max_norm` (0: no clipping). Returns the norm before clipping.
    pub fn clip_grad_norm(&mut self, max_norm: f64) -> f64 {
        let grads: Vec<Tensor> = self
            .slots
            .iter()
            .map(|s| s.param.grad())
            .filter(|g| g.defined())
            .collect();
        if grads.is_empty() {
            return 0.0;
        }
        let norm = tch::no_grad(|| {
            let squares: Vec<Tensor> = grads
                .iter()
                .map(|g| g.square().sum(Kind::Float).unsqueeze(0))
                .collect();
            Tensor::cat(&squares, 0).sum(Kind::Float).sqrt()
        });
        let norm = norm.double_value(&[]);
        if max_norm > 0.0 && norm > max_norm {
            let scale = max_norm / (norm + 1e-6);
            tch::no_grad(|| {
                for mut g in grads {
                    let _ = g.g_mul_scalar_(scale);
                }
            });
        }
        norm
    }

    /// Applies one update with learning rate `lr`. Variables without a
    /// gradient are left alone.
    pub fn step(&mut self, lr: f64) {
        self.updates += 1;
        let t = self.updates as f64;
        let (b1, b2) = (self.betas[0], self.betas[1]);
        let (wd, mu) = (self.weight_decay, self.momentum);
        let kind = self.kind;
        let (nesterov, eps) = (self.nesterov, self.eps);
        tch::no_grad(|| {
            for s in &mut self.slots {
                let g = s.param.grad();
                if !g.defined() {
                    continue;
                }
                let decay = if s.decay { wd } else { 0.0 };
                match kind {
                    OptimizerKind::Sgd => {
                        // PyTorch's SGD: L2 decay in the gradient, then momentum.
                        let g = if decay > 0.0 {
                            &g + &s.param * decay
                        } else {
                            g
                        };
                        let _ = s.first.g_mul_scalar_(mu).g_add_(&g);
                        let update = if nesterov {
                            &g + &s.first * mu
                        } else {
                            s.first.shallow_clone()
                        };
                        let _ = s.param.g_sub_(&(update * lr));
                    }
                    OptimizerKind::Adamw => {
                        if decay > 0.0 {
                            let _ = s.param.g_mul_scalar_(1.0 - lr * decay);
                        }
                        let _ = s.first.g_mul_scalar_(b1).g_add_(&(&g * (1.0 - b1)));
                        let _ = s.second.g_mul_scalar_(b2).addcmul_(&(&g * (1.0 - b2)), &g);
                        let c1 = 1.0 - b1.powf(t);
                        let c2 = 1.0 - b2.powf(t);
                        let denom = (&s.second / c2).sqrt() + eps;
                        let _ = s.param.g_sub_(&((&s.first / denom) * (lr / c1)));
                    }
                }
            }
        });
    }

    /// Writes the buffers and the update count (safetensors) to `path`
    /// (the caller renames a temporary name into place).
    pub fn save(&self, path: &Path) -> Result<(), crate::TrainError> {
        let mut named: Vec<(String, Tensor)> = Vec::with_capacity(2 * self.slots.len() + 1);
        for s in &self.slots {
            named.push((format!("first.{}", s.name), s.first.to_device(Device::Cpu)));
            if self.kind == OptimizerKind::Adamw {
                named.push((
                    format!("second.{}", s.name),
                    s.second.to_device(Device::Cpu),
                ));
            }
        }
        named.push((
            UPDATES_KEY.to_string(),
            Tensor::from_slice(&[self.updates as i64]),
        ));
        Tensor::write_safetensors(&named, path).map_err(|source| crate::TrainError::SaveOptimizer {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Restores the state written by [`Optimizer::save`]; every buffer must
    /// be there with the shape of its variable.
    pub fn load(&mut self, path: &Path) -> Result<(), crate::TrainError> {
        let bad = |problem| crate::TrainError::OptimizerState {
            path: path.to_path_buf(),
            problem,
        };
        let stored: HashMap<String, Tensor> = Tensor::read_safetensors(path)
            .map_err(|e| bad(OptimizerStateError::Unreadable(e)))?
            .into_iter()
            .collect();
        let updates = stored
            .get(UPDATES_KEY)
            .ok_or_else(|| bad(OptimizerStateError::NoUpdateCount))?
            .int64_value(&[0]);
        let adam = self.kind == OptimizerKind::Adamw;
        for s in &mut self.slots {
            let mut targets = vec![("first", &mut s.first)];
            if adam {
                targets.push(("second", &mut s.second));
            }
            for (prefix, buf) in targets {
                let key = format!("{prefix}.{}", s.name);
                let Some(src) = stored.get(&key) else {
                    return Err(bad(OptimizerStateError::Missing { key }));
                };
                if src.size() != buf.size() {
                    return Err(bad(OptimizerStateError::Shape {
                        key,
                        found: src.size(),
                        expected: buf.size(),
                    }));
                }
                if let Err(source) = tch::no_grad(|| buf.f_copy_(src)) {
                    return Err(bad(OptimizerStateError::Copy { key, source }));
                }
            }
        }
        self.updates = updates.max(0) as u64;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tch::nn::{self, Module};

    fn quadratic(kind: OptimizerKind) -> f64 {
        let (vs, lin, x) = model::with_torch_rng(|| {
            tch::manual_seed(0);
            let vs = nn::VarStore::new(Device::Cpu);
            let lin = nn::linear(vs.root() / "l", 4, 1, Default::default());
            let x = Tensor::randn([64, 4], (Kind::Float, Device::Cpu));
            (vs, lin, x)
        });
        let cfg = TrainConfig {
            optimizer: kind,
            weight_decay: 0.0,
            ..Default::default()
        };
        let mut opt = Optimizer::new(&vs, &cfg);
        let y = x.sum_dim_intlist(1i64, true, Kind::Float) * 0.5 + 1.0;
        let mut last = f64::MAX;
        for _ in 0..300 {
            opt.zero_grad();
            let loss = (lin.forward(&x) - &y).square().mean(Kind::Float);
            loss.backward();
            opt.clip_grad_norm(10.0);
            opt.step(0.05);
            last = loss.double_value(&[]);
        }
        last
    }

    #[test]
    fn both_optimisers_fit_a_line() {
        assert!(quadratic(OptimizerKind::Sgd) < 1e-3);
        assert!(quadratic(OptimizerKind::Adamw) < 1e-3);
    }
}
