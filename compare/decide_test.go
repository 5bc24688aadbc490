package compare

import (
	"math"
	"testing"

	"github.com/fpareto/fp/pareto"
	"github.com/fpareto/fp/records"
)

// selRec is a candidate with test and selection (risk, ATO).
func selRec(risk, ato, selRisk, selATO float64) records.Record {
	r := rec("cheb", "c", 0, risk, ato)
	r.Selection = &records.Selection{SelRisk: selRisk, SelATO: selATO, NSel: 10}
	return r
}

// Decided on the selection rows, a group's front is the candidates
// non-dominated there, and its hypervolume that of their test metrics:
// here the test front's cheapest point (E) is dominated on the selection
// rows, so the hypervolume loses its area, and B, dominated on the test
// rows, is chosen.
func TestHypervolumeOfTheFrontChosenOnSelectionRows(t *testing.T) {
	recs := []records.Record{
		selRec(0.60, 0.02, 0.60, 0.10), // A
		selRec(0.65, 0.10, 0.62, 0.01), // B
		selRec(0.70, 0.00, 0.70, 0.00), // C
		selRec(0.55, 0.05, 0.75, 0.20), // E
	}
	test := []pareto.Point{{X: 0.60, Y: 0.02}, {X: 0.65, Y: 0.10}, {X: 0.70, Y: 0}, {X: 0.55, Y: 0.05}}
	norm := pareto.NewNormalizer(test)
	hv := func(idx ...int) float64 {
		var pts []pareto.Point
		for _, i := range idx {
			pts = append(pts, norm.Apply(test[i]))
		}
		return pareto.Hypervolume(pts, pareto.Reference)
	}
	for _, tc := range []struct {
		d      records.Decide
		want   float64
		nd     int
		decide string
	}{
		{records.DecideTest, hv(0, 2, 3), 3, "test"},
		{records.DecideSelection, hv(0, 1, 2), 3, "selection"},
	} {
		res, err := Run(recs, Options{Metrics: []string{"ato"}, Decide: tc.d, Rule: minmax})
		if err != nil {
			t.Fatal(err)
		}
		p := res.Pooled[0]
		if math.Abs(p.Hypervolume-tc.want) > 1e-12 || p.NonDominated != tc.nd || res.DecidedOn != tc.decide {
			t.Errorf("%s: hypervolume %g, non-dominated %d, decided on %q; want %g, %d, %q",
				tc.d, p.Hypervolume, p.NonDominated, res.DecidedOn, tc.want, tc.nd, tc.decide)
		}
		if s := res.PerSplit[0]; math.Abs(s.Hypervolume-tc.want) > 1e-12 {
			t.Errorf("%s: split 0 hypervolume %g, want %g", tc.d, s.Hypervolume, tc.want)
		}
	}
	if hv(0, 1, 2) == hv(0, 2, 3) {
		t.Fatal("the case does not tell the rules apart")
	}
	// A record without selection metrics cannot be decided on them.
	if _, err := Run(append(recs, rec("cheb", "c", 0, 0.5, 0.1)), Options{Decide: records.DecideSelection, Rule: minmax}); err == nil {
		t.Error("a record without selection metrics decided on selection rows: want an error")
	}
}
