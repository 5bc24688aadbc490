#!/usr/bin/env bash
# Reproduces the paper's experiments (Wei & Niethammer, Table 4 and Figure 4) at a size one machine
# affords, and writes what docs/reproduction.md shows:
#   results/DATASET/NAME.jsonl       the records of every configuration (committed)
#   results/DATASET/compare.txt      fp compare over them
#   results/DATASET/dist-run/        one split's networks of the Chebyshev sweep, for the score distributions
#   docs/figures/*.png               fronts per metric and method, score distributions
# Work folders (every network, resumable) live under runs/reproduce/.
#
# Settings (environment): COMPAS_SPLITS (20), ADULT_SPLITS (2), EPOCHS (500), SEED (1),
# DATASETS ("compas adult-sex adult-race"), FP (bin/fp), WORKERS (all CPUs).
set -euo pipefail
cd "$(dirname "$0")/.."

FP=${FP:-bin/fp}
COMPAS_SPLITS=${COMPAS_SPLITS:-20}
ADULT_SPLITS=${ADULT_SPLITS:-2}
EPOCHS=${EPOCHS:-500}
SEED=${SEED:-1}
DATASETS=${DATASETS:-"compas adult-sex adult-race"}
WORK=runs/reproduce
mkdir -p docs/figures

# name | flags (the engine: backprop for the built-in objectives, graph for the adversarial baseline)
CONFIGS=(
  "cheb-ato-penultimate|--method cheb --penalty ato-penultimate --engine backprop"
  "cheb-ato-all|--method cheb --penalty ato-all --engine backprop"
  "linear-ato-penultimate|--method linear --penalty ato-penultimate --engine backprop"
  "adversarial|--method adversarial --engine graph"
  "adversarial-beta200|--method adversarial --beta-scale 200 --engine graph"
)

for ds in $DATASETS; do
  splits=$COMPAS_SPLITS
  [ "$ds" = compas ] || splits=$ADULT_SPLITS
  mkdir -p "results/$ds"
  start=$(date +%s)
  for c in "${CONFIGS[@]}"; do
    name=${c%%|*}
    flags=${c#*|}
    echo "== $ds $name: $splits splits × log:15 × $EPOCHS epochs"
    # shellcheck disable=SC2086
    "$FP" train --dataset "$ds" --splits "$splits" --lambdas log:15 --epochs "$EPOCHS" --seed "$SEED" \
      ${WORKERS:+--workers "$WORKERS"} $flags --out "$WORK/$ds/$name" --quiet --no-plot
    cp "$WORK/$ds/$name/records.jsonl" "results/$ds/$name.jsonl"
  done
  echo "$ds: $(( $(date +%s) - start )) s of wall time" | tee "results/$ds/wall-time.txt"

  "$FP" compare results/"$ds"/*.jsonl | tee "results/$ds/compare.txt"
  for m in ato dp eo eopp; do
    "$FP" plot --metric "$m" --out "docs/figures/$ds-front-$m.png" \
      "results/$ds/cheb-ato-penultimate.jsonl" "results/$ds/cheb-ato-all.jsonl" \
      "results/$ds/linear-ato-penultimate.jsonl" "results/$ds/adversarial.jsonl" "results/$ds/adversarial-beta200.jsonl"
  done

  # The score distributions need networks: keep split 0 of the Chebyshev sweep (small) in results/.
  dist=results/$ds/dist-run
  rm -rf "$dist"
  mkdir -p "$dist/networks"
  cp "$WORK/$ds/cheb-ato-penultimate/config.json" "$dist/"
  grep '"split":0,' "$WORK/$ds/cheb-ato-penultimate/records.jsonl" > "$dist/records.jsonl"
  cp -r "$WORK/$ds/cheb-ato-penultimate/networks/split-000" "$dist/networks/"
  "$FP" plot --dist --split 0 --out "docs/figures/$ds-dist.png" "$dist"
done
