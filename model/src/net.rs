//! The policy/value network: a residual convolutional trunk, the legal-move
//! scorer policy head and a win/draw/loss head.
//!
//! The policy head scores each legal move as
//! `mlp(cell[from] ‖ cell[to] ‖ embed(move features))`. The MLP's first layer
//! is linear in the concatenation, so it splits into three sums:
//! `A·cell[from] + B·cell[to] + C·embed(f)`. `A·cell` and `B·cell` are 1×1
//! convolutions applied once per cell (48 of them) instead of once per move
//! (often 50–150), then gathered per move; the result is the same function at
//! a fraction of the cost.

use crate::config::{ConfigError, ModelConfig, Padding, Precision, MAX_BLOCKS, MAX_WIDTH};
use crate::encode::{BatchTensors, Encoder, Input, PackedTensors};
use game::{Encoding, GameState};
use serde::{Deserialize, Serialize};
use tch::nn;
use tch::{Device, Kind, Tensor};

/// Everything that fixes the set and shapes of the weights. Stored in every
/// checkpoint's sidecar; a checkpoint loads only into the same shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shape {
    pub blocks: usize,
    pub channels: usize,
    pub move_embed: usize,
    pub policy_hidden: usize,
    pub value_hidden: usize,
    /// Input planes (`Encoding::planes` of the game it was built for).
    pub planes: usize,
    /// Move features (`Encoding::move_features` of the game it was built for).
    pub move_features: usize,
    /// The trunk's padding (absent in sidecars written before it existed:
    /// zeros).
    #[serde(default)]
    pub padding: Padding,
    /// Global-pooling bias blocks (absent in sidecars written before they
    /// existed: none).
    #[serde(default)]
    pub global_pool: bool,
    /// Auxiliary heads for training (absent in sidecars written before they
    /// existed: none): the opponent's reply policy and the game's static
    /// evaluation a few plies ahead. Play never reads them.
    #[serde(default)]
    pub aux_heads: bool,
    /// Equivariant to the left-right mirror by construction (`[model]
    /// mirror`; absent in sidecars written before it existed: no): the
    /// trunk's channels come in two halves that the mirror swaps, so the
    /// network's answer for a position's mirror image is its answer for
    /// the position, mirrored (docs/model.md, "A network that cannot tell
    /// a position from its mirror image").
    #[serde(default)]
    pub mirror: bool,
}

impl Shape {
    /// The shape a config asks for, for a game's encoding.
    pub fn of(config: &ModelConfig, encoding: Encoding) -> Shape {
        Shape {
            blocks: config.blocks,
            channels: config.channels,
            move_embed: config.move_embed,
            policy_hidden: config.policy_hidden,
            value_hidden: config.value_hidden,
            planes: encoding.planes,
            move_features: encoding.move_features,
            padding: config.padding,
            global_pool: config.global_pool,
            aux_heads: config.aux_heads,
            mirror: config.mirror,
        }
    }
}

impl Shape {
    /// Checks every size is within `1..=MAX_WIDTH` (blocks `0..=MAX_BLOCKS`);
    /// the error names the field.
    pub fn validate(&self) -> Result<(), crate::ConfigError> {
        if self.blocks > MAX_BLOCKS {
            return Err(crate::ConfigError::invalid(
                "shape.blocks",
                format!("{} (at most {MAX_BLOCKS})", self.blocks),
            ));
        }
        for (key, v) in [
            ("channels", self.channels),
            ("move_embed", self.move_embed),
            ("policy_hidden", self.policy_hidden),
            ("value_hidden", self.value_hidden),
            ("planes", self.planes),
            ("move_features", self.move_features),
        ] {
            if !(1..=MAX_WIDTH).contains(&v) {
                return Err(crate::ConfigError::invalid(
                    format!("shape.{key}"),
                    format!("{v} (must be 1..={MAX_WIDTH})"),
                ));
            }
        }
        if self.mirror && (!self.channels.is_multiple_of(2) || self.padding != Padding::Zeros) {
            return Err(crate::ConfigError::invalid(
                "shape.mirror",
                format!(
                    "needs an even number of channels ({}) and zero padding",
                    self.channels
                ),
            ));
        }
        Ok(())
    }
}

