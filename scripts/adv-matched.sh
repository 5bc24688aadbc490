#!/usr/bin/env bash
# The adversarial baseline at a matched budget (docs/method.md §6, --adv-budget matched) for
# docs/reproduction.md: COMPAS at 20 splits at β × 1 and β × 200, Adult-sex at 10 splits at β × 200,
# shard by shard (COMPAS and Adult both in five shards). Each shard's records (with the run's
# config.json and its splits' propensity and overlap files) are copied to
# results/DATASET/[shards/]NAME/ when the shard ends; rerunning resumes. Once a dataset's shards are
# all done, the matched adversary is compared with the paper-protocol one and with the ATO
# configurations (compare-*.txt and .json beside them).
#
# Settings (environment): JOBS (which "dataset:name:shard" to run, default all, in the order
# below), FP (bin/fp), WORKERS (all CPUs).
set -euo pipefail
cd "$(dirname "$0")/.."

FP=${FP:-bin/fp}
WORK=runs/adv-matched
declare -A FLAGS=(
  [compas:adversarial-matched]="--splits 20 --method adversarial --adv-budget matched --engine graph"
  [compas:adversarial-matched-beta200]="--splits 20 --method adversarial --adv-budget matched --beta-scale 200 --engine graph"
  [adult-sex:adversarial-matched-beta200]="--splits 10 --method adversarial --adv-budget matched --beta-scale 200 --engine graph"
)
declare -A DEST=(
  [compas]=results/compas
  [adult-sex]=results/adult-sex/shards
)
ALL=""
for key in compas:adversarial-matched compas:adversarial-matched-beta200 adult-sex:adversarial-matched-beta200; do
  for i in 0 1 2 3 4; do ALL="$ALL $key:$i"; done
done
JOBS=${JOBS:-$ALL}

for job in $JOBS; do
  IFS=: read -r ds name i <<<"$job"
  echo "== $ds $name shard $i/5"
  dst="${DEST[$ds]}/$name"
  work="$WORK/$ds/$name"
  if [ -f "$dst/records-shard-$i-of-5.jsonl" ] && [ ! -f "$work/records-shard-$i-of-5.jsonl" ]; then
    # A shard committed from another machine: resume from its records.
    mkdir -p "$work/splits"
    cp "$dst/config.json" "$dst/records-shard-$i-of-5.jsonl" "$work/"
    cp -r "$dst/splits/." "$work/splits/"
  fi
  # shellcheck disable=SC2086
  "$FP" train --dataset "$ds" --lambdas log:15 --epochs 500 --seed 1 ${FLAGS[$ds:$name]} \
    ${WORKERS:+--workers "$WORKERS"} --shard "$i/5" --out "$work" --quiet --no-plot
  mkdir -p "$dst/splits"
  cp "$work/config.json" "$work/records-shard-$i-of-5.jsonl" "$dst/"
  for m in $(ls "$work/splits"); do
    # Only this shard's splits: m mod 5 = i.
    n=$((10#${m#split-}))
    [ $((n % 5)) = "$i" ] && cp -r "$work/splits/$m" "$dst/splits/"
  done
done

# The comparisons, for each dataset whose shards are all done.
complete() {
  for i in 0 1 2 3 4; do [ -f "$1/records-shard-$i-of-5.jsonl" ] || return 1; done
}
compare() { # OUT A B: the pair, as text and as JSON
  "$FP" compare "$2" "$3" >"$1.txt"
  "$FP" compare --json "$2" "$3" >"$1.json"
}
c=results/compas
if complete $c/adversarial-matched && complete $c/adversarial-matched-beta200; then
  for m in adversarial-matched adversarial-matched-beta200; do
    paper=adversarial${m#adversarial-matched}
    compare "$c/compare-$m-vs-$paper" "$c/$m" "$c/$paper.jsonl"
    for a in cheb-ato-output cheb-ato-penultimate linear-ato-penultimate; do
      compare "$c/compare-$a-vs-$m" "$c/$a.jsonl" "$c/$m"
    done
  done
else
  echo "compas: not every shard is done yet; no comparison written"
fi
s=results/adult-sex/shards
if complete $s/adversarial-matched-beta200; then
  compare "$s/compare-adversarial-matched-beta200-vs-adversarial-beta200" "$s/adversarial-matched-beta200" "$s/adversarial-beta200"
  for a in cheb-ato-output cheb-ato-penultimate linear-ato-penultimate; do
    compare "$s/compare-$a-vs-adversarial-matched-beta200" "$s/$a" "$s/adversarial-matched-beta200"
  done
else
  echo "adult-sex: not every shard is done yet; no comparison written"
fi
