#!/usr/bin/python3
# The test-row comparison of fp's chosen configurations with Fairlearn's methods
# (results/fairlearn.md, "Decision metrics: fp and Fairlearn on the same rows").
#
#   scripts/decision_compare.py FP DATASET_DIR [CHOSEN OUT]
#
# DATASET_DIR is results/<dataset>/decision: the fp runs of scripts/decision.sh, Fairlearn's records
# in fairlearn/<method>/, and chosen.json (scripts/decision_select.py: fp's configuration for each
# notion, chosen on the selection rows). Writes DATASET_DIR/comparison.json and prints a summary;
# CHOSEN and OUT name another choice file and output (for a configuration compared on its own).
#
# Every hypervolume comparison is fp's own (fp compare: the constant front rule of docs/method.md
# §8.2, per-split paired differences with a 95% bootstrap interval and a Wilcoxon signed-rank p),
# with every method of the notion compared at once, its fronts chosen on the selection rows and
# measured on the test rows (fp compare's default for records that carry selection rows). Each is
# run twice: with every candidate, and without the degenerate ones (constant, near-constant or
# one-class on the selection rows or the test rows) of every method.
#
# "Best accuracy at dp_diff ≤ c": on each split, each method's candidate of the highest accuracy
# among those with dp_diff ≤ c, both on the SELECTION rows; its TEST accuracy is reported. A
# method with no such candidate falls back to the constant predictor (accuracy 1 − const_error,
# dp_diff 0), which every method can output. The paired differences fp − method over the splits get
# a 95% percentile bootstrap interval of their mean (10,000 resamples, seed 1) and a two-sided
# Wilcoxon signed-rank p (scipy, exact). The same with the choice made on the test rows themselves
# (an oracle no user has) is reported beside it, labelled.
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from scipy import stats

NOTIONS = {
    # notion: (decision metric, score metric, Fairlearn methods, accuracy bounds)
    "dp": ("dp-diff", "dp", ["fairlearn-lr", "fairlearn-expgrad-dp", "fairlearn-grid-dp", "fairlearn-threshold-dp-uses-a"],
           [0.05, 0.10]),
    "eo": ("eo-diff", "eo", ["fairlearn-lr", "fairlearn-expgrad-eo", "fairlearn-grid-eo", "fairlearn-threshold-eo-uses-a"],
           [0.10]),
}
KEY = {"dp-diff": "dp_diff", "eo-diff": "eo_diff"}


def records(path):
    files = [path] if path.endswith(".jsonl") else sorted(
        os.path.join(path, f) for f in os.listdir(path) if f.startswith("records") and f.endswith(".jsonl"))
    out = []
    for f in files:
        with open(f) as fh:
            out += [json.loads(l) for l in fh if l.strip()]
    return [r for r in out if r.get("status") == "ok"]


def degenerate(r):
    return (r.get("collapsed") or r.get("single_class") or r.get("near_constant")
            or r.get("sel_single_class") or r.get("sel_near_constant"))


def fp_compare(fp, paths, axis, drop_degenerate):
    with tempfile.TemporaryDirectory() as tmp:
        args = []
        for i, p in enumerate(paths):
            recs = records(p)
            if drop_degenerate:
                recs = [r for r in recs if not degenerate(r)]
            name = os.path.basename(p.rstrip("/"))
            f = os.path.join(tmp, f"{i:02d}-{name}.jsonl")
            with open(f, "w") as fh:
                for r in recs:
                    fh.write(json.dumps(r) + "\n")
            args.append(f)
        out = subprocess.run([fp, "compare", "--axis", axis, "--json"] + args, capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"decision_compare: fp compare {axis}: {out.stderr.strip()}")
        return json.loads(out.stdout)


def paired_rows(res, metric, fp_group):
    rows = []
    for p in res["paired"]:
        if p["metric"] != metric or fp_group not in (p["a"], p["b"]):
            continue
        sign = 1 if p["a"] == fp_group else -1
        other = p["b"] if sign == 1 else p["a"]
        lo, hi = sign * p["ci_low"], sign * p["ci_high"]
        rows.append({"against": other, "mean": sign * p["hv_diff_mean"], "ci": [min(lo, hi), max(lo, hi)],
                     "p": p["p_value"], "fp_wins": p["a_wins"] if sign == 1 else p["splits"] - p["a_wins"],
                     "splits": p["splits"]})
    return rows


def fp_group_of(res, metric, fairlearn):
    groups = {r["group"] for r in res["pooled"] if r["metric"] == metric}
    fp = [g for g in groups if not any(m in g for m in fairlearn)]
    if len(fp) != 1:
        sys.exit(f"decision_compare: cannot tell fp's group among {sorted(groups)}")
    return fp[0]


def best_accuracy(recs, key, bound, rows):
    """Per split: test accuracy (and the candidate's test key) of the best candidate under the bound,
    chosen on `rows` ('selection' or 'test')."""
    pre = "sel_" if rows == "selection" else ""
    out = {}
    for r in recs:
        m = r["split"]
        if r.get(pre + key) is None:
            continue
        if r[pre + key] <= bound:
            cur = out.get(m)
            if cur is None or r[pre + "accuracy"] > cur[0]:
                out[m] = (r[pre + "accuracy"], r["accuracy"], r[key])
    const = {}
    for r in recs:
        ce = r.get(pre + "const_error") if rows == "selection" else r.get("const_error")
        if ce is not None:
            const[r["split"]] = 1 - ce
    res = {}
    for m in sorted(const):
        if m in out and out[m][0] >= const[m]:
            res[m] = out[m][1]
        else:
            res[m] = 1 - next(r["const_error"] for r in recs if r["split"] == m)
    return res