impl std::fmt::Display for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} blocks × {} channels, move embed {}, policy hidden {}, value hidden {}, {} planes, {} move features{}{}{}{}",
            self.blocks,
            self.channels,
            self.move_embed,
            self.policy_hidden,
            self.value_hidden,
            self.planes,
            self.move_features,
            match self.padding {
                Padding::Zeros => "",
                Padding::Circular => ", circular padding",
            },
            if self.global_pool {
                ", global pooling"
            } else {
                ""
            },
            if self.aux_heads {
                ", auxiliary heads"
            } else {
                ""
            },
            if self.mirror {
                ", mirror-equivariant"
            } else {
                ""
            }
        )
    }
}

/// Logit given to padding slots: far below any real logit, but finite, so
/// `0 × log_softmax` in the loss stays 0 instead of NaN.
const MASKED_LOGIT: f64 = -1e9;

/// `logits` with the slots where `mask` is false set to a huge negative
/// logit: [`MASKED_LOGIT`], or -6e4 in an fp16 network (fp16's largest
/// finite magnitude is 65,504); either way a softmax gives those slots
/// nothing.
fn masked(logits: Tensor, mask: &Tensor) -> Tensor {
    let fill = if logits.kind() == Kind::Half {
        -6.0e4
    } else {
        MASKED_LOGIT
    };
    logits.masked_fill(&mask.logical_not(), fill)
}

/// A convolution of the trunk or the value head.
enum Conv {
    Plain(nn::Conv2D),
    /// Mirror-equivariant (`Shape::mirror`): the free weight `w` is the
    /// first half of the output channels, `[C_out/2, C_in, k, k]`; the
    /// second half is `w` flipped left to right with its input halves
    /// swapped (`lift`: the input is the game's planes, which the mirror
    /// only flips, so nothing is swapped). Output half a of the mirror
    /// image is then output half b of the position, flipped, and the
    /// reverse. The same work as a plain convolution of `C_out` channels,
    /// from half its weights.
    Mirror {
        w: Tensor,
        lift: bool,
        padding: i64,
    },
}

/// Which [`Conv`] to build.
#[derive(Clone, Copy)]
enum ConvKind {
    Plain,
    /// Mirror-equivariant, from the game's planes.
    MirrorLift,
    /// Mirror-equivariant, between channel halves.
    MirrorHalves,
}

impl Conv {
    fn new(vs: &nn::Path, i: usize, o: usize, k: i64, kind: ConvKind, pad: Padding) -> Conv {
        let lift = match kind {
            ConvKind::Plain => return Conv::Plain(conv(vs, i, o, k, false, pad)),
            ConvKind::MirrorLift => true,
            ConvKind::MirrorHalves => false,
        };
        Conv::Mirror {
            // The plain convolution's initialisation, over the same fan-in
            // (the inputs of one output channel).
            w: vs.var(
                "weight",
                &[(o / 2) as i64, i as i64, k, k],
                nn::ConvConfig::default().ws_init,
            ),
            lift,
            padding: k / 2,
        }
    }

    fn forward(&self, x: &Tensor) -> Tensor {
        match self {
            Conv::Plain(c) => x.apply(c),
            Conv::Mirror { w, lift, padding } => {
                let flipped = w.flip([3]);
                let other = if *lift {
                    flipped
                } else {
                    let h = w.size()[1] / 2;
                    Tensor::cat(&[flipped.narrow(1, h, h), flipped.narrow(1, 0, h)], 1)
                };
                let full = Tensor::cat(&[w, &other], 0);
                x.conv2d(
                    &full,
                    None::<Tensor>,
                    [1, 1],
                    [*padding, *padding],
                    [1, 1],
                    1,
                )
            }
        }
    }
}

/// Batch norm of the trunk: per channel, or (`Shape::mirror`) per pair of
/// channels the mirror swaps, so both halves share statistics and affine
/// weights.
struct Norm {
    bn: nn::BatchNorm,
    mirror: bool,
}

