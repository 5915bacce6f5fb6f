//! Turning replay-window rows into the tensors of one training step. Runs on
//! the window's background thread, so the step never waits for decoding,
//! move generation or encoding.

use data::PositionRecord;
use game::{Game, GameMove, GameState};
use model::{BatchTensors, Encoder, ReplyMoves};
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
    /// The auxiliary heads' inputs and targets, when the builder makes them
    /// ([`BatchBuilder::with_aux`]).
    pub aux: Option<AuxBatch>,
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
            aux: self.aux.map(|a| a.into_device(device)),
            rows: self.rows,
            skipped: self.skipped,
        }
    }
}

/// The auxiliary targets of a batch (`[model] aux_heads`; docs/train.md,
/// "Auxiliary targets"), row `i` for the batch's row `i`.
pub struct AuxBatch {
    /// The legal moves of the position after each row's move.
    pub reply: ReplyMoves,
    /// `[B, M2]`: the opponent's search policy there, zeros in padding.
    pub reply_target: Tensor,
    /// `[B]`: 0 where the next row is missing or has no usable search (and
    /// for cheap searches, `cheap_search_weight`, as for the policy).
    pub reply_weight: Tensor,
    /// `[B]`: the static evaluation's win probability for the row's side to
    /// move, `future_eval_plies` plies ahead (or at the game's last row).
    pub future_target: Tensor,
    /// `[B]`: 0 where the window cut the game before that ply.
    pub future_weight: Tensor,
}

impl AuxBatch {
    fn into_device(self, device: Device) -> AuxBatch {
        AuxBatch {
            reply: ReplyMoves {
                move_features: self.reply.move_features.to_device(device),
                mask: self.reply.mask.to_device(device),
            },
            reply_target: self.reply_target.to_device(device),
            reply_weight: self.reply_weight.to_device(device),
            future_target: self.future_target.to_device(device),
            future_weight: self.future_weight.to_device(device),
        }
    }
}

