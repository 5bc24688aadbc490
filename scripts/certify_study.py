#!/usr/bin/python3
"""Synthetic study of fp's 95% intervals and certified picks (scripts/certify_study.sh).

Two processes whose population is known (one fixed draw of 200,000 rows each, its own seed):

  p1  a small minority: a = 1 for 4% of the rows; four numeric features, x1 a partial proxy of a
      (shifted by one standard deviation in the minority); y depends on the features only.
  p2  a group effect on the label: a = 1 for 40% of the rows, base rates about 30% (a = 0) and
      57% (a = 1); x1 and x2 shifted with a, y depends on the features and on a.

Subcommands:
  gen PROCESS N REP OUT.csv      one repetition's rows (seed from process, n, rep)
  population PROCESS OUT.csv     the population
  popmetrics POP NET PROP        one network's population metrics (JSON)
  done FILE                      the repetitions with a line in FILE
  rep-rows ...                   a study repetition's coverage and certification lines
  pick-row ...                   a pilot repetition's line
  pilot [--dir D]                the pilot's table (D/pilot.md)
  analyse [--dir D]              the study's tables, printed and written to D/summary.md
"""
import hashlib
import json
import math
import os
import sys

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
import numpy as np  # noqa: E402

PROCESSES = ("p1", "p2")
POP_ROWS = 200_000
# Metrics with intervals in `fp front --ci --json` (key prefix) and in `fp audit --json`.
METRICS = ("risk", "accuracy", "ato", "dp", "eo", "eopp", "dp_diff", "dp_ratio", "eo_diff", "eopp_diff")
# Fairness metrics: "near 0" is judged for these (1 - dp_ratio for the ratio).
FAIR = ("ato", "dp", "eo", "eopp", "dp_diff", "dp_ratio", "eo_diff", "eopp_diff")


