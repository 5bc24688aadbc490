package compare

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/fpareto/fp/pareto"
	"github.com/fpareto/fp/records"
)

// withConst is rec carrying its split's constant predictor's risk.
func withConst(method, config string, split int, risk, ato, constRisk float64) records.Record {
	r := rec(method, config, split, risk, ato)
	r.ConstRisk = &constRisk
	return r
}

// The two splits of pareto's TestPerSplitWithConstant as records (constant
// risk 0.7 on split 0, 1 on split 1):
//
//	split 0: a (0.5, 0.2), (0.6, 0.1) → 0.835;  b (0.55, 0.4), (0.8, 0) → 0.185
//	split 1: a (1.2, 0.3) → 0.11 (worse than constant);  b (0.8, 0.6), (0.9, 0.3) → 0.46
//
// Pooled, the constant is the mean of the splits', 0.85; x runs from 0.5 to
// 0.85 (span 0.35), y from 0 to 0.6:
//
//	a's front (0.5, 0.2), (0.6, 0.1) → (0, 1/3), (2/7, 1/6), and (1, 0):
//	  1.1·(1.1 − 1/3) + (1.1 − 2/7)·(1/3 − 1/6) + 0.1·(1/6)
//	b's front (0.55, 0.4), (0.8, 0) → (1/7, 2/3), (6/7, 0), which dominates (1, 0):
//	  (1.1 − 1/7)·(1.1 − 2/3) + (1.1 − 6/7)·(2/3)
func handRecords() []records.Record {
	return []records.Record{
		withConst("cheb", "a", 0, 0.5, 0.2, 0.7), withConst("cheb", "a", 0, 0.6, 0.1, 0.7),
		withConst("linear", "b", 0, 0.55, 0.4, 0.7), withConst("linear", "b", 0, 0.8, 0, 0.7),
		withConst("cheb", "a", 1, 1.2, 0.3, 1), withConst("linear", "b", 1, 0.8, 0.6, 1), withConst("linear", "b", 1, 0.9, 0.3, 1),
	}
}

