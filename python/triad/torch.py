"""triad's policy/value network as a PyTorch module, reading and writing
triad checkpoints (``NAME.safetensors`` and its ``NAME.json`` sidecar).

    >>> import triad, triad.torch
    >>> net = triad.torch.TriadNet.load("runs/c4/networks/gen-0012.safetensors")
    >>> x = triad.network_inputs([state])            # triad's own encoding
    >>> logits, value = net(**triad.torch.tensors(x)) # (B, M) and (B, 3)

The layers, their names and their order are those of ``model::Network``
(model/src/net.rs), so a checkpoint trained by ``triad train`` loads here
and one saved here loads in ``triad eval``, ``triad move`` and self-play.
The auxiliary training heads (``Shape.aux_heads``) are not built: play
never reads them.
"""

from __future__ import annotations

import json
import os
import struct
from typing import Dict, Tuple

import numpy as np
import torch
from torch import nn

FORMAT = "triad-checkpoint"
MASKED_LOGIT = -1e9


def _conv(i: int, o: int, k: int, bias: bool, padding: str) -> nn.Conv2d:
    mode = "circular" if padding == "circular" else "zeros"
    return nn.Conv2d(i, o, k, padding=k // 2, bias=bias, padding_mode=mode)


def _bn(c: int) -> nn.BatchNorm2d:
    return nn.BatchNorm2d(c, eps=1e-5, momentum=0.1)


def _pool_cells(t: torch.Tensor) -> torch.Tensor:
    return torch.cat([t.mean(dim=(2, 3)), t.amax(dim=(2, 3))], dim=1)


class _Block(nn.Module):
    def __init__(self, ch: int, padding: str, pool: bool):
        super().__init__()
        self.conv1 = _conv(ch, ch, 3, False, padding)
        self.bn1 = _bn(ch)
        self.conv2 = _conv(ch, ch, 3, False, padding)
        self.bn2 = _bn(ch)
        self.pool = nn.Linear(2 * ch, ch) if pool else None

    def forward(self, t: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.bn1(self.conv1(t)))
        if self.pool is not None:
            y = y + self.pool(_pool_cells(y))[:, :, None, None]
        y = self.bn2(self.conv2(y))
        return torch.relu(y + t)


class _Policy(nn.Module):
    def __init__(self, shape: dict):
        super().__init__()
        ch, h = shape["channels"], shape["policy_hidden"]
        self.from_proj = _conv(ch, h, 1, True, "zeros")
        self.to_proj = _conv(ch, h, 1, False, "zeros")
        self.move_embed = nn.Linear(shape["move_features"], shape["move_embed"])
        self.move_proj = nn.Linear(shape["move_embed"], h, bias=False)
        self.out = nn.Linear(h, 1)


class _Value(nn.Module):
    def __init__(self, shape: dict):
        super().__init__()
        ch = shape["channels"]
        self.conv = _conv(ch, ch, 1, False, "zeros")
        self.bn = _bn(ch)
        self.fc = nn.Linear(2 * ch, shape["value_hidden"])
        self.out = nn.Linear(shape["value_hidden"], 3)


class TriadNet(nn.Module):
    """triad's network of a sidecar's ``shape``: a residual trunk, a
    legal-move scorer (policy logits over each position's legal moves) and
    a win/draw/loss head. ``game`` is the sidecar's game, variant and
    encoding version, written back by ``save``."""

    def __init__(self, shape: dict, game: dict | None = None):
        super().__init__()
        if shape.get("mirror"):
            raise ValueError(
                "TriadNet: this checkpoint is a mirror-equivariant network "
                "([model] mirror = true), which triad.torch does not build yet; "
                "load it with triad.Network instead"
            )
        self.shape = dict(shape)
        self.game = dict(game or {})
        ch, pad = shape["channels"], shape.get("padding", "zeros")
        self.input_conv = _conv(shape["planes"], ch, 3, False, pad)
        self.input_bn = _bn(ch)
        blocks = shape["blocks"]
        for i in range(blocks):
            pool = bool(shape.get("global_pool")) and (i % 2 == 1 or blocks == 1)
            self.add_module(f"block{i}", _Block(ch, pad, pool))
        self.policy = _Policy(shape)
        self.value = _Value(shape)

    def trunk(self, planes: torch.Tensor) -> torch.Tensor:
        t = torch.relu(self.input_bn(self.input_conv(planes)))
        for i in range(self.shape["blocks"]):
            t = getattr(self, f"block{i}")(t)
        return t

    def forward(
        self,
        planes: torch.Tensor,
        move_from: torch.Tensor,
        move_to: torch.Tensor,
        move_features: torch.Tensor,
        mask: torch.Tensor,
    ) -> Tuple[torch.Tensor, torch.Tensor]:
        """``(policy logits (B, M), padding at -1e9; W/D/L logits (B, 3))``
        of ``triad.network_inputs`` arrays as tensors."""
        t = self.trunk(planes)
        b, m = move_from.shape
        h = self.shape["policy_hidden"]
        p = self.policy
        frm = p.from_proj(t).flatten(2, 3).gather(2, move_from[:, None, :].expand(b, h, m))
        to = p.to_proj(t).flatten(2, 3).gather(2, move_to[:, None, :].expand(b, h, m))
        moves = p.move_proj(torch.relu(p.move_embed(move_features)))
        hidden = torch.relu((frm + to).transpose(1, 2) + moves)
        logits = p.out(hidden).squeeze(-1).masked_fill(~mask, MASKED_LOGIT)
        v = self.value
        vh = torch.relu(v.fc(_pool_cells(torch.relu(v.bn(v.conv(t))))))
        return logits, v.out(vh)

    def evaluate(self, states) -> list:
        """For each state, ``(policy, wdl)`` as ``triad.Network.evaluate``
        gives them: probabilities over ``legal_actions()`` and W/D/L."""
        from . import network_inputs

        x = tensors(network_inputs(states))
        was = self.training
        self.eval()
        with torch.no_grad():
            logits, value = self(**x)
        self.train(was)
        probs = torch.softmax(logits, dim=1)
        wdl = torch.softmax(value, dim=1)
        counts = x["mask"].sum(dim=1).tolist()
        return [(probs[i, :n].tolist(), wdl[i].tolist()) for i, n in enumerate(counts)]

    def _weights(self) -> Dict[str, torch.Tensor]:
        return {
            k: v.detach().to("cpu", torch.float32).contiguous()
            for k, v in self.state_dict().items()
            if not k.endswith("num_batches_tracked")
        }

    @classmethod
    def load(cls, path: str | os.PathLike) -> "TriadNet":
        """The checkpoint ``path`` (``NAME.safetensors`` beside ``NAME.json``)."""
        with open(sidecar_path(path)) as f:
            info = json.load(f)
        if info.get("format") != FORMAT:
            raise ValueError(f"{sidecar_path(path)}: not a triad checkpoint sidecar")
        if info["shape"].get("aux_heads"):
            info["shape"] = dict(info["shape"], aux_heads=False)
        game = {k: info[k] for k in ("game", "variant", "encoding_version")}
        net = cls(info["shape"], game)
        weights = read_safetensors(path)
        weights = {k: v for k, v in weights.items() if not k.startswith("aux.")}
        own = net._weights()
        missing = sorted(set(own) - set(weights))
        extra = sorted(set(weights) - set(own))
        if missing or extra:
            raise ValueError(f"{path}: weights do not fit the sidecar's shape "
                             f"(missing {missing[:3]}, unexpected {extra[:3]})")
        net.load_state_dict({k: torch.from_numpy(v) for k, v in weights.items()}, strict=False)
        net.eval()
        return net

    def save(self, path: str | os.PathLike, step: int = 0) -> None:
        """Writes ``path`` and its sidecar, each through a temporary name and
        renamed whole, as triad does."""
        if not self.game:
            raise ValueError("the network's game is unknown: build it with game=... or load it")
        write_safetensors(path, self._weights())
        info = {
            "format": FORMAT,
            **self.game,
            "shape": dict(self.shape, aux_heads=False),
            "step": int(step),
            "parent": None,
            "metadata": {},
        }
        _write_whole(sidecar_path(path), json.dumps(info, indent=2).encode())


def tensors(x: dict, device: str | torch.device = "cpu") -> Dict[str, torch.Tensor]:
    """``triad.network_inputs`` arrays as tensors (views of the arrays on
    the CPU)."""
    return {k: torch.from_numpy(np.ascontiguousarray(v)).to(device) for k, v in x.items()}


def sidecar_path(weights: str | os.PathLike) -> str:
    """``NAME.json`` beside ``NAME.safetensors``."""
    root, _ = os.path.splitext(os.fspath(weights))
    return root + ".json"


def read_safetensors(path: str | os.PathLike) -> Dict[str, np.ndarray]:
    """The float32 tensors of a safetensors file, by name."""
    data = open(path, "rb").read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + n])
    out = {}
    for name, t in header.items():
        if name == "__metadata__":
            continue
        if t["dtype"] != "F32":
            raise ValueError(f"{path}: {name} is {t['dtype']}, triad checkpoints are F32")
        start, end = t["data_offsets"]
        out[name] = np.frombuffer(data, np.float32, (end - start) // 4, 8 + n + start).reshape(t["shape"]).copy()
    return out


def write_safetensors(path: str | os.PathLike, tensors: Dict[str, torch.Tensor]) -> None:
    """Writes float32 tensors as a safetensors file, whole."""
    header, chunks, offset = {}, [], 0
    for name in sorted(tensors):
        raw = tensors[name].numpy().astype("<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(tensors[name].shape), "data_offsets": [offset, offset + len(raw)]}
        chunks.append(raw)
        offset += len(raw)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    _write_whole(path, struct.pack("<Q", len(text)) + text + b"".join(chunks))


def _write_whole(path: str | os.PathLike, data: bytes) -> None:
    tmp = os.fspath(path) + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
