#!/usr/bin/python3
# Fairlearn's mitigation methods on the splits of an fp run, scored by fp's own audit and written as
# fp records, so that fp compare and fp front put them beside the run's networks split by split.
#
#   PYTHONPATH=fairlearn-src /usr/bin/python3 scripts/fairlearn_compare.py RUN FP OUT [--splits 0,1,...] [--methods a,b,...]
#   scripts/fairlearn_compare.sh RUN FP OUT [...]      (the same, with the environment below)
#
# RUN is an fp run folder of a built-in dataset (fp train --dataset compas --splits 10 ...), FP the
# fp binary, OUT the folder written: OUT/<method>/records.jsonl, one record per candidate and
# split, with OUT/<method>/settings.json (the settings its config digest covers). Then, for example,
#   fp compare RUN OUT/fairlearn-expgrad-dp OUT/fairlearn-lr
# pairs them with the run's candidates by split (they carry RUN's data_id). The script prints each
# split's compute time and the total. It is deterministic: every fit is (lbfgs, no shuffling; the
# random_state below only seeds what Fairlearn would randomise), and the randomized classifiers are
# scored by their probabilities P(ŷ=1), never by a draw.
#
# Data. For each split m, `FP datasets export NAME --run RUN --split m --part P --coded` writes the
# rows as the split's networks see them (one-hot levels, standardized on the split's training rows),
# each under its index fp_row, with the target and the sensitive attribute coded 0/1. The methods
# are fitted on the train part (the whole training split: fp's networks train on it, less their
# validation rows when the run keeps some) and scored on the test part, and, when the run keeps
# selection rows, on those too (the sel_* fields). The sensitive attribute is never a feature; the
# reductions and the ThresholdOptimizer receive it as sensitive_features when fitting.
#
# Methods (candidates per split in brackets) and settings:
#   base estimator, everywhere: sklearn LogisticRegression(solver="lbfgs", C=1.0, penalty="l2",
#     max_iter=10000, tol=1e-6, random_state=seed) -- converges on COMPAS and Adult well within
#     max_iter (a ConvergenceWarning is counted and printed, not hidden).
#   fairlearn-lr: that LogisticRegression alone, scored by predict_proba [1]; lambda 0.
#   fairlearn-expgrad-dp / -eo: ExponentiatedGradient(LR, DemographicParity() / EqualizedOdds(),
#     eps=e, max_iter=50, nu=None, eta0=2.0, run_linprog_step=True) for e in EPS below [6]; lambda
#     is e. A randomized classifier: scored by _pmf_predict(X)[:, 1], P(ŷ=1).
#   fairlearn-grid-dp / -eo: GridSearch(LR, DemographicParity() / EqualizedOdds(),
#     grid_size=15 (dp, a grid of one dimension for two groups) / 31 (eo, two dimensions: one per
#     label), grid_limit=2.0, constraint_weight=0.5); every grid point's predictor is a candidate
#     [15 / 31], scored by its predict_proba; lambda is the grid point's index 0, 1, ...
#   fairlearn-threshold-dp-uses-a / -eo-uses-a: ThresholdOptimizer(estimator=the fitted LR,
#     constraints="demographic_parity" / "equalized_odds", objective="accuracy_score",
#     grid_size=1000, flip=False, prefit=True, predict_method="predict_proba") [1]; lambda 0. It
#     USES THE SENSITIVE ATTRIBUTE AT PREDICTION TIME (its thresholds are per group), which fp's
#     networks do not: the "-uses-a" in the method name and "uses_sensitive": true in its records
#     say so. Scored by _pmf_predict(X, sensitive_features=a)[:, 1].
#   seed: random_state = 1000 + m for split m (the record's seed).
#
# Scoring. Each candidate's scores on a part go to a CSV (fp_row, p, y, a[, e]) that
# `FP audit --data F --label y --group a --json` reads (the one call: fp_audit below): with
# --score p for the probabilities of the LR and GridSearch, with --decision p for the P(ŷ=1) of
# the randomized classifiers when FP's audit has that flag (else --score p, said once). e is the
# calibrated propensity of the split's own propensity model, which fp predict --with-propensity
# writes for any network of the split (joined on fp_row), so ato is the records' ato. The record
# takes n, risk, accuracy, ato, dp, eo, eopp and, when the audit gives them, dp_diff, dp_ratio,
# eo_diff, eopp_diff and per-group tpr/fpr (group_tpr, group_fpr); single_class (every p on one
# side of 0.5), collapsed and near_constant (SD of p below 1e-6, 1e-3: fp's thresholds);
# const_risk (and sel_const_risk) copied from RUN's record of the split, and its data_id, dataset,
# preset and sensitive; config is the first 12 hex digits of the SHA-256 of the method's settings
# (sorted JSON, written to settings.json).
#
# Environment (the versions this was run with):
#   Fairlearn 0.9.0 from source: git clone --depth 1 --branch v0.9.0
#     https://github.com/fairlearn/fairlearn fairlearn-src (or unpack the v0.9.0 release tarball,
#     https://github.com/fairlearn/fairlearn/archive/refs/tags/v0.9.0.tar.gz), then
#     PYTHONPATH=fairlearn-src; nothing is installed. It needs only numpy, scipy, pandas and
#     scikit-learn. scripts/fairlearn_compare.sh sets this up (FAIRLEARN_SRC names the folder).
#   Debian 12's packages: python3 3.11, python3-sklearn 1.2.1, python3-pandas 1.5.3,
#     python3-scipy 1.10.1, python3-numpy 1.24.2 (run /usr/bin/python3).
#   OMP_NUM_THREADS, OPENBLAS_NUM_THREADS and MKL_NUM_THREADS are set to 1 unless set, so that
#     timings are of one core and sums are in one order.
import os

