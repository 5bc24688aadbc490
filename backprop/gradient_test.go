package backprop_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	G "gorgonia.org/gorgonia"

	"github.com/fpareto/fp/backprop"
	"github.com/fpareto/fp/losses"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// problems covers every built-in objective on small networks with padded
// rows and dropout masks.
func problems() []problem {
	a2 := model.Arch{Layers: 3, Hidden: 5}
	a3 := model.Arch{Layers: 4, Hidden: 3}
	pen, all := penalties.ATOPenultimate, penalties.ATOAll
	norm, out := penalties.ATOPenultimateNormalized, penalties.ATOOutput
	return []problem{
		{"risk", a2, 4, 13, 10, 0.2, objective(scalarize.Risk, 0), nil},
		{"risk-with-unused-penalty", a3, 3, 9, 9, 0.3, objective(scalarize.Risk, 0), all},
		{"penalty-penultimate", a2, 4, 13, 10, 0.2, objective(scalarize.Penalty, 1), pen},
		{"penalty-all", a3, 3, 12, 7, 0.2, objective(scalarize.Penalty, 1), all},
		{"penalty-all-no-dropout", a3, 5, 8, 8, 0, objective(scalarize.Penalty, 1), all},
		{"cheb-risk-side", a2, 4, 13, 10, 0.2, objective(scalarize.Chebyshev, 0.05), pen},
		{"cheb-penalty-side", a3, 3, 12, 11, 0.2, objective(scalarize.Chebyshev, 0.95), all},
		{"linear-penultimate", a2, 4, 13, 10, 0.2, objective(scalarize.Linear, 0.4), pen},
		{"linear-all", a3, 3, 12, 9, 0.5, objective(scalarize.Linear, 0.7), all},
		{"sum-all", a3, 3, 12, 9, 0.2, scalarize.Objective{Method: scalarize.Sum, Lambda: 2.5}, all},
		// Widths 4 and ≥ 8 take the unrolled and the BLAS kernels.
		{"compas-shape-cheb", model.Arch{Layers: 4, Hidden: 4}, 12, 20, 17, 0.2, objective(scalarize.Chebyshev, 0.3), pen},
		{"compas-shape-linear-all", model.Arch{Layers: 4, Hidden: 4}, 6, 20, 20, 0.2, objective(scalarize.Linear, 0.6), all},
		{"wide-linear-all", model.Arch{Layers: 4, Hidden: 9}, 10, 70, 67, 0.2, objective(scalarize.Linear, 0.5), all},
		{"wide-penalty", model.Arch{Layers: 3, Hidden: 8}, 3, 66, 66, 0.2, objective(scalarize.Penalty, 1), pen},
		// The scale-free penalties: on the unit's σ and on the probability.
		{"penalty-normalized", a2, 4, 13, 10, 0.2, objective(scalarize.Penalty, 1), norm},
		{"linear-normalized", model.Arch{Layers: 4, Hidden: 4}, 12, 20, 17, 0.2, objective(scalarize.Linear, 0.4), norm},
		{"wide-cheb-normalized", model.Arch{Layers: 4, Hidden: 9}, 10, 70, 67, 0.2, objective(scalarize.Chebyshev, 0.9), norm},
		{"penalty-output", a3, 3, 12, 9, 0.2, objective(scalarize.Penalty, 1), out},
		{"linear-output-no-dropout", a2, 4, 13, 13, 0, objective(scalarize.Linear, 0.5), out},
		{"cheb-output", model.Arch{Layers: 4, Hidden: 4}, 12, 20, 17, 0.2, objective(scalarize.Chebyshev, 0.9), out},
		{"cheb-aug-risk-side", a2, 4, 13, 10, 0.2, augmented(0.05, 0.01), pen},
		{"cheb-aug-penalty-side-output", model.Arch{Layers: 4, Hidden: 4}, 12, 20, 17, 0.2, augmented(0.9, 0.01), out},
	}
}

