package propensity_test

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fpareto/fp/propensity"
	"github.com/fpareto/fp/propensity/propensityfit"
)

// rareGroup is n rows of three groups, the last holding 1% of them; every
// row's propensities are the groups' shares times ratio for the rare
// group (the rest spread over the others), so that ratio is each row's
// p(x | C)/p(x).
func rareGroup(n int, ratio float64) (e []float64, a []int) {
	share := []float64{0.59, 0.4, 0.01}
	e, a = make([]float64, 3*n), make([]int, n)
	for i := range n {
		switch {
		case i%100 == 0:
			a[i] = 2
		case i%5 < 2:
			a[i] = 1
		}
		c := share[2] * ratio
		e[3*i], e[3*i+1], e[3*i+2] = share[0]*(1-c)/0.99, share[1]*(1-c)/0.99, c
	}
	return e, a
}

// A group of 1% of the rows is not extreme for being rare: propensities at
// its share (features that say nothing about it) read as no extreme row,
// where a bound of 0.01 for every group counted most of them; rows fifty
// times rarer in it than overall are extreme, for it.
func TestExtremeScalesWithGroupShare(t *testing.T) {
	levels := []string{"A", "B", "C"}
	for _, tc := range []struct {
		name    string
		ratio   float64
		extreme float64
	}{
		{"at its share", 1, 0},
		{"a little under its share", 0.8, 0},
		{"fifty times rarer", 0.019, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, a := rareGroup(1000, tc.ratio)
			o, err := propensity.DiagnoseGroups(e, levels, a, 1)
			if err != nil {
				t.Fatal(err)
			}
			if o.Extreme != tc.extreme || o.Groups[2].Extreme != tc.extreme || o.Groups[0].Extreme != 0 {
				t.Errorf("extreme %g (C %g, A %g), want %g for C alone", o.Extreme, o.Groups[2].Extreme, o.Groups[0].Extreme, tc.extreme)
			}
			if poor, why := o.Poor(); poor != (tc.extreme > 0) {
				t.Errorf("poor %v (%s)", poor, why)
			}
		})
	}

	// Two groups: the bounds are ê < 0.02·π_1 and 1 − ê < 0.02·π_0, so
	// equal groups keep 0.01 and 0.99, and a group of 2% is extreme only
	// below 0.0004.
	balanced, half := uniform(100, 0.5)
	balanced[0], balanced[1], balanced[2], balanced[3] = 0.0099, 0.0101, 0.9901, 0.9899
	o, err := propensity.Diagnose(balanced, half, 1)
	if err != nil {
		t.Fatal(err)
	}
	if o.Extreme != 0.02 || o.Extreme1 != 0.01 || o.Extreme0 != 0.01 {
		t.Errorf("equal groups: extreme %g (a=1 %g, a=0 %g), want 0.02 (0.01 each)", o.Extreme, o.Extreme1, o.Extreme0)
	}
	e, a := make([]float64, 100), make([]float64, 100)
	for i := range e {
		e[i] = 0.02
	}
	a[0], a[1] = 1, 1
	e[5], e[6] = 0.00039, 0.00041
	if o, _ := propensity.Diagnose(e, a, 1); o.Extreme != 0.01 || o.Extreme1 != 0.01 {
		t.Errorf("a group of 2%%: extreme %g (a=1 %g), want 0.01, the row under 0.0004", o.Extreme, o.Extreme1)
	}
}

// Causes puts a finding down to the size of a group with fewer than
// MinGroupRows rows where it holds, and any other to the columns.
func TestCauses(t *testing.T) {
	stats := func(n1, n2 int, share2 float64) propensity.GroupOverlap {
		return propensity.GroupOverlap{Temperature: 1, Groups: []propensity.GroupStats{
			{Level: "A", N: 900, ESS: 800, MaxShare: 0.002},
			{Level: "B", N: n1, ESS: 0.9 * float64(n1), MaxShare: 0.05},
			{Level: "C", N: n2, ESS: 0.9 * float64(n2), MaxShare: share2},
		}}
	}
	for _, tc := range []struct {
		name        string
		train, eval propensity.GroupOverlap
		small       []string
		proxy       bool
	}{
		{"reliable", stats(300, 200, 0.02), stats(150, 100, 0.02), nil, false},
		{"one row of a small group", stats(300, 30, 0.05), stats(150, 15, 0.2), []string{"C"}, false},
		{"one row of a large group", stats(300, 200, 0.02), stats(150, 100, 0.2), nil, true},
		{"a separable temperature", func() propensity.GroupOverlap {
			o := stats(300, 200, 0.02)
			o.Temperature = propensity.MinT
			return o
		}(), stats(150, 100, 0.02), nil, true},
		{"both", func() propensity.GroupOverlap {
			o := stats(300, 30, 0.02)
			o.Groups[1].ESS = 3
			return o
		}(), stats(150, 0, 0), []string{"C"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			small, proxy := tc.train.Causes(tc.eval)
			if !slices.Equal(small, tc.small) || proxy != tc.proxy {
				t.Errorf("small %q, proxy %v; want %q, %v", small, proxy, tc.small, tc.proxy)
			}
		})
	}
	// Two groups, named as the reasons name them.
	train := propensity.Overlap{Temperature: 1, N1: 20, N0: 980, ESS1: 19, ESS0: 900, MaxShare1: 0.06, MaxShare0: 0.001}
	eval := propensity.Overlap{Temperature: 1, N1: 8, N0: 490, ESS1: 7, ESS0: 450, MaxShare1: 0.15, MaxShare0: 0.003}
	if small, proxy := train.Causes(eval); !slices.Equal(small, []string{"a = 1"}) || proxy {
		t.Errorf("two groups: small %q, proxy %v; want a = 1 alone", small, proxy)
	}
}

