package bootstrap

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/fpareto/fp/model"
)

// decisionRows draws n rows of r groups whose logits depend on the group,
// with labels, and (with prop) overlap weights.
func decisionRows(n, r int, prop bool, rng *rand.Rand) (z, y []float64, g []int, w []float64) {
	z, y, g = make([]float64, n), make([]float64, n), make([]int, n)
	for i := range n {
		g[i] = i % r
		z[i] = math.Round((rng.NormFloat64()+0.4*float64(g[i]))*100) / 100 // ties, as real scores have
		if rng.Float64() < model.Sigmoid(z[i]) {
			y[i] = 1
		}
	}
	if prop {
		w = make([]float64, n)
		for i := range w {
			w[i] = 0.2 + 0.6*rng.Float64()
		}
	}
	return z, y, g, w
}

// Decisions 1{p ≥ t} given row by row give exactly the sample at
// threshold t: the same accuracy, decision metrics and intervals from the
// same generator — for two and three groups, with and without overlap
// weights.
func TestWithDecisionsIsWithThreshold(t *testing.T) {
	for _, c := range []struct {
		name string
		r    int
		prop bool
		t    float64
	}{{"two groups", 2, true, 0.5}, {"three groups", 3, false, 0.5}, {"two groups at 0.35", 2, false, 0.35}} {
		t.Run(c.name, func(t *testing.T) {
			z, y, g, w := decisionRows(400, c.r, c.prop, rand.New(rand.NewPCG(5, 6)))
			s0, err := NewLogits(z, y, g, c.r, w)
			if err != nil {
				t.Fatal(err)
			}
			d := make([]float64, len(z))
			for i, v := range z {
				if model.Sigmoid(v) >= c.t {
					d[i] = 1
				}
			}
			byT, err := s0.WithThreshold(c.t)
			if err != nil {
				t.Fatal(err)
			}
			byD, err := s0.WithDecisions(d)
			if err != nil {
				t.Fatal(err)
			}
			ones := make([]float64, len(z))
			for i := range ones {
				ones[i] = 1
			}
			if a, b := byT.Decision(ones), byD.Decision(ones); a != b {
				t.Errorf("decision metrics: threshold %+v, decisions %+v", a, b)
			}
			ivT, errT := byT.Intervals(200, 0.95, rand.New(rand.NewPCG(1, 2)))
			ivD, errD := byD.Intervals(200, 0.95, rand.New(rand.NewPCG(1, 2)))
			if errT != nil || errD != nil {
				t.Fatal(errT, errD)
			}
			if !reflect.DeepEqual(ivT, ivD) {
				t.Errorf("intervals differ:\nthreshold %+v\ndecisions %+v", ivT, ivD)
			}
		})
	}
}

// With selection probabilities between 0 and 1 the accuracy and the
// decision metrics are the expected ones, computed here row by row, and
// their intervals hold them.
func TestWithDecisionsRandomized(t *testing.T) {
	for _, r := range []int{2, 3} {
		rng := rand.New(rand.NewPCG(7, uint64(r)))
		z, y, g, _ := decisionRows(600, r, false, rng)
		d := make([]float64, len(z))
		for i := range d {
			switch i % 5 {
			case 0:
				d[i] = 0
			case 1:
				d[i] = 1
			default:
				d[i] = rng.Float64()
			}
		}
		s0, err := NewLogits(z, y, g, r, nil)
		if err != nil {
			t.Fatal(err)
		}
		s, err := s0.WithDecisions(d)
		if err != nil {
			t.Fatal(err)
		}
		// Independently: each group's expected selection rate, TPR and
		// FPR, and the expected share of right decisions.
		sel, tp, fp := make([]float64, r), make([]float64, r), make([]float64, r)
		n, pos, neg := make([]float64, r), make([]float64, r), make([]float64, r)
		var right float64
		for i := range d {
			n[g[i]]++
			sel[g[i]] += d[i]
			if y[i] == 1 {
				pos[g[i]]++
				tp[g[i]] += d[i]
				right += d[i]
			} else {
				neg[g[i]]++
				fp[g[i]] += d[i]
				right += 1 - d[i]
			}
		}
		spread := func(num, den []float64) (lo, hi float64) {
			lo, hi = math.Inf(1), math.Inf(-1)
			for k := range num {
				lo, hi = min(lo, num[k]/den[k]), max(hi, num[k]/den[k])
			}
			return lo, hi
		}
		sLo, sHi := spread(sel, n)
		tLo, tHi := spread(tp, pos)
		fLo, fHi := spread(fp, neg)
		want := Rates{DPDiff: sHi - sLo, DPRatio: sLo / sHi, EOppDiff: tHi - tLo, EODiff: max(tHi-tLo, fHi-fLo)}
		checkDecision(t, s, want, right/float64(len(d)), fmt.Sprintf("%d groups", r), "computed row by row")
		iv, err := s.Intervals(300, 0.95, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name string
			iv   Interval
			v    float64
		}{{"dp_diff", iv.DPDiff, want.DPDiff}, {"dp_ratio", iv.DPRatio, want.DPRatio}, {"eo_diff", iv.EODiff, want.EODiff},
			{"eopp_diff", iv.EOppDiff, want.EOppDiff}, {"accuracy", iv.Accuracy, right / float64(len(d))}} {
			if !c.iv.Contains(c.v) || !(c.iv.Hi > c.iv.Lo) {
				t.Errorf("%d groups: %s interval %v, point %v", r, c.name, c.iv, c.v)
			}
		}
	}
}

// Decisions of another length, or outside [0, 1], are refused in one line
// that says what was expected.
func TestWithDecisionsRefused(t *testing.T) {
	z, y, g, _ := decisionRows(50, 2, false, rand.New(rand.NewPCG(1, 1)))
	s, err := NewLogits(z, y, g, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	half := func(i int, v float64) []float64 {
		d := make([]float64, 50)
		for k := range d {
			d[k] = 0.5
		}
		d[i] = v
		return d
	}
	for _, c := range []struct {
		name string
		d    []float64
		want string
	}{
		{"short", make([]float64, 49), "49 decisions for 50 rows, want one per row"},
		{"above 1", half(7, 1.5), "row 7: decision 1.5, want a selection probability in [0, 1]"},
		{"negative", half(3, -0.1), "row 3: decision -0.1"},
		{"NaN", half(0, math.NaN()), "row 0: decision NaN"},
	} {
		_, err := s.WithDecisions(c.d)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line with %q", c.name, err, c.want)
		}
	}
}
