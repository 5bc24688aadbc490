package propensity_test

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/propensity"
	"github.com/fpareto/fp/propensity/propensityfit"
)

// binaryColumns turns binary scores ê into the two-group propensities
// (1 − ê, ê) and the 0/1 groups into codes.
func binaryColumns(e, a []float64) ([]float64, []int) {
	ee, ga := make([]float64, 2*len(e)), make([]int, len(a))
	for i, v := range e {
		ee[2*i], ee[2*i+1] = 1-v, v
		ga[i] = int(a[i])
	}
	return ee, ga
}

// TestOverlapWeightsTwoGroupsMatchBinary: with two groups the generalised
// weights h/e_a are the weights fairness.OverlapWeights gives for the
// propensity scores, up to rounding, from the clip bounds to ½.
func TestOverlapWeightsTwoGroupsMatchBinary(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	e := []float64{propensity.Clip, 1 - propensity.Clip, 0.5, 0.01, 0.99, 1e-3, 0.25}
	for range 2000 {
		e = append(e, rng.Float64()*(1-2*propensity.Clip)+propensity.Clip)
	}
	a := make([]float64, len(e))
	for i := range a {
		a[i] = float64(rng.IntN(2))
	}
	a[0], a[1] = 1, 0 // the largest weights, 1 − Clip, on the rarest rows
	ee, ga := binaryColumns(e, a)
	want := make([]float64, len(e))
	if err := fairness.OverlapWeights(e, 2, ga, want); err != nil {
		t.Fatal(err)
	}
	got := make([]float64, len(e))
	if err := propensity.OverlapWeights(ee, 2, ga, got); err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for i := range got {
		d := math.Abs(got[i]-want[i]) / want[i]
		worst = max(worst, d)
		if d > 1e-12 {
			t.Errorf("row %d (ê = %g, a = %g): weight %.17g, binary %.17g", i, e[i], a[i], got[i], want[i])
		}
	}
	t.Logf("largest relative difference %.2g", worst)
}

func TestOverlapWeightsThreeGroups(t *testing.T) {
	// Σ 1/e = 5 + 10/3 + 2 = 31/3, so h = 3/31 and w = h/e_a.
	e := []float64{0.2, 0.3, 0.5, 0.2, 0.3, 0.5, 0.2, 0.3, 0.5, 1.0 / 3, 1.0 / 3, 1.0 / 3}
	a := []int{0, 1, 2, 1}
	want := []float64{3.0 / 31 / 0.2, 3.0 / 31 / 0.3, 3.0 / 31 / 0.5, 1.0 / 3}
	w := make([]float64, 4)
	if err := propensity.OverlapWeights(e, 3, a, w); err != nil {
		t.Fatal(err)
	}
	for i := range w {
		if math.Abs(w[i]-want[i]) > 1e-15 {
			t.Errorf("row %d: weight %.17g, want %.17g", i, w[i], want[i])
		}
	}
}

func TestOverlapWeightsErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		e      []float64
		groups int
		a      []int
		w      int
		want   string
	}{
		{"one group", []float64{1, 1}, 1, []int{0, 0}, 2, "1 groups, want ≥ 2"},
		{"shape", []float64{0.5, 0.5, 0.5}, 3, []int{0, 1}, 2, "3 propensities and 2 weights for 2 rows of 3 groups"},
		{"weights", []float64{0.5, 0.5, 0.5}, 3, []int{0}, 2, "1 rows of 3 groups"},
		{"code", []float64{0.2, 0.3, 0.5, 0.2, 0.3, 0.5}, 3, []int{0, 3}, 2, "row 1: group 3, want a code in 0…2"},
		{"zero", []float64{0.2, 0.3, 0.5, 0, 0.5, 0.5}, 3, []int{0, 1}, 2, "row 1: propensity of group 0 is 0"},
		{"nan", []float64{0.2, math.NaN(), 0.5}, 3, []int{0}, 1, "row 0: propensity of group 1 is NaN"},
		{"above 1", []float64{0.2, 0.3, 1.5}, 3, []int{0}, 1, "row 0: propensity of group 2 is 1.5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := propensity.OverlapWeights(tc.e, tc.groups, tc.a, make([]float64, tc.w))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestDiagnoseGroupsByHand checks every figure of a small case.
func TestDiagnoseGroupsByHand(t *testing.T) {
	levels := []string{"A", "B", "C"}
	e := []float64{
		0.2, 0.3, 0.5, // group 0: w = (3/31)/0.2
		0.2, 0.3, 0.5, // group 1: w = (3/31)/0.3
		1.0 / 3, 1.0 / 3, 1.0 / 3, // group 1: w = 1/3
		0.995, 0.004, 0.001, // group 0, extreme for B and C
		0.5, 0.5 - propensity.Clip, propensity.Clip, // group 2, clipped and extreme for C
	}
	a := []int{0, 1, 1, 0, 2}
	o, err := propensity.DiagnoseGroups(e, levels, a, 1.5)
	if err != nil {
		t.Fatal(err)
	}
	w := make([]float64, 5)
	if err := propensity.OverlapWeights(e, 3, a, w); err != nil {
		t.Fatal(err)
	}
	ess := func(ws ...float64) float64 {
		var s, q float64
		for _, v := range ws {
			s, q = s+v, q+v*v
		}
		return s * s / q
	}
	if o.Temperature != 1.5 || o.Extreme != 0.4 || o.Clipped != 0.2 {
		t.Errorf("T %g, extreme %g (want 0.4), clipped %g (want 0.2)", o.Temperature, o.Extreme, o.Clipped)
	}
	for r, want := range []struct {
		n             int
		ess, share    float64
		extreme, q100 float64
	}{
		{2, ess(w[0], w[3]), max(w[0], w[3]) / (w[0] + w[3]), 0, 0.995},
		{2, ess(w[1], w[2]), max(w[1], w[2]) / (w[1] + w[2]), 0.2, 0.5 - propensity.Clip},
		{1, 1, 1, 0.4, 0.5},
	} {
		g := o.Groups[r]
		if g.Level != levels[r] || g.N != want.n || math.Abs(g.ESS-want.ess) > 1e-12 || math.Abs(g.MaxShare-want.share) > 1e-12 || g.Extreme != want.extreme {
			t.Errorf("group %d: %+v, want n %d, ESS %g, share %g, extreme %g", r, g, want.n, want.ess, want.share, want.extreme)
		}
		if len(g.Quantiles) != len(propensity.QuantileLevels) || g.Quantiles[len(g.Quantiles)-1] != want.q100 {
			t.Errorf("group %d: quantiles %v, want the largest %g", r, g.Quantiles, want.q100)
		}
	}
	if got := o.String(); !strings.Contains(got, "ESS C 1.0/1") || strings.Contains(got, "\n") {
		t.Errorf("summary %q", got)
	}

	for _, tc := range []struct {
		name   string
		e      []float64
		levels []string
		a      []int
		want   string
	}{
		{"one level", []float64{1}, []string{"A"}, []int{0}, "1 groups"},
		{"no rows", nil, levels, nil, "0 propensities for 0 rows"},
		{"shape", e[:6], levels, a, "6 propensities for 5 rows of 3 groups"},
		{"code", e, levels, []int{0, 1, 1, 0, 5}, "row 4: group 5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := propensity.DiagnoseGroups(tc.e, tc.levels, tc.a, 1); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestDiagnoseGroupsTwoGroupsMatchDiagnose: with two groups the extreme
// share, effective sample sizes and largest shares are Diagnose's.
func TestDiagnoseGroupsTwoGroupsMatchDiagnose(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 1))
	n := 500
	e, a := make([]float64, n), make([]float64, n)
	for i := range e {
		e[i] = 0.98*rng.Float64()*rng.Float64() + 0.001 // skewed: some rows extreme
		if rng.Float64() < e[i] {
			a[i] = 1
		}
	}
	want, got := diagnoseBoth(t, e, a)
	near := func(x, y float64) bool { return math.Abs(x-y) <= 1e-12*max(1, math.Abs(y)) }
	if got.Extreme != want.Extreme || want.Extreme == 0 || got.Clipped != want.Clipped ||
		got.Groups[1].N != want.N1 || got.Groups[0].N != want.N0 ||
		!near(got.Groups[1].ESS, want.ESS1) || !near(got.Groups[0].ESS, want.ESS0) ||
		!near(got.Groups[1].MaxShare, want.MaxShare1) || !near(got.Groups[0].MaxShare, want.MaxShare0) {
		t.Errorf("groups %+v\nbinary %+v", got, want)
	}
}

// nearlySeparable draws n rows of 5 features; group C holds the rows with
// x0 > 1 (a few flipped), the others are A or B by a mild logit of x1.
// With separable false, every row's group is drawn from mild logits.
func nearlySeparable(rng *rand.Rand, n int, separable bool) ([]float64, []int) {
	const dim = 5
	x, a := make([]float64, n*dim), make([]int, n)
	for i := range a {
		row := x[i*dim : (i+1)*dim]
		for j := range row {
			row[j] = rng.NormFloat64()
		}
		switch {
		case separable && (row[0] > 1) != (rng.Float64() < 0.01):
			a[i] = 2
		case separable:
			a[i] = 0
			if rng.Float64() < 1/(1+math.Exp(-0.5*row[1])) {
				a[i] = 1
			}
		default:
			a[i] = rng.IntN(3)
			if rng.Float64() < 0.3 {
				a[i] = min(2, int(math.Abs(row[0])*1.5))
			}
		}
	}
	return x, a
}

// TestDiagnoseGroupsNearlySeparableGroup fits the multinomial model where
// group C is nearly a threshold of one feature: the diagnostics single C
// out (most rows are extreme for C, few for A or B), poor overlap and
// the unreliable rule name it on one line; where the groups are mixed, the
// same rule finds nothing.
func TestDiagnoseGroupsNearlySeparableGroup(t *testing.T) {
	levels := []string{"A", "B", "C"}
	cfg := propensityfit.DefaultConfig()
	cfg.Epochs = 40
	for _, tc := range []struct {
		name      string
		separable bool
	}{{"C nearly separable", true}, {"mixed", false}} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(17, 3))
			const n, dim = 3000, 5
			x, a := nearlySeparable(rng, n, tc.separable)
			m, _, err := propensityfit.FitMultinomial(context.Background(), x, n, dim, a, 3, cfg, rand.New(rand.NewPCG(17, 4)))
			if err != nil {
				t.Fatal(err)
			}
			train, err := propensity.DiagnoseGroups(m.Predict(x, n), levels, a, m.T)
			if err != nil {
				t.Fatal(err)
			}
			xe, ae := nearlySeparable(rng, 1000, tc.separable)
			eval, err := propensity.DiagnoseGroups(m.Predict(xe, 1000), levels, ae, m.T)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("training rows: %v", train)
			t.Logf("evaluation rows: %v", eval)
			for _, g := range train.Groups {
				t.Logf("group %s: %.1f%% of the rows extreme", g.Level, 100*g.Extreme)
			}
			poor, why := train.Poor()
			bad, reason := propensity.UnreliableGroups(train, eval)
			t.Logf("poor %v: %s", poor, why)
			t.Logf("unreliable %v: %s", bad, reason)
			if !tc.separable {
				if poor || bad {
					t.Errorf("mixed groups: poor %v (%s), unreliable %v (%s)", poor, why, bad, reason)
				}
				return
			}
			c := train.Groups[2]
			// The rows of C (x0 > 1, about 16%) have almost no counterpart
			// in A or B; the rows of A and B, most of them, none in C.
			if !(c.Extreme > 0.3) || train.Groups[0].Extreme > 0.2 || train.Groups[1].Extreme > 0.2 {
				t.Errorf("extreme shares A %g, B %g, C %g: want C's above 0.3 and the others' below 0.2",
					train.Groups[0].Extreme, train.Groups[1].Extreme, c.Extreme)
			}
			for _, s := range []string{why, reason} {
				if !strings.Contains(s, `for group "C"`) || strings.Contains(s, `"A"`) || strings.Contains(s, `"B"`) || strings.Contains(s, "\n") {
					t.Errorf("reason %q: want one line naming group C alone", s)
				}
			}
			if !poor || !bad {
				t.Errorf("poor %v, unreliable %v: want both", poor, bad)
			}
		})
	}
}