impl Norm {
    fn new(vs: nn::Path, ch: usize, mirror: bool) -> Norm {
        let n = if mirror { ch / 2 } else { ch };
        Norm {
            bn: nn::batch_norm2d(vs, n as i64, Default::default()),
            mirror,
        }
    }

    fn forward_t(&self, x: &Tensor, train: bool) -> Tensor {
        if !self.mirror {
            return x.apply_t(&self.bn, train);
        }
        let s = x.size();
        // [B, C, H, W] -> [2B, C/2, H, W]: each half a batch row of its own.
        x.reshape([s[0] * 2, s[1] / 2, s[2], s[3]])
            .apply_t(&self.bn, train)
            .reshape(s.as_slice())
    }
}

/// Global-pooling bias of a block.
enum PoolBias {
    /// `[mean ‖ max]` of the block's first activations (2C) to a bias per
    /// channel (C).
    Plain(nn::Linear),
    /// Mirror-equivariant: half a's pooled `[mean ‖ max]` (C numbers) by
    /// `same` plus half b's by `other` is half a's bias, and the reverse
    /// for half b.
    Mirror { same: nn::Linear, other: nn::Linear },
}

impl PoolBias {
    fn forward(&self, y: &Tensor) -> Tensor {
        match self {
            PoolBias::Plain(l) => pool_cells(y).apply(l),
            PoolBias::Mirror { same, other } => {
                let (a, b) = pooled_halves(y);
                let bias_a = a.apply(same) + b.apply(other);
                let bias_b = b.apply(same) + a.apply(other);
                Tensor::cat(&[bias_a, bias_b], 1)
            }
        }
    }
}

struct Block {
    conv1: Conv,
    bn1: Norm,
    conv2: Conv,
    bn2: Norm,
    pool: Option<PoolBias>,
}

impl Shape {
    /// Whether block `i` has a global-pooling bias: every second block,
    /// from the second (the only one of a one-block trunk).
    pub fn pools_in_block(&self, i: usize) -> bool {
        self.global_pool && (i % 2 == 1 || self.blocks == 1)
    }
}

/// Mean and max over the cells of `[B, C, H, W]`: `[B, 2C]`. No weight
/// depends on the board size.
fn pool_cells(t: &Tensor) -> Tensor {
    Tensor::cat(
        &[
            t.mean_dim([2i64, 3].as_slice(), false, t.kind()),
            t.amax([2i64, 3].as_slice(), false),
        ],
        1,
    )
}

/// [`pool_cells`] of each half of the channels of a mirror-equivariant
/// trunk: `([B, C], [B, C])`, `[mean ‖ max]` of half a and of half b.
fn pooled_halves(t: &Tensor) -> (Tensor, Tensor) {
    let (a, b) = halves(t);
    (pool_cells(&a), pool_cells(&b))
}

/// The two channel halves (a, b) of a mirror-equivariant trunk's
/// `[B, C, H, W]`, each `[B, C/2, H, W]`.
fn halves(t: &Tensor) -> (Tensor, Tensor) {
    let h = t.size()[1] / 2;
    (t.narrow(1, 0, h), t.narrow(1, h, h))
}

/// What the value and reply heads read of the whole board: `[B, 2C]`,
/// [`pool_cells`]; for a mirror-equivariant trunk, the pooled halves'
/// sum and absolute difference, which the mirror (swapping the halves)
/// leaves as they are.
fn pool_board(t: &Tensor, mirror: bool) -> Tensor {
    if !mirror {
        return pool_cells(t);
    }
    let (a, b) = pooled_halves(t);
    Tensor::cat(&[&a + &b, (&a - &b).abs()], 1)
}

/// The training-only heads (`Shape::aux_heads`; docs/model.md,
/// "Auxiliary heads").
struct AuxHeads {
    /// Reply policy: `out(relu(pool·[mean ‖ max of the trunk] +
    /// proj(relu(embed(features)))))` per reply move. The trunk is pooled
    /// rather than read at the move's cells: a reply's cells are in the
    /// opponent's frame (the encodings are from the side to move's view), a
    /// frame the trunk of this position does not use.
    reply_pool: nn::Linear,
    reply_embed: nn::Linear,
    reply_proj: nn::Linear,
    reply_out: nn::Linear,
    /// Static evaluation a few plies ahead, as a logit of a win
    /// probability, from the value head's hidden layer.
    future_out: nn::Linear,
}

