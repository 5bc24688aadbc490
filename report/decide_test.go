package report

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/fpareto/fp/pareto"
	"github.com/fpareto/fp/records"
)

// Decided on the selection rows, a series is drawn at the test metrics and
// its non-dominated points are those of the selection metrics.
func TestFrontSeriesDecidedOnSelectionRows(t *testing.T) {
	rec := func(risk, ato, selRisk, selATO float64) records.Record {
		return records.Record{Dataset: "compas", Method: "cheb", Risk: risk, ATO: ato,
			Selection: &records.Selection{SelRisk: selRisk, SelATO: selATO, NSel: 5}}
	}
	// B is dominated by A on the test rows, not on the selection rows;
	// E the reverse.
	recs := []records.Record{rec(0.60, 0.02, 0.60, 0.10), rec(0.65, 0.10, 0.62, 0.01), rec(0.70, 0, 0.70, 0), rec(0.55, 0.05, 0.75, 0.2)}
	for _, tc := range []struct {
		d     records.Decide
		front []int
	}{{records.DecideTest, []int{0, 2, 3}}, {records.DecideSelection, []int{0, 1, 2}}} {
		series, err := FrontSeries(recs, RecordsFront{Metric: "ato", By: records.Grouping{"method"}, Decide: tc.d})
		if err != nil {
			t.Fatal(err)
		}
		s := series[0]
		if s.Points[1] != (pareto.Point{X: 0.65, Y: 0.10}) {
			t.Errorf("%s: drawn at %v, want the test metrics", tc.d, s.Points[1])
		}
		if got := slices.Sorted(slices.Values(s.front())); !slices.Equal(got, tc.front) {
			t.Errorf("%s: non-dominated %v, want %v", tc.d, got, tc.front)
		}
		if n := NonDominated(series, 0)[0]; n != len(tc.front) {
			t.Errorf("%s: %d distinct non-dominated, want %d", tc.d, n, len(tc.front))
		}
		if _, err := SaveRecordsFront(filepath.Join(t.TempDir(), "f.png"), recs, RecordsFront{Metric: "ato", By: records.Grouping{"method"}, Decide: tc.d}); err != nil {
			t.Errorf("%s: %v", tc.d, err)
		}
	}
}