func TestUnreliableGroups(t *testing.T) {
	good := func() propensity.GroupOverlap {
		return propensity.GroupOverlap{Temperature: 1, Groups: []propensity.GroupStats{
			{Level: "A", N: 100, ESS: 90, MaxShare: 0.02},
			{Level: "B", N: 50, ESS: 45, MaxShare: 0.03},
			{Level: "C", N: 30, ESS: 25, MaxShare: 0.05},
		}}
	}
	with := func(f func(o *propensity.GroupOverlap)) propensity.GroupOverlap {
		o := good()
		f(&o)
		return o
	}
	for _, tc := range []struct {
		name        string
		train, eval propensity.GroupOverlap
		want        []string // each in the reason; none: reliable
	}{
		{"reliable", good(), good(), nil},
		{"separable", with(func(o *propensity.GroupOverlap) { o.Temperature = propensity.MinT }), good(), []string{"lower bound 0.01"}},
		{"extreme training rows", with(func(o *propensity.GroupOverlap) {
			o.Extreme = 0.15
			o.Groups[1].Extreme = 0.12
			o.Groups[2].Extreme = 0.04
		}), good(), []string{`15% of the training rows have a propensity under 1/50 of some group's share, for group "B" (below 0.0056) on 12% of them`}},
		{"extreme evaluation rows", good(), with(func(o *propensity.GroupOverlap) {
			o.Extreme = 0.2
			o.Groups[2].Extreme = 0.2
		}), []string{`20% of the evaluation rows`, `group "C" (below 0.0033) on 20%`}},
		{"low ESS", good(), with(func(o *propensity.GroupOverlap) { o.Groups[2].ESS = 2.5 }), []string{`group "C" count as 2.5 of its 30 rows`}},
		{"one row", good(), with(func(o *propensity.GroupOverlap) { o.Groups[0].MaxShare = 0.4 }), []string{`one row carries 40% of group "A"'s weight`}},
		{"no rows", good(), with(func(o *propensity.GroupOverlap) { o.Groups[1] = propensity.GroupStats{Level: "B"} }), []string{`group "B" has no evaluation rows`}},
		{"several", with(func(o *propensity.GroupOverlap) { o.Temperature = propensity.MinT }),
			with(func(o *propensity.GroupOverlap) { o.Groups[0].ESS, o.Groups[2].MaxShare = 1, 0.5 }),
			[]string{"lower bound", `group "A" count as 1.0`, `50% of group "C"'s weight`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad, why := propensity.UnreliableGroups(tc.train, tc.eval)
			if bad != (len(tc.want) > 0) || strings.Contains(why, "\n") {
				t.Fatalf("unreliable %v: %q", bad, why)
			}
			for _, w := range tc.want {
				if !strings.Contains(why, w) {
					t.Errorf("reason %q lacks %q", why, w)
				}
			}
		})
	}
}

