package propensityfit

import (
	"context"
	"errors"
	"github.com/fpareto/fp/propensity"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/fpareto/fp/backprop"
	"github.com/fpareto/fp/graph"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/train"
)

// testEngine is the default engine, the one Fit is used with unless the
// user picks another.
var testEngine train.Engine = graph.Engine{}

// engines are all the engines Fit may be given.
var engines = []train.Engine{graph.Engine{}, backprop.Engine{}}

// synth draws n rows x ~ N(0, I_dim) and groups a ~ Bernoulli(e(x)) with
// e = sigmoid(logit(x)); it returns x, a and the true propensities e.
func synth(rng *rand.Rand, n, dim int, logit func(x []float64) float64) (x, a, e []float64) {
	x, a, e = make([]float64, n*dim), make([]float64, n), make([]float64, n)
	for i := 0; i < n; i++ {
		row := x[i*dim : (i+1)*dim]
		for j := range row {
			row[j] = rng.NormFloat64()
		}
		e[i] = model.Sigmoid(logit(row))
		if rng.Float64() < e[i] {
			a[i] = 1
		}
	}
	return x, a, e
}

func linearLogit(x []float64) float64 { return 1.5*x[0] - x[1] + 0.5 }

// curvedLogit is mildly non-linear: a logistic regression on x could not
// represent it, the network can.
func curvedLogit(x []float64) float64 { return 1.2*x[0] - 0.8*x[1]*x[1] + 0.3*x[0]*x[2] + 0.6 }

// accuracy compares estimated and true propensities: mean absolute error and
// Pearson correlation.
func accuracy(est, truth []float64) (mae, corr float64) {
	n := float64(len(est))
	var me, mt float64
	for i := range est {
		mae += math.Abs(est[i] - truth[i])
		me += est[i]
		mt += truth[i]
	}
	me, mt = me/n, mt/n
	var see, stt, set float64
	for i := range est {
		de, dt := est[i]-me, truth[i]-mt
		see += de * de
		stt += dt * dt
		set += de * dt
	}
	return mae / n, set / math.Sqrt(see*stt)
}

// checkFit fits on nTrain rows drawn from logit and checks the scores on
// 4000 fresh rows against the truth, and the report's invariants.
func checkFit(t *testing.T, eng train.Engine, cfg Config, nTrain int, logit func([]float64) float64, maxMAE, minCorr float64, seed uint64) {
	t.Helper()
	const dim = 5
	rng := rand.New(rand.NewPCG(seed, 1))
	x, a, _ := synth(rng, nTrain, dim, logit)
	m, rep, err := Fit(context.Background(), eng, x, nTrain, dim, a, cfg, rand.New(rand.NewPCG(seed, 2)))
	if err != nil {
		t.Fatal(err)
	}
	if rep.NTrain+rep.NCalib != nTrain || math.Abs(float64(rep.NCalib)-cfg.CalibFrac*float64(nTrain)) > 2 {
		t.Errorf("split %d + %d rows, want %g%% of %d held out", rep.NTrain, rep.NCalib, 100*cfg.CalibFrac, nTrain)
	}
	if !(rep.T > 0) || rep.T != m.T {
		t.Errorf("temperature %g (report %g), want one finite value > 0", m.T, rep.T)
	}
	if !(rep.NLLAfter <= rep.NLLBefore+1e-12) {
		t.Errorf("held-out propensity.NLL %g after scaling, %g before: scaling made it worse", rep.NLLAfter, rep.NLLBefore)
	}
	if err := m.Validate(); err != nil {
		t.Error(err)
	}
	xt, _, et := synth(rng, 4000, dim, logit)
	est := m.Predict(xt, 4000)
	mae, corr := accuracy(est, et)
	t.Logf("n = %d, T = %.3f, held-out propensity.NLL %.4f → %.4f, fresh rows: mean |ê−e| = %.4f, corr = %.4f",
		nTrain, rep.T, rep.NLLBefore, rep.NLLAfter, mae, corr)
	if mae > maxMAE || corr < minCorr {
		t.Errorf("mean |ê−e| = %.4f (want ≤ %g), corr(ê, e) = %.4f (want ≥ %g)", mae, maxMAE, corr, minCorr)
	}
	for i, v := range est {
		if !(v >= propensity.Clip && v <= 1-propensity.Clip) {
			t.Fatalf("ê[%d] = %v outside [%g, 1−%g]", i, v, propensity.Clip, propensity.Clip)
		}
	}
}

