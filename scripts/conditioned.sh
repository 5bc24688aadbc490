#!/usr/bin/env bash
# The λ-conditioned network against one network per λ (results/conditioned.md, "One network for the
# whole front"): on the backprop engine, the grid in lockstep, the grid one network after another
# and the conditioned network (with the dense evaluation grid log:64), at log:15 and 500 epochs:
# COMPAS at 100 splits with ato-output and ato-penultimate, Adult-sex at 20 splits with ato-output
# in two shards (and a variant measuring the schedule on 2,000 rows, run on shard 1 only:
# JOBS=adult-sex:conditioned-rows2000-ato-output:1, and the grid one network after another for its
# wall time, also on shard 1 only: JOBS=adult-sex:grid-ato-output:1). Each job's wall time is appended to results/conditioned-times.tsv; its records and
# config.json are copied to results/DATASET/conditioned/NAME/ when it ends; rerunning resumes (a
# resumed job's time then covers only what was left). Once every job of a dataset is done, the
# conditioned network is compared with the grid (compare-*.txt and .json beside them).
#
# Settings (environment): JOBS ("dataset:name[:shard]", default all, in the order below; set and
# empty: only the comparisons), FP
# (bin/fp), WORKERS (all CPUs).
set -euo pipefail
cd "$(dirname "$0")/.."

FP=${FP:-bin/fp}
WORK=runs/conditioned
TIMES=results/conditioned-times.tsv
COMMON="--lambdas log:15 --epochs 500 --seed 1 --engine backprop --method cheb"
declare -A FLAGS=(
  [compas:grid-lockstep-ato-output]="--splits 100 --penalty ato-output --lockstep"
  [compas:grid-ato-output]="--splits 100 --penalty ato-output --lockstep=false"
  [compas:conditioned-ato-output]="--splits 100 --penalty ato-output --conditioned --eval-lambdas log:64"
  [compas:grid-lockstep-ato-penultimate]="--splits 100 --penalty ato-penultimate --lockstep"
  [compas:grid-ato-penultimate]="--splits 100 --penalty ato-penultimate --lockstep=false"
  [compas:conditioned-ato-penultimate]="--splits 100 --penalty ato-penultimate --conditioned --eval-lambdas log:64"
  [adult-sex:grid-lockstep-ato-output]="--splits 20 --penalty ato-output --lockstep"
  [adult-sex:grid-ato-output]="--splits 20 --penalty ato-output --lockstep=false"
  [adult-sex:conditioned-ato-output]="--splits 20 --penalty ato-output --conditioned --eval-lambdas log:64"
  [adult-sex:conditioned-rows2000-ato-output]="--splits 20 --penalty ato-output --conditioned --eval-lambdas log:64 --schedule-rows 2000"
)
ALL=""
for name in grid-lockstep-ato-output grid-ato-output conditioned-ato-output \
  grid-lockstep-ato-penultimate grid-ato-penultimate conditioned-ato-penultimate; do
  ALL="$ALL compas:$name"
done
for i in 0 1; do
  ALL="$ALL adult-sex:grid-lockstep-ato-output:$i adult-sex:conditioned-ato-output:$i"
done
JOBS=${JOBS-$ALL}

# shellcheck source=scripts/conditioned-jobs.sh
. scripts/conditioned-jobs.sh
run_jobs

compare() { # OUT A B …: the configurations, as text and as JSON
  out=$1
  shift
  "$FP" compare --front-rule minmax "$@" >"$out.txt"
  "$FP" compare --front-rule minmax --json "$@" >"$out.json"
}
c=results/compas/conditioned
if [ -d $c/conditioned-ato-penultimate ] && [ -d $c/grid-ato-penultimate ] && [ -d $c/grid-lockstep-ato-output ]; then
  for pen in ato-output ato-penultimate; do
    compare "$c/compare-conditioned-vs-grid-$pen" "$c/conditioned-$pen" "$c/grid-lockstep-$pen"
    compare "$c/compare-grid-lockstep-vs-grid-$pen" "$c/grid-lockstep-$pen" "$c/grid-$pen"
  done
fi
a=results/adult-sex/conditioned
if [ -f $a/conditioned-ato-output/records-shard-1-of-2.jsonl ] && [ -f $a/grid-lockstep-ato-output/records-shard-1-of-2.jsonl ]; then
  compare "$a/compare-conditioned-vs-grid-ato-output" "$a/conditioned-ato-output" "$a/grid-lockstep-ato-output"
fi
if [ -f $a/conditioned-rows2000-ato-output/records-shard-1-of-2.jsonl ] && [ -f $a/grid-lockstep-ato-output/records-shard-1-of-2.jsonl ]; then
  # Paired over the splits both have (shard 1's).
  compare "$a/compare-conditioned-rows2000-vs-grid-ato-output" "$a/conditioned-rows2000-ato-output" "$a/grid-lockstep-ato-output"
fi
if [ -d $a/grid-ato-output ] && [ -d $a/grid-lockstep-ato-output ]; then
  # The grid one network after another (run on shard 1 for its wall time), paired over its splits.
  compare "$a/compare-grid-lockstep-vs-grid-ato-output" "$a/grid-lockstep-ato-output" "$a/grid-ato-output"
  compare "$a/compare-conditioned-vs-grid-apart-ato-output" "$a/conditioned-ato-output" "$a/grid-ato-output"
fi
