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

// minmax is the paper's rule, under which the tests below were worked out.
const minmax = pareto.RuleMinMax

func rec(method, config string, split int, risk, ato float64) records.Record {
	return records.Record{Dataset: "compas", Method: method, Penalty: "ato-penultimate", Split: split,
		Risk: risk, ATO: ato, Config: config, Status: records.StatusOK}
}

// Two runs on two splits, under the min–max rule. On each split the points
// normalise as in pareto's hand-worked case: linear's (0.5, 0.5) has hypervolume 0.36 and
// cheb's two extremes 0.21, so linear − cheb = 0.15 on both splits, and
// cheb comes first in the paper's order.
func TestRunHandWorked(t *testing.T) {
	recs := []records.Record{
		rec("linear", "c2", 0, 15, 0.2), rec("cheb", "c1", 0, 10, 0.3), rec("cheb", "c1", 0, 20, 0.1),
		rec("linear", "c2", 1, 1.5, 0.02), rec("cheb", "c1", 1, 1, 0.03), rec("cheb", "c1", 1, 2, 0.01),
	}
	// Pooled over the splits, cheb's front is split 1's two points; its
	// collapsed candidate of split 0 is dominated and not counted.
	recs[2].Collapsed = true
	recs[4].Collapsed, recs[4].SingleClass = true, true
	recs[5].SingleClass = true
	// Split 1's risk-2 point is no better than the constant predictor; the
	// linear point would be, but records without const_risk are not judged.
	constant := 1.5
	recs[5].ConstRisk, recs[4].ConstRisk = &constant, &constant
	res, err := Run(recs, Options{Metrics: []string{"ato"}, Rule: minmax})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pooled) != 2 || res.Pooled[0].Group != "cheb/ato-penultimate" || res.Pooled[1].Group != "linear/ato-penultimate" {
		t.Fatalf("pooled %+v", res.Pooled)
	}
	if c := res.Pooled[0]; c.FrontCollapsed != 1 || c.FrontSingleClass != 2 || c.FrontNoBetter != 1 || c.Configs != 1 || c.Method != "cheb" {
		t.Errorf("cheb row %+v: want 1 collapsed, 2 single-class and 1 no better than constant on its front", c)
	}
	if l := res.Pooled[1]; l.FrontNoBetter != 0 {
		t.Errorf("linear row %+v: no const_risk, yet counted no better than constant", l)
	}
	if len(res.PerSplit) != 4 {
		t.Fatalf("per split %+v", res.PerSplit)
	}
	for _, h := range res.PerSplit {
		want := 0.21
		if h.Group == "linear/ato-penultimate" {
			want = 0.36
		}
		if math.Abs(h.Hypervolume-want) > 1e-12 {
			t.Errorf("%+v, want hypervolume %g", h, want)
		}
	}
	p := res.Paired[0]
	if len(res.Paired) != 1 || p.A != "cheb/ato-penultimate" || p.Splits != 2 || p.AWins != 0 ||
		math.Abs(p.Mean+0.15) > 1e-12 || math.Abs(p.CILow+0.15) > 1e-12 || math.Abs(p.CIHigh+0.15) > 1e-12 || p.PValue != 0.5 {
		t.Errorf("paired %+v, want cheb − linear = −0.15 on both splits, p = 0.5", p)
	}
	var b bytes.Buffer
	if err := WriteText(&b, res); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"risk vs ato, pooled over all splits", "risk vs ato, split by split", "-0.1500", "front collapsed", "front no better"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("text lacks %q:\n%s", s, b.String())
		}
	}
}

// With fewer than six splits that differ, the text says that p cannot reach
// 0.05; with six it does not.
func TestWriteTextNotesUnreachableP(t *testing.T) {
	for _, tc := range []struct {
		splits int
		note   string
	}{{2, "note: 2 paired splits cannot give p below 0.5"},
		{5, "note: 5 paired splits cannot give p below 0.062"}, {6, ""}} {
		var recs []records.Record
		for m := range tc.splits {
			recs = append(recs, rec("linear", "c2", m, 15, 0.2), rec("cheb", "c1", m, 10, 0.3), rec("cheb", "c1", m, 20, 0.1))
		}
		res, err := Run(recs, Options{Metrics: []string{"ato"}, Rule: minmax})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Paired[0].MinPValue; got != math.Ldexp(2, -tc.splits) {
			t.Errorf("%d splits: min p %g", tc.splits, got)
		}
		var b bytes.Buffer
		if err := WriteText(&b, res); err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(b.String(), "note: "); tc.note == "" && n != 0 || tc.note != "" && (n != 1 || !strings.Contains(b.String(), tc.note)) {
			t.Errorf("%d splits: text\n%s\nwant note %q", tc.splits, b.String(), tc.note)
		}
	}
}

func TestRunRefusesMixedDatasets(t *testing.T) {
	a, b := rec("cheb", "c1", 0, 1, 1), rec("cheb", "c2", 0, 1, 1)
	b.Dataset = "adult-sex"
	_, err := Run([]records.Record{a, b}, Options{})
	if err == nil || !strings.Contains(err.Error(), "--by dataset,run") {
		t.Errorf("err = %v, want a refusal suggesting --by dataset,run", err)
	}
	by, _ := records.ParseGrouping("dataset,run")
	res, err := Run([]records.Record{a, b}, Options{By: by, Metrics: []string{"dp"}, Rule: minmax})
	if err != nil || len(res.Pooled) != 2 || res.Pooled[0].Dataset != "adult-sex" {
		t.Errorf("grouped by dataset: %v %+v", err, res)
	}
	if _, err := Run([]records.Record{a}, Options{Metrics: []string{"auc"}, Rule: minmax}); err == nil {
		t.Error("metric auc accepted")
	}
}

