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
// and B2 drawn too, so that γ ≠ 1 and δ ≠ 0.
func movedFiLM(rng *rand.Rand, arch model.Arch, width int, scale float64) *model.FiLM {
	f := model.NewFiLM(arch, width, false, rng)
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
// to relative 1e-9.
func TestConditionedAgreesWithGraph(t *testing.T) {
	for si, shape := range crossShapes {
		for pi, pen := range condPenalties {
			for oi, obj := range condObjectives() {
				p := shape
				p.obj, p.penalty = obj, pen
				t.Run(fmt.Sprintf("%s/%s/%s", shape.name, pen.Name(), obj.Scalar().Name()), func(t *testing.T) {
					rng := rand.New(rand.NewPCG(uint64(si), uint64(10*pi+oi)))
					spec := p.condSpec(model.Init(p.arch, p.dim, rng), movedFiLM(rng, p.arch, 5, 0.15))
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
		}
	}
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
// grid.
func TestFoldedFiniteDifferences(t *testing.T) {
	arch := model.Arch{Layers: 4, Hidden: 5}
	for pi, pen := range condPenalties {
		for oi, obj := range condObjectives() {
			for _, dropout := range []float64{0, 0.2} {
				p := problem{"", arch, 3, 12, 9, dropout, obj, pen}
				t.Run(fmt.Sprintf("%s/%s/dropout-%g", pen.Name(), obj.Scalar().Name(), dropout), func(t *testing.T) {
					rng := rand.New(rand.NewPCG(uint64(pi), uint64(oi)))
					tr := conditioned(t, backprop.Engine{}, p.condSpec(model.Init(arch, p.dim, rng), movedFiLM(rng, arch, 3, 0.15)))
					if _, ok := tr.(*train.Folded); !ok {
						t.Fatalf("the conditioned trainer is a %T, want a *train.Folded", tr)
					}
					b := randomBatch(rng, p)
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
						compare(t, fmt.Sprintf("λ = %g: gradient vs finite differences", lambda), analytic, numeric, 1e-5)
					}
				})
			}
		}
	}
}

// With the identity conditioning network the folded trainer is the plain
// one: the same loss and MLP gradient to the last bit.
func TestFoldedAtIdentityIsPlain(t *testing.T) {
	arch := model.Arch{Layers: 4, Hidden: 4}
	for pi, pen := range condPenalties {
		for _, obj := range condObjectives() {
			p := problem{"", arch, 6, 20, 17, 0.2, obj, pen}
			t.Run(pen.Name()+"/"+obj.Scalar().Name(), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(pi), 3))
				init := model.Init(arch, p.dim, rng)
				cond := conditioned(t, backprop.Engine{}, p.condSpec(init, model.NewFiLM(arch, 4, false, rng)))
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
				}
			})
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
	film := movedFiLM(rng, arch, 3, 0.3)
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

// Predict and Network of the folded trainer give model.Conditioned.At(λ).
func TestFoldedPredictMatchesAt(t *testing.T) {
	arch := model.Arch{Layers: 4, Hidden: 5}
	rng := rand.New(rand.NewPCG(6, 6))
	p := problem{"", arch, 4, 16, 16, 0.2, objective(scalarize.Linear, 0.5), penalties.ATOOutput}
	cond := conditioned(t, backprop.Engine{}, p.condSpec(model.Init(arch, p.dim, rng), movedFiLM(rng, arch, 4, 0.4)))
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
