#!/usr/bin/env python3
"""Writes tests/fixtures/connect4-games.txt: 1,000 whole Connect Four games,
one move string a line (columns 1-7), for `triad data import --format lines`.

Each game is one of Pascal Pons's 1,000 middle-game positions of
benchmarks/connect4/Test_L2_R1 (its move string) played on to the end by
uniformly random legal moves: a four in a row or a full board. The random
stream is a 64-bit LCG seeded with 45, so the file is the same on every
machine: `python3 scripts/connect4-games.py` rewrites it byte for byte.
"""
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
W, H = 7, 6


def wins(grid, col, row, who):
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for sign in (1, -1):
            c, r = col + sign * dc, row + sign * dr
            while 0 <= c < W and 0 <= r < H and grid[c][r] == who:
                n += 1
                c, r = c + sign * dc, r + sign * dr
        if n >= 4:
            return True
    return False


def main():
    state = 45
    out = ["# 1,000 Connect Four games: Pons's Test_L2_R1 positions played on by random moves (scripts/connect4-games.py)"]
    for line in (ROOT / "benchmarks/connect4/Test_L2_R1").read_text().splitlines():
        moves = line.split()[0]
        grid = [[0] * H for _ in range(W)]
        heights = [0] * W
        over = False
        for i, ch in enumerate(moves):
            c = int(ch) - 1
            grid[c][heights[c]] = 1 + i % 2
            heights[c] += 1
        ply = len(moves)
        while not over and ply < W * H:
            open_cols = [c for c in range(W) if heights[c] < H]
            state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
            c = open_cols[(state >> 33) % len(open_cols)]
            who = 1 + ply % 2
            grid[c][heights[c]] = who
            over = wins(grid, c, heights[c], who)
            heights[c] += 1
            moves += str(c + 1)
            ply += 1
        out.append(moves)
    (ROOT / "tests/fixtures/connect4-games.txt").write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
