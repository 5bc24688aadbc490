package fairness

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fpareto/fp/model"
)

func TestEvaluateHandWorked(t *testing.T) {
	// The case of atoCase and labelY. Risk: y = 1 for the first four,
	// y = 0 for the last two:
	//   −[ln 0.1 + ln 0.2 + ln 0.2 + ln 0.3 + ln(1−0.5) + ln(1−0.6)]/6.
	// Accuracy: predictions (p ≥ 0.5) are 0 0 0 0 1 1 against 1 1 1 1 0 0 → 0.
	m, err := Evaluate(atoP, labelY, zOf(atoA), wOf(atoE, atoA))
	if err != nil {
		t.Fatal(err)
	}
	risk := -(math.Log(0.1) + math.Log(0.2) + math.Log(0.2) + math.Log(0.3) + math.Log(0.5) + math.Log(0.4)) / 6
	want := Metrics{N: 6, Risk: risk, Accuracy: 0, ATO: 1.0 / 70, DP: 1.0 / 54, EO: 1.0 / 8, EOpp: 3.0 / 64, HasATO: true}
	checkMetrics(t, m, want, 1e-14)

	m, err = Evaluate(atoP, labelY, zOf(atoA), nil)
	if err != nil {
		t.Fatal(err)
	}
	want.ATO, want.HasATO = 0, false
	checkMetrics(t, m, want, 1e-14)

	// The threshold is p ≥ 0.5: flipping the labels makes every prediction right.
	flipped := make([]float64, len(labelY))
	for i, v := range labelY {
		flipped[i] = 1 - v
	}
	m, err = Evaluate(atoP, flipped, zOf(atoA), nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.Accuracy != 1 {
		t.Errorf("accuracy with flipped labels = %g, want 1", m.Accuracy)
	}
}

func checkMetrics(t *testing.T, got, want Metrics, tol float64) {
	t.Helper()
	if got.N != want.N || got.HasATO != want.HasATO {
		t.Errorf("N, HasATO = %d, %v; want %d, %v", got.N, got.HasATO, want.N, want.HasATO)
	}
	for _, f := range []struct {
		name   string
		g, w   float64
		active bool
	}{
		{"risk", got.Risk, want.Risk, true},
		{"accuracy", got.Accuracy, want.Accuracy, true},
		{"ato", got.ATO, want.ATO, want.HasATO},
		{"dp", got.DP, want.DP, true},
		{"eo", got.EO, want.EO, true},
		{"eopp", got.EOpp, want.EOpp, true},
	} {
		if f.active && math.Abs(f.g-f.w) > tol {
			t.Errorf("%s = %.17g, want %.17g", f.name, f.g, f.w)
		}
	}
}

// EvaluateLogits must agree with Evaluate on sigmoid(z) where the latter is
// exact, and stay exact where probabilities saturate.
func TestEvaluateLogitsAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	const n = 200
	z, p, y, a, e := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		z[i] = 3 * rng.NormFloat64()
		p[i] = model.Sigmoid(z[i])
		y[i] = float64(rng.IntN(2))
		a[i] = float64(i % 2)
		e[i] = 0.1 + 0.8*rng.Float64()
	}
	ml, err := EvaluateLogits(z, y, zOf(a), wOf(e, a))
	if err != nil {
		t.Fatal(err)
	}
	mp, err := Evaluate(p, y, zOf(a), wOf(e, a))
	if err != nil {
		t.Fatal(err)
	}
	checkMetrics(t, ml, mp, 1e-12)

	// z = 800 with y = 0 costs exactly 800 (softplus(800) = 800); the
	// probability path saturates at p = 1 and is clipped to −ln(1e-15).
	z2 := []float64{800, 0}
	y2 := []float64{0, 1}
	a2 := []float64{0, 1}
	ml, err = EvaluateLogits(z2, y2, zOf(a2), nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := (800 + math.Ln2) / 2; math.Abs(ml.Risk-want) > 1e-12 {
		t.Errorf("logit risk = %.17g, want %.17g", ml.Risk, want)
	}
	mp, err = Evaluate([]float64{1, 0.5}, y2, zOf(a2), nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := (-math.Log1p(-(1 - ProbClip)) + math.Ln2) / 2; math.Abs(mp.Risk-want) > 1e-9 || math.IsInf(mp.Risk, 0) {
		t.Errorf("clipped risk = %.17g, want %.17g", mp.Risk, want)
	}
}

func TestEvaluateErrors(t *testing.T) {
	ok := []float64{0.2, 0.7}
	bin := []float64{0, 1}
	z := []int{0, 1}
	for _, tc := range []struct {
		name   string
		p, y   []float64
		z      []int
		w      []float64
		logits bool
		want   string
	}{
		{"empty", nil, nil, nil, nil, false, "no examples"},
		{"lengths", ok, []float64{0}, z, nil, false, "equal lengths"},
		{"weight length", ok, bin, z, []float64{0.5}, false, "1 weights"},
		{"p above 1", []float64{0.2, 1.5}, bin, z, nil, false, "example 1: probability 1.5 outside [0, 1]"},
		{"p NaN", []float64{math.NaN(), 0.5}, bin, z, nil, false, "example 0: probability NaN"},
		{"logit Inf", []float64{0, math.Inf(1)}, bin, z, nil, true, "example 1: logit +Inf"},
		{"label", ok, []float64{0, 2}, z, nil, false, "example 1: label 2"},
		{"weight", ok, bin, z, []float64{0.5, -0.1}, false, "example 1: weight -0.1"},
		{"one group", ok, bin, []int{1, 1}, nil, false, "every example is in group 1"},
		{"weightless group", ok, bin, z, []float64{0.5, 0}, false, "group 1 has zero total weight"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			if tc.logits {
				_, err = EvaluateLogits(tc.p, tc.y, tc.z, tc.w)
			} else {
				_, err = Evaluate(tc.p, tc.y, tc.z, tc.w)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// A binary attribute reaches the functions through BinaryGroups, which
// refuses anything but 0 and 1, and its propensity scores through
// OverlapWeights, which refuses anything outside [0, 1].
func TestBinaryInputErrors(t *testing.T) {
	if _, err := BinaryGroups([]float64{0, 1, 0.5}); err == nil || !strings.Contains(err.Error(), "example 2: group 0.5") {
		t.Errorf("BinaryGroups error %v, want one naming example 2", err)
	}
	if z, err := BinaryGroups([]float64{1, 0, 1}); err != nil || z[0] != 1 || z[1] != 0 || z[2] != 1 {
		t.Errorf("BinaryGroups = %v (%v), want [1 0 1]", z, err)
	}
	w := make([]float64, 2)
	if err := OverlapWeights([]float64{0.5, -0.1}, 2, []int{0, 1}, w); err == nil || !strings.Contains(err.Error(), "example 1: propensity -0.1") {
		t.Errorf("OverlapWeights error %v, want one naming example 1", err)
	}
	if err := OverlapWeights([]float64{0.5}, 2, []int{0, 1}, w); err == nil || !strings.Contains(err.Error(), "1 propensities") {
		t.Errorf("OverlapWeights error %v, want one on the lengths", err)
	}
}
