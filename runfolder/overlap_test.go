package runfolder

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/fpareto/fp/propensity"
	"github.com/fpareto/fp/records"
)

func TestOverlapsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	if got, err := ReadOverlaps(dir); got != nil || err != nil {
		t.Fatalf("a folder without overlap summaries: %v, %v; want none and no error", got, err)
	}
	want := []SplitOverlap{
		{Split: 2, Overlap: propensity.Overlap{Temperature: 1.5, Quantiles: []float64{0.1, 0.5, 0.9}, ESS1: 40, ESS0: 60, N1: 50, N0: 70}},
		{Split: 10, Overlap: propensity.Overlap{Temperature: 0.05, Extreme: 0.4, N1: 50, N0: 70}, Warning: "extreme scores",
			Predictors: []propensity.Predictor{{Column: "race=black", Corr: 0.93}}},
	}
	for _, o := range []SplitOverlap{want[1], want[0]} {
		if err := WriteOverlap(dir, o); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ReadOverlaps(dir)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("read back %+v, %v\nwant %+v (by split)", got, err, want)
	}
	if err := os.WriteFile(OverlapPath(dir, 2), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadOverlaps(dir); err == nil || !strings.Contains(err.Error(), "split-002") {
		t.Errorf("a torn summary: err = %v, want one naming its file", err)
	}
}

func TestOverlapAdviceAndLines(t *testing.T) {
	good := SplitOverlap{Split: 0, Overlap: propensity.Overlap{Temperature: 1, N1: 100, N0: 100, ESS1: 80, ESS0: 90}}
	poor := SplitOverlap{Split: 1, Overlap: propensity.Overlap{Temperature: 0.05, Extreme: 0.4, N1: 100, N0: 100, ESS1: 5, ESS0: 90},
		Warning: "40% of ê extreme", Predictors: []propensity.Predictor{{Column: "zip", Corr: 0.9}}}
	if a := good.Advice(); a != "" {
		t.Errorf("good overlap: advice %q, want none", a)
	}
	want := "split 1: poor overlap between the groups (40% of ê extreme): the ATO values rest on few rows; " +
		"the columns that predict the sensitive attribute best are zip (|r| = 0.90): leave out a column that stands in for it with --exclude (e.g. --exclude zip)"
	if a := poor.Advice(); a != want {
		t.Errorf("poor overlap: advice\n%q\nwant\n%q", a, want)
	}
	var b bytes.Buffer
	WriteOverlaps(&b, []SplitOverlap{good, poor})
	if lines := strings.Split(strings.TrimSpace(b.String()), "\n"); len(lines) != 3 || lines[2] != "warning: "+want {
		t.Errorf("WriteOverlaps printed\n%s", b.String())
	}

	rec := func(o SplitOverlap) records.Record {
		return records.Record{Split: o.Split, PropTemperature: o.Temperature, PropQ: []float64{0.5}, PropExtreme: o.Extreme,
			ESS1: o.ESS1, ESS0: o.ESS0, PropN1: o.N1, PropN0: o.N0}
	}
	for _, tc := range []struct {
		name string
		recs []records.Record
		want string
	}{
		{"none carries it", []records.Record{{Split: 0}}, ""},
		{"one split", []records.Record{rec(good), rec(good)},
			"overlap over 1 split: temperature 1–1; extreme ê at most 0.0% (split 0); smallest ESS 80% of its group (split 0)"},
		{"a poor split", []records.Record{rec(good), rec(poor)},
			"overlap over 2 splits: temperature 0.05–1; extreme ê at most 40.0% (split 1); smallest ESS 5% of its group (split 1) — POOR"},
	} {
		if got := OverlapLine(tc.recs); !strings.HasPrefix(got, tc.want) || (tc.want == "") != (got == "") {
			t.Errorf("%s: OverlapLine =\n%q\nwant it to start with\n%q", tc.name, got, tc.want)
		}
	}
}

