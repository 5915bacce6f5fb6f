"""Your own PyTorch network in triad's search, from self-play to a match.

A small convolutional network of our own (not triad's) learns Connect Four:
each generation plays self-play games through triad's batched MCTS
(``triad.SelfPlay``: the search in Rust, every batch of leaves handed to
the network here), trains on the shards those games wrote, and is then
matched against generation 0 and the alpha-beta engine with
``triad.play_match``. The scores go to ``--report`` (JSON), the curve of
docs/python.md.

    python examples/python_model.py --out runs/own-model             # ~3 min on 2 cores
    python examples/python_model.py --out runs/quick --generations 2 --games 8 --match-games 4

The network answers one logit per column (``actions=True``: Connect Four's
move codes are its columns) and a value in [-1, 1] (tanh), so
``logits=True`` and a ``(B,)`` value.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import time

import numpy as np
import torch
from torch import nn

import triad
import triad.data

RUN_FILE = """\
[game]
name = "connect4"
[selfplay]
simulations = {sims}
cheap_simulations = {sims}
games_in_flight = {in_flight}
random_plies = 2
max_plies = 42
"""


class TinyNet(nn.Module):
    """Two 3x3 convolutions, a policy of one logit per column and a tanh
    value: 106k parameters on Connect Four."""

    def __init__(self, planes: int, height: int, width: int, columns: int, channels: int = 32):
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Conv2d(planes, channels, 3, padding=1), nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU(),
        )
        cells = channels * height * width
        self.policy = nn.Linear(cells, columns)
        self.value = nn.Sequential(nn.Linear(cells, 64), nn.ReLU(), nn.Linear(64, 1), nn.Tanh())

    def forward(self, planes: torch.Tensor):
        t = self.trunk(planes).flatten(1)
        return self.policy(t), self.value(t).squeeze(1)


def as_model(net: TinyNet):
    """The callable triad's search calls with each batch of leaves."""
    net.eval()

    def model(batch):
        with torch.no_grad():
            logits, value = net(torch.from_numpy(batch["planes"]))
        return logits.numpy(), value.numpy()

    return model


def training_set(game, folder):
    """Planes, visit distributions over columns and results (for the side
    to move) of every searched row of the shards under ``folder``."""
    table = triad.data.read_shards(folder, columns=[
        "position", "legal_moves", "visits", "result", "side_to_move"]).to_pylist()
    rows = [r for r in table if r["visits"]]
    states = [game.new_initial_state(r["position"]) for r in rows]
    c, h, w = game.observation_tensor_shape()
    planes = np.zeros((len(rows), c, h, w), np.float32)
    triad.encode_batch(states, planes)
    policy = np.zeros((len(rows), game.num_distinct_actions()), np.float32)
    value = np.zeros(len(rows), np.float32)
    for i, r in enumerate(rows):
        visits = np.asarray(r["visits"], np.float32)
        policy[i, r["legal_moves"]] = visits / visits.sum()
        white = {"1-0": 1.0, "0-1": -1.0}.get(r["result"], 0.0)
        value[i] = white if r["side_to_move"] == "w" else -white
    return planes, policy, value


