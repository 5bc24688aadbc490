package fairness

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// bruteDecision recomputes the decision metrics the long way, as
// Fairlearn's MetricFrame does: for each group the rows of the group are
// filtered out and each rate is counted from its own definition; the
// differences and the ratio are then taken over every pair of groups.
func bruteDecision(d, y []float64, z []int) (dpDiff, dpRatio, eoDiff, eoppDiff, acc float64) {
	groups := map[int]bool{}
	for _, g := range z {
		groups[g] = true
	}
	rate := func(keep func(i int) bool) (float64, bool) {
		var s, n float64
		for i := range d {
			if keep(i) {
				s += d[i]
				n++
			}
		}
		return s / n, n > 0
	}
	var sel, tpr, fpr []float64
	for g := range groups {
		r, _ := rate(func(i int) bool { return z[i] == g })
		sel = append(sel, r)
		if r, ok := rate(func(i int) bool { return z[i] == g && y[i] == 1 }); ok {
			tpr = append(tpr, r)
		}
		if r, ok := rate(func(i int) bool { return z[i] == g && y[i] == 0 }); ok {
			fpr = append(fpr, r)
		}
	}
	pairMax := func(v []float64) float64 {
		m := 0.0
		for _, a := range v {
			for _, b := range v {
				m = math.Max(m, a-b)
			}
		}
		return m
	}
	dpRatio = 1
	for _, a := range sel {
		for _, b := range sel {
			if b > 0 {
				dpRatio = math.Min(dpRatio, a/b)
			}
		}
	}
	for i := range d {
		acc += y[i]*d[i] + (1-y[i])*(1-d[i])
	}
	return pairMax(sel), dpRatio, math.Max(pairMax(tpr), pairMax(fpr)), pairMax(tpr), acc / float64(len(d))
}

func TestDecisionHandWorked(t *testing.T) {
	// Two groups. Group 0: p = 0.9, 0.6, 0.2, 0.1 with y = 1, 0, 1, 0:
	// decisions 1 1 0 0, selection 1/2, TPR 1/2, FPR 1/2. Group 1:
	// p = 0.7, 0.3, 0.4 with y = 1, 1, 0: decisions 1 0 0, selection 1/3,
	// TPR 1/2, FPR 0. dp_diff 1/6, dp_ratio 2/3, eo_diff max(0, 1/2) = 1/2,
	// eopp_diff 0; accuracy: 1 0 0 1 | 1 0 1 → 4/7.
	p := []float64{0.9, 0.6, 0.2, 0.1, 0.7, 0.3, 0.4}
	y := []float64{1, 0, 1, 0, 1, 1, 0}
	z := []int{0, 0, 0, 0, 1, 1, 1}
	d, err := DecideScores(p, y, z, DefaultThreshold)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"dp_diff", d.DPDiff, 1.0 / 6}, {"dp_ratio", d.DPRatio, 2.0 / 3}, {"eo_diff", d.EODiff, 0.5},
		{"eopp_diff", d.EOppDiff, 0}, {"accuracy", d.Accuracy, 4.0 / 7},
		{"tpr0", d.Groups[0].TPR, 0.5}, {"fpr1", d.Groups[1].FPR, 0}, {"sel1", d.Groups[1].SelectionRate, 1.0 / 3},
	} {
		if math.Abs(c.got-c.want) > 1e-15 {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	// At threshold 0.35 group 1 selects 0.7 and 0.4: 2/3, TPR 1/2, FPR 1.
	d, err = DecideScores(p, y, z, 0.35)
	if err != nil {
		t.Fatal(err)
	}
	if d.Threshold != 0.35 || math.Abs(d.DPDiff-1.0/6) > 1e-15 || math.Abs(d.EODiff-0.5) > 1e-15 || math.Abs(d.DPRatio-0.75) > 1e-15 {
		t.Errorf("threshold 0.35: %+v, want dp_diff 1/6, dp_ratio 3/4, eo_diff 1/2", d)
	}
}

func TestDecisionAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	cases := []struct {
		name   string
		groups int
		d      func(i int) float64
		y      func(i, g int) float64
	}{
		{"two groups, scores", 2, func(int) float64 { return rng.Float64() }, func(int, int) float64 { return float64(rng.IntN(2)) }},
		{"three groups, scores", 3, func(int) float64 { return rng.Float64() }, func(int, int) float64 { return float64(rng.IntN(2)) }},
		{"three groups, randomized", 3, func(int) float64 { return rng.Float64() }, func(int, int) float64 { return float64(rng.IntN(2)) }},
		{"constant predictor", 3, func(int) float64 { return 1 }, func(int, int) float64 { return float64(rng.IntN(2)) }},
		{"constant zero predictor", 2, func(int) float64 { return 0 }, func(int, int) float64 { return float64(rng.IntN(2)) }},
		{"a group without positives", 3, func(int) float64 { return rng.Float64() },
			func(_, g int) float64 { return float64(rng.IntN(2) * min(g, 1)) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := 200
			p, y := make([]float64, n), make([]float64, n)
			z := make([]int, n)
			for i := range n {
				z[i] = 2 * (i % c.groups) // labels need not be 0 … R−1
				p[i], y[i] = c.d(i), c.y(i, i%c.groups)
			}
			var got Decision
			var err error
			dec := p
			if strings.Contains(c.name, "randomized") {
				got, err = DecideRandomized(p, y, z)
			} else {
				got, err = DecideScores(p, y, z, DefaultThreshold)
				dec = Decisions(p, DefaultThreshold)
			}
			if err != nil {
				t.Fatal(err)
			}
			dp, ratio, eo, eopp, acc := bruteDecision(dec, y, z)
			for _, m := range []struct {
				name      string
				got, want float64
			}{{"dp_diff", got.DPDiff, dp}, {"dp_ratio", got.DPRatio, ratio}, {"eo_diff", got.EODiff, eo},
				{"eopp_diff", got.EOppDiff, eopp}, {"accuracy", got.Accuracy, acc}} {
				if math.Abs(m.got-m.want) > 1e-12 {
					t.Errorf("%s = %v, independent computation %v", m.name, m.got, m.want)
				}
			}
			if strings.Contains(c.name, "constant") && (got.DPDiff != 0 || got.DPRatio != 1 || got.EODiff != 0) {
				t.Errorf("constant predictor: %+v, want dp_diff 0, dp_ratio 1, eo_diff 0", got)
			}
			if strings.Contains(c.name, "without positives") && !slices.Equal(got.NoPositives, []int{0}) {
				t.Errorf("groups without positives %v, want [0]", got.NoPositives)
			}
		})
	}
}

func TestDecisionRefusals(t *testing.T) {
	for _, c := range []struct {
		name string
		d, y []float64
		z    []int
		want string
	}{
		{"NaN", []float64{math.NaN(), 1}, []float64{0, 1}, []int{0, 1}, "row 0"},
		{"above 1", []float64{0, 1 + 1e-15}, []float64{0, 1}, []int{0, 1}, "outside [0, 1]"},
		{"label", []float64{0, 1}, []float64{0, 2}, []int{0, 1}, "label 2"},
		{"one group", []float64{0, 1}, []float64{0, 1}, []int{3, 3}, "group 3"},
		{"lengths", []float64{0, 1}, []float64{0}, []int{0, 1}, "equal lengths"},
		{"empty", nil, nil, nil, "no rows"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := DecideRandomized(c.d, c.y, c.z)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one mentioning %q", err, c.want)
			}
		})
	}
	if _, err := DecideScores([]float64{0.5}, []float64{1}, []int{0}, 0); err == nil {
		t.Error("threshold 0 accepted")
	}
}
