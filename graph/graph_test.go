package graph

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/fpareto/fp/losses"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
	G "gorgonia.org/gorgonia"
)

// The small case every check uses: a 3×5 network on 4 inputs, batches of 7
// rows of which 5 are real (2 rows of padding), dropout 0.2.
var (
	smallArch = model.Arch{Layers: 3, Hidden: 5}
	smallDim  = 4
	smallSize = 7
	smallN    = 5
)

// probGap is a user penalty: the squared gap between the groups' mean
// predicted probabilities.
var probGap = penalties.NewPenalty("prob-gap", "1", []train.Input{penalties.Group1Mean, penalties.Group0Mean}, func(n penalties.Net, b penalties.BatchNodes) (*G.Node, error) {
	p, err := G.Sigmoid(n.Logit)
	if err != nil {
		return nil, err
	}
	m1, err := G.Mul(b.Columns[penalties.Group1Mean.Name], p)
	if err != nil {
		return nil, err
	}
	m0, err := G.Mul(b.Columns[penalties.Group0Mean.Name], p)
	if err != nil {
		return nil, err
	}
	d, err := G.Sub(m1, m0)
	if err != nil {
		return nil, err
	}
	return G.Square(d)
})

// brier is a user risk: the mean squared error of the predicted probability.
var brier = losses.NewRisk("brier", "1", func(z, y, sw *G.Node) (*G.Node, error) {
	p, err := G.Sigmoid(z)
	if err != nil {
		return nil, err
	}
	d, err := G.Sub(p, y)
	if err != nil {
		return nil, err
	}
	sq, err := G.Square(d)
	if err != nil {
		return nil, err
	}
	w, err := G.HadamardProd(sw, sq)
	if err != nil {
		return nil, err
	}
	return G.Sum(w)
})

type smallCase struct {
	p   *model.Params
	d   train.Data
	b   *train.Batch
	rng *rand.Rand
}

func newSmallCase(seed uint64) smallCase {
	rng := rand.New(rand.NewPCG(seed, 7))
	p := model.Init(smallArch, smallDim, rng)
	d := synth(rng, 40, smallDim)
	// Make sure both groups are among the real rows.
	d.A[0], d.A[1] = 1, 0
	b := batchOf(d, smallSize, smallN, smallArch, 0.2, rng)
	return smallCase{p: p, d: d, b: b, rng: rng}
}

func (c smallCase) spec(obj scalarize.Objective, pen penalties.Penalty, risk losses.Risk) train.Spec {
	return train.Spec{Arch: smallArch, Dim: smallDim, BatchSize: smallSize, Dropout: 0.2,
		Init: c.p, Objective: obj, Penalty: pen, Risk: risk}
}

// reference computes R (BCE) and U for the given penalty layers numerically.
func (c smallCase) reference(all bool) (r, u, zgap float64) {
	hidden, z := refForward(c.p, c.b.X, smallSize, c.b.Masks)
	r = refBCE(z, c.b.Y, c.b.SW)
	if !all {
		hidden = hidden[len(hidden)-1:]
	}
	u = refATO(hidden, c.b.Column(penalties.Contrast.Name), smallSize, smallArch.Hidden)
	var m1, m0 float64
	for i, zi := range z {
		m1 += c.b.Column(penalties.Group1Mean.Name)[i] * model.Sigmoid(zi)
		m0 += c.b.Column(penalties.Group0Mean.Name)[i] * model.Sigmoid(zi)
	}
	return r, u, (m1 - m0) * (m1 - m0)
}

