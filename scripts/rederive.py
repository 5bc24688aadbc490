"""Re-derive every committed paired comparison under fp's front rule.

Every committed compare-*.json under results/ was written with the paper's
protocol (`fp compare --front-rule minmax`). This script reruns `fp compare
--json` on the same record files, in the order the scripts that wrote them
gave them (A = the first, B = the second), twice:

  constant  fp's rule (docs/method/front.md §8.4): per split, the risk axis
            from the best compared candidate (0) to the constant predictor at
            the training base rate (1), the unfairness axis from 0 to the
            largest value, the constant predictor added to every front;
  minmax    the paper's protocol again: the second normalisation; its means
            are checked against the committed files (up to the sign, where
            the committed file put the groups the other way round);

and a third time under fp's rule at a second reference point, (1.01, 1.01)
instead of (1.1, 1.1), where the extremes of each front bound almost no
area. A verdict is fragile when it differs between fp's rule and either
the paper's protocol or the second reference point.

Records written before fp recorded `const_risk` get it here: the split is
stratified by y, so the constant predictor's test risk depends only on the
class counts of the train and test rows, and it is taken from the committed
records of the same rows, seed and split sizes that carry it (adult-race's
paper preset has adult-sex's 30,940 rows and labels: the same value,
0.5539831861). The records are copied to a scratch folder with the same
relative paths, so the groups are named as in the committed files.

A verdict is the group whose hypervolume is larger when p < 0.05, else
"none"; a verdict "survives" when also q < 0.05, q being the
Benjamini–Hochberg q-value over the family of every paired test of the
section's comparison files (the results page they belong to) under the
constant rule (and, for the committed figures, q over the same family of
their p-values). Writes, under OUT (default results/rederived):

  verdicts.tsv    one row per paired test: the committed (minmax) figures and
                  verdict, the constant rule's at both reference points, q
                  within the file (fp's) and within the section, and whether
                  the verdict changed or is fragile;
  constant/…json  the constant rule's `fp compare --json` of each file;
  summary.md      per section the family and the counts;
  headlines.md    the headline verdicts under the three;
  changed.md      the verdicts that changed, old, new and why.

Usage: /usr/bin/python3 scripts/rederive.py FP [OUT]   (FP: an fp binary)
Standard library only.
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

SECTIONS = {
    "compas": "results/compas.md",
    "groups": "results/groups.md",
    "adult": "results/adult.md",
    "conditioned": "results/conditioned.md",
}


def manifest():
    """(section, committed json, inputs, stripped) of every comparison;
    stripped names the inputs whose degenerate interior candidates are left
    out first (scripts/without_degenerate.py)."""
    out = []
    c = "results/compas"
    questions = {
        "methods-ato-penultimate": "cheb-ato-penultimate linear-ato-penultimate",
        "methods-ato-all": "cheb-ato-all linear-ato-all",
        "methods-ato-penultimate-normalized": "cheb-ato-penultimate-normalized linear-ato-penultimate-normalized",
        "methods-ato-output": "cheb-ato-output linear-ato-output",
        "penalties-cheb": "cheb-ato-penultimate cheb-ato-all cheb-ato-penultimate-normalized cheb-ato-output",
        "grids-cheb": "cheb-ato-penultimate cheb-ato-penultimate-linear15 cheb-ato-penultimate-adaptive15",
        "grids-linear": "linear-ato-penultimate linear-ato-penultimate-linear15",
        "grids-cheb-ato-output": "cheb-ato-output cheb-ato-output-linear15 cheb-ato-output-adaptive15",
        "lockstep": "cheb-ato-penultimate cheb-ato-penultimate-lockstep",
        "ato-vs-adversarial": "cheb-ato-penultimate cheb-ato-output linear-ato-penultimate adversarial adversarial-beta200",
    }
    for q, files in questions.items():
        out.append(("compas", f"{c}/compare-{q}.json", [f"{c}/{f}.jsonl" for f in files.split()], []))
    out += [
        ("compas", f"{c}/compare-ato-vs-adversarial-matched.json",
         [f"{c}/cheb-ato-penultimate.jsonl", f"{c}/cheb-ato-output.jsonl", f"{c}/linear-ato-penultimate.jsonl",
          f"{c}/adversarial-matched", f"{c}/adversarial-matched-beta200"], []),
        ("compas", f"{c}/compare-adversarial-matched-vs-adversarial.json",
         [f"{c}/adversarial-matched", f"{c}/adversarial.jsonl"], []),
        ("compas", f"{c}/compare-adversarial-matched-beta200-vs-adversarial-beta200.json",
         [f"{c}/adversarial-matched-beta200", f"{c}/adversarial-beta200.jsonl"], []),
        ("compas", f"{c}/compare-cheb-aug.json",
         [f"{c}/scalarizations/cheb-ato-output", f"{c}/scalarizations/cheb-aug-ato-output"], []),
    ]
    for ds in ("compas-race4", "adult-race5"):
        g = f"results/{ds}/groups"
        out.append(("groups", f"{g}/compare.json", [f"{g}/cheb-ato-penultimate", f"{g}/linear-ato-penultimate"], []))
    for ds in ("adult-sex", "adult-race"):
        s = f"results/{ds}/shards"
        for f in sorted(glob.glob(f"{s}/compare-*-vs-*.json")):
            name = os.path.basename(f)[len("compare-"):-len(".json")]
            if name == "ato-vs-adversarial-matched-beta200":
                ins = ["cheb-ato-penultimate", "cheb-ato-output", "linear-ato-penultimate", "adversarial-matched-beta200"]
            else:
                ins = name.split("-vs-")
            out.append(("adult", f, [f"{s}/{x}" for x in ins], []))
    cc = "results/compas/conditioned"
    pairs = {
        "conditioned-vs-grid-ato-output": "conditioned-ato-output grid-lockstep-ato-output",
        "conditioned-vs-grid-ato-penultimate": "conditioned-ato-penultimate grid-lockstep-ato-penultimate",
        "grid-lockstep-vs-grid-ato-output": "grid-lockstep-ato-output grid-ato-output",
        "grid-lockstep-vs-grid-ato-penultimate": "grid-lockstep-ato-penultimate grid-ato-penultimate",
        "conditioned-k2-vs-grid-ato-output": "conditioned-k2-ato-output grid-lockstep-ato-output",
        "conditioned-k4-vs-grid-ato-output": "conditioned-k4-ato-output grid-lockstep-ato-output",
        "conditioned-4x8-vs-grid-4x8-ato-output": "conditioned-4x8-ato-output grid-lockstep-4x8-ato-output",
        "conditioned-4x16-vs-grid-4x16-ato-output": "conditioned-4x16-ato-output grid-lockstep-4x16-ato-output",
        "grid-4x8-vs-grid-ato-output": "grid-lockstep-4x8-ato-output grid-lockstep-ato-output",
        "grid-4x16-vs-grid-ato-output": "grid-lockstep-4x16-ato-output grid-lockstep-ato-output",
        "conditioned-arch4x8-vs-grid-ato-output": "conditioned-arch4x8-ato-output grid-lockstep-ato-output",
        "conditioned-arch4x16-vs-grid-ato-output": "conditioned-arch4x16-ato-output grid-lockstep-ato-output",
        "grid-4x16-vs-grid-ato-penultimate": "grid-lockstep-4x16-ato-penultimate grid-lockstep-ato-penultimate",
        "conditioned-4x16-vs-grid-4x16-ato-penultimate": "conditioned-4x16-ato-penultimate grid-lockstep-4x16-ato-penultimate",
        "grid-lockstep-4x16-vs-grid-4x16-ato-output": "grid-lockstep-4x16-ato-output grid-4x16-ato-output",
        "grid-lockstep-4x16-vs-grid-4x16-ato-penultimate": "grid-lockstep-4x16-ato-penultimate grid-4x16-ato-penultimate",
        "conditioned-epochs1500-vs-grid-ato-output": "conditioned-epochs1500-ato-output grid-lockstep-ato-output",
        "conditioned-lrconstant-vs-grid-ato-output": "conditioned-lrconstant-ato-output grid-lockstep-ato-output",
        "conditioned-output-lrconstant-vs-grid-ato-output": "conditioned-output-lrconstant-ato-output grid-lockstep-ato-output",
    }
    for name, ins in pairs.items():
        out.append(("conditioned", f"{cc}/compare-{name}.json", [f"{cc}/{x}" for x in ins.split()], []))
    ins = [f"{cc}/conditioned-ato-output", f"{cc}/grid-lockstep-ato-output"]
    out.append(("conditioned", f"{cc}/compare-conditioned-vs-grid-ato-output-without-degenerate.json", ins, ins))
    out.append(("conditioned", "results/compas/conditioned-before/compare-after-vs-before.json",
                ["results/compas/conditioned-before/after", "results/compas/conditioned-before/before"], []))
    a = "results/adult-sex/conditioned"
    pairs = {
        "conditioned-vs-grid-ato-output": "conditioned-ato-output grid-lockstep-ato-output",
        "conditioned-rows2000-vs-grid-ato-output": "conditioned-rows2000-ato-output grid-lockstep-ato-output",
        "grid-lockstep-vs-grid-ato-output": "grid-lockstep-ato-output grid-ato-output",
        "conditioned-vs-grid-apart-ato-output": "conditioned-ato-output grid-ato-output",
        "conditioned-rows2000-arch10x48-vs-grid-ato-output": "conditioned-rows2000-arch10x48-ato-output grid-lockstep-ato-output",
        "conditioned-rows2000-arch10x48-vs-grid-apart-ato-output": "conditioned-rows2000-arch10x48-ato-output grid-ato-output",
        "conditioned-output-lrconstant-rows2000-vs-grid-ato-output":
            "conditioned-output-lrconstant-rows2000-ato-output grid-lockstep-ato-output",
    }
    for name, ins in pairs.items():
        out.append(("conditioned", f"{a}/compare-{name}.json", [f"{a}/{x}" for x in ins.split()], []))
    for name, first in (("conditioned-vs-grid-ato-output-without-degenerate", "conditioned-ato-output"),
                        ("conditioned-rows2000-arch10x48-vs-grid-ato-output-without-degenerate",
                         "conditioned-rows2000-arch10x48-ato-output")):
        ins = [f"{a}/{first}", f"{a}/grid-lockstep-ato-output"]
        out.append(("conditioned", f"{a}/compare-{name}.json", ins, ins))
    return out


# The headline verdicts of docs/reproduction.md ("Against the paper's Table
# 4") and of the results pages' summaries: (committed file under results/,
# metrics, the groups of the pair, or None for every pair of the file).
HEADLINES = [
    ("compas/compare-methods-ato-penultimate.json", ["ato", "dp", "eo", "eopp"], None),
    ("compas/compare-methods-ato-all.json", ["ato"], None),
    ("compas/compare-methods-ato-output.json", ["ato"], None),
    ("compas/compare-penalties-cheb.json", ["ato"], ("cheb/ato-penultimate", "cheb/ato-all")),
    ("compas/compare-penalties-cheb.json", ["ato"], ("cheb/ato-penultimate", "cheb/ato-output")),
    ("compas/compare-ato-vs-adversarial.json", ["ato", "dp"], None),
    ("compas/compare-ato-vs-adversarial-matched.json", ["ato"], None),
    ("compas-race4/groups/compare.json", ["ato", "dp", "eo", "eopp"], None),
    ("adult-race5/groups/compare.json", ["ato", "dp", "eo", "eopp"], None),
    ("adult-sex/shards/compare-cheb-ato-penultimate-vs-linear-ato-penultimate.json", ["ato", "dp", "eo", "eopp"], None),
    ("adult-race/shards/compare-cheb-ato-penultimate-vs-linear-ato-penultimate.json", ["ato", "dp", "eo", "eopp"], None),
    ("adult-sex/shards/compare-cheb-ato-penultimate-vs-cheb-ato-output.json", ["ato"], None),
    ("adult-race/shards/compare-cheb-ato-penultimate-vs-cheb-ato-output.json", ["ato"], None),
    ("adult-sex/shards/compare-linear-ato-penultimate-vs-cheb-ato-output.json", ["ato", "eopp"], None),
    ("adult-race/shards/compare-linear-ato-penultimate-vs-cheb-ato-output.json", ["ato", "eopp"], None),
    ("adult-sex/shards/compare-cheb-ato-penultimate-vs-adversarial-beta200.json", ["ato", "dp"], None),
    ("adult-race/shards/compare-cheb-ato-penultimate-vs-adversarial-beta200.json", ["ato", "dp"], None),
    ("adult-sex/shards/compare-cheb-ato-output-vs-adversarial-beta200.json", ["ato", "dp"], None),
    ("adult-race/shards/compare-cheb-ato-output-vs-adversarial-beta200.json", ["ato", "dp"], None),
    ("adult-sex/shards/compare-ato-vs-adversarial-matched-beta200.json", ["ato"], None),
    ("compas/conditioned/compare-conditioned-vs-grid-ato-output.json", ["ato", "dp", "eo", "eopp"], None),
    ("compas/conditioned/compare-conditioned-4x16-vs-grid-4x16-ato-output.json", ["ato", "dp", "eo", "eopp"], None),
    ("compas/conditioned/compare-conditioned-vs-grid-ato-output-without-degenerate.json", ["ato", "dp"], None),
    ("adult-sex/conditioned/compare-conditioned-rows2000-arch10x48-vs-grid-ato-output.json", ["ato", "dp", "eo", "eopp"], None),
    ("adult-sex/conditioned/compare-grid-lockstep-vs-grid-ato-output.json", ["ato", "dp", "eo", "eopp"], None),
    ("compas/compare-lockstep.json", ["ato", "dp"], None),
]


def headline(r):
    for f, metrics, pair in HEADLINES:
        if r["file"] == "results/" + f and r["metric"] in metrics and (pair is None or {r["a"], r["b"]} == set(pair)):
            return True
    return False


def rows_key(r):
    """The rows a record's constant predictor depends on: the dataset's rows
    (adult-race's paper preset has adult-sex's), its split and seed and the
    split's sizes."""
    ds = r["dataset"]
    if ds == "adult-race" and r.get("preset") == "paper":
        ds = "adult-sex"
    return (ds, r.get("seed"), r["split"], r.get("n_train"), r.get("n_test"), r.get("preset"))


