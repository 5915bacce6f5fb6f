#!/usr/bin/env bash
# Builds a Connect Four test set that no preset was tuned on (issue 43's
# held-out benchmark; docs/games/connect4.md, "A held-out test set"):
#   1. games of mixed strength: a round robin of random play, pure MCTS,
#      alpha-beta and depth-limited solvers, each opening with random plies;
#   2. up to PER_PLY distinct positions of each ply in PLIES, seeded, none of
#      them in Pons's files (`triad data positions`);
#   3. every position labelled with its exact score and every column's by
#      the solver (`triad solve --columns`), in chunks published whole, so a
#      killed run resumes where it stopped; JOBS chunks at once, niced;
#   4. the chunks in ply order as OUT (Pons's `.moves` format:
#      `moves score v1 .. v7`), which `triad bench pons --file OUT` reads.
# Usage: scripts/connect4-heldout.sh [WORK_DIR]   (default: runs/heldout)
# Environment: GAME (connect4, or connect4/WxH for a set of another board:
# then no Pons file to leave out, and OUT must be given), TRIAD (default
# target/release/triad), SEED (11), PER_PLY (84),
# PLIES (4..39: plies from the game's start, after its 2 random opening plies,
# so positions of 6 to 41 stones), GAMES (40 a pairing), JOBS (2), TABLE_BITS (26),
# OUT (benchmarks/connect4-heldout/Heldout.moves).
set -euo pipefail
cd "$(dirname "$0")/.."
W=${1:-runs/heldout}
TRIAD=${TRIAD:-target/release/triad}
SEED=${SEED:-11}
PER_PLY=${PER_PLY:-84}
PLIES=${PLIES:-4..39}
GAMES=${GAMES:-40}
JOBS=${JOBS:-2}
TABLE_BITS=${TABLE_BITS:-26}
GAME=${GAME:-connect4}
case "$GAME" in
    connect4) MAX_PLIES=42; EXCLUDE=(--exclude benchmarks/connect4/*.moves)
              OUT=${OUT:-benchmarks/connect4-heldout/Heldout.moves} ;;
    connect4/*x*) S=${GAME#connect4/}; MAX_PLIES=$(( ${S%x*} * ${S#*x} )); EXCLUDE=()
              [ -n "${OUT:-}" ] || { echo "heldout: error: GAME=$GAME needs OUT (the file to write)" >&2; exit 2; } ;;
    *) echo "heldout: error: GAME=$GAME is not connect4 or connect4/WxH" >&2; exit 2 ;;
esac
say() { echo "heldout: $*" >&2; }
[ -x "$TRIAD" ] || { echo "heldout: error: no $TRIAD (cargo build --release, or set TRIAD)" >&2; exit 2; }
mkdir -p "$W/chunks"

if [ ! -d "$W/games" ]; then
    say "1/4 games of mixed strength (round robin, $GAMES games a pairing)"
    "$TRIAD" eval --game "$GAME" --round-robin \
        --players random,mcts:sims=50,mcts:sims=400,ab:depth=2,ab:depth=4,ab:depth=7,solver:depth=6,solver:depth=14 \
        --games "$GAMES" --random-plies 2 --max-plies "$MAX_PLIES" --seed "$SEED" --threads "$JOBS" \
        --out "$W/games.tmp" --json > "$W/games.json"
    mv "$W/games.tmp" "$W/games"
fi

if [ ! -f "$W/positions.txt" ]; then
    say "2/4 sampling up to $PER_PLY positions of each ply $PLIES"
    "$TRIAD" data positions "$W/games" --per-ply "$PER_PLY" --plies "$PLIES" --seed "$SEED" \
        ${EXCLUDE[@]+"${EXCLUDE[@]}"} --json > "$W/positions.json"
    "$TRIAD" data positions "$W/games" --per-ply "$PER_PLY" --plies "$PLIES" --seed "$SEED" \
        ${EXCLUDE[@]+"${EXCLUDE[@]}"} --out "$W/positions.txt"
    split -l 40 -d -a 3 "$W/positions.txt" "$W/chunks/chunk-"
fi

say "3/4 solving $(wc -l < "$W/positions.txt") positions, $JOBS chunks at once"
# Late plies first: they are quick, the early ones take minutes each.
ls "$W"/chunks/chunk-??? | sort -r | while read -r c; do
    [ -f "$c.moves" ] || echo "$c"
done | xargs -r -P "$JOBS" -I{} sh -c \
    'nice -n 19 "$0" solve --game "$3" --file "$1" --columns --table-bits "$2" > "$1.moves.tmp" && mv "$1.moves.tmp" "$1.moves" && echo "heldout: solved $1" >&2' \
    "$TRIAD" {} "$TABLE_BITS" "$GAME"

say "4/4 writing $OUT"
mkdir -p "$(dirname "$OUT")"
cat "$W"/chunks/chunk-???.moves > "$OUT.tmp"
[ "$(wc -l < "$OUT.tmp")" = "$(wc -l < "$W/positions.txt")" ] || { echo "heldout: error: chunks missing" >&2; exit 1; }
mv "$OUT.tmp" "$OUT"
say "done: $(wc -l < "$OUT") positions in $OUT"
