#!/usr/bin/env bash
# The quickstart (`make quickstart`): checks the config, then runs the whole
# self-play -> train -> evaluate loop on it and plots the result:
#   triad loop --config configs/quickstart.toml --run runs/quickstart
#   triad plot runs/quickstart
# Running it again resumes the run (a finished run is only re-plotted); use
# RUN=runs/other to start another run directory.
set -euo pipefail
cd "$(dirname "$0")/.."

CONFIG=${1:-configs/quickstart.toml}
RUN=${RUN:-runs/quickstart}
TRIAD=${TRIAD:-target/release/triad}
[ -x "$TRIAD" ] || { echo "quickstart: $TRIAD not built (run make build)" >&2; exit 1; }

step() { echo; echo "==> triad $*"; "$TRIAD" "$@"; }

step config "$CONFIG" > /dev/null
step version
step loop --config "$CONFIG" --run "$RUN"
step plot "$RUN"
echo
echo "quickstart: done. Ratings: $RUN/ratings.md, plot: $RUN/plot.png"
