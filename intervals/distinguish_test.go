package intervals_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/fpareto/fp/choose"
	"github.com/fpareto/fp/experiments/experimentstest"
	"github.com/fpareto/fp/intervals"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

// twoSplitRun trains λ ∈ {0, 1} on two splits of a CSV whose label
// depends on the sensitive attribute, keeping half of the test rows for
// selection, and returns its candidates by split and then λ.
func twoSplitRun(t *testing.T) []choose.Candidate {
	t.Helper()
	c, dir, _ := csvConfig(t, 1200)
	c.Splits, c.Lambdas, c.Epochs, c.PropensityEpochs, c.Engine = 2, "0,1", 30, 10, "backprop"
	experimentstest.Run(t, c, dir)
	all, _, err := runfolder.ReadAll([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	cands, err := choose.Candidates(all)
	if err != nil {
		t.Fatal(err)
	}
	if len(cands) != 4 {
		t.Fatalf("%d candidates, want 4", len(cands))
	}
	for _, k := range cands {
		if !k.Record.HasSelection() {
			t.Fatalf("%s keeps no selection rows", k.Record.Key())
		}
	}
	return cands
}

func TestDistinguish(t *testing.T) {
	cands := twoSplitRun(t)
	at := func(split int, lambda float64) choose.Candidate {
		for _, k := range cands {
			if k.Record.Split == split && k.Record.Lambda == lambda {
				return k
			}
		}
		t.Fatalf("no candidate of split %d at λ = %g", split, lambda)
		return choose.Candidate{}
	}
	const resamples = 300
	cases := []struct {
		name     string
		front    []choose.Candidate
		decide   records.Decide
		pairs    int
		distinct []bool // per pair; nil: not checked
		summary  string
	}{
		// A network against itself on its own rows: every paired
		// difference is exactly 0.
		{"one network twice", []choose.Candidate{at(0, 0), at(0, 0)}, records.DecideTest,
			1, []bool{false}, "2 points; none distinguishable from its neighbours"},
		// The unpenalised network against the fully penalised one of its
		// split: their DP differ by far more than the rows explain.
		{"λ 0 against λ 1, one split", []choose.Candidate{at(0, 1), at(0, 0)}, records.DecideTest,
			1, []bool{true}, "2 points; each distinguishable from a neighbour"},
		{"λ 0 against λ 1, one split, selection rows", []choose.Candidate{at(1, 0), at(1, 1)}, records.DecideSelection,
			1, []bool{true}, "2 points; each distinguishable from a neighbour"},
		// Across splits: the two intervals.
		{"across splits", []choose.Candidate{at(0, 0), at(1, 0), at(1, 1)}, records.DecideTest,
			2, nil, ""},
		{"one point", []choose.Candidate{at(1, 0)}, records.DecideSelection, 0, nil, "1 point; no neighbour to tell it from"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, notes, err := intervals.Distinguish(tc.front, records.AxisRisk, "dp", tc.decide, resamples)
			if err != nil {
				t.Fatal(err)
			}
			if len(notes) > 0 {
				t.Errorf("notes %q", notes)
			}
			if d.Points != len(tc.front) || len(d.Front) != len(tc.front) || len(d.Pairs) != tc.pairs {
				t.Fatalf("%d points, %d pairs: %+v", d.Points, len(d.Pairs), d)
			}
			if d.Rows != string(tc.decide) || d.Metric != "dp" || d.Axis != "risk" || d.Level != 0.95 || d.Resamples != resamples {
				t.Errorf("rows %q, metric %q, axis %q, level %g, resamples %d", d.Rows, d.Metric, d.Axis, d.Level, d.Resamples)
			}
			for i, p := range d.Pairs {
				// Paired exactly when both are of one split.
				if p.A != i || p.B != i+1 || p.Paired != (d.Front[i].Split == d.Front[i+1].Split) || len(p.Axes) != 2 || p.Note != "" {
					t.Errorf("pair %d: %+v", i, p)
					continue
				}
				for _, a := range p.Axes {
					if !a.Tested || (a.Diff != nil) != p.Paired || (a.IntervalA != nil) == p.Paired {
						t.Errorf("pair %d, %s: %+v", i, a.Name, a)
					}
				}
				if tc.distinct != nil && p.Distinguishable != tc.distinct[i] {
					t.Errorf("pair %d: distinguishable %v, want %v: %+v", i, p.Distinguishable, tc.distinct[i], p.Axes)
				}
				if p.Distinguishable != (p.Axes[0].Distinct || p.Axes[1].Distinct) {
					t.Errorf("pair %d: distinguishable %v, axes %+v", i, p.Distinguishable, p.Axes)
				}
			}
			if tc.summary != "" && d.Summary() != tc.summary {
				t.Errorf("summary %q, want %q", d.Summary(), tc.summary)
			}
			// The points are listed by the deciding risk.
			for i := 1; i < len(d.Front); i++ {
				var prev, cur float64
				for _, k := range tc.front {
					r := &k.Record
					x, _, _ := tc.decide.Value(r, "risk")
					if r.Split == d.Front[i-1].Split && r.Lambda == d.Front[i-1].Lambda {
						prev = x
					}
					if r.Split == d.Front[i].Split && r.Lambda == d.Front[i].Lambda {
						cur = x
					}
				}
				if prev > cur {
					t.Errorf("front not by risk: %+v", d.Front)
				}
			}
			// The same front gives the same answer.
			again, _, _ := intervals.Distinguish(tc.front, records.AxisRisk, "dp", tc.decide, resamples)
			if js(t, again) != js(t, d) {
				t.Errorf("not reproducible:\n%s\n%s", js(t, d), js(t, again))
			}
		})
	}

	// A test by intervals on the test rows uses the intervals shown beside
	// the points.
	d, _, err := intervals.Distinguish([]choose.Candidate{at(0, 0), at(1, 0)}, records.AxisError, "dp", records.DecideTest, resamples)
	if err != nil {
		t.Fatal(err)
	}
	byLambdaSplit := map[int]choose.Candidate{0: at(0, 0), 1: at(1, 0)}
	for k, iv := range []*intervals.Interval{d.Pairs[0].Axes[1].IntervalA, d.Pairs[0].Axes[1].IntervalB} {
		c := byLambdaSplit[d.Front[k].Split]
		shown, err := intervals.Open(c.Dir, nil, resamples)
		if err != nil {
			t.Fatal(err)
		}
		ci := shown.For(&c.Record)
		if want := ci.Metric("dp"); iv == nil || want == nil || *iv != *want {
			t.Errorf("point %d: dp interval %v, shown %v", k, iv, want)
		}
	}
	if a := d.Pairs[0].Axes[0]; a.Name != "error" || a.IntervalA == nil || !(a.IntervalA[0] <= a.IntervalA[1]) || a.IntervalA[1] > 1 {
		t.Errorf("error axis %+v", a)
	}
	// On the selection rows the intervals are of those rows, not the test
	// rows'.
	s, _, err := intervals.Distinguish([]choose.Candidate{at(0, 0), at(1, 0)}, records.AxisRisk, "dp", records.DecideSelection, resamples)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := s.Pairs[0].Axes[1].IntervalA, d.Pairs[0].Axes[1].IntervalA; a == nil || b == nil || *a == *b {
		t.Errorf("selection rows' interval %v, test rows' %v: want two intervals", a, b)
	}
	for k, iv := range []*intervals.Interval{s.Pairs[0].Axes[0].IntervalA, s.Pairs[0].Axes[0].IntervalB} {
		c := byLambdaSplit[s.Front[k].Split]
		if v := c.Record.SelRisk; iv == nil || !(iv[0] <= v && v <= iv[1]) {
			t.Errorf("point %d: selection risk interval %v does not hold sel_risk %g", k, iv, v)
		}
	}
}

// A pair whose rows cannot be re-scored is counted as untested, with the
// reason, and distinguishable from nothing.
func TestDistinguishUntested(t *testing.T) {
	cands := twoSplitRun(t)
	var front []choose.Candidate
	for _, k := range cands {
		if k.Record.Split == 0 {
			front = append(front, k)
		}
	}
	if err := os.Remove(front[1].Weights); err != nil {
		t.Fatal(err)
	}
	for _, decide := range []records.Decide{records.DecideTest, records.DecideSelection} {
		d, notes, err := intervals.Distinguish(front, records.AxisRisk, "ato", decide, 200)
		if err != nil {
			t.Fatal(err)
		}
		if d.Untested != 1 || d.Distinguishable != 0 || d.Pairs[0].Distinguishable || !strings.Contains(d.Pairs[0].Note, "is missing") {
			t.Errorf("%s: %s", decide, js(t, d))
		}
		if len(notes) != 1 || !strings.Contains(notes[0], "is missing") {
			t.Errorf("%s: notes %q", decide, notes)
		}
		if want := "2 points; whether they can be told apart from their neighbours is not known: no interval could be given"; d.String() != want {
			t.Errorf("%s: %q, want %q", decide, d.String(), want)
		}
	}
	if _, _, err := intervals.Distinguish(front, records.AxisRisk, "bogus", records.DecideTest, 200); err == nil {
		t.Error("metric bogus accepted")
	}
	if _, _, err := intervals.Distinguish(front, records.AxisRisk, "dp", records.DecideTest, 1); err == nil {
		t.Error("1 resample accepted")
	}
}

func TestDistinguishabilityText(t *testing.T) {
	pair := func(paired, distinct, tested bool) intervals.Pair {
		return intervals.Pair{Paired: paired, Distinguishable: distinct,
			Axes: []intervals.AxisTest{{Name: "risk", Tested: tested, Distinct: distinct}, {Name: "dp", Tested: tested}}}
	}
	cases := []struct {
		name          string
		d             intervals.Distinguishability
		summary, full string
	}{
		{"none", intervals.Distinguishability{Rows: "test", Axis: "risk", Metric: "ato", Level: 0.95, Points: 3,
			Pairs: []intervals.Pair{pair(true, false, true), pair(false, false, true)}},
			"3 points; none distinguishable from its neighbours",
			"3 points; none distinguishable from its neighbours (in risk or ato at 95% on the test rows: " +
				"1 pair of one split by a paired bootstrap of their difference, 1 by their two intervals)"},
		{"some", intervals.Distinguishability{Rows: "selection", Axis: "error", Metric: "dp-ratio", Level: 0.95, Points: 3, Distinguishable: 2,
			Pairs: []intervals.Pair{pair(false, true, true), pair(false, false, true)}},
			"3 points; 2 distinguishable from a neighbour",
			"3 points; 2 distinguishable from a neighbour (in error or 1 − dp_ratio at 95% on the selection rows: 2 pairs by their two intervals)"},
		{"each", intervals.Distinguishability{Rows: "test", Axis: "risk", Metric: "dp", Level: 0.95, Points: 2, Distinguishable: 2,
			Pairs: []intervals.Pair{pair(true, true, true)}},
			"2 points; each distinguishable from a neighbour",
			"2 points; each distinguishable from a neighbour (in risk or dp at 95% on the test rows: 1 pair of one split by a paired bootstrap of their difference)"},
		{"untested", intervals.Distinguishability{Rows: "test", Axis: "risk", Metric: "dp", Level: 0.95, Points: 3, Untested: 1,
			Pairs: []intervals.Pair{pair(true, false, false), pair(true, false, true)}},
			"3 points; none distinguishable from its neighbours in the 1 of 2 pairs tested",
			"3 points; none distinguishable from its neighbours in the 1 of 2 pairs tested (in risk or dp at 95% on the test rows: 2 pairs of one split by a paired bootstrap of their difference; " +
				"1 of the 2 pairs could not be tested)"},
		{"nothing tested", intervals.Distinguishability{Rows: "test", Axis: "risk", Metric: "dp", Level: 0.95, Points: 2, Untested: 1,
			Pairs: []intervals.Pair{pair(true, false, false)}},
			"2 points; whether they can be told apart from their neighbours is not known: no interval could be given",
			"2 points; whether they can be told apart from their neighbours is not known: no interval could be given"},
		{"one", intervals.Distinguishability{Rows: "test", Axis: "risk", Metric: "dp", Level: 0.95, Points: 1},
			"1 point; no neighbour to tell it from", "1 point; no neighbour to tell it from"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.d.Summary(); got != tc.summary {
				t.Errorf("Summary = %q, want %q", got, tc.summary)
			}
			if got := tc.d.String(); got != tc.full {
				t.Errorf("String = %q\nwant       %q", got, tc.full)
			}
		})
	}
}

func js(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
