package backprop_test

import (
	"context"
	"errors"
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

// parityPenalties are dp-mean, eo-mean, dp-mv, eo-mv, dp-rate (at the
// default threshold) and eo-rate (at 0.3) for a 0/1 attribute (groups 2)
// and their R-group forms at R = 3.
func parityPenalties(t *testing.T) []struct {
	pen    penalties.Penalty
	groups int
} {
	type pg = struct {
		pen    penalties.Penalty
		groups int
	}
	dpRate, err := penalties.Builtin(penalties.NameDPRate)
	if err != nil {
		t.Fatal(err)
	}
	eoRate, err := penalties.EORate(0.3)
	if err != nil {
		t.Fatal(err)
	}
	var out []pg
	for _, groups := range []int{2, 3} {
		for _, base := range []penalties.Penalty{penalties.DPMean, penalties.EOMean, penalties.DPMV, penalties.EOMV, dpRate, eoRate} {
			p := base
			if groups > 2 {
				var err error
				if p, err = penalties.ForGroups(base, groups); err != nil {
					t.Fatal(err)
				}
			}
			out = append(out, pg{p, groups})
		}
	}
	return out
}

// parityBatch fills a batch of p's shape with n random rows (R groups,
// row i in group i mod R), the columns p.penalty reads and fresh masks.
func parityBatch(rng *rand.Rand, p problem, groups int) *train.Batch {
	d := randomData(rng, p.n, p.dim)
	if groups > 2 {
		regroup(&d, groups)
	}
	b := train.NewBatch(p.size, p.dim, p.arch.HiddenLayers(), p.arch.Hidden, p.penalty.Inputs()...)
	b.Fill(d, rng.Perm(p.n))
	for _, m := range b.Masks {
		model.FillMask(rng, m, max(p.dropout, 0.5*float64(btoi(p.dropout == 0))))
	}
	return b
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestParityPenaltiesAgreeWithGraph compares the handwritten engine with
// the graph engine on dp-mean, eo-mean, dp-mv and eo-mv (2 and 3 groups)
// under every built-in scalarization, with and without dropout, on padded
// batches: losses to relative 1e-12, gradients to relative 1e-9; and the
// handwritten gradient against central finite differences of its own
// objective (relative 1e-6).
func TestParityPenaltiesAgreeWithGraph(t *testing.T) {
	objs := []scalarize.Objective{objective(scalarize.Chebyshev, 0.7), objective(scalarize.Linear, 0.4),
		augmented(0.6, 0.05), objective(scalarize.Penalty, 1)}
	shapes := []struct {
		arch model.Arch
		dim  int
	}{{model.Arch{Layers: 3, Hidden: 5}, 4}, {model.Arch{Layers: 4, Hidden: 4}, 6}}
	k := 0
	for pi, pg := range parityPenalties(t) {
		for oi, obj := range objs {
			s := shapes[k%len(shapes)]
			dropout := []float64{0.2, 0}[k%2]
			k++
			p := problem{"", s.arch, s.dim, 23, 21, dropout, obj, pg.pen}
			t.Run(fmt.Sprintf("R%d/%s/%s/dropout-%g", pg.groups, pg.pen.Name(), obj.Method, dropout), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(pi), uint64(oi)))
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
					b := parityBatch(rng, p, pg.groups)
					lb, err := bp.Gradient(b)
					if err != nil {
						t.Fatal(err)
					}
					lg, err := gr.Gradient(b)
					if err != nil {
						t.Fatal(err)
					}
					if !(lg.U > 0) {
						t.Errorf("step %d: U = %g, want > 0", step, lg.U)
					}
					for _, c := range []struct {
						name   string
						bp, gr float64
					}{{"R", lb.R, lg.R}, {"U", lb.U, lg.U}, {"objective", lb.Objective, lg.Objective}} {
						if !relClose(c.bp, c.gr, 1e-12) && math.Abs(c.bp-c.gr) > 1e-15 {
							t.Errorf("step %d: %s = %.17g, graph %.17g", step, c.name, c.bp, c.gr)
						}
					}
					compare(t, fmt.Sprintf("step %d: gradient vs graph", step), bp.Grads(), gr.Grads(), 1e-9)
					if step == 1 {
						break
					}
					analytic := copyTensors(bp.Grads())
					numeric := copyTensors(analytic)
					const h = 1e-6
					for k, pt := range bp.Params() {
						for j := range pt {
							orig := pt[j]
							pt[j] = orig + h
							lp, _ := bp.Gradient(b)
							pt[j] = orig - h
							lm, _ := bp.Gradient(b)
							pt[j] = orig
							numeric[k][j] = (lp.Objective - lm.Objective) / (2 * h)
						}
					}
					if _, err := bp.Gradient(b); err != nil {
						t.Fatal(err)
					}
					// Or, for a gradient so small that rounding dominates
					// its differences (a rate penalty whose gap is a
					// difference of rates near 1, taken from the few rows
					// near the threshold of a fresh network), within 1e-9
					// absolute: a difference quotient of values of order 1
					// over 2h carries about 1e-16/1e-6 of rounding.
					if e, abs := relNorm(analytic, numeric), diffNorm(analytic, numeric); e > 1e-6 && abs > 1e-9 {
						t.Errorf("‖analytic − numeric‖/‖numeric‖ = %.3g, ‖analytic − numeric‖ = %.3g", e, abs)
					}
				}
			})
		}
	}
}

// diffNorm is ‖a − b‖ over all entries.
func diffNorm(a, b [][]float64) float64 {
	var d float64
	for k := range a {
		for j := range a[k] {
			d += (a[k][j] - b[k][j]) * (a[k][j] - b[k][j])
		}
	}
	return math.Sqrt(d)
}

