#!/usr/bin/env bash
# The network a binary run picks at an unfairness bound against the network a run on race in four
# groups picks at the same bound, both judged on the four-group scale (results/groups.md, "Race
# in four groups"). COMPAS, 10 splits × log:15, 500 epochs, Chebyshev with ato-penultimate on the
# backprop engine, half of each split's test rows kept as selection rows, on which fp pick decides
# (docs/method.md §8.6):
#   compas        African-American against every other value (the pick judges the binary dp);
#   compas-race4  African-American, Caucasian, Hispanic, other (the pick judges the R-group dp).
# For each bound B and each run: fp pick --metric dp --max-unfairness B; then the picked network is
# scored on its own split's selection rows and test rows, written with the four groups
# (fp datasets export compas-race4 --run … --split M --part …), and audited by race (the R-group
# dp, eo, eopp, each group's count and selection rate; the R-group ato where the network's run has
# a four-group propensity model) and by its binary coding (a_coded: the binary dp and ato).
# compas and compas-race4 have the same rows but not the same splits (a four-group run stratifies
# by (y, group)), so the two picks are audited on different rows of the same population.
#
# Outputs in results/compas-race4/groups/pick/: each run's config.json and records.jsonl
# (runs/DATASET/), pick-B-DATASET.txt, audit-B-DATASET-PART.txt (by race) and
# audit-B-DATASET-PART-binary.txt (by a_coded). The networks stay in runs/groups-pick/.
# Compute: 2 × 150 COMPAS networks, about a minute on two cores.
#
# Settings (environment): FP (bin/fp), WORKERS (all CPUs), BOUNDS (default "0.005 0.01").
set -euo pipefail
cd "$(dirname "$0")/.."

FP=${FP:-bin/fp}
WORK=runs/groups-pick
OUT=results/compas-race4/groups/pick
BOUNDS=${BOUNDS:-0.005 0.01}

mkdir -p "$OUT"
for ds in compas compas-race4; do
  "$FP" train --dataset "$ds" --method cheb --penalty ato-penultimate --engine backprop \
    --splits 10 --lambdas log:15 --epochs 500 --seed 1 --select-fraction 0.5 \
    ${WORKERS:+--workers "$WORKERS"} --out "$WORK/$ds" --quiet --no-plot >/dev/null
  mkdir -p "$OUT/runs/$ds"
  cp "$WORK/$ds/config.json" "$WORK/$ds/records.jsonl" "$OUT/runs/$ds/"
done

for b in $BOUNDS; do
  for ds in compas compas-race4; do
    run=$WORK/$ds
    echo "== B = $b, $ds"
    if ! "$FP" pick "$run" --metric dp --max-unfairness "$b" >"$OUT/pick-$b-$ds.txt" 2>&1; then
      # No candidate meets the bound: the message names the closest one.
      cat "$OUT/pick-$b-$ds.txt"
      continue
    fi
    net=$("$FP" pick "$run" --metric dp --max-unfairness "$b" --print-path 2>/dev/null)
    m=$(basename "$(dirname "$net")")
    m=$((10#${m#split-}))
    for part in selection test; do
      rows=$WORK/pick-rows-$ds-$m-$part.csv
      scores=$WORK/pick-scores-$b-$ds-$part.csv
      "$FP" datasets export compas-race4 --run "$run" --split "$m" --part "$part" --out "$rows" 2>/dev/null
      "$FP" predict --model "$net" --data "$rows" --logit --with-propensity --keep-coded --keep race \
        --out "$scores" 2>/dev/null
      {
        echo "network: $net (split $m, its $part rows, groups of compas-race4)"
        "$FP" audit --data "$scores" --logit logit --label y_coded --group race
      } >"$OUT/audit-$b-$ds-$part.txt"
      if [ "$ds" = compas ]; then
        prop=(--propensity propensity)
      else
        prop=() # a four-group run's propensity columns are per group, read by --group race
      fi
      {
        echo "network: $net (split $m, its $part rows, African-American against the rest)"
        "$FP" audit --data "$scores" --logit logit --label y_coded --group a_coded "${prop[@]}"
      } >"$OUT/audit-$b-$ds-$part-binary.txt"
      cat "$OUT/audit-$b-$ds-$part.txt"
    done
  done
done