def seed_of(*parts):
    h = hashlib.sha256("/".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(h[:8], "little")


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def draw(process, n, rng):
    if process == "p1":
        a = (rng.random(n) < 0.04).astype(int)
        x1 = rng.normal(size=n) + 1.0 * a
        x2 = rng.normal(size=n)
        x3 = rng.normal(size=n)
        x4 = 0.5 * x2 + math.sqrt(0.75) * rng.normal(size=n)
        z = -0.4 + 1.0 * x1 + 0.8 * x2 - 0.6 * x3 + 0.3 * x4 * x3
        y = (rng.random(n) < sigmoid(z)).astype(int)
        cols = {"x1": x1, "x2": x2, "x3": x3, "x4": x4}
    elif process == "p2":
        a = (rng.random(n) < 0.40).astype(int)
        x1 = rng.normal(size=n) + 0.8 * a
        x2 = rng.normal(size=n) - 0.5 * a
        x3 = rng.normal(size=n)
        x4 = rng.normal(size=n)
        z = -1.05 + 0.6 * a + 0.7 * x1 - 0.5 * x2 + 0.6 * x3 + 0.2 * x4
        y = (rng.random(n) < sigmoid(z)).astype(int)
        cols = {"x1": x1, "x2": x2, "x3": x3, "x4": x4}
    else:
        raise SystemExit(f"certify_study.py: unknown process {process!r}")
    return cols, a, y


def write_csv(path, cols, a, y):
    tmp = path + ".tmp"
    names = list(cols)
    mat = np.column_stack([cols[k] for k in names])
    with open(tmp, "w") as f:
        f.write(",".join(names + ["a", "y"]) + "\n")
        for i in range(len(y)):
            f.write(",".join(f"{v:.6g}" for v in mat[i]) + f",{a[i]},{y[i]}\n")
    os.replace(tmp, path)


# ---------------------------------------------------------------------------------------------
# Population values. `fp predict --logit --with-propensity --keep-coded | fp audit --logit logit
# --label y_coded --group a_coded --propensity propensity --json` on 200,000 rows costs about 1.2 s
# of CPU per network, most of it reading and writing the CSV; the study needs them for thousands
# of networks. The same computation, vectorised over the rows (the network file's forward pass,
# docs/method.md §2 and §11; the propensity's temperature and clipping, §4.2; the metrics of §7
# and §7.2), costs a few hundredths of a second; the driver checks it against fp's pipeline on a
# share of the networks (the `xcheck` records).

def softplus(z):
    return np.maximum(z, 0) + np.log1p(np.exp(-np.abs(z)))


def sigmoid_stable(z):
    out = np.empty_like(z)
    pos = z >= 0
    out[pos] = 1.0 / (1.0 + np.exp(-z[pos]))
    e = np.exp(z[~pos])
    out[~pos] = e / (1.0 + e)
    return out


def forward(net, X):
    """Logits of a fp-network/2 file's network on the raw feature matrix X (columns in net['features'] order)."""
    mean = np.asarray(net["mean"])
    sd = np.asarray(net["sd"])
    sd_safe = np.where(sd == 0, 1.0, sd)
    h = np.where(sd == 0, X - mean, (X - mean) / sd_safe)
    layers = len(net["weights"])
    for l, (w, b) in enumerate(zip(net["weights"], net["biases"])):
        b = np.asarray(b)
        w = np.asarray(w).reshape(h.shape[1], len(b))
        h = h @ w
        h += b
        if l < layers - 1:
            np.maximum(h, 0, out=h)
    return h[:, 0]


def mv_sorted(ss, gs):
    """Mean-variance index of scores ss (sorted ascending) against binary groups gs in the same
    order (docs/method.md §7): F̂ and F̂_r at each row's score, ties counted ≤."""
    n = len(ss)
    if n == 0 or gs.min() == gs.max():
        return 0.0
    # F̂(s_i): share of rows with score ≤ s_i, read at the end of s_i's block of ties.
    last = np.searchsorted(ss, ss, side="right")
    F = last / n
    total = 0.0
    for r in (0, 1):
        m = gs == r
        nr = int(m.sum())
        cum = np.concatenate([[0], np.cumsum(m)])
        Fr = cum[last] / nr
        total += (nr / n) * float(np.mean((Fr - F) ** 2))
    return total


def mv_index(s, g):
    order = np.argsort(s, kind="stable")
    return mv_sorted(s[order], g[order])


def population_metrics(z, y, a, e, t=0.5):
    p = sigmoid_stable(z)
    out = {}
    out["risk"] = float(np.mean(softplus(z) - y * z))
    d = (p >= t).astype(float)
    out["accuracy"] = float(np.mean(d == y))
    w = np.where(a == 1, 1 - e, e)
    m1 = np.sum(w * p * (a == 1)) / np.sum(w * (a == 1))
    m0 = np.sum(w * p * (a == 0)) / np.sum(w * (a == 0))
    out["ato"] = float(abs(m1 - m0))
    # One sort; the rows of each class keep their order within it.
    order = np.argsort(p, kind="stable")
    ps, as_, ys = p[order], a[order], y[order]
    out["dp"] = mv_sorted(ps, as_)
    eo = [mv_sorted(ps[ys == k], as_[ys == k]) for k in (0, 1)]
    out["eo"] = max(eo)
    out["eopp"] = eo[1]
    s = [d[a == r].mean() for r in (0, 1)]
    tpr = [d[(a == r) & (y == 1)].mean() for r in (0, 1)]
    fpr = [d[(a == r) & (y == 0)].mean() for r in (0, 1)]
    out["dp_diff"] = float(max(s) - min(s))
    out["dp_ratio"] = 1.0 if max(s) == 0 else float(min(s) / max(s))
    out["eopp_diff"] = float(max(tpr) - min(tpr))
    out["eo_diff"] = float(max(out["eopp_diff"], max(fpr) - min(fpr)))
    return out


class Population:
    """One process's population, read once; networks are scored on it in memory."""

    def __init__(self, path):
        with open(path) as f:
            header = f.readline().strip().split(",")
        cache = path + ".npy"
        if os.path.exists(cache) and os.path.getmtime(cache) >= os.path.getmtime(path):
            data = np.load(cache)
        else:
            data = np.loadtxt(path, delimiter=",", skiprows=1)
            np.save(cache + ".tmp.npy", data)
            os.replace(cache + ".tmp.npy", cache)
        self.cols = {h: data[:, i] for i, h in enumerate(header)}
        self._prop = {}
        self._mat = {}
        self._memo = {}

    def matrix(self, features):
        key = tuple(features)
        if key not in self._mat:
            self._mat[key] = np.ascontiguousarray(np.column_stack([self.cols[c] for c in features]))
        return self._mat[key]

    def propensity(self, path):
        # Keyed by content: a repetition's two sweeps share their split, hence their propensity model.
        with open(path, "rb") as f:
            raw = f.read()
        key = hashlib.sha256(raw).hexdigest()
        if key not in self._prop:
            m = json.loads(raw)
            zp = forward(m["network"], self.matrix(m["network"]["features"]))
            self._prop[key] = np.clip(sigmoid_stable(zp / m["temperature"]), 1e-6, 1 - 1e-6)
        return self._prop[key]

    def metrics(self, net_path, prop_path, threshold=0.5):
        key = (net_path, prop_path, threshold)
        if key not in self._memo:
            self._memo[key] = self._metrics(net_path, prop_path, threshold)
        return self._memo[key]

    def _metrics(self, net_path, prop_path, threshold):
        net = json.load(open(net_path))
        sch = net["schema"]
        y = (self.cols[sch["target"]] == float(sch["target_positive"])).astype(float)
        a = (self.cols[sch["sensitive"]] == float(sch["sensitive_positive"])).astype(int)
        z = forward(net, self.matrix(net["features"]))
        return population_metrics(z, y, a, self.propensity(prop_path), threshold)


def cmd_popmetrics(pop, net, prop):
    print(json.dumps(Population(pop).metrics(net, prop)))


# ---------------------------------------------------------------------------------------------
# Records: one JSON line per repetition, appended by one write.

def append_line(path, obj):
    line = (json.dumps(obj, separators=(",", ":")) + "\n").encode()
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        if os.write(fd, line) != len(line):
            raise SystemExit(f"certify_study.py: short write to {path}")
    finally:
        os.close(fd)


def read_lines(path):
    """The file's complete, parseable lines (a line cut short by a kill is skipped)."""
    out = []
    if not os.path.exists(path):
        return out
    with open(path) as f:
        for line in f:
            if not line.endswith("\n"):
                continue
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return out


def by_rep(lines):
    """One line per repetition (the first), in the order of the repetitions."""
    seen = {}
    for r in lines:
        seen.setdefault(r.get("rep"), r)
    return [seen[k] for k in sorted(seen)]


def cmd_done(path):
    """Print the repetitions with a line in path."""
    print(" ".join(sorted({str(r.get("rep")) for r in read_lines(path)}, key=int)))


def option(rest, name, default=None):
    if name in rest:
        i = rest.index(name)
        v = rest[i + 1]
        del rest[i:i + 2]
        return v
    return default


DEGENERATE = ("single_class", "collapsed", "near_constant", "no_better_than_constant")


def fp_population(fp, pop_path, net, prop):
    """The population metrics by fp's own pipeline (fp predict | fp audit)."""
    import subprocess
    pred = subprocess.Popen([fp, "predict", "--model", net, "--data", pop_path, "--logit",
                             "--with-propensity", "--keep-coded"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    aud = subprocess.run([fp, "audit", "--data", "-", "--logit", "logit", "--label", "y_coded",
                          "--group", "a_coded", "--propensity", "propensity", "--json"],
                         stdin=pred.stdout, capture_output=True, text=True)
    pred.stdout.close()
    pred.wait()
    if pred.returncode or aud.returncode:
        return {"error": aud.stderr.strip()[-300:]}
    d = json.loads(aud.stdout)
    return {m: d[m] for m in METRICS}


def xcheck(fp, pop, pop_path, net, prop):
    mine = pop.metrics(net, prop)
    theirs = fp_population(fp, pop_path, net, prop)
    if "error" in theirs:
        return {"weights": net, "error": theirs["error"]}
    diff = max(abs(mine[m] - theirs[m]) / max(1.0, abs(theirs[m])) for m in METRICS)
    return {"weights": net, "max_rel_diff": diff}


def coverage_row(cell, rep, d, pop, pop_path, fp, fronts, seconds):
    proc, n = cell.split("-")
    cands = {}
    problems = []
    for m in fronts:
        path = os.path.join(d, f"front-{m}.json")
        try:
            front = json.load(open(path))["front"]
        except (OSError, ValueError, KeyError) as e:
            problems.append(f"front {m}: {e}")
            continue
        for c in front:
            key = c["weights"]
            if key in cands:
                cands[key]["fronts"].append(m)
                continue
            if any(c.get(k) for k in DEGENERATE):
                continue
            cands[key] = {"fronts": [m], "rec": c}
    rows = []
    seen = {}
    for key, v in cands.items():
        c = v["rec"]
        # Both sweeps train the same λ = 0 network (same seed, no penalty): count it once.
        ident = tuple(c.get(m) for m in METRICS)
        if ident in seen:
            kept = seen[ident]
            kept["fronts"] = sorted(set(kept["fronts"]) | set(v["fronts"]), key=fronts.index)
            continue
        prop = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(key))), "splits",
                            "split-%03d" % c["split"], "propensity.json")
        popm = pop.metrics(key, prop, c.get("threshold", 0.5))
        rows.append({
            "run": os.path.basename(c["run"]), "penalty": c["penalty"], "lambda": c["lambda"],
            "fronts": v["fronts"], "ci_rows": c.get("ci_rows"),
            "near_single_class": c.get("near_single_class"), "majority_share": c.get("majority_share"),
            "raw": {m: c.get(m + "_raw") for m in ("dp", "eo", "eopp")},
            "test": {m: c.get(m) for m in METRICS},
            "ci": {m: c.get(m + "_ci") for m in METRICS},
            "pop": popm,
            "weights": key, "prop": prop,
        })
        seen[ident] = rows[-1]
    x = None
    if int(rep) % 10 == 0 and rows:
        x = xcheck(fp, pop, pop_path, rows[0]["weights"], rows[0]["prop"])
    for r in rows:
        del r["weights"], r["prop"]
    return {"process": proc, "n": int(n), "rep": int(rep), "candidates": rows,
            "problems": problems, "xcheck": x, "seconds": seconds}