// TestGradientFiniteDifferences checks every gradient entry against central
// finite differences of the trainer's own objective (float64, step 1e-6),
// to relative 1e-6.
func TestGradientFiniteDifferences(t *testing.T) {
	for i, p := range problems() {
		t.Run(p.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			init := model.Init(p.arch, p.dim, rng)
			b := randomBatch(rng, p)
			tr, err := backprop.New(p.spec(init))
			if err != nil {
				t.Fatal(err)
			}
			l0, err := tr.Gradient(b)
			if err != nil {
				t.Fatal(err)
			}
			if p.obj.Method == scalarize.Risk && l0.U != 0 {
				t.Errorf("risk objective reported U = %g, want 0", l0.U)
			}
			if p.obj.Method != scalarize.Risk && !(l0.U > 0) {
				t.Errorf("U = %g, want > 0 on a batch with both groups", l0.U)
			}
			analytic := copyTensors(tr.Grads())
			numeric := copyTensors(tr.Grads())
			params := tr.Params()
			const h = 1e-6
			for k, pt := range params {
				for j := range pt {
					orig := pt[j]
					pt[j] = orig + h
					lp, _ := tr.Gradient(b)
					pt[j] = orig - h
					lm, _ := tr.Gradient(b)
					pt[j] = orig
					numeric[k][j] = (lp.Objective - lm.Objective) / (2 * h)
				}
			}
			compare(t, "gradient vs finite differences", analytic, numeric, 1e-6)
		})
	}
}

// TestLossValues checks R, U and the objective against sums worked out
// independently with model.Forward-style arithmetic, in evaluation mode
// (all-ones masks) where model.Params.Forward gives the logits.
func TestLossValues(t *testing.T) {
	p := problem{"values", model.Arch{Layers: 3, Hidden: 4}, 3, 10, 8, 0, objective(scalarize.Linear, 0.3), penalties.ATOAll}
	rng := rand.New(rand.NewPCG(3, 3))
	init := model.Init(p.arch, p.dim, rng)
	b := randomBatch(rng, p)
	tr, err := backprop.New(p.spec(init))
	if err != nil {
		t.Fatal(err)
	}
	l, err := tr.Gradient(b)
	if err != nil {
		t.Fatal(err)
	}
	z := make([]float64, p.n)
	init.Forward(b.X, p.n, z)
	wantR := losses.BCEValue(z, b.Y[:p.n])
	// U by hand: pre-activations layer by layer, τ̂ per unit from the groups' weighted means.
	var wantU float64
	in, k := b.X, p.dim
	for l := 0; l < p.arch.HiddenLayers(); l++ {
		h := p.arch.Hidden
		pre := make([]float64, p.n*h)
		for i := 0; i < p.n; i++ {
			for j := 0; j < h; j++ {
				s := init.B[l][j]
				for q := 0; q < k; q++ {
					s += in[i*k+q] * init.W[l][q*h+j]
				}
				pre[i*h+j] = s
			}
		}
		for j := 0; j < h; j++ {
			var s1, w1, s0, w0 float64
			for i := 0; i < p.n; i++ {
				if b.A[i] == 1 {
					s1 += b.W[i] * pre[i*h+j]
					w1 += b.W[i]
				} else {
					s0 += b.W[i] * pre[i*h+j]
					w0 += b.W[i]
				}
			}
			wantU += math.Abs(s1/w1 - s0/w0)
		}
		act := make([]float64, len(pre))
		for i, v := range pre {
			act[i] = math.Max(v, 0)
		}
		in, k = act, h
	}
	wantObj, _, _ := p.obj.Value(wantR, wantU)
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"R", l.R, wantR}, {"U", l.U, wantU}, {"objective", l.Objective, wantObj}} {
		if !relClose(c.got, c.want, 1e-12) {
			t.Errorf("%s = %.17g, want %.17g", c.name, c.got, c.want)
		}
	}
}