// relNorm is ‖a − b‖/‖b‖ over all entries.
func relNorm(a, b [][]float64) float64 {
	var d, r float64
	for k := range a {
		for j := range a[k] {
			d += (a[k][j] - b[k][j]) * (a[k][j] - b[k][j])
			r += b[k][j] * b[k][j]
		}
	}
	return math.Sqrt(d / r)
}

// TestParityFitAgreesWithGraph trains both engines for 3 epochs of
// train.Fit from the same seed and compares the weights to relative 1e-8.
func TestParityFitAgreesWithGraph(t *testing.T) {
	for _, pg := range parityPenalties(t) {
		p := problem{"", model.Arch{Layers: 3, Hidden: 6}, 5, 40, 0, 0.2, objective(scalarize.Chebyshev, 0.6), pg.pen}
		t.Run(fmt.Sprintf("R%d/%s", pg.groups, pg.pen.Name()), func(t *testing.T) {
			data := randomData(rand.New(rand.NewPCG(42, 0)), 230, p.dim) // the last batch is short
			if pg.groups > 2 {
				regroup(&data, pg.groups)
			}
			nets := make([]*model.Params, 2)
			for e, eng := range []train.Engine{graph.Engine{}, backprop.Engine{}} {
				rng := rand.New(rand.NewPCG(7, 7))
				tr, err := eng.NewTrainer(p.spec(model.Init(p.arch, p.dim, rng)))
				if err != nil {
					t.Fatal(err)
				}
				opt := train.Options{Epochs: 3, Adam: optim.DefaultAdam, Plateau: &optim.DefaultPlateau}
				if _, err = train.Fit(context.Background(), tr, data, opt, rng); err != nil {
					t.Fatalf("%s: %v", eng.Name(), err)
				}
				nets[e] = tr.Network()
			}
			compare(t, "weights after 3 epochs", nets[1].Tensors(), nets[0].Tensors(), 1e-8)
			if d := maxRelDiff(nets[1].Tensors(), model.Init(p.arch, p.dim, rand.New(rand.NewPCG(7, 7))).Tensors()); d < 1e-3 {
				t.Errorf("weights moved by only %g: the comparison is vacuous", d)
			}
		})
	}
}

// The new penalties train in lockstep groups as their members do alone:
// the fused first layer (and, for width 4, the plain per-member path, as
// quads compute only the binary hidden-layer contrast).
func TestGroupEqualsAloneParity(t *testing.T) {
	cases := groupCases()
	for _, pg := range parityPenalties(t) {
		for _, c := range []groupCase{cases[0], cases[2]} {
			testGroupEqualsAlone(t, c, pg.pen)
		}
	}
}

// Check accepts the four penalties, 2 and 3 groups, and refuses one whose
// columns are not those it reads, with the usual error.
func TestCheckParityPenalties(t *testing.T) {
	for _, pg := range parityPenalties(t) {
		if err := (backprop.Engine{}).Check(train.Requirements{Penalty: pg.pen}); err != nil {
			t.Errorf("%s, %d groups: %v", pg.pen.Name(), pg.groups, err)
		}
	}
	bad := shortMV{penalties.DPMV}
	err := backprop.Engine{}.Check(train.Requirements{Penalty: bad})
	var ue *train.UnsupportedError
	if !errors.As(err, &ue) || ue.Term != penalties.NameDPMV {
		t.Errorf("a mean-variance penalty with a column missing: %v", err)
	}
}

// shortMV claims to be dp-mv but reads one column fewer.
type shortMV struct{ penalties.Penalty }

func (s shortMV) Inputs() []train.Input { return s.Penalty.Inputs()[1:] }
func (s shortMV) MeanVariance() (float64, bool) {
	return s.Penalty.(interface{ MeanVariance() (float64, bool) }).MeanVariance()
}

// The new penalties keep the engine's step free of allocations.
func TestParityPenaltiesZeroAllocs(t *testing.T) {
	for _, pg := range parityPenalties(t) {
		p := problem{pg.pen.Name(), model.Arch{Layers: 4, Hidden: 4}, 12, 150, 150, 0.2, objective(scalarize.Chebyshev, 0.3), pg.pen}
		rng := rand.New(rand.NewPCG(6, 6))
		tr, err := backprop.New(p.spec(model.Init(p.arch, p.dim, rng)))
		if err != nil {
			t.Fatal(err)
		}
		b := parityBatch(rng, p, pg.groups)
		if a := testing.AllocsPerRun(10, func() {
			if _, err := tr.Gradient(b); err != nil {
				panic(err)
			}
		}); a != 0 {
			t.Errorf("%s, %d groups: %v allocations per step, want 0", p.name, pg.groups, a)
		}
	}
}

// The mean-variance penalties are measured in blocks of at most
// penalties.MVEvalRows rows (n² kernel values per block); the others in
// the blocks asked for.
func TestEvaluatorBlocksOfParityPenalties(t *testing.T) {
	for _, pg := range parityPenalties(t) {
		p := problem{"", model.Arch{Layers: 3, Hidden: 4}, 3, 8, 8, 0, objective(scalarize.Chebyshev, 0.5), pg.pen}
		ev, err := train.NewEvaluator(backprop.Engine{}, p.spec(model.Init(p.arch, p.dim, rand.New(rand.NewPCG(1, 1)))), 4096)
		if err != nil {
			t.Fatal(err)
		}
		want := 4096
		if _, mv := pg.pen.(backprop.MVPenalty); mv {
			want = penalties.MVEvalRows
		}
		if ev.Size() != want {
			t.Errorf("%s, %d groups: evaluator blocks of %d rows, want %d", pg.pen.Name(), pg.groups, ev.Size(), want)
		}
	}
}
