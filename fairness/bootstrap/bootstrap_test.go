package bootstrap

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/model"
)

// synthetic draws n rows of a data-generating process whose score depends
// on the group, so that DP and the ATO are well away from 0: x ~ N(0, 1),
// a ~ Bernoulli(σ(x)), y ~ Bernoulli(σ(1.5x + 0.5a)), the fixed network's
// logit z = x + 0.4a (rounded to 3 decimals, so that scores tie), and the
// propensity ê = σ(x).
func synthetic(n int, rng *rand.Rand) (z, y, a, e []float64) {
	z, y, a, e = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		x := rng.NormFloat64()
		e[i] = model.Sigmoid(x)
		if rng.Float64() < e[i] {
			a[i] = 1
		}
		if rng.Float64() < model.Sigmoid(1.5*x+0.5*a[i]) {
			y[i] = 1
		}
		z[i] = math.Round((x+0.4*a[i])*1000) / 1000
	}
	return z, y, a, e
}

func probs(z []float64) []float64 {
	p := make([]float64, len(z))
	for i, v := range z {
		p[i] = model.Sigmoid(v)
	}
	return p
}

func close(a, b, tol float64) bool { return math.Abs(a-b) <= tol*max(1, math.Abs(a), math.Abs(b)) }

func sameMetrics(t *testing.T, what string, got, want fairness.Metrics, tol float64) {
	t.Helper()
	pairs := []struct {
		name string
		g, w float64
	}{
		{"risk", got.Risk, want.Risk}, {"accuracy", got.Accuracy, want.Accuracy}, {"ato", got.ATO, want.ATO},
		{"dp", got.DP, want.DP}, {"eo", got.EO, want.EO}, {"eopp", got.EOpp, want.EOpp},
	}
	for _, p := range pairs {
		if !close(p.g, p.w, tol) {
			t.Errorf("%s: %s = %.17g, want %.17g", what, p.name, p.g, p.w)
		}
	}
	if got.N != want.N {
		t.Errorf("%s: n = %d, want %d", what, got.N, want.N)
	}
}

// With every multiplicity 1 the metrics are fairness.Evaluate's, for
// probabilities and for logits, with and without a propensity.
func TestUnitMultiplicitiesAreEvaluate(t *testing.T) {
	z, y, a, e := synthetic(3000, rand.New(rand.NewPCG(1, 2)))
	p := probs(z)
	ones := make([]float64, len(z))
	for i := range ones {
		ones[i] = 1
	}
	for _, tc := range []struct {
		name  string
		logit bool
		e     []float64
	}{{"probabilities", false, e}, {"logits", true, e}, {"no propensity", false, nil}} {
		var s *Sample
		var want fairness.Metrics
		var err error
		if tc.logit {
			s, err = binaryLogits(z, y, a, tc.e)
			want, _ = evalBinaryLogits(z, y, a, tc.e)
		} else {
			s, err = binaryNew(p, y, a, tc.e)
			want, _ = evalBinary(p, y, a, tc.e)
		}
		if err != nil {
			t.Fatal(err)
		}
		got, ok := s.Metrics(ones)
		if !ok {
			t.Fatalf("%s: both groups present, ok = false", tc.name)
		}
		sameMetrics(t, tc.name, got, want, 1e-12)
		if got.HasATO != (tc.e != nil) {
			t.Errorf("%s: HasATO = %v", tc.name, got.HasATO)
		}
	}
}

