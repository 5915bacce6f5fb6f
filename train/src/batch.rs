//! Turning replay-window rows into the tensors of one training step. Runs on
//! the window's background thread, so the step never waits for decoding,
//! move generation or encoding.

use data::PositionRecord;
use game::{Game, GameMove, GameState};
use model::{BatchTensors, Encoder};
use tch::{Device, Tensor};

/// One step's inputs and targets, on the CPU until the trainer moves them.
pub struct TrainBatch {
    pub input: BatchTensors,
    /// `[B, M]`: the policy target over each row's moves, zeros in padding.
    pub policy_target: Tensor,
    /// `[B, 3]`: the game result (win, draw, loss) for the side to move.
    pub value_target: Tensor,
    /// `[B]`: weight of each row's policy loss (cheap searches weigh less).
    pub policy_weight: Tensor,
    /// `[B]`: weight of each row's value loss (0 for unfinished games).
    pub value_weight: Tensor,
    /// Rows in the batch.
    pub rows: usize,
    /// Rows dropped because they could not be decoded.
    pub skipped: usize,
}

impl TrainBatch {
    /// Moves the tensors to `device` (a no-op on CPU).
    pub fn to_device(self, device: Device) -> TrainBatch {
        if device == Device::Cpu {
            return self;
        }
        let i = self.input;
        TrainBatch {
            input: BatchTensors {
                planes: i.planes.to_device(device),
                move_from: i.move_from.to_device(device),
                move_to: i.move_to.to_device(device),
                move_features: i.move_features.to_device(device),
                mask: i.mask.to_device(device),
            },
            policy_target: self.policy_target.to_device(device),
            value_target: self.value_target.to_device(device),
            policy_weight: self.policy_weight.to_device(device),
            value_weight: self.value_weight.to_device(device),
            rows: self.rows,
            skipped: self.skipped,
        }
    }
}

/// Reusable buffers for building batches (one per background thread).
pub struct BatchBuilder<G: Game> {
    game: G,
    /// The game's symmetries (`Game::symmetries`; 1: none but the identity).
    symmetries: usize,
    encoder: Encoder<G::State>,
    moves: Vec<G::Move>,
    /// Compact policy targets, parallel to the encoder's moves.
    targets: Vec<f32>,
    padded: Vec<f32>,
    value: Vec<f32>,
    policy_weight: Vec<f32>,
    value_weight: Vec<f32>,
    /// Share of the value target taken from the stored search W/D/L.
    value_q_weight: f32,
    /// Share taken from a hint of the position's win probability for the
    /// side to move (`[train] value_eval_weight`), and the hint.
    value_hint: Option<(f32, ValueHint<G::State>)>,
}

/// A position's win probability for the side to move from something other
/// than the game's result (the game's static evaluation: see
/// `[train] value_eval_weight`), in [0, 1].
pub type ValueHint<S> = std::sync::Arc<dyn Fn(&S) -> f32 + Send + Sync>;

/// The row's position and moves under symmetry `sym` of the game (0: as
/// stored); `None` for a row that cannot be trained on (unreadable position
/// or move codes, no moves, visit counts that do not match the moves).
fn decode<G: Game>(
    game: &G,
    record: &PositionRecord,
    sym: usize,
    moves: &mut Vec<G::Move>,
) -> Option<G::State> {
    let pos = game.parse_state(&record.position).ok()?;
    let visits_fit = record
        .visits
        .as_ref()
        .is_none_or(|v| v.len() == record.legal_moves.len());
    if record.legal_moves.is_empty() || !visits_fit {
        return None;
    }
    moves.clear();
    for &code in &record.legal_moves {
        moves.push(G::Move::from_code(code)?);
    }
    if sym != 0 {
        for m in moves.iter_mut() {
            *m = pos.transform_move(*m, sym);
        }
        return Some(pos.transform(sym));
    }
    Some(pos)
}

impl<G: Game> BatchBuilder<G> {
    /// Buffers for batches of `game`'s positions.
    pub fn new(game: &G) -> BatchBuilder<G> {
        BatchBuilder {
            game: game.clone(),
            symmetries: game.symmetries(),
            encoder: Encoder::new(),
            moves: Vec::new(),
            targets: Vec::new(),
            padded: Vec::new(),
            value: Vec::new(),
            policy_weight: Vec::new(),
            value_weight: Vec::new(),
            value_q_weight: 0.0,
            value_hint: None,
        }
    }

