#!/usr/bin/env bash
# The λ = 0 network's test risk by epoch on Adult split 0 (the paper's protocol trains 500 epochs
# with no held-out stopping). Training is deterministic and the schedule looks only backwards, so
# a run of E epochs is the first E epochs of the 500-epoch run: each E is its own short run.
# Reporting only; nothing is chosen with these test figures. Writes results/DATASET/overfit-lambda0.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
FP=${FP:-bin/fp}
# adult-race shares adult-sex's rows, features, labels and splits, so its λ = 0 network is the
# same one: one dataset is enough.
DATASETS=${DATASETS:-adult-sex}
EPOCHS=${EPOCHS:-"10 25 50 100 200 300 400 500"}
for ds in $DATASETS; do
  out=results/$ds/overfit-lambda0.txt
  {
    echo "# $ds, split 0, λ = 0 (risk only), test risk and accuracy after E epochs"
    echo "# fp train --dataset $ds --splits 1 --lambdas 0,1 --method linear --penalty ato-penultimate --engine backprop --lockstep=false --seed 1 --epochs E"
    printf "%-7s %-10s %-10s %-10s\n" epochs train_r test_risk accuracy
  } > "$out.tmp"
  for e in $EPOCHS; do
    dir=runs/overfit/$ds/e$e
    "$FP" train --dataset "$ds" --splits 1 --lambdas 0,1 --method linear --penalty ato-penultimate \
      --engine backprop --lockstep=false --seed 1 --epochs "$e" --out "$dir" --quiet --no-plot > /dev/null
    python3 - "$dir/records.jsonl" "$e" >> "$out.tmp" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["lambda"] == 0:
        print(f"{sys.argv[2]:<7} {r['train_r']:<10.4f} {r['risk']:<10.4f} {r['accuracy']:<10.4f}")
PY
  done
  mv "$out.tmp" "$out"
  cat "$out"
done
