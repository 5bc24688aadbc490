package backprop_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fpareto/fp/backprop"
	"github.com/fpareto/fp/graph"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// condPenalties are the built-in penalties a conditioned network trains with.
var condPenalties = []penalties.Penalty{penalties.ATOPenultimate, penalties.ATOAll,
	penalties.ATOPenultimateNormalized, penalties.ATOOutput}

// condStd is std with UMin = 0, so that Ũ > 0 and the penalty side of a
// Chebyshev objective never vanishes at λ = 1.
var condStd = scalarize.Standardizer{RMin: std.RMin, RMax: std.RMax, UMin: 0, UMax: std.UMax}

// condObjectives are the scalarizations a conditioned network trains on.
func condObjectives() []scalarize.Objective {
	return []scalarize.Objective{
		{Method: scalarize.Chebyshev, Lambda: 0.5, Std: condStd},
		{Method: scalarize.Linear, Lambda: 0.5, Std: condStd},
		{Method: scalarize.ChebyshevAugmented, Lambda: 0.5, Std: condStd, Scalarization: scalarize.ChebAug{Rho: 0.05}},
	}
}

// condLambdas are grid points of log:15 (10⁻³, 1) and points off any grid.
var condLambdas = []float64{1e-3, 0.2718281828, 0.7071067812, 1}

// movedFiLM is a conditioning network for arch away from the identity: W2
// and B2 drawn too, so that γ ≠ 1 and δ ≠ 0; with output it modulates the
// output layer too.
func movedFiLM(rng *rand.Rand, arch model.Arch, width int, scale float64, output bool) *model.FiLM {
	f := model.NewFiLM(arch, width, output, rng)
	for _, t := range [][]float64{f.W2, f.B2} {
		for i := range t {
			t[i] = scale * rng.NormFloat64()
		}
	}
	return f
}

func (p problem) condSpec(init *model.Params, film *model.FiLM) train.Spec {
	s := p.spec(init)
	s.FiLM = film
	return s
}

func conditioned(t *testing.T, eng train.Engine, spec train.Spec) train.ConditionedTrainer {
	t.Helper()
	tr, err := eng.NewTrainer(spec)
	if err != nil {
		t.Fatalf("%s: %v", eng.Name(), err)
	}
	c, ok := tr.(train.ConditionedTrainer)
	if !ok {
		t.Fatalf("%s: %T is not a train.ConditionedTrainer", eng.Name(), tr)
	}
	return c
}

// TestConditionedAgreesWithGraph compares the graph engine's conditioned
// trainer (the modulation as graph code) with this engine's (train.Folded:
// the modulation folded into the weights) on the same batches, λ on and off
// the grid, with the conditioning network away from the identity: losses to
// relative 1e-12 and every gradient, the conditioning network's included,
// to relative 1e-9; with and without the output layer modulated.
func TestConditionedAgreesWithGraph(t *testing.T) {
	for si, shape := range crossShapes {
		for pi, pen := range condPenalties {
			for oi, obj := range condObjectives() {
				for oo, output := range []bool{false, true} {
					testConditionedAgreesWithGraph(t, shape, pen, obj, output, rand.New(rand.NewPCG(uint64(si), uint64(10*pi+oi+1000*oo))))
				}
			}
		}
	}
}

func testConditionedAgreesWithGraph(t *testing.T, shape problem, pen penalties.Penalty, obj scalarize.Objective, output bool, rng *rand.Rand) {
	p := shape
	p.obj, p.penalty = obj, pen
	t.Run(fmt.Sprintf("%s/%s/%s/output-%t", shape.name, pen.Name(), obj.Scalar().Name(), output), func(t *testing.T) {
		spec := p.condSpec(model.Init(p.arch, p.dim, rng), movedFiLM(rng, p.arch, 5, 0.15, output))
		bp := conditioned(t, backprop.Engine{}, spec)
		gr := conditioned(t, graph.Engine{}, spec)
		live := 0 // batches whose U is above rounding level
		defer func() {
			if live == 0 {
				t.Error("U is at rounding level on every batch: the case does not exercise the penalty")
			}
		}()
		for _, lambda := range condLambdas {
			for _, tr := range []train.ConditionedTrainer{bp, gr} {
				if err := tr.SetLambda(lambda); err != nil {
					t.Fatal(err)
				}
			}
			b := randomBatch(rng, p)
			if p.dropout == 0 {
				for _, m := range b.Masks { // without dropout both engines ignore masks
					model.FillMask(rng, m, 0.5)
				}
			}
			lb, err := bp.Gradient(b)
			if err != nil {
				t.Fatal(err)
			}
			lg, err := gr.Gradient(b)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				name   string
				bp, gr float64
			}{{"R", lb.R, lg.R}, {"U", lb.U, lg.U}, {"objective", lb.Objective, lg.Objective}} {
				if !relClose(c.bp, c.gr, 1e-12) && math.Abs(c.bp-c.gr) > 1e-15 {
					t.Errorf("λ = %g: %s = %.17g, graph %.17g", lambda, c.name, c.bp, c.gr)
				}
			}
			if lb.U > 1e-6 {
				live++
			}
			compare(t, fmt.Sprintf("λ = %g: gradient vs graph", lambda), bp.Grads(), gr.Grads(), 1e-9)
			n := 2 * len(p.arch.Shapes(p.dim))
			if maxAbs(bp.Grads()[n:]) == 0 {
				t.Errorf("λ = %g: the conditioning network's gradient is zero: the comparison is vacuous", lambda)
			}
		}
	})
}