def constants():
    """const_risk of every (rows, split) that a committed record carries."""
    out = {}
    for f in glob.glob("results/**/*.jsonl", recursive=True):
        for line in open(f):
            try:
                r = json.loads(line)
            except ValueError:
                continue
            if r.get("status") == "ok" and "const_risk" in r:
                out.setdefault(rows_key(r), r["const_risk"])
    return out


def mirror(path, scratch, consts, missing):
    """Copies the records of path (a file or run folder) under scratch at the
    same relative path, each record without const_risk given it."""
    dst = os.path.join(scratch, path)
    if os.path.isdir(path):
        os.makedirs(dst, exist_ok=True)
        for f in ("config.json",):
            if os.path.exists(os.path.join(path, f)):
                shutil.copy(os.path.join(path, f), dst)
        files = sorted(glob.glob(os.path.join(path, "*.jsonl")))
        # A folder of shards keeps its records in subfolders.
        files += sorted(glob.glob(os.path.join(path, "*", "*.jsonl")))
    else:
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        files = [path]
    for f in files:
        out = os.path.join(scratch, f)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        if os.path.exists(os.path.join(os.path.dirname(f), "config.json")):
            shutil.copy(os.path.join(os.path.dirname(f), "config.json"), os.path.dirname(out))
        with open(out, "w") as w:
            for line in open(f):
                if not line.strip():
                    continue
                r = json.loads(line)
                if r.get("status") == "ok" and "const_risk" not in r:
                    k = rows_key(r)
                    if k not in consts:
                        missing.add(k)
                    else:
                        r["const_risk"] = consts[k]
                w.write(json.dumps(r) + "\n")