func TestGradientMatchesFiniteDifferences(t *testing.T) {
	std := scalarize.Standardizer{RMin: 0.1, RMax: 1.2, UMin: 0.05, UMax: 3}
	cases := []struct {
		name string
		obj  scalarize.Objective
		pen  penalties.Penalty
		risk losses.Risk
		// side says which Chebyshev side must be active: "R", "U" or "".
		side string
	}{
		{name: "risk", obj: scalarize.Objective{Method: scalarize.Risk}},
		{name: "ato-penultimate", obj: scalarize.Objective{Method: scalarize.Penalty}, pen: penalties.ATOPenultimate},
		{name: "ato-all", obj: scalarize.Objective{Method: scalarize.Penalty}, pen: penalties.ATOAll},
		{name: "cheb-risk-side", obj: scalarize.Objective{Method: scalarize.Chebyshev, Lambda: 0.5,
			Std: scalarize.Standardizer{RMin: 0, RMax: 1, UMin: 0, UMax: 1000}}, pen: penalties.ATOAll, side: "R"},
		{name: "cheb-penalty-side", obj: scalarize.Objective{Method: scalarize.Chebyshev, Lambda: 0.5,
			Std: scalarize.Standardizer{RMin: 0, RMax: 1, UMin: 0, UMax: 0.1}}, pen: penalties.ATOPenultimate, side: "U"},
		{name: "linear", obj: scalarize.Objective{Method: scalarize.Linear, Lambda: 0.3, Std: std}, pen: penalties.ATOAll},
		{name: "sum", obj: scalarize.Objective{Method: scalarize.Sum, Lambda: 2}, pen: penalties.ATOAll},
		{name: "user-penalty", obj: scalarize.Objective{Method: scalarize.Penalty}, pen: probGap},
		{name: "user-risk-and-penalty-linear", obj: scalarize.Objective{Method: scalarize.Linear, Lambda: 0.6, Std: std},
			pen: probGap, risk: brier},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newSmallCase(1)
			tr, err := New(c.spec(tc.obj, tc.pen, tc.risk))
			if err != nil {
				t.Fatal(err)
			}
			l, err := tr.Gradient(c.b)
			if err != nil {
				t.Fatal(err)
			}
			// The values against an independent numeric forward pass.
			var all bool
			if ato, ok := tc.pen.(interface{ ATOAllLayers() bool }); ok {
				all = ato.ATOAllLayers()
			}
			r, u, gap := c.reference(all)
			switch {
			case tc.pen == nil:
				u = 0
			case tc.pen.Name() == probGap.Name():
				u = gap
			}
			if tc.risk == nil && math.Abs(l.R-r) > 1e-12 {
				t.Errorf("R = %.15g, numeric %.15g", l.R, r)
			}
			if math.Abs(l.U-u) > 1e-12*math.Max(1, u) {
				t.Errorf("U = %.15g, numeric %.15g", l.U, u)
			}
			if tc.pen != nil && l.U == 0 {
				t.Errorf("U = 0: the case does not exercise the penalty")
			}
			v, dR, dU := tc.obj.Value(l.R, l.U)
			if math.Abs(l.Objective-v) > 1e-14*math.Max(1, math.Abs(v)) {
				t.Errorf("objective = %.17g, scalarize.Value = %.17g", l.Objective, v)
			}
			switch tc.side {
			case "R":
				if dU != 0 || dR == 0 {
					t.Fatalf("the risk side is not the active one: dR %g dU %g", dR, dU)
				}
			case "U":
				if dR != 0 || dU == 0 {
					t.Fatalf("the penalty side is not the active one: dR %g dU %g", dR, dU)
				}
			}
			got := clone(tr.Grads())
			num := numGrad(t, tr, c.b, func(l train.Loss) float64 { return l.Objective }, 1e-6)
			if norm(num) == 0 {
				t.Fatal("numeric gradient is zero")
			}
			if e := relDiff(got, num); e > 1e-6 {
				t.Errorf("‖analytic − numeric‖/‖numeric‖ = %.3g, want ≤ 1e-6", e)
			} else {
				t.Logf("‖analytic − numeric‖/‖numeric‖ = %.3g", e)
			}
		})
	}
}

