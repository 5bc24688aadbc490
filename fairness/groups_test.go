package fairness

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// With more groups the indices are the direct formula of docs/method.md §7
// (mvDirect), unconditionally and within the classes of y.
func TestGroupIndicesMatchDirectFormula(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	subset := func(s []float64, z []int, y []float64, k float64) ([]float64, []int) {
		var ss []float64
		var zz []int
		for i := range s {
			if y[i] == k {
				ss, zz = append(ss, s[i]), append(zz, z[i])
			}
		}
		return ss, zz
	}
	for trial := range 200 {
		n := 1 + rng.IntN(80)
		p, z := randomTies(rng, n, 1+rng.IntN(8), []int{0, 3, 4, 9})
		y := make([]float64, n)
		for i := range y {
			y[i] = float64(rng.IntN(2))
		}
		s0, z0 := subset(p, z, y, 0)
		s1, z1 := subset(p, z, y, 1)
		for _, c := range []struct {
			name      string
			got, want float64
		}{
			{"dp", DP(p, z), mvDirect(p, z)},
			{"eo", EO(p, y, z), max(mvDirect(s0, z0), mvDirect(s1, z1))},
			{"eopp", EOpp(p, y, z), mvDirect(s1, z1)},
		} {
			if math.Abs(c.got-c.want) > 1e-14 || math.IsNaN(c.got) {
				t.Fatalf("trial %d (n=%d): %s %.17g, direct formula %.17g", trial, n, c.name, c.got, c.want)
			}
		}
	}
}

func TestOverlapWeightsHandWorked(t *testing.T) {
	// Row 0: e = (0.2, 0.3, 0.5), group 2. h = 1/(5 + 10/3 + 2) = 3/31,
	// w = h/0.5 = 6/31.
	// Row 1: e = (0.25, 0.25, 0.5), group 0. h = 1/(4 + 4 + 2) = 1/10,
	// w = h/0.25 = 2/5.
	// Row 2: e = (0, 0.4, 0.6), group 0: the own propensity is 0, w = 1.
	// Row 3: e = (0, 0.4, 0.6), group 1: another group's is 0, h = 0, w = 0.
	e := []float64{0.2, 0.3, 0.5, 0.25, 0.25, 0.5, 0, 0.4, 0.6, 0, 0.4, 0.6}
	z := []int{2, 0, 0, 1}
	w := make([]float64, 4)
	if err := OverlapWeights(e, 3, z, w); err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{6.0 / 31, 2.0 / 5, 1, 0} {
		if math.Abs(w[i]-want) > 1e-15 {
			t.Errorf("w[%d] = %.17g, want %.17g", i, w[i], want)
		}
	}
	// The defining form h/e_own, where every propensity is positive.
	rng := rand.New(rand.NewPCG(25, 26))
	const n, r = 100, 4
	e = make([]float64, n*r)
	z = make([]int, n)
	for i := range n {
		var sum float64
		for k := range r {
			e[i*r+k] = 0.01 + rng.Float64()
			sum += e[i*r+k]
		}
		for k := range r {
			e[i*r+k] /= sum
		}
		z[i] = rng.IntN(r)
	}
	w = make([]float64, n)
	if err := OverlapWeights(e, r, z, w); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		var inv float64
		for k := range r {
			inv += 1 / e[i*r+k]
		}
		if want := 1 / inv / e[i*r+z[i]]; math.Abs(w[i]-want) > 1e-14*want || !(w[i] > 0 && w[i] <= 1) {
			t.Fatalf("example %d: w %.17g, h/e %.17g", i, w[i], want)
		}
	}
}

func TestOverlapWeightsErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		e    []float64
		r    int
		z    []int
		nw   int
		want string
	}{
		{"one group", []float64{1, 1}, 1, []int{0, 0}, 2, "want at least 2"},
		{"short propensities", []float64{0.5, 0.5, 0.5}, 2, []int{0, 1}, 2, "3 propensities"},
		{"short weights", []float64{0.5, 0.5}, 2, []int{0}, 2, "2 weights"},
		{"group out of range", []float64{0.5, 0.5, 0.5, 0.5}, 2, []int{0, 2}, 2, "example 1: group 2, want 0 … 1"},
		{"negative group", []float64{0.5, 0.5}, 2, []int{-1}, 1, "group -1"},
		{"propensity above 1", []float64{0.5, 0.5, 1.5, -0.5}, 2, []int{0, 1}, 2, "example 1: propensity of group 0 is 1.5"},
		{"NaN propensity", []float64{math.NaN(), 0.5}, 2, []int{0}, 1, "example 0: propensity of group 0 is NaN"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := OverlapWeights(tc.e, tc.r, tc.z, make([]float64, tc.nw))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestOverlapMeansHandWorked(t *testing.T) {
	// Groups 5, 1, 9 (labels need not be 0 … R−1):
	//   group 1: o = 0.2, 0.4 with w = 1, 3 → m = (0.2 + 1.2)/4 = 0.35
	//   group 5: o = 0.9 with w = 0.5       → m = 0.9
	//   group 9: o = 0.1, 0.3 with w = 2, 2 → m = 0.2
	// ATO = 0.9 − 0.2 = 0.7.
	o := []float64{0.2, 0.9, 0.4, 0.1, 0.3}
	z := []int{1, 5, 1, 9, 9}
	w := []float64{1, 0.5, 3, 2, 2}
	labels, means, err := OverlapMeans(o, z, w)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range []float64{0.35, 0.9, 0.2} {
		if math.Abs(means[k]-want) > 1e-15 || labels[k] != []int{1, 5, 9}[k] {
			t.Errorf("group %d: label %d mean %.17g, want %d, %.17g", k, labels[k], means[k], []int{1, 5, 9}[k], want)
		}
	}
	if got, err := ATO(o, z, w); err != nil || math.Abs(got-0.7) > 1e-15 {
		t.Errorf("ATO = %.17g, %v; want 0.7", got, err)
	}

	for _, tc := range []struct {
		name    string
		o, w    []float64
		z       []int
		wantErr string
	}{
		{"one group", []float64{0.1, 0.2}, []float64{1, 1}, []int{3, 3}, "1 group, want at least 2"},
		{"weightless group", []float64{0.1, 0.2, 0.3}, []float64{1, 0, 0}, []int{0, 1, 1}, "group 1 has zero total weight"},
		{"negative weight", []float64{0.1, 0.2}, []float64{1, -1}, []int{0, 1}, "example 1: weight -1"},
		{"NaN outcome", []float64{0.1, math.NaN()}, []float64{1, 1}, []int{0, 1}, "example 1: outcome NaN"},
		{"lengths", []float64{0.1}, []float64{1, 1}, []int{0, 1}, "1 outcomes, 2 groups and 2 weights"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := ATO(tc.o, tc.z, tc.w); err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("err = %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

// Two minority groups treated in opposite directions: group 1 gets every
// score of the majority's shifted up, group 2 the same shifted down, and
// the majority holds both. The minorities together have exactly the
// majority's distribution of scores and labels, so a binary contrast of the
// majority against the rest sees nothing, while the R-group indices see the
// two opposite effects.
func TestOppositeMinoritiesCancelInBinaryContrast(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	const k, delta = 300, 0.15
	var p, y []float64
	var z []int
	add := func(s, label float64, g int) {
		p, y, z = append(p, s), append(y, label), append(z, g)
	}
	for range k {
		s, label := 0.2+0.6*rng.Float64(), float64(rng.IntN(2))
		add(s+delta, label, 0)
		add(s-delta, label, 0)
		add(s+delta, label, 1)
		add(s-delta, label, 2)
	}
	n := len(p)
	// Propensities constant within a group, P(group) = (1/2, 1/4, 1/4), so
	// that the binary propensity of "the rest" is 1/2.
	const r = 3
	e := make([]float64, n*r)
	a, eb := make([]float64, n), make([]float64, n)
	for i, g := range z {
		copy(e[i*r:], []float64{0.5, 0.25, 0.25})
		if g != 0 {
			a[i] = 1
		}
		eb[i] = 0.5
	}
	w := make([]float64, n)
	if err := OverlapWeights(e, r, z, w); err != nil {
		t.Fatal(err)
	}

	groups, err := Evaluate(p, y, z, w)
	if err != nil {
		t.Fatal(err)
	}
	binary, err := Evaluate(p, y, zOf(a), wOf(eb, a))
	if err != nil {
		t.Fatal(err)
	}
	// R-group ATO: group means m_1 − m_2 = 2δ = 0.3.
	if math.Abs(groups.ATO-2*delta) > 1e-12 {
		t.Errorf("R-group ato %.17g, want 2δ = %g", groups.ATO, 2*delta)
	}
	for _, c := range []struct {
		name          string
		binary, group float64
	}{
		{"ato", binary.ATO, groups.ATO},
		{"dp", binary.DP, groups.DP},
		{"eo", binary.EO, groups.EO},
		{"eopp", binary.EOpp, groups.EOpp},
	} {
		if !(c.group > 0.01) || !(c.binary < 0.01*c.group) {
			t.Errorf("%s: binary %.3g, R-group %.3g; want the R-group value clearly positive and the binary one below 1%% of it",
				c.name, c.binary, c.group)
		}
	}
}

func TestEvaluateManyGroupsErrors(t *testing.T) {
	p, y, z, w := []float64{0.2, 0.7}, []float64{0, 1}, []int{0, 1}, []float64{1, 1}
	for _, tc := range []struct {
		name string
		p, y []float64
		z    []int
		w    []float64
		want string
	}{
		{"empty", nil, nil, nil, nil, "no examples"},
		{"lengths", p, y, []int{0}, nil, "2 probabilities, 2 labels, 1 groups"},
		{"weights length", p, y, z, []float64{1}, "1 weights"},
		{"probability above 1", []float64{0.2, 1.2}, y, z, w, "example 1: probability 1.2 outside [0, 1]"},
		{"NaN probability", []float64{math.NaN(), 0.5}, y, z, w, "example 0: probability NaN"},
		{"label 2", p, []float64{0, 2}, z, w, "example 1: label 2"},
		{"negative weight", p, y, z, []float64{-1, 1}, "example 0: weight -1"},
		{"one group", p, y, []int{4, 4}, w, "every example is in group 4"},
		{"weightless group", p, y, z, []float64{1, 0}, "group 1 has zero total weight"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Evaluate(tc.p, tc.y, tc.z, tc.w)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
	if _, err := ByGroup(p, []float64{0, 3}, z); err == nil || !strings.Contains(err.Error(), "by group: evaluate: example 1: label 3") {
		t.Errorf("ByGroup with label 3: %v", err)
	}
}
