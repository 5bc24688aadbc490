#!/usr/bin/env bash
# The optimism of a pick (results/compas.md, "The optimism of a pick"):
# COMPAS, 20 splits, half of each split's test rows kept as selection rows.
# For every split M, metric and bound U, fp pick --split M --max-unfairness U
# decides once on the test rows and once on the selection rows; the summary
# compares, for each way, the chosen network's metric on the rows it was
# chosen on with the same metric on the rows it was not.
#
#   scripts/optimism.sh            # writes results/compas/optimism/
#   FP=./bin/fp OUT=/tmp/o scripts/optimism.sh
set -euo pipefail
cd "$(dirname "$0")/.."
FP=${FP:-./bin/fp}
OUT=${OUT:-results/compas/optimism}
RUN=${RUN:-runs/compas-optimism}
mkdir -p "$OUT"
"$FP" train --dataset compas --splits 20 --select-fraction 0.5 --engine backprop --out "$RUN" --quiet --no-plot >/dev/null
cp "$RUN/records.jsonl" "$RUN/config.json" "$OUT/"
picks="$OUT/picks.ndjson"  # not .jsonl: fp reads every .jsonl of a folder as records
: >"$picks"
for spec in ato:0.005 ato:0.01 ato:0.02 dp:0.008 dp:0.01 dp:0.012; do
  metric=${spec%%:*} bound=${spec#*:}
  for m in $(seq 0 19); do
    for on in test selection; do
      # A bound no candidate of the split meets is recorded as such.
      if out=$("$FP" pick "$RUN" --split "$m" --metric "$metric" --max-unfairness "$bound" \
        --decide-on "$on" --ci-resamples 0 --json 2>/dev/null); then
        # The pick's keys without the overlap summary of every split.
        out=$(python3 -c 'import json, sys; d = json.load(sys.stdin); d.pop("overlap", None); print(json.dumps(d))' <<<"$out")
        printf '{"metric":"%s","bound":%s,"split":%d,"decided_on_arg":"%s","pick":%s}\n' \
          "$metric" "$bound" "$m" "$on" "$out" >>"$picks"
      else
        printf '{"metric":"%s","bound":%s,"split":%d,"decided_on_arg":"%s","pick":null}\n' \
          "$metric" "$bound" "$m" "$on" >>"$picks"
      fi
    done
  done
done
python3 scripts/optimism_summary.py "$picks" "$OUT/records.jsonl" | tee "$OUT/summary.txt"
