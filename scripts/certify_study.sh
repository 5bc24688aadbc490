#!/usr/bin/env bash
# Synthetic study of fp's 95% intervals and certified picks on two processes whose population is
# known (docs/reproduction.md, "Intervals and certified picks on a known population").
#
#   scripts/certify_study.sh pilot [CELL...]     the pilot the certification bounds were set on
#   scripts/certify_study.sh study [CELL...]     the study: REPS repetitions per cell
#   scripts/certify_study.sh analyse             the tables: results/certify-study/summary.md
#
# CELL is PROCESS-N: p1-1000, p1-5000, p2-1000 or p2-5000 (default: all four; the two n = 5,000
# cells first, so that JOBS = 2 keeps both cores busy to the end). A repetition draws n fresh rows
# from the process (seed from process, n and rep; the pilot's from seeds of their own), trains two
# sweeps on them (the CSV protocol: 1 split, half of the test rows kept as selection rows), and
#   study: records in results/certify-study/coverage-CELL.jsonl every non-degenerate candidate of
#          the pooled fronts of ato, dp, dp-diff and eo-diff (fp front --ci --json) with its test
#          metrics, 95% intervals and population values, and in certify-CELL.jsonl, for each
#          requirement, fp pick without and with --confidence 0.9 and the population value of
#          each pick's metric;
#   pilot: records in pilot-CELL.jsonl the point picks at a grid of bounds (pilot.md).
# A repetition whose line is there is skipped, so a rerun resumes where it stopped; each line is
# appended whole by one write. Data, runs and networks live under WORK (never committed).
#
# Environment: FP (default bin/fp), WORK (default /tmp/certify-study-work), REPS (default 100),
# FIRST (first rep, default 0), JOBS (cells run at once, default 2), PY (default /usr/bin/python3),
# OUT (where the records go, default results/certify-study).
set -euo pipefail
cd "$(dirname "$0")/.."
FP=${FP:-bin/fp}
WORK=${WORK:-/tmp/certify-study-work}
REPS=${REPS:-100}
FIRST=${FIRST:-0}
JOBS=${JOBS:-2}
PY=${PY:-/usr/bin/python3}
OUT=${OUT:-results/certify-study}
STUDY=scripts/certify_study.py
# The two sweeps of a repetition. Their λ lie where the networks move from the unconstrained one to
# a single class (docs/reproduction.md): beyond them every network predicts one class.
ATO_FLAGS=${ATO_FLAGS:-"--penalty ato-output --lambdas 0.1,0.2,0.25,0.3,0.4"}
DP_FLAGS=${DP_FLAGS:-"--penalty dp-rate --lambdas 0.02,0.04,0.06,0.09,0.13"}
FRONTS="ato dp dp-diff eo-diff"
mkdir -p "$OUT" "$WORK"
FP=$(realpath "$FP")

part=${1:?usage: scripts/certify_study.sh pilot|study|analyse [CELL...]}
shift

train() { # train DATA RUN SEED [FLAGS...]
	local data=$1 run=$2 seed=$3
	shift 3
	"$FP" train --data "$data" --target y --sensitive a --splits 1 --epochs 200 --engine backprop \
		--seed "$seed" --workers 1 --quiet --no-plot "$@" --out "$run" >"$run.log" 2>&1
}

population() { # population PROC: the population's file (200,000 rows, its own seed)
	local f=$WORK/pop-$1.csv
	[ -s "$f" ] || "$PY" $STUDY population "$1" "$f"
	echo "$f"
}

# The requirements of the study: name|fp pick flags, set on the pilot (results/certify-study/pilot.md).
requirements() { # requirements PROC
	local dp=0.001 acc=0.73
	[ "$1" = p2 ] && dp=0.01 acc=0.72
	echo "dp-diff|--metric dp-diff --max-unfairness 0.1"
	echo "ratio|--min-ratio 0.8"
	echo "ato|--metric ato --max-unfairness 0.01"
	echo "dp|--metric dp --max-unfairness $dp"
	echo "accuracy|--min-accuracy $acc"
	echo "eo-diff|--metric eo-diff --max-unfairness 0.1"
}

# The pilot's grid of bounds.
pilot_requirements() { # pilot_requirements PROC
	local b
	for b in 0.03 0.05 0.1 0.15 0.2; do echo "dp-diff-$b|--metric dp-diff --max-unfairness $b"; done
	for b in 0.7 0.8 0.9; do echo "ratio-$b|--min-ratio $b"; done
	for b in 0.005 0.01 0.02; do echo "ato-$b|--metric ato --max-unfairness $b"; done
	for b in 0.0005 0.001 0.002 0.006 0.008 0.01 0.012; do echo "dp-$b|--metric dp --max-unfairness $b"; done
	for b in 0.69 0.70 0.71 0.72 0.73 0.74; do echo "accuracy-$b|--min-accuracy $b"; done
	for b in 0.05 0.1 0.15 0.2; do echo "eo-diff-$b|--metric eo-diff --max-unfairness $b"; done
}

