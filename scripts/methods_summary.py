#!/usr/bin/python3
# The best accuracy each family of methods reaches under a bound on a decision gap, on the splits
# of scripts/methods.sh (results/DATASET/methods) beside the penalty sweeps of the decision study
# and Fairlearn's methods on the same rows (results/DATASET/decision).
#
#   scripts/methods_summary.py DATASET_DIR
#
# DATASET_DIR is results/<dataset>. On each split, each method's candidate of the highest accuracy
# among those whose gap (dp_diff or eo_diff) is within the bound, both on the SELECTION rows; its
# TEST accuracy and gap are reported. A method with no such candidate falls back to the constant
# predictor (accuracy 1 − const_error, gap 0), which every method can output. Means over the splits
# get a 95% percentile bootstrap interval (10,000 resamples of the splits, seed 1); so does the
# paired difference between the best method that does not use the sensitive attribute at
# prediction time and the best that does. Every method is taken on the splits of the methods' own
# runs (results/DATASET/methods/base), which may be fewer than the decision study's.
import json
import os
import sys

import numpy as np

BOUNDS = {"dp": ("dp_diff", 0.05), "eo": ("eo_diff", 0.10)}


def records(path):
    out = []
    for name in sorted(os.listdir(path)):
        if name.endswith(".jsonl"):
            with open(os.path.join(path, name)) as f:
                out += [json.loads(l) for l in f if l.strip()]
    return [r for r in out if r.get("status") == "ok"]


def best(recs, key, bound):
    """Per split: (test accuracy, test gap) of the candidate chosen on the selection rows."""
    by = {}
    for r in recs:
        by.setdefault(r["split"], []).append(r)
    out = {}
    for m, rs in sorted(by.items()):
        ok = [r for r in rs if r["sel_" + key] <= bound]
        if ok:
            r = max(ok, key=lambda r: r["sel_accuracy"])
            out[m] = (r["accuracy"], r[key], False)
        else:
            out[m] = (1 - rs[0]["const_error"], 0.0, True)
    return out


def interval(v, seed=1):
    v = np.asarray(v)
    rng = np.random.default_rng(seed)
    means = v[rng.integers(0, len(v), (10000, len(v)))].mean(axis=1)
    return v.mean(), np.percentile(means, 2.5), np.percentile(means, 97.5)


def main():
    root = sys.argv[1]
    dec, meth = os.path.join(root, "decision"), os.path.join(root, "methods")
    # Every method on the splits the methods' runs have (a smaller run than the decision study's
    # is compared on its splits only).
    splits = {r["split"] for r in records(os.path.join(meth, "base"))}
    # The paired difference is between the best method without the sensitive attribute and the
    # best with it among the methods that hold every split (a method run on fewer splits is shown
    # on its own splits, and its mean is not comparable with the others').
    for notion, (key, bound) in BOUNDS.items():
        methods = {
            "penalty cheb %s-mean (fp)" % notion: (os.path.join(dec, "cheb-%s-mean" % notion), False),
            "reductions %s (fp)" % notion: (os.path.join(meth, "reductions-" + notion), False),
            "λ = 0 network (fp)": (os.path.join(meth, "base"), False),
            "thresholds %s (fp)" % notion: (os.path.join(meth, "thresholds-" + notion), True),
            "Fairlearn GridSearch %s" % notion: (os.path.join(dec, "fairlearn", "fairlearn-grid-" + notion), False),
            "Fairlearn ExponentiatedGradient %s" % notion: (os.path.join(dec, "fairlearn", "fairlearn-expgrad-" + notion), False),
            "Fairlearn ThresholdOptimizer %s" % notion: (os.path.join(dec, "fairlearn", "fairlearn-threshold-%s-uses-a" % notion), True),
        }
        print("%s ≤ %g (chosen on the selection rows, test rows shown; mean over splits [95%% interval])" % (key, bound))
        print("%-40s %-6s %-7s %-28s %-10s %s" % ("method", "uses a", "splits", "accuracy", key, "fallbacks"))
        res = {}
        for name, (path, uses) in methods.items():
            if not os.path.isdir(path):
                continue
            recs = [r for r in records(path) if "sel_" + key in r and r["split"] in splits]
            if name.startswith("λ = 0"):
                recs = [r for r in recs if r["lambda"] == 0]
            if not recs:
                continue
            b = best(recs, key, bound)
            res[name] = (b, uses)
            acc = [v[0] for v in b.values()]
            m, lo, hi = interval(acc)
            print("%-40s %-6s %-7d %.3f [%.3f, %.3f]         %.3f      %d" % (
                name, "yes" if uses else "no", len(b), m, lo, hi, np.mean([v[1] for v in b.values()]),
                sum(v[2] for v in b.values())))
        full = {k: v for k, v in res.items() if "(fp)" in k and set(v[0]) == splits}
        fp_no = {k: v for k, v in full.items() if not v[1]}
        fp_yes = {k: v for k, v in full.items() if v[1]}
        for k, v in res.items():
            if "(fp)" in k and k not in full:
                print("  (%s: %d of the %d splits, left out of the paired difference)" % (k, len(v[0]), len(splits)))
        if fp_no and fp_yes:
            a = max(fp_no, key=lambda k: np.mean([x[0] for x in fp_no[k][0].values()]))
            b = max(fp_yes, key=lambda k: np.mean([x[0] for x in fp_yes[k][0].values()]))
            d = [fp_yes[b][0][s][0] - fp_no[a][0][s][0] for s in sorted(splits)]
            m, lo, hi = interval(d)
            print("paired, %d splits: %s − %s: %+.3f [%+.3f, %+.3f]" % (len(splits), b, a, m, lo, hi))
        print()


if __name__ == "__main__":
    main()
