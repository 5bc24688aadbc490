package fairness

import (
	"math"
	"math/rand/v2"
	"testing"
)

// This file checks that two groups, the special case R = 2 of every
// function, give the numbers of the binary formulas the package computed
// before it took group labels: bit for bit against a copy of those
// formulas (the ref functions below), and against values computed
// independently (numpy) on fixed data.

// refWeights is the binary overlap weight: 1 − ê in group 1, ê in group 0.
func refWeights(e, a []float64) []float64 {
	w := make([]float64, len(a))
	for i := range a {
		if a[i] == 1 {
			w[i] = 1 - e[i]
		} else {
			w[i] = e[i]
		}
	}
	return w
}

// refTau is the signed binary τ̂: group 1's weighted mean minus group 0's,
// each group's weight and weighted outcome summed in example order.
func refTau(o, a, w []float64) float64 {
	var s1, s0, t1, t0 float64
	for i, ai := range a {
		if ai == 1 {
			s1 += w[i]
			t1 += w[i] * o[i]
		} else {
			s0 += w[i]
			t0 += w[i] * o[i]
		}
	}
	return t1/s1 - t0/s0
}

// refMV is the binary mean-variance index of p within the examples keep
// selects: groups 0 and 1 by a_i = 1.
func refMV(p, a []float64, keep func(int) bool) float64 {
	var g [2][]float64
	for i := range p {
		if keep(i) {
			k := 0
			if a[i] == 1 {
				k = 1
			}
			g[k] = append(g[k], p[i])
		}
	}
	return mvGroups(g[:])
}

// refEvaluate is the binary Evaluate: every metric of probabilities p.
func refEvaluate(p, y, a, e []float64) Metrics {
	n := len(p)
	m := Metrics{N: n, Risk: probLoss(p, y) / float64(n), Accuracy: accuracy(p, y)}
	if e != nil {
		m.ATO, m.HasATO = math.Abs(refTau(p, a, refWeights(e, a))), true
	}
	all := func(int) bool { return true }
	m.DP = refMV(p, a, all)
	m.EOpp = refMV(p, a, func(i int) bool { return y[i] == 1 })
	m.EO = max(refMV(p, a, func(i int) bool { return y[i] != 1 }), m.EOpp)
	return m
}

// With the labels 0 and 1 and the propensity scores of a binary attribute,
// Evaluate, EvaluateLogits, ByGroup and the indices give exactly (bit for
// bit) the binary formulas' numbers.
func TestTwoGroupsAreTheBinaryFormulas(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for trial := range 200 {
		n := 2 + rng.IntN(200)
		p, y, a, e, s := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range n {
			a[i] = float64(i % 2) // both groups present
			if trial%3 == 0 {
				a[i] = float64(rng.IntN(2))
			}
			y[i] = float64(rng.IntN(2))
			p[i] = float64(rng.IntN(12)) / 11 // ties
			if trial%2 == 1 {
				p[i] = rng.Float64()
			}
			s[i] = 6 * (rng.Float64() - 0.5)
			e[i] = 0.05 + 0.9*rng.Float64()
		}
		a[0], a[1] = 0, 1
		z, err := BinaryGroups(a)
		if err != nil {
			t.Fatal(err)
		}
		w := make([]float64, n)
		if err := OverlapWeights(e, 2, z, w); err != nil {
			t.Fatal(err)
		}
		for i, v := range refWeights(e, a) {
			if w[i] != v {
				t.Fatalf("trial %d, example %d: weight %.17g, binary %.17g", trial, i, w[i], v)
			}
		}
		got, err := Evaluate(p, y, z, w)
		if want := refEvaluate(p, y, a, e); err != nil || got != want {
			t.Fatalf("trial %d: Evaluate %+v (%v), binary %+v", trial, got, err, want)
		}
		got, err = Evaluate(p, y, z, nil)
		if want := refEvaluate(p, y, a, nil); err != nil || got != want {
			t.Fatalf("trial %d: Evaluate without weights %+v (%v), binary %+v", trial, got, err, want)
		}
		got, err = EvaluateLogits(s, y, z, w)
		ps, loss := logitLoss(s, y)
		want := refEvaluate(ps, y, a, e)
		want.Risk = loss / float64(n)
		if err != nil || got != want {
			t.Fatalf("trial %d: EvaluateLogits %+v (%v), binary %+v", trial, got, err, want)
		}
		groups, err := ByGroup(p, y, z)
		if err != nil || len(groups) != 2 {
			t.Fatalf("trial %d: ByGroup %+v (%v)", trial, groups, err)
		}
		for g, gm := range groups {
			var c, pos, score, sel, right float64
			for i := range n {
				if int(a[i]) == g {
					c++
					pos += y[i]
					score += p[i]
					if p[i] >= 0.5 {
						sel++
					}
					if (p[i] >= 0.5) == (y[i] == 1) {
						right++
					}
				}
			}
			if wantG := (GroupMetrics{A: g, Count: int(c), BaseRate: pos / c, MeanScore: score / c, SelectionRate: sel / c, Accuracy: right / c}); gm != wantG {
				t.Fatalf("trial %d: group %d %+v, binary %+v", trial, g, gm, wantG)
			}
		}
	}
}

// The binary case on fixed data, against values computed independently
// with numpy from the definitions of docs/method.md §7 (the empirical CDFs
// of the mean-variance index evaluated at every score, the overlap weights
// 1 − ê and ê, the clipped cross-entropy).
func TestBinaryCaseFixedData(t *testing.T) {
	for _, tc := range []struct {
		name       string
		p, y, a, e []float64
		want       Metrics
	}{
		{
			name: "hand-worked six",
			p:    []float64{0.1, 0.2, 0.2, 0.3, 0.5, 0.6},
			y:    []float64{1, 1, 1, 1, 0, 0},
			a:    []float64{0, 0, 1, 1, 1, 0},
			e:    []float64{0.5, 0.5, 0.25, 0.25, 0.75, 0.5},
			want: Metrics{N: 6, Risk: 1.389145272437047, Accuracy: 0, ATO: 0.01428571428571429,
				DP: 0.018518518518518517, EO: 0.125, EOpp: 0.046875, HasATO: true},
		},
		{
			name: "ten with ties",
			p:    []float64{0.9, 0.4, 0.4, 0.7, 0.2, 0.4, 0.8, 0.1, 0.7, 0.3},
			y:    []float64{1, 0, 1, 1, 0, 0, 1, 0, 0, 1},
			a:    []float64{1, 1, 0, 1, 0, 0, 1, 0, 1, 0},
			e:    []float64{0.8, 0.6, 0.3, 0.7, 0.2, 0.4, 0.9, 0.35, 0.55, 0.45},
			want: Metrics{N: 10, Risk: 0.5359570665940814, Accuracy: 0.7, ATO: 0.36348884381338736,
				DP: 0.07100000000000001, EO: 0.08666666666666668, EOpp: 0.08666666666666668, HasATO: true},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			z, err := BinaryGroups(tc.a)
			if err != nil {
				t.Fatal(err)
			}
			w := make([]float64, len(z))
			if err := OverlapWeights(tc.e, 2, z, w); err != nil {
				t.Fatal(err)
			}
			got, err := Evaluate(tc.p, tc.y, z, w)
			if err != nil {
				t.Fatal(err)
			}
			checkMetrics(t, got, tc.want, 1e-14)
		})
	}
}