for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import argparse
import csv
import hashlib
import json
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np
import sklearn
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression

import fairlearn
from fairlearn.postprocessing import ThresholdOptimizer
from fairlearn.reductions import DemographicParity, EqualizedOdds, ExponentiatedGradient, GridSearch

FAIRLEARN_VERSION = "0.9.0"
EPS = [0.001, 0.005, 0.01, 0.02, 0.05, 0.1]
GRID_SIZE = {"dp": 15, "eo": 31}
LR_SETTINGS = dict(solver="lbfgs", C=1.0, penalty="l2", max_iter=10000, tol=1e-6)
EXPGRAD_SETTINGS = dict(max_iter=50, nu=None, eta0=2.0, run_linprog_step=True)
GRID_SETTINGS = dict(grid_limit=2.0, constraint_weight=0.5)
THRESHOLD_SETTINGS = dict(objective="accuracy_score", grid_size=1000, flip=False, prefit=True,
                          predict_method="predict_proba")
CONSTRAINTS = {"dp": (DemographicParity, "demographic_parity"), "eo": (EqualizedOdds, "equalized_odds")}
METHODS = ["fairlearn-lr", "fairlearn-expgrad-dp", "fairlearn-expgrad-eo", "fairlearn-grid-dp",
           "fairlearn-grid-eo", "fairlearn-threshold-dp-uses-a", "fairlearn-threshold-eo-uses-a"]
ENGINE = "sklearn-%s/fairlearn-%s" % (sklearn.__version__, fairlearn.__version__)
COLLAPSED_SD, NEAR_CONSTANT_SD = 1e-6, 1e-3  # fp's thresholds (docs/method.md §7)


def seed_of(m):
    return 1000 + m


def settings(method):
    """Every setting of a method: what its config digest covers."""
    s = {"method": method, "fairlearn": FAIRLEARN_VERSION, "sklearn": sklearn.__version__,
         "estimator": "LogisticRegression", "lr": LR_SETTINGS, "seed": "1000 + split",
         "features": "fp datasets export --coded (train part)"}
    kind = method.split("-")[1]
    if kind == "expgrad":
        s.update(expgrad=EXPGRAD_SETTINGS, eps=EPS, constraints=method.split("-")[2])
    elif kind == "grid":
        c = method.split("-")[2]
        s.update(grid=dict(GRID_SETTINGS, grid_size=GRID_SIZE[c]), constraints=c)
    elif kind == "threshold":
        s.update(threshold=THRESHOLD_SETTINGS, constraints=CONSTRAINTS[method.split("-")[2]][1],
                 uses_sensitive=True)
    return s


def digest(s):
    return hashlib.sha256(json.dumps(s, sort_keys=True).encode()).hexdigest()[:12]


FP_SECONDS = [0.0]  # wall time spent in fp (export, predict, audit)