func maxAbs(ts [][]float64) float64 {
	var m float64
	for _, t := range ts {
		for _, v := range t {
			m = math.Max(m, math.Abs(v))
		}
	}
	return m
}

// TestFoldedFiniteDifferences checks train.Folded over this engine's plain
// trainer against central finite differences of its own objective, every
// parameter of the MLP and of the conditioning network, for every built-in
// penalty and scalarization, with and without dropout, at λ on and off the
// grid, with and without the output layer modulated (with it, dropout only:
// the output modulation's path is the same either way).
func TestFoldedFiniteDifferences(t *testing.T) {
	arch := model.Arch{Layers: 4, Hidden: 5}
	for pi, pen := range condPenalties {
		for oi, obj := range condObjectives() {
			for _, c := range []struct {
				dropout float64
				output  bool
			}{{0, false}, {0.2, false}, {0.2, true}} {
				dropout, output := c.dropout, c.output
				p := problem{"", arch, 3, 12, 9, dropout, obj, pen}
				t.Run(fmt.Sprintf("%s/%s/dropout-%g/output-%t", pen.Name(), obj.Scalar().Name(), dropout, output), func(t *testing.T) {
					rng := rand.New(rand.NewPCG(uint64(pi), uint64(oi)))
					tr := conditioned(t, backprop.Engine{}, p.condSpec(model.Init(arch, p.dim, rng), movedFiLM(rng, arch, 3, 0.15, output)))
					if _, ok := tr.(*train.Folded); !ok {
						t.Fatalf("the conditioned trainer is a %T, want a *train.Folded", tr)
					}
					b := randomBatch(rng, p)
					outLive := 0 // λs at which the output modulation's biases move the objective
					for _, lambda := range condLambdas {
						if err := tr.SetLambda(lambda); err != nil {
							t.Fatal(err)
						}
						l, err := tr.Gradient(b)
						if err != nil {
							t.Fatal(err)
						}
						if !(l.U > 1e-6) {
							t.Fatalf("λ = %g: U = %g: the case does not exercise the penalty", lambda, l.U)
						}
						analytic := copyTensors(tr.Grads())
						numeric := copyTensors(tr.Grads())
						const h = 1e-6
						for k, pt := range tr.Params() {
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
						n := 2 * len(arch.Shapes(p.dim))
						if maxAbs(numeric[n:]) == 0 {
							t.Fatalf("λ = %g: the conditioning network's numeric gradient is zero", lambda)
						}
						// At λ = 1 a penalty on hidden layers alone may not
						// reach the output, so some λ, not every one, must.
						if b2 := numeric[n+3]; b2[len(b2)-2] != 0 && b2[len(b2)-1] != 0 {
							outLive++
						}
						compare(t, fmt.Sprintf("λ = %g: gradient vs finite differences", lambda), analytic, numeric, 1e-5)
					}
					if output && outLive == 0 {
						t.Error("the output modulation's numeric gradient is zero at every λ")
					}
				})
			}
		}
	}
}

// With the identity conditioning network the folded trainer is the plain
// one: the same loss and MLP gradient to the last bit, with and without the
// output layer modulated.
func TestFoldedAtIdentityIsPlain(t *testing.T) {
	arch := model.Arch{Layers: 4, Hidden: 4}
	for pi, pen := range condPenalties {
		for _, obj := range condObjectives() {
			for _, output := range []bool{false, true} {
				p := problem{"", arch, 6, 20, 17, 0.2, obj, pen}
				t.Run(fmt.Sprintf("%s/%s/output-%t", pen.Name(), obj.Scalar().Name(), output), func(t *testing.T) {
					rng := rand.New(rand.NewPCG(uint64(pi), 3))
					init := model.Init(arch, p.dim, rng)
					cond := conditioned(t, backprop.Engine{}, p.condSpec(init, model.NewFiLM(arch, 4, output, rng)))
					b := randomBatch(rng, p)
					for _, lambda := range []float64{0.0123, 0.5, 1} {
						p.obj.Lambda = lambda
						plain, err := backprop.New(p.spec(init))
						if err != nil {
							t.Fatal(err)
						}
						if err := cond.SetLambda(lambda); err != nil {
							t.Fatal(err)
						}
						lc, err := cond.Gradient(b)
						if err != nil {
							t.Fatal(err)
						}
						lp, err := plain.Gradient(b)
						if err != nil {
							t.Fatal(err)
						}
						if lc != lp {
							t.Errorf("λ = %g: loss %+v, plain %+v", lambda, lc, lp)
						}
						gp := plain.Grads()
						if d := maxRelDiff(cond.Grads()[:len(gp)], gp); d != 0 {
							t.Errorf("λ = %g: MLP gradient differs from the plain one by %g", lambda, d)
						}
						if maxAbs(cond.Grads()[len(gp):]) == 0 {
							t.Errorf("λ = %g: the conditioning network's gradient is zero", lambda)
						}
						// δ_out is added to the logit as the output bias is: the
						// same gradient.
						if b2, gb := cond.Grads()[len(gp)+3], gp[len(gp)-1][0]; output && b2[len(b2)-1] != gb {
							t.Errorf("λ = %g: the gradient of δ_out's bias is %g, the output bias's %g", lambda, b2[len(b2)-1], gb)
						}
					}
				})
			}
		}
	}
}

// SetLambda is refused, with the λ kept, outside [0, 1] and for an objective
// without a trade-off weight; NewFolded refuses the latter too.
func TestFoldedSetLambdaRefusals(t *testing.T) {
	arch := model.Arch{Layers: 3, Hidden: 4}
	rng := rand.New(rand.NewPCG(2, 2))
	p := problem{"", arch, 3, 10, 10, 0.2, objective(scalarize.Chebyshev, 0.5), penalties.ATOAll}
	init := model.Init(arch, p.dim, rng)
	film := movedFiLM(rng, arch, 3, 0.3, false)
	cond := conditioned(t, backprop.Engine{}, p.condSpec(init, film))
	for _, lambda := range []float64{-1e-9, 1.0000001, math.NaN(), math.Inf(1)} {
		err := cond.SetLambda(lambda)
		if err == nil || !strings.Contains(err.Error(), "is outside [0, 1]") {
			t.Errorf("SetLambda(%g): error %v, want one saying it is outside [0, 1]", lambda, err)
		}
		if cond.Lambda() != 0.5 || cond.Spec().Objective.Lambda != 0.5 {
			t.Errorf("a refused SetLambda(%g) moved λ to %g", lambda, cond.Lambda())
		}
	}
	for _, m := range []scalarize.Method{scalarize.Risk, scalarize.Penalty} {
		q := p
		q.obj = objective(m, 0.5)
		plain, err := backprop.New(q.spec(init))
		if err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("objective %q has no trade-off weight", m)
		if err := plain.SetLambda(0.5); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: plain SetLambda: error %v, want one containing %q", m, err, want)
		}
		if _, err := train.NewFolded(plain, q.condSpec(init, film)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: NewFolded: error %v, want one containing %q", m, err, want)
		}
		if _, err := (backprop.Engine{}).NewTrainer(q.condSpec(init, film)); err == nil || !strings.Contains(err.Error(), "needs a scalarized objective") {
			t.Errorf("%s: NewTrainer: error %v, want one saying it needs a scalarized objective", m, err)
		}
	}
}

