"""Self-play speed: a Python model driving triad's search against the same
network run by tch inside Rust.

Both phases play the same games from the same checkpoint and run file in
this process: ``rust`` is ``triad.selfplay`` (the network in Rust),
``python`` is ``triad.SelfPlay`` with ``triad.torch.TriadNet`` as the model
(every batch of leaves through Python and PyTorch). Rounds interleave the
two, alternating which goes first; the report gives each phase's
positions a second (median, min, max over the rounds), the ratio of the
medians, and where the Python phase's time went (inside the model, filling
its arrays and checking its answers, the rest: the search in Rust).

    make python-release
    .venv/bin/python scripts/bench-python-search.py --rounds 5 --json bench.json

The batch is half of ``--in-flight`` (the driver evaluates one half of its
games while the other half searches): 512 games in flight, a batch of 256.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import statistics
import sys
import tempfile
import time

import torch

import triad
import triad.data
import triad.torch as tt

RUN_FILE = """\
[game]
name = "{game}"
[model]
threads = {threads}
[selfplay]
simulations = {sims}
cheap_simulations = {sims}
games_in_flight = {in_flight}
max_plies = {plies}
"""


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="piratechnics")
    ap.add_argument("--rounds", type=int, default=5, help="rounds, each phase once a round")
    ap.add_argument("--games", type=int, default=512, help="games a phase plays each round")
    ap.add_argument("--in-flight", type=int, default=512, help="games in flight (the batch is half)")
    ap.add_argument("--sims", type=int, default=16)
    ap.add_argument("--plies", type=int, default=12, help="[selfplay] max_plies")
    ap.add_argument("--threads", type=int, default=1, help="libtorch intra-op threads")
    ap.add_argument("--json", type=pathlib.Path, help="write the figures here")
    args = ap.parse_args(argv)

    game = triad.load_game(args.game)
    work = pathlib.Path(tempfile.mkdtemp(prefix="bench-python-search-"))
    ckpt = work / "net.safetensors"
    triad.Network.fresh(game, seed=1).save(str(ckpt))
    run_file = work / "run.toml"
    run_file.write_text(RUN_FILE.format(game=args.game, threads=args.threads, sims=args.sims,
                                        in_flight=args.in_flight, plies=args.plies))
    model = tt.evaluator(tt.TriadNet.load(ckpt), threads=args.threads)

    def rust(r):
        out = work / f"rust-{r}"
        t = time.perf_counter()
        triad.selfplay(str(run_file), args.games, str(out), model=str(ckpt), seed=r)
        secs = time.perf_counter() - t
        rows = sum(1 for _ in triad.data.read_shards(out, columns=["ply"]).column("ply"))
        return {"positions_per_second": rows / secs, "seconds": secs, "positions": rows}

    def python(r):
        out = work / f"python-{r}"
        t = time.perf_counter()
        rep = triad.SelfPlay(game, model, out, args.games, config=run_file, seed=r,
                             model_id=model.model_id).play()
        secs = time.perf_counter() - t
        rows = sum(1 for _ in triad.data.read_shards(out, columns=["ply"]).column("ply"))
        return {"positions_per_second": rows / secs, "seconds": secs, "positions": rows,
                "model_seconds": rep["model_seconds"], "io_seconds": rep["io_seconds"],
                "mean_batch": rep["mean_batch"]}

    runs = {"rust": [], "python": []}
    for r in range(args.rounds):
        order = [("rust", rust), ("python", python)]
        if r % 2:
            order.reverse()
        for name, phase in order:
            runs[name].append(phase(r))
            print(name, r, json.dumps({k: round(v, 3) for k, v in runs[name][-1].items()}),
                  file=sys.stderr, flush=True)

    def summary(xs):
        pps = [x["positions_per_second"] for x in xs]
        return {"median": statistics.median(pps), "min": min(pps), "max": max(pps)}

    py = runs["python"]
    total = sum(x["seconds"] for x in py)
    model_s = sum(x["model_seconds"] for x in py)
    io_s = sum(x["io_seconds"] for x in py)
    result = {
        "command": "scripts/bench-python-search.py " + " ".join(
            f"--{k.replace('_', '-')} {v}" for k, v in vars(args).items() if k != "json" and v is not None),
        "torch_threads": torch.get_num_threads(),
        "rust": summary(runs["rust"]),
        "python": summary(py),
        "ratio_of_medians": summary(py)["median"] / summary(runs["rust"])["median"],
        "python_time_share": {"model": model_s / total, "arrays_and_checks": io_s / total,
                              "search_and_rest": 1 - (model_s + io_s) / total},
        "mean_batch": statistics.mean(x["mean_batch"] for x in py),
        "rounds": runs,
    }
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
