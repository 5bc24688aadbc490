package propensity

import (
	"math"
	"strings"
	"testing"
)

// JudgeTwoGroups names unnamed groups by their value and, with equal
// propensities, gives every row of a group the same weight, so that each
// group's effective sample size is its row count and the ATO is reliable;
// one row carrying nearly all of a group's weight makes it unreliable.
func TestJudgeTwoGroups(t *testing.T) {
	n := 200
	e, a := make([]float64, n), make([]float64, n)
	for i := range e {
		e[i], a[i] = 0.5, float64(i%2)
	}
	j, err := JudgeTwoGroups(e, a, [2]string{"", "b"})
	if err != nil {
		t.Fatal(err)
	}
	if j.Overlap == nil || !*j.ATOReliable || len(j.Overlap.Groups) != 2 {
		t.Fatalf("judgement %+v", j)
	}
	for _, g := range j.Overlap.Groups {
		if math.Abs(g.ESS-float64(n/2)) > 1e-9 {
			t.Errorf("group %+v: ESS %g, want %d", g, g.ESS, n/2)
		}
	}
	var w strings.Builder
	j.WriteText(&w)
	if !strings.Contains(w.String(), "a = 0") || strings.Contains(w.String(), "warning") {
		t.Errorf("text %q", w.String())
	}
	// Every row of group 1 but one is nearly sure to be in group 1: the
	// one left carries the group's weight.
	for i := range e {
		if a[i] == 1 {
			e[i] = 1 - 1e-9
		}
	}
	e[1] = 0.01
	if j, err = JudgeTwoGroups(e, a, [2]string{"x", "y"}); err != nil {
		t.Fatal(err)
	}
	w.Reset()
	j.WriteText(&w)
	if *j.ATOReliable || j.ATOUnreliableReason == "" || !strings.Contains(w.String(), "warning: the ato is unreliable") {
		t.Errorf("judgement %+v, text %q", j, w.String())
	}
}
