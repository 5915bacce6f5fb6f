#!/usr/bin/env bash
# triad's pure MCTS against OpenSpiel's MCTSBot on Connect Four
# (scripts/bench_openspiel_mcts.py): installs open-spiel into its own
# virtual environment under target/ (not needed by CI), builds triad, runs.
#   scripts/bench-openspiel.sh [--positions 100] [--rounds 3] [--games 200]
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=target/openspiel-venv
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import pyspiel" 2>/dev/null; then
    echo "bench-openspiel: installing open-spiel into $VENV" >&2
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --disable-pip-version-check -q open-spiel numpy
fi
cargo build --release --bin triad >&2
exec "$VENV/bin/python" scripts/bench_openspiel_mcts.py "$@"