/// The reply moves of a batch for the reply-policy head: the legal moves of
/// the position after each row's move, padded like the policy's.
pub struct ReplyMoves {
    /// `[B, M2, move_features]`.
    pub move_features: Tensor,
    /// `[B, M2]`: true for a real move, false for padding.
    pub mask: Tensor,
}

/// What the auxiliary heads say of a batch.
pub struct AuxOutputs {
    /// `[B, M2]` logits over each row's reply moves, padding masked.
    pub reply_logits: Tensor,
    /// `[B]` logit of the win probability the static evaluation gives a few
    /// plies ahead, for the row's side to move.
    pub future_logit: Tensor,
}

/// The network with its weights. Not `Sync` (tch modules are not): one
/// thread owns it and others send it positions.
pub struct Network {
    vs: nn::VarStore,
    shape: Shape,
    input_conv: Conv,
    input_bn: Norm,
    blocks: Vec<Block>,
    from_proj: nn::Conv2D,
    to_proj: nn::Conv2D,
    move_embed: nn::Linear,
    move_proj: nn::Linear,
    policy_out: nn::Linear,
    value_conv: Conv,
    value_bn: Norm,
    value_fc: nn::Linear,
    value_out: nn::Linear,
    aux: Option<AuxHeads>,
    precision: Precision,
}

/// One position's evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// Probability of each legal move, in `GameState::legal_moves` order.
    pub policy: Vec<f32>,
    /// Win, draw, loss probabilities for the side to move.
    pub wdl: [f32; 3],
}

fn conv(vs: &nn::Path, i: usize, o: usize, k: i64, bias: bool, pad: Padding) -> nn::Conv2D {
    let cfg = nn::ConvConfig {
        padding: k / 2,
        padding_mode: pad.mode(),
        bias,
        ..Default::default()
    };
    nn::conv2d(vs, i as i64, o as i64, k, cfg)
}

fn linear(vs: &nn::Path, i: usize, o: usize, bias: bool) -> nn::Linear {
    let cfg = nn::LinearConfig {
        bias,
        ..Default::default()
    };
    nn::linear(vs, i as i64, o as i64, cfg)
}

/// Runs `f` as the only user of libtorch's random generator.
///
/// libtorch has one generator per process and tch gives no other: two
/// threads drawing at once (a network built while a test draws random
/// planes, say; tests run in parallel) interleave their draws, and neither
/// gets what its seed promised. Everything in triad that seeds or draws from
/// that generator goes through here, [`Network::with_shape`] included, so a
/// seed's network is the same whatever else the process does. Do not nest it.
pub fn with_torch_rng<R>(f: impl FnOnce() -> R) -> R {
    static TORCH_RNG: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _only_user = TORCH_RNG.lock().unwrap_or_else(|e| e.into_inner());
    f()
}

impl Network {
    /// A fresh network from a config for a game's encoding, its weights
    /// drawn from `seed` (libtorch's global generator is seeded, so the same
    /// seed and config give the same weights).
    pub fn new(
        config: &ModelConfig,
        encoding: Encoding,
        seed: u64,
    ) -> Result<Network, ConfigError> {
        config.validate()?;
        if config.mirror && !encoding.mirror {
            return Err(ConfigError::invalid(
                "model.mirror",
                "this game's mirror is not a left-right flip of its planes with the move features unchanged (only Connect Four's is); remove the key",
            ));
        }
        let device = config.tch_device()?;
        if config.threads > 0 {
            tch::set_num_threads(config.threads as i32);
        }
        Ok(Network::with_shape(
            Shape::of(config, encoding),
            device,
            seed,
        ))
    }

    /// A fresh network of a given shape on a device.
    pub fn with_shape(shape: Shape, device: Device, seed: u64) -> Network {
        with_torch_rng(|| {
            tch::manual_seed(seed as i64);
            Network::draw(shape, device)
        })
    }

