package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/compare"
)

func TestCompareTables(t *testing.T) {
	cheb, linear := twoSweeps(t)
	// A strong adversarial baseline, β×200: one candidate that is dominated
	// on ato by linear's (15, 0.2) but is the best on dp.
	adv := frontRecord("adversarial", "c3", 200, 16, 0.25, 0.05)
	adv.Penalty, adv.BetaScale = "", 200
	advPath := filepath.Join(t.TempDir(), "adv.jsonl")
	writeFrontRecords(t, advPath, adv)

	out, _, err := runFP(t, "compare", "--front-rule", "minmax", cheb, linear, advPath, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var res compare.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	rows := res.Pooled
	if len(rows) != 4*3 {
		t.Fatalf("%d rows, want 4 metrics × 3 methods:\n%s", len(rows), out)
	}
	for _, k := range []string{`"metric"`, `"method"`, `"penalty"`, `"candidates"`, `"nondominated"`, `"hypervolume"`, `"share"`,
		`"per_split"`, `"split"`, `"paired"`, `"a"`, `"b"`, `"splits"`, `"hv_diff_mean"`, `"ci_low"`, `"ci_high"`, `"p_value"`, `"a_wins"`} {
		if !strings.Contains(out, k) {
			t.Errorf("JSON lacks key %s", k)
		}
	}
	// ato: points cheb (10,.3) (20,.1) (20,.3); linear (15,.2); adversarial (16,.25).
	// Normalised: x over [10,20], y over [.1,.3]. Adversarial (0.6, 0.75) is
	// dominated by linear (0.5, 0.5), so its share of the pooled front is 0:
	// the pooled front is cheb (0,1), linear (.5,.5), cheb (1,0).
	// Its own hypervolume is (1.1−0.6)·(1.1−0.75) = 0.175.
	want := map[string][3]float64{ // candidates, nondominated, share (metric ato)
		"cheb":        {3, 2, 2.0 / 3},
		"linear":      {1, 1, 1.0 / 3},
		"adversarial": {1, 1, 0},
	}
	for _, r := range rows {
		if r.Metric != "ato" {
			continue
		}
		w := want[r.Method]
		if float64(r.Candidates) != w[0] || float64(r.NonDominated) != w[1] || math.Abs(r.Share-w[2]) > 1e-12 {
			t.Errorf("ato %s: %+v, want candidates %v nondominated %v share %v", r.Method, r, w[0], w[1], w[2])
		}
		if r.Method == "adversarial" && (math.Abs(r.Hypervolume-0.175) > 1e-12 || r.BetaScale != 200) {
			t.Errorf("adversarial row %+v, want hypervolume 0.175 and β scale 200", r)
		}
	}
	// Rows come in the paper's order within each metric.
	if rows[0].Metric != "ato" || rows[0].Method != "cheb" || rows[2].Method != "adversarial" {
		t.Errorf("row order: %+v", rows[:3])
	}

	text, _, err := runFP(t, "compare", "--front-rule", "minmax", cheb, linear, advPath)
	if err != nil {
		t.Fatal(err)
	}
	// Every candidate is on split 0: one paired comparison per metric and
	// pair of the three groups, over one split.
	if len(res.PerSplit) != 4*3 || len(res.Paired) != 4*3 || res.Paired[0].Splits != 1 {
		t.Errorf("%d per-split rows and %d pairs, want 12 and 12 over one split: %+v", len(res.PerSplit), len(res.Paired), res.Paired)
	}
	for _, s := range []string{"risk vs ato, pooled", "risk vs eopp, split by split", "adversarial(β×200)", "linear"} {
		if !strings.Contains(text, s) {
			t.Errorf("table lacks %q:\n%s", s, text)
		}
	}
}

func TestCompareNeedsRecords(t *testing.T) {
	_, _, err := runFP(t, "compare")
	if err == nil {
		t.Fatal("compare with no arguments succeeded")
	}
	oneLine(t, err.Error())
	_, _, err = runFP(t, "compare", filepath.Join(t.TempDir(), "missing.jsonl"))
	if err == nil || !strings.Contains(err.Error(), "missing.jsonl") {
		t.Errorf("missing file: err = %v", err)
	}
}

// fp compare B A is fp compare A B turned round: on the committed COMPAS
// records of linear one layer and Chebyshev output, every paired mean and
// interval negated, p and q kept, a and b and their runs swapped; A is the
// run given first, though the paper's order puts Chebyshev first.
func TestCompareArgumentOrderSwapsAAndB(t *testing.T) {
	t.Chdir("../..")
	lin, cheb := "results/compas/linear-ato-penultimate.jsonl", "results/compas/cheb-ato-output.jsonl"
	run := func(args ...string) compare.Result {
		out, _, err := runFP(t, append([]string{"compare", "--front-rule", "minmax", "--json"}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		var res compare.Result
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		return res
	}
	ab, ba := run(lin, cheb), run(cheb, lin)
	if len(ab.Paired) != 4 || len(ba.Paired) != 4 {
		t.Fatalf("%d and %d paired rows, want one per metric", len(ab.Paired), len(ba.Paired))
	}
	for i, p := range ab.Paired {
		q := ba.Paired[i]
		if p.A != "linear/ato-penultimate" || len(p.ARuns) != 1 || p.ARuns[0] != lin || len(p.BRuns) != 1 || p.BRuns[0] != cheb {
			t.Errorf("%s: A = %s %v, B = %s %v: want the run given first as A", p.Metric, p.A, p.ARuns, p.B, p.BRuns)
		}
		if q.Metric != p.Metric || q.A != p.B || q.B != p.A || q.ARuns[0] != cheb || q.BRuns[0] != lin ||
			q.Mean != -p.Mean || q.CILow != -p.CIHigh || q.CIHigh != -p.CILow || q.PValue != p.PValue || q.QValue != p.QValue {
			t.Errorf("%s: A − B %+v\nB − A %+v", p.Metric, p.Paired, q.Paired)
		}
		if p.QValue < p.PValue || p.QValue > 1 {
			t.Errorf("%s: q %g beside p %g", p.Metric, p.QValue, p.PValue)
		}
	}
}
