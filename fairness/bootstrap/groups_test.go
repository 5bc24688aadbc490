package bootstrap

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/model"
)

// syntheticGroups draws n rows in r groups whose scores differ by group:
// x ~ N(0, 1), the group from a softmax in x (the propensities e, n×r),
// y ~ Bernoulli(σ(1.5x + 0.3g)) and the logit z = x + 0.2g, rounded so that
// scores tie. w holds the generalised overlap weights.
func syntheticGroups(n, r int, rng *rand.Rand) (z, y []float64, g []int, w []float64) {
	z, y, g, w = make([]float64, n), make([]float64, n), make([]int, n), make([]float64, n)
	e := make([]float64, n*r)
	for i := range n {
		x := rng.NormFloat64()
		row := e[i*r : (i+1)*r]
		var sum float64
		for k := range row {
			row[k] = math.Exp(0.5 * x * float64(k-1))
			sum += row[k]
		}
		u, acc := rng.Float64()*sum, 0.0
		g[i] = r - 1
		for k := range row {
			row[k] /= sum
			if acc += row[k] * sum; u < acc && g[i] == r-1 {
				g[i] = k
			}
		}
		if rng.Float64() < model.Sigmoid(1.5*x+0.3*float64(g[i])) {
			y[i] = 1
		}
		z[i] = math.Round((x+0.2*float64(g[i]))*1000) / 1000
	}
	if err := fairness.OverlapWeights(e, r, g, w); err != nil {
		panic(err)
	}
	return z, y, g, w
}

// With R groups, unit multiplicities give fairness.EvaluateLogits and
// integer multiplicities the metrics of the rows repeated that often.
func TestGroupsAreEvaluate(t *testing.T) {
	for _, r := range []int{2, 3, 5} {
		rng := rand.New(rand.NewPCG(uint64(r), 9))
		z, y, g, w := syntheticGroups(600, r, rng)
		s, err := NewLogits(z, y, g, r, w)
		if err != nil {
			t.Fatal(err)
		}
		want, err := fairness.EvaluateLogits(z, y, g, w)
		if err != nil {
			t.Fatal(err)
		}
		m := make([]float64, s.Len())
		for k := range m {
			m[k] = 1
		}
		got, ok := s.Metrics(m)
		if !ok {
			t.Fatalf("R = %d: ok = false with every row", r)
		}
		if want.ATO < 0.01 || want.DP < 1e-4 {
			t.Fatalf("R = %d: the synthetic data has no contrast (ato %g, dp %g)", r, want.ATO, want.DP)
		}
		sameMetrics(t, "unit multiplicities", got, want, 1e-12)

		for range 3 {
			s.Draw(rng, m)
			var ez, ey, ew []float64
			var eg []int
			for k, mk := range m {
				for range int(mk) {
					ez = append(ez, logit(s.p[k]))
					ey, eg, ew = append(ey, s.y[k]), append(eg, int(s.g[k])), append(ew, s.w[k])
				}
			}
			want, err := fairness.EvaluateLogits(ez, ey, eg, ew)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := s.Metrics(m)
			if !ok {
				t.Fatalf("R = %d: a resample of 600 rows lacks a group", r)
			}
			// The risk of the expanded rows is recomputed from p, so only
			// to rounding.
			sameMetrics(t, "resample", got, want, 1e-9)
		}
	}
}

func logit(p float64) float64 { return math.Log(p) - math.Log1p(-p) }

// At two groups the weights of the two-column propensities (1 − ê, ê) give
// the sample of the propensity scores ê on every resample: bit for bit but
// for the ATO, whose weights h/e_a round differently from 1 − ê and ê.
func TestGroupsTwoIsBinary(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	z, y, a, e := synthetic(500, rng)
	g := make([]int, len(a))
	e2 := make([]float64, 2*len(a))
	for i := range a {
		g[i] = int(a[i])
		e2[2*i], e2[2*i+1] = 1-e[i], e[i]
	}
	w := make([]float64, len(a))
	if err := fairness.OverlapWeights(e2, 2, g, w); err != nil {
		t.Fatal(err)
	}
	sb, err := binaryLogits(z, y, a, e)
	if err != nil {
		t.Fatal(err)
	}
	sg, err := NewLogits(z, y, g, 2, w)
	if err != nil {
		t.Fatal(err)
	}
	ib, err := sb.Intervals(200, 0.95, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	ig, err := sg.Intervals(200, 0.95, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if !close(ig.ATO.Lo, ib.ATO.Lo, 1e-12) || !close(ig.ATO.Hi, ib.ATO.Hi, 1e-12) {
		t.Fatalf("two groups: ATO %+v, binary %+v", ig.ATO, ib.ATO)
	}
	ig.ATO = ib.ATO
	// The overlap weights come out of two computations equal to rounding
	// (1 − ê against the R-group rule), and so do their Kish sizes.
	if !close(ig.SmallestESS, ib.SmallestESS, 1e-9) {
		t.Fatalf("two groups: SmallestESS %g, binary %g", ig.SmallestESS, ib.SmallestESS)
	}
	ig.SmallestESS = ib.SmallestESS
	if ib != ig {
		t.Fatalf("two groups: %+v, binary %+v", ig, ib)
	}
}

// A resample that lacks one of R groups is not valid: its ATO is NaN and
// the MV indices are those of the groups present.
func TestGroupsResampleWithoutAGroup(t *testing.T) {
	z := []float64{-1, 1, -0.5, 0.5, 0, 2}
	y := []float64{0, 1, 0, 1, 0, 1}
	g := []int{0, 0, 1, 1, 2, 2}
	w := []float64{1, 1, 1, 1, 1, 1}
	s, err := NewLogits(z, y, g, 3, w)
	if err != nil {
		t.Fatal(err)
	}
	m := make([]float64, 6)
	var keep []float64
	var kz, ky []float64
	var kg []int
	for k := range m {
		if s.g[k] != 2 {
			m[k] = 1
			kz, ky, kg = append(kz, logit(s.p[k])), append(ky, s.y[k]), append(kg, int(s.g[k]))
			keep = append(keep, 1)
		}
	}
	got, ok := s.Metrics(m)
	if ok || !math.IsNaN(got.ATO) {
		t.Fatalf("group 2 absent: ok = %v, ato %g; want false and NaN", ok, got.ATO)
	}
	want, err := fairness.EvaluateLogits(kz, ky, kg, keep)
	if err != nil {
		t.Fatal(err)
	}
	if !close(got.DP, want.DP, 1e-12) || !close(got.EO, want.EO, 1e-12) || got.DP == 0 {
		t.Fatalf("dp %g, eo %g; want the two groups' %g, %g", got.DP, got.EO, want.DP, want.EO)
	}
}

func TestNewLogitsGroupsErrors(t *testing.T) {
	z, y := []float64{0, 1, 2}, []float64{0, 1, 0}
	for _, tc := range []struct {
		name string
		g    []int
		r    int
	}{
		{"one group asked", []int{0, 0, 0}, 1},
		{"a group outside 0 … r−1", []int{0, 1, 3}, 3},
		{"an empty group", []int{0, 1, 1}, 3},
	} {
		if _, err := NewLogits(z, y, tc.g, tc.r, nil); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}
