#!/usr/bin/env bash
# PiRaTeKnIcS against ab:depth=3 (issue 43): runs a preset (default the
# two-hour configs/long-cpu.toml) in RUN_DIR unless it is finished (a killed
# run resumes), then plays its last network against OPPONENT over GAMES
# games twice: searched as the preset's match agent (its [eval] simulations,
# its [selfplay] leaf_eval_weight: the engine's leaf hint) and with the same
# simulations but no leaf hint (`leaf_eval=0`: the network's own share).
# Writes RUN_DIR/vs/<opponent>-leaf<W>.txt (each match's report; a report
# that exists is kept) and prints them.
# Usage: scripts/piratechnics-depth3.sh [RUN_DIR]   (default: runs/long-cpu)
# Environment: TRIAD (default target/release/triad), CONFIG
# (configs/long-cpu.toml), GAMES (64), OPPONENT (ab:depth=3).
set -euo pipefail
cd "$(dirname "$0")/.."
RUN=${1:-runs/long-cpu}
TRIAD=${TRIAD:-target/release/triad}
CONFIG=${CONFIG:-configs/long-cpu.toml}
GAMES=${GAMES:-64}
OPPONENT=${OPPONENT:-ab:depth=3}
say() { echo "depth3: $*" >&2; }
die() { echo "depth3: error: $*" >&2; exit 2; }
[ -x "$TRIAD" ] || die "no $TRIAD (cargo build --release, or set TRIAD)"
[[ "$GAMES" =~ ^[1-9][0-9]*$ ]] || die "GAMES=$GAMES is not a positive count of games"

# The preset's match agent, read from the resolved config (defaults filled in).
resolved=$("$TRIAD" config "$CONFIG" --json) || die "the config $CONFIG is refused (above)"
read -r sims hint < <(python3 -c 'import json, sys
c = json.load(sys.stdin)
print(c["eval"]["simulations"], "%g" % c["selfplay"]["leaf_eval_weight"])' <<< "$resolved")
[ -n "${hint:-}" ] || die "could not read [eval] simulations and [selfplay] leaf_eval_weight of $CONFIG"

say "the loop of $CONFIG in $RUN"
"$TRIAD" loop --config "$CONFIG" --run "$RUN"
last=$(ls "$RUN"/networks/gen-*.safetensors 2>/dev/null | sort | tail -1 || true)
[ -f "$last" ] || die "the run $RUN has no network"
mkdir -p "$RUN/vs"
for w in "$hint" 0; do
    out="$RUN/vs/${OPPONENT//[:=,]/_}-leaf$w.txt"
    [ -f "$out" ] && continue
    say "$(basename "$last") (sims=$sims, leaf_eval=$w) against $OPPONENT, $GAMES games"
    "$TRIAD" eval --players "net:$last,sims=$sims,leaf_eval=$w" "$OPPONENT" \
        --games "$GAMES" --threads 2 --max-plies 200 --random-plies 4 --seed 7 > "$out.tmp"
    mv "$out.tmp" "$out"
    [ "$w" = 0 ] && break
done
for f in "$RUN"/vs/*.txt; do
    echo "== $(basename "$f" .txt)"
    cat "$f"
done
