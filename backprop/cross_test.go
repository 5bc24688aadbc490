package backprop_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fpareto/fp/backprop"
	"github.com/fpareto/fp/graph"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// crossShapes exercise every kernel path: widths 3 and 5 (plain loops),
// 4 (unrolled) and 9 (BLAS, with a partial row block), padded and full
// batches, with and without dropout.
var crossShapes = []problem{
	{"3x5", model.Arch{Layers: 3, Hidden: 5}, 4, 13, 10, 0.2, scalarize.Objective{}, nil},
	{"4x4", model.Arch{Layers: 4, Hidden: 4}, 12, 30, 30, 0.2, scalarize.Objective{}, nil},
	{"5x3-no-dropout", model.Arch{Layers: 5, Hidden: 3}, 6, 20, 17, 0, scalarize.Objective{}, nil},
	{"4x9", model.Arch{Layers: 4, Hidden: 9}, 10, 70, 66, 0.3, scalarize.Objective{}, nil},
}

// crossObjectives is every built-in objective with every built-in penalty.
func crossObjectives() []struct {
	name    string
	obj     scalarize.Objective
	penalty penalties.Penalty
} {
	type o = struct {
		name    string
		obj     scalarize.Objective
		penalty penalties.Penalty
	}
	out := []o{{"risk", objective(scalarize.Risk, 0), nil}}
	for _, p := range []penalties.Penalty{penalties.ATOPenultimate, penalties.ATOAll, penalties.ATOPenultimateNormalized, penalties.ATOOutput} {
		out = append(out,
			o{"penalty/" + p.Name(), objective(scalarize.Penalty, 1), p},
			o{"cheb-risk-side/" + p.Name(), objective(scalarize.Chebyshev, 0.02), p},
			o{"cheb-penalty-side/" + p.Name(), objective(scalarize.Chebyshev, 0.98), p},
			o{"cheb-mid/" + p.Name(), objective(scalarize.Chebyshev, 0.4), p},
			o{"linear/" + p.Name(), objective(scalarize.Linear, 0.3), p},
			o{"sum/" + p.Name(), scalarize.Objective{Method: scalarize.Sum, Lambda: 3}, p},
		)
	}
	// The augmented Chebyshev scalarization, after the others so that
	// theirs keep their random networks. Not with the normalized penalty:
	// its gradient at the last hidden bias is rounding noise (see
	// TestFitAgreesWithGraph), which the risk side's small weight ρ(1−λ)
	// leaves above the comparison's floor on the smallest shape.
	for _, p := range []penalties.Penalty{penalties.ATOPenultimate, penalties.ATOAll, penalties.ATOOutput} {
		out = append(out,
			o{"cheb-aug-mid/" + p.Name(), augmented(0.4, 0.01), p},
			o{"cheb-aug-penalty-side/" + p.Name(), augmented(0.98, 0.3), p},
		)
	}
	return out
}

// TestGradientsAgreeWithGraph compares losses (relative 1e-12) and gradients
// (relative 1e-9) with the Gorgonia engine on random networks, batches and
// masks, for every built-in objective.
func TestGradientsAgreeWithGraph(t *testing.T) {
	for si, shape := range crossShapes {
		for oi, o := range crossObjectives() {
			p := shape
			p.obj, p.penalty = o.obj, o.penalty
			t.Run(shape.name+"/"+o.name, func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(si), uint64(oi)))
				init := model.Init(p.arch, p.dim, rng)
				bp, err := backprop.Engine{}.NewTrainer(p.spec(init))
				if err != nil {
					t.Fatal(err)
				}
				gr, err := graph.Engine{}.NewTrainer(p.spec(init))
				if err != nil {
					t.Fatal(err)
				}
				for step := range 2 { // the second batch checks that no state leaks between steps
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
						// The absolute floor is for a U at rounding level
						// (ato-output of a network whose output is constant).
						if !relClose(c.bp, c.gr, 1e-12) && math.Abs(c.bp-c.gr) > 1e-15 {
							t.Errorf("step %d: %s = %.17g, graph %.17g", step, c.name, c.bp, c.gr)
						}
					}
					compare(t, fmt.Sprintf("step %d: gradient vs graph", step), bp.Grads(), gr.Grads(), 1e-9)
				}
			})
		}
	}
}