// UnreliableRows judges rows whose model is unknown by the conditions on
// the evaluation rows, naming the rows as asked.
func TestUnreliableRows(t *testing.T) {
	o := propensity.GroupOverlap{Groups: []propensity.GroupStats{
		{Level: "x", N: 40, ESS: 30, MaxShare: 0.455},
		{Level: "y", N: 60, ESS: 55, MaxShare: 0.03},
	}}
	bad, why := propensity.UnreliableRows(o, "file's")
	if !bad || why != `on the file's rows one row carries 46% of group "x"'s weight` {
		t.Errorf("unreliable %v: %q", bad, why)
	}
	o.Groups[0].MaxShare = 0.05
	if bad, why := propensity.UnreliableRows(o, "file's"); bad {
		t.Errorf("reliable rows judged unreliable: %q", why)
	}
}

// WithTarget says which predictor of the attribute is also the strongest
// predictor of the target, and whether it is the only feature.
func TestWithTarget(t *testing.T) {
	// Columns: zip (two encoded columns) goes with a, score with y.
	sources := []string{"zip", "zip", "score"}
	rows := [][]float64{{1, 0, 0.9}, {1, 0, 0.2}, {0, 1, 0.8}, {0, 1, 0.1}, {1, 0, 0.7}, {0, 0, 0.3}}
	a := []float64{1, 1, 0, 0, 1, 0}
	y := []float64{1, 0, 1, 0, 1, 0}
	var x []float64
	for _, r := range rows {
		x = append(x, r...)
	}
	preds := propensity.WithTarget(propensity.Predictors(x, len(rows), sources, a, 2), x, len(rows), sources, y)
	if len(preds) != 2 || preds[0].Column != "zip" || preds[0].Strongest || preds[0].Only ||
		preds[1].Column != "score" || !preds[1].Strongest || !(preds[1].Target > preds[0].Target) {
		t.Fatalf("got %+v: want zip first, score the strongest predictor of y", preds)
	}
	one := propensity.WithTarget(propensity.Predictors(x[:0], 0, nil, nil, 1), nil, 0, nil, nil)
	if len(one) != 0 {
		t.Errorf("no rows: %+v", one)
	}
	only := []float64{0.9, 0.2, 0.8, 0.1, 0.7, 0.3}
	got := propensity.WithTarget(propensity.Predictors(only, 6, []string{"score"}, a, 1), only, 6, []string{"score"}, y)
	if len(got) != 1 || !got[0].Only || !got[0].Strongest || math.IsNaN(got[0].Target) {
		t.Errorf("the only feature: %+v", got)
	}
}

// A fitted model of groups the features say nothing about, one of them 1%
// of the rows: no row reads as extreme, where a bound of 0.01 for every
// group counted about half of them for the rare group.
func TestFittedRareGroupWithoutProxyIsNotExtreme(t *testing.T) {
	const n, dim = 3000, 5
	rng := rand.New(rand.NewPCG(23, 5))
	x, a := make([]float64, n*dim), make([]int, n)
	for i := range a {
		for j := range dim {
			x[i*dim+j] = rng.NormFloat64()
		}
		switch u := rng.Float64(); {
		case u < 0.01:
			a[i] = 2
		case u < 0.4:
			a[i] = 1
		}
	}
	cfg := propensityfit.DefaultConfig()
	cfg.Epochs = 40
	m, _, err := propensityfit.FitMultinomial(context.Background(), x, n, dim, a, 3, cfg, rand.New(rand.NewPCG(23, 6)))
	if err != nil {
		t.Fatal(err)
	}
	o, err := propensity.DiagnoseGroups(m.Predict(x, n), []string{"A", "B", "C"}, a, m.T)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%v", o)
	if poor, why := o.Poor(); poor || o.Extreme > 0.01 {
		t.Errorf("extreme %.1f%%, poor %v (%s): want no extreme rows", 100*o.Extreme, poor, why)
	}
}