// Predict and Network of the folded trainer give model.Conditioned.At(λ),
// with and without the output layer modulated.
func TestFoldedPredictMatchesAt(t *testing.T) {
	for _, output := range []bool{false, true} {
		t.Run(fmt.Sprintf("output-%t", output), func(t *testing.T) { testFoldedPredictMatchesAt(t, output) })
	}
}

func testFoldedPredictMatchesAt(t *testing.T, output bool) {
	arch := model.Arch{Layers: 4, Hidden: 5}
	rng := rand.New(rand.NewPCG(6, 6))
	p := problem{"", arch, 4, 16, 16, 0.2, objective(scalarize.Linear, 0.5), penalties.ATOOutput}
	cond := conditioned(t, backprop.Engine{}, p.condSpec(model.Init(arch, p.dim, rng), movedFiLM(rng, arch, 4, 0.4, output)))
	d := randomData(rng, 37, p.dim)
	for _, lambda := range condLambdas {
		if err := cond.SetLambda(lambda); err != nil {
			t.Fatal(err)
		}
		at := cond.Conditioned().At(lambda)
		if d := maxRelDiff(cond.Network().Tensors(), at.Tensors()); d != 0 {
			t.Errorf("λ = %g: Network() differs from Conditioned().At(λ) by %g", lambda, d)
		}
		got, want := make([]float64, d.N), make([]float64, d.N)
		if err := cond.Predict(d.X, d.N, got); err != nil {
			t.Fatal(err)
		}
		at.Forward(d.X, d.N, want)
		for i := range want {
			if !relClose(got[i], want[i], 1e-12) && math.Abs(got[i]-want[i]) > 1e-15 {
				t.Fatalf("λ = %g: logit %d = %.17g, At(λ).Forward %.17g", lambda, i, got[i], want[i])
			}
		}
	}
}