def compare(fp, scratch, inputs, rule, reference="1.1"):
    res = subprocess.run([fp, "compare", "--json", "--front-rule", rule, "--reference", reference] + inputs, cwd=scratch,
                         capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError(f"fp compare --front-rule {rule} {' '.join(inputs)}: {res.stderr.strip()}")
    return json.loads(res.stdout)


def bh(ps):
    """Benjamini–Hochberg q-values of ps (one family)."""
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    q, run = [0.0] * m, 1.0
    for k in range(m - 1, -1, -1):
        i = order[k]
        run = min(run, m * ps[i] / (k + 1))
        q[i] = run
    return q


def why(res, metric, a, b):
    """What the constant rule takes from each side's pooled front (the minmax
    rerun's, whose records carry const_risk): the non-dominated candidates
    no better than the constant predictor, and those that predict one
    class for every test row."""
    parts = []
    for name, g in (("A", a), ("B", b)):
        r = next(x for x in res["pooled"] if x["metric"] == metric and x["group"] == g)
        parts.append((name, r["front_no_better_than_constant"], r["front_single_class"]))
    if not any(n or s for _, n, s in parts):
        return "scale"
    return ", ".join(f"{name} {n}/{s}" for name, n, s in parts)


def verdict(a, b, mean, p):
    if p < 0.05:
        return a if mean > 0 else b
    return "none"


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: rederive.py FP [OUT]")
    fp = os.path.abspath(sys.argv[1])
    outdir = sys.argv[2] if len(sys.argv) == 3 else "results/rederived"
    os.makedirs(os.path.join(outdir, "constant"), exist_ok=True)
    consts = constants()
    rows = []
    skipped = []
    scratch = tempfile.mkdtemp(prefix="rederive-")
    try:
        for section, committed, inputs, stripped in manifest():
            missing = set()
            for p in inputs:
                mirror(p, scratch, consts, missing)
            for p in stripped:
                src = os.path.join(scratch, p)
                tmp = src + ".all"
                shutil.move(src, tmp)
                subprocess.run([sys.executable, os.path.abspath("scripts/without_degenerate.py"), tmp, src],
                               check=True, capture_output=True)
                shutil.rmtree(tmp)
            old = json.load(open(committed))
            mm = compare(fp, scratch, inputs, "minmax")
            if missing:
                skipped.append((committed, sorted(missing)))
                con = None
            else:
                con = compare(fp, scratch, inputs, "constant")
                near = compare(fp, scratch, inputs, "constant", "1.01")
                name = committed[len("results/"):].replace("/", "--")
                with open(os.path.join(outdir, "constant", name), "w") as w:
                    json.dump(con, w, indent=1)
            for p in mm["paired"]:
                sign, o = None, None
                for x in old["paired"]:
                    if x["metric"] != p["metric"]:
                        continue
                    if (x["a"], x["b"]) == (p["a"], p["b"]):
                        sign, o = 1, x
                    elif (x["a"], x["b"]) == (p["b"], p["a"]):
                        sign, o = -1, x
                if o is None:
                    raise RuntimeError(f"{committed}: {p['metric']} {p['a']} − {p['b']} is not in the committed file")
                if abs(sign * o["hv_diff_mean"] - p["hv_diff_mean"]) > 1e-9:
                    raise RuntimeError(f"{committed}: {p['metric']} {p['a']} − {p['b']}: the minmax rerun gives "
                                       f"{p['hv_diff_mean']}, the committed file {sign * o['hv_diff_mean']}")
                c = n = None
                if con is not None:
                    c = next(x for x in con["paired"] if (x["metric"], x["a"], x["b"]) == (p["metric"], p["a"], p["b"]))
                    n = next(x for x in near["paired"] if (x["metric"], x["a"], x["b"]) == (p["metric"], p["a"], p["b"]))
                row = {
                    "why": why(mm, p["metric"], p["a"], p["b"]),
                    "section": section, "file": committed, "metric": p["metric"], "a": p["a"], "b": p["b"],
                    "a_runs": ",".join(p["a_runs"]), "b_runs": ",".join(p["b_runs"]), "splits": p["splits"],
                    "old_mean": sign * o["hv_diff_mean"], "old_p": o["p_value"],
                    "old": verdict(p["a"], p["b"], sign * o["hv_diff_mean"], o["p_value"]),
                    "minmax_q_file": p["q_value"],
                }
                if c is not None:
                    row.update({"mean": c["hv_diff_mean"], "ci_low": c["ci_low"], "ci_high": c["ci_high"],
                                "a_wins": c["a_wins"], "p": c["p_value"], "q_file": c["q_value"],
                                "new": verdict(p["a"], p["b"], c["hv_diff_mean"], c["p_value"]),
                                "ref101_mean": n["hv_diff_mean"], "ref101_p": n["p_value"],
                                "ref101": verdict(p["a"], p["b"], n["hv_diff_mean"], n["p_value"])})
                rows.append(row)
    finally:
        shutil.rmtree(scratch)
    for section in SECTIONS:
        fam = [r for r in rows if r["section"] == section and "p" in r]
        for r, q in zip(fam, bh([r["p"] for r in fam])):
            r["q_section"] = q
        for r, q in zip(fam, bh([r["old_p"] for r in fam])):
            r["old_q_section"] = q
            r["old_survives"] = r["old"] != "none" and q < 0.05
    for r in rows:
        if "p" not in r:
            r.update({"new": "not re-derived", "q_section": float("nan")})
            continue
        r["survives"] = r["new"] != "none" and r["q_section"] < 0.05
        # The minmax rerun's verdict is the committed one (checked above).
        r["changed"] = r["new"] != r["old"]
        r["fragile"] = r["changed"] or r["new"] != r["ref101"]
    cols = ["section", "file", "metric", "a", "b", "a_runs", "b_runs", "splits", "old_mean", "old_p", "old_q_section", "old",
            "old_survives", "mean", "ci_low", "ci_high", "a_wins", "p", "q_file", "q_section", "new", "survives", "ref101_mean", "ref101_p", "ref101", "changed", "fragile", "why"]
    with open(os.path.join(outdir, "verdicts.tsv"), "w") as w:
        w.write("\t".join(cols) + "\n")
        for r in rows:
            w.write("\t".join(fmt(r.get(k, "")) for k in cols) + "\n")
    with open(os.path.join(outdir, "summary.md"), "w") as w:
        summary(w, rows, skipped)
    with open(os.path.join(outdir, "headlines.md"), "w") as w:
        headlines(w, rows)
    with open(os.path.join(outdir, "changed.md"), "w") as w:
        changed(w, rows)


def fmt(v):
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)


