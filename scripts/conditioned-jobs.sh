# shellcheck shell=bash
# The job loop of scripts/conditioned.sh and scripts/conditioned-capacity.sh, sourced by both:
# run_jobs trains each job of JOBS ("dataset:name[:shard of 2]") with
# `$FP train --dataset DATASET $COMMON ${FLAGS[dataset:name]}` into $WORK/DATASET/NAME (rerunning
# resumes), appends its wall time to $TIMES and copies its records and config.json to
# results/DATASET/conditioned/NAME/.
run_jobs() {
  [ -f "$TIMES" ] || printf 'dataset\tname\tshard\tworkers\tseconds\n' >"$TIMES"
  local job ds name i work start end dst
  for job in $JOBS; do
    IFS=: read -r ds name i <<<"$job"
    local shard=()
    [ -n "${i:-}" ] && shard=(--shard "$i/2")
    echo "== $ds $name ${i:+shard $i/2}"
    work="$WORK/$ds/$name"
    start=$(date +%s.%N)
    # shellcheck disable=SC2086
    "$FP" train --dataset "$ds" $COMMON ${FLAGS[$ds:$name]} "${shard[@]}" \
      ${WORKERS:+--workers "$WORKERS"} --out "$work" --quiet --no-plot
    end=$(date +%s.%N)
    printf '%s\t%s\t%s\t%s\t%.1f\n' "$ds" "$name" "${i:--}" "${WORKERS:-$(nproc)}" "$(awk -v s="$start" -v e="$end" 'BEGIN { print e - s }')" >>"$TIMES"
    dst="results/$ds/conditioned/$name"
    mkdir -p "$dst"
    cp "$work/config.json" "$dst/"
    cp "$work"/records*.jsonl "$dst/"
  done
}