// At an exact tie (1−λ)R̃ = λŨ the Chebyshev gradient is the risk side's
// alone, (1−λ)·dR̃/dR·∇R, as scalarize.Objective.Value says, not the sum of
// both sides.
func TestChebyshevTieTakesRiskSide(t *testing.T) {
	c := newSmallCase(3)
	pen := penalties.ATOAll
	riskTr, err := New(c.spec(scalarize.Objective{Method: scalarize.Risk}, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	lr, err := riskTr.Gradient(c.b)
	if err != nil {
		t.Fatal(err)
	}
	gradR := clone(riskTr.Grads())
	penTr, err := New(c.spec(scalarize.Objective{Method: scalarize.Penalty}, pen, nil))
	if err != nil {
		t.Fatal(err)
	}
	lu, err := penTr.Gradient(c.b)
	if err != nil {
		t.Fatal(err)
	}
	gradU := clone(penTr.Grads())
	R, U := lr.R, lu.U

	// R̃ = R exactly (RMin 0, RMax 1); search UMax near U/R until
	// Ũ = U·(1/UMax) equals R to the last bit, so that a = b exactly.
	obj := scalarize.Objective{Method: scalarize.Chebyshev, Lambda: 0.5,
		Std: scalarize.Standardizer{RMin: 0, RMax: 1, UMin: 0}}
	found := false
	for k, up, down := 0, U/R, U/R; k < 10000 && !found; k++ {
		for _, umax := range []float64{up, down} {
			obj.Std.UMax = umax
			rt, _ := obj.Std.R(R)
			ut, _ := obj.Std.U(U)
			if (1-obj.Lambda)*rt == obj.Lambda*ut {
				found = true
				break
			}
		}
		up, down = math.Nextafter(up, math.Inf(1)), math.Nextafter(down, 0)
	}
	if !found {
		t.Fatal("could not construct an exact tie")
	}
	v, dR, dU := obj.Value(R, U)
	if dU != 0 {
		t.Fatalf("scalarize.Value gives the tie to the penalty side (dR %g, dU %g)", dR, dU)
	}
	tr, err := New(c.spec(obj, pen, nil))
	if err != nil {
		t.Fatal(err)
	}
	l, err := tr.Gradient(c.b)
	if err != nil {
		t.Fatal(err)
	}
	if l.Objective != v {
		t.Errorf("objective at the tie = %.17g, scalarize.Value = %.17g", l.Objective, v)
	}
	_, du := obj.Std.U(0)
	riskSide := combine(dR, gradR, 0, gradR)
	sum := combine(dR, gradR, obj.Lambda*du, gradU)
	if e := relDiff(tr.Grads(), riskSide); e > 1e-12 {
		t.Errorf("tie gradient differs from the risk side's by %.3g (relative)", e)
	}
	if e := relDiff(sum, riskSide); e < 0.1 {
		t.Fatalf("the penalty side's gradient is too small (%.3g) for the check to mean anything", e)
	}
}

// Padding rows change nothing: a batch of 5 real rows padded to 7 gives the
// loss and gradient of an unpadded trainer with batches of 5.
func TestPaddingIsExact(t *testing.T) {
	for _, pen := range []penalties.Penalty{penalties.ATOPenultimate, penalties.ATOAll, probGap} {
		t.Run(pen.Name(), func(t *testing.T) {
			c := newSmallCase(5)
			obj := scalarize.Objective{Method: scalarize.Linear, Lambda: 0.4,
				Std: scalarize.Standardizer{RMin: 0.1, RMax: 1, UMin: 0, UMax: 2}}
			padded, err := New(c.spec(obj, pen, nil))
			if err != nil {
				t.Fatal(err)
			}
			spec := c.spec(obj, pen, nil)
			spec.BatchSize = smallN
			exact, err := New(spec)
			if err != nil {
				t.Fatal(err)
			}
			// Distinctive padding-row masks that must have no effect.
			for _, m := range c.b.Masks {
				for i := smallN * smallArch.Hidden; i < len(m); i++ {
					m[i] = 5
				}
			}
			b := batchOf(c.d, smallN, smallN, smallArch, 0, c.rng)
			for l, m := range b.Masks {
				copy(m, c.b.Masks[l][:len(m)])
			}
			lp, err := padded.Gradient(c.b)
			if err != nil {
				t.Fatal(err)
			}
			le, err := exact.Gradient(b)
			if err != nil {
				t.Fatal(err)
			}
			if lp != le {
				t.Errorf("padded %+v, unpadded %+v", lp, le)
			}
			if e := relDiff(padded.Grads(), exact.Grads()); e != 0 {
				t.Errorf("gradients differ by %.3g (relative)", e)
			}
		})
	}
}

// A batch without one of the groups has C = 0: U = 0 and its gradient is 0.
func TestMissingGroupHasZeroPenalty(t *testing.T) {
	for _, pen := range []penalties.Penalty{penalties.ATOPenultimate, penalties.ATOAll} {
		t.Run(pen.Name(), func(t *testing.T) {
			c := newSmallCase(9)
			for i := range c.d.A {
				c.d.A[i] = 1
			}
			b := batchOf(c.d, smallSize, smallN, smallArch, 0.2, c.rng)
			if b.Complete {
				t.Fatal("batch with one group reports itself complete")
			}
			tr, err := New(c.spec(scalarize.Objective{Method: scalarize.Penalty}, pen, nil))
			if err != nil {
				t.Fatal(err)
			}
			l, err := tr.Gradient(b)
			if err != nil {
				t.Fatal(err)
			}
			if l.U != 0 || l.Objective != 0 {
				t.Errorf("U = %g, objective = %g; want 0", l.U, l.Objective)
			}
			if n := norm(tr.Grads()); n != 0 {
				t.Errorf("‖∇U‖ = %g, want 0", n)
			}
			if l.R <= 0 {
				t.Errorf("R = %g is still reported for logging, want > 0", l.R)
			}
		})
	}
}

func fit(t *testing.T, seed uint64, d train.Data, spec train.Spec, epochs int) (*model.Params, train.Result) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 11))
	spec.Init = model.Init(spec.Arch, spec.Dim, rng)
	tr, err := Engine{}.NewTrainer(spec)
	if err != nil {
		t.Fatal(err)
	}
	res, err := train.Fit(context.Background(), tr, d, train.Options{Epochs: epochs,
		Adam: optim.DefaultAdam, Plateau: &optim.DefaultPlateau}, rng)
	if err != nil {
		t.Fatal(err)
	}
	return tr.Network(), res
}