# The requirement's metric, bound and side from fp pick's flags.
def parse_requirement(flags):
    f = flags.split()
    metric = f[f.index("--metric") + 1].replace("-", "_") if "--metric" in f else "ato"
    if "--max-unfairness" in f:
        return metric, float(f[f.index("--max-unfairness") + 1]), "max"
    if "--min-ratio" in f:
        return "dp_ratio", float(f[f.index("--min-ratio") + 1]), "min"
    if "--min-accuracy" in f:
        return "accuracy", float(f[f.index("--min-accuracy") + 1]), "min"
    if "--max-risk" in f:
        return "risk", float(f[f.index("--max-risk") + 1]), "max"
    raise SystemExit(f"certify_study.py: requirement {flags!r}: no bound")


def breaks(value, bound, side):
    return value > bound if side == "max" else value < bound


def prop_of(weights, split):
    run = os.path.dirname(os.path.dirname(os.path.dirname(weights)))
    return os.path.join(run, "splits", "split-%03d" % split, "propensity.json")


def read_pick(path):
    try:
        text = open(path).read()
    except OSError:
        return None
    if not text.strip():
        return None
    try:
        return json.loads(text)
    except ValueError:
        return {"unparsed": text[-300:]}


def pick_row(cell, rep, d, pop, reqs, seconds):
    proc, n = cell.split("-")
    rows = []
    for r in reqs:
        name, flags = r.split("|", 1)
        metric, bound, side = parse_requirement(flags)
        row = {"name": name, "flags": flags, "metric": metric, "bound": bound, "side": side}
        for kind in ("point", "cert"):
            path = os.path.join(d, f"pick-{name}-{kind}.json")
            if not os.path.exists(path):
                continue
            j = read_pick(path)
            err = ""
            try:
                err = open(path[:-5] + ".err").read().strip()[-400:]
            except OSError:
                pass
            rec = {"picked": bool(j and j.get("weights"))}
            if kind == "cert":
                j = j or {}
                for k in ("certified", "confidence", "requirement", "bound", "estimate", "bound_rows",
                          "bound_on", "tested", "certified_candidates", "rows_needed", "stopped", "degenerate"):
                    rec[k] = j.get(k)
                if j.get("closest") is not None:
                    c = j["closest"]
                    rec["closest"] = {k: c.get(k) for k in ("lambda", "run", "bound") if isinstance(c, dict)} if isinstance(c, dict) else c
                if not j:
                    rec["error"] = err
            elif not rec["picked"]:
                rec["error"] = err.splitlines()[-1] if err else ""
            if rec["picked"]:
                rec.update({"lambda": j.get("lambda"), "run": os.path.basename(j.get("run", "")),
                            "test": j.get(metric), "sel": j.get("sel_" + metric)})
                pm = pop.metrics(j["weights"], prop_of(j["weights"], j.get("split", 0)), j.get("threshold", 0.5))
                rec["pop"] = pm[metric]
                rec["pop_all"] = pm
                rec["breaks"] = breaks(pm[metric], bound, side)
            row[kind] = rec
        rows.append(row)
    return {"process": proc, "n": int(n), "rep": int(rep), "requirements": rows, "seconds": seconds}