def short(f):
    """A comparison file's name without results/, compare- and .json."""
    return f[len("results/"):-len(".json")].replace("compare-", "")


def side(r, v):
    """A verdict as A, B or none."""
    return "A" if v == r["a"] else "B" if v == r["b"] else v


def summary(w, rows, skipped):
    w.write("# Every committed comparison re-derived under fp's front rule\n\n")
    w.write("Written by `scripts/rederive.py` (see its header). A verdict is the group with the larger hypervolume "
            "at p < 0.05, else none; q is the Benjamini–Hochberg q-value over the section's family (every paired "
            "test of its comparison files). Old: the committed files (the paper's min–max protocol); new: fp's "
            "front rule (`constant`), reference (1.1, 1.1). Fragile: the new verdict differs from the old or from "
            "fp's rule at reference (1.01, 1.01). The headline verdicts: [headlines.md](headlines.md); the "
            "verdicts that changed: [changed.md](changed.md); every test: `verdicts.tsv`.\n\n")
    w.write("| section | comparison files | paired tests | p < 0.05 (old) | q < 0.05 (old) | p < 0.05 (new) | "
            "q < 0.05 (new) | changed | fragile |\n")
    w.write("|---|---|---|---|---|---|---|---|---|\n")
    for s, page in SECTIONS.items():
        fam = [r for r in rows if r["section"] == s and "p" in r]
        files = len({r["file"] for r in rows if r["section"] == s})
        w.write(f"| [{s}]({os.path.relpath(page, 'results/rederived')}) | {files} | {len(fam)} | "
                f"{sum(r['old'] != 'none' for r in fam)} | {sum(r['old_survives'] for r in fam)} | "
                f"{sum(r['new'] != 'none' for r in fam)} | "
                f"{sum(r['survives'] for r in fam)} | {sum(r['changed'] for r in fam)} | "
                f"{sum(r['fragile'] for r in fam)} |\n")
    for label, v, pk, qk in (("fp's rule", "new", "p", "q_section"), ("the paper's protocol (committed)", "old", "old_p", "old_q_section")):
        w.write(f"\n## Significant at p < 0.05 but not at q < 0.05, under {label}\n\n")
        w.write("| file | metric | A − B | mean | p | q |\n|---|---|---|---|---|---|\n")
        for r in rows:
            if "p" in r and r[v] != "none" and r[qk] >= 0.05:
                mean = r["mean"] if v == "new" else r["old_mean"]
                w.write(f"| `{short(r['file'])}` | {r['metric']} | {r['a']} − {r['b']} | {mean:+.3f} | "
                        f"{r[pk]:.2g} | {r[qk]:.2g} |\n")
    if skipped:
        w.write("\nNot re-derived (records without const_risk and no committed record of the same rows that "
                "carries it):\n\n")
        for f, keys in skipped:
            w.write(f"- `{f}`: {len(keys)} split(s)\n")