// Groups without a split in common are not paired, and the JSON form has
// no NaN.
func TestRunNoCommonSplit(t *testing.T) {
	res, err := Run([]records.Record{rec("cheb", "c1", 0, 1, 1), rec("linear", "c2", 1, 2, 0)}, Options{Metrics: []string{"ato"}, Rule: minmax})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Paired) != 0 || len(res.PerSplit) != 2 {
		t.Errorf("paired %+v, per split %+v", res.Paired, res.PerSplit)
	}
	if _, err := json.Marshal(res); err != nil {
		t.Error(err)
	}
}

// Two cheb sweeps (configurations c1, c3) pooled by method are flagged once
// (for the first metric); grouping by run, config or λ flags nothing.
func TestMixedSweeps(t *testing.T) {
	recs := []records.Record{
		rec("cheb", "c1", 0, 10, 0.3), rec("cheb", "c3", 0, 12, 0.2), rec("linear", "c2", 0, 11, 0.25),
	}
	recs[0].Lambda, recs[1].Lambda = 0.5, 1
	for _, tc := range []struct {
		by   records.Grouping
		want []string
	}{
		{records.Grouping{"method"}, []string{"cheb"}},
		{records.Grouping{"method", "penalty"}, []string{"cheb/ato-penultimate"}},
		{records.Grouping{"run"}, nil},
		{records.Grouping{"method", "config"}, nil},
		{records.Grouping{"lambda"}, nil},
	} {
		res, err := Run(recs, Options{Metrics: []string{"ato", "dp"}, By: tc.by, Rule: minmax})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range res.MixedSweeps(tc.by) {
			if r.Configs != 2 || r.Metric != "ato" {
				t.Errorf("by %v: row %+v", tc.by, r)
			}
			got = append(got, r.Group)
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("by %v: MixedSweeps = %v, want %v", tc.by, got, tc.want)
		}
	}
}

// A group's front point that another candidate equals within the tolerance
// in ATO and beats in risk is counted in FrontWeak (pareto.WeaklyDominated);
// the other group's clean front counts none.
func TestRunFrontWeak(t *testing.T) {
	recs := []records.Record{
		// cheb: (10, 0.3), (20, 0.1) and a constant predictor of another
		// split whose ATO is 0.1 up to rounding but whose risk is worse.
		rec("cheb", "c1", 0, 10, 0.3), rec("cheb", "c1", 0, 20, 0.1), rec("cheb", "c1", 1, 25, 0.1-1e-9),
		rec("linear", "c2", 0, 15, 0.2), rec("linear", "c2", 1, 12, 0.25),
	}
	res, err := Run(recs, Options{Metrics: []string{"ato"}, Rule: minmax})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Pooled {
		want := 0
		if r.Group == "cheb/ato-penultimate" {
			want = 1
		}
		if r.FrontWeak != want {
			t.Errorf("%s: front weak %d, want %d", r.Group, r.FrontWeak, want)
		}
	}
	var b bytes.Buffer
	if err := WriteText(&b, res); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "front weak") {
		t.Errorf("no front weak column:\n%s", b.String())
	}
}

// A conditioned sweep's eval_only records are left out when groups are
// compared (the other group never trained at those λ), and kept when the
// sweep is shown alone.
func TestRunLeavesOutEvalOnlyWhenComparing(t *testing.T) {
	base := []records.Record{
		rec("linear", "c2", 0, 15, 0.2), rec("cheb", "c1", 0, 10, 0.3), rec("cheb", "c1", 0, 20, 0.1),
		rec("linear", "c2", 1, 1.5, 0.02), rec("cheb", "c1", 1, 1, 0.03), rec("cheb", "c1", 1, 2, 0.01),
	}
	want, err := Run(base, Options{Metrics: []string{"ato"}, Resamples: 200, Rule: minmax})
	if err != nil {
		t.Fatal(err)
	}
	// An eval_only point of cheb's that would dominate on both splits.
	extra := append([]records.Record(nil), base...)
	for m := range 2 {
		r := rec("cheb", "c1", m, 0.1, 0.001)
		r.Conditioned, r.EvalOnly = true, true
		extra = append(extra, r)
	}
	got, err := Run(extra, Options{Metrics: []string{"ato"}, Resamples: 200, Rule: minmax})
	if err != nil {
		t.Fatal(err)
	}
	if got.EvalOnlyLeftOut != 2 {
		t.Errorf("left out %d eval_only records, want 2", got.EvalOnlyLeftOut)
	}
	got.EvalOnlyLeftOut = 0
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(want)
	if !bytes.Equal(a, b) {
		t.Errorf("with eval_only records:\n%s\nwithout:\n%s", a, b)
	}
	var text bytes.Buffer
	got.EvalOnlyLeftOut = 2
	if err := WriteText(&text, got); err != nil || !strings.Contains(text.String(), "left out: 2 eval_only records") {
		t.Errorf("text does not say what was left out (%v):\n%s", err, text.String())
	}
	one := append(append([]records.Record(nil), extra[1:3]...), extra[6])
	alone, err := Run(one, Options{Metrics: []string{"ato"}, Resamples: 200, Rule: minmax})
	if err != nil {
		t.Fatal(err)
	}
	if alone.EvalOnlyLeftOut != 0 || alone.Pooled[0].Candidates != 3 {
		t.Errorf("one sweep alone: left out %d, %d candidates; want its eval_only record kept", alone.EvalOnlyLeftOut, alone.Pooled[0].Candidates)
	}
}
