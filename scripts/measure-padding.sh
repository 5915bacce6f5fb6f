#!/usr/bin/env bash
# Zero against circular padding of the trunk, on a loop run's self-play data:
# both networks are trained at once (same machine conditions, one libtorch
# thread each) on the training generations, then scored on held-out
# generations by further steps at a learning rate of 1e-12 (the losses of the
# trained network on unseen games; nothing moves).
#
#   scripts/measure-padding.sh CONFIG RUN TRAIN_GENS HELDOUT_GENS STEPS
#   scripts/measure-padding.sh configs/pirate-quickstart.toml runs/pq 1..5 6 300
#
# Writes target/measure-padding/<run>/ and prints one line per network.
set -euo pipefail
cd "$(dirname "$0")/.."
CONFIG=$1; RUN=$2; TG=$3; HG=$4; STEPS=$5
TRIAD=${TRIAD:-target/release/triad}
OUT=target/measure-padding/$(basename "$RUN"); rm -rf "$OUT"; mkdir -p "$OUT"
for p in zeros circular; do
  sed "s/^\[model\]$/[model]\npadding = \"$p\"/" "$CONFIG" > "$OUT/$p.toml"
  sed "s/^lr = .*/lr = 1e-12/; s/^warmup_steps = .*/warmup_steps = 0/" "$OUT/$p.toml" > "$OUT/$p-eval.toml"
done
for p in zeros circular; do
  "$TRIAD" train --config "$OUT/$p.toml" --data "$RUN" --generations "$TG" --out "$OUT/$p" \
    --steps "$STEPS" --json > "$OUT/$p.json" 2> "$OUT/$p.err" &
done
wait
for p in zeros circular; do
  ck=$(ls "$OUT/$p"/checkpoints/step-*.safetensors | grep -v optim | tail -1)
  "$TRIAD" train --config "$OUT/$p-eval.toml" --data "$RUN" --generations "$HG" --init "$ck" \
    --out "$OUT/$p-heldout" --steps 100 --json > "$OUT/$p-heldout.json" 2> "$OUT/$p-heldout.err" &
done
wait
python3 - "$OUT" <<'PY'
import csv, sys
out = sys.argv[1]
for p in ["zeros", "circular"]:
    for kind, n in [("", 10), ("-heldout", None)]:
        rows = list(csv.DictReader(open(f"{out}/{p}{kind}/metrics.csv")))
        last = rows[-n:] if n else rows
        a = lambda k: sum(float(r[k]) for r in last) / len(last)
        what = "held-out" if kind else "train (last 10 rows)"
        print(f"{p:8s} {what:20s} policy {a('policy_loss'):.4f} value {a('value_loss'):.4f} "
              f"value_acc {a('value_accuracy'):.3f}")
PY
