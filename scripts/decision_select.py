#!/usr/bin/python3
# Chooses fp's configuration for a fairness notion on the SELECTION rows of the runs of
# scripts/decision.sh, before any comparison looks at their test rows
# (results/fairlearn.md, "Decision metrics: fp and Fairlearn on the same rows").
#
#   scripts/decision_select.py FP OUT.json NOTION=METRIC:RUN[,RUN...] [NOTION=METRIC:RUN,...]
#
# e.g. scripts/decision_select.py bin/fp results/compas/decision/chosen.json \
#        dp=dp-diff:results/compas/decision/cheb-dp-mean,results/compas/decision/cheb-dp-mv
#
# For every run it writes a "selection view" of its records into a temporary folder: each record's
# sel_* metrics (and its selection rows' constant predictor, sel_const_risk and sel_const_error) in
# place of the test metrics, so that fp's own comparison (fp compare, the constant front rule,
# --axis error) measures the runs on the selection rows alone. The run whose mean per-split
# hypervolume in (error, METRIC) is the largest is chosen for NOTION; OUT.json records every run's
# figures, the rows they were judged on and the choice. Nothing here reads a test metric.
import json
import os
import subprocess
import sys
import tempfile

# Test key -> the selection key that replaces it in the view.
SEL = {
    "risk": "sel_risk", "accuracy": "sel_accuracy", "ato": "sel_ato", "dp": "sel_dp", "eo": "sel_eo",
    "eopp": "sel_eopp", "dp_diff": "sel_dp_diff", "dp_ratio": "sel_dp_ratio", "eo_diff": "sel_eo_diff",
    "eopp_diff": "sel_eopp_diff", "const_risk": "sel_const_risk", "const_error": "sel_const_error",
    "single_class": "sel_single_class", "near_constant": "sel_near_constant", "n_test": "n_sel",
}


def records(run):
    files = sorted(f for f in os.listdir(run) if f.startswith("records") and f.endswith(".jsonl"))
    if not files:
        sys.exit(f"decision_select: no records in {run}")
    for f in files:
        with open(os.path.join(run, f)) as fh:
            for line in fh:
                if line.strip():
                    yield json.loads(line)


def view(run, folder):
    """Writes run's selection view to folder/<name>.jsonl and returns its path."""
    name = os.path.basename(run.rstrip("/"))
    path = os.path.join(folder, name + ".jsonl")
    n = 0
    with open(path, "w") as out:
        for r in records(run):
            if r.get("status") != "ok":
                continue
            if "n_sel" not in r:
                sys.exit(f"decision_select: {run} kept no selection rows (fp train --select-fraction)")
            v = {k: val for k, val in r.items() if not k.startswith("sel_") and k != "n_sel"}
            for test, sel in SEL.items():
                v[test] = r.get(sel, False if test in ("single_class", "near_constant") else None)
                if v[test] is None:
                    sys.exit(f"decision_select: {run}: a record lacks {sel}")
            v["collapsed"] = bool(r.get("collapsed")) and bool(r.get("sel_near_constant"))
            # Each run is its own group, named after its folder.
            v["method"], v["penalty"] = name, ""
            out.write(json.dumps(v) + "\n")
            n += 1
    return path, n


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__ or "usage: decision_select.py FP OUT.json NOTION=METRIC:RUN[,RUN...] ...")
    fp, out = sys.argv[1], sys.argv[2]
    result = {"judged_on": "the selection rows of every split (fp train --select-fraction 0.5): "
              "half of each split's test rows, drawn apart; no comparison reports them",
              "rule": "mean per-split hypervolume in (error, metric), constant front rule, every run of a notion "
              "compared at once (fp compare --axis error --decide-on test on the selection view)",
              "notions": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for arg in sys.argv[3:]:
            notion, rest = arg.split("=", 1)
            metric, runs = rest.split(":", 1)
            runs = runs.split(",")
            folder = os.path.join(tmp, notion)
            os.makedirs(folder)
            views, names = [], {}
            for run in runs:
                path, n = view(run, folder)
                views.append(path)
                names[path] = (run, n)
            res = json.loads(subprocess.run([fp, "compare", "--axis", "error", "--decide-on", "test", "--json"] + views,
                                            check=True, capture_output=True, text=True).stdout)
            per = {}
            for row in res["per_split"]:
                if row["metric"] == metric:
                    per.setdefault(row["group"], []).append(row["hypervolume"])
            pooled = {row["group"]: row["hypervolume"] for row in res["pooled"] if row["metric"] == metric}
            table = []
            for path in views:
                run, n = names[path]
                group = next((g for g in per if g.split("/")[0] == os.path.basename(run.rstrip("/"))), None)
                if group is None:
                    sys.exit(f"decision_select: fp compare names no group after {run}: {sorted(per)}")
                hv = per[group]
                table.append({"run": run, "group": group, "candidates": n,
                              "mean_split_hypervolume": sum(hv) / len(hv),
                              "splits": len(hv), "pooled_hypervolume": pooled.get(group)})
            table.sort(key=lambda t: -(t["mean_split_hypervolume"] or 0))
            result["notions"][notion] = {"metric": metric, "runs": table, "chosen": table[0]["run"]}
            print(f"{notion} ({metric}): chosen {table[0]['run']}")
            for t in table:
                print(f"  {t['mean_split_hypervolume']:.4f}  {t['run']}  ({t['group']})")
    with open(out, "w") as fh:
        json.dump(result, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main()
