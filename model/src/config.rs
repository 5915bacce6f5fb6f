//! The `[model]` section of a run's TOML file.

use serde::{Deserialize, Serialize};
use std::path::Path;
use tch::{nn, Kind};

/// Network shape and where it runs. Every field has a default, so an empty
/// `[model]` section (or none) gives the quickstart network: small enough
/// that self-play on two CPU cores evaluates thousands of positions a second,
/// big enough to learn the openings of a quickstart run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ModelConfig {
    /// Residual blocks in the trunk (default 4).
    pub blocks: usize,
    /// Channels of every trunk convolution; also the size of each cell's
    /// embedding that the policy head reads (default 32).
    pub channels: usize,
    /// Size of the embedding of a move's features (kind, moving crew,
    /// capture, promotions, displacement) (default 32).
    pub move_embed: usize,
    /// Hidden width of the policy head's move scorer MLP (default 64).
    pub policy_hidden: usize,
    /// Hidden width of the win/draw/loss head (default 64).
    pub value_hidden: usize,
    /// "auto" (CUDA when available, else CPU), "cpu", "cuda" or "cuda:N"
    /// (default "auto").
    pub device: String,
    /// libtorch intra-op CPU threads; 0 leaves libtorch's default (one per
    /// core) (default 1). One, because the forward pass shares the CPU with
    /// search threads: on a loaded 2-core machine libtorch's spinning worker
    /// threads made batch-64 inference ~10× slower with 2 threads than
    /// with 1 (`triad bench model`, see docs/model.md).
    pub threads: usize,
    /// What the trunk's convolutions see past the board's edge: "zeros"
    /// (default) or "circular" (the opposite edge, for toroidal boards such
    /// as Pirate Chess's; docs/games/pirate.md has the measurement).
    pub padding: Padding,
    /// Global-pooling bias in every second residual block (KataGo's
    /// "global pooling"; default false): the block's first activations are
    /// pooled over the board (mean and max per channel) and a linear map of
    /// them is added to every cell as a per-channel bias before the second
    /// convolution, so a block sees the whole board at once instead of its
    /// 3×3 neighbourhood (docs/model.md, docs/methods.md).
    pub global_pool: bool,
    /// Training-only auxiliary heads (default false): the opponent's reply
    /// policy and the game's static evaluation a few plies ahead, trained
    /// with the weights `[train] reply_policy_weight` and
    /// `future_eval_weight`. They give the trunk a denser signal than the
    /// result; play never reads them (docs/model.md, "Auxiliary heads").
    pub aux_heads: bool,
    /// The number format of the network in self-play: "fp32" (default),
    /// "bf16" or "fp16" (16-bit weights and activations; for a GPU, where
    /// they are faster; training always runs in fp32). `triad bench model
    /// --precision fp32,bf16` measures the speed and the change in the
    /// evaluations (docs/model.md, "Precision").
    pub precision: Precision,
    /// A network equivariant to the left-right mirror by construction
    /// (default false): each trunk convolution's channels in two halves
    /// that the mirror swaps, the second half's weights the first's
    /// flipped, so the answer for a position's mirror image is the
    /// position's answer mirrored, exactly, at the same work a pass and
    /// half the trunk's weights. For games whose encoding declares its
    /// mirror a flip of the planes (`Encoding::mirror`: Connect Four);
    /// needs an even `channels` and `padding = "zeros"` (docs/model.md,
    /// "A network that cannot tell a position from its mirror image").
    pub mirror: bool,
}

impl Default for ModelConfig {
    fn default() -> Self {
        ModelConfig {
            blocks: 4,
            channels: 32,
            move_embed: 32,
            policy_hidden: 64,
            value_hidden: 64,
            device: "auto".to_string(),
            threads: 1,
            padding: Padding::Zeros,
            global_pool: false,
            aux_heads: false,
            precision: Precision::Fp32,
            mirror: false,
        }
    }
}

pub use runfile::ConfigError;

/// What the trunk's 3×3 convolutions see beyond the board's edge: zeros
/// (an edge is an edge), or the opposite edge (`circular`: for boards
/// without an edge, such as Pirate Chess's torus, where `a1` neighbours
/// `h1`). The weights are the same either way; the sidecar records it
/// because the same weights compute a different function.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Padding {
    #[default]
    Zeros,
    Circular,
}

impl Padding {
    pub(crate) fn mode(self) -> nn::PaddingMode {
        match self {
            Padding::Zeros => nn::PaddingMode::Zeros,
            Padding::Circular => nn::PaddingMode::Circular,
        }
    }
}

/// The number format a network evaluates in (`[model] precision`):
/// `fp32` (the default, and always what training uses), or `bf16` / `fp16`,
/// weights and activations in 16 bits, for inference only. Softmaxes run
/// in fp32 either way. On a GPU 16 bits halve the memory traffic and use
/// the tensor cores; on a CPU fp32 is the fastest. `triad bench model
/// --precision fp32,bf16` measures both the speed and what the 16 bits
/// change in the evaluations (docs/model.md, "Precision").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Precision {
    #[default]
    Fp32,
    Bf16,
    Fp16,
}

impl Precision {
    /// Every precision, in the order `bench model` reports them.
    pub const ALL: [Precision; 3] = [Precision::Fp32, Precision::Bf16, Precision::Fp16];

    /// The name written in run files and reports.
    pub fn name(self) -> &'static str {
        match self {
            Precision::Fp32 => "fp32",
            Precision::Bf16 => "bf16",
            Precision::Fp16 => "fp16",
        }
    }

    /// The tensor kind of the weights and activations.
    pub fn kind(self) -> Kind {
        match self {
            Precision::Fp32 => Kind::Float,
            Precision::Bf16 => Kind::BFloat16,
            Precision::Fp16 => Kind::Half,
        }
    }
}

