"""triad's policy/value network as a PyTorch module, reading and writing
triad checkpoints (``NAME.safetensors`` and its ``NAME.json`` sidecar).

    >>> import triad, triad.torch
    >>> net = triad.torch.TriadNet.load("runs/c4/networks/gen-0012.safetensors")
    >>> x = triad.network_inputs([state])            # triad's own encoding
    >>> logits, value = net(**triad.torch.tensors(x)) # (B, M) and (B, 3)
    >>> f = triad.torch.evaluator(net)                 # for self-play
    >>> policy, wdl = f(x)                             # NumPy (B, M), (B, 3)

The layers, their names and their order are those of ``model::Network``
(model/src/net.rs), so a checkpoint trained by ``triad train`` loads here
and one saved here loads in ``triad eval``, ``triad move`` and self-play.
The auxiliary training heads (``Shape.aux_heads``) are not built: play
never reads them.

On the CPU, ``TriadNet.evaluate`` and ``evaluator`` give bit for bit the
float32 answers of ``model::Network::evaluate_encoded`` (what
``triad.Network.evaluate`` and self-play run) for the same batch: the
forward pass is the same libtorch operators in the same order on the same
layouts (``TriadNet.forward`` and ``net.rs`` line up step by step). Two
conditions: the same libtorch (the extension links this torch wheel's),
and the same intra-op thread count (``torch.set_num_threads``; MKL's
matrix products split their sums by thread, so 1 and 2 threads can differ
in the last bit). Self-play in Rust sets ``[model] threads`` (default 1)
when it loads its network; in one process Python and the extension share
libtorch's thread pool, so one setting serves both.
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
    # net.rs `pool_cells`: mean_dim([2, 3], keepdim false, t's kind) ‖ amax.
    return torch.cat([t.mean(dim=(2, 3), dtype=t.dtype), t.amax(dim=(2, 3))], dim=1)


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
        # The id Rust self-play writes on its rows for this network
        # (`selfplay::load_network`: `STEM@STEP` of its checkpoint); set by
        # `load` and `save`, None for a network never saved.
        self.model_id: str | None = None
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
        of ``triad.network_inputs`` arrays as tensors.

        ``model::Network::forward_t`` op for op (``trunk``,
        ``policy_logits``, ``value_hidden``), so that the answers are its
        bits: change one only with the other."""
        t = self.trunk(planes)
        b, m = move_from.shape
        h = self.shape["policy_hidden"]
        p = self.policy
        # [B, H, cells] -> gather the cells of each move -> [B, H, M].
        frm = p.from_proj(t).flatten(2, 3)
        to = p.to_proj(t).flatten(2, 3)
        frm = frm.gather(2, move_from.unsqueeze(1).expand(b, h, m))
        to = to.gather(2, move_to.unsqueeze(1).expand(b, h, m))
        moves = p.move_proj(torch.relu(p.move_embed(move_features)))  # [B, M, H]
        hidden = torch.relu((frm + to).transpose(1, 2) + moves)
        logits = p.out(hidden).squeeze(-1)
        # net.rs `masked`: -1e9 (-6e4 in fp16, whose range ends at 65,504).
        fill = -6.0e4 if logits.dtype == torch.float16 else MASKED_LOGIT
        logits = logits.masked_fill(mask.logical_not(), fill)
        v = self.value
        vh = torch.relu(v.fc(_pool_cells(torch.relu(v.bn(v.conv(t))))))
        return logits, v.out(vh)

    def evaluate(self, states) -> list:
        """For each state, ``(policy, wdl)`` as ``triad.Network.evaluate``
        gives them: probabilities over ``legal_actions()`` and W/D/L."""
        from . import network_inputs

        if not states:
            return []
        x = network_inputs(states)
        was = self.training
        self.eval()
        try:
            probs, wdl = _answer(self, x, next(self.parameters()).device)
        finally:
            self.train(was)
        counts = x["mask"].sum(axis=1).tolist()
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
        net.model_id = _model_id(path, info.get("step", 0))
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
        self.model_id = _model_id(path, step)