def requirement_list(rest):
    return [r for r in option(rest, "--requirements", "").split(";") if r]


def cmd_pick_row(cell, rep, d, pop_path, out, *rest):
    rest = list(rest)
    reqs = requirement_list(rest)
    seconds = float(option(rest, "--seconds", "nan"))
    append_line(out, pick_row(cell, rep, d, Population(pop_path), reqs, seconds))


def cmd_rep_rows(cell, rep, d, pop_path, out_dir, *rest):
    """The study's two lines of one repetition: coverage, then certification (its presence marks the
    repetition done)."""
    rest = list(rest)
    fp = option(rest, "--fp", "fp")
    reqs = requirement_list(rest)
    fronts = option(rest, "--fronts", "ato dp dp-diff eo-diff").split()
    seconds = float(option(rest, "--seconds", "nan"))
    pop = Population(pop_path)
    cov = os.path.join(out_dir, f"coverage-{cell}.jsonl")
    if str(int(rep)) not in {str(r.get("rep")) for r in read_lines(cov)}:
        append_line(cov, coverage_row(cell, rep, d, pop, pop_path, fp, fronts, seconds))
    append_line(os.path.join(out_dir, f"certify-{cell}.jsonl"), pick_row(cell, rep, d, pop, reqs, seconds))


# ---------------------------------------------------------------------------------------------
# Analysis.

