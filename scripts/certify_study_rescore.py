#!/usr/bin/env python3
"""Re-score the coverage part of the certify study (scripts/certify_study.sh) with another fp binary,
on the run folders a study left under WORK: each repetition's four fronts are recomputed with
`fp front --ci --json` (the sweeps are not retrained) and its coverage line is written to
OUT/coverage-CELL.jsonl; `scripts/certify_study.py analyse --dir OUT` makes the tables.

    FP=bin/fp WORK=/tmp/certify-study-work OUT=results/certify-study/newcombe CELL=p1-1000 \\
        scripts/certify_study_rescore.py

A repetition whose line is in the output is skipped, so a rerun resumes."""
import importlib.util
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("certify_study", os.path.join(HERE, "certify_study.py"))
cs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cs)

FP = os.path.abspath(os.environ.get("FP", "bin/fp"))
WORK = os.environ.get("WORK", "/tmp/certify-study-work")
OUT = os.environ["OUT"]
CELL = os.environ["CELL"]
REPS = int(os.environ.get("REPS", "100"))
FRONTS = ["ato", "dp", "dp-diff", "eo-diff"]

proc = CELL.split("-")[0]
pop_path = os.path.join(WORK, f"pop-{proc}.csv")
pop = cs.Population(pop_path)
os.makedirs(OUT, exist_ok=True)
out = os.path.join(OUT, f"coverage-{CELL}.jsonl")
done = {json.loads(line)["rep"] for line in open(out)} if os.path.exists(out) else set()
for rep in range(REPS):
    if rep in done:
        continue
    d = os.path.join(WORK, "runs", f"rep-{CELL}", f"rep-{rep:03d}")
    for m in FRONTS:
        with open(os.path.join(d, f"front-{m}.json"), "w") as f:
            subprocess.run([FP, "front", os.path.join(d, "ato"), os.path.join(d, "dp"), "--metric", m, "--ci", "--json"],
                           stdout=f, stderr=subprocess.DEVNULL, check=False)
    row = cs.coverage_row(CELL, rep, d, pop, pop_path, FP, FRONTS, float("nan"))
    with open(out, "a") as f:
        f.write(json.dumps(row) + "\n")
    print(rep, file=sys.stderr, flush=True)
