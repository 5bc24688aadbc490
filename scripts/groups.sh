#!/usr/bin/env bash
# Sensitive attributes of more than two groups (docs/method.md §1.9, §3.3) for
# results/groups.md: COMPAS's race in four groups (compas-race4: African-American, Caucasian,
# Hispanic, other) and Adult's five races on the full preset (adult-race5), 10 splits each, the
# Chebyshev scalarization against the linear one with the R-group ato-penultimate penalty on the
# backprop engine (lockstep). Each run's records (with its config.json and its splits' propensity
# and overlap files) are copied to results/DATASET/groups/NAME/ when it ends; rerunning resumes.
# Then the two methods are compared (compare.txt and compare.json beside them).
#
# Compute: 10 splits × 15 λ = 150 networks per method and dataset. COMPAS takes minutes; Adult's
# 10x32 networks on ≈ 30,000 training rows take hours on a few cores.
#
# Settings (environment): DATASETS (default "compas-race4 adult-race5"), FP (bin/fp), WORKERS (all
# CPUs), SHARD (i/5: run that shard of the splits, m mod 5 = i, and copy its records as
# records-shard-i-of-5.jsonl; the comparison is written once all five are there; default: no shards).
set -euo pipefail
cd "$(dirname "$0")/.."

FP=${FP:-bin/fp}
WORK=runs/groups
DATASETS=${DATASETS:-compas-race4 adult-race5}
METHODS="cheb linear"
PENALTY=ato-penultimate

for ds in $DATASETS; do
  for method in $METHODS; do
    name=$method-$PENALTY
    echo "== $ds $name"
    dst=results/$ds/groups/$name
    work=$WORK/$ds/$name
    recs=records.jsonl
    [ -n "${SHARD:-}" ] && recs="records-shard-${SHARD%/*}-of-${SHARD#*/}.jsonl"
    if [ -f "$dst/$recs" ] && [ ! -f "$work/$recs" ]; then
      # A run committed from another machine: resume from its records.
      mkdir -p "$work/splits"
      cp "$dst/config.json" "$dst/$recs" "$work/"
      cp -r "$dst/splits/." "$work/splits/"
    fi
    "$FP" train --dataset "$ds" --method "$method" --penalty "$PENALTY" --engine backprop \
      --splits 10 --lambdas log:15 --epochs 500 --seed 1 ${SHARD:+--shard "$SHARD"} \
      ${WORKERS:+--workers "$WORKERS"} --out "$work" --quiet --no-plot
    mkdir -p "$dst/splits"
    cp "$work/config.json" "$work/$recs" "$dst/"
    for m in "$work"/splits/split-*; do
      mkdir -p "$dst/splits/$(basename "$m")"
      cp "$m/propensity.json" "$m/overlap.json" "$dst/splits/$(basename "$m")/"
    done
  done
  c=results/$ds/groups
  if [ -n "${SHARD:-}" ] && [ "$(ls "$c/cheb-$PENALTY"/records-shard-*-of-5.jsonl "$c/linear-$PENALTY"/records-shard-*-of-5.jsonl 2>/dev/null | wc -l)" != 10 ]; then
    echo "$ds: not every shard is done yet; no comparison written"
    continue
  fi
  "$FP" compare --front-rule minmax "$c/cheb-$PENALTY" "$c/linear-$PENALTY" >"$c/compare.txt"
  "$FP" compare --front-rule minmax --json "$c/cheb-$PENALTY" "$c/linear-$PENALTY" >"$c/compare.json"
done
