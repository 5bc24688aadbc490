package intervals_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/experiments/experimentstest"
	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

// thresholdsRun fits group thresholds under the eo constraint (whose
// rules are randomised) to one split of a fresh CSV and returns the folder
// and its records.
func thresholdsRun(t *testing.T) (string, []records.Record) {
	t.Helper()
	c, dir, _ := csvConfig(t, 1200)
	c.Method, c.Constraint = experiments.MethodThresholds, "eo"
	c.Splits, c.Lambdas, c.Epochs, c.PropensityEpochs, c.Engine = 1, "0,0.3,0.9", 20, 10, "backprop"
	recs := experimentstest.Train(t, c, dir)
	if len(recs) < 3 {
		t.Fatalf("%d successful candidates, want at least 3", len(recs))
	}
	return dir, recs
}

// A group-thresholds candidate's intervals are those of its rules'
// decisions: given, with the decision metrics', each holding the record's
// value — randomised rules among them.
func TestThresholdsCandidatesIntervals(t *testing.T) {
	dir, recs := thresholdsRun(t)
	randomised := false
	for _, r := range recs {
		if r.Family() != records.FamilyThresholds || r.Decision == nil {
			t.Fatalf("%s: family %s, decision metrics %v: not a thresholds candidate", r.Key(), r.Family(), r.Decision)
		}
		f, err := model.Load(filepath.Join(dir, r.Weights))
		if err != nil {
			t.Fatal(err)
		}
		for _, rule := range f.GroupThresholds.Rules {
			for _, w := range rule.Weights {
				randomised = randomised || (w > 0 && w < 1)
			}
		}
		c := open(t, dir, 300).For(&r)
		if !c.Given() || c.Rows != r.NTest {
			t.Fatalf("%s: no intervals (%d rows): %s", r.Key(), c.Rows, c.Note)
		}
		d := r.Decision
		for _, m := range []struct {
			name string
			iv   *[2]float64
			v    float64
		}{
			{"accuracy", (*[2]float64)(c.Accuracy), r.Accuracy}, {"risk", (*[2]float64)(c.Risk), r.Risk},
			{"dp_diff", (*[2]float64)(c.DPDiff), d.DPDiff}, {"dp_ratio", (*[2]float64)(c.DPRatio), d.DPRatio},
			{"eo_diff", (*[2]float64)(c.EODiff), d.EODiff}, {"eopp_diff", (*[2]float64)(c.EOppDiff), d.EOppDiff},
		} {
			if m.iv == nil || !(m.iv[0] <= m.v && m.v <= m.iv[1]) {
				t.Errorf("%s: %s %g, interval %v", r.Key(), m.name, m.v, m.iv)
			}
		}
	}
	// On the selection rows (what a certified pick bounds), the same.
	for _, r := range recs {
		s := r.Selection
		if s == nil || s.SelDecision == nil {
			t.Fatalf("%s keeps no selection decision metrics", r.Key())
		}
		c := open(t, dir, 300).AtLevel(&r, true, 300, 0.8, "certify")
		if !c.Given() || c.Rows != s.NSel {
			t.Fatalf("%s: no intervals on the selection rows (%d rows): %s", r.Key(), c.Rows, c.Note)
		}
		if iv := c.DPDiff; iv == nil || !(iv[0] <= s.SelDPDiff && s.SelDPDiff <= iv[1]) {
			t.Errorf("%s: selection dp_diff %g, interval %v", r.Key(), s.SelDPDiff, iv)
		}
		if iv := c.Accuracy; iv == nil || !(iv[0] <= s.SelAccuracy && s.SelAccuracy <= iv[1]) {
			t.Errorf("%s: selection accuracy %g, interval %v", r.Key(), s.SelAccuracy, iv)
		}
	}
	if !randomised {
		t.Error("no rule of the eo fit is randomised: the test does not reach expected decisions")
	}
}

// Rules that select every row of p ≥ 0.5 in each group give exactly the
// intervals of the same network deciding at the threshold 0.5; and a
// record whose decision metrics are not its rules' is refused.
func TestThresholdsZeroOneRuleIsOneThreshold(t *testing.T) {
	dir, recs := thresholdsRun(t)
	rec := recs[0]
	f, err := model.Load(filepath.Join(dir, rec.Weights))
	if err != nil {
		t.Fatal(err)
	}
	// The same network twice: with the rule 1{p ≥ 0.5} for every group,
	// and as a plain network.
	gt := *f.GroupThresholds
	gt.Rules = []model.ThresholdRule{{Thresholds: []float64{0.5}, Weights: []float64{1}}, {Thresholds: []float64{0.5}, Weights: []float64{1}}}
	rules := *f
	rules.GroupThresholds = &gt
	plain := *f
	plain.Format, plain.GroupThresholds = model.FileFormat, nil
	for name, g := range map[string]*model.File{"rules.json": &rules, "plain.json": &plain} {
		if err := model.Save(filepath.Join(dir, "networks", name), g); err != nil {
			t.Fatal(err)
		}
	}
	// Their records: the metrics at 0.5, computed here from the re-scored
	// rows; the plain one is a penalty candidate of the same identity, so
	// that both bootstraps draw from one generator.
	pr, err := runfolder.LoadPredictions(dir, &rec)
	if err != nil {
		t.Fatal(err)
	}
	groups, err := fairness.BinaryGroups(pr.A)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := fairness.DecideScores(pr.P, pr.Y, groups, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	byRules := rec
	byRules.Weights, byRules.Accuracy, byRules.Threshold = "networks/rules.json", dec.Accuracy, 0
	byRules.Decision = &records.Decision{DPDiff: dec.DPDiff, DPRatio: dec.DPRatio, EODiff: dec.EODiff, EOppDiff: dec.EOppDiff}
	byThreshold := byRules
	byThreshold.Weights, byThreshold.FamilyName, byThreshold.UsesSensitive = "networks/plain.json", records.FamilyPenalty, false

	a, b := open(t, dir, 300).For(&byRules), open(t, dir, 300).For(&byThreshold)
	if !a.Given() || !b.Given() {
		t.Fatalf("no intervals: rules %q, threshold %q", a.Note, b.Note)
	}
	if text(t, a) != text(t, b) {
		t.Errorf("the 0/1 rules give\n%s\none threshold gives\n%s", text(t, a), text(t, b))
	}

	// The record's decision metrics are checked against its rules'.
	wrong := byRules
	wrong.Decision = &records.Decision{DPDiff: dec.DPDiff + 0.01, DPRatio: dec.DPRatio, EODiff: dec.EODiff, EOppDiff: dec.EOppDiff}
	if c := open(t, dir, 300).For(&wrong); c.Given() || !strings.Contains(c.Note, "the re-scored test dp_diff is") {
		t.Errorf("a record with another dp_diff than its rules: %q", c.Note)
	}
}