def headlines(w, rows):
    w.write("# The headline verdicts under fp's front rule and the paper's protocol\n\n")
    w.write("Written by `scripts/rederive.py`. Each headline comparison of docs/reproduction.md and the results "
            "pages (file under `results/` without `compare-`): A − B; the committed figures (the paper's min–max "
            "protocol: mean, p, q → verdict), fp's front rule (mean [95% interval], p, q → verdict), and fp's rule at "
            "reference (1.01, 1.01) (mean, p → verdict). q over the section's family ([summary.md](summary.md)). "
            "Verdicts: A, B or none (p ≥ 0.05).\n\n")
    w.write("| file | metric | A − B | paper's protocol | fp's rule | fp's rule, reference 1.01 | |\n")
    w.write("|---|---|---|---|---|---|---|\n")
    for r in rows:
        if headline(r) and "p" in r:
            w.write(f"| `{short(r['file'])}` | {r['metric']} | {r['a']} − {r['b']} | "
                    f"{r['old_mean']:+.3f}, p {r['old_p']:.2g}, q {r['old_q_section']:.2g} → {side(r, r['old'])} | "
                    f"{r['mean']:+.3f} [{r['ci_low']:+.3f}, {r['ci_high']:+.3f}], p {r['p']:.2g}, "
                    f"q {r['q_section']:.2g} → {side(r, r['new'])} | "
                    f"{r['ref101_mean']:+.3f}, p {r['ref101_p']:.2g} → {side(r, r['ref101'])} | "
                    f"{'fragile' if r['fragile'] else ''} |\n")