// TestChebyshevTie checks that at an exact tie (1−λ)R̃ = λŨ the gradient is
// the risk side's alone: with R̃ = R, it is (1−λ)∇R.
func TestChebyshevTie(t *testing.T) {
	p := problem{"tie", model.Arch{Layers: 3, Hidden: 5}, 4, 13, 10, 0.2, objective(scalarize.Risk, 0), nil}
	rng := rand.New(rand.NewPCG(11, 5))
	init := model.Init(p.arch, p.dim, rng)
	b := randomBatch(rng, p)

	riskTr, err := backprop.New(p.spec(init))
	if err != nil {
		t.Fatal(err)
	}
	lr, err := riskTr.Gradient(b)
	if err != nil {
		t.Fatal(err)
	}
	p.penalty = penalties.ATOAll
	p.obj = objective(scalarize.Penalty, 1)
	penTr, err := backprop.New(p.spec(init))
	if err != nil {
		t.Fatal(err)
	}
	lu, err := penTr.Gradient(b)
	if err != nil {
		t.Fatal(err)
	}
	obj, ok := tieObjective(lr.R, lu.U)
	if !ok {
		t.Fatalf("no standardization gives an exact tie at R = %v, U = %v", lr.R, lu.U)
	}
	p.obj = obj
	tieTr, err := backprop.New(p.spec(init))
	if err != nil {
		t.Fatal(err)
	}
	lt, err := tieTr.Gradient(b)
	if err != nil {
		t.Fatal(err)
	}
	if lt.R != lr.R || lt.U != lu.U {
		t.Fatalf("tie trainer saw R = %v, U = %v; want %v, %v", lt.R, lt.U, lr.R, lu.U)
	}
	// The risk side's gradient is (1−λ)∇R (R̃ = R); the penalty side's, or
	// the sum of both, would add λ/UMax·∇U, which is far from it.
	want := copyTensors(riskTr.Grads())
	both := copyTensors(riskTr.Grads())
	for k := range want {
		for i := range want[k] {
			want[k][i] *= 1 - obj.Lambda
			both[k][i] = want[k][i] + obj.Lambda/obj.Std.UMax*penTr.Grads()[k][i]
		}
	}
	compare(t, "gradient at the tie", tieTr.Grads(), want, 1e-12)
	if maxRelDiff(both, want) < 1e-3 {
		t.Fatal("the penalty gradient is too small for this test to tell the sides apart")
	}
}

// maxRelDiff is max_i |a_i − b_i| / ‖b‖∞.
func maxRelDiff(a, b [][]float64) float64 {
	var d, s float64
	for k := range b {
		for i := range b[k] {
			d = math.Max(d, math.Abs(a[k][i]-b[k][i]))
			s = math.Max(s, math.Abs(b[k][i]))
		}
	}
	return d / s
}

// tieObjective finds a Chebyshev objective with R̃ = R and Ũ = U/UMax at
// an exact floating-point tie (1−λ)R̃ = λŨ, by walking λ and UMax over
// neighbouring floats.
func tieObjective(r, u float64) (scalarize.Objective, bool) {
	umax0 := 2 * u / r // λ ≈ ⅔
	lam0 := r / (r + u/umax0)
	for du := range 64 {
		umax := umax0
		for range du {
			umax = math.Nextafter(umax, math.Inf(1))
		}
		lam := lam0
		for range 256 {
			o := scalarize.Objective{Method: scalarize.Chebyshev, Lambda: lam,
				Std: scalarize.Standardizer{RMin: 0, RMax: 1, UMin: 0, UMax: umax}}
			rt, _ := o.Std.R(r)
			ut, _ := o.Std.U(u)
			if (1-o.Lambda)*rt == o.Lambda*ut {
				return o, true
			}
			lam = math.Nextafter(lam, 1)
		}
	}
	return scalarize.Objective{}, false
}

// TestPaddingIsExact checks that a padded batch gives bit-for-bit the loss
// and gradient of the same rows unpadded.
func TestPaddingIsExact(t *testing.T) {
	p := problem{"pad", model.Arch{Layers: 4, Hidden: 3}, 3, 12, 12, 0.2, objective(scalarize.Linear, 0.5), penalties.ATOAll}
	rng := rand.New(rand.NewPCG(2, 9))
	init := model.Init(p.arch, p.dim, rng)
	p.n = 7
	small := randomBatch(rng, p)
	small.Size = 7 // the same rows as an unpadded batch of 7
	q := p
	q.size = 7
	padded := randomBatch(rng, p) // overwritten below with small's rows
	copy(padded.X, small.X)
	for _, v := range [][2][]float64{{padded.Y, small.Y}, {padded.A, small.A}, {padded.W, small.W}} {
		copy(v[0], v[1])
	}
	padded.N = 7
	padded.Derive()
	for l := range padded.Masks {
		copy(padded.Masks[l], small.Masks[l])
	}
	tp, _ := backprop.New(p.spec(init))
	ts, _ := backprop.New(q.spec(init))
	lp, err := tp.Gradient(padded)
	if err != nil {
		t.Fatal(err)
	}
	ls, err := ts.Gradient(small)
	if err != nil {
		t.Fatal(err)
	}
	if lp != ls {
		t.Errorf("padded loss %+v, unpadded %+v", lp, ls)
	}
	gp, gs := tp.Grads(), ts.Grads()
	for k := range gp {
		for i := range gp[k] {
			if gp[k][i] != gs[k][i] {
				t.Fatalf("tensor %d [%d]: padded %v, unpadded %v", k, i, gp[k][i], gs[k][i])
			}
		}
	}
}

