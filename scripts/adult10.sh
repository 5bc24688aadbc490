#!/usr/bin/env bash
# The Adult part of the reproduction (results/adult.md) at ten splits, shard by shard: four configurations per
# dataset (Chebyshev and linear with the one-layer ATO, Chebyshev with the COMPAS winner and the
# strong adversary), 10 splits × log:15 × 500 epochs, in shards of two splits. Each shard's records
# (with the run's config.json and its splits' propensity, overlap and standardization files) are
# copied to results/DATASET/shards/NAME/ when the shard ends; rerunning resumes. Once a dataset's
# shards are all done, every pair of configurations is compared (results/DATASET/shards/compare-*)
# and the fronts drawn (docs/figures/DATASET-splits10-front-*.png).
#
# Settings (environment): SHARDS (which shards of 0 … 4, default all), DATASETS
# ("adult-sex adult-race"), CONFIGS (names below, default all), FP (bin/fp), WORKERS (all CPUs).
set -euo pipefail
cd "$(dirname "$0")/.."

FP=${FP:-bin/fp}
SHARDS=${SHARDS:-"0 1 2 3 4"}
DATASETS=${DATASETS:-"adult-sex adult-race"}
WORK=runs/reproduce-adult10
declare -A FLAGS=(
  [cheb-ato-penultimate]="--method cheb --penalty ato-penultimate --engine backprop --lockstep=false"
  [linear-ato-penultimate]="--method linear --penalty ato-penultimate --engine backprop --lockstep=false"
  [cheb-ato-output]="--method cheb --penalty ato-output --engine backprop --lockstep=false"
  [adversarial-beta200]="--method adversarial --beta-scale 200 --engine graph"
)
CONFIGS=${CONFIGS:-"cheb-ato-penultimate linear-ato-penultimate cheb-ato-output adversarial-beta200"}

for ds in $DATASETS; do
  for name in $CONFIGS; do
    for i in $SHARDS; do
      echo "== $ds $name shard $i/5"
      dst="results/$ds/shards/$name"
      work="$WORK/$ds/$name"
      if [ -f "$dst/records-shard-$i-of-5.jsonl" ] && [ ! -f "$work/records-shard-$i-of-5.jsonl" ]; then
        # A shard committed from another machine: resume from its records
        # (its networks stay where they were trained).
        mkdir -p "$work/splits"
        cp "$dst/config.json" "$dst/records-shard-$i-of-5.jsonl" "$work/"
        cp -r "$dst/splits/." "$work/splits/"
      fi
      # shellcheck disable=SC2086
      "$FP" train --dataset "$ds" --splits 10 --lambdas log:15 --epochs 500 --seed 1 ${FLAGS[$name]} \
        ${WORKERS:+--workers "$WORKERS"} --shard "$i/5" --out "$work" --quiet --no-plot
      mkdir -p "$dst/splits"
      cp "$work/config.json" "$work/records-shard-$i-of-5.jsonl" "$dst/"
      for m in $(seq "$i" 5 9); do
        cp -r "$work/splits/split-$(printf %03d "$m")" "$dst/splits/"
      done
    done
    "$FP" status "results/$ds/shards/$name" --shards 5 | sed -n 1p # sed reads all: no broken pipe
  done
  # Every pair of the four configurations, each compared on its own pair of folders, once all
  # four are complete; and all four together for orientation.
  all=(cheb-ato-penultimate linear-ato-penultimate cheb-ato-output adversarial-beta200)
  complete=1
  for name in "${all[@]}"; do
    for i in 0 1 2 3 4; do [ -f "results/$ds/shards/$name/records-shard-$i-of-5.jsonl" ] || complete=0; done
  done
  [ $complete = 1 ] || { echo "$ds: not every shard is done yet; no comparison written"; continue; }
  "$FP" compare --front-rule minmax "${all[@]/#/results/$ds/shards/}" > "results/$ds/shards/compare.txt"
  for ((x = 0; x < ${#all[@]}; x++)); do
    for ((y = x + 1; y < ${#all[@]}; y++)); do
      a=${all[$x]} b=${all[$y]}
      "$FP" compare --front-rule minmax "results/$ds/shards/$a" "results/$ds/shards/$b" > "results/$ds/shards/compare-$a-vs-$b.txt"
      "$FP" compare --front-rule minmax --json "results/$ds/shards/$a" "results/$ds/shards/$b" > "results/$ds/shards/compare-$a-vs-$b.json"
    done
  done
  for m in ato dp eo eopp; do
    "$FP" plot --metric "$m" --out "docs/figures/$ds-splits10-front-$m.png" "${all[@]/#/results/$ds/shards/}"
  done
  "$FP" plot --metric ato --zoom --log --out "docs/figures/$ds-splits10-front-ato-zoom.png" "${all[@]/#/results/$ds/shards/}"
done