def changed(w, rows):
    w.write("# The verdicts that fp's front rule changes\n\n")
    w.write("Written by `scripts/rederive.py`. Every paired test of the committed comparison files whose verdict "
            "differs between the committed figures (old: the paper's min–max protocol) and fp's front rule (new); "
            "A − B, verdicts A, B or none (p ≥ 0.05), q over the section's family ([summary.md](summary.md)). "
            "Why: what fp's rule takes from each side's pooled front, as non-dominated candidates no better than "
            "the constant predictor / predicting one class (A n/m, B n/m); \"scale\" where neither side has any, "
            "and the change comes from the risk axis ending at the constant predictor rather than at the worst "
            "candidate.\n\n")
    w.write("| file | metric | A − B | old | new | why |\n")
    w.write("|---|---|---|---|---|---|\n")
    for r in rows:
        if r.get("changed"):
            w.write(f"| `{short(r['file'])}` | {r['metric']} | {r['a']} − {r['b']} | "
                    f"{r['old_mean']:+.3f}, p {r['old_p']:.2g} → {side(r, r['old'])} | "
                    f"{r['mean']:+.3f} [{r['ci_low']:+.3f}, {r['ci_high']:+.3f}], p {r['p']:.2g}, "
                    f"q {r['q_section']:.2g} → {side(r, r['new'])} | {r['why']} |\n")


if __name__ == "__main__":
    main()