    /// Builds the layers, drawing their initial weights from libtorch's
    /// generator as it stands (the caller holds [`with_torch_rng`]).
    fn draw(shape: Shape, device: Device) -> Network {
        let vs = nn::VarStore::new(device);
        let root = vs.root();
        let (ch, pad, mirror) = (shape.channels, shape.padding, shape.mirror);
        // A mirror-equivariant trunk's convolutions: lifting from the
        // planes, then between channel halves.
        let (lift, inner) = if mirror {
            (ConvKind::MirrorLift, ConvKind::MirrorHalves)
        } else {
            (ConvKind::Plain, ConvKind::Plain)
        };
        let bn = |p: nn::Path| Norm::new(p, ch, mirror);
        let input_conv = Conv::new(&(&root / "input_conv"), shape.planes, ch, 3, lift, pad);
        let input_bn = bn(&root / "input_bn");
        let blocks = (0..shape.blocks)
            .map(|i| {
                let p = &root / format!("block{i}");
                Block {
                    conv1: Conv::new(&(&p / "conv1"), ch, ch, 3, inner, pad),
                    bn1: bn(&p / "bn1"),
                    conv2: Conv::new(&(&p / "conv2"), ch, ch, 3, inner, pad),
                    bn2: bn(&p / "bn2"),
                    pool: shape.pools_in_block(i).then(|| {
                        if mirror {
                            PoolBias::Mirror {
                                same: linear(&(&p / "pool_same"), ch, ch / 2, true),
                                other: linear(&(&p / "pool_other"), ch, ch / 2, false),
                            }
                        } else {
                            PoolBias::Plain(linear(&(&p / "pool"), 2 * ch, ch, true))
                        }
                    }),
                }
            })
            .collect();
        let pol = &root / "policy";
        let h = shape.policy_hidden;
        // The policy head reads the sum of the two halves of a
        // mirror-equivariant trunk, which the mirror only flips.
        let cell_ch = if mirror { ch / 2 } else { ch };
        let from_proj = conv(&(&pol / "from_proj"), cell_ch, h, 1, true, Padding::Zeros);
        let to_proj = conv(&(&pol / "to_proj"), cell_ch, h, 1, false, Padding::Zeros);
        let move_embed = linear(
            &(&pol / "move_embed"),
            shape.move_features,
            shape.move_embed,
            true,
        );
        let move_proj = linear(&(&pol / "move_proj"), shape.move_embed, h, false);
        let policy_out = linear(&(&pol / "out"), h, 1, true);
        let val = &root / "value";
        let value_conv = Conv::new(&(&val / "conv"), ch, ch, 1, inner, Padding::Zeros);
        let value_bn = bn(&val / "bn");
        let value_fc = linear(&(&val / "fc"), 2 * ch, shape.value_hidden, true);
        let value_out = linear(&(&val / "out"), shape.value_hidden, 3, true);
        let aux = shape.aux_heads.then(|| {
            let a = &root / "aux";
            AuxHeads {
                reply_pool: linear(&(&a / "reply_pool"), 2 * ch, h, true),
                reply_embed: linear(
                    &(&a / "reply_embed"),
                    shape.move_features,
                    shape.move_embed,
                    true,
                ),
                reply_proj: linear(&(&a / "reply_proj"), shape.move_embed, h, false),
                reply_out: linear(&(&a / "reply_out"), h, 1, true),
                future_out: linear(&(&a / "future_out"), shape.value_hidden, 1, true),
            }
        });
        Network {
            vs,
            shape,
            input_conv,
            input_bn,
            blocks,
            from_proj,
            to_proj,
            move_embed,
            move_proj,
            policy_out,
            value_conv,
            value_bn,
            value_fc,
            value_out,
            aux,
            precision: Precision::Fp32,
        }
    }

    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The number format [`Network::evaluate_encoded`] computes in.
    pub fn precision(&self) -> Precision {
        self.precision
    }

