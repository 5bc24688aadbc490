#!/usr/bin/env bash
# Every family of methods on the splits of the decision study (scripts/decision.sh): group
# thresholds and the reductions approach's grid search, for DP and for EO, beside the penalty
# sweeps of results/DATASET/decision (same rows, seed and selection rows, so paired split by split).
#
#   scripts/methods.sh DATASET [SPLITS]       DATASET: compas or adult-sex; SPLITS default 10
#
# Writes results/DATASET/methods/{base,thresholds-dp,thresholds-eo,reductions-dp,reductions-eo}
# (records and config.json; the networks stay in runs/methods-DATASET) and the comparison
# results/DATASET/methods/comparison.txt. Environment: FP (default bin/fp), WORKERS (default 2),
# GRID (the reductions' multipliers, default linear:11), RUNS (where the run folders go, default
# runs/methods-DATASET; the thresholds' config.json names its base run there).
set -euo pipefail
cd "$(dirname "$0")/.."
FP=${FP:-bin/fp}
WORKERS=${WORKERS:-2}
GRID=${GRID:-linear:11}
dataset=${1:?usage: scripts/methods.sh compas|adult-sex [SPLITS]}
splits=${2:-10}
runs=${RUNS:-runs/methods-$dataset}
out=results/$dataset/methods
common=(--dataset "$dataset" --splits "$splits" --select-fraction 0.5 --engine backprop --workers "$WORKERS")
mkdir -p "$runs" "$out"
step() { echo "== $dataset $1 ($(date -u +%H:%M:%S))"; }

# The λ = 0 networks the thresholds post-process: a sweep of λ = 0 and 1 only.
step base
"$FP" train "${common[@]}" --penalty dp-mean --lambdas 0,1 --out "$runs/base" --no-plot >"$runs/base.log" 2>&1
for c in dp eo; do
	step "thresholds-$c"
	"$FP" train "${common[@]}" --method thresholds --constraint "$c" --base-run "$runs/base" --lambdas linear:21 \
		--out "$runs/thresholds-$c" --no-plot >"$runs/thresholds-$c.log" 2>&1
	step "reductions-$c"
	"$FP" train "${common[@]}" --method reductions --constraint "$c" --lambdas "$GRID" \
		--out "$runs/reductions-$c" --no-plot >"$runs/reductions-$c.log" 2>&1
done
for r in base thresholds-dp thresholds-eo reductions-dp reductions-eo; do
	mkdir -p "$out/$r"
	cp "$runs/$r"/*.jsonl "$runs/$r/config.json" "$out/$r/"
done
step compare
"$FP" compare results/"$dataset"/decision/cheb-dp-mean results/"$dataset"/decision/cheb-eo-mean \
	"$out"/thresholds-dp "$out"/thresholds-eo "$out"/reductions-dp "$out"/reductions-eo \
	--by family,penalty --axis error >"$out/comparison.txt" 2>&1 || true
step done