def train(net, data, epochs: int, seed: int):
    planes, policy, value = (torch.from_numpy(a) for a in data)
    opt = torch.optim.Adam(net.parameters(), lr=2e-3, weight_decay=1e-4)
    gen = torch.Generator().manual_seed(seed)
    net.train()
    for _ in range(epochs):
        order = torch.randperm(len(planes), generator=gen)
        for start in range(0, len(order), 128):
            i = order[start:start + 128]
            logits, v = net(planes[i])
            loss = -(policy[i] * torch.log_softmax(logits, 1)).sum(1).mean()
            loss = loss + ((v - value[i]) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
    net.eval()
    return loss.item()


def curve_svg(series: dict, title: str) -> str:
    """A line chart of score (0..1) against generation, one line per
    series, as a standalone SVG (no plotting library needed)."""
    w, h, left, top, right, bottom = 560, 320, 50, 30, 150, 40
    gens = max(len(v) for v in series.values()) - 1 or 1
    x = lambda g: left + (w - left - right) * g / gens
    y = lambda s: top + (h - top - bottom) * (1 - s)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="{left}" y="18" font-size="14">{title}</text>']
    for s in (0, 0.25, 0.5, 0.75, 1.0):
        out.append(f'<line x1="{left}" x2="{w - right}" y1="{y(s):.1f}" y2="{y(s):.1f}" '
                   f'stroke="#ddd"/><text x="{left - 8}" y="{y(s) + 4:.1f}" '
                   f'text-anchor="end">{s:g}</text>')
    for g in range(gens + 1):
        out.append(f'<text x="{x(g):.1f}" y="{h - bottom + 16}" text-anchor="middle">{g}</text>')
    out.append(f'<text x="{(left + w - right) / 2}" y="{h - 6}" text-anchor="middle">generation</text>')
    for (name, values), colour in zip(series.items(), ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")):
        pts = " ".join(f"{x(g):.1f},{y(v):.1f}" for g, v in enumerate(values))
        out.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="2"/>')
        k = len([o for o in out if o.startswith("<polyline")])
        out.append(f'<text x="{w - right + 10}" y="{top + 18 * k}" fill="{colour}">{name}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=pathlib.Path, required=True, help="folder for shards and networks (new)")
    ap.add_argument("--generations", type=int, default=10, help="self-play and training rounds")
    ap.add_argument("--games", type=int, default=256, help="self-play games a generation")
    ap.add_argument("--sims", type=int, default=64, help="MCTS simulations a move")
    ap.add_argument("--epochs", type=int, default=4, help="passes over each generation's window")
    ap.add_argument("--window", type=int, default=3, help="generations of games trained on")
    ap.add_argument("--match-games", type=int, default=200, help="games of each match")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1,
                    help="PyTorch's threads (the search's tree threads take the other cores)")
    ap.add_argument("--report", type=pathlib.Path, help="write the scores here (JSON)")
    args = ap.parse_args(argv)

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    game = triad.load_game("connect4")
    c, h, w = game.observation_tensor_shape()
    args.out.mkdir(parents=True, exist_ok=False)
    run_file = args.out / "run.toml"
    run_file.write_text(RUN_FILE.format(sims=args.sims, in_flight=min(64, args.games)))

    nets = [TinyNet(c, h, w, game.num_distinct_actions())]
    started, log = time.time(), []
    for g in range(args.generations):
        shards = args.out / f"gen-{g:02d}"
        sp = triad.SelfPlay(game, as_model(nets[-1]), shards, args.games, config=run_file,
                            seed=args.seed * 1000 + g, model_id=f"tiny-{g}",
                            logits=True, actions=True)
        report = sp.play()
        window = [args.out / f"gen-{k:02d}" for k in range(max(0, g + 1 - args.window), g + 1)]
        data = [np.concatenate(x) for x in zip(*(training_set(game, f) for f in window))]
        net = TinyNet(c, h, w, game.num_distinct_actions())
        net.load_state_dict(nets[-1].state_dict())
        loss = train(net, data, args.epochs, args.seed + g)
        torch.save(net.state_dict(), args.out / f"tiny-{g + 1:02d}.pt")
        nets.append(net)
        log.append({"generation": g + 1, "selfplay_games": report["games"],
                    "positions_per_second": round(report["positions_per_second"], 1),
                    "rows": len(data[0]), "loss": round(loss, 4)})
        print(json.dumps(log[-1]), flush=True)

    sims = f"sims={args.sims}"
    scores = []
    for g, net in enumerate(nets):
        models = {"now": as_model(net), "first": as_model(nets[0])}
        vs_first = triad.play_match(game, [f"net:now,{sims}", f"net:first,{sims}"],
                                    models=models, games=args.match_games, seed=77,
                                    logits=True, actions=True)
        vs_engine = triad.play_match(game, [f"net:now,{sims}", "ab:depth=2"],
                                     models=models, games=args.match_games, seed=78,
                                     logits=True, actions=True)
        scores.append({"generation": g, "vs_generation_0": vs_first["score"],
                       "vs_ab_depth_2": vs_engine["score"]})
        print(json.dumps(scores[-1]), flush=True)
    result = {"command": "python examples/python_model.py " + " ".join(
                  f"--{k.replace('_', '-')} {v}" for k, v in vars(args).items()
                  if v is not None and k not in ("out", "report")),
              "seconds": round(time.time() - started, 1), "training": log, "scores": scores}
    if args.report:
        args.report.write_text(json.dumps(result, indent=2) + "\n")
        series = {"vs generation 0": [s["vs_generation_0"] for s in scores],
                  "vs ab:depth=2": [s["vs_ab_depth_2"] for s in scores]}
        args.report.with_suffix(".svg").write_text(
            curve_svg(series, f"TinyNet on Connect Four, seed {args.seed}: match score"))
    return result


if __name__ == "__main__":
    main()