def paired_stats(a, b, seed=1):
    splits = sorted(set(a) & set(b))
    d = np.array([a[m] - b[m] for m in splits])
    rng = np.random.default_rng(seed)
    means = d[rng.integers(0, len(d), size=(10000, len(d)))].mean(axis=1)
    lo, hi = np.percentile(means, [2.5, 97.5])
    p = 1.0 if np.all(d == 0) else float(stats.wilcoxon(d, zero_method="wilcox", alternative="two-sided").pvalue)
    return {"mean": float(d.mean()), "ci": [float(lo), float(hi)], "p": p, "fp_wins": int((d > 0).sum()),
            "splits": len(d), "fp_mean_accuracy": float(np.mean([a[m] for m in splits])),
            "other_mean_accuracy": float(np.mean([b[m] for m in splits]))}


def main():
    fp, base = sys.argv[1], sys.argv[2].rstrip("/")
    chosen_path = sys.argv[3] if len(sys.argv) > 3 else os.path.join(base, "chosen.json")
    out_path = sys.argv[4] if len(sys.argv) > 4 else os.path.join(base, "comparison.json")
    with open(chosen_path) as fh:
        chosen = json.load(fh)
    out = {"dataset_dir": base, "chosen": {n: chosen["notions"][n]["chosen"] for n in chosen["notions"]}, "notions": {}}
    for notion, (dmetric, smetric, methods, bounds) in NOTIONS.items():
        if notion not in chosen["notions"]:
            continue
        run = chosen["notions"][notion]["chosen"]
        fl = [os.path.join(base, "fairlearn", m) for m in methods if os.path.isdir(os.path.join(base, "fairlearn", m))]
        res_n = {"fp": run}
        for drop in (False, True):
            tag = "without_degenerate" if drop else "all"
            err = fp_compare(fp, [run] + fl, "error", drop)
            g = fp_group_of(err, dmetric, methods)
            res_n[f"error_{dmetric}_{tag}"] = paired_rows(err, dmetric, g)
            # The risk plane: only the methods whose outputs are probabilities.
            probs = [p for p in fl if os.path.basename(p) in ("fairlearn-lr", f"fairlearn-grid-{notion}")]
            risk = fp_compare(fp, [run] + probs, "risk", drop)
            res_n[f"risk_{smetric}_{tag}"] = paired_rows(risk, smetric, fp_group_of(risk, smetric, methods))
        fprecs = records(run)
        key = KEY[dmetric]
        for bound in bounds:
            for rows in ("selection", "test"):
                mine = best_accuracy(fprecs, key, bound, rows)
                rows_out = []
                for p in fl:
                    theirs = best_accuracy(records(p), key, bound, rows)
                    st = paired_stats(mine, theirs)
                    st["against"] = os.path.basename(p)
                    rows_out.append(st)
                res_n[f"accuracy_at_{key}_{bound}_chosen_on_{rows}"] = rows_out
        out["notions"][notion] = res_n
    # ATO (the paper's notion), fp's default configuration against the reductions.
    default = os.path.join(base, "cheb-ato-penultimate")
    if os.path.isdir(default):
        fl = [os.path.join(base, "fairlearn", m) for m in ("fairlearn-grid-dp", "fairlearn-expgrad-dp", "fairlearn-lr")
              if os.path.isdir(os.path.join(base, "fairlearn", m))]
        for drop in (False, True):
            tag = "without_degenerate" if drop else "all"
            res = fp_compare(fp, [default] + fl, "risk", drop)
            out[f"ato_risk_{tag}"] = paired_rows(res, "ato", fp_group_of(res, "ato", ["fairlearn-"]))
    with open(out_path, "w") as fh:
        json.dump(out, fh, indent=1)
        fh.write("\n")
    # Summary.
    for notion, res_n in out["notions"].items():
        print(f"== {notion}: fp = {res_n['fp']}")
        for k, rows in res_n.items():
            if k == "fp":
                continue
            print(f"  {k}")
            for r in rows:
                print(f"    vs {r['against']:32s} {r['mean']:+.4f} [{r['ci'][0]:+.4f}, {r['ci'][1]:+.4f}] p={r['p']:.3g} "
                      f"fp wins {r['fp_wins']}/{r['splits']}" + (f"  (acc fp {r['fp_mean_accuracy']:.4f}, other {r['other_mean_accuracy']:.4f})" if "fp_mean_accuracy" in r else ""))
    for tag in ("all", "without_degenerate"):
        if f"ato_risk_{tag}" in out:
            print(f"== (risk, ato), fp default, {tag}")
            for r in out[f"ato_risk_{tag}"]:
                print(f"    vs {r['against']:32s} {r['mean']:+.4f} [{r['ci'][0]:+.4f}, {r['ci'][1]:+.4f}] p={r['p']:.3g} fp wins {r['fp_wins']}/{r['splits']}")


if __name__ == "__main__":
    main()
