package report

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/scalarize"
)

func sameFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-12*math.Max(1, math.Abs(b[i])) {
			return false
		}
	}
	return true
}

func TestFrontSeries(t *testing.T) {
	rec := func(method string, risk, ato, dp float64) records.Record {
		return records.Record{Dataset: "compas", Method: method, Risk: risk, ATO: ato, DP: dp}
	}
	recs := []records.Record{rec("linear", 0.3, 0.1, 0.2), rec("cheb", 0.4, 0.05, 0.01), rec("linear", 0.35, 0.02, 0.03), rec("adversarial", 0.5, 0.3, 0.3)}
	for _, tc := range []struct {
		name   string
		f      RecordsFront
		names  []string
		points int // in the first series
		firstY float64
	}{
		{"by name", RecordsFront{Metric: "dp", By: records.Grouping{"method"}}, []string{"adversarial", "cheb", "linear"}, 1, 0.3},
		{"ordered", RecordsFront{Metric: "ato", By: records.Grouping{"method"}, Order: map[string]int{"linear": -1}},
			[]string{"linear", "adversarial", "cheb"}, 2, 0.1},
		{"one panel", RecordsFront{Metric: "ato", By: records.Grouping{"dataset"}}, []string{"compas"}, 4, 0.1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FrontSeries(recs, tc.f)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, s := range got {
				names = append(names, s.Name)
			}
			if strings.Join(names, " ") != strings.Join(tc.names, " ") || len(got[0].Points) != tc.points || got[0].Points[0].Y != tc.firstY {
				t.Errorf("series %+v, want names %v, %d points first, first y %v", got, tc.names, tc.points, tc.firstY)
			}
		})
	}
	if _, err := FrontSeries(recs, RecordsFront{Metric: "auc"}); err == nil || !strings.Contains(err.Error(), `"auc"`) {
		t.Errorf("unknown metric: err = %v", err)
	}
	// Degenerate candidates carry their flags; records without const_risk
	// are not judged against it.
	flagged := []records.Record{rec("cheb", 0.6, 0.1, 0), rec("cheb", 0.7, 0.1, 0), rec("cheb", 0.5, 0.1, 0), rec("cheb", 0.9, 0.1, 0)}
	constant := 0.65
	flagged[0].ConstRisk, flagged[1].ConstRisk, flagged[2].Collapsed, flagged[2].SingleClass = &constant, &constant, true, true
	s, err := FrontSeries(flagged, RecordsFront{Metric: "ato", By: records.Grouping{"method"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []Flag{0, NoBetter, Collapsed | SingleClass, 0}; !slices.Equal(s[0].Flags, want) {
		t.Errorf("flags %v, want %v", s[0].Flags, want)
	}
	bad := append(recs, rec("cheb", math.Inf(1), 0, 0))
	if _, err := FrontSeries(bad, RecordsFront{Metric: "ato", By: records.Grouping{"method"}}); err == nil || !strings.Contains(err.Error(), "finite") {
		t.Errorf("infinite risk: err = %v", err)
	}
}

func TestLabels(t *testing.T) {
	if got := DatasetLabel([]records.Record{{Dataset: "adult", Sensitive: "sex"}, {Dataset: "adult", Sensitive: "sex"}}); got != "adult (sex)" {
		t.Errorf("DatasetLabel = %q", got)
	}
	if got := DatasetLabel([]records.Record{{Dataset: "adult"}, {Dataset: "compas"}}); got != "" {
		t.Errorf("DatasetLabel of two datasets = %q", got)
	}
	if MetricLabel("eopp") != "EOpp" || LambdaLabel(0.0083767) != "0.00838" {
		t.Errorf("labels %q %q", MetricLabel("eopp"), LambdaLabel(0.0083767))
	}
}

func TestSpreadLambdas(t *testing.T) {
	grid, err := scalarize.ParseGrid(scalarize.DefaultGrid)
	if err != nil {
		t.Fatal(err)
	}
	// The default grid's values nearest 10^-2 and 10^-1 are 10^(-3+3·4/13)
	// and 10^(-3+3·9/13).
	want := []float64{0, math.Pow(10, -3+12.0/13), math.Pow(10, -3+27.0/13), 1}
	for _, tc := range []struct {
		name    string
		present []float64
		want    []float64
	}{
		{"default grid", grid, want},
		{"four", []float64{0, 0.2, 0.5, 1}, []float64{0, 0.2, 0.5, 1}},
		{"one", []float64{0.3}, []float64{0.3}},
		{"no zero", []float64{0.001, 0.01, 0.1, 0.3, 1}, []float64{0.001, 0.01, 0.1, 1}},
		{"linear", []float64{0, 0.25, 0.5, 0.75, 1}, []float64{0, 0.5, 0.75, 1}},
	} {
		got := SpreadLambdas(tc.present)
		if !sameFloats(got, tc.want) {
			t.Errorf("%s: SpreadLambdas = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestPickLambdas(t *testing.T) {
	present := []float64{0, math.Pow(10, -3+12.0/13), 0.1, 1}
	got, err := PickLambdas("1, 0.00838,0,1", present)
	if err != nil {
		t.Fatal(err)
	}
	if !sameFloats(got, []float64{1, present[1], 0}) {
		t.Errorf("PickLambdas = %v", got)
	}
	if _, err := PickLambdas("0.5", present); err == nil || !strings.Contains(err.Error(), "λ = 0.5 has no candidate") {
		t.Errorf("absent λ: err = %v", err)
	}
}