impl std::fmt::Display for Precision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Precision {
    type Err = crate::ConfigError;
    fn from_str(s: &str) -> Result<Precision, crate::ConfigError> {
        Precision::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| {
                crate::ConfigError::value(format!("unknown precision {s:?} (fp32, bf16 or fp16)"))
            })
    }
}

/// The largest sizes a network may have (far above anything trainable on
/// one machine): a config or sidecar beyond them is refused by name
/// instead of aborting in an allocation.
pub const MAX_BLOCKS: usize = 256;
pub const MAX_WIDTH: usize = 8192;

impl ModelConfig {
    /// Reads the `[model]` section of a run file (defaults when absent); an
    /// unknown key or a bad value is an error naming the key and the file.
    pub fn from_file(path: &Path) -> Result<ModelConfig, ConfigError> {
        runfile::load_section(path, "model", ModelConfig::validate)
    }

    /// Reads the `[model]` section of a run file's text.
    pub fn from_toml_str(text: &str) -> Result<ModelConfig, ConfigError> {
        runfile::parse_section(text, "model", ModelConfig::validate)
    }

    /// Checks values serde cannot: sizes at least 1, a known device.
    pub fn validate(&self) -> Result<(), ConfigError> {
        for (key, v) in [
            ("channels", self.channels),
            ("move_embed", self.move_embed),
            ("policy_hidden", self.policy_hidden),
            ("value_hidden", self.value_hidden),
        ] {
            if !(1..=MAX_WIDTH).contains(&v) {
                return Err(ConfigError::invalid(
                    format!("model.{key}"),
                    format!("must be 1..={}", MAX_WIDTH),
                ));
            }
        }
        if self.blocks > MAX_BLOCKS {
            return Err(ConfigError::invalid(
                "model.blocks",
                format!("at most {}", MAX_BLOCKS),
            ));
        }
        if self.mirror && !self.channels.is_multiple_of(2) {
            return Err(ConfigError::invalid(
                "model.mirror",
                format!(
                    "needs an even number of channels (channels = {}); make it {}",
                    self.channels,
                    self.channels + 1
                ),
            ));
        }
        if self.mirror && self.padding != Padding::Zeros {
            return Err(ConfigError::invalid(
                "model.mirror",
                "needs padding = \"zeros\" (a mirror-equivariant trunk pads with zeros)",
            ));
        }
        if self.threads > 1024 {
            return Err(ConfigError::invalid("model.threads", "at most 1024"));
        }
        parse_device(&self.device)
            .map(|_| ())
            .map_err(|e| e.for_key("model.device"))
    }

    /// The device of a `--device` flag (`cpu`, `cuda`, `cuda:N`, `auto`),
    /// which must exist on this machine; the error names the flag.
    pub fn device_flag(text: &str) -> Result<tch::Device, ConfigError> {
        let cfg = ModelConfig {
            device: text.to_string(),
            ..Default::default()
        };
        (cfg.tch_device()).map_err(|e| e.for_key("--device"))
    }

    /// The libtorch device this configuration asks for, which must exist
    /// on this machine (a config naming CUDA is valid anywhere; using it
    /// where there is no such GPU is this error, not a panic in libtorch).
    pub fn tch_device(&self) -> Result<tch::Device, ConfigError> {
        let device = parse_device(&self.device).map_err(|e| e.for_key("model.device"))?;
        if let tch::Device::Cuda(n) = device {
            let count = if tch::Cuda::is_available() {
                tch::Cuda::device_count() as usize
            } else {
                0
            };
            if n >= count {
                return Err(ConfigError::invalid(
                    "model.device",
                    format!(
                        "\"{}\" but this machine has {count} CUDA device(s); use \"cpu\" or \"auto\"",
                        self.device
                    ),
                ));
            }
        }
        Ok(device)
    }
}

fn parse_device(s: &str) -> Result<tch::Device, ConfigError> {
    match s {
        "auto" => Ok(tch::Device::cuda_if_available()),
        "cpu" => Ok(tch::Device::Cpu),
        "cuda" => Ok(tch::Device::Cuda(0)),
        _ => match s.strip_prefix("cuda:").map(str::parse::<usize>) {
            Some(Ok(n)) => Ok(tch::Device::Cuda(n)),
            _ => Err(ConfigError::value(format!(
                "unknown device {s:?} (expected \"auto\", \"cpu\", \"cuda\" or \"cuda:N\")"
            ))),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_file_gives_defaults() {
        assert_eq!(
            ModelConfig::from_toml_str("").unwrap(),
            ModelConfig::default()
        );
        let c = ModelConfig::from_toml_str("[model]\nblocks = 2\n[train]\nlr = 1.0\n").unwrap();
        assert_eq!(c.blocks, 2);
        assert_eq!(c.channels, 32);
    }

    #[test]
    fn unknown_key_and_bad_device_are_named() {
        let e = ModelConfig::from_toml_str("[model]\nblock = 2\n").unwrap_err();
        assert!(e.message().contains("block"), "{}", e.message());
        let e = ModelConfig::from_toml_str("[model]\ndevice = \"tpu\"\n").unwrap_err();
        assert!(e.message().contains("device"), "{}", e.message());
        let e = ModelConfig::from_toml_str("[model]\nchannels = 0\n").unwrap_err();
        assert!(e.message().contains("channels"), "{}", e.message());
        let e = ModelConfig::from_toml_str("[model]\nprecision = \"fp8\"\n").unwrap_err();
        assert!(e.message().contains("precision"), "{}", e.message());
        let c = ModelConfig::from_toml_str("[model]\nprecision = \"bf16\"\n").unwrap();
        assert_eq!(c.precision, crate::Precision::Bf16);
    }
}