// TestFitRecoversLinearPropensity: 4000 rows whose true logit is linear; the
// calibrated scores match the truth on fresh rows, with either engine. Over
// ten seeds the worst figures were mean |ê−e| = 0.032 and corr = 0.990 (the
// two engines agree to rounding), so the bounds 0.05 and 0.97 hold with margin.
func TestFitRecoversLinearPropensity(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Epochs = 30
	for _, eng := range engines {
		t.Run(eng.Name(), func(t *testing.T) {
			checkFit(t, eng, cfg, 4000, linearLogit, 0.05, 0.97, 11)
		})
	}
}

// TestFitDefaults trains docs/method.md §4's model unchanged (100 epochs) on 3000 rows
// of a mildly non-linear problem. Over ten seeds the worst figures were mean
// |ê−e| = 0.053 and corr = 0.971; the bounds are 0.08 and 0.94.
func TestFitDefaults(t *testing.T) {
	checkFit(t, testEngine, DefaultConfig(), 3000, curvedLogit, 0.08, 0.94, 12)
}

// TestFitDeterministic: the generator alone decides the model.
func TestFitDeterministic(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Epochs = 3
	const n, dim = 300, 4
	x, a, _ := synth(rand.New(rand.NewPCG(5, 5)), n, dim, linearLogit)
	fit := func(seed uint64) (*propensity.Model, Report) {
		m, rep, err := Fit(context.Background(), testEngine, x, n, dim, a, cfg, rand.New(rand.NewPCG(seed, 0)))
		if err != nil {
			t.Fatal(err)
		}
		return m, rep
	}
	m1, r1 := fit(1)
	m2, r2 := fit(1)
	m3, _ := fit(2)
	same := func(p, q *model.Params) bool {
		for l := range p.W {
			if !slices.Equal(p.W[l], q.W[l]) || !slices.Equal(p.B[l], q.B[l]) {
				return false
			}
		}
		return true
	}
	if !same(m1.Net, m2.Net) || m1.T != m2.T || r1 != r2 {
		t.Error("two fits from the same seed differ")
	}
	if same(m1.Net, m3.Net) {
		t.Error("fits from different seeds gave the same network")
	}
}

// OnEpoch sees every epoch in order and changes nothing about the fit.
func TestFitReportsEpochs(t *testing.T) {
	const n, dim = 300, 4
	x, a, _ := synth(rand.New(rand.NewPCG(5, 5)), n, dim, linearLogit)
	cfg := DefaultConfig()
	cfg.Epochs = 4
	plain, _, err := Fit(context.Background(), testEngine, x, n, dim, a, cfg, rand.New(rand.NewPCG(3, 0)))
	if err != nil {
		t.Fatal(err)
	}
	var seen []int
	cfg.OnEpoch = func(epoch, epochs int) {
		if epochs != 4 {
			t.Errorf("epochs = %d, want 4", epochs)
		}
		seen = append(seen, epoch)
	}
	watched, _, err := Fit(context.Background(), testEngine, x, n, dim, a, cfg, rand.New(rand.NewPCG(3, 0)))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(seen, []int{1, 2, 3, 4}) {
		t.Errorf("OnEpoch saw epochs %v, want 1 2 3 4", seen)
	}
	for l := range plain.Net.W {
		if !slices.Equal(plain.Net.W[l], watched.Net.W[l]) || plain.T != watched.T {
			t.Fatal("watching the fit changed it")
		}
	}
}

