"""Compare two runs on the objective their networks were trained to minimise.

For each record of an interior lambda (0 < lambda < 1; eval_only records left
out) the training objective is recomputed from the record alone:
  R~ = (train_r - r_min) / (r_max - r_min),  U~ = (train_u - u_min) / (u_max - u_min),
  cheb: max{(1 - lambda) R~, lambda U~},  linear: (1 - lambda) R~ + lambda U~,
on the split's training rows with the split's standardization constants
(docs/method.md §3.4). Records of A and B are paired by (split, lambda).
Printed: the mean of A - B over the pairs with a 95% percentile bootstrap
interval over splits (10,000 seeded resamples of the splits), how many
splits have a larger mean objective in A, and the same by lambda, with the
constant (collapsed) and single-class candidates of each. Training rows
only: nothing here reads a test metric. Standard library only.

Usage: python3 scripts/training_objective.py A B  (records files or run folders)
"""
import glob
import json
import os
import random
import sys
from collections import defaultdict


def load(path):
    """The records of a file, or of every records*.jsonl of a run folder."""
    paths = sorted(glob.glob(os.path.join(path, "records*.jsonl"))) if os.path.isdir(path) else [path]
    if not paths:
        sys.exit(f"{path}: no records*.jsonl")
    out = {}
    for p in paths:
        with open(p) as f:
            lines = f.readlines()
        for line in lines:
            r = json.loads(line)
            if r.get("eval_only") or r.get("status") != "ok" or not 0 < r["lambda"] < 1:
                continue
            out[(r["split"], r["lambda"])] = r
    return out


def objective(r):
    rt = (r["train_r"] - r["r_min"]) / (r["r_max"] - r["r_min"])
    ut = (r["train_u"] - r["u_min"]) / (r["u_max"] - r["u_min"])
    lam = r["lambda"]
    if r["method"] == "linear":
        return (1 - lam) * rt + lam * ut
    return max((1 - lam) * rt, lam * ut)


def mean(v):
    return sum(v) / len(v)


def boot(by_split, rng, n=10000):
    """Percentile interval of the mean over pairs, resampling splits."""
    splits = list(by_split)
    means = []
    for _ in range(n):
        v = []
        for _ in splits:
            v.extend(by_split[splits[rng.randrange(len(splits))]])
        means.append(mean(v))
    means.sort()
    return means[int(0.025 * n)], means[int(0.975 * n) - 1]


def main():
    a, b = load(sys.argv[1]), load(sys.argv[2])
    pairs = sorted(k for k in a if k in b)
    if not pairs:
        sys.exit("no (split, lambda) in common")
    rng = random.Random(1)
    by_split = defaultdict(list)
    for k in pairs:
        by_split[k[0]].append(objective(a[k]) - objective(b[k]))
    lo, hi = boot(by_split, rng)
    worse = sum(1 for v in by_split.values() if mean(v) > 0)
    print(f"A: {sys.argv[1]}\nB: {sys.argv[2]}")
    print(f"{len(pairs)} pairs on {len(by_split)} splits; mean training objective A {mean([objective(a[k]) for k in pairs]):.4f}, "
          f"B {mean([objective(b[k]) for k in pairs]):.4f}")
    print(f"A - B: {mean([d for v in by_split.values() for d in v]):+.4f} [{lo:+.4f}, {hi:+.4f}]; "
          f"A larger on {worse} of {len(by_split)} splits")
    print(f"{'lambda':>10}  {'A - B':>8}  {'95% interval':>18}  A const/1-class  B const/1-class")
    for lam in sorted({k[1] for k in pairs}):
        ks = [k for k in pairs if k[1] == lam]
        per = defaultdict(list)
        for k in ks:
            per[k[0]].append(objective(a[k]) - objective(b[k]))
        lo, hi = boot(per, rng, 2000)
        count = lambda d, key: sum(1 for k in ks if d[k].get(key))
        print(f"{lam:>10.4g}  {mean([objective(a[k]) - objective(b[k]) for k in ks]):+8.4f}  [{lo:+.4f}, {hi:+.4f}]"
              f"  {count(a, 'collapsed'):>5}/{count(a, 'single_class'):<9} {count(b, 'collapsed'):>5}/{count(b, 'single_class')}")


if __name__ == "__main__":
    main()