// Integer multiplicities give the metrics of the rows repeated that often:
// the weighted one-pass formulas are the unweighted ones on the expanded
// data, ties and empty multiplicities included.
func TestMultiplicitiesAreRepeatedRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	z, y, a, e := synthetic(400, rng)
	p := probs(z)
	s, err := binaryNew(p, y, a, e)
	if err != nil {
		t.Fatal(err)
	}
	for trial := range 5 {
		m := make([]float64, s.Len())
		s.Draw(rng, m)
		// Expand in score order: Sample's rows are sorted, so m is indexed
		// that way.
		var ep, ey, ea, ee []float64
		for k, mk := range m {
			for range int(mk) {
				ep, ey, ea = append(ep, s.p[k]), append(ey, s.y[k]), append(ea, float64(s.g[k]))
				// ê from the stored overlap weight: w = 1 − ê for a = 1, ê otherwise.
				if s.g[k] == 1 {
					ee = append(ee, 1-s.w[k])
				} else {
					ee = append(ee, s.w[k])
				}
			}
		}
		want, err := evalBinary(ep, ey, ea, ee)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := s.Metrics(m)
		if !ok {
			t.Fatal("ok = false")
		}
		sameMetrics(t, "resample", got, want, 1e-9)
		_ = trial
	}
}

// A resample without one of the groups has no contrast: ok is false, the
// MV indices 0 and the ATO NaN.
func TestMetricsWithoutAGroup(t *testing.T) {
	p := []float64{0.2, 0.7, 0.4, 0.9}
	y := []float64{0, 1, 0, 1}
	a := []float64{0, 0, 1, 1}
	e := []float64{0.5, 0.5, 0.5, 0.5}
	s, err := binaryNew(p, y, a, e)
	if err != nil {
		t.Fatal(err)
	}
	m := make([]float64, 4)
	for k := range s.g {
		if s.g[k] == 0 {
			m[k] = 2
		}
	}
	got, ok := s.Metrics(m)
	if ok || got.DP != 0 || got.EO != 0 || !math.IsNaN(got.ATO) {
		t.Fatalf("one group only: ok = %v, dp %g, eo %g, ato %g", ok, got.DP, got.EO, got.ATO)
	}
	if want := (-math.Log1p(-0.2) - math.Log(0.7)) / 2; !close(got.Risk, want, 1e-15) {
		t.Fatalf("risk %g, want %g", got.Risk, want)
	}
}

func TestIntervals(t *testing.T) {
	z, y, a, e := synthetic(2000, rand.New(rand.NewPCG(5, 6)))
	s, err := binaryLogits(z, y, a, e)
	if err != nil {
		t.Fatal(err)
	}
	iv, err := s.Intervals(500, 0.95, rand.New(rand.NewPCG(7, 8)))
	if err != nil {
		t.Fatal(err)
	}
	again, _ := s.Intervals(500, 0.95, rand.New(rand.NewPCG(7, 8)))
	if iv != again {
		t.Fatalf("same seed, different intervals: %+v, %+v", iv, again)
	}
	est, _ := evalBinaryLogits(z, y, a, e)
	for _, c := range []struct {
		name string
		iv   Interval
		v    float64
	}{{"risk", iv.Risk, est.Risk}, {"accuracy", iv.Accuracy, est.Accuracy}, {"ato", iv.ATO, est.ATO},
		{"dp", iv.DP, est.DP}, {"eo", iv.EO, est.EO}, {"eopp", iv.EOpp, est.EOpp}} {
		if !(c.iv.Lo < c.iv.Hi) || !c.iv.Contains(c.v) {
			t.Errorf("%s: interval [%g, %g] around the estimate %g", c.name, c.iv.Lo, c.iv.Hi, c.v)
		}
	}
	if iv.Valid != 500 || iv.Resamples != 500 || !iv.HasATO {
		t.Errorf("valid %d of %d, ato %v", iv.Valid, iv.Resamples, iv.HasATO)
	}
}