func TestFitErrors(t *testing.T) {
	const n, dim = 40, 2
	x, a, _ := synth(rand.New(rand.NewPCG(9, 9)), n, dim, linearLogit)
	a[0], a[1] = 0, 1 // both groups present whatever the draw
	with := func(f func(x, a []float64)) ([]float64, []float64) {
		x2, a2 := slices.Clone(x), slices.Clone(a)
		f(x2, a2)
		return x2, a2
	}
	cfg := DefaultConfig()
	cfg.Epochs = 1
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		eng  train.Engine
		ctx  context.Context
		x, a []float64
		n    int
		cfg  func(*Config)
		want string
	}{
		{name: "no engine", want: "no engine"},
		{name: "too few rows", n: 9, want: "9 rows, need at least 10"},
		{name: "short x", x: x[:len(x)-1], want: "got 79 values"},
		{name: "short a", a: a[:n-1], want: "39 groups"},
		{name: "nan feature", x: func() []float64 { v, _ := with(func(x, _ []float64) { x[7] = math.NaN() }); return v }(), want: "row 3, feature 1 is NaN"},
		{name: "bad group", a: func() []float64 { _, v := with(func(_, a []float64) { a[5] = 2 }); return v }(), want: "row 5: group 2"},
		{name: "one group", a: make([]float64, n), want: "group a = 1 has 0 rows"},
		{name: "single row of a group", a: func() []float64 { v := make([]float64, n); v[3] = 1; return v }(), want: "group a = 1 has 1 rows"},
		{name: "epochs", cfg: func(c *Config) { c.Epochs = 0 }, want: "epochs = 0"},
		{name: "calib fraction", cfg: func(c *Config) { c.CalibFrac = 1 }, want: "calibration fraction 1"},
		{name: "batch fraction", cfg: func(c *Config) { c.BatchFrac = 0 }, want: "batch fraction 0"},
		{name: "dropout", cfg: func(c *Config) { c.Dropout = 1 }, want: "dropout 1"},
		{name: "arch", cfg: func(c *Config) { c.Arch = model.Arch{Layers: 1, Hidden: 4} }, want: "at least one hidden layer"},
		{name: "adam", cfg: func(c *Config) { c.Adam.LR = 0 }, want: "adam"},
		{name: "cancelled", ctx: cancelled, want: context.Canceled.Error()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eng, ctx, xx, aa, nn, c := testEngine, context.Background(), x, a, n, cfg
			if tc.name == "no engine" {
				eng = nil
			}
			if tc.ctx != nil {
				ctx = tc.ctx
			}
			if tc.x != nil {
				xx = tc.x
			}
			if tc.a != nil {
				aa = tc.a
			}
			if tc.n != 0 {
				nn = tc.n
				xx, aa = x[:nn*dim], a[:nn]
			}
			if tc.cfg != nil {
				tc.cfg(&c)
			}
			m, _, err := Fit(ctx, eng, xx, nn, dim, aa, c, rand.New(rand.NewPCG(1, 1)))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			if m != nil {
				t.Error("a model came back with the error")
			}
			if tc.ctx != nil && !errors.Is(err, context.Canceled) {
				t.Errorf("error %v does not wrap context.Canceled", err)
			}
		})
	}
}

