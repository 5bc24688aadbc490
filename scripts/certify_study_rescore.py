#!/usr/bin/env python3
"""Re-score the coverage part of the certify study (scripts/certify_study.sh) with another fp binary,
on the run folders a study left under WORK: each repetition's four fronts are recomputed with
`fp front --ci --json` (the sweeps are not retrained) and its coverage line is written to
OUT/coverage-CELL.jsonl; `scripts/certify_study.py analyse --dir OUT` makes the tables.

    FP=bin/fp WORK=/tmp/certify-study-work OUT=results/certify-study/newcombe CELL=p1-1000 \\
        scripts/certify_study_rescore.py

With PICKS=1 the certified picks are redone too: each repetition's six `fp pick --confidence 0.9`
of the study (`scripts/certify_study.sh requirements PROC`) are rerun into REP/rescore-TAG/ (TAG from
OUT's last path element; the point picks are the study's, copied there) and their line is written to
OUT/certify-CELL.jsonl.

REDO (names of the study's requirements, comma-separated; default all) limits the picks redone to
those whose bound the new binary changes; the others' picks are copied from the repetition's
folder FROM (e.g. rescore-rescore-v7), or from the repetition's own picks where it has no such
folder.

A repetition whose line is in the output is skipped, so a rerun resumes."""
import importlib.util
import json
import os
import shutil
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
PICKS = os.environ.get("PICKS") == "1"
reqs = subprocess.run(["bash", os.path.join(HERE, "certify_study.sh"), "requirements", proc], check=True,
                      capture_output=True, text=True).stdout.split("\n")
reqs = [r for r in reqs if r]
cert_out = os.path.join(OUT, f"certify-{CELL}.jsonl")
cert_done = {json.loads(line)["rep"] for line in open(cert_out)} if os.path.exists(cert_out) else set()
tag = "rescore-" + os.path.basename(os.path.normpath(OUT))
REDO = set(os.environ["REDO"].split(",")) if os.environ.get("REDO") else None
FROM = os.environ.get("FROM", "")


def copy(src, dst):
    if os.path.exists(src):
        shutil.copyfile(src, dst)


def redo_picks(rep, d):
    sub = os.path.join(d, tag)
    os.makedirs(sub, exist_ok=True)
    for r in reqs:
        name, flags = r.split("|", 1)
        for ext in (".json", ".err"):
            copy(os.path.join(d, f"pick-{name}-point{ext}"), os.path.join(sub, f"pick-{name}-point{ext}"))
        if REDO is not None and name not in REDO:
            old = os.path.join(d, FROM) if FROM and os.path.isdir(os.path.join(d, FROM)) else d
            for ext in (".json", ".err"):
                copy(os.path.join(old, f"pick-{name}-cert{ext}"), os.path.join(sub, f"pick-{name}-cert{ext}"))
            continue
        with open(os.path.join(sub, f"pick-{name}-cert.json"), "w") as f, \
                open(os.path.join(sub, f"pick-{name}-cert.err"), "w") as e:
            subprocess.run([FP, "pick", os.path.join(d, "ato"), os.path.join(d, "dp"), *flags.split(),
                            "--confidence", "0.9", "--ci-resamples", "0", "--json"], stdout=f, stderr=e, check=False)
    with open(cert_out, "a") as f:
        f.write(json.dumps(cs.pick_row(CELL, rep, sub, pop, reqs, float("nan"))) + "\n")


for rep in range(REPS):
    d = os.path.join(WORK, "runs", f"rep-{CELL}", f"rep-{rep:03d}")
    if PICKS and rep not in cert_done:
        redo_picks(rep, d)
    if rep in done:
        continue
    for m in FRONTS:
        with open(os.path.join(d, f"front-{m}.json"), "w") as f:
            subprocess.run([FP, "front", os.path.join(d, "ato"), os.path.join(d, "dp"), "--metric", m, "--ci", "--json"],
                           stdout=f, stderr=subprocess.DEVNULL, check=False)
    row = cs.coverage_row(CELL, rep, d, pop, pop_path, FP, FRONTS, float("nan"))
    with open(out, "a") as f:
        f.write(json.dumps(row) + "\n")
    print(rep, file=sys.stderr, flush=True)