// The advice fits the cause: a group too small to estimate is named with
// its rows and merged (by --min-group-rows only where that grouping is
// accepted), a column that stands in for the attribute is left out, and a
// column that is the strongest predictor of the target or the only
// feature is never suggested without what leaving it out costs.
func TestAdviceFitsTheCause(t *testing.T) {
	groups := func(levels []string, train, test []int, maxShare float64) SplitOverlap {
		g := func(ns []int, share float64) *propensity.GroupOverlap {
			o := &propensity.GroupOverlap{Temperature: 1}
			for r, n := range ns {
				s := 0.02
				if r == len(ns)-1 {
					s = share
				}
				o.Groups = append(o.Groups, propensity.GroupStats{Level: levels[r], N: n, ESS: 0.9 * float64(n), MaxShare: s})
			}
			return o
		}
		var o SplitOverlap
		o.SetGroups(*g(train, 0.05), *g(test, maxShare), nil)
		return o
	}
	small := groups([]string{"A", "B", "C", "E"}, []int{822, 376, 178, 22}, []int{413, 189, 82, 10}, 0.17)
	small.Predictors = []propensity.Predictor{{Column: "score", Corr: 0.22, Target: 0.6, Strongest: true}}
	small.GroupRows = []int{1644, 752, 356, 44}
	a := small.ATOAdvice()
	for _, want := range []string{
		`on the test rows one row carries 17% of group "E"'s weight`,
		`group "E" (44 rows: 22 training, 10 test) is too small to estimate its propensity`,
		`--group-map E=GROUP`,
	} {
		if !strings.Contains(a, want) {
			t.Errorf("small group: advice %q lacks %q", a, want)
		}
	}
	// E alone under 45 rows would make an "other" of 44 rows, which the
	// grouping refuses: no --min-group-rows, and no column either.
	if strings.Contains(a, "--min-group-rows") || strings.Contains(a, "--exclude") || strings.Contains(a, "score") {
		t.Errorf("small group: advice %q", a)
	}
	// With D small too, --min-group-rows 205 gathers both in "other".
	two := groups([]string{"A", "B", "D", "E"}, []int{822, 376, 40, 22}, []int{413, 189, 20, 10}, 0.17)
	two.TestGroups.Groups[2].MaxShare = 0.12
	two.GroupRows = []int{1644, 752, 204, 44}
	if a := two.ATOAdvice(); !strings.Contains(a, `groups "D" (204 rows: 40 training, 20 test) and "E" (44 rows`) ||
		!strings.Contains(a, "merge them into larger groups with --group-map D=GROUP,E=GROUP or with --min-group-rows 205") {
		t.Errorf("two small groups: advice %q", a)
	}
	// A group "other" is where a small group goes.
	other := groups([]string{"A", "other", "E"}, []int{822, 376, 22}, []int{413, 189, 10}, 0.17)
	if a := other.ATOAdvice(); !strings.Contains(a, "--group-map E=other") || !strings.Contains(a, `group "E" (22 training rows, 10 test) is too small`) {
		t.Errorf("with other: advice %q", a)
	}

	// Two groups cannot be merged.
	bin := SplitOverlap{Split: 0, Overlap: propensity.Overlap{Temperature: 1, N1: 26, N0: 1474, ESS1: 25, ESS0: 1400, MaxShare1: 0.06, MaxShare0: 0.001},
		GroupRows: []int{2956, 44}}
	bin.SetTest(propensity.Overlap{Temperature: 1, N1: 9, N0: 741, ESS1: 9, ESS0: 700, MaxShare1: 0.112, MaxShare0: 0.002})
	if a := bin.ATOAdvice(); !strings.Contains(a, "group a = 1 (44 rows: 26 training, 9 test) is too small") || strings.Contains(a, "--") {
		t.Errorf("two groups: advice %q", a)
	}

	proxy := func(p propensity.Predictor) SplitOverlap {
		o := SplitOverlap{Split: 2, Overlap: proxyOverlap, Warning: "90% extreme", Predictors: []propensity.Predictor{p, {Column: "x3", Corr: 0.04}}}
		o.SetTest(proxyTest)
		return o
	}
	for _, tc := range []struct {
		name string
		p    propensity.Predictor
		want []string // in both the poor-overlap and the unreliable-ATO advice
		not  string
	}{
		{"a proxy", propensity.Predictor{Column: "region", Corr: 0.92, Target: 0.05}, []string{"--exclude region"}, "costs"},
		{"the strongest predictor of the target", propensity.Predictor{Column: "score", Corr: 0.85, Target: 0.82, Strongest: true},
			[]string{"score", "is also the strongest predictor of the target (|r| = 0.82 with it): leaving it out (--exclude score) costs accuracy"}, "e.g. --exclude"},
		{"the only feature", propensity.Predictor{Column: "sex", Corr: 0.7, Target: 0.1, Strongest: true, Only: true},
			[]string{"sex", "is the only feature, so it cannot be left out"}, "--exclude"},
	} {
		o := proxy(tc.p)
		for _, a := range []string{o.Advice(), o.ATOAdvice()} {
			for _, w := range tc.want {
				if !strings.Contains(a, w) {
					t.Errorf("%s: advice %q lacks %q", tc.name, a, w)
				}
			}
			if strings.Contains(a, tc.not) || strings.Contains(a, "too few") || strings.Contains(a, "\n") {
				t.Errorf("%s: advice %q", tc.name, a)
			}
		}
	}
}