// TestPredict checks ê = sigmoid(logit/T) and the clipping on a network
// small enough to evaluate by hand: logit(x) = 2·relu(x) − 1.
func TestPredict(t *testing.T) {
	net := &model.Params{Arch: model.Arch{Layers: 2, Hidden: 1}, Dim: 1,
		W: [][]float64{{1}, {2}}, B: [][]float64{{0}, {-1}}}
	m := &propensity.Model{Net: net, T: 2}
	x := []float64{-3, 0, 0.5, 1.5, 100}
	got := m.Predict(x, len(x))
	for i, xi := range x {
		want := 1 / (1 + math.Exp(-(2*math.Max(xi, 0)-1)/2))
		want = math.Min(math.Max(want, 1e-6), 1-1e-6)
		if math.Abs(got[i]-want) > 1e-15 {
			t.Errorf("ê(%g) = %.17g, want %.17g", xi, got[i], want)
		}
	}
	if got[4] != 1-propensity.Clip {
		t.Errorf("ê(100) = %v, want the clip 1−%g", got[4], propensity.Clip)
	}
	m.Net.B[1][0] = -1000
	if e := m.Predict([]float64{0}, 1)[0]; e != propensity.Clip {
		t.Errorf("ê at logit −1000 = %v, want the clip %g", e, propensity.Clip)
	}
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(r.(string), "predict 2 rows of 1 inputs from 3 values") {
				t.Errorf("shape mismatch: recovered %v", r)
			}
		}()
		m.Predict([]float64{1, 2, 3}, 2)
	}()
}

func TestModelValidate(t *testing.T) {
	good := model.Init(model.Arch{Layers: 2, Hidden: 3}, 2, rand.New(rand.NewPCG(1, 1)))
	bad := good.Clone()
	bad.W[0][0] = math.Inf(1)
	for _, tc := range []struct {
		name string
		m    *propensity.Model
		want string // "" for valid
	}{
		{"valid", &propensity.Model{Net: good, T: 0.7}, ""},
		{"nil", nil, "no network"},
		{"no net", &propensity.Model{T: 1}, "no network"},
		{"zero T", &propensity.Model{Net: good}, "temperature 0"},
		{"nan T", &propensity.Model{Net: good, T: math.NaN()}, "temperature NaN"},
		{"inf T", &propensity.Model{Net: good, T: math.Inf(1)}, "temperature +Inf"},
		{"bad weight", &propensity.Model{Net: bad, T: 1}, `"weights[0][0]": +Inf`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.m.Validate()
			if tc.want == "" {
				if err != nil {
					t.Errorf("unexpected error %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestFitCalibratesOverconfidentNetwork: without dropout and with many epochs
// on few rows the network overfits and its raw scores are over-confident;
// the fitted temperature must soften them (T > 1), lower the held-out NLL
// and bring the scores closer to the truth on fresh rows. Over ten seeds T
// ranged 2.4–11, the NLL fell by at least 0.10 and the mean |ê−e| by at
// least 0.04; the bounds are T > 1.5, a fall of 0.05, and any improvement.
func TestFitCalibratesOverconfidentNetwork(t *testing.T) {
	const n, dim = 300, 5
	cfg := DefaultConfig()
	cfg.Dropout, cfg.Epochs = 0, 400
	rng := rand.New(rand.NewPCG(21, 1))
	x, a, _ := synth(rng, n, dim, linearLogit)
	m, rep, err := Fit(context.Background(), testEngine, x, n, dim, a, cfg, rand.New(rand.NewPCG(21, 2)))
	if err != nil {
		t.Fatal(err)
	}
	xt, _, et := synth(rng, 4000, dim, linearLogit)
	cal, _ := accuracy(m.Predict(xt, 4000), et)
	raw, _ := accuracy((&propensity.Model{Net: m.Net, T: 1}).Predict(xt, 4000), et)
	t.Logf("T = %.3f, held-out propensity.NLL %.4f → %.4f, fresh rows: mean |ê−e| raw %.4f, calibrated %.4f",
		rep.T, rep.NLLBefore, rep.NLLAfter, raw, cal)
	if rep.T <= 1.5 {
		t.Errorf("T = %g, want > 1.5 for an over-confident network", rep.T)
	}
	if rep.NLLAfter > rep.NLLBefore-0.05 {
		t.Errorf("held-out propensity.NLL %g → %g, want a fall of at least 0.05", rep.NLLBefore, rep.NLLAfter)
	}
	if cal >= raw {
		t.Errorf("mean |ê−e| calibrated %g, raw %g: calibration did not help", cal, raw)
	}
}
