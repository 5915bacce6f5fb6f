#!/usr/bin/env python3
"""triad's pure MCTS (`mcts:sims=N`) against OpenSpiel's C++ MCTSBot with
RandomRolloutEvaluator(1) on Connect Four: simulations per second on the
same positions (one core each, interleaved rounds, median and spread), the
error rate of each on Pascal Pons's benchmark positions, and a match.

Run it through scripts/bench-openspiel.sh, which installs open-spiel into
its own virtual environment (CI does not need it):

    scripts/bench-openspiel.sh --positions 100 --rounds 3 --games 200

Both engines use UCT with c = 2 and one uniformly random playout per leaf
and play the most visited move; OpenSpiel's `solve` is off, as triad's
MCTS proves nothing either. OpenSpiel still values a tried game-ending
move by its result alone (no exploration term) and plays a known win
first; `--terminal outcome` gives triad the same rule
(`mcts:…,terminal=outcome`), `--terminal visits` keeps triad's default.
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

import pyspiel

FILES = ["Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3"]


def read_cases(path, n):
    lines = [l.split() for l in open(path) if l.strip()]
    step = max(1, len(lines) // n)
    out = []
    for f in lines[::step][:n]:
        values = [None if v == "." else int(v) for v in f[2:]]
        out.append((f[0], int(f[1]), values))
    return out


def state_of(game, seq):
    s = game.new_initial_state()
    for ch in seq:
        s.apply_action(int(ch) - 1)
    return s


def openspiel_round(game, cases, sims, seed):
    """Seconds and errors of OpenSpiel's bot over `cases`."""
    errors = 0
    t = time.perf_counter()
    for i, (seq, score, values) in enumerate(cases):
        bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed + i), 2.0, sims,
                              1000, False, seed + i, False)
        a = bot.step(state_of(game, seq))
        v = values[a]
        errors += (v is None or (v > 0) - (v < 0) < (score > 0) - (score < 0))
    return time.perf_counter() - t, errors


def triad_round(triad, dirpath, per_file, sims, extra):
    """Seconds of triad's MCTS over the same positions (one thread), and
    its errors per file, from `triad bench pons`."""
    out = subprocess.run(
        [triad, "bench", "pons", "--player", f"mcts:sims={sims}{extra}", "--dir", dirpath,
         "--sample", str(per_file), "--threads", "1", "--json"],
        check=True, capture_output=True, text=True)
    d = json.loads(out.stdout)
    return d["seconds"], {f["file"]: f["errors"] for f in d["files"]}


class TriadPlayer:
    """One `triad move --stdin` process answering positions line by line."""

    def __init__(self, triad, sims, extra):
        self.p = subprocess.Popen(
            [triad, "move", "--game", "connect4", "--player", f"mcts:sims={sims}{extra}",
             "--stdin"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def move(self, seq, seed):
        self.p.stdin.write(f"{seq or '-'} {seed}\n")
        self.p.stdin.flush()
        answer = self.p.stdout.readline().strip()
        if not answer or answer.startswith("error"):
            raise RuntimeError(f"triad move: {answer!r} for {seq!r}")
        return int(answer) - 1

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def match(game, triad, games, sims, seed, extra):
    """`games` games from two random plies, colours alternating: triad's
    score (1 win, 0.5 draw)."""
    rng = random.Random(seed)
    score = 0.0
    player = TriadPlayer(triad, sims, extra)
    for g in range(games):
        state = game.new_initial_state()
        seq = ""
        for _ in range(2):
            a = rng.choice(state.legal_actions())
            state.apply_action(a)
            seq += str(a + 1)
        triad_first = g % 2 == 0
        bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed + g), 2.0, sims,
                              1000, False, seed + g, False)
        while not state.is_terminal():
            first_to_move = state.current_player() == 0
            if first_to_move == triad_first:
                a = player.move(seq, seed + g * 1000 + len(seq))
            else:
                a = bot.step(state)
            state.apply_action(a)
            seq += str(a + 1)
        r = state.returns()[0 if triad_first else 1]
        score += (r + 1) / 2
        print(f"game {g + 1}/{games}: {seq} triad {'first' if triad_first else 'second'} "
              f"{r:+.0f}; triad score {score / (g + 1):.3f}", file=sys.stderr, flush=True)
    player.close()
    return score


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--triad", default="target/release/triad")
    p.add_argument("--dir", default="benchmarks/connect4")
    p.add_argument("--positions", type=int, default=100, help="per file")
    p.add_argument("--sims", type=int, default=1000)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--terminal", choices=["visits", "outcome"], default="visits",
                   help="triad's treatment of game-ending moves (outcome: OpenSpiel's)")
    a = p.parse_args()
    extra = ",terminal=outcome" if a.terminal == "outcome" else ""
    game = pyspiel.load_game("connect_four")
    cases = {f: read_cases(os.path.join(a.dir, f + ".moves"), a.positions) for f in FILES}
    n = sum(len(c) for c in cases.values())
    os_rates, tr_rates, os_err, tr_err = [], [], {}, {}
    for r in range(a.rounds):
        secs = 0.0
        for f in FILES:
            s, e = openspiel_round(game, cases[f], a.sims, a.seed)
            secs += s
            os_err[f] = e
        os_rates.append(n * a.sims / secs)
        s, tr_err = triad_round(a.triad, a.dir, a.positions, a.sims, extra)
        tr_rates.append(n * a.sims / s)
        print(f"round {r + 1}: OpenSpiel {os_rates[-1]:,.0f} sims/s, triad {tr_rates[-1]:,.0f} "
              f"sims/s", file=sys.stderr, flush=True)
    result = {
        "positions": n,
        "sims": a.sims,
        "triad_spec": f"mcts:sims={a.sims}{extra}",
        "openspiel_sims_per_s": os_rates,
        "triad_sims_per_s": tr_rates,
        "openspiel_median": statistics.median(os_rates),
        "triad_median": statistics.median(tr_rates),
        "speedup_median": statistics.median(t / o for t, o in zip(tr_rates, os_rates)),
        "errors_per_file": {f: {"openspiel": os_err[f], "triad": tr_err.get(f),
                                "positions": len(cases[f])} for f in FILES},
    }
    if a.games > 0:
        t = time.perf_counter()
        s = match(game, a.triad, a.games, a.sims, a.seed, extra)
        result["match"] = {"games": a.games, "triad_score": s / a.games,
                           "seconds": time.perf_counter() - t}
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
