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

# name | flags (the engine: backprop for the built-in objectives, one network after another as the
# committed records were trained, graph for the adversarial baseline)
COMPAS_CONFIGS=(
  "cheb-ato-penultimate|--method cheb --penalty ato-penultimate --lambdas log:15 --engine backprop --lockstep=false"
  "cheb-ato-all|--method cheb --penalty ato-all --lambdas log:15 --engine backprop --lockstep=false"
  "cheb-ato-penultimate-normalized|--method cheb --penalty ato-penultimate-normalized --lambdas log:15 --engine backprop --lockstep=false"
  "cheb-ato-output|--method cheb --penalty ato-output --lambdas log:15 --engine backprop --lockstep=false"
  "linear-ato-penultimate|--method linear --penalty ato-penultimate --lambdas log:15 --engine backprop --lockstep=false"
  "linear-ato-all|--method linear --penalty ato-all --lambdas log:15 --engine backprop --lockstep=false"
  "linear-ato-penultimate-normalized|--method linear --penalty ato-penultimate-normalized --lambdas log:15 --engine backprop --lockstep=false"
  "linear-ato-output|--method linear --penalty ato-output --lambdas log:15 --engine backprop --lockstep=false"
  "cheb-ato-penultimate-linear15|--method cheb --penalty ato-penultimate --lambdas linear:15 --engine backprop --lockstep=false"
  "cheb-ato-penultimate-adaptive15|--method cheb --penalty ato-penultimate --lambdas adaptive:15 --engine backprop --lockstep=false"
  "linear-ato-penultimate-linear15|--method linear --penalty ato-penultimate --lambdas linear:15 --engine backprop --lockstep=false"
  "cheb-ato-output-linear15|--method cheb --penalty ato-output --lambdas linear:15 --engine backprop --lockstep=false"
  "cheb-ato-output-adaptive15|--method cheb --penalty ato-output --lambdas adaptive:15 --engine backprop --lockstep=false"
  "cheb-ato-penultimate-lockstep|--method cheb --penalty ato-penultimate --lambdas log:15 --engine backprop --lockstep"
  "adversarial|--method adversarial --lambdas log:15 --engine graph"
  "adversarial-beta200|--method adversarial --beta-scale 200 --lambdas log:15 --engine graph"
)
ADULT_CONFIGS=(
  "cheb-ato-penultimate|--method cheb --penalty ato-penultimate --lambdas log:15 --engine backprop --lockstep=false"
  "cheb-ato-all|--method cheb --penalty ato-all --lambdas log:15 --engine backprop --lockstep=false"
  "linear-ato-penultimate|--method linear --penalty ato-penultimate --lambdas log:15 --engine backprop --lockstep=false"
  "adversarial|--method adversarial --lambdas log:15 --engine graph"
  "adversarial-beta200|--method adversarial --beta-scale 200 --lambdas log:15 --engine graph"
)

# The COMPAS questions of results/compas.md, each compared on its own
# (each split's hypervolume is normalised over the candidates of the files
# compared): name | record files (without .jsonl).
COMPAS_QUESTIONS=(
  "methods-ato-penultimate|cheb-ato-penultimate linear-ato-penultimate"
  "methods-ato-all|cheb-ato-all linear-ato-all"
  "methods-ato-penultimate-normalized|cheb-ato-penultimate-normalized linear-ato-penultimate-normalized"
  "methods-ato-output|cheb-ato-output linear-ato-output"
  "penalties-cheb|cheb-ato-penultimate cheb-ato-all cheb-ato-penultimate-normalized cheb-ato-output"
  "grids-cheb|cheb-ato-penultimate cheb-ato-penultimate-linear15 cheb-ato-penultimate-adaptive15"
  "grids-linear|linear-ato-penultimate linear-ato-penultimate-linear15"
  "grids-cheb-ato-output|cheb-ato-output cheb-ato-output-linear15 cheb-ato-output-adaptive15"
  "lockstep|cheb-ato-penultimate cheb-ato-penultimate-lockstep"
  "ato-vs-adversarial|cheb-ato-penultimate cheb-ato-output linear-ato-penultimate adversarial adversarial-beta200"
)

for ds in $DATASETS; do
  splits=$COMPAS_SPLITS
  [ "$ds" = compas ] || splits=$ADULT_SPLITS
  mkdir -p "results/$ds"
  start=$(date +%s)
  if [ "$ds" = compas ]; then configs=("${COMPAS_CONFIGS[@]}"); else configs=("${ADULT_CONFIGS[@]}"); fi
  for c in "${configs[@]}"; do
    name=${c%%|*}
    flags=${c#*|}
    echo "== $ds $name: $splits splits × $EPOCHS epochs"
    # shellcheck disable=SC2086
    "$FP" train --dataset "$ds" --splits "$splits" --epochs "$EPOCHS" --seed "$SEED" \
      ${WORKERS:+--workers "$WORKERS"} $flags --out "$WORK/$ds/$name" --quiet --no-plot
    cp "$WORK/$ds/$name/records.jsonl" "results/$ds/$name.jsonl"
  done
  echo "$ds: $(( $(date +%s) - start )) s of wall time" | tee "results/$ds/wall-time.txt"

  "$FP" compare --front-rule minmax results/"$ds"/*.jsonl > "results/$ds/compare.txt"
  if [ "$ds" = compas ]; then
    for q in "${COMPAS_QUESTIONS[@]}"; do
      qname=${q%%|*}
      files=()
      for f in ${q#*|}; do files+=("results/$ds/$f.jsonl"); done
      "$FP" compare --front-rule minmax "${files[@]}" > "results/$ds/compare-$qname.txt"
      "$FP" compare --front-rule minmax --json "${files[@]}" > "results/$ds/compare-$qname.json"
    done
  fi
  shown=(cheb-ato-penultimate cheb-ato-all linear-ato-penultimate adversarial adversarial-beta200)
  [ "$ds" = compas ] && shown=(cheb-ato-penultimate cheb-ato-output linear-ato-penultimate adversarial adversarial-beta200)
  for m in ato dp eo eopp; do
    files=()
    for f in "${shown[@]}"; do files+=("results/$ds/$f.jsonl"); done
    "$FP" plot --metric "$m" --out "docs/figures/$ds-front-$m.png" "${files[@]}"
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