def wilson(k, n, z=1.96):
    if n == 0:
        return float("nan"), float("nan")
    p = k / n
    den = 1 + z * z / n
    c = (p + z * z / (2 * n)) / den
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return c - h, c + h


def cluster_interval(per_rep, resamples=2000, seed=7):
    """95% interval of a share pooled over repetitions, the repetitions resampled (their candidates
    share test rows, so they are the independent units)."""
    per_rep = [(k, n) for k, n in per_rep if n]
    if not per_rep:
        return float("nan"), float("nan")
    k = np.array([x[0] for x in per_rep], float)
    n = np.array([x[1] for x in per_rep], float)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(k), size=(resamples, len(k)))
    shares = k[idx].sum(1) / n[idx].sum(1)
    lo, hi = np.percentile(shares, [2.5, 97.5])
    return float(lo), float(hi)


def pct(k, n):
    if n == 0:
        return "—"
    lo, hi = wilson(k, n)
    return f"{100 * k / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def tally(recs, m):
    """Counts of metric m's intervals over the repetitions recs: for "near" (population value near 0)
    and "rest", [intervals, covered, misses below, misses above], each repetition's (covered,
    intervals) for the by-rep interval, and the candidates without an interval."""
    cnt = {"near": [0, 0, 0, 0], "rest": [0, 0, 0, 0]}
    reps = {"near": [], "rest": []}
    none = 0
    for r in recs:
        here = {"near": [0, 0], "rest": [0, 0]}
        for c in r["candidates"]:
            ci = c["ci"].get(m)
            v = c["pop"][m]
            if not ci or ci[0] is None:
                none += 1
                continue
            lo, hi = ci
            half = (hi - lo) / 2
            dist0 = 1 - v if m == "dp_ratio" else v
            part = "near" if m in FAIR and dist0 <= half / 1.96 else "rest"
            k = cnt[part]
            k[0] += 1
            here[part][1] += 1
            if lo <= v <= hi:
                k[1] += 1
                here[part][0] += 1
            elif v < lo:
                k[2] += 1
            else:
                k[3] += 1
        for part in here:
            reps[part].append(tuple(here[part]))
    return cnt, reps, none


