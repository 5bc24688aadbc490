package audit_test

import (
	"math"
	"strings"
	"testing"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/fairness/audit"
)

func TestComputeFromScoresAndLogits(t *testing.T) {
	p := []float64{0.9, 0.2, 0.7, 0.4}
	z := make([]float64, len(p))
	for i, v := range p {
		z[i] = math.Log(v / (1 - v))
	}
	y, a := []float64{1, 0, 1, 1}, []float64{0, 0, 1, 1}
	for _, in := range []*datasets.Predictions{
		{File: "s.csv", P: p, Y: y, A: a},
		{File: "z.csv", Z: z, Y: y, A: a},
	} {
		res, err := audit.Compute(in, audit.Options{})
		if err != nil {
			t.Fatal(err)
		}
		// Accuracy at 0.5: rows 1, 2, 3 right, row 4 wrong.
		if res.N != 4 || math.Abs(res.Accuracy-0.75) > 1e-12 || res.ATO != nil || len(res.ByGroup) != 2 {
			t.Errorf("%s: %+v: want 4 rows, accuracy 0.75, no ATO without propensities, 2 groups", in.File, res)
		}
		// The metrics are those of package fairness, from scores or logits.
		if m, _ := fairness.Evaluate(p, y, []int{int(a[0]), int(a[1]), int(a[2]), int(a[3])}, nil); math.Abs(res.DP-m.DP) > 1e-9 || math.Abs(res.EO-m.EO) > 1e-9 || res.DP == 0 {
			t.Errorf("%s: dp %v, eo %v; want fairness.Evaluate's %v, %v", in.File, res.DP, res.EO, m.DP, m.EO)
		}
		var b strings.Builder
		if err := audit.WriteText(&b, in, res); err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{"accuracy   0.75", "selection_rate"} {
			if !strings.Contains(b.String(), s) {
				t.Errorf("%s: text lacks %q:\n%s", in.File, s, b.String())
			}
		}
	}
}

func TestComputeRefusesOneGroup(t *testing.T) {
	in := &datasets.Predictions{File: "one.csv", P: []float64{0.5, 0.6}, Y: []float64{0, 1}, A: []float64{1, 1}}
	if _, err := audit.Compute(in, audit.Options{}); err == nil || !strings.Contains(err.Error(), "one.csv") {
		t.Errorf("err = %v, want one naming the file", err)
	}
}
