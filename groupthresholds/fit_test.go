package groupthresholds_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/groupthresholds"
	"github.com/fpareto/fp/model"
)

// rows draws scores whose relation to the label differs by group, so that
// one threshold for all is unfair in both senses.
func rows(n, groups int, seed uint64) groupthresholds.Rows {
	rng := rand.New(rand.NewPCG(seed, 1))
	r := groupthresholds.Rows{Groups: groups}
	for i := range n {
		g := i % groups
		y := 0.0
		if rng.Float64() < 0.3+0.15*float64(g) {
			y = 1
		}
		z := 1.5*y - 0.75 + 0.5*float64(g) + rng.NormFloat64()*(0.8+0.3*float64(g))
		r.P = append(r.P, model.Sigmoid(z))
		r.Y = append(r.Y, y)
		r.G = append(r.G, g)
	}
	return r
}

// decide applies the rules to the rows and measures them independently of
// the fit, with fairness.DecideRandomized.
func decide(t *testing.T, r groupthresholds.Rows, rules []model.ThresholdRule) fairness.Decision {
	t.Helper()
	d := make([]float64, len(r.P))
	for i := range d {
		d[i] = rules[r.G[i]].Decide(r.P[i])
	}
	dec, err := fairness.DecideRandomized(d, r.Y, r.G)
	if err != nil {
		t.Fatal(err)
	}
	return dec
}

// Along the grid the gap of the rules' decisions never grows and their
// error never falls (each λ minimises a weighted sum over the same rules);
// at λ = 0 they are at least as accurate as one threshold of 0.5 for all;
// near λ = 1 the gap is small (DP: within the grid of rates and the
// groups' granularity; EO: exact up to rounding, by randomisation).
func TestFitTradesErrorForTheGap(t *testing.T) {
	lambdas := []float64{0, 0.2, 0.4, 0.6, 0.8, 0.95, 1}
	for _, tc := range []struct {
		constraint string
		groups     int
		maxGap     float64
	}{
		{groupthresholds.DP, 2, 0.01}, {groupthresholds.DP, 3, 0.01},
		{groupthresholds.EO, 2, 1e-9}, {groupthresholds.EO, 3, 1e-9},
	} {
		r := rows(3000, tc.groups, 5)
		fits, err := groupthresholds.Fit(r, tc.constraint, lambdas)
		if err != nil {
			t.Fatal(err)
		}
		gap := func(d fairness.Decision) float64 {
			if tc.constraint == groupthresholds.EO {
				return d.EODiff
			}
			return d.DPDiff
		}
		half := make([]model.ThresholdRule, tc.groups)
		for g := range half {
			half[g] = model.ThresholdRule{Thresholds: []float64{0.5}, Weights: []float64{1}}
		}
		plain := decide(t, r, half)
		prevGap, prevAcc := math.Inf(1), math.Inf(1)
		for i, rules := range fits {
			d := decide(t, r, rules)
			if gap(d) > prevGap+1e-12 || d.Accuracy > prevAcc+1e-12 {
				t.Errorf("%s/%d: λ = %g: gap %.4f, accuracy %.4f after %.4f, %.4f", tc.constraint, tc.groups, lambdas[i], gap(d), d.Accuracy, prevGap, prevAcc)
			}
			prevGap, prevAcc = gap(d), d.Accuracy
			if i == 0 && d.Accuracy < plain.Accuracy-1e-12 {
				t.Errorf("%s/%d: λ = 0: accuracy %.4f below one threshold of 0.5's %.4f", tc.constraint, tc.groups, d.Accuracy, plain.Accuracy)
			}
		}
		if g := gap(decide(t, r, fits[len(fits)-2])); g > tc.maxGap {
			t.Errorf("%s/%d: λ = 0.95: gap %g, want ≤ %g", tc.constraint, tc.groups, g, tc.maxGap)
		}
		if last := decide(t, r, fits[len(fits)-1]); last.Accuracy < 0.5 {
			t.Errorf("%s/%d: λ = 1: accuracy %.3f: ties at equal gap go to fewer errors", tc.constraint, tc.groups, last.Accuracy)
		}
		if gap(plain) < 0.05 {
			t.Fatalf("%s/%d: the rows are fair at 0.5 already (gap %.3f): the test says little", tc.constraint, tc.groups, gap(plain))
		}
	}
}

// Bad rows are refused in one line naming what is wrong.
func TestFitRefusesBadRows(t *testing.T) {
	for _, tc := range []struct {
		name       string
		rows       groupthresholds.Rows
		constraint string
	}{
		{"unknown constraint", rows(10, 2, 1), "eopp"},
		{"a group without rows", groupthresholds.Rows{P: []float64{0.2, 0.7}, Y: []float64{0, 1}, G: []int{0, 0}, Groups: 2}, groupthresholds.DP},
		{"a group without positives", groupthresholds.Rows{P: []float64{0.2, 0.7, 0.4, 0.3}, Y: []float64{0, 1, 0, 0}, G: []int{0, 0, 1, 1}, Groups: 2}, groupthresholds.EO},
		{"a group code out of range", groupthresholds.Rows{P: []float64{0.2}, Y: []float64{0}, G: []int{3}, Groups: 2}, groupthresholds.DP},
	} {
		if _, err := groupthresholds.Fit(tc.rows, tc.constraint, []float64{0.5}); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}
