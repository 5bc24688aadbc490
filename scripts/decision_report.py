#!/usr/bin/python3
# Prints the tables of results/fairlearn.md's "Decision metrics: fp and Fairlearn on the same rows"
# from results/<dataset>/decision/chosen.json (scripts/decision_select.py) and comparison.json
# (scripts/decision_compare.py), and chosen-val.json and comparison-val.json where the held-out-
# stopping runs were compared, as Markdown, so that the page quotes the files as they are.
#
#   scripts/decision_report.py results/compas/decision [results/adult-sex/decision ...]
#
# Multiplicity: the targets' tests of one dataset (every paired row below that is marked "target")
# form one family; each gets Holm's adjusted p beside its own.
import json
import os
import sys

TARGETS = {
    # (notion, key prefix) -> which rows are targets (against methods that do not use a at prediction time)
    "error": lambda r: not r["against"].endswith("-uses-a") and r["against"] != "fairlearn-lr",
    "risk": lambda r: r["against"] != "fairlearn-lr",
    "accuracy": lambda r: "expgrad" in r["against"],
}


def holm(ps):
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    adj = [0.0] * len(ps)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(ps) - rank) * ps[i]))
        adj[i] = running
    return adj


def main():
    for base in sys.argv[1:]:
        base = base.rstrip("/")
        report(base, base.split("/")[-2], "")
        if os.path.exists(os.path.join(base, "comparison-val.json")):
            report(base, base.split("/")[-2] + ", held-out stopping", "-val")


def report(base, name, suffix):
    chosen = json.load(open(os.path.join(base, f"chosen{suffix}.json")))
    comp = json.load(open(os.path.join(base, f"comparison{suffix}.json")))
    print(f"#### {name}: the variants on the selection rows\n")
    for notion, n in chosen["notions"].items():
        print(f"{notion.upper()} (`{n['metric']}`), mean per-split hypervolume in (error, {n['metric']}) on the selection rows:\n")
        print("| run | candidates | splits | hypervolume |\n|---|---|---|---|")
        for t in n["runs"]:
            mark = " (chosen)" if t["run"] == n["chosen"] else ""
            print(f"| `{os.path.basename(t['run'])}`{mark} | {t['candidates']} | {t['splits']} | {t['mean_split_hypervolume']:.4f} |")
        print()
    # Collect the targets' p-values for Holm.
    fam = []
    for notion, res in comp["notions"].items():
        for key, rows in res.items():
            if key == "fp" or "without_degenerate" in key or "chosen_on_test" in key:
                continue
            kind = key.split("_")[0]
            for r in rows:
                if TARGETS[kind](r):
                    fam.append((notion, key, r["against"], r["p"]))
    for r in comp.get("ato_risk_all", []):
        if r["against"] != "fairlearn-lr":
            fam.append(("ato", "ato_risk_all", r["against"], r["p"]))
    adj = dict(((n, k, a), p) for (n, k, a, _), p in zip(fam, holm([f[3] for f in fam])))
    print(f"#### {name}: fp's chosen configuration against Fairlearn on the test rows\n")
    print(f"fp − Fairlearn, paired over the splits; Holm's adjustment over the {len(fam)} target tests of {name} "
          "(the rows with a Holm p). The full tables, and the best accuracy with the candidate chosen on the "
          f"test rows, are in comparison{suffix}.json.\n")
    for notion, res in comp["notions"].items():
        m = "dp_diff" if notion == "dp" else "eo_diff"
        print(f"**{notion.upper()}: fp = `{os.path.basename(res['fp'])}`**\n")
        print("| plane or measure | against | mean [95% interval] | p | fp wins | Holm p | mean without degenerate candidates |")
        print("|---|---|---|---|---|---|---|")
        for plane, metric in (("error", f"{notion}-diff"), ("risk", notion)):
            key = f"{plane}_{metric}_all"
            wd = {r["against"]: r for r in res[f"{plane}_{metric}_without_degenerate"]}
            for r in res[key]:
                a = adj.get((notion, key, r["against"]))
                shown = m if plane == "error" else notion
                print(f"| ({plane}, `{shown}`) | {SHORT[r['against']]} | {cells(r, a)} | {wd[r['against']]['mean']:+.4f} |")
        for key, rows in res.items():
            if key.startswith("accuracy") and key.endswith("selection"):
                bound = key.split("_")[-4]
                for r in rows:
                    a = adj.get((notion, key, r["against"]))
                    print(f"| accuracy at `{m}` ≤ {bound} | {SHORT[r['against']]} ({r['fp_mean_accuracy']:.3f} vs "
                          f"{r['other_mean_accuracy']:.3f}) | {cells(r, a)} | – |")
        print()
    if "ato_risk_all" in comp:
        print("**ATO: fp's default `cheb-ato-penultimate`** in (risk, `ato`)\n")
        print("| against | mean [95% interval] | p | fp wins | Holm p | mean without degenerate candidates |")
        print("|---|---|---|---|---|---|")
        wd = {r["against"]: r for r in comp.get("ato_risk_without_degenerate", [])}
        for r in comp["ato_risk_all"]:
            a = adj.get(("ato", "ato_risk_all", r["against"]))
            print(f"| {SHORT[r['against']]} | {cells(r, a)} | {wd[r['against']]['mean']:+.4f} |")
        print()


SHORT = {"fairlearn-lr": "LogisticRegression", "fairlearn-expgrad-dp": "ExponentiatedGradient(DP)",
         "fairlearn-grid-dp": "GridSearch(DP)", "fairlearn-threshold-dp-uses-a": "ThresholdOptimizer(DP), uses a",
         "fairlearn-expgrad-eo": "ExponentiatedGradient(EO)", "fairlearn-grid-eo": "GridSearch(EO)",
         "fairlearn-threshold-eo-uses-a": "ThresholdOptimizer(EO), uses a"}


def cells(r, holm_p):
    h = f"{holm_p:.2g}" if holm_p is not None else "–"
    return f"{r['mean']:+.4f} [{r['ci'][0]:+.4f}, {r['ci'][1]:+.4f}] | {r['p']:.2g} | {r['fp_wins']}/{r['splits']} | {h}"


if __name__ == "__main__":
    main()