def _model_id(path: str | os.PathLike, step: int) -> str:
    """What Rust self-play writes as the ``model_id`` of rows played with the
    checkpoint ``path`` (``selfplay::shards::load_network``): its file stem
    and its sidecar's step, ``STEM@STEP`` (``gen-0012@4800`` for
    ``networks/gen-0012.safetensors``). A fresh network there is
    ``random-seedN``, which no TriadNet reproduces."""
    stem = os.path.splitext(os.path.basename(os.fspath(path)))[0]
    return f"{stem}@{int(step)}"


_INPUTS = (
    ("planes", np.float32),
    ("move_from", np.int64),
    ("move_to", np.int64),
    ("move_features", np.float32),
    ("mask", np.bool_),
)


def _answer(net: TriadNet, batch: dict, device: torch.device) -> Tuple[np.ndarray, np.ndarray]:
    """``model::Network::answer`` of a padded batch (``triad.network_inputs``
    arrays): ``(policy (B, M), wdl (B, 3))`` float32 probabilities, the
    padding's policy 0. The caller has put ``net`` in eval mode."""
    x = {}
    for k, kind in _INPUTS:
        a = np.ascontiguousarray(batch[k], dtype=kind)  # no copy when it already is
        x[k] = torch.from_numpy(a) if device.type == "cpu" else torch.from_numpy(a).to(device, non_blocking=True)
    b, m = x["mask"].shape
    if b == 0:
        return np.zeros((0, m), np.float32), np.zeros((0, 3), np.float32)
    # net.rs `cast`: inputs in the network's precision (a no-op in fp32).
    dtype = next(net.parameters()).dtype
    x["planes"] = x["planes"].to(dtype)
    x["move_features"] = x["move_features"].to(dtype)
    with torch.no_grad():
        logits, value = net(**x)
        # net.rs `answer`: softmax(1, Kind::Float), then to the CPU.
        probs = torch.softmax(logits, 1, dtype=torch.float32).cpu()
        wdl = torch.softmax(value, 1, dtype=torch.float32).cpu()
    return probs.numpy(), wdl.numpy()


def evaluator(
    net: TriadNet,
    device: str | torch.device = "cpu",
    *,
    model_id: str | None = None,
    threads: int | None = None,
):
    """A callable ``f(batch) -> (policy, wdl)`` for self-play: ``batch`` is
    a dict of NumPy arrays as ``triad.network_inputs`` returns them
    (``planes`` (B, P, H, W) float32, ``move_from``/``move_to`` (B, M)
    int64, ``move_features`` (B, M, F) float32, ``mask`` (B, M) bool);
    ``policy`` is (B, M) float32, each row's softmax over its legal moves'
    logits (0 in padding), and ``wdl`` (B, 3) float32.

    ``net`` is moved to ``device`` and put in eval mode (and put back in
    eval mode by each call, should it have been trained in between); each
    call runs under ``torch.no_grad``, on CPU tensors that are views of the
    arrays (``torch.from_numpy``; an array of another dtype or layout is
    converted first). On the CPU the answers are the bits of
    ``model::Network::evaluate_encoded`` for the same batch, given the same
    libtorch thread count (see the module's doc).

    ``f.model_id`` is the id Rust self-play writes on rows played with this
    network's checkpoint (``STEM@STEP``); ``model_id`` overrides it, and a
    network neither loaded nor saved is ``"unsaved"``.

    ``threads`` (above 0) sets libtorch's intra-op thread count for the
    whole process, as Rust self-play does with ``[model] threads`` (default
    1) when it loads its network; None leaves it as it is."""
    if threads is not None and threads > 0:
        torch.set_num_threads(int(threads))
    dev = torch.device(device)
    net.to(dev)
    net.eval()

    def f(batch: dict) -> Tuple[np.ndarray, np.ndarray]:
        if net.training:
            net.eval()
        return _answer(net, batch, dev)

    f.model_id = model_id or net.model_id or "unsaved"
    f.net = net
    f.device = dev
    return f


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