def run_fp(fp, *args):
    t0 = time.time()
    r = subprocess.run([fp, *args], capture_output=True, text=True)
    FP_SECONDS[0] += time.time() - t0
    if r.returncode != 0:
        sys.exit("fairlearn_compare: %s %s failed: %s" % (fp, " ".join(args), r.stderr.strip()))
    return r.stdout


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def export(fp, cfg, run, m, part, coded, out):
    args = ["datasets", "export", cfg["dataset"], "--run", run, "--split", str(m), "--part", part, "--out", out]
    if cfg.get("preset"):
        args += ["--preset", cfg["preset"]]
    if coded:
        args.append("--coded")
    run_fp(fp, *args)


def load_coded(path):
    """fp_row, the coded features, y and a of an export --coded file."""
    header, rows = read_csv(path)
    if header[0] != "fp_row":
        sys.exit("fairlearn_compare: %s: first column %r, want fp_row (an fp with datasets export --coded)" % (path, header[0]))
    v = np.array(rows, dtype=float)
    return v[:, 0].astype(int), v[:, 1:-2], v[:, -2].astype(int), v[:, -1].astype(int), header[1:-2]


def propensity(fp, cfg, run, m, part, rec, tmp):
    """fp_row → the split's calibrated propensity, from fp predict --with-propensity on the raw part
    with one of the split's networks (the propensity model is the split's, whichever network)."""
    raw, pred = os.path.join(tmp, "raw-%s.csv" % part), os.path.join(tmp, "prop-%s.csv" % part)
    export(fp, cfg, run, m, part, False, raw)
    args = ["predict", "--model", os.path.join(run, rec["weights"]), "--data", raw, "--out", pred,
            "--with-propensity", "--keep", "fp_row"]
    if rec.get("conditioned"):
        args += ["--lambda", repr(rec["lambda"])]
    run_fp(fp, *args)
    header, rows = read_csv(pred)
    i, j = header.index("fp_row"), header.index("propensity")
    return {int(r[i]): r[j] for r in rows}


_has_decision = None


def fp_audit(fp, path, randomized, with_propensity):
    """The one call of fp audit: --decision for a column of P(ŷ=1) where fp has it, else --score."""
    global _has_decision
    if _has_decision is None:
        _has_decision = "--decision" in subprocess.run([fp, "audit", "--help"], capture_output=True, text=True).stdout
        if not _has_decision:
            print("note: this fp audit has no --decision: the randomized classifiers' P(ŷ=1) is audited with --score")
    flag = "--decision" if randomized and _has_decision else "--score"
    args = ["audit", "--data", path, flag, "p", "--label", "y", "--group", "a", "--json"]
    if with_propensity:
        args += ["--propensity", "e"]
    return json.loads(run_fp(fp, *args))


def score_part(fp, p, part, tmp, randomized):
    """Audit the scores p of a part (a dict: rows, y, a, e) and return its record fields."""
    # Fairlearn's P(ŷ=1) can pass 1 (or 0) by rounding, ~1e-15: brought back within 1e-12, as fp
    # audit --decision does; anything farther out is left for fp audit to refuse.
    c = np.clip(p, 0.0, 1.0)
    p = np.where(np.abs(p - c) <= 1e-12, c, p)
    path = os.path.join(tmp, "scores.csv")
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["fp_row", "p", "y", "a"] + (["e"] if part["e"] is not None else []))
        for k, i in enumerate(part["rows"]):
            w.writerow([i, repr(float(p[k])), part["y"][k], part["a"][k]] + ([part["e"][k]] if part["e"] is not None else []))
    aud = fp_audit(fp, path, randomized, part["e"] is not None)
    sd = float(np.std(p))
    out = {"n": aud["n"], "risk": aud["risk"], "accuracy": aud["accuracy"], "ato": aud.get("ato", 0.0),
           "dp": aud["dp"], "eo": aud["eo"], "eopp": aud["eopp"],
           "single_class": bool(np.all(p > 0.5) or np.all(p <= 0.5)),
           "collapsed": sd < COLLAPSED_SD, "near_constant": sd < NEAR_CONSTANT_SD}
    for k in ("dp_diff", "dp_ratio", "eo_diff", "eopp_diff"):
        if k in aud:
            out[k] = aud[k]
    for k in ("tpr", "fpr"):
        by = {g["group"]: g[k] for g in aud.get("by_group", []) if k in g}
        if by:
            out["group_" + k] = by
    return out