func chebSpec() train.Spec {
	return train.Spec{Arch: smallArch, Dim: smallDim, BatchSize: 16, Dropout: 0.2,
		Objective: scalarize.Objective{Method: scalarize.Chebyshev, Lambda: 0.3,
			Std: scalarize.Standardizer{RMin: 0.3, RMax: 0.9, UMin: 0, UMax: 1}},
		Penalty: penalties.ATOPenultimate}
}

func sameParams(a, b *model.Params) bool {
	ta, tb := a.Tensors(), b.Tensors()
	for k := range ta {
		for i := range ta[k] {
			if math.Float64bits(ta[k][i]) != math.Float64bits(tb[k][i]) {
				return false
			}
		}
	}
	return true
}

func TestFitIsDeterministic(t *testing.T) {
	d := synth(rand.New(rand.NewPCG(42, 0)), 70, smallDim) // 70 = 4 full batches of 16 + 6
	a, ra := fit(t, 1, d, chebSpec(), 3)
	b, _ := fit(t, 1, d, chebSpec(), 3)
	c, _ := fit(t, 2, d, chebSpec(), 3)
	if ra.Steps != 15 {
		t.Errorf("%d steps, want 15 (5 batches × 3 epochs)", ra.Steps)
	}
	if !sameParams(a, b) {
		t.Error("same seed gave different weights")
	}
	if sameParams(a, c) {
		t.Error("different seeds gave the same weights")
	}
	init := model.Init(smallArch, smallDim, rand.New(rand.NewPCG(1, 11)))
	if sameParams(a, init) {
		t.Error("training did not change the weights")
	}
}

