package experiments_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fpareto/fp/experiments/experimentstest"
	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

// PredictionSource, which loads the data once, gives the predictions
// LoadPredictions gives one candidate at a time, and fails as it does.
func TestPredictionSourceMatchesLoadPredictions(t *testing.T) {
	dir := t.TempDir()
	experimentstest.Run(t, smallConfig(), dir)
	recs, err := records.Read(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	src, err := runfolder.NewPredictionSource(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range recs {
		want, err := runfolder.LoadPredictions(dir, &recs[i])
		if err != nil {
			t.Fatal(err)
		}
		got, err := src.Predictions(&recs[i])
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.P, want.P) || !slices.Equal(got.Y, want.Y) || !slices.Equal(got.A, want.A) || !slices.Equal(got.Z, want.Z) {
			t.Errorf("%s: predictions differ from LoadPredictions", recs[i].Key())
		}
		// The logits and the propensities rebuild the recorded metrics:
		// what the intervals of the test metrics stand on.
		e, err := src.Propensity(recs[i].Split)
		if err != nil {
			t.Fatal(err)
		}
		ts, err := runfolder.LoadTestSplit(dir, recs[i].Split)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(e, ts.Propensity) {
			t.Errorf("split %d: the source's propensities are not LoadTestSplit's", recs[i].Split)
		}
		g, w, err := fairness.Binary(got.A, e)
		if err != nil {
			t.Fatal(err)
		}
		met, err := fairness.EvaluateLogits(got.Z, got.Y, g, w)
		if err != nil {
			t.Fatal(err)
		}
		r := recs[i]
		if met.Risk != r.Risk || met.Accuracy != r.Accuracy || met.ATO != r.ATO || met.DP != r.DP || met.EO != r.EO || met.EOpp != r.EOpp {
			t.Errorf("%s: re-scored metrics %+v, recorded risk %g accuracy %g ato %g dp %g eo %g eopp %g",
				r.Key(), met, r.Risk, r.Accuracy, r.ATO, r.DP, r.EO, r.EOpp)
		}
		for k, z := range got.Z {
			if got.P[k] != model.Sigmoid(z) {
				t.Fatalf("%s: row %d: p = %g, sigmoid(z) = %g", r.Key(), k, got.P[k], model.Sigmoid(z))
			}
		}
	}
	if cfg, err := runfolder.ReadConfig(dir); err != nil || src.DataID() != cfg.DataID || src.DataID() == "" || src.Config().Seed != cfg.Seed {
		t.Errorf("the source's data_id %q and config do not match config.json's (%v)", src.DataID(), err)
	}

	noNet := recs[0]
	noNet.Weights = ""
	if _, err := src.Predictions(&noNet); err == nil || !strings.Contains(err.Error(), "no stored network") {
		t.Errorf("a record without a network: err = %v", err)
	}
	if err := os.Remove(filepath.Join(dir, recs[1].Weights)); err != nil {
		t.Fatal(err)
	}
	if _, err := src.Predictions(&recs[1]); err == nil {
		t.Error("a missing network file: want an error")
	}
	if _, err := runfolder.NewPredictionSource(t.TempDir()); err == nil || !strings.Contains(err.Error(), "configuration") {
		t.Errorf("a folder without config.json: err = %v", err)
	}
}

// The selection rows' propensities (two groups) and overlap weights (more)
// rebuild the recorded sel_* metrics from the re-scored selection rows, as
// the test rows' rebuild the test metrics.
func TestPredictionSourceSelectionRows(t *testing.T) {
	for _, tc := range []struct {
		name    string
		dataset string
		groups  bool
	}{{"two groups", "compas", false}, {"four groups", "compas-race4", true}} {
		t.Run(tc.name, func(t *testing.T) {
			c := tinySelection(0.5)
			c.Dataset = tc.dataset
			dir := t.TempDir()
			if err := runSweep(c, dir); err != nil {
				t.Fatal(err)
			}
			recs, err := records.Read(filepath.Join(dir, "records.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			src, err := runfolder.NewPredictionSource(dir)
			if err != nil {
				t.Fatal(err)
			}
			for i := range recs {
				r := &recs[i]
				pr, err := src.Predictions(r)
				if err != nil {
					t.Fatal(err)
				}
				sel := pr.Selection
				if sel == nil || !r.HasSelection() || len(sel.Z) != r.NSel {
					t.Fatalf("%s: no selection rows re-scored, or not n_sel of them", r.Key())
				}
				var met fairness.Metrics
				if tc.groups {
					w, err := src.OverlapWeightsGroupsOn(r.Split, true)
					if err != nil {
						t.Fatal(err)
					}
					met, err = fairness.EvaluateLogits(sel.Z, sel.Y, sel.Groups, w)
					if err != nil {
						t.Fatal(err)
					}
				} else {
					e, err := src.PropensityOn(r.Split, true)
					if err != nil {
						t.Fatal(err)
					}
					g, w, err := fairness.Binary(sel.A, e)
					if err != nil {
						t.Fatal(err)
					}
					if met, err = fairness.EvaluateLogits(sel.Z, sel.Y, g, w); err != nil {
						t.Fatal(err)
					}
				}
				if met.Risk != r.SelRisk || met.ATO != r.SelATO || met.DP != r.SelDP || met.EO != r.SelEO || met.EOpp != r.SelEOpp {
					t.Errorf("%s: re-scored selection metrics %+v, recorded %+v", r.Key(), met, *r.Selection)
				}
			}
		})
	}
}