    /// Mixes `weight` of `hint` into the value target (on top of
    /// `value_q_weight`, whose share it takes from the result's).
    pub fn with_value_hint(mut self, weight: f32, hint: ValueHint<G::State>) -> BatchBuilder<G> {
        self.value_hint = (weight > 0.0).then_some((weight.clamp(0.0, 1.0), hint));
        self
    }

    /// Mixes `q` of the search's root W/D/L into the value target (the
    /// `[train] value_q_weight` key); 0 trains on game results alone.
    pub fn with_value_q_weight(mut self, q: f32) -> BatchBuilder<G> {
        self.value_q_weight = q.clamp(0.0, 1.0);
        self
    }

    /// Builds the batch of `rows` (each with the symmetry to apply).
    /// `cheap_weight` is the policy weight of rows without a full search.
    pub fn build<'a>(
        &mut self,
        rows: impl Iterator<Item = (&'a PositionRecord, usize)>,
        cheap_weight: f32,
    ) -> TrainBatch {
        self.encoder.clear();
        self.targets.clear();
        self.value.clear();
        self.policy_weight.clear();
        self.value_weight.clear();
        let mut skipped = 0;
        for (record, sym) in rows {
            let sym = if sym < self.symmetries { sym } else { 0 };
            let Some(pos) = decode(&self.game, record, sym, &mut self.moves) else {
                skipped += 1;
                continue;
            };
            // The repetition count self-play saw (schema v2), so training
            // encodes what the search encoded; v1 rows lack it: 1.
            let reps = record.repetitions.unwrap_or(1).min(255) as u8;
            self.encoder.push_with_moves(&pos, reps, &self.moves);
            let start = self.targets.len();
            match &record.policy_target {
                Some(p) if p.len() == record.legal_moves.len() => {
                    self.targets.extend(p.iter().map(|&x| x.max(0.0)));
                }
                _ => match &record.visits {
                    Some(v) => self.targets.extend(v.iter().map(|&v| v as f32)),
                    // No search ran: nothing to learn for the policy.
                    None => self.targets.extend(record.legal_moves.iter().map(|_| 0.0)),
                },
            }
            let total: f32 = self.targets[start..].iter().sum();
            let mut weight = if record.full_search {
                1.0
            } else {
                cheap_weight
            };
            if total > 0.0 && total.is_finite() {
                self.targets[start..].iter_mut().for_each(|x| *x /= total);
            } else {
                // No visits recorded: nothing to learn for the policy.
                weight = 0.0;
            }
            self.policy_weight.push(weight);
            match record.outcome_for_side_to_move() {
                Some(z) => {
                    let result = [
                        (z > 0.5) as u8 as f32,
                        (z.abs() < 0.5) as u8 as f32,
                        (z < -0.5) as u8 as f32,
                    ];
                    let search = record.root_wdl.unwrap_or([0.0; 3]);
                    let total: f32 = search.iter().sum();
                    let q = if (total - 1.0).abs() < 0.01 && search.iter().all(|p| *p >= 0.0) {
                        self.value_q_weight
                    } else {
                        0.0
                    };
                    // The hint is of the position as trained on; symmetries
                    // keep the rules, so the stored one's value is the same.
                    let (e, hint) = match &self.value_hint {
                        Some((e, f)) => {
                            let p = f(&pos).clamp(0.0, 1.0);
                            (e.min(1.0 - q), [p, 0.0, 1.0 - p])
                        }
                        None => (0.0, [0.0; 3]),
                    };
                    self.value.extend(
                        (0..3).map(|i| (1.0 - q - e) * result[i] + q * search[i] + e * hint[i]),
                    );
                    self.value_weight.push(1.0);
                }
                None => {
                    self.value.extend([0.0, 1.0, 0.0]);
                    self.value_weight.push(0.0);
                }
            }
        }
        self.encoder.finish();
        let b = self.encoder.len();
        let m = self.encoder.max_moves();
        self.padded.clear();
        self.padded.resize(b * m, 0.0);
        let offsets = self.encoder.offsets();
        for i in 0..b {
            let (lo, hi) = (offsets[i], offsets[i + 1]);
            self.padded[i * m..i * m + hi - lo].copy_from_slice(&self.targets[lo..hi]);
        }
        let (bi, mi) = (b as i64, m as i64);
        TrainBatch {
            input: self.encoder.to_tensors(Device::Cpu),
            policy_target: Tensor::from_slice(&self.padded).view([bi, mi]),
            value_target: Tensor::from_slice(&self.value).view([bi, 3]),
            policy_weight: Tensor::from_slice(&self.policy_weight),
            value_weight: Tensor::from_slice(&self.value_weight),
            rows: b,
            skipped,
        }
    }
}
