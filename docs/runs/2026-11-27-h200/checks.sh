#!/bin/bash
# Device checks for issue 46 (run from the repository root on the GPU machine).
# RUN: the Connect Four loop's run folder (default runs/c4, relative to the root).
set -u
RUN=${RUN:-runs/c4}
exec > >(tee -a "$OUT/log.txt") 2>&1
TL=$(python3 -c 'import torch,os;print(os.path.dirname(torch.__file__))')/lib
export LD_LIBRARY_PATH=$TL
B=.gpu/triad
date; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv; nproc
$B version
echo "== bench model, three precisions"
timeout 120 $B bench model --config configs/gpu.toml --precision fp32,bf16,fp16 --seconds 1 --json > "$OUT/model.json"; echo "model rc=$?"
echo "== bench selfplay fp32 vs bf16, interleaved"
for r in 1 2; do
  for c in configs/gpu.toml .gpu/gpu-bf16.toml; do
    echo "round $r $c"
    timeout 60 $B bench selfplay --config $c --seconds 6 --json | tee -a "$OUT/selfplay.jsonl"; echo "selfplay rc=$?"
  done
done
echo "== Connect Four loop on the GPU"
date
timeout 170 $B loop --config .gpu/c4-gpu.toml --run "$RUN"; echo "loop rc=$?"
date
(cd "$RUN" && tar czf "$OUT/c4run.tgz" ratings.md ratings.csv timings.csv suite.csv matches.json train/metrics.csv state.json 2>/dev/null)
N=$(ls "$RUN"/networks/*.safetensors | sort | tail -1)
echo "== bench pons with $N on cuda"
timeout 60 $B bench pons --player net:$N,sims=200 --sample 20 --device cuda --threads 8 --json > "$OUT/pons.json"; echo "pons rc=$?"
cat "$OUT/pons.json"
date