# rep CELL REP PART: one repetition.
rep() {
	local cell=$1 rep=$2 part=$3
	local proc=${cell%-*} n=${cell#*-} t0=$SECONDS
	local tag=rep reqs=requirements
	if [ "$part" = pilot ]; then
		tag=pilot
		reqs=pilot_requirements
	fi
	local dir
	dir=$WORK/runs/$tag-$cell/rep-$(printf %03d "$rep")
	mkdir -p "$dir"
	[ -s "$dir/rep.csv" ] || "$PY" $STUDY gen "$proc" "$n" "$tag$rep" "$dir/rep.csv"
	local seed=$((rep + 1))
	# shellcheck disable=SC2086
	train "$dir/rep.csv" "$dir/ato" "$seed" $ATO_FLAGS
	# shellcheck disable=SC2086
	train "$dir/rep.csv" "$dir/dp" "$seed" $DP_FLAGS
	if [ "$part" = study ]; then
		for m in $FRONTS; do
			"$FP" front "$dir/ato" "$dir/dp" --metric "$m" --ci --json >"$dir/front-$m.json" 2>"$dir/front-$m.err" || true
		done
	fi
	rm -f "$dir"/pick-*.json
	while IFS='|' read -r name flags; do
		# The point pick needs no intervals (--ci-resamples 0); its rc is 1 when nothing meets the bound.
		# shellcheck disable=SC2086
		"$FP" pick "$dir/ato" "$dir/dp" $flags --ci-resamples 0 --json >"$dir/pick-$name-point.json" 2>"$dir/pick-$name-point.err" || true
		if [ "$part" = study ]; then
			# shellcheck disable=SC2086
			"$FP" pick "$dir/ato" "$dir/dp" $flags --confidence 0.9 --ci-resamples 0 --json >"$dir/pick-$name-cert.json" 2>"$dir/pick-$name-cert.err" || true
		fi
	done < <($reqs "$proc")
	local pop
	pop=$(population "$proc")
	local reqlist
	reqlist=$($reqs "$proc" | tr '\n' ';')
	if [ "$part" = study ]; then
		"$PY" $STUDY rep-rows "$cell" "$rep" "$dir" "$pop" "$OUT" --fp "$FP" --requirements "$reqlist" \
			--fronts "$FRONTS" --seconds $((SECONDS - t0))
	else
		"$PY" $STUDY pick-row "$cell" "$rep" "$dir" "$pop" "$OUT/pilot-$cell.jsonl" --requirements "$reqlist" \
			--seconds $((SECONDS - t0))
	fi
}

cell_loop() { # cell_loop PART CELL
	local part=$1 cell=$2 r file
	case $cell in p1-1000 | p1-5000 | p2-1000 | p2-5000) ;; *)
		echo "certify_study.sh: cell $cell: want p1-1000, p1-5000, p2-1000 or p2-5000" >&2
		return 2
		;;
	esac
	file=$OUT/certify-$cell.jsonl
	[ "$part" = pilot ] && file=$OUT/pilot-$cell.jsonl
	population "${cell%-*}" >/dev/null
	local done
	done=$("$PY" $STUDY done "$file")
	for ((r = FIRST; r < FIRST + REPS; r++)); do
		case " $done " in *" $r "*) continue ;; esac
		rep "$cell" "$r" "$part"
	done
	echo "== $part $cell reps $FIRST..$((FIRST + REPS - 1)) done ($(date -u +%H:%M:%S))"
}

case $part in
analyse)
	"$PY" $STUDY pilot --dir "$OUT" >/dev/null
	exec "$PY" $STUDY analyse --dir "$OUT"
	;;
requirements)
	# requirements PROC: the study's requirements, NAME|FLAGS per line (for the re-score).
	requirements "${1:?usage: scripts/certify_study.sh requirements p1|p2}"
	;;
study | pilot)
	[ $# -gt 0 ] || set -- p1-5000 p2-5000 p1-1000 p2-1000
	export -f cell_loop rep train population requirements pilot_requirements
	export FP WORK REPS FIRST PY OUT STUDY ATO_FLAGS DP_FLAGS FRONTS
	printf '%s\n' "$@" | xargs -P "$JOBS" -I{} bash -c 'cell_loop "$0" "$1"' "$part" {}
	;;
*)
	echo "certify_study.sh: unknown part $part" >&2
	exit 2
	;;
esac