def lr():
    # random_state is set per fit by the caller through set_params.
    return LogisticRegression(**LR_SETTINGS)


def candidates(method, X, y, a, seed):
    """Fit method on (X, y, a) and yield (lambda, randomized, score function of (X, a), fit seconds)."""
    kind = method.split("-")[1]
    t0 = time.process_time()
    if kind == "lr":
        est = lr().set_params(random_state=seed).fit(X, y)
        yield 0.0, False, lambda X, a: est.predict_proba(X)[:, 1], time.process_time() - t0
    elif kind == "expgrad":
        moment = CONSTRAINTS[method.split("-")[2]][0]
        for eps in EPS:
            t0 = time.process_time()
            eg = ExponentiatedGradient(lr().set_params(random_state=seed), moment(), eps=eps, **EXPGRAD_SETTINGS)
            eg.fit(X, y, sensitive_features=a)
            yield eps, True, (lambda eg: lambda X, a: eg._pmf_predict(X)[:, 1])(eg), time.process_time() - t0
    elif kind == "grid":
        c = method.split("-")[2]
        gs = GridSearch(lr().set_params(random_state=seed), CONSTRAINTS[c][0](), grid_size=GRID_SIZE[c], **GRID_SETTINGS)
        gs.fit(X, y, sensitive_features=a)
        secs = (time.process_time() - t0) / len(gs.predictors_)
        for i, est in enumerate(gs.predictors_):
            yield float(i), False, (lambda est: lambda X, a: est.predict_proba(X)[:, 1])(est), secs
    elif kind == "threshold":
        base = lr().set_params(random_state=seed).fit(X, y)
        to = ThresholdOptimizer(estimator=base, constraints=CONSTRAINTS[method.split("-")[2]][1], **THRESHOLD_SETTINGS)
        to.fit(X, y, sensitive_features=a)
        yield 0.0, True, lambda X, a: to._pmf_predict(X, sensitive_features=a)[:, 1], time.process_time() - t0
    else:
        raise ValueError(method)