// Params are views: the optimizer's in-place updates reach the graph, and a
// training step changes neither the parameters nor the batch.
func TestParamsAreLiveViews(t *testing.T) {
	c := newSmallCase(13)
	tr, err := New(c.spec(scalarize.Objective{Method: scalarize.Penalty}, penalties.ATOAll, nil))
	if err != nil {
		t.Fatal(err)
	}
	before := clone(tr.Params())
	x := append([]float64(nil), c.b.X...)
	l0, err := tr.Gradient(c.b)
	if err != nil {
		t.Fatal(err)
	}
	if relDiff(tr.Params(), before) != 0 {
		t.Fatal("a training step changed the parameters")
	}
	for i := range x {
		if x[i] != c.b.X[i] {
			t.Fatal("a training step changed the batch")
		}
	}
	tr.Params()[0][3] += 0.25
	l1, err := tr.Gradient(c.b)
	if err != nil {
		t.Fatal(err)
	}
	if l1.U == l0.U {
		t.Error("writing to Params() did not change the next run")
	}
	c.p.W[0][3] += 0.25
	_, u, _ := c.reference(true)
	if math.Abs(l1.U-u) > 1e-12 {
		t.Errorf("U after the write = %.15g, numeric %.15g", l1.U, u)
	}
	if tr.Network().W[0][3] != c.p.W[0][3] {
		t.Error("Network() does not reflect the write")
	}
}

func TestPredictMatchesForward(t *testing.T) {
	d := synth(rand.New(rand.NewPCG(3, 0)), 70, smallDim)
	spec := chebSpec()
	rng := rand.New(rand.NewPCG(8, 11))
	spec.Init = model.Init(spec.Arch, spec.Dim, rng)
	tr, err := New(spec)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := train.Fit(context.Background(), tr, d, train.Options{Epochs: 2, Adam: optim.DefaultAdam}, rng); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, 1, 16, 23, 70} { // empty, one short chunk, exact, padded, many
		got := make([]float64, n)
		if err := tr.Predict(d.X[:n*d.Dim], n, got); err != nil {
			t.Fatal(err)
		}
		want := make([]float64, n)
		tr.Network().Forward(d.X[:n*d.Dim], n, want)
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-12 {
				t.Fatalf("n = %d: logit %d = %.15g, Forward %.15g", n, i, got[i], want[i])
			}
		}
	}
	if err := tr.Predict(d.X[:10], 3, make([]float64, 3)); err == nil {
		t.Error("Predict accepted 10 values for 3 rows of 4")
	}
}

// Evaluation between training steps leaves the training trajectory as it was.
func TestPredictDoesNotDisturbTraining(t *testing.T) {
	c := newSmallCase(21)
	spec := c.spec(scalarize.Objective{Method: scalarize.Chebyshev, Lambda: 0.5,
		Std: scalarize.Standardizer{RMin: 0, RMax: 1, UMin: 0, UMax: 1}}, penalties.ATOAll, nil)
	a, err := New(spec)
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(spec)
	if err != nil {
		t.Fatal(err)
	}
	la, err := a.Gradient(c.b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Gradient(c.b); err != nil {
		t.Fatal(err)
	}
	if err := b.Predict(c.d.X[:30*smallDim], 30, make([]float64, 30)); err != nil {
		t.Fatal(err)
	}
	lb, err := b.Gradient(c.b)
	if err != nil {
		t.Fatal(err)
	}
	if la != lb || relDiff(a.Grads(), b.Grads()) != 0 {
		t.Errorf("a step after Predict differs: %+v vs %+v", lb, la)
	}
}

// Memory does not grow with the number of steps.
func TestMemoryIsStable(t *testing.T) {
	c := newSmallCase(17)
	tr, err := New(c.spec(scalarize.Objective{Method: scalarize.Chebyshev, Lambda: 0.5,
		Std: scalarize.Standardizer{RMin: 0, RMax: 1, UMin: 0, UMax: 1}}, penalties.ATOAll, nil))
	if err != nil {
		t.Fatal(err)
	}
	adam, err := optim.NewAdam(optim.DefaultAdam, []int{20, 5, 25, 5, 5, 1})
	if err != nil {
		t.Fatal(err)
	}
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapInuse
	}
	var at200 uint64
	for step := 1; step <= 2000; step++ {
		if _, err := tr.Gradient(c.b); err != nil {
			t.Fatal(err)
		}
		adam.Step(tr.Params(), tr.Grads())
		if step == 200 {
			at200 = heap()
		}
	}
	at2000 := heap()
	t.Logf("HeapInuse after 200 steps %d B, after 2000 steps %d B", at200, at2000)
	if at2000 > 2*at200 {
		t.Errorf("heap grew from %d B to %d B", at200, at2000)
	}
}

