#!/usr/bin/env bash
# The quickstart (`make quickstart`): runs the most complete pipeline that
# exists on the config given (default configs/quickstart.toml). Once the
# self-play -> train -> evaluate loop lands this becomes
#   triad loop --config "$CONFIG" --run runs/quickstart
# Until then: check the config, report the build, exercise the rules engine.
# Steps whose subcommand this build does not have yet are skipped, saying so.
set -euo pipefail
cd "$(dirname "$0")/.."

CONFIG=${1:-configs/quickstart.toml}
TRIAD=${TRIAD:-target/release/triad}
[ -x "$TRIAD" ] || { echo "quickstart: $TRIAD not built (run make build)" >&2; exit 1; }

step() { echo; echo "==> triad $*"; "$TRIAD" "$@"; }

# True when `triad SUBCOMMAND --help` mentions WORD, i.e. the subcommand takes
# that argument in this build.
has() { "$TRIAD" "$1" --help 2>/dev/null | grep -q -- "$2"; }

step config "$CONFIG"
step version

if has perft --depth; then
    step perft --depth 4
else
    echo; echo "==> skipping perft (not implemented in this build)"
fi

GAME=../shared/spec/games/sample-game-1.txt
if [ ! -f "$GAME" ]; then
    echo; echo "==> skipping replay ($GAME not found)"
elif has replay '<'; then
    step replay "$GAME"
else
    echo; echo "==> skipping replay (not implemented in this build)"
fi

echo; echo "quickstart: done"