func TestRunConstantRuleHandWorked(t *testing.T) {
	res, err := Run(handRecords(), Options{Metrics: []string{"ato"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.FrontRule != "constant" || res.Axis != "risk" {
		t.Errorf("rule %q, axis %q: want the defaults constant, risk", res.FrontRule, res.Axis)
	}
	pooled := map[string]float64{
		"cheb/ato-penultimate":   1.1*(1.1-1.0/3) + (1.1-2.0/7)*(1.0/3-1.0/6) + 0.1*(1.0/6),
		"linear/ato-penultimate": (1.1-1.0/7)*(1.1-2.0/3) + (1.1-6.0/7)*(2.0/3),
	}
	for _, r := range res.Pooled {
		if math.Abs(r.Hypervolume-pooled[r.Group]) > 1e-12 || r.Constant == nil || math.Abs(*r.Constant-0.85) > 1e-15 {
			t.Errorf("pooled %s: hypervolume %.17g, constant %v; want %.17g, 0.85", r.Group, r.Hypervolume, r.Constant, pooled[r.Group])
		}
	}
	perSplit := map[int]map[string]float64{
		0: {"cheb/ato-penultimate": 0.835, "linear/ato-penultimate": 0.185},
		1: {"cheb/ato-penultimate": 0.11, "linear/ato-penultimate": 0.46},
	}
	constant := map[int]float64{0: 0.7, 1: 1}
	if len(res.PerSplit) != 4 {
		t.Fatalf("per split %+v", res.PerSplit)
	}
	for _, h := range res.PerSplit {
		if math.Abs(h.Hypervolume-perSplit[h.Split][h.Group]) > 1e-12 || h.Constant == nil || *h.Constant != constant[h.Split] {
			t.Errorf("split %d %s: hypervolume %.17g, constant %v; want %g, %g", h.Split, h.Group, h.Hypervolume, h.Constant,
				perSplit[h.Split][h.Group], constant[h.Split])
		}
	}
	// The paired comparison is of the per-split values: cheb − linear is
	// 0.65 on split 0 and −0.35 on split 1.
	if p := res.Paired[0]; p.Splits != 2 || p.AWins != 1 || math.Abs(p.Mean-0.15) > 1e-12 || math.Abs(p.CILow+0.35) > 1e-12 {
		t.Errorf("paired %+v: want mean 0.15 over 2 splits, interval from −0.35", p)
	}
	var b bytes.Buffer
	if err := WriteText(&b, res); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"front rule constant, x axis risk", "the constant predictor (1, 0)\njoins every front", "risk vs ato, pooled",
		"its constant predictor"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("text lacks %q:\n%s", s, b.String())
		}
	}
	js, _ := json.Marshal(res)
	if !bytes.Contains(js, []byte(`"front_rule":"constant","axis":"risk"`)) {
		t.Errorf("JSON does not state the rule and axis: %s", js)
	}
}

// A group whose every candidate has a log-loss above its split's constant
// predictor's (outputs that are no probabilities) has the hypervolume of
// the constant predictor alone, 0.1·1.1, on each split and pooled; the
// other group's hypervolumes do not depend on it beyond its unfairness,
// which stretches the y axis. Under min–max the same group gains area.
func TestRunWorseThanConstantGroup(t *testing.T) {
	var recs []records.Record
	for m := range 3 {
		recs = append(recs,
			withConst("cheb", "a", m, 0.60, 0.02, 0.69), withConst("cheb", "a", m, 0.65, 0.01, 0.69),
			withConst("adversarial", "b", m, 0.70, 0.001, 0.69), withConst("adversarial", "b", m, 2.5, 0, 0.69),
			withConst("adversarial", "b", m, 0.95, 0.02, 0.69))
	}
	const alone = 0.1 * 1.1
	for _, tc := range []struct {
		rule pareto.Rule
		want func(float64) bool
	}{
		{pareto.RuleConstant, func(hv float64) bool { return math.Abs(hv-alone) < 1e-12 }},
		{pareto.RuleMinMax, func(hv float64) bool { return hv > alone+0.1 }},
	} {
		res, err := Run(recs, Options{Metrics: []string{"ato"}, Rule: tc.rule})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Pooled {
			if r.Group == "adversarial/ato-penultimate" && !tc.want(r.Hypervolume) {
				t.Errorf("%s: pooled hypervolume of the worse-than-constant group %.17g", tc.rule, r.Hypervolume)
			}
		}
		for _, h := range res.PerSplit {
			if h.Group == "adversarial/ato-penultimate" && !tc.want(h.Hypervolume) {
				t.Errorf("%s: split %d hypervolume of the worse-than-constant group %.17g", tc.rule, h.Split, h.Hypervolume)
			}
		}
	}
}

// --axis error: the x axis is 1 − accuracy and the constant predictor's
// const_error. The records are the hand-worked ones with the x on
// accuracy and every risk above const_risk, so that the risk axis would
// give every front the constant's 0.11 and the error axis gives the
// hand-worked values.
func TestRunErrorAxis(t *testing.T) {
	recs := handRecords()
	for i := range recs {
		r := &recs[i]
		r.Accuracy, r.ConstError, r.Risk = 1-r.Risk, r.ConstRisk, 9
	}
	res, err := Run(recs, Options{Metrics: []string{"ato"}, Axis: records.AxisError})
	if err != nil {
		t.Fatal(err)
	}
	perSplit := map[int]map[string]float64{
		0: {"cheb/ato-penultimate": 0.835, "linear/ato-penultimate": 0.185},
		1: {"cheb/ato-penultimate": 0.11, "linear/ato-penultimate": 0.46},
	}
	for _, h := range res.PerSplit {
		if math.Abs(h.Hypervolume-perSplit[h.Split][h.Group]) > 1e-9 {
			t.Errorf("error axis, split %d %s: hypervolume %.17g, want %g", h.Split, h.Group, h.Hypervolume, perSplit[h.Split][h.Group])
		}
	}
	var b bytes.Buffer
	if err := WriteText(&b, res); err != nil || !strings.Contains(b.String(), "error vs ato, pooled") ||
		!strings.Contains(b.String(), "x axis error (1 − accuracy)") {
		t.Errorf("text (%v):\n%s", err, b.String())
	}
	risk, err := Run(recs, Options{Metrics: []string{"ato"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range risk.PerSplit {
		if math.Abs(h.Hypervolume-0.11) > 1e-12 {
			t.Errorf("risk axis, split %d %s: hypervolume %g, want the constant's 0.11", h.Split, h.Group, h.Hypervolume)
		}
	}
}

// What the rules need of the records, refused in one line naming the file.
func TestRunRuleRefusals(t *testing.T) {
	old := rec("cheb", "c", 0, 0.6, 0.1) // neither const_risk nor const_error
	old.Source = "runs/old/records.jsonl"
	noErr := withConst("cheb", "c", 0, 0.6, 0.1, 0.69) // const_risk only
	noErr.Source = "runs/mid/records.jsonl"
	for _, tc := range []struct {
		name string
		rec  records.Record
		opt  Options
		want []string // in the error; nil: no error
	}{
		{"no const_risk, constant rule", old, Options{Metrics: []string{"ato"}},
			[]string{"runs/old/records.jsonl", "const_risk", "--front-rule minmax"}},
		{"no const_risk, minmax", old, Options{Metrics: []string{"ato"}, Rule: pareto.RuleMinMax}, nil},
		{"no const_error, error axis", noErr, Options{Metrics: []string{"ato"}, Axis: records.AxisError},
			[]string{"runs/mid/records.jsonl", "written before fp recorded const_error", "rerun the sweep"}},
		{"no const_error, error axis, minmax", noErr, Options{Metrics: []string{"ato"}, Axis: records.AxisError, Rule: pareto.RuleMinMax}, nil},
		{"no const_error, risk axis", noErr, Options{Metrics: []string{"ato"}}, nil},
		{"unknown axis", noErr, Options{Axis: "auc"}, []string{`axis "auc"`, "risk or error"}},
		{"unknown rule", noErr, Options{Rule: "pareto"}, []string{`front rule "pareto"`}},
		{"no decision metrics", noErr, Options{Metrics: []string{"dp-diff"}}, []string{"runs/mid/records.jsonl", "decision metrics"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Run([]records.Record{tc.rec}, tc.opt)
			if tc.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v, result %+v: want a one-line refusal", err, res)
			}
			for _, s := range tc.want {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("err = %v, want it to name %q", err, s)
				}
			}
		})
	}
	// Records without decision metrics are compared on the metrics they carry.
	res, err := Run([]records.Record{noErr}, Options{})
	if err != nil || len(res.Pooled) != len(records.ScoreMetrics) {
		t.Errorf("default metrics of records without decision metrics: %v, %d pooled rows; want %d", err, len(res.Pooled), len(records.ScoreMetrics))
	}
}
