#!/usr/bin/env bash
# PiRaTeKnIcS: a network of the 8x8 variant as the start of a standard run,
# against a fresh start at the same work (issue 43; docs/methods.md,
# "Starting from a smaller board"). The runs are configs/quickstart.toml
# with a fixed number of generations (`[loop] minutes` is not set there:
# `generations` is the work), matches only in generation 0 and the last:
#   fresh  GENS x 2 generations on the standard board (networks after GENS
#          and 2 GENS);
#   small  GENS generations on the 8x8 variant (the standard army centred
#          on all 64 cells);
#   init   GENS generations on the standard board from small's last network
#          (`[loop] init`): the same games and steps as fresh's 2 GENS.
# Then each network against ab:depth=1 over GAMES games, searched as the
# quickstart's match agent (`net:…,sims=96,leaf_eval=0.5`) and without the
# engine's leaf hint (`sims=96` alone); small's network is relabelled for
# the standard board first (`triad train --init NET --steps 0`: the same
# weights) and plays it zero-shot.
# Writes WORK_DIR/matches/*.txt (each match's report) and prints a summary.
# A step whose output exists is skipped, so a killed run resumes.
# Usage: scripts/piratechnics-8x8.sh [WORK_DIR]   (default: runs/p8x8)
# Environment: TRIAD (default target/release/triad), SEED (1), GENS (5),
# GAMES (64), OPPONENT (ab:depth=1).
set -euo pipefail
cd "$(dirname "$0")/.."
W=${1:-runs/p8x8}
TRIAD=${TRIAD:-target/release/triad}
SEED=${SEED:-1}
GENS=${GENS:-5}
GAMES=${GAMES:-64}
OPPONENT=${OPPONENT:-ab:depth=1}
BASE=configs/quickstart.toml
say() { echo "p8x8: $*" >&2; }
die() { echo "p8x8: error: $*" >&2; exit 2; }
[ -x "$TRIAD" ] || die "no $TRIAD (cargo build --release, or set TRIAD)"
[ -f "$BASE" ] || die "no $BASE: run from a checkout of the project"
[[ "$GENS" =~ ^[1-9][0-9]*$ ]] || die "GENS=$GENS is not a positive count of generations"
. scripts/runs.sh
mkdir -p "$W/matches"

# cfg NAME VARIANT GENERATIONS [LOOP_LINES...]: the preset with the keys above.
cfg() {
    local name=$1 variant=$2 gens=$3 out="$W/$1.toml"
    shift 3
    grep -q '^\[game\]' "$BASE" && die "$BASE has a [game] section: this script adds its own"
    sed -e "s/^seed = .*/seed = $SEED\n\n[game]\nname = \"piratechnics\"\nvariant = \"$variant\"/" \
        -e "s/^generations = .*/generations = $gens/" \
        -e "s/^every = .*/every = 1000/" \
        "$BASE" > "$out.tmp"
    publish_cfg "$out" "$@"
}



cfg fresh standard $((2 * GENS))
run fresh $((2 * GENS))
cfg small 8x8 "$GENS"
run small "$GENS"
cfg init standard "$GENS" "init = \"$(realpath "$(net small "$GENS")")\""
run init "$GENS"

# small's last network labelled for the standard board, weights unchanged.
zero="$W/zero/checkpoints/step-00000000.safetensors"
if [ ! -f "$zero" ]; then
    "$TRIAD" train --config "$W/fresh.toml" --data "$W"/fresh/games/gen-0001/*.parquet \
        --init "$(net small "$GENS")" --steps 0 --out "$W/zero" > /dev/null
    [ -f "$zero" ] || die "train --steps 0 wrote no $zero"
fi

rows=(
    "fresh-$GENS" "$(net fresh "$GENS")"
    "fresh-$((2 * GENS))" "$(net fresh $((2 * GENS)))"
    "zero-shot-8x8-$GENS" "$zero"
    "init-$GENS" "$(net init "$GENS")"
)
for ((i = 0; i < ${#rows[@]}; i += 2)); do
    name=${rows[i]} file=${rows[i + 1]}
    for hint in 0.5 0; do
        out="$W/matches/$name-leaf$hint.txt"
        [ -f "$out" ] && continue
        say "$name (leaf_eval=$hint) against $OPPONENT, $GAMES games"
        "$TRIAD" eval --players "net:$file,sims=96,leaf_eval=$hint" "$OPPONENT" \
            --games "$GAMES" --threads 2 --max-plies 200 --random-plies 4 --seed 7 > "$out.tmp"
        mv "$out.tmp" "$out"
    done
done
for f in "$W"/matches/*.txt; do
    echo "== $(basename "$f" .txt)"
    cat "$f"
done