def row_cells(m, part, cnt, reps):
    """The four table cells of one part (near 0 or rest) of metric m."""
    t, cov, low, high = cnt
    if part == "near" and m not in FAIR:
        return ["—", "—", "—", "—"]
    nrep = sum(1 for _, x in reps if x)
    clo, chi = cluster_interval(reps)
    rep_iv = f"[{100 * clo:.1f}, {100 * chi:.1f}]" if t else "—"
    flag = ""
    if t:
        if not 0.90 <= cov / t <= 0.99:
            flag = " **off target**"
        if t < 100:
            flag += " (fewer than 100)"
    return [f"{t} ({nrep})", pct(cov, t) + flag, rep_iv, f"{low} / {high}"]


def pooled_table(d, first=0):
    """Every metric's coverage over all cells' candidates together (near 0 and the rest), the
    (cell, repetition) pairs resampled for the by-rep interval; with first > 0, over the
    repetitions from first on only."""
    recs = []
    for proc, n in CELLS:
        recs += [r for r in by_rep(read_lines(os.path.join(d, f"coverage-{proc}-{n}.jsonl"))) if r["rep"] >= first]
    if not recs:
        return []
    if first:
        head = [f"### All cells together, repetitions {first} on", "",
                f"The {len(recs)} repetitions from repetition {first} on of every cell, pooled: those the "
                f"interval's construction was not chosen on (it was chosen on repetitions 0–{first - 1}).", ""]
    else:
        head = ["### All cells together", "",
                f"The {len(recs)} repetitions of the cells above pooled: every metric has its near-0 "
                "candidates from all processes and sizes (a cell alone holds fewer than 100 for some).", ""]
    lines = head + [
             "| metric | near 0: count (reps) | coverage | by rep | low / high | rest: count (reps) | coverage | by rep | low / high | no interval |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for m in METRICS:
        cnt, reps, none = tally(recs, m)
        cells = row_cells(m, "near", cnt["near"], reps["near"]) + row_cells(m, "rest", cnt["rest"], reps["rest"])
        lines.append(f"| {m} | " + " | ".join(cells) + f" | {none} |")
    return lines + [""]


CELLS = [("p1", 1000), ("p1", 5000), ("p2", 1000), ("p2", 5000)]


def coverage_tables(d, held=0):
    lines = ["## Coverage of the 95% intervals", "",
             "Every non-degenerate candidate of the pooled fronts (both sweeps of a repetition) of "
             "ato, dp, dp-diff and eo-diff, each distinct network once. A candidate's value is **near 0** when its "
             "population value (1 − dp_ratio for the ratio) is at most the interval's half-width / 1.96. "
             "Coverage: the share of intervals that hold the population value, Wilson 95% interval; "
             "low / high: misses with the population value below / above the interval. "
             "Candidates of one repetition share their test rows, so their outcomes are not independent "
             "and the Wilson intervals are too narrow where misses cluster in a few repetitions; "
             "*by rep* is a 95% interval with the repetitions resampled instead (reps: those with at "
             "least one such candidate). **off target**: the share is outside 90–99%.", ""]
    summary = []
    for proc, n in CELLS:
        recs = by_rep(read_lines(os.path.join(d, f"coverage-{proc}-{n}.jsonl")))
        if not recs:
            continue
        ncand = sum(len(r["candidates"]) for r in recs)
        lines += [f"### {proc}, n = {n}: {len(recs)} repetitions, {ncand} candidates", "",
                  "| metric | near 0: count (reps) | coverage | by rep | low / high | rest: count (reps) | coverage | by rep | low / high | no interval |",
                  "|---|---|---|---|---|---|---|---|---|---|"]
        for m in METRICS:
            cnt, reps, none = tally(recs, m)
            cells = []
            for part in ("near", "rest"):
                t, cov = cnt[part][0], cnt[part][1]
                cells += row_cells(m, part, cnt[part], reps[part])
                if t and not (part == "near" and m not in FAIR):
                    summary.append((proc, n, m, part, t, cov))
            lines.append(f"| {m} | " + " | ".join(cells) + f" | {none} |")
        lines.append("")
    return lines + pooled_table(d) + (pooled_table(d, held) if held else []), summary


def certify_tables(d):
    lines = ["## Certified picks", "",
             "Per requirement, over all repetitions: **point** is `fp pick` without `--confidence` "
             "(picked: it found a candidate meeting the requirement on the selection rows; breaks: its "
             "population value breaks the bound); **certified** is `fp pick --confidence 0.9` "
             "(certified: the share of repetitions certified; breaks: the share of *all* repetitions "
             "in which a certified pick breaks the bound in the population, target ≤ 0.10 + "
             "2·sqrt(0.09/reps)).", "",
             "| process | n | requirement | reps | point: picked | point: breaks | certified | certified and breaks | target | met | breaks among certified |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    have = False
    for proc, n in CELLS:
        recs = by_rep(read_lines(os.path.join(d, f"certify-{proc}-{n}.jsonl")))
        if not recs:
            continue
        have = True
        names = [q["name"] for q in recs[0]["requirements"]]
        for name in names:
            reps = 0
            pk = pb = ce = cb = 0
            for r in recs:
                q = next(x for x in r["requirements"] if x["name"] == name)
                reps += 1
                pt = q.get("point", {})
                pk += bool(pt.get("picked"))
                pb += bool(pt.get("breaks"))
                ct = q.get("cert", {})
                if ct.get("certified"):
                    ce += 1
                    cb += bool(ct.get("breaks"))
            target = 0.10 + 2 * math.sqrt(0.09 / reps)
            met = "yes" if cb / reps <= target else "**no**"
            lines.append(f"| {proc} | {n} | `{recs[0]['requirements'][names.index(name)]['flags']}` | {reps} | "
                         f"{pk / reps:.2f} | {pct(pb, reps)} | {pct(ce, reps)} | {pct(cb, reps)} | "
                         f"≤ {target:.3f} | {met} | {cb}/{ce} |")
    lines.append("")
    return lines if have else []


def xcheck_lines(d):
    xs = []
    for proc, n in CELLS:
        for r in read_lines(os.path.join(d, f"coverage-{proc}-{n}.jsonl")):
            if r.get("xcheck"):
                xs.append(r["xcheck"])
    if not xs:
        return []
    errs = [x for x in xs if "error" in x]
    diffs = [x["max_rel_diff"] for x in xs if "max_rel_diff" in x]
    line = (f"Population values: computed in numpy from the network and propensity files; checked against "
            f"`fp predict --logit --with-propensity --keep-coded | fp audit --json` on {len(xs)} networks "
            f"(every tenth repetition's first candidate): largest relative difference over the ten metrics "
            f"{max(diffs) if diffs else float('nan'):.1e}")
    line += f", {len(errs)} failed." if errs else "."
    return [line, ""]


def cmd_pilot(*rest):
    """The pilot: for each bound of the grid, how often the point pick exists and breaks the bound."""
    rest = list(rest)
    d = option(rest, "--dir", "results/certify-study")
    lines = ["# Pilot of the certification bounds", "",
             "`scripts/certify_study.sh pilot`: repetitions drawn with seeds of their own (not the "
             "study's), point picks (`fp pick` without `--confidence`) at a grid of bounds. picked: "
             "share of repetitions where a candidate met the bound on the selection rows; breaks: share "
             "of all repetitions where the pick's population value breaks the bound; pop median: the "
             "picks' median population value.", "",
             "| requirement | " + " | ".join(f"{p}-{n}: picked / breaks / pop median" for p, n in CELLS) + " |",
             "|---|" + "---|" * len(CELLS)]
    table = {}
    order = []
    for proc, n in CELLS:
        for r in read_lines(os.path.join(d, f"pilot-{proc}-{n}.jsonl")):
            for q in r["requirements"]:
                if q["flags"] not in order:
                    order.append(q["flags"])
                t = table.setdefault((q["flags"], proc, n), [0, 0, 0, []])
                pt = q.get("point", {})
                t[0] += 1
                t[1] += bool(pt.get("picked"))
                t[2] += bool(pt.get("breaks"))
                if pt.get("picked"):
                    t[3].append(pt["pop"])
    for flags in order:
        cells = []
        for proc, n in CELLS:
            t = table.get((flags, proc, n))
            if not t:
                cells.append("—")
                continue
            med = f"{np.median(t[3]):.4g}" if t[3] else "—"
            cells.append(f"{t[1]}/{t[0]} / {t[2]}/{t[0]} / {med}")
        lines.append(f"| `{flags}` | " + " | ".join(cells) + " |")
    text = "\n".join(lines) + "\n"
    print(text)
    with open(os.path.join(d, "pilot.md.tmp"), "w") as f:
        f.write(text)
    os.replace(os.path.join(d, "pilot.md.tmp"), os.path.join(d, "pilot.md"))


def cmd_analyse(*rest):
    rest = list(rest)
    d = option(rest, "--dir", "results/certify-study")
    # --held-out-from K: a table of the repetitions from K on too, those a construction chosen on
    # repetitions 0 … K−1 was not chosen on.
    cov, _ = coverage_tables(d, int(option(rest, "--held-out-from", "0")))
    lines = ["# Intervals and certified picks on a known population", "",
             "Made by `scripts/certify_study.sh analyse` from the records in this folder "
             "(docs/reproduction.md).", ""]
    lines += xcheck_lines(d)
    walls = []
    for proc, n in CELLS:
        rs = by_rep(read_lines(os.path.join(d, f"coverage-{proc}-{n}.jsonl")))
        if rs and all(isinstance(r.get("seconds"), (int, float)) for r in rs):
            walls.append(f"{proc}-{n} {len(rs)} reps, {sum(r['seconds'] for r in rs) / len(rs):.1f} s each")
    if walls:
        lines += ["Wall time of a repetition's fp commands (training, fronts, picks; two to four repetitions "
                  "at a time on two cores shared with other work), mean: " + "; ".join(walls) + ". The whole "
                  "study's wall time is in wall-time.txt.", ""]
    lines += cov + certify_tables(d)
    text = "\n".join(lines)
    print(text)
    tmp = os.path.join(d, "summary.md.tmp")
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, os.path.join(d, "summary.md"))


def cmd_gen(process, n, rep, out):
    rng = np.random.default_rng(seed_of("rep", process, n, rep))
    cols, a, y = draw(process, int(n), rng)
    write_csv(out, cols, a, y)


def cmd_population(process, out):
    rng = np.random.default_rng(seed_of("population", process))
    cols, a, y = draw(process, POP_ROWS, rng)
    write_csv(out, cols, a, y)


if __name__ == "__main__":
    args = sys.argv[1:]
    if not args:
        raise SystemExit(__doc__)
    cmd, rest = args[0], args[1:]
    if cmd == "gen":
        cmd_gen(*rest)
    elif cmd == "done":
        cmd_done(*rest)
    elif cmd == "rep-rows":
        cmd_rep_rows(*rest)
    elif cmd == "pick-row":
        cmd_pick_row(*rest)
    elif cmd == "pilot":
        cmd_pilot(*rest)
    elif cmd == "analyse":
        cmd_analyse(*rest)
    elif cmd == "popmetrics":
        cmd_popmetrics(*rest)
    elif cmd == "population":
        cmd_population(*rest)
    else:
        raise SystemExit(__doc__)
