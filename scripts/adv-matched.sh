#!/usr/bin/env bash
# The adversarial baseline at a matched budget (docs/method.md §6, --adv-budget matched) for
# results/compas.md: COMPAS at 20 splits at β × 1 and β × 200, Adult-sex at 10 splits at β × 200,
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

# The comparisons, for each dataset whose shards are all done, and every configuration's
# single-class candidates (all of them, and those with λ < 1, the adversary's β < scale).
complete() {
  for i in 0 1 2 3 4; do [ -f "$1/records-shard-$i-of-5.jsonl" ] || return 1; done
}
compare() { # OUT A B …: the configurations, as text and as JSON
  out=$1
  shift
  "$FP" compare --front-rule minmax "$@" >"$out.txt"
  "$FP" compare --front-rule minmax --json "$@" >"$out.json"
}
single_class() { # NAME RECORDS…: "NAME: single-class S of N candidates, S1 of N1 with λ < 1"
  name=$1
  shift
  # λ is the record's lambda over its beta_scale (the adversary's β = λ × scale).
  cat "$@" | awk -v name="$name" '
    {
      n++; s += /"single_class":true/
      scale = 1
      if (match($0, /"beta_scale":[^,}]*/)) scale = substr($0, RSTART + 13, RLENGTH - 13) + 0
      match($0, /"lambda":[^,}]*/); l = substr($0, RSTART + 9, RLENGTH - 9) / scale
      if (l < 1) { n1++; s1 += /"single_class":true/ }
    }
    END { printf "%s: single-class %d of %d candidates, %d of %d with λ < 1\n", name, s, n, s1, n1 }'
}
c=results/compas
if complete $c/adversarial-matched && complete $c/adversarial-matched-beta200; then
  # As compare-ato-vs-adversarial, the matched adversaries in place of the paper's.
  compare $c/compare-ato-vs-adversarial-matched $c/cheb-ato-penultimate.jsonl $c/cheb-ato-output.jsonl \
    $c/linear-ato-penultimate.jsonl $c/adversarial-matched $c/adversarial-matched-beta200
  compare $c/compare-adversarial-matched-vs-adversarial $c/adversarial-matched $c/adversarial.jsonl
  compare $c/compare-adversarial-matched-beta200-vs-adversarial-beta200 $c/adversarial-matched-beta200 $c/adversarial-beta200.jsonl
  for name in cheb-ato-output cheb-ato-penultimate linear-ato-penultimate adversarial adversarial-beta200; do
    single_class "$name" "$c/$name.jsonl"
  done >$c/single-class.txt
  for name in adversarial-matched adversarial-matched-beta200; do
    single_class "$name" "$c/$name"/records-shard-*-of-5.jsonl
  done >>$c/single-class.txt
else
  echo "compas: not every shard is done yet; no comparison written"
fi
s=results/adult-sex/shards
if complete $s/adversarial-matched-beta200; then
  compare "$s/compare-adversarial-matched-beta200-vs-adversarial-beta200" "$s/adversarial-matched-beta200" "$s/adversarial-beta200"
  for a in cheb-ato-output cheb-ato-penultimate linear-ato-penultimate; do
    compare "$s/compare-$a-vs-adversarial-matched-beta200" "$s/$a" "$s/adversarial-matched-beta200"
  done
  # As compare.txt, the matched adversary in place of the paper's (Table 4's matched row).
  compare "$s/compare-ato-vs-adversarial-matched-beta200" "$s/cheb-ato-penultimate" "$s/cheb-ato-output" \
    "$s/linear-ato-penultimate" "$s/adversarial-matched-beta200"
  for name in cheb-ato-output cheb-ato-penultimate linear-ato-penultimate adversarial-beta200 adversarial-matched-beta200; do
    single_class "$name" "$s/$name"/records-shard-*-of-5.jsonl
  done >$s/single-class.txt
else
  echo "adult-sex: not every shard is done yet; no comparison written"
fi
