package propensity_test

import (
	"math"
	"strings"
	"testing"

	"github.com/fpareto/fp/propensity"
)

// uniform is n rows with ê = v, half of them in each group.
func uniform(n int, v float64) (e, a []float64) {
	e, a = make([]float64, n), make([]float64, n)
	for i := range n {
		e[i] = v
		a[i] = float64(i % 2)
	}
	return e, a
}

func TestDiagnoseSharesAndClipping(t *testing.T) {
	// Group a = 1 weights 1 − ê: 0.9, 0.5, 0.1 → the largest share 0.9/1.5.
	e := []float64{0.1, 0.5, 0.9, 0.3, propensity.Clip}
	a := []float64{1, 1, 1, 0, 0}
	o, err := propensity.Diagnose(e, a, 1)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(o.MaxShare1-0.6) > 1e-12 {
		t.Errorf("max share a=1 %g, want 0.6", o.MaxShare1)
	}
	if want := 0.3 / (0.3 + propensity.Clip); math.Abs(o.MaxShare0-want) > 1e-12 {
		t.Errorf("max share a=0 %g, want %g", o.MaxShare0, want)
	}
	if o.Clipped != 0.2 || o.AllClipped() || o.ESSNote() != "" {
		t.Errorf("clipped %g, all %v, note %q", o.Clipped, o.AllClipped(), o.ESSNote())
	}
	// Every ê at a clip bound: uniform weights, ESS = every row, and a note
	// that says why.
	all, err := propensity.Diagnose([]float64{propensity.Clip, 1 - propensity.Clip, propensity.Clip, 1 - propensity.Clip}, []float64{0, 1, 0, 1}, propensity.MinT)
	if err != nil {
		t.Fatal(err)
	}
	if !all.AllClipped() || all.ESS1 != 2 || !strings.Contains(all.ESSNote(), "uniform") {
		t.Errorf("all clipped: %+v, note %q", all, all.ESSNote())
	}
}

func TestUnreliable(t *testing.T) {
	good := func() propensity.Overlap {
		e, a := uniform(200, 0.5)
		o, _ := propensity.Diagnose(e, a, 1)
		return o
	}
	// A few rows carrying a whole group's weight on the evaluation rows:
	// group a = 0's weights are ê, 0.9 on 3 rows and 0.001 on 97.
	few := func() propensity.Overlap {
		e, a := uniform(200, 0.5)
		k := 0
		for i := range e {
			if a[i] == 0 {
				e[i] = 0.001
				if k < 3 {
					e[i] = 0.9
				}
				k++
			}
		}
		o, _ := propensity.Diagnose(e, a, 1)
		return o
	}
	extreme := func() propensity.Overlap {
		e, a := uniform(200, 0.5)
		for i := range 40 {
			e[i] = 0.995
		}
		o, _ := propensity.Diagnose(e, a, 1)
		return o
	}
	atMin := good()
	atMin.Temperature = propensity.MinT
	oneRow := good()
	oneRow.MaxShare1 = 0.3
	for _, tc := range []struct {
		name        string
		train, eval propensity.Overlap
		want        string // a phrase of the reason; "" for reliable
	}{
		{"good", good(), good(), ""},
		{"temperature at its bound", atMin, good(), "lower bound"},
		{"few rows carry a group", good(), few(), "count as"},
		{"extreme training rows", extreme(), good(), "training rows"},
		{"extreme evaluation rows", good(), extreme(), "evaluation rows have"},
		{"one row's share", good(), oneRow, "one row carries 30%"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad, why := propensity.Unreliable(tc.train, tc.eval)
			if bad != (tc.want != "") || !strings.Contains(why, tc.want) {
				t.Fatalf("unreliable = %v (%q), want reason containing %q", bad, why, tc.want)
			}
		})
	}
}

// The one-line summary of a split whose every ê is clipped says why its
// effective sample size reads as every row; other summaries do not.
func TestStringExplainsAllClippedESS(t *testing.T) {
	all, err := propensity.Diagnose([]float64{propensity.Clip, 1 - propensity.Clip, propensity.Clip, 1 - propensity.Clip}, []float64{0, 1, 0, 1}, propensity.MinT)
	if err != nil {
		t.Fatal(err)
	}
	if s := all.String(); !strings.Contains(s, "ESS a=1 2/2, a=0 2/2 (every ê is clipped") || !strings.HasSuffix(s, "yet the groups do not overlap)") {
		t.Errorf("all clipped: %q", s)
	}
	if s := all.WeightsString(); !strings.HasSuffix(s, "(up to 50.0%) ("+all.ESSNote()+")") {
		t.Errorf("all clipped: weights %q", s)
	}
	e, a := uniform(10, 0.5)
	some, err := propensity.Diagnose(e, a, 1)
	if err != nil {
		t.Fatal(err)
	}
	if s := some.String(); strings.Contains(s, "clipped") {
		t.Errorf("none clipped: %q", s)
	}
	// The weights' summary gives the sizes to a tenth and each group's
	// largest share of weight on one row.
	if s, want := some.WeightsString(), "extreme 0.0%, ESS a=1 5.0/5 (one row up to 20.0% of the weight), a=0 5.0/5 (up to 20.0%)"; s != want {
		t.Errorf("WeightsString = %q, want %q", s, want)
	}
}
