//! Checkpoints: safetensors weights plus a JSON sidecar.
//!
//! `NAME.safetensors` holds the weights (readable by Python's `safetensors`);
//! `NAME.json` holds what is needed to rebuild the network and to trace where
//! it came from. Both are written to a temporary name and renamed, weights
//! first, so a sidecar never points at a half-written file.

use crate::net::{Network, Shape};
use game::GameTag;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use tch::{Device, Tensor};

/// Marks a sidecar as ours.
pub const FORMAT: &str = "triad-checkpoint";

/// The sidecar.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckpointInfo {
    /// Always [`FORMAT`].
    pub format: String,
    /// The game the network plays (`[game] name`); sidecars written before
    /// games were named are PiRaTeKnIcS's.
    #[serde(default = "default_game")]
    pub game: String,
    /// The game's variant (`[game] variant`).
    #[serde(default = "default_variant")]
    pub variant: String,
    /// The game's encoding version the network was trained with.
    pub encoding_version: u32,
    pub shape: Shape,
    /// Optimiser steps taken so far (0 for a fresh network).
    pub step: u64,
    /// The checkpoint this one was trained from, if any.
    #[serde(default)]
    pub parent: Option<String>,
    /// Anything else the writer wants to keep (data window, optimiser state
    /// file, seed, ...).
    #[serde(default)]
    pub metadata: serde_json::Value,
}

fn default_game() -> String {
    "piratechnics".to_string()
}
fn default_variant() -> String {
    "standard".to_string()
}

impl CheckpointInfo {
    /// A sidecar for a network of `game` of `shape` at `step`.
    pub fn new(game: &GameTag, shape: Shape, step: u64) -> CheckpointInfo {
        CheckpointInfo {
            format: FORMAT.to_string(),
            game: game.name.clone(),
            variant: game.variant.clone(),
            encoding_version: game.encoding_version,
            shape,
            step,
            parent: None,
            metadata: serde_json::Value::Object(Default::default()),
        }
    }

    /// The game the checkpoint records.
    pub fn tag(&self) -> GameTag {
        GameTag {
            name: self.game.clone(),
            variant: self.variant.clone(),
            encoding_version: self.encoding_version,
        }
    }

    /// Checks that the checkpoint is a network of `expected` (same game,
    /// variant and encoding version).
    pub fn check_game(&self, path: &Path, expected: &GameTag) -> Result<(), CheckpointError> {
        if !expected.same_game(&self.game, &self.variant) {
            return Err(CheckpointError::GameMismatch {
                path: path.to_path_buf(),
                found: Box::new(self.tag()),
                expected: Box::new(expected.clone()),
            });
        }
        if self.encoding_version != expected.encoding_version {
            return Err(CheckpointError::EncodingMismatch {
                path: path.to_path_buf(),
                found: self.encoding_version,
                expected: expected.encoding_version,
            });
        }
        Ok(())
    }

    /// Checks that the checkpoint can start a network of `expected`: the
    /// same game and encoding version, any variant of it. The network's
    /// weights do not depend on the board's size (the trunk is
    /// convolutional, the policy head reads each move's cells, the value
    /// head pools over the board), so a network of one variant computes a
    /// policy and value on every other.
    pub fn check_transfer(&self, path: &Path, expected: &GameTag) -> Result<(), CheckpointError> {
        let same_variant = GameTag {
            variant: self.variant.clone(),
            ..expected.clone()
        };
        self.check_game(path, &same_variant)
    }

    /// `name/variant` of the game the checkpoint was trained on, as the
    /// sidecars of networks started from it record it (`init_from`).
    pub fn game_text(&self) -> String {
        format!("{}/{}", self.game, self.variant)
    }
}

/// Why a checkpoint could not be written or read.
#[derive(Debug)]
pub enum CheckpointError {
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// The sidecar is not valid JSON of the expected form.
    BadSidecar { path: PathBuf, message: String },
    /// A network of another game or variant than the one asked for.
    GameMismatch {
        path: PathBuf,
        found: Box<GameTag>,
        expected: Box<GameTag>,
    },
    /// Trained with another input encoding: its inputs would be misread.
    EncodingMismatch {
        path: PathBuf,
        found: u32,
        expected: u32,
    },
    /// Another network shape than the one asked for.
    ShapeMismatch {
        path: PathBuf,
        found: Box<Shape>,
        expected: Box<Shape>,
    },
    /// The weights file is unreadable or does not match its sidecar.
    BadWeights { path: PathBuf, message: String },
}

