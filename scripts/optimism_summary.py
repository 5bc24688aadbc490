"""Summarise scripts/optimism.sh's picks: the optimism of a pick.

For each metric and bound U, and each split where both picks exist:
  decided on test rows:      optimism = metric(test rows) - metric(selection rows)
  decided on selection rows: optimism = metric(selection rows) - metric(test rows)
that is, the chosen network's metric on the rows it was chosen on minus the
same on the rows it was not (for risk and for the unfairness metric). Means
over splits with 95% percentile bootstrap intervals (10,000 resamples of the
splits) and, for the paired difference of the two ways, a two-sided
sign-flip permutation p-value (100,000 seeded random sign assignments).

The two halves of a split are exchangeable (drawn alike), so the optimism of
the two ways has one expectation and their difference has expectation zero
by design: it cannot show optimism. The test of optimism is the first table,
both ways pooled: per split the mean of the two ways' optimism, in which the
row effect below cancels (it enters the two with opposite signs), against 0
(the sign-flip p-value).
The test and selection rows of one split differ for every network alike
(one half of the rows may simply show more disparity than the other), so a
second table subtracts from each pick's optimism that split's mean of the
same difference over all its candidates (constant predictors aside): what
is left is what choosing adds. Standard library only.
"""
import json
import random
import sys
from collections import defaultdict


def mean(v):
    return sum(v) / len(v)


def boot(v, rng, n=10000):
    means = sorted(mean([v[rng.randrange(len(v))] for _ in v]) for _ in range(n))
    return means[int(0.025 * n)], means[int(0.975 * n) - 1]


def signflip(d, rng, n=100000):
    obs = abs(mean(d))
    hits = 0
    for _ in range(n):
        s = sum(x if rng.random() < 0.5 else -x for x in d) / len(d)
        if abs(s) >= obs - 1e-15:
            hits += 1
    return (hits + 1) / (n + 1)


def row_effect(records_path):
    """Per split and metric: the mean over the split's non-collapsed
    candidates of metric(test rows) - metric(selection rows)."""
    acc = defaultdict(list)
    for line in open(records_path):
        r = json.loads(line)
        if r.get("status") != "ok" or r.get("collapsed") or "sel_risk" not in r:
            continue
        for what in ("risk", "accuracy", "ato", "dp", "eo", "eopp"):
            acc[(r["split"], what)].append(r[what] - r["sel_" + what])
    return {k: mean(v) for k, v in acc.items()}


def main(path, records_path=None):
    effect = row_effect(records_path) if records_path else None
    picks = defaultdict(dict)  # (metric, bound) -> split -> {on: pick}
    for line in open(path):
        r = json.loads(line)
        picks[(r["metric"], r["bound"])].setdefault(r["split"], {})[r["decided_on_arg"]] = r["pick"]
    rng = random.Random(1)
    print("The optimism of a pick: the chosen network's metric on the rows it was chosen on minus the")
    print("same on the rows it was not, mean over splits [95% bootstrap interval]; 'test' decides on the")
    print("test rows (and fp then shows those), 'selection' on the selection rows (fp shows the test rows).")
    print("diff = test - selection, paired by split; p = sign-flip permutation test. A negative value")
    print("flatters the pick: a lower risk or unfairness on the rows it was chosen on than on the others.")
    print()
    pooled(picks, random.Random(2))  # its own draws: the tables below are as before
    for net in ([False, True] if effect else [False]):
        table(picks, rng, effect if net else None)
    missing = sum(1 for bs in picks.values() for p in bs.values() for v in p.values() if v is None)
    print()
    print(f"picks with no candidate meeting the bound (left out): {missing}")


def pooled(picks, rng):
    """Both ways pooled: per split the mean of the optimism decided on test
    and that decided on selection rows; mean over splits, interval and the
    sign-flip p-value of optimism against none."""
    print()
    print("Both ways pooled (per split the mean of the two ways' optimism; the row effect cancels), against 0:")
    print(f"{'metric':6} {'U':>6} {'n':>3} {'of':>6}  {'optimism, both ways pooled':>30}  {'p':>7}")
    for (metric, bound), by_split in sorted(picks.items()):
        both = {m: p for m, p in by_split.items() if p.get("test") and p.get("selection")}
        for what in ("risk", metric):
            v = []
            for m, p in sorted(both.items()):
                t, s = p["test"], p["selection"]
                v.append(((t[what] - t["sel_" + what]) + (s["sel_" + what] - s[what])) / 2)
            if not v:
                print(f"{what:6} {bound:>6} {0:>3}  no split where both picks meet the bound")
                continue
            lo, hi = boot(v, rng)
            print(f"{what:6} {bound:>6} {len(v):>3} {metric:>6}  {mean(v):+.4f} [{lo:+.4f}, {hi:+.4f}]{'':>6}  {signflip(v, rng):7.4f}")


def table(picks, rng, effect):
    print()
    if effect:
        print("Net of the split's row effect (each split's mean test - selection difference over its candidates):")
    else:
        print("As measured:")
    hdr = f"{'metric':6} {'U':>6} {'n':>3} {'of':>6}  {'optimism, decided on test':>30}  {'decided on selection':>30}  {'diff test - selection':>30}  {'p':>7}  same pick"
    print(hdr)
    for (metric, bound), by_split in sorted(picks.items()):
        both = {m: p for m, p in by_split.items() if p.get("test") and p.get("selection")}
        for what in ("risk", metric):
            ot, os_, same = [], [], 0
            for m, p in sorted(both.items()):
                t, s = p["test"], p["selection"]
                e = effect[(m, what)] if effect else 0.0
                ot.append(t[what] - t["sel_" + what] - e)
                os_.append(s["sel_" + what] - s[what] + e)
                same += t["weights"] == s["weights"]
            if not ot:
                print(f"{what:6} {bound:>6} {0:>3}  no split where both picks meet the bound")
                continue
            d = [a - b for a, b in zip(ot, os_)]
            lo_t, hi_t = boot(ot, rng)
            lo_s, hi_s = boot(os_, rng)
            lo_d, hi_d = boot(d, rng)
            p = signflip(d, rng)
            cell = lambda v, lo, hi: f"{mean(v):+.4f} [{lo:+.4f}, {hi:+.4f}]"
            print(f"{what:6} {bound:>6} {len(ot):>3} {metric:>6}  {cell(ot, lo_t, hi_t):>30}  {cell(os_, lo_s, hi_s):>30}  {cell(d, lo_d, hi_d):>30}  {p:7.4f}  {same}/{len(ot)}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
