package reductions_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fpareto/fp/reductions"
)

// The grid is Fairlearn's: the points its _GridGenerator makes for these
// sizes and dimensions, worked out by hand from its code (neg_allowed
// everywhere, no forced L1 norm): the number of units starts at
// ⌊(size/2^dim)^(1/dim) − 1⌋ and grows until the lattice has size points.
func TestGridIsFairlearns(t *testing.T) {
	for _, tc := range []struct {
		size, dim int
		want      [][]float64
	}{
		{5, 1, [][]float64{{-2}, {-1}, {0}, {1}, {2}}},
		{11, 1, [][]float64{{-2}, {-1.6}, {-1.2}, {-0.8}, {-0.4}, {0}, {0.4}, {0.8}, {1.2}, {1.6}, {2}}},
		{4, 1, [][]float64{{-2}, {-1}, {0}, {1}}},
		// Two dimensions, 5 points: the lattice of L1 norm ≤ 1 in the
		// order of the recursion (first coordinate outer).
		{5, 2, [][]float64{{-2, 0}, {0, -2}, {0, 0}, {0, 2}, {2, 0}}},
	} {
		got := reductions.Grid(tc.size, tc.dim, reductions.GridLimit)
		if len(got) != len(tc.want) {
			t.Fatalf("Grid(%d, %d): %v, want %v", tc.size, tc.dim, got, tc.want)
		}
		for i := range got {
			for k := range got[i] {
				if math.Abs(got[i][k]-tc.want[i][k]) > 1e-12 {
					t.Fatalf("Grid(%d, %d): %v, want %v", tc.size, tc.dim, got, tc.want)
				}
			}
		}
	}
}

// The relabelling is the Lagrangian's best response: for any decisions d,
// Σ_i |c_i|·1{d_i ≠ ỹ_i} differs from the Lagrangian
// n·(error(d) + μ·γ(d)) by a constant that does not depend on d, so the
// classifier minimising the weighted error minimises the Lagrangian. The
// test draws decisions and compares the differences.
func TestCostsMinimiseTheLagrangian(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, tc := range []struct {
		constraint string
		groups     int
	}{{reductions.DP, 2}, {reductions.EO, 2}, {reductions.DP, 3}, {reductions.EO, 3}} {
		n := 200
		y, g := make([]float64, n), make([]int, n)
		for i := range y {
			g[i] = i % tc.groups
			if rng.Float64() < 0.3+0.2*float64(g[i]) {
				y[i] = 1
			}
		}
		m, err := reductions.NewMoment(tc.constraint, y, g, tc.groups)
		if err != nil {
			t.Fatal(err)
		}
		mult := make([]float64, m.Dim())
		for k := range mult {
			mult[k] = 4*rng.Float64() - 2
		}
		labels, w, err := m.Costs(mult, y, g)
		if err != nil {
			t.Fatal(err)
		}
		var mean float64
		for _, v := range w {
			mean += v
		}
		if mean /= float64(n); math.Abs(mean-1) > 1e-12 {
			t.Fatalf("%s/%d: weights' mean %v, want 1", tc.constraint, tc.groups, mean)
		}
		// The scale of the weights: recover it from the signed weights'
		// definition, |c_i| = w_i·s.
		var diffs []float64
		for range 5 {
			d := make([]float64, n)
			for i := range d {
				d[i] = float64(rng.IntN(2))
			}
			var weighted, errs float64
			for i := range d {
				if d[i] != labels[i] {
					weighted += w[i]
				}
				if d[i] != y[i] {
					errs++
				}
			}
			lag := errs
			for k, gk := range m.Gamma(d, y, g) {
				lag += float64(n) * mult[k] * gk
			}
			diffs = append(diffs, weighted, lag)
		}
		// weighted·s − lag is the same for every d: with two draws,
		// s = (lag1 − lag0)/(weighted1 − weighted0); every draw agrees.
		s := (diffs[3] - diffs[1]) / (diffs[2] - diffs[0])
		c := diffs[0]*s - diffs[1]
		for k := 0; k < len(diffs); k += 2 {
			if got := diffs[k]*s - diffs[k+1]; math.Abs(got-c) > 1e-6*math.Abs(c)+1e-6 {
				t.Errorf("%s/%d: weighted error·s − Lagrangian = %v, want the constant %v", tc.constraint, tc.groups, got, c)
			}
		}
		if !(s > 0) {
			t.Errorf("%s/%d: scale %v, want > 0", tc.constraint, tc.groups, s)
		}
	}
}

// A group without rows of a label cannot be held to equalized odds: one
// line naming it.
func TestMomentRefusesAnEmptyEvent(t *testing.T) {
	y := []float64{1, 1, 0, 1}
	g := []int{0, 0, 1, 1}
	if _, err := reductions.NewMoment(reductions.EO, y, g, 2); err == nil || !slices.Contains([]bool{true}, err.Error() != "") {
		t.Fatalf("err %v, want a refusal", err)
	}
	if _, err := reductions.NewMoment(reductions.DP, y, g, 2); err != nil {
		t.Fatalf("DP: %v", err)
	}
}