// TestMissingGroup checks that a batch with one group has U = 0 and no
// penalty gradient.
func TestMissingGroup(t *testing.T) {
	for _, pen := range []penalties.Penalty{penalties.ATOAll, penalties.ATOPenultimate, penalties.ATOPenultimateNormalized, penalties.ATOOutput} {
		t.Run(pen.Name(), func(t *testing.T) { testMissingGroup(t, pen) })
	}
}

func testMissingGroup(t *testing.T, pen penalties.Penalty) {
	p := problem{"one-group", model.Arch{Layers: 3, Hidden: 4}, 3, 8, 8, 0.2, objective(scalarize.Penalty, 1), pen}
	rng := rand.New(rand.NewPCG(4, 4))
	init := model.Init(p.arch, p.dim, rng)
	b := randomBatch(rng, p)
	for i := range b.A[:b.N] {
		b.A[i] = 1
	}
	b.Derive()
	tr, _ := backprop.New(p.spec(init))
	l, err := tr.Gradient(b)
	if err != nil {
		t.Fatal(err)
	}
	if l.U != 0 || l.Objective != 0 {
		t.Errorf("loss %+v, want U = objective = 0", l)
	}
	for k, g := range tr.Grads() {
		for i, v := range g {
			if v != 0 {
				t.Fatalf("tensor %d [%d] = %v, want 0", k, i, v)
			}
		}
	}
}

// TestMasksIgnoredWithoutDropout checks that a spec without dropout ignores
// the batch's masks, as the graph engine does, and that an empty batch gives
// R = U = 0 and no gradient.
func TestMasksIgnoredWithoutDropout(t *testing.T) {
	p := problem{"no-dropout", model.Arch{Layers: 4, Hidden: 4}, 5, 12, 10, 0, objective(scalarize.Linear, 0.5), penalties.ATOAll}
	rng := rand.New(rand.NewPCG(12, 1))
	init := model.Init(p.arch, p.dim, rng)
	b := randomBatch(rng, p) // all-ones masks
	tr, _ := backprop.New(p.spec(init))
	want, err := tr.Gradient(b)
	if err != nil {
		t.Fatal(err)
	}
	wantG := copyTensors(tr.Grads())
	for _, m := range b.Masks {
		model.FillMask(rng, m, 0.5)
	}
	got, err := tr.Gradient(b)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("loss with dropout masks %+v, without %+v", got, want)
	}
	compare(t, "gradient with ignored masks", tr.Grads(), wantG, 0)
	b.Masks = nil
	if _, err := tr.Gradient(b); err != nil {
		t.Errorf("no masks and no dropout: %v", err)
	}

	b.N = 0
	b.Derive()
	l, err := tr.Gradient(b)
	if err != nil {
		t.Fatal(err)
	}
	if v, _, _ := p.obj.Value(0, 0); l != (train.Loss{Objective: v}) {
		t.Errorf("empty batch: loss %+v, want R = U = 0 and objective %v", l, v)
	}
	for k, g := range tr.Grads() {
		for i, v := range g {
			if v != 0 {
				t.Fatalf("empty batch: gradient tensor %d [%d] = %v", k, i, v)
			}
		}
	}
}