/// The auxiliary targets' settings and buffers.
struct AuxBuilder<G: Game> {
    /// How many plies ahead the evaluation target looks.
    plies: usize,
    eval: ValueHint<G::State>,
    encoder: Encoder<G::State>,
    moves: Vec<G::Move>,
    targets: Vec<f32>,
    padded: Vec<f32>,
    reply_weight: Vec<f32>,
    future: Vec<f32>,
    future_weight: Vec<f32>,
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
    /// Whether a proven row's W/D/L is its whole value target.
    proven_targets: bool,
    /// Share taken from a hint of the position's win probability for the
    /// side to move (`[train] value_eval_weight`), and the hint.
    value_hint: Option<(f32, ValueHint<G::State>)>,
    aux: Option<AuxBuilder<G>>,
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
            proven_targets: false,
            value_hint: None,
            aux: None,
        }
    }

    /// Also builds the auxiliary heads' targets ([`AuxBatch`]): the reply
    /// policy from the row after each sample, and `eval` (a win probability
    /// for the position's side to move) of the position `plies` ahead.
    /// Batches must then come through [`BatchBuilder::build_batch`] (or
    /// [`BatchBuilder::build_ahead`]).
    pub fn with_aux(mut self, plies: usize, eval: ValueHint<G::State>) -> BatchBuilder<G> {
        self.aux = Some(AuxBuilder {
            plies: plies.max(1),
            eval,
            encoder: Encoder::new(),
            moves: Vec::new(),
            targets: Vec::new(),
            padded: Vec::new(),
            reply_weight: Vec::new(),
            future: Vec::new(),
            future_weight: Vec::new(),
        });
        self
    }

    /// How many rows after each sample the auxiliary targets read (0
    /// without them).
    pub fn rows_ahead(&self) -> usize {
        self.aux.as_ref().map_or(0, |a| a.plies)
    }

    /// Builds the batch of a window's samples, with the rows ahead of each
    /// that its auxiliary targets need: what training uses.
    pub fn build_batch(&mut self, batch: &data::Batch, cheap_weight: f32) -> TrainBatch {
        let ahead = self.rows_ahead();
        self.build_ahead(batch.iter_ahead(ahead), cheap_weight)
    }

    /// Mixes `weight` of `hint` into the value target (on top of
    /// `value_q_weight`, whose share it takes from the result's).
    pub fn with_value_hint(mut self, weight: f32, hint: ValueHint<G::State>) -> BatchBuilder<G> {
        self.value_hint = (weight > 0.0).then_some((weight.clamp(0.0, 1.0), hint));
        self
    }

    /// Takes a proven row's W/D/L (exactly one-hot: written only for a root
    /// the MCTS-solver proved) as its whole value target (`[train]
    /// proven_value_targets`), whatever the game's result.
    pub fn with_proven_targets(mut self, on: bool) -> BatchBuilder<G> {
        self.proven_targets = on;
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
    /// No auxiliary targets: see [`BatchBuilder::build_ahead`].
    pub fn build<'a>(
        &mut self,
        rows: impl Iterator<Item = (&'a PositionRecord, usize)>,
        cheap_weight: f32,
    ) -> TrainBatch {
        self.build_ahead(rows.map(|(r, s)| (r, s, &[][..])), cheap_weight)
    }

    /// [`BatchBuilder::build`] with the rows that follow each sample in its
    /// window (`data::Batch::iter_ahead(self.rows_ahead())`), from which
    /// the auxiliary targets come.
    pub fn build_ahead<'a>(
        &mut self,
        rows: impl Iterator<Item = (&'a PositionRecord, usize, &'a [PositionRecord])>,
        cheap_weight: f32,
    ) -> TrainBatch {
        self.encoder.clear();
        if let Some(aux) = &mut self.aux {
            aux.clear();
        }
        self.targets.clear();
        self.value.clear();
        self.policy_weight.clear();
        self.value_weight.clear();
        let mut skipped = 0;
        for (record, sym, ahead) in rows {
            let sym = if sym < self.symmetries { sym } else { 0 };
            let Some(pos) = decode(&self.game, record, sym, &mut self.moves) else {
                skipped += 1;
                continue;
            };
            // The repetition count self-play saw (schema v2), so training
            // encodes what the search encoded; v1 rows lack it: 1.
            let reps = record.repetitions.unwrap_or(1).min(255) as u8;
            self.encoder.push_with_moves(&pos, reps, &self.moves);
            let weight = push_policy_target(record, &mut self.targets, cheap_weight);
            self.policy_weight.push(weight);
            if let Some(aux) = &mut self.aux {
                aux.push(
                    &self.game,
                    record,
                    sym,
                    ahead,
                    (&pos, reps, &self.moves),
                    cheap_weight,
                );
            }
            if let Some(proof) = record
                .root_wdl
                .filter(|w| self.proven_targets && is_proof(w))
            {
                self.value.extend(proof);
                self.value_weight.push(1.0);
                continue;
            }
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
        pad_rows(&self.targets, self.encoder.offsets(), m, &mut self.padded);
        let (bi, mi) = (b as i64, m as i64);
        TrainBatch {
            input: self.encoder.to_tensors(Device::Cpu),
            policy_target: Tensor::from_slice(&self.padded).view([bi, mi]),
            value_target: Tensor::from_slice(&self.value).view([bi, 3]),
            policy_weight: Tensor::from_slice(&self.policy_weight),
            value_weight: Tensor::from_slice(&self.value_weight),
            aux: self.aux.as_mut().map(AuxBuilder::finish),
            rows: b,
            skipped,
        }
    }
}

/// Whether a stored root W/D/L is a proof: exactly one-hot. A visit average
/// never is, since the root's own network evaluation is part of it.
fn is_proof(wdl: &[f32; 3]) -> bool {
    wdl.iter().all(|&p| p == 0.0 || p == 1.0) && wdl.iter().sum::<f32>() == 1.0
}

/// Appends `record`'s policy target (normalised; its improved target when it
/// has one, else its visit counts) and returns the row's policy weight: 1
/// for a full search, `cheap_weight` for a cheap one, 0 with nothing to
/// learn (no search, no visits).
fn push_policy_target(record: &PositionRecord, targets: &mut Vec<f32>, cheap_weight: f32) -> f32 {
    let start = targets.len();
    match &record.policy_target {
        Some(p) if p.len() == record.legal_moves.len() => {
            targets.extend(p.iter().map(|&x| x.max(0.0)));
        }
        _ => match &record.visits {
            Some(v) => targets.extend(v.iter().map(|&v| v as f32)),
            // No search ran: nothing to learn for the policy.
            None => targets.extend(record.legal_moves.iter().map(|_| 0.0)),
        },
    }
    let total: f32 = targets[start..].iter().sum();
    if total > 0.0 && total.is_finite() {
        targets[start..].iter_mut().for_each(|x| *x /= total);
        if record.full_search {
            1.0
        } else {
            cheap_weight
        }
    } else {
        0.0
    }
}

