package main

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/experiments/experimentstest"
	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

// smallSweep trains a one-split sweep in a new run folder, as the tests
// that follow a front to a decision need it: cfg is DefaultConfig with 30
// epochs on the backprop engine and one worker, then edited by edit (the
// dataset, method, λ grid, threshold of the test). It returns the folder
// and its records.
func smallSweep(t *testing.T, edit func(cfg *experiments.Config)) (string, []records.Record) {
	t.Helper()
	cfg := experiments.DefaultConfig()
	cfg.Splits, cfg.Epochs = 1, 30
	cfg.Engine, cfg.Workers = "backprop", 1
	edit(&cfg)
	out := filepath.Join(t.TempDir(), "run")
	experimentstest.Run(t, cfg, out)
	return out, readRecords(t, out)
}

// auditResult is what fp audit --json prints of the metrics a record keeps.
type auditResult struct {
	N                            int
	Risk, Accuracy, DP, EO, EOpp float64
	ATO                          *float64
	DPDiff                       float64 `json:"dp_diff"`
	DPRatio                      float64 `json:"dp_ratio"`
	EODiff                       float64 `json:"eo_diff"`
	EOppDiff                     float64 `json:"eopp_diff"`
}

// auditJSON runs fp audit args --json and reads what it prints.
func auditJSON(t *testing.T, args ...string) auditResult {
	t.Helper()
	stdout, stderr, err := runFP(t, append(append([]string{"audit"}, args...), "--json")...)
	if err != nil {
		t.Fatalf("audit: %v: %s", err, stderr)
	}
	var got auditResult
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	return got
}

// checkDecisions fails t unless the audit gives back rec's accuracy and
// decision metrics (dp_diff, dp_ratio, eo_diff, eopp_diff) within tol.
func (a auditResult) checkDecisions(t *testing.T, rec records.Record, tol float64) {
	t.Helper()
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"accuracy", a.Accuracy, rec.Accuracy}, {"dp_diff", a.DPDiff, rec.DPDiff},
		{"dp_ratio", a.DPRatio, rec.DPRatio}, {"eo_diff", a.EODiff, rec.EODiff},
		{"eopp_diff", a.EOppDiff, rec.EOppDiff},
	} {
		if math.Abs(c.got-c.want) > tol {
			t.Errorf("%s: %s %v, record %v", rec.Key(), c.name, c.got, c.want)
		}
	}
}

// The loop from a front to a decision reproduces the records: for every
// candidate of a small COMPAS run, the split's test rows written as raw CSV
// with their calibrated propensity, scored by fp predict --logit and
// audited by fp audit, give the record's metrics to 1e-12. The risk comes
// from the logit column through fairness.EvaluateLogits, the records' own
// softplus form, and from fp audit too when it reads logits (--logit).
// The sweep decides at threshold 0.4, and fp audit --threshold 0.4 gives
// back the records' accuracy and decision metrics.
func TestPredictAndAuditReproduceTheRecords(t *testing.T) {
	out, recs := smallSweep(t, func(cfg *experiments.Config) {
		cfg.Threshold = 0.4
		cfg.Lambdas, cfg.PropensityEpochs = "log:4", 10
	})

	ts, err := runfolder.LoadTestSplit(out, 0)
	if err != nil {
		t.Fatal(err)
	}
	d := ts.Data
	var b strings.Builder
	w := csv.NewWriter(&b)
	var header []string
	for _, c := range d.Schema.Columns {
		header = append(header, c.Name)
	}
	_ = w.Write(append(header, "y", "a", "propensity"))
	for r, i := range ts.Rows {
		raw, err := d.Schema.Raw(d.X[i*d.Dim : (i+1)*d.Dim])
		if err != nil {
			t.Fatal(err)
		}
		f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
		_ = w.Write(append(raw, f(d.Y[i]), f(d.A[i]), f(ts.Propensity[r])))
	}
	w.Flush()
	rawPath := filepath.Join(t.TempDir(), "test-rows.csv")
	if err := os.WriteFile(rawPath, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}

	if len(recs) != 4 {
		t.Fatalf("%d records, want 4", len(recs))
	}
	informative := 0 // candidates that are not near-constant predictors
	for _, rec := range recs {
		if !rec.OK() {
			t.Fatalf("%s failed: %s", rec.Key(), rec.FailReason)
		}
		if rec.Accuracy > 0.6 && rec.DP > 0.01 {
			informative++
		}
		scored := filepath.Join(t.TempDir(), "scored.csv")
		if _, _, err := runFP(t, "predict", "--model", filepath.Join(out, rec.Weights), "--data", rawPath,
			"--out", scored, "--keep", "y,a,propensity", "--logit"); err != nil {
			t.Fatal(err)
		}
		got := auditJSON(t, "--data", scored, "--logit", "logit", "--label", "y", "--group", "a",
			"--propensity", "propensity", "--threshold", "0.4")
		if got.N != rec.NTest || got.ATO == nil {
			t.Fatalf("%s: audit of %d rows (want %d), ato %v", rec.Key(), got.N, rec.NTest, got.ATO)
		}

		// The risk from the logits.
		f, err := os.Open(scored)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		n := len(rows) - 1
		z, y, a, e := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		for i, r := range rows[1:] { // y, a, propensity, score, label, logit
			y[i], _ = strconv.ParseFloat(r[0], 64)
			a[i], _ = strconv.ParseFloat(r[1], 64)
			e[i], _ = strconv.ParseFloat(r[2], 64)
			z[i], _ = strconv.ParseFloat(r[5], 64)
		}
		g, w, err := fairness.Binary(a, e)
		if err != nil {
			t.Fatal(err)
		}
		met, err := fairness.EvaluateLogits(z, y, g, w)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got.Risk-rec.Risk) > 1e-12 {
			t.Errorf("%s: fp audit --logit risk %v, record %v", rec.Key(), got.Risk, rec.Risk)
		}
		for _, c := range []struct {
			name      string
			got, want float64
		}{
			{"risk", met.Risk, rec.Risk}, {"ato", *got.ATO, rec.ATO},
			{"dp", got.DP, rec.DP}, {"eo", got.EO, rec.EO}, {"eopp", got.EOpp, rec.EOpp},
		} {
			if math.Abs(c.got-c.want) > 1e-12 {
				t.Errorf("%s: %s %v, record %v", rec.Key(), c.name, c.got, c.want)
			}
		}
		got.checkDecisions(t, rec, 1e-12)
	}
	if recs[0].Threshold != 0.4 {
		t.Errorf("records' threshold %v, want 0.4", recs[0].Threshold)
	}
	if informative == 0 {
		t.Error("no candidate learned anything: the comparison says little")
	}
}