// TestFitAgreesWithGraph trains both engines for 3 epochs of train.Fit from
// the same seed (same initial weights, batches and masks, Adam and the
// plateau schedule) and compares the weights to relative 1e-8.
func TestFitAgreesWithGraph(t *testing.T) {
	for _, c := range []struct {
		name string
		p    problem
	}{
		{"cheb-ato-all", problem{"", model.Arch{Layers: 4, Hidden: 4}, 6, 32, 0, 0.2, objective(scalarize.Chebyshev, 0.5), penalties.ATOAll}},
		{"linear-ato-penultimate", problem{"", model.Arch{Layers: 3, Hidden: 10}, 5, 50, 0, 0.2, objective(scalarize.Linear, 0.3), penalties.ATOPenultimate}},
		{"risk", problem{"", model.Arch{Layers: 3, Hidden: 6}, 5, 40, 0, 0.2, objective(scalarize.Risk, 0), nil}},
		// The last hidden bias moves neither τ̂ (the contrast sums to 0) nor
		// σ, so the normalized penalty's gradient there is rounding noise.
		// On a unit that no row activates nothing else reaches that bias,
		// and Adam scales the noise up to full steps that differ between
		// engines; these shapes keep every unit alive in the 3 epochs.
		{"linear-ato-penultimate-normalized", problem{"", model.Arch{Layers: 3, Hidden: 8}, 6, 32, 0, 0.2, objective(scalarize.Linear, 0.5), penalties.ATOPenultimateNormalized}},
		{"cheb-ato-output", problem{"", model.Arch{Layers: 3, Hidden: 10}, 5, 50, 0, 0.2, objective(scalarize.Chebyshev, 0.5), penalties.ATOOutput}},
		{"cheb-aug-ato-output", problem{"", model.Arch{Layers: 3, Hidden: 10}, 5, 50, 0, 0.2, augmented(0.5, 0.01), penalties.ATOOutput}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := c.p
			data := randomData(rand.New(rand.NewPCG(42, 0)), 230, p.dim) // 230 rows: the last batch is short
			nets := make([]*model.Params, 2)
			results := make([]train.Result, 2)
			for e, eng := range []train.Engine{graph.Engine{}, backprop.Engine{}} {
				rng := rand.New(rand.NewPCG(7, 7))
				tr, err := eng.NewTrainer(p.spec(model.Init(p.arch, p.dim, rng)))
				if err != nil {
					t.Fatal(err)
				}
				opt := train.Options{Epochs: 3, Adam: optim.DefaultAdam, Plateau: &optim.DefaultPlateau}
				if results[e], err = train.Fit(context.Background(), tr, data, opt, rng); err != nil {
					t.Fatalf("%s: %v", eng.Name(), err)
				}
				nets[e] = tr.Network()
			}
			compare(t, "weights after 3 epochs", nets[1].Tensors(), nets[0].Tensors(), 1e-8)
			for i, h := range results[0].History {
				hb := results[1].History[i]
				if !relClose(h.Objective, hb.Objective, 1e-10) {
					t.Errorf("epoch %d: mean objective %.17g, graph %.17g", h.Epoch, hb.Objective, h.Objective)
				}
			}
			if d := maxRelDiff(nets[1].Tensors(), model.Init(p.arch, p.dim, rand.New(rand.NewPCG(7, 7))).Tensors()); d < 1e-3 {
				t.Errorf("weights moved by only %g: the comparison is vacuous", d)
			}
			if math.IsNaN(results[1].RMin) {
				t.Error("no R recorded")
			}
		})
	}
}

// TestNormalizedPenaltyIsScaleFree rescales a ReLU network without changing
// its function: the last hidden layer's weights and bias by c > 0, the
// output layer's weights by 1/c. On both engines ato-penultimate-normalized
// stays the same to 1e-9 while ato-penultimate scales by c, and the logits
// do not change.
func TestNormalizedPenaltyIsScaleFree(t *testing.T) {
	arch, dim := model.Arch{Layers: 4, Hidden: 5}, 6
	rng := rand.New(rand.NewPCG(21, 3))
	net := model.Init(arch, dim, rng)
	p := problem{"", arch, dim, 40, 37, 0.2, objective(scalarize.Penalty, 1), nil}
	b := randomBatch(rng, p)
	last := arch.HiddenLayers() - 1
	for _, c := range []float64{0.1, 0.5, 3, 40} {
		scaled := net.Clone()
		for i := range scaled.W[last] {
			scaled.W[last][i] *= c
		}
		for i := range scaled.B[last] {
			scaled.B[last][i] *= c
		}
		for i := range scaled.W[last+1] {
			scaled.W[last+1][i] /= c
		}
		for _, eng := range []train.Engine{backprop.Engine{}, graph.Engine{}} {
			u := func(pen penalties.Penalty, w *model.Params) (float64, []float64) {
				p.penalty = pen
				tr, err := eng.NewTrainer(p.spec(w))
				if err != nil {
					t.Fatal(err)
				}
				l, err := tr.Gradient(b)
				if err != nil {
					t.Fatal(err)
				}
				z := make([]float64, b.N)
				if err := tr.Predict(b.X[:b.N*dim], b.N, z); err != nil {
					t.Fatal(err)
				}
				return l.U, z
			}
			n0, z0 := u(penalties.ATOPenultimateNormalized, net)
			n1, z1 := u(penalties.ATOPenultimateNormalized, scaled)
			p0, _ := u(penalties.ATOPenultimate, net)
			p1, _ := u(penalties.ATOPenultimate, scaled)
			if !relClose(n0, n1, 1e-9) || !(n0 > 0) {
				t.Errorf("%s, c = %g: ato-penultimate-normalized %.15g → %.15g, want unchanged", eng.Name(), c, n0, n1)
			}
			if !relClose(p1, c*p0, 1e-9) {
				t.Errorf("%s, c = %g: ato-penultimate %.15g → %.15g, want ×c = %.15g", eng.Name(), c, p0, p1, c*p0)
			}
			for i := range z0 {
				if math.Abs(z0[i]-z1[i]) > 1e-12*math.Max(1, math.Abs(z0[i])) {
					t.Fatalf("%s, c = %g: logit %d %.15g → %.15g: the rescaling changed the network", eng.Name(), c, i, z0[i], z1[i])
				}
			}
		}
	}
}