    /// Converts the weights (and batch norm's running statistics) to
    /// `precision` for inference; the inputs are converted at each batch.
    /// For play only: training reads fp32 weights, and a network taken to
    /// 16 bits and back has lost the bits in between.
    pub fn set_precision(&mut self, precision: Precision) {
        if precision == self.precision {
            return;
        }
        match precision {
            Precision::Fp32 => self.vs.float(),
            Precision::Bf16 => self.vs.bfloat16(),
            Precision::Fp16 => self.vs.half(),
        }
        self.precision = precision;
    }
    pub fn device(&self) -> Device {
        self.vs.device()
    }
    /// The weights, for an optimiser (`nn::Adam::default().build(net.var_store(), lr)`).
    pub fn var_store(&self) -> &nn::VarStore {
        &self.vs
    }
    /// A copy of this network (same shape, device and weights), for a
    /// moving average of its weights.
    pub fn duplicate(&self) -> Network {
        let mut copy = Network::with_shape(self.shape, self.device(), 0);
        copy.vs
            .copy(&self.vs)
            .expect("a network of the same shape has the same variables");
        copy
    }
    /// Number of trainable parameters.
    pub fn parameter_count(&self) -> usize {
        self.vs
            .trainable_variables()
            .iter()
            .map(|t| t.numel())
            .sum()
    }

    /// The forward pass with gradients (when not inside `no_grad`).
    /// `train` selects batch statistics in batch norm (and updates the running
    /// ones). Returns `(policy_logits [B, M], value_logits [B, 3])`; padding
    /// slots of the policy hold a huge negative logit, so a softmax over a
    /// row is a distribution over that position's legal moves only. Value
    /// logits are win, draw, loss for the side to move.
    pub fn forward_t(&self, x: &BatchTensors, train: bool) -> (Tensor, Tensor) {
        let t = self.trunk(&x.planes, train);
        let logits = self.policy_logits(&t, x);
        let value = self.value_hidden(&t, train).apply(&self.value_out);
        (logits, value)
    }

    /// [`Network::forward_t`] plus the auxiliary heads' outputs, from one
    /// pass through the trunk; `None` for a network without them
    /// (`Shape::aux_heads`). `reply` holds the reply moves of each row.
    pub fn forward_aux_t(
        &self,
        x: &BatchTensors,
        reply: &ReplyMoves,
        train: bool,
    ) -> Option<(Tensor, Tensor, AuxOutputs)> {
        let aux = self.aux.as_ref()?;
        let t = self.trunk(&x.planes, train);
        let logits = self.policy_logits(&t, x);
        let hidden = self.value_hidden(&t, train);
        let value = hidden.apply(&self.value_out);
        let future_logit = hidden.apply(&aux.future_out).squeeze_dim(-1);
        let board = pool_board(&t, self.shape.mirror)
            .apply(&aux.reply_pool)
            .unsqueeze(1); // [B, 1, H]
        let moves = reply
            .move_features
            .apply(&aux.reply_embed)
            .relu()
            .apply(&aux.reply_proj); // [B, M2, H]
        let reply_logits = (moves + board).relu().apply(&aux.reply_out).squeeze_dim(-1);
        let reply_logits = masked(reply_logits, &reply.mask);
        Some((
            logits,
            value,
            AuxOutputs {
                reply_logits,
                future_logit,
            },
        ))
    }

    /// The residual trunk: `[B, C, H, W]`.
    fn trunk(&self, planes: &Tensor, train: bool) -> Tensor {
        let mut t = self
            .input_bn
            .forward_t(&self.input_conv.forward(planes), train)
            .relu();
        for b in &self.blocks {
            let y = b.bn1.forward_t(&b.conv1.forward(&t), train).relu();
            // Not in place: relu's backward reads its output.
            let y = match &b.pool {
                Some(pool) => {
                    let bias = pool.forward(&y);
                    y + bias.unsqueeze(-1).unsqueeze(-1)
                }
                None => y,
            };
            let y = b.bn2.forward_t(&b.conv2.forward(&y), train);
            t = (y + t).relu();
        }
        t
    }

    /// What the policy head reads of each cell: the trunk, or the sum of
    /// a mirror-equivariant trunk's two halves.
    fn cells(&self, t: &Tensor) -> Tensor {
        if !self.shape.mirror {
            return t.shallow_clone();
        }
        let (a, b) = halves(t);
        a + b
    }

