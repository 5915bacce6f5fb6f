#!/usr/bin/env bash
# The per-size transfer table of issue 43 (docs/methods.md, "Starting from a
# smaller board"): networks trained on one board or a mixture of boards,
# each scored on every board's held-out set at AlphaZero.jl's setting
# (600 simulations, temperature 0, no noise).
#
# The runs are configs/connect4-quickstart.toml with a fixed number of
# generations (`[loop] minutes = 0`, so each does the same work whatever
# the machine's load), matches only in generation 0 and the last, no suite:
#   a    GENS x 2 generations on 7x6 alone (networks after GENS and 2 GENS);
#   m1   GENS generations on 7x5 with `[loop] mix = ["5x4", "6x4", "6x5"]`,
#        `mix_share = 0.75`: 64 games a generation on each of four boards,
#        never a 7x6 board;
#   m2   GENS generations on 7x6 from m1's last network (`[loop] init`).
# Then every network on every board: a network of another variant is
# relabelled for the board first (`triad train --init NET --steps 0`: the
# same weights, the board's variant in the sidecar), then scored with
# `triad bench pons --game connect4/WxH --file HELDOUT` on
# benchmarks/connect4-sizes/Heldout-WxH.moves and, for 7x6,
# benchmarks/connect4-heldout/Heldout.moves. LONG (optional) adds a 7x6
# network of another run (e.g. a two-hour run's last) to the rows; its
# relabelling takes the network's shape from LONG_CONFIG (the run file it
# was trained by, by default configs/connect4-long.toml).
#
# Writes WORK_DIR/table.tsv (network, board, errors, positions, seconds)
# and WORK_DIR/compute.tsv (run, generations, training steps, stage seconds),
# and prints both as Markdown. A step whose output exists is skipped, so a
# killed run resumes.
# Usage: scripts/connect4-sizes.sh [WORK_DIR]   (default: runs/sizes)
# Environment: TRIAD (default target/release/triad), SEED (1), GENS (6),
# SIMS (600), BOARDS (the boards scored: "5x4 6x4 6x5 7x5 7x6"), LONG,
# LONG_CONFIG.
set -euo pipefail
cd "$(dirname "$0")/.."
W=${1:-runs/sizes}
TRIAD=${TRIAD:-target/release/triad}
SEED=${SEED:-1}
GENS=${GENS:-6}
SIMS=${SIMS:-600}
BOARDS=${BOARDS:-5x4 6x4 6x5 7x5 7x6}
LONG=${LONG:-}
LONG_CONFIG=${LONG_CONFIG:-configs/connect4-long.toml}
PY=${PY:-python3}
BASE=configs/connect4-quickstart.toml
say() { echo "sizes: $*" >&2; }
die() { echo "sizes: error: $*" >&2; exit 2; }
[ -x "$TRIAD" ] || die "no $TRIAD (cargo build --release, or set TRIAD)"
[ -f "$BASE" ] || die "no $BASE: run from a checkout of the project"
[[ "$GENS" =~ ^[1-9][0-9]*$ ]] || die "GENS=$GENS is not a positive count of generations"
[ -z "$LONG" ] || [ -f "$LONG" ] || die "LONG=$LONG is not a file (a 7x6 network's .safetensors)"
[ -z "$LONG" ] || [ -f "$LONG_CONFIG" ] || die "LONG_CONFIG=$LONG_CONFIG is not a file (the run file of LONG's network)"
. scripts/runs.sh
mkdir -p "$W/label" "$W/score"

# cfg NAME VARIANT GENERATIONS [LOOP_LINES...]: the preset (or the run file
# CFG_BASE) with the keys above.
cfg() {
    local name=$1 variant=$2 gens=$3 out="$W/$1.toml" base=${CFG_BASE:-$BASE}
    shift 3
    sed -e "s/^seed = .*/seed = $SEED/" \
        -e "s/^minutes = .*/minutes = 0/" \
        -e "s/^generations = .*/generations = $gens/" \
        -e "s/^every = .*/every = 1000/" \
        -e '/^suite/d' \
        -e "s/^name = \"connect4\"/name = \"connect4\"\nvariant = \"$variant\"/" \
        "$base" > "$out.tmp"
    publish_cfg "$out" "$@"
}

cfg a 7x6 $((2 * GENS))
run a $((2 * GENS))
cfg m1 7x5 "$GENS" 'mix = ["5x4", "6x4", "6x5"]' 'mix_share = 0.75'
run m1 "$GENS"
M1=$(net m1 "$GENS")
cfg m2 7x6 "$GENS" "init = \"$(realpath "$M1")\""
run m2 "$GENS"

