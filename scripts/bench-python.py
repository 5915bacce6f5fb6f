"""Environment speed from Python against the same loops in Rust and
pyspiel's (docs/python.md, "How fast"): random play one state at a time,
the same with an observation after every move, `triad.VectorEnv` stepping
N games at once, and the batch encoding of positions into one array. The
phases alternate within each round; medians and spreads over the rounds.

Usage: python scripts/bench-python.py [--game connect4] [--rounds 5]
       [--seconds 1.0] [--n 256] [--triad target/release/triad] [--json]
Run from the repository's root with the project's .venv (make python,
and scripts/setup.sh for open-spiel). pyspiel runs for connect4 only
(its `connect_four`)."""
import argparse
import json
import random
import statistics
import subprocess
import sys
import time

import numpy as np

import triad

p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
p.add_argument("--game", default="connect4")
p.add_argument("--rounds", type=int, default=5)
p.add_argument("--seconds", type=float, default=1.0, help="seconds per phase and round")
p.add_argument("--n", type=int, default=256, help="games in the VectorEnv and positions per encoded batch")
p.add_argument("--triad", default="target/release/triad", help="the triad binary for the Rust loops")
p.add_argument("--json", action="store_true")
args = p.parse_args()
if args.rounds < 1 or args.seconds <= 0 or args.n < 1:
    sys.exit("bench-python: --rounds, --seconds and --n must be positive")

game = triad.load_game(args.game)
spiel = None
if game.name == "connect4" and game.variant == "7x6":
    try:
        import pyspiel
    except ImportError:
        sys.exit("bench-python: pyspiel is missing: run scripts/setup.sh (it pins open-spiel)")
    spiel = pyspiel.load_game("connect_four")


def random_play(new_state, observe, budget, rng):
    """Moves/s of random games one state at a time (whole games)."""
    steps = games = 0
    start = time.perf_counter()
    while games == 0 or time.perf_counter() - start < budget:
        s = new_state()
        while not s.is_terminal():
            if observe:
                s.observation_tensor()
            a = s.legal_actions()
            s.apply_action(a[rng.randrange(len(a))])
            steps += 1
        games += 1
    return steps / (time.perf_counter() - start)


def vector_play(budget):
    """Moves/s of VectorEnv: N games a step, observations and legal moves
    returned as arrays every step."""
    env = triad.VectorEnv(game, args.n, seed=1)
    env.reset()
    steps = 0
    start = time.perf_counter()
    while steps == 0 or time.perf_counter() - start < budget:
        env.step(env.random_actions())
        steps += args.n
    return steps / (time.perf_counter() - start)


def sample_states(n, rng):
    states = []
    while len(states) < n:
        s = game.new_initial_state()
        while not s.is_terminal() and len(states) < n:
            states.append(s.clone())
            a = s.legal_actions()
            s.apply_action(a[rng.randrange(len(a))])
    return states


def encode_rate(states, budget):
    """Positions/s of triad.encode_batch into one preallocated array."""
    out = np.zeros((len(states), *game.observation_tensor_shape()), dtype=np.float32)
    batches = 0
    start = time.perf_counter()
    while batches == 0 or time.perf_counter() - start < budget:
        triad.encode_batch(states, out)
        batches += 1
    return batches * len(states) / (time.perf_counter() - start)


def observe_rate(states, budget):
    """Positions/s of observation_tensor() one state at a time."""
    done = 0
    start = time.perf_counter()
    while done == 0 or time.perf_counter() - start < budget:
        for s in states:
            s.observation_tensor()
        done += len(states)
    return done / (time.perf_counter() - start)


def rust(budget):
    out = subprocess.run(
        [args.triad, "bench", "env", "--game", args.game, "--seconds", str(budget), "--rounds", "1",
         "--batch", str(args.n), "--json"],
        capture_output=True, text=True, check=True,
    )
    f = json.loads(out.stdout)
    return {k: f[k]["median"] for k in ("play_steps_per_s", "play_encode_steps_per_s", "encode_positions_per_s")}


rng = random.Random(1)
states = sample_states(args.n, rng)
spiel_states = []
if spiel:
    while len(spiel_states) < args.n:
        s = spiel.new_initial_state()
        while not s.is_terminal() and len(spiel_states) < args.n:
            spiel_states.append(s.clone())
            a = s.legal_actions()
            s.apply_action(a[rng.randrange(len(a))])
figures = {}


def add(name, value):
    figures.setdefault(name, []).append(value)


b = args.seconds
for r in range(args.rounds):
    add("triad Python, one state: random play", random_play(game.new_initial_state, False, b, rng))
    add("triad Python, one state: play + observation", random_play(game.new_initial_state, True, b, rng))
    add("triad Python, VectorEnv: play + observations", vector_play(b))
    add("triad Python: encode_batch", encode_rate(states, b))
    add("triad Python: observation_tensor one at a time", observe_rate(states, b))
    if spiel:
        add("pyspiel: random play", random_play(spiel.new_initial_state, False, b, rng))
        add("pyspiel: play + observation", random_play(spiel.new_initial_state, True, b, rng))
        add("pyspiel: observation_tensor one at a time", observe_rate(spiel_states, b))
    f = rust(b)
    add("Rust: random play", f["play_steps_per_s"])
    add("Rust: play + planes", f["play_encode_steps_per_s"])
    add("Rust: batch encoding", f["encode_positions_per_s"])
    print(f"round {r + 1}/{args.rounds} done", file=sys.stderr, flush=True)

table = {k: {"median": statistics.median(v), "min": min(v), "max": max(v)} for k, v in figures.items()}
if args.json:
    print(json.dumps({"game": f"{game.name}/{game.variant}", "rounds": args.rounds, "seconds": b, "n": args.n,
                      "rates": table}))
else:
    print(f"{game.name}/{game.variant}: {args.rounds} rounds of {b} s per phase, N = {args.n}; moves or positions per second")
    print(f"| {'loop':48} | {'median':>12} | {'spread':>25} |")
    print(f"|{'-' * 50}|{'-' * 14}:|{'-' * 27}:|")
    for k, v in table.items():
        print(f"| {k:48} | {v['median']:12,.0f} | {v['min']:11,.0f} – {v['max']:11,.0f} |")
