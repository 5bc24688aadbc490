package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/runfolder"
)

// The loop from a front to a decision reproduces the records: for every
// candidate of a small COMPAS run, the split's test rows written as raw CSV
// with their calibrated propensity, scored by fp predict --logit and
// audited by fp audit, give the record's metrics to 1e-12. The risk comes
// from the logit column through fairness.EvaluateLogits, the records' own
// softplus form, and from fp audit too when it reads logits (--logit).
// The sweep decides at threshold 0.4, and fp audit --threshold 0.4 gives
// back the records' accuracy and decision metrics.
func TestPredictAndAuditReproduceTheRecords(t *testing.T) {
	cfg := experiments.DefaultConfig()
	cfg.Threshold = 0.4
	cfg.Splits, cfg.Lambdas, cfg.Epochs, cfg.PropensityEpochs = 1, "log:4", 30, 10
	cfg.Engine, cfg.Workers = "backprop", 1
	out := filepath.Join(t.TempDir(), "run")
	runner, err := experiments.NewRunner(cfg, out, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runner.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	runner.Close()

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

	recs := readRecords(t, out)
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
		stdout, _, err := runFP(t, "audit", "--data", scored, "--logit", "logit", "--label", "y", "--group", "a",
			"--propensity", "propensity", "--threshold", "0.4", "--json")
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			N                            int
			Risk, Accuracy, DP, EO, EOpp float64
			ATO                          *float64
			DPDiff                       float64 `json:"dp_diff"`
			DPRatio                      float64 `json:"dp_ratio"`
			EODiff                       float64 `json:"eo_diff"`
			EOppDiff                     float64 `json:"eopp_diff"`
		}
		if err := json.Unmarshal([]byte(stdout), &got); err != nil {
			t.Fatal(err)
		}
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
			{"risk", met.Risk, rec.Risk}, {"accuracy", got.Accuracy, rec.Accuracy}, {"ato", *got.ATO, rec.ATO},
			{"dp", got.DP, rec.DP}, {"eo", got.EO, rec.EO}, {"eopp", got.EOpp, rec.EOpp},
			{"dp_diff", got.DPDiff, rec.DPDiff}, {"dp_ratio", got.DPRatio, rec.DPRatio},
			{"eo_diff", got.EODiff, rec.EODiff}, {"eopp_diff", got.EOppDiff, rec.EOppDiff},
		} {
			if math.Abs(c.got-c.want) > 1e-12 {
				t.Errorf("%s: %s %v, record %v", rec.Key(), c.name, c.got, c.want)
			}
		}
	}
	if recs[0].Threshold != 0.4 {
		t.Errorf("records' threshold %v, want 0.4", recs[0].Threshold)
	}
	if informative == 0 {
		t.Error("no candidate learned anything: the comparison says little")
	}
}