# The networks of the table: name, file, its board, the run file of its shape.
nets=(
    "a-$GENS" "$(net a "$GENS")" 7x6 "$BASE"
    "a-$((2 * GENS))" "$(net a $((2 * GENS)))" 7x6 "$BASE"
    "m1-$GENS" "$M1" 7x5 "$BASE"
    "m2-$GENS" "$(net m2 "$GENS")" 7x6 "$BASE"
)
[ -z "$LONG" ] || nets+=(long "$LONG" 7x6 "$LONG_CONFIG")

# shards BOARD: shards of that board, for the relabelling (never trained on).
shards() {
    case $1 in
        7x6) ls "$W"/a/games/gen-0001/*.parquet ;;
        7x5) ls "$W"/m1/games/gen-0001/*.parquet ;;
        *) ls "$W"/m1/games/gen-0001/"$1"/*.parquet ;;
    esac
}

table="$W/table.tsv"
: > "$table.tmp"
for ((i = 0; i < ${#nets[@]}; i += 4)); do
    name=${nets[i]} net=${nets[i + 1]} own=${nets[i + 2]} shape=${nets[i + 3]}
    [ -f "$net" ] || die "no network $net"
    for board in $BOARDS; do
        if [ "$board" = 7x6 ]; then
            game=connect4 file=benchmarks/connect4-heldout/Heldout.moves
        else
            game=connect4/$board file=benchmarks/connect4-sizes/Heldout-$board.moves
        fi
        [ -f "$file" ] || die "no held-out set $file"
        player=$net
        if [ "$board" != "$own" ]; then
            player="$W/label/$name-$board/checkpoints/step-00000000.safetensors"
            if [ ! -f "$player" ]; then
                CFG_BASE=$shape cfg "label-$name-$board" "$board" 1
                mapfile -t data < <(shards "$board")
                "$TRIAD" train --config "$W/label-$name-$board.toml" --data "${data[@]}" \
                    --init "$net" --steps 0 --out "$W/label/$name-$board" > /dev/null
                [ -f "$player" ] || die "train --steps 0 wrote no $player"
            fi
        fi
        score="$W/score/$name-$board.json"
        if [ ! -f "$score" ]; then
            say "$name on $board"
            "$TRIAD" bench pons --game "$game" --player "net:$player,sims=$SIMS" \
                --file "$file" --json > "$score.tmp"
            mv "$score.tmp" "$score"
        fi
        "$PY" -c 'import json, sys
f = json.load(open(sys.argv[1]))
e = sum(x["errors"] for x in f["files"]); n = sum(x["positions"] for x in f["files"])
print(sys.argv[2], sys.argv[3], e, n, round(f["seconds"], 1), sep="\t")' "$score" "$name" "$board" >> "$table.tmp"
    done
done
mv "$table.tmp" "$table"

# The compute behind each run: generations of self-play (256 games each),
# training steps, seconds of stages (timings.csv).
compute="$W/compute.tsv"
: > "$compute.tmp"
for name in a m1 m2; do
    "$PY" -c 'import csv, glob, json, sys
d = sys.argv[1]
secs = sum(float(r["seconds"]) for r in csv.DictReader(open(d + "/timings.csv")))
last = sorted(glob.glob(d + "/networks/gen-*.json"))[-1]
step = json.load(open(last))["step"]
print(sys.argv[2], len(glob.glob(d + "/games/gen-*")), step, round(secs), sep="\t")' "$W/$name" "$name" >> "$compute.tmp"
done
mv "$compute.tmp" "$compute"

echo "| network | $(echo $BOARDS | sed 's/ / | /g') |"
echo "| --- |$(for b in $BOARDS; do printf ' ---: |'; done)"
"$PY" -c 'import sys
rows = {}
for line in open(sys.argv[1]):
    net, board, e, n, s = line.rstrip("\n").split("\t")
    rows.setdefault(net, {})[board] = f"{100 * int(e) / int(n):.2f}% ({e}/{n})"
boards = sys.argv[2].split()
for net, cells in rows.items():
    print("| " + net + " | " + " | ".join(cells.get(b, "") for b in boards) + " |")' "$table" "$BOARDS"
echo
echo "| run | generations played | training steps | seconds of stages |"
echo "| --- | ---: | ---: | ---: |"
while IFS=$'\t' read -r name gens step secs; do
    echo "| $name | $gens | $step | $secs |"
done < "$compute"