    /// The legal-move scorer: `[B, M]` logits, padding masked.
    fn policy_logits(&self, t: &Tensor, x: &BatchTensors) -> Tensor {
        let (bsz, m) = (x.move_from.size()[0], x.move_from.size()[1]);
        let h = self.shape.policy_hidden as i64;
        // [B, H, cells] -> gather the cells of each move -> [B, H, M].
        let t = self.cells(t);
        let from = t.apply(&self.from_proj).flatten(2, 3);
        let to = t.apply(&self.to_proj).flatten(2, 3);
        let from = from.gather(
            2,
            &x.move_from.unsqueeze(1).expand([bsz, h, m], false),
            false,
        );
        let to = to.gather(2, &x.move_to.unsqueeze(1).expand([bsz, h, m], false), false);
        let moves = x
            .move_features
            .apply(&self.move_embed)
            .relu()
            .apply(&self.move_proj); // [B, M, H]
        let hidden = ((from + to).transpose(1, 2) + moves).relu();
        masked(hidden.apply(&self.policy_out).squeeze_dim(-1), &x.mask)
    }

    /// [`Network::policy_logits`] of packed moves: `[N]` logits, the same
    /// operations row by row (the gather reads the trunk's projections as
    /// `[B * cells, H]` rows).
    fn policy_logits_packed(&self, t: &Tensor, x: &PackedTensors) -> Tensor {
        let h = self.shape.policy_hidden as i64;
        let t = self.cells(t);
        let rows = |proj: &nn::Conv2D| {
            // [B, H, cells] -> [B, cells, H] -> [B * cells, H].
            t.apply(proj).flatten(2, 3).transpose(1, 2).reshape([-1, h])
        };
        let from = rows(&self.from_proj).index_select(0, &x.move_from);
        let to = rows(&self.to_proj).index_select(0, &x.move_to);
        let moves = x
            .move_features
            .apply(&self.move_embed)
            .relu()
            .apply(&self.move_proj); // [N, H]
        let hidden = (from + to + moves).relu();
        hidden.apply(&self.policy_out).squeeze_dim(-1)
    }

    /// The value head's hidden layer: `[B, value_hidden]`.
    fn value_hidden(&self, t: &Tensor, train: bool) -> Tensor {
        let v = self
            .value_bn
            .forward_t(&self.value_conv.forward(t), train)
            .relu();
        pool_board(&v, self.shape.mirror)
            .apply(&self.value_fc)
            .relu()
    }

    /// Evaluates a finished batch without gradients. `policy` receives the
    /// probabilities of every position's moves back to back, parallel to the
    /// encoder's moves (position i's are `offsets()[i]..offsets()[i+1]`);
    /// `wdl` one `[win, draw, loss]` per position. Both are cleared first and
    /// reuse their capacity.
    pub fn evaluate_encoded<S: GameState>(
        &self,
        enc: &Encoder<S>,
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    ) {
        self.answer(enc, policy, wdl, || {
            let mut x = enc.to_tensors(self.device());
            x.planes = self.cast(x.planes);
            x.move_features = self.cast(x.move_features);
            self.forward_t(&x, false)
        });
    }

    /// [`Network::evaluate_encoded`] of a batch finished by
    /// [`Encoder::finish_packed`]: the policy head scores the batch's moves
    /// back to back (`N` rows) instead of `B × M` padded ones, and only its
    /// logits are laid out `[B, M]` for the softmax. The same answers as
    /// the padded pass, within float rounding (test
    /// `packed_and_padded_evaluations_agree`); cheaper when move counts
    /// differ much across the batch (Pirate Chess), about the same cost
    /// when they do not.
    pub fn evaluate_packed<S: GameState>(
        &self,
        enc: &Encoder<S>,
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
    ) {
        let (b, m) = (enc.len() as i64, enc.max_moves() as i64);
        self.answer(enc, policy, wdl, || {
            let mut x = enc.to_packed_tensors(self.device());
            x.planes = self.cast(x.planes);
            x.move_features = self.cast(x.move_features);
            let t = self.trunk(&x.planes, false);
            let logits = self.policy_logits_packed(&t, &x); // [N]
            let fill = if logits.kind() == Kind::Half {
                -6.0e4
            } else {
                MASKED_LOGIT
            };
            let padded = Tensor::full([b * m], fill, (logits.kind(), logits.device()))
                .index_put(&[Some(&x.move_slot)], &logits, false)
                .view([b, m]);
            let value = self.value_hidden(&t, false).apply(&self.value_out);
            (padded, value)
        });
    }

