#!/usr/bin/env bash
# Where a λ-conditioned network's penalty reads its hidden layers (docs/method.md §12, "Where the
# penalty reads"): on COMPAS, the graph engine, ato-penultimate, log:15 and the default epochs, one
# conditioned network per split with the penalty read after the modulation (--film-penalty after,
# the default) and one with it read before (--film-penalty before), on the same splits and seed.
# Each job's wall time is appended to results/conditioned-before-times.tsv; its records and
# config.json are copied to results/compas/conditioned-before/{after,before}/ when it ends; rerunning
# resumes (a resumed job's time then covers only what was left). Once both are done, fp compare
# writes compare-after-vs-before.txt and .json beside them (paired per split).
#
# Settings (environment): SPLITS (10), EPOCHS (the default, 500), FP (bin/fp), WORKERS (all CPUs).
set -euo pipefail
cd "$(dirname "$0")/.."

FP=${FP:-bin/fp}
SPLITS=${SPLITS:-10}
WORK=runs/conditioned-before
TIMES=results/conditioned-before-times.tsv
DST=results/compas/conditioned-before
COMMON=(--dataset compas --engine graph --method cheb --penalty ato-penultimate --lambdas log:15
  --conditioned --splits "$SPLITS" --seed 1)
[ -n "${EPOCHS:-}" ] && COMMON+=(--epochs "$EPOCHS")

[ -f "$TIMES" ] || printf 'dataset\tname\tsplits\tepochs\tworkers\tseconds\n' >"$TIMES"
for where in after before; do
  echo "== compas film-penalty $where, $SPLITS splits"
  work="$WORK/$where"
  start=$(date +%s.%N)
  "$FP" train "${COMMON[@]}" --film-penalty "$where" ${WORKERS:+--workers "$WORKERS"} \
    --out "$work" --quiet --no-plot
  end=$(date +%s.%N)
  printf 'compas\t%s\t%s\t%s\t%s\t%.1f\n' "$where" "$SPLITS" "${EPOCHS:-default}" "${WORKERS:-$(nproc)}" \
    "$(awk -v s="$start" -v e="$end" 'BEGIN { print e - s }')" >>"$TIMES"
  mkdir -p "$DST/$where"
  cp "$work/config.json" "$DST/$where/"
  cp "$work"/records*.jsonl "$DST/$where/"
done

"$FP" compare --front-rule minmax "$DST/after" "$DST/before" >"$DST/compare-after-vs-before.txt"
"$FP" compare --front-rule minmax --json "$DST/after" "$DST/before" >"$DST/compare-after-vs-before.json"
