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
	good := SplitOverlap{Split: 0, Overlap: propensity.Overlap{Temperature: 1, N1: 10, N0: 10, ESS1: 8, ESS0: 9}}
	poor := SplitOverlap{Split: 1, Overlap: propensity.Overlap{Temperature: 0.05, Extreme: 0.4, N1: 10, N0: 10, ESS1: 0.5, ESS0: 9},
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
			"overlap over 1 split: temperature 1–1; extreme ê (< 0.01 or > 0.99) at most 0.0% (split 0); smallest ESS 80% of its group (split 0)"},
		{"a poor split", []records.Record{rec(good), rec(poor)},
			"overlap over 2 splits: temperature 0.05–1; extreme ê (< 0.01 or > 0.99) at most 40.0% (split 1); smallest ESS 5% of its group (split 1) — POOR"},
	} {
		if got := OverlapLine(tc.recs); !strings.HasPrefix(got, tc.want) || (tc.want == "") != (got == "") {
			t.Errorf("%s: OverlapLine =\n%q\nwant it to start with\n%q", tc.name, got, tc.want)
		}
	}
}