// TestPredictMatchesForward checks evaluation-mode logits against
// model.Params.Forward for more rows than a batch (chunked).
func TestPredictMatchesForward(t *testing.T) {
	a := model.Arch{Layers: 4, Hidden: 6}
	rng := rand.New(rand.NewPCG(8, 1))
	init := model.Init(a, 5, rng)
	tr, err := backprop.New(train.Spec{Arch: a, Dim: 5, BatchSize: 16, Dropout: 0.2, Init: init,
		Objective: objective(scalarize.Risk, 0)})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, 1, 16, 37} {
		d := randomData(rng, max(n, 1), 5)
		got := make([]float64, n)
		if err := tr.Predict(d.X[:n*5], n, got); err != nil {
			t.Fatal(err)
		}
		want := make([]float64, n)
		init.Forward(d.X, n, want)
		for i := range want {
			if !relClose(got[i], want[i], 1e-12) {
				t.Errorf("n = %d: logit %d = %v, want %v", n, i, got[i], want[i])
			}
		}
	}
	if err := tr.Predict(make([]float64, 9), 2, make([]float64, 2)); err == nil {
		t.Error("Predict accepted 9 values for 2 rows of 5")
	}
}

// TestParamsOrder checks that Params and Grads follow model.Params order and
// that writes through Params change the network.
func TestParamsOrder(t *testing.T) {
	a := model.Arch{Layers: 3, Hidden: 4}
	init := model.Init(a, 6, rand.New(rand.NewPCG(1, 1)))
	tr, err := backprop.New(train.Spec{Arch: a, Dim: 6, BatchSize: 4, Init: init, Objective: objective(scalarize.Risk, 0)})
	if err != nil {
		t.Fatal(err)
	}
	want := init.Tensors()
	ps, gs := tr.Params(), tr.Grads()
	if len(ps) != len(want) || len(gs) != len(want) {
		t.Fatalf("%d params and %d grads, want %d", len(ps), len(gs), len(want))
	}
	for k := range want {
		if len(ps[k]) != len(want[k]) || len(gs[k]) != len(want[k]) {
			t.Fatalf("tensor %d: %d params, %d grads, want %d", k, len(ps[k]), len(gs[k]), len(want[k]))
		}
		for i := range want[k] {
			if ps[k][i] != want[k][i] {
				t.Fatalf("tensor %d [%d] = %v, want %v", k, i, ps[k][i], want[k][i])
			}
		}
	}
	ps[2][5] = 42
	if got := tr.Network().W[1][5]; got != 42 {
		t.Errorf("after writing Params()[2][5], Network().W[1][5] = %v", got)
	}
	if init.W[1][5] == 42 {
		t.Error("the trainer shares memory with spec.Init")
	}
}