// A propensity at the clip bound counts as clipped in both diagnostics,
// also after it went through a file and back (1 − 0.999999 is a little
// above Clip in floating point); one a little inside the bound does not.
func TestClippedAtTheBound(t *testing.T) {
	for _, c := range []struct {
		name string
		e    float64
		want bool
	}{
		{"Clip", propensity.Clip, true},
		{"1 − Clip", 1 - propensity.Clip, true},
		{"read back as 0.000001", 0.000001, true},
		{"read back as 0.999999", 0.999999, true},
		{"inside", 2 * propensity.Clip, false},
		{"far inside", 0.5, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			two, groups := diagnoseBoth(t, []float64{c.e, c.e}, []float64{0, 1})
			if (two.Clipped == 1) != c.want || (groups.Clipped == 1) != c.want || (two.Clipped != 0 && two.Clipped != 1) {
				t.Errorf("ê = %v: clipped %v (two groups), %v (groups), want all %v", c.e, two.Clipped, groups.Clipped, c.want)
			}
		})
	}
}

// diagnoseBoth diagnoses the two groups' propensities e (of a = 1) and
// labels a both ways: as two groups (Diagnose) and as R = 2 groups
// (DiagnoseGroups), at temperature 2.
func diagnoseBoth(t *testing.T, e, a []float64) (propensity.Overlap, propensity.GroupOverlap) {
	t.Helper()
	two, err := propensity.Diagnose(e, a, 2)
	if err != nil {
		t.Fatal(err)
	}
	ee, ga := binaryColumns(e, a)
	groups, err := propensity.DiagnoseGroups(ee, []string{"0", "1"}, ga, 2)
	if err != nil {
		t.Fatal(err)
	}
	return two, groups
}