def main():
    ap = argparse.ArgumentParser(description="Fairlearn's methods on the splits of an fp run, as fp records.")
    ap.add_argument("run"), ap.add_argument("fp"), ap.add_argument("out")
    ap.add_argument("--splits", help="comma-separated split indices (default: every split of the run)")
    ap.add_argument("--methods", default=",".join(METHODS), help="comma-separated, of: " + ", ".join(METHODS))
    args = ap.parse_args()
    fp, run = os.path.abspath(args.fp), args.run
    with open(os.path.join(run, "config.json")) as f:
        cfg = json.load(f)
    if cfg.get("csv"):
        sys.exit("fairlearn_compare: %s trains on the file %s; this script needs a built-in dataset" % (run, cfg["csv"]))
    methods = args.methods.split(",")
    for mth in methods:
        if mth not in METHODS:
            sys.exit("fairlearn_compare: --methods: unknown method %r (want: %s)" % (mth, ", ".join(METHODS)))
    base = {}  # split → RUN's first ok record with a network
    # records.jsonl, or one file per shard (records-shard-I-of-N.jsonl).
    files = sorted(f for f in os.listdir(run) if f.startswith("records") and f.endswith(".jsonl"))
    for name in files:
        with open(os.path.join(run, name)) as f:
            for line in f:
                if not line.strip():
                    continue
                r = json.loads(line)
                if r.get("status") == "ok" and r.get("weights") and r["split"] not in base:
                    base[r["split"]] = r
    splits = [int(s) for s in args.splits.split(",")] if args.splits else sorted(base)
    for m in splits:
        if m not in base:
            sys.exit("fairlearn_compare: %s has no finished record of split %d" % (run, m))
    out = {mth: [] for mth in methods}
    warned = []
    total = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        for m in splits:
            t_split = time.time()
            rec0, seed = base[m], seed_of(m)
            fit_s, fp_s0 = 0.0, FP_SECONDS[0]
            parts = {}
            for part in ["train", "test"] + (["selection"] if rec0.get("n_sel") else []):
                path = os.path.join(tmp, "%s.csv" % part)
                export(fp, cfg, run, m, part, True, path)
                rows, X, y, a, cols = load_coded(path)
                parts[part] = {"rows": rows, "X": X, "y": y, "a": a, "e": None}
                if part != "train" and len(set(a.tolist())) == 2:
                    e = propensity(fp, cfg, run, m, part, rec0, tmp)
                    parts[part]["e"] = [e[int(i)] for i in rows]
            tr = parts["train"]
            for mth in methods:
                t_fit = time.process_time()
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always", ConvergenceWarning)
                    cands = list(candidates(mth, tr["X"], tr["y"], tr["a"], seed))
                fit_s += time.process_time() - t_fit
                for w in caught:
                    if issubclass(w.category, ConvergenceWarning):
                        warned.append("split %d %s: %s" % (m, mth, w.message))
                for lam, randomized, f, secs in cands:
                    te = score_part(fp, f(parts["test"]["X"], parts["test"]["a"]), parts["test"], tmp, randomized)
                    rec = {"dataset": rec0["dataset"], "preset": rec0.get("preset", ""), "sensitive": rec0["sensitive"],
                           "method": mth, "penalty": "", "split": m, "lambda": lam, "seed": seed,
                           "engine": ENGINE, "arch": "", "batch": 0, "epochs": 0, "dim": tr["X"].shape[1],
                           "n_train": len(tr["rows"]), "n_test": te["n"], "train_seconds": secs,
                           "skipped_batches": 0, "collapsed": te["collapsed"], "single_class": te["single_class"],
                           "near_constant": te["near_constant"], "const_risk": rec0.get("const_risk"),
                           "risk": te["risk"], "accuracy": te["accuracy"], "ato": te["ato"], "dp": te["dp"],
                           "eo": te["eo"], "eopp": te["eopp"], "weights": "", "status": "ok",
                           "config": digest(settings(mth)), "data_id": rec0["data_id"]}
                    for k in ("group_counts", "const_error"):
                        if k in rec0:
                            rec[k] = rec0[k]
                    if randomized:
                        rec["randomized"] = True
                    for k in ("dp_diff", "dp_ratio", "eo_diff", "eopp_diff", "group_tpr", "group_fpr"):
                        if k in te:
                            rec[k] = te[k]
                    if "selection" in parts:
                        sp = parts["selection"]
                        se = score_part(fp, f(sp["X"], sp["a"]), sp, tmp, randomized)
                        rec.update({"sel_risk": se["risk"], "sel_accuracy": se["accuracy"], "sel_ato": se["ato"],
                                    "sel_dp": se["dp"], "sel_eo": se["eo"], "sel_eopp": se["eopp"], "n_sel": se["n"],
                                    "sel_single_class": se["single_class"], "sel_near_constant": se["near_constant"]})
                        for k in ("dp_diff", "dp_ratio", "eo_diff", "eopp_diff"):
                            if k in se:
                                rec["sel_" + k] = se[k]
                        for k in ("sel_const_risk", "sel_const_error"):
                            if k in rec0:
                                rec[k] = rec0[k]
                    if mth.endswith("-uses-a"):
                        rec["uses_sensitive"] = True
                    rec["family"] = {"grid": "reductions", "expgrad": "reductions",
                                     "threshold": "thresholds"}.get(mth.split("-")[1], "penalty")
                    out[mth].append(rec)
            print("split %d: %d training rows, %d features: %.1f s wall (fitting: %.1f s of CPU; in fp: %.1f s wall)" % (
                m, len(tr["rows"]), tr["X"].shape[1], time.time() - t_split, fit_s, FP_SECONDS[0] - fp_s0), flush=True)
    for mth in methods:
        d = os.path.join(args.out, mth)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "records.jsonl"), "w") as f:
            for rec in out[mth]:
                f.write(json.dumps(rec, sort_keys=False) + "\n")
        with open(os.path.join(d, "settings.json"), "w") as f:
            json.dump(settings(mth), f, indent=2, sort_keys=True)
            f.write("\n")
        print("%s: %d records in %s" % (mth, len(out[mth]), os.path.join(d, "records.jsonl")))
    for w in warned:
        print("ConvergenceWarning: " + w)
    print("compute time: %.1f s for %d splits (%s)" % (time.time() - total, len(splits), ENGINE))


if __name__ == "__main__":
    main()