    /// An input tensor in the network's precision (unchanged in fp32).
    fn cast(&self, t: Tensor) -> Tensor {
        match self.precision {
            Precision::Fp32 => t,
            p => t.to_kind(p.kind()),
        }
    }

    /// The shell both evaluations share: clears `policy` and `wdl`, runs
    /// `pass` (policy logits `[B, M]`, value logits `[B, 3]`) without
    /// gradients unless the batch is empty, and reads both softmaxes back
    /// into them in the encoder's order.
    fn answer<S: GameState>(
        &self,
        enc: &Encoder<S>,
        policy: &mut Vec<f32>,
        wdl: &mut Vec<[f32; 3]>,
        pass: impl FnOnce() -> (Tensor, Tensor),
    ) {
        policy.clear();
        wdl.clear();
        if enc.is_empty() {
            return;
        }
        let (probs, values) = tch::no_grad(|| {
            let (logits, value) = pass();
            (
                logits.softmax(1, Kind::Float).to_device(Device::Cpu),
                value.softmax(1, Kind::Float).to_device(Device::Cpu),
            )
        });
        read_answers(enc, &probs, &values, policy, wdl);
    }

    /// Evaluates positions (each with its repetition count): for each, the
    /// probabilities of its legal moves in `GameState::legal_moves` order and
    /// its W/D/L. Allocates; the hot path uses [`Network::evaluate_encoded`].
    pub fn evaluate<S: GameState>(&self, inputs: &[Input<S>]) -> Vec<Evaluation> {
        let mut enc = Encoder::new();
        for &(pos, reps) in inputs {
            enc.push(pos, reps);
        }
        enc.finish();
        let (mut policy, mut wdl) = (Vec::new(), Vec::new());
        self.evaluate_encoded(&enc, &mut policy, &mut wdl);
        let offsets = enc.offsets();
        (0..inputs.len())
            .map(|i| Evaluation {
                policy: policy[offsets[i]..offsets[i + 1]].to_vec(),
                wdl: wdl[i],
            })
            .collect()
    }
}

/// Reads a batch's answers out of its `[B, M]` move probabilities and
/// `[B, 3]` W/D/L: `policy` gets each position's legal moves back to back,
/// `wdl` one row a position.
fn read_answers<S: GameState>(
    enc: &Encoder<S>,
    probs: &Tensor,
    values: &Tensor,
    policy: &mut Vec<f32>,
    wdl: &mut Vec<[f32; 3]>,
) {
    let (b, m) = (enc.len(), enc.max_moves());
    policy.resize(b * m, 0.0);
    probs.copy_data(policy, b * m);
    // Compact the padded rows in place: row i moves left to offsets[i] ≤ i*m.
    let offsets = enc.offsets();
    for i in 0..b {
        let n = offsets[i + 1] - offsets[i];
        policy.copy_within(i * m..i * m + n, offsets[i]);
    }
    policy.truncate(offsets[b]);
    wdl.resize(b, [0.0; 3]);
    let flat: &mut [f32] = wdl.as_flattened_mut();
    values.copy_data(flat, b * 3);
}

/// Cross-entropy of the policy against a target distribution over each
/// position's moves (`target [B, M]`, zeros in padding), averaged over the
/// batch.
pub fn policy_loss(logits: &Tensor, target: &Tensor) -> Tensor {
    -(target * logits.log_softmax(1, Kind::Float))
        .sum_dim_intlist(1i64, false, Kind::Float)
        .mean(Kind::Float)
}

/// Cross-entropy of the W/D/L logits against target probabilities
/// (`[B, 3]`: a one-hot game result, or a blend with a search value).
pub fn value_loss(logits: &Tensor, target: &Tensor) -> Tensor {
    policy_loss(logits, target)
}