// Trainers built and trained concurrently match trainers run one at a time.
func TestConcurrentTrainers(t *testing.T) {
	d := synth(rand.New(rand.NewPCG(5, 0)), 50, smallDim)
	const k = 3
	want := make([]*model.Params, k)
	for i := range want {
		want[i], _ = fit(t, uint64(i+1), d, chebSpec(), 2)
	}
	got := make([]*model.Params, k)
	errs := make([]error, k)
	var wg sync.WaitGroup
	for i := 0; i < k; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i+1), 11))
			spec := chebSpec()
			spec.Init = model.Init(spec.Arch, spec.Dim, rng)
			tr, err := Engine{}.NewTrainer(spec)
			if err != nil {
				errs[i] = err
				return
			}
			_, errs[i] = train.Fit(context.Background(), tr, d, train.Options{Epochs: 2,
				Adam: optim.DefaultAdam, Plateau: &optim.DefaultPlateau}, rng)
			got[i] = tr.Network()
		}()
	}
	wg.Wait()
	for i := range got {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if !sameParams(got[i], want[i]) {
			t.Errorf("trainer %d: concurrent run differs from the sequential one", i)
		}
	}
}

func TestNewTrainerErrors(t *testing.T) {
	c := newSmallCase(1)
	cheb := scalarize.Objective{Method: scalarize.Chebyshev, Lambda: 0.5,
		Std: scalarize.Standardizer{RMin: 0, RMax: 1, UMin: 0, UMax: 1}}
	vector := penalties.NewPenalty("vector", "", []train.Input{penalties.Contrast}, func(n penalties.Net, b penalties.BatchNodes) (*G.Node, error) {
		return G.Mul(b.Columns[penalties.Contrast.Name], n.Hidden[0])
	})
	panics := penalties.NewPenalty("panics", "", nil, func(n penalties.Net, b penalties.BatchNodes) (*G.Node, error) {
		return G.Must(G.Add(n.Logit, n.Hidden[0])), nil
	})
	cases := []struct {
		name string
		spec train.Spec
		want string
	}{
		{"no penalty", c.spec(cheb, nil, nil), "needs a penalty"},
		{"bad dropout", func() train.Spec { s := c.spec(cheb, penalties.ATOAll, nil); s.Dropout = 1; return s }(), "dropout"},
		{"non-scalar penalty", c.spec(cheb, vector, nil), "want a scalar"},
		{"panicking penalty", c.spec(cheb, panics, nil), "building the graph failed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.spec)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestGradientRejectsWrongBatch(t *testing.T) {
	c := newSmallCase(1)
	tr, err := New(c.spec(scalarize.Objective{Method: scalarize.Penalty}, penalties.ATOAll, nil))
	if err != nil {
		t.Fatal(err)
	}
	wrongSize := batchOf(c.d, smallSize+1, smallN, smallArch, 0.2, c.rng)
	noMasks := batchOf(c.d, smallSize, smallN, smallArch, 0.2, c.rng)
	noMasks.Masks = noMasks.Masks[:1]
	for name, b := range map[string]*train.Batch{"size": wrongSize, "masks": noMasks} {
		if _, err := tr.Gradient(b); err == nil {
			t.Errorf("%s: a wrong batch was accepted", name)
		}
	}
	if (Engine{}).Name() != "graph" {
		t.Errorf("engine name %q", Engine{}.Name())
	}
}