impl std::fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CheckpointError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            CheckpointError::BadSidecar { path, message } => {
                write!(
                    f,
                    "{}: not a triad checkpoint sidecar: {message}",
                    path.display()
                )
            }
            CheckpointError::GameMismatch {
                path,
                found,
                expected,
            } => write!(
                f,
                "{}: checkpoint is a network of {found}, this run plays {expected}; \
                 use a checkpoint of {expected} or set [game] to {found}",
                path.display()
            ),
            CheckpointError::EncodingMismatch {
                path,
                found,
                expected,
            } => write!(
                f,
                "{}: checkpoint uses encoding version {found}, this build uses {expected}",
                path.display()
            ),
            CheckpointError::ShapeMismatch {
                path,
                found,
                expected,
            } => write!(
                f,
                "{}: checkpoint network is {found}; expected {expected}",
                path.display()
            ),
            CheckpointError::BadWeights { path, message } => {
                write!(f, "{}: bad weights: {message}", path.display())
            }
        }
    }
}
impl std::error::Error for CheckpointError {}

/// The sidecar path of a weights path: `x.safetensors` → `x.json`.
pub fn sidecar_path(weights: &Path) -> PathBuf {
    weights.with_extension("json")
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> CheckpointError + '_ {
    move |error| CheckpointError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// Reads and checks a sidecar's format (the game is checked by
/// [`CheckpointInfo::check_game`]).
pub fn read_info(weights: &Path) -> Result<CheckpointInfo, CheckpointError> {
    if !weights.exists() {
        return Err(CheckpointError::Io {
            path: weights.to_path_buf(),
            error: std::io::Error::new(std::io::ErrorKind::NotFound, "no such checkpoint"),
        });
    }
    let path = sidecar_path(weights);
    let text = std::fs::read_to_string(&path).map_err(io(&path))?;
    let info: CheckpointInfo =
        serde_json::from_str(&text).map_err(|e| CheckpointError::BadSidecar {
            path: path.clone(),
            message: e.to_string(),
        })?;
    if info.format != FORMAT {
        return Err(CheckpointError::BadSidecar {
            path,
            message: format!("format is {:?}, expected {FORMAT:?}", info.format),
        });
    }
    // A sidecar with absurd sizes (0 or 10^12 channels) would abort in
    // libtorch when the network is built: refuse it here, by name.
    info.shape
        .validate()
        .map_err(|message| CheckpointError::BadSidecar {
            path: path.clone(),
            message: message.to_string(),
        })?;
    Ok(info)
}

impl Network {
    /// Writes `weights` (conventionally `NAME.safetensors`) and its sidecar
    /// `NAME.json`. `info.shape` is set from the network, whatever the
    /// caller put there; the game is the caller's (`CheckpointInfo::new`).
    pub fn save(&self, weights: &Path, info: &CheckpointInfo) -> Result<(), CheckpointError> {
        let mut info = info.clone();
        info.format = FORMAT.to_string();
        info.shape = self.shape();
        let sidecar = sidecar_path(weights);
        let (tmp_w, tmp_s) = (fsio::temp_path(weights), fsio::temp_path(&sidecar));
        let named = self.named_cpu_weights();
        let written = (|| {
            // A failed write is an I/O error (a full disk), not bad weights.
            Tensor::write_safetensors(&named, &tmp_w).map_err(|e| CheckpointError::Io {
                path: weights.to_path_buf(),
                error: std::io::Error::other(e.to_string()),
            })?;
            let json = serde_json::to_string_pretty(&info).expect("sidecar serialises");
            std::fs::write(&tmp_s, json + "\n").map_err(io(&sidecar))?;
            std::fs::rename(&tmp_w, weights).map_err(io(weights))?;
            std::fs::rename(&tmp_s, &sidecar).map_err(io(&sidecar))
        })();
        if written.is_err() {
            // Nothing half-written is left behind.
            let _ = std::fs::remove_file(&tmp_w);
            let _ = std::fs::remove_file(&tmp_s);
        }
        written?;
        Ok(())
    }

    /// Every variable by name, on the CPU (so a file does not depend on the
    /// device), sorted by name.
    fn named_cpu_weights(&self) -> Vec<(String, Tensor)> {
        let mut v: Vec<_> = self
            .var_store()
            .variables()
            .into_iter()
            .map(|(k, t)| (k, t.to_device(Device::Cpu)))
            .collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    }

    /// Writes the weights alone (no sidecar, so nothing takes the file for a
    /// checkpoint of its own) to `path`, through a temporary name: the
    /// training state a checkpoint keeps beside the weights it publishes
    /// (`[train] ema_decay`). [`Network::load_weights`] reads it back.
    pub fn save_weights(&self, path: &Path) -> Result<(), CheckpointError> {
        let tmp = fsio::temp_path(path);
        let written = Tensor::write_safetensors(&self.named_cpu_weights(), &tmp)
            .map_err(|e| CheckpointError::Io {
                path: path.to_path_buf(),
                error: std::io::Error::other(e.to_string()),
            })
            .and_then(|_| std::fs::rename(&tmp, path).map_err(io(path)));
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        written
    }

    /// Loads a checkpoint of `game` onto `device`, rebuilding the network
    /// from its sidecar. A network of another game or variant is a
    /// [`CheckpointError::GameMismatch`], another encoding version a
    /// [`CheckpointError::EncodingMismatch`].
    pub fn load(
        weights: &Path,
        game: &GameTag,
        device: Device,
    ) -> Result<(Network, CheckpointInfo), CheckpointError> {
        let info = read_info(weights)?;
        info.check_game(weights, game)?;
        let mut net = Network::with_shape(info.shape, device, 0);
        net.load_weights(weights)?;
        Ok((net, info))
    }

    /// Loads a checkpoint that must have the shape `expected` (e.g. the shape
    /// of the run's `[model]` config); another shape is a
    /// [`CheckpointError::ShapeMismatch`].
    pub fn load_expecting(
        weights: &Path,
        game: &GameTag,
        expected: Shape,
        device: Device,
    ) -> Result<(Network, CheckpointInfo), CheckpointError> {
        let info = read_info(weights)?;
        info.check_game(weights, game)?;
        if info.shape != expected {
            return Err(CheckpointError::ShapeMismatch {
                path: weights.to_path_buf(),
                found: Box::new(info.shape),
                expected: Box::new(expected),
            });
        }
        Network::load(weights, game, device)
    }

    /// Loads a checkpoint of any variant of `game` (same game and encoding
    /// version, [`CheckpointInfo::check_transfer`]) that must have the shape
    /// `expected`, to start a network of `game` from it (`triad train
    /// --init`, `[loop] init`). Returns the checkpoint's own sidecar, whose
    /// variant says where the weights came from.
    pub fn load_transfer(
        weights: &Path,
        game: &GameTag,
        expected: Shape,
        device: Device,
    ) -> Result<(Network, CheckpointInfo), CheckpointError> {
        let info = read_info(weights)?;
        info.check_transfer(weights, game)?;
        Network::load_expecting(weights, &info.tag(), expected, device)
    }

    /// Replaces this network's weights with those in `weights`; every
    /// variable must be present with the same shape.
    pub fn load_weights(&mut self, weights: &Path) -> Result<(), CheckpointError> {
        let bad = |message: String| CheckpointError::BadWeights {
            path: weights.to_path_buf(),
            message,
        };
        if !weights.exists() {
            return Err(CheckpointError::Io {
                path: weights.to_path_buf(),
                error: std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"),
            });
        }
        let stored: HashMap<String, Tensor> = Tensor::read_safetensors(weights)
            .map_err(|e| bad(e.to_string()))?
            .into_iter()
            .collect();
        let mut vars = self.var_store().variables();
        if stored.len() != vars.len() {
            return Err(bad(format!(
                "{} tensors, the network has {}",
                stored.len(),
                vars.len()
            )));
        }
        for (name, var) in vars.iter_mut() {
            let src = stored
                .get(name)
                .ok_or_else(|| bad(format!("missing tensor {name}")))?;
            if src.size() != var.size() {
                return Err(bad(format!(
                    "tensor {name} has shape {:?}, the network expects {:?}",
                    src.size(),
                    var.size()
                )));
            }
            tch::no_grad(|| var.f_copy_(src)).map_err(|e| bad(format!("{name}: {e}")))?;
        }
        Ok(())
    }
}