// TestRefusesCustomTerms checks that graph-only penalties and risks are
// refused with an error pointing at the graph engine.
func TestRefusesCustomTerms(t *testing.T) {
	a := model.Arch{Layers: 3, Hidden: 4}
	init := model.Init(a, 3, rand.New(rand.NewPCG(1, 2)))
	custom := penalties.NewPenalty("mean-gap", "1", nil, func(n penalties.Net, b penalties.BatchNodes) (*G.Node, error) {
		return G.Sum(n.Logit)
	})
	focal := losses.NewRisk("focal", "1", func(z, y, sw *G.Node) (*G.Node, error) { return G.Sum(z) })
	base := train.Spec{Arch: a, Dim: 3, BatchSize: 4, Init: init, Objective: objective(scalarize.Penalty, 1)}
	for _, c := range []struct {
		name string
		edit func(*train.Spec)
		ok   bool
	}{
		{"custom penalty", func(s *train.Spec) { s.Penalty = custom }, false},
		{"custom penalty, risk objective", func(s *train.Spec) { s.Penalty = custom; s.Objective.Method = scalarize.Risk }, false},
		{"custom risk", func(s *train.Spec) { s.Penalty = penalties.ATOAll; s.Risk = focal }, false},
		{"built-in bce", func(s *train.Spec) { s.Penalty = penalties.ATOAll; s.Risk = losses.BCE }, true},
		{"built-in penalty", func(s *train.Spec) { s.Penalty = penalties.ATOPenultimate }, true},
	} {
		s := base
		c.edit(&s)
		_, err := backprop.Engine{}.NewTrainer(s)
		if c.ok {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		if !errors.Is(err, backprop.ErrUnsupported) || !strings.Contains(err.Error(), "use the graph engine") {
			t.Errorf("%s: error %q does not point to the graph engine", c.name, err)
		}
	}
}

// TestRejectsBadBatch checks shape errors instead of panics.
func TestRejectsBadBatch(t *testing.T) {
	p := problem{"bad", model.Arch{Layers: 3, Hidden: 4}, 3, 8, 8, 0.2, objective(scalarize.Risk, 0), nil}
	rng := rand.New(rand.NewPCG(5, 5))
	tr, _ := backprop.New(p.spec(model.Init(p.arch, p.dim, rng)))
	for _, c := range []struct {
		name string
		edit func(*train.Batch)
	}{
		{"nil masks", func(b *train.Batch) { b.Masks = nil }},
		{"short mask", func(b *train.Batch) { b.Masks[1] = b.Masks[1][:3] }},
		{"wrong size", func(b *train.Batch) { b.Size = 9 }},
		{"wrong dim", func(b *train.Batch) { b.Dim = 4 }},
		{"N > size", func(b *train.Batch) { b.N = 9 }},
	} {
		b := randomBatch(rng, p)
		c.edit(b)
		if _, err := tr.Gradient(b); err == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
	if _, err := tr.Gradient(nil); err == nil {
		t.Error("nil batch accepted")
	}
}

// TestZeroAllocs checks that a training step (Gradient + Adam) and Predict
// allocate nothing.
func TestZeroAllocs(t *testing.T) {
	for _, p := range []problem{
		{"compas", model.Arch{Layers: 4, Hidden: 4}, 12, 150, 150, 0.2, objective(scalarize.Chebyshev, 0.3), penalties.ATOPenultimate},
		{"adult", model.Arch{Layers: 10, Hidden: 32}, 93, 1000, 1000, 0.2, objective(scalarize.Linear, 0.3), penalties.ATOAll},
		{"normalized", model.Arch{Layers: 4, Hidden: 4}, 12, 150, 150, 0.2, objective(scalarize.Chebyshev, 0.3), penalties.ATOPenultimateNormalized},
		{"output", model.Arch{Layers: 4, Hidden: 4}, 12, 150, 150, 0.2, objective(scalarize.Linear, 0.3), penalties.ATOOutput},
	} {
		rng := rand.New(rand.NewPCG(6, 6))
		tr, err := backprop.New(p.spec(model.Init(p.arch, p.dim, rng)))
		if err != nil {
			t.Fatal(err)
		}
		b := randomBatch(rng, p)
		params, grads := tr.Params(), tr.Grads()
		sizes := make([]int, len(params))
		for i, q := range params {
			sizes[i] = len(q)
		}
		adam, _ := optim.NewAdam(optim.DefaultAdam, sizes)
		step := func() {
			if _, err := tr.Gradient(b); err != nil {
				panic(err)
			}
			adam.Step(params, grads)
		}
		if a := testing.AllocsPerRun(20, step); a != 0 {
			t.Errorf("%s: %v allocations per step, want 0", p.name, a)
		}
		logits := make([]float64, p.n)
		if a := testing.AllocsPerRun(5, func() { _ = tr.Predict(b.X, p.n, logits) }); a != 0 {
			t.Errorf("%s: %v allocations per Predict, want 0", p.name, a)
		}
	}
}

// TestConcurrentTrainers builds and trains trainers in parallel goroutines
// and checks each matches a serial run bit for bit.
func TestConcurrentTrainers(t *testing.T) {
	p := problem{"par", model.Arch{Layers: 3, Hidden: 8}, 6, 40, 40, 0.2, objective(scalarize.Chebyshev, 0.5), penalties.ATOAll}
	data := randomData(rand.New(rand.NewPCG(9, 9)), 150, p.dim)
	run := func(seed uint64) (*model.Params, error) {
		rng := rand.New(rand.NewPCG(seed, 1))
		tr, err := backprop.Engine{}.NewTrainer(p.spec(model.Init(p.arch, p.dim, rng)))
		if err != nil {
			return nil, err
		}
		_, err = train.Fit(context.Background(), tr, data, train.Options{Epochs: 2, Adam: optim.DefaultAdam}, rng)
		return tr.Network(), err
	}
	const workers = 4
	var wg sync.WaitGroup
	got := make([]*model.Params, workers)
	errs := make([]error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[w], errs[w] = run(uint64(w))
		}()
	}
	wg.Wait()
	for w := range workers {
		if errs[w] != nil {
			t.Fatal(errs[w])
		}
		want, err := run(uint64(w))
		if err != nil {
			t.Fatal(err)
		}
		compare(t, fmt.Sprintf("worker %d", w), got[w].Tensors(), want.Tensors(), 0)
	}
}
