#!/usr/bin/env python3
"""How far from a game's end the MCTS-solver proves self-play roots.

Reads a run's self-play shards (`RUN/games/gen-NNNN/*.parquet`) and counts,
for each game with at least one proven root (a row whose root W/D/L is
exactly one-hot: `[selfplay] solver` wrote the proof), the plies from its
first proven root to the game's end, and the share of searched rows proven
in each band of six plies. docs/methods.md ("Where the first aim
stands") uses it to ask whether training rows from the solver's proofs could
reach the positions the two-hour networks still misplay.

    .venv/bin/python scripts/proof-reach.py runs/c4-late96 --from 210 --to 219
    .venv/bin/python scripts/proof-reach.py runs/c4-late96 --from 210 --to 219 --json

Needs pyarrow (scripts/setup.sh installs it into .venv). Exit codes: 0 done,
2 bad input (no run, no shards in the range).
"""
import argparse
import collections
import json
import pathlib
import sys


def main():
    p = argparse.ArgumentParser(
        description="Plies from each self-play game's first proven root to its end"
    )
    p.add_argument("run", help="the run directory (holds games/gen-NNNN/)")
    p.add_argument("--from", dest="first", type=int, default=0, help="first generation (default 0)")
    p.add_argument("--to", dest="last", type=int, default=None, help="last generation (default: the last)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    a = p.parse_args()
    try:
        import pyarrow.parquet as pq
    except ImportError:
        print("proof-reach: pyarrow is missing: run scripts/setup.sh and use .venv/bin/python", file=sys.stderr)
        sys.exit(2)
    games = pathlib.Path(a.run) / "games"
    if not games.is_dir():
        print(f"proof-reach: {games} is not a directory: name a run directory", file=sys.stderr)
        sys.exit(2)
    files = []
    for d in sorted(games.glob("gen-*")):
        try:
            g = int(d.name[4:])
        except ValueError:
            continue
        if g >= a.first and (a.last is None or g <= a.last):
            files += sorted(str(f) for f in d.glob("*.parquet"))
    if not files:
        print(f"proof-reach: no shards in {games} for generations {a.first}..{a.last}: check --from/--to", file=sys.stderr)
        sys.exit(2)
    cols = ["game_id", "ply", "game_length", "root_win", "root_draw", "root_loss"]
    d = pq.read_table(files, columns=cols).to_pydict()
    searched = proven = 0
    first = {}
    games_seen = set()
    by_ply = collections.Counter()  # proven rows by ply, in bands of 6
    rows_by_ply = collections.Counter()
    for i, ply in enumerate(d["ply"]):
        games_seen.add(d["game_id"][i])
        w = (d["root_win"][i], d["root_draw"][i], d["root_loss"][i])
        if w[0] is None:
            continue  # a random opening ply: no search
        searched += 1
        rows_by_ply[ply // 6] += 1
        if max(w) == 1.0:
            proven += 1
            by_ply[ply // 6] += 1
            g = d["game_id"][i]
            if g not in first or ply < first[g][0]:
                first[g] = (ply, d["game_length"][i])
    reach = collections.Counter(length - ply for ply, length in first.values())
    out = {
        "shards": len(files),
        "rows": len(d["ply"]),
        "searched_rows": searched,
        "proven_rows": proven,
        "games": len(games_seen),
        "games_with_a_proven_root": len(first),
        "plies_to_end": {str(k): reach[k] for k in sorted(reach)},
        "proven_share_by_ply": {
            f"{6 * b}-{6 * b + 5}": by_ply[b] / rows_by_ply[b] for b in sorted(rows_by_ply)
        },
    }
    if a.json:
        print(json.dumps(out))
        return
    print(f"{out['games']} games, {searched} searched rows, {proven} proven ({proven / max(searched, 1):.1%})")
    print(f"{len(first)} games with a proven root; plies from the first one to the end:")
    total = max(len(first), 1)
    acc = 0
    for k in sorted(reach):
        acc += reach[k]
        print(f"  {k:3d}  {reach[k]:6d}  (cumulative {acc / total:.1%})")
    print("searched rows proven, by ply:")
    for band, share in out["proven_share_by_ply"].items():
        print(f"  {band:>7}  {share:6.1%}")


if __name__ == "__main__":
    main()
