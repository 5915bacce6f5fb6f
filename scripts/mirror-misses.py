#!/usr/bin/env python3
"""The mirror images of a Pons run's misses, labelled, as a benchmark file.

Reads the JSON of `triad bench pons --misses --json` and writes, for every
missed position, its left-right mirror image (column c becomes W + 1 - c)
with the score unchanged and the per-column values reversed, taken from the
labelled `.moves` file beside each Pons file (`benchmarks/connect4/F.moves`).
Scoring that file with the same player says which misses depend on the
image the network was shown and which it makes on both: docs/methods.md
("The preset at a second seed", the mirror images of the misses).

    .venv/bin/python scripts/mirror-misses.py runs/rp12-pons.json > /tmp/mirror.moves
    triad bench pons --player net:N,sims=600 --file /tmp/mirror.moves --misses --json
    .venv/bin/python scripts/mirror-misses.py runs/rp12-pons.json --original > /tmp/orig.moves

Only 7-wide boards (Pons's files). Exit codes: 0 done, 2 bad input (no such
file, not that JSON, a miss that is not the line its number names).
"""
import argparse
import json
import pathlib
import sys

WIDTH = 7


def fail(msg):
    print(f"mirror-misses: {msg}", file=sys.stderr)
    sys.exit(2)


def mirror_line(words):
    moves, score, columns = words[0], words[1], words[2:]
    if len(columns) != WIDTH:
        fail(f"expected {WIDTH} column values after `{moves} {score}`, found {len(columns)}")
    mirrored = "".join(str(WIDTH + 1 - int(c)) for c in moves)
    return " ".join([mirrored, score] + columns[::-1])


def main():
    p = argparse.ArgumentParser(
        description="Write the mirror images of a `triad bench pons --misses --json` run's misses as a labelled .moves file"
    )
    p.add_argument("misses", help="the JSON that `triad bench pons --misses --json` printed")
    p.add_argument(
        "--bench-dir",
        default="benchmarks/connect4",
        help="where the labelled Pons files F.moves are (default benchmarks/connect4)",
    )
    p.add_argument("--original", action="store_true", help="write the misses as they are, not mirrored")
    a = p.parse_args()
    try:
        report = json.loads(pathlib.Path(a.misses).read_text())
        files = report["files"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        fail(f"{a.misses}: not the JSON of `triad bench pons --misses --json` ({e})")
    for f in files:
        missed = f.get("missed", [])
        if not missed:
            continue
        path = pathlib.Path(a.bench_dir) / (f["file"] + ".moves")
        try:
            lines = path.read_text().split("\n")
        except OSError as e:
            fail(f"{path}: {e.strerror}; pass --bench-dir for the labelled files")
        for m in missed:
            n = m["number"]
            words = lines[n - 1].split() if 1 <= n <= len(lines) else []
            if not words or words[0] != m["position"]:
                fail(f"{path} line {n} is not {m['position']}: the JSON was made from other files")
            print(" ".join(words) if a.original else mirror_line(words))


if __name__ == "__main__":
    main()
