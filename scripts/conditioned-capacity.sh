#!/usr/bin/env bash
# The λ-conditioned network's variants of results/conditioned.md "One network for the whole front",
# "Capacity": several λ per training step, and the conditioned network's size, on COMPAS at
# 100 splits (backprop engine, log:15, 500 epochs, the settings of scripts/conditioned.sh), and on
# Adult-sex at 20 splits in two shards (the grid's records are
# results/adult-sex/conditioned/grid-lockstep-ato-output). Each job's wall time is appended to
# results/conditioned-capacity-times.tsv, its records and config.json copied to
# results/DATASET/conditioned/NAME/; rerunning resumes. The comparisons (compare-*.txt and .json)
# follow once both sides of one are there.
#
# Settings (environment): JOBS ("dataset:name[:shard]", default all, in the order below; set and
# empty: only the comparisons), FP
# (bin/fp), WORKERS (all CPUs).
set -euo pipefail
cd "$(dirname "$0")/.."

FP=${FP:-bin/fp}
WORK=runs/conditioned
TIMES=results/conditioned-capacity-times.tsv
COMMON="--lambdas log:15 --epochs 500 --seed 1 --engine backprop --method cheb"
C100="--splits 100 --penalty ato-output"
ADULT="--splits 20 --penalty ato-output --conditioned --eval-lambdas log:64 --schedule-rows 2000"
declare -A FLAGS=(
  [compas:conditioned-k2-ato-output]="$C100 --conditioned --lambdas-per-step 2"
  [compas:conditioned-k4-ato-output]="$C100 --conditioned --lambdas-per-step 4"
  [compas:grid-lockstep-4x8-ato-output]="$C100 --arch 4x8 --lockstep"
  [compas:conditioned-4x8-ato-output]="$C100 --arch 4x8 --conditioned"
  [compas:grid-lockstep-4x16-ato-output]="$C100 --arch 4x16 --lockstep"
  [compas:conditioned-4x16-ato-output]="$C100 --arch 4x16 --conditioned"
  [compas:grid-4x16-ato-output]="$C100 --arch 4x16 --lockstep=false"
  [compas:grid-lockstep-4x16-ato-penultimate]="--splits 100 --penalty ato-penultimate --arch 4x16 --lockstep"
  [compas:grid-4x16-ato-penultimate]="--splits 100 --penalty ato-penultimate --arch 4x16 --lockstep=false"
  [compas:conditioned-4x16-ato-penultimate]="--splits 100 --penalty ato-penultimate --arch 4x16 --conditioned"
  [compas:conditioned-arch4x8-ato-output]="$C100 --conditioned --conditioned-arch 4x8"
  [compas:conditioned-arch4x16-ato-output]="$C100 --conditioned --conditioned-arch 4x16"
  [compas:conditioned-arch4x8-ato-penultimate]="--splits 100 --penalty ato-penultimate --conditioned --conditioned-arch 4x8"
  [compas:conditioned-arch4x16-ato-penultimate]="--splits 100 --penalty ato-penultimate --conditioned --conditioned-arch 4x16"
  [adult-sex:conditioned-rows2000-arch10x48-ato-output]="$ADULT --conditioned-arch 10x48"
)
ALL=""
for name in conditioned-k2-ato-output conditioned-k4-ato-output grid-lockstep-4x8-ato-output \
  conditioned-4x8-ato-output grid-lockstep-4x16-ato-output conditioned-4x16-ato-output grid-4x16-ato-output \
  grid-lockstep-4x16-ato-penultimate grid-4x16-ato-penultimate conditioned-4x16-ato-penultimate \
  conditioned-arch4x8-ato-output conditioned-arch4x16-ato-output \
  conditioned-arch4x8-ato-penultimate conditioned-arch4x16-ato-penultimate; do
  ALL="$ALL compas:$name"
done
ALL="$ALL adult-sex:conditioned-rows2000-arch10x48-ato-output:1 adult-sex:conditioned-rows2000-arch10x48-ato-output:0"
JOBS=${JOBS-$ALL}

# shellcheck source=scripts/conditioned-jobs.sh
. scripts/conditioned-jobs.sh
run_jobs

compare() { # OUT A B: when both are there, as text and as JSON
  out=$1
  [ -d "$2" ] && [ -d "$3" ] || return 0
  "$FP" compare --front-rule minmax "$2" "$3" >"$out.txt"
  "$FP" compare --front-rule minmax --json "$2" "$3" >"$out.json"
}
c=results/compas/conditioned
for k in 2 4; do
  compare "$c/compare-conditioned-k$k-vs-grid-ato-output" "$c/conditioned-k$k-ato-output" "$c/grid-lockstep-ato-output"
done
for a in 4x8 4x16; do
  compare "$c/compare-conditioned-$a-vs-grid-$a-ato-output" "$c/conditioned-$a-ato-output" "$c/grid-lockstep-$a-ato-output"
  compare "$c/compare-grid-$a-vs-grid-ato-output" "$c/grid-lockstep-$a-ato-output" "$c/grid-lockstep-ato-output"
  for pen in ato-output ato-penultimate; do
    compare "$c/compare-conditioned-arch$a-vs-grid-$pen" "$c/conditioned-arch$a-$pen" "$c/grid-lockstep-$pen"
  done
done
compare "$c/compare-grid-4x16-vs-grid-ato-penultimate" "$c/grid-lockstep-4x16-ato-penultimate" "$c/grid-lockstep-ato-penultimate"
compare "$c/compare-conditioned-4x16-vs-grid-4x16-ato-penultimate" "$c/conditioned-4x16-ato-penultimate" "$c/grid-lockstep-4x16-ato-penultimate"
for pen in ato-output ato-penultimate; do
  compare "$c/compare-grid-lockstep-4x16-vs-grid-4x16-$pen" "$c/grid-lockstep-4x16-$pen" "$c/grid-4x16-$pen"
done
a=results/adult-sex/conditioned
# Paired over the splits both have.
compare "$a/compare-conditioned-rows2000-arch10x48-vs-grid-ato-output" "$a/conditioned-rows2000-arch10x48-ato-output" "$a/grid-lockstep-ato-output"
# And against the grid one network after another (shard 1 only; scripts/conditioned.sh).
compare "$a/compare-conditioned-rows2000-arch10x48-vs-grid-apart-ato-output" "$a/conditioned-rows2000-arch10x48-ato-output" "$a/grid-ato-output"

# Sensitivity check: the same comparisons with the interior-λ candidates that are constant or
# one-class left out of both sides (scripts/without_degenerate.py), for the DP fronts.
strip() { # RESULTS-DIR NAME: the records without degenerate interior candidates, under $WORK
  python3 scripts/without_degenerate.py "$1/$2" "$WORK/without-degenerate/$1/$2" >&2
  echo "$WORK/without-degenerate/$1/$2"
}
if [ -d "$a/conditioned-rows2000-arch10x48-ato-output" ]; then
  g=$(strip $a grid-lockstep-ato-output)
  compare "$a/compare-conditioned-vs-grid-ato-output-without-degenerate" "$(strip $a conditioned-ato-output)" "$g"
  compare "$a/compare-conditioned-rows2000-arch10x48-vs-grid-ato-output-without-degenerate" \
    "$(strip $a conditioned-rows2000-arch10x48-ato-output)" "$g"
fi
compare "$c/compare-conditioned-vs-grid-ato-output-without-degenerate" \
  "$(strip $c conditioned-ato-output)" "$(strip $c grid-lockstep-ato-output)"