/// Pads compact per-row values (row i is `offsets[i]..offsets[i+1]`) into
/// `out`, `[rows, m]`, zeros in padding.
fn pad_rows(compact: &[f32], offsets: &[usize], m: usize, out: &mut Vec<f32>) {
    let b = offsets.len() - 1;
    out.clear();
    out.resize(b * m, 0.0);
    for i in 0..b {
        let (lo, hi) = (offsets[i], offsets[i + 1]);
        out[i * m..i * m + hi - lo].copy_from_slice(&compact[lo..hi]);
    }
}

impl<G: Game> AuxBuilder<G> {
    fn clear(&mut self) {
        self.encoder.clear();
        self.targets.clear();
        self.reply_weight.clear();
        self.future.clear();
        self.future_weight.clear();
    }

    /// The targets of one sample: `record`, trained on under symmetry `sym`
    /// as `current` (its position, repetition count and moves), and the rows
    /// after it in the window.
    fn push(
        &mut self,
        game: &G,
        record: &PositionRecord,
        sym: usize,
        ahead: &[PositionRecord],
        current: (&G::State, u8, &[G::Move]),
        cheap_weight: f32,
    ) {
        // The rows that continue this game, in order.
        let run = ahead
            .iter()
            .enumerate()
            .take_while(|(j, r)| {
                r.game_id == record.game_id && r.ply as usize == record.ply as usize + 1 + j
            })
            .count();
        // The reply: the opponent's search at the next row, its position
        // and moves under the same symmetry as the sample's.
        let reply = ahead[..run.min(1)].first().and_then(|next| {
            let pos = decode(game, next, sym, &mut self.moves)?;
            Some((next, pos))
        });
        match reply {
            Some((next, pos)) => {
                let reps = next.repetitions.unwrap_or(1).min(255) as u8;
                self.encoder.push_with_moves(&pos, reps, &self.moves);
                let w = push_policy_target(next, &mut self.targets, cheap_weight);
                self.reply_weight.push(w);
            }
            None => {
                // A stand-in the loss ignores (weight 0): the sample's own
                // moves, all-zero target.
                let (pos, reps, moves) = current;
                self.encoder.push_with_moves(pos, reps, moves);
                self.targets.extend(moves.iter().map(|_| 0.0));
                self.reply_weight.push(0.0);
            }
        }
        // The evaluation `plies` ahead, or at the game's last row when it
        // ends sooner; unknown when the window cut the game short.
        let steps = run.min(self.plies);
        let target = if steps == 0 {
            record
        } else {
            &ahead[steps - 1]
        };
        let ended = target.ply + 1 >= target.game_length;
        let p = if steps == 0 {
            Some((self.eval)(current.0))
        } else {
            game.parse_state(&target.position)
                .ok()
                .map(|pos| (self.eval)(&pos))
        };
        match p {
            Some(p) if steps == self.plies || ended => {
                let p = p.clamp(0.0, 1.0);
                let mine = target.side_to_move == record.side_to_move;
                self.future.push(if mine { p } else { 1.0 - p });
                self.future_weight.push(1.0);
            }
            _ => {
                self.future.push(0.5);
                self.future_weight.push(0.0);
            }
        }
    }

    fn finish(&mut self) -> AuxBatch {
        self.encoder.finish();
        let b = self.encoder.len();
        let m = self.encoder.max_moves();
        pad_rows(&self.targets, self.encoder.offsets(), m, &mut self.padded);
        let x = self.encoder.to_tensors(Device::Cpu);
        AuxBatch {
            reply: ReplyMoves {
                move_features: x.move_features,
                mask: x.mask,
            },
            reply_target: Tensor::from_slice(&self.padded).view([b as i64, m as i64]),
            reply_weight: Tensor::from_slice(&self.reply_weight),
            future_target: Tensor::from_slice(&self.future),
            future_weight: Tensor::from_slice(&self.future_weight),
        }
    }
}