// A group of one row is missing from about a third of the resamples: no
// fairness interval, an error saying why, and still the risk's interval.
func TestIntervalsTinyGroup(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	n := 300
	p, y, a := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		p[i] = rng.Float64()
		if rng.Float64() < p[i] {
			y[i] = 1
		}
	}
	a[0] = 1
	s, err := binaryNew(p, y, a, nil)
	if err != nil {
		t.Fatal(err)
	}
	iv, err := s.Intervals(200, 0.95, rng)
	if err == nil || !math.IsNaN(iv.DP.Lo) {
		t.Fatalf("tiny group: err %v, dp %+v", err, iv.DP)
	}
	if !(iv.Risk.Lo < iv.Risk.Hi) {
		t.Fatalf("risk interval %+v", iv.Risk)
	}
}

func TestIntervalsArguments(t *testing.T) {
	s, err := binaryNew([]float64{0.1, 0.9}, []float64{0, 1}, []float64{0, 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Intervals(1, 0.95, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Error("1 resample accepted")
	}
	if _, err := s.Intervals(100, 1, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Error("level 1 accepted")
	}
	if _, err := binaryNew([]float64{0.1, math.NaN()}, []float64{0, 1}, []float64{0, 1}, nil); err == nil {
		t.Error("NaN score accepted")
	}
}

func TestQuantile(t *testing.T) {
	v := []float64{4, 1, 3, 2, 5}
	iv := percentile(v, 0.5) // the quartiles of 1…5 by type 7: 2 and 4
	if iv.Lo != 2 || iv.Hi != 4 {
		t.Fatalf("quartiles %+v, want [2, 4]", iv)
	}
	if q := quantile([]float64{1, 2}, 0.975); !close(q, 1.975, 1e-15) {
		t.Fatalf("quantile %g, want 1.975", q)
	}
}

func BenchmarkIntervals(b *testing.B) {
	z, y, a, e := synthetic(3000, rand.New(rand.NewPCG(1, 2)))
	s, err := binaryLogits(z, y, a, e)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for b.Loop() {
		if _, err := s.Intervals(1000, 0.95, rng); err != nil {
			b.Fatal(err)
		}
	}
}

// With every multiplicity 1 the decision metrics of a sample are
// fairness.DecideScores' at its threshold, for two and three groups.
func TestDecisionMatchesFairness(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		name      string
		r         int
		threshold float64
	}{{"two groups", 2, 0.5}, {"three groups", 3, 0.5}, {"three groups at 0.3", 3, 0.3}} {
		t.Run(c.name, func(t *testing.T) {
			n := 300
			z, y := make([]float64, n), make([]float64, n)
			g := make([]int, n)
			for i := range n {
				g[i] = i % c.r
				y[i] = float64(rng.IntN(2))
				z[i] = rng.NormFloat64() + 0.5*float64(g[i])
			}
			if c.r == 3 {
				y[2], y[5] = 0, 0 // keep the groups' label mix irregular
			}
			s0, err := NewLogits(z, y, g, c.r, nil)
			if err != nil {
				t.Fatal(err)
			}
			s, err := s0.WithThreshold(c.threshold)
			if err != nil {
				t.Fatal(err)
			}
			p := make([]float64, n)
			for i, v := range z {
				p[i] = 1 / (1 + math.Exp(-v))
			}
			want, err := fairness.DecideScores(p, y, g, c.threshold)
			if err != nil {
				t.Fatal(err)
			}
			checkDecision(t, s, Rates{DPDiff: want.DPDiff, DPRatio: want.DPRatio, EODiff: want.EODiff, EOppDiff: want.EOppDiff},
				want.Accuracy, c.name, "fairness gives")
			iv, err := s.Intervals(300, 0.95, rand.New(rand.NewPCG(1, 2)))
			if err != nil {
				t.Fatal(err)
			}
			if !(iv.DPDiff.Lo <= iv.DPDiff.Hi && iv.DPDiff.Hi > 0 && iv.DPRatio.Hi <= 1) {
				t.Errorf("intervals dp_diff %v, dp_ratio %v", iv.DPDiff, iv.DPRatio)
			}
		})
	}
	if _, err := (&Sample{}).WithThreshold(0); err == nil {
		t.Error("threshold 0 accepted")
	}
}
