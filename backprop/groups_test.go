package backprop_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fpareto/fp/backprop"
	"github.com/fpareto/fp/graph"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// regroup recodes d's sensitive attribute into R groups (row i in group
// i mod R, so that every batch of ≥ R consecutive rows has them all).
func regroup(d *train.Data, groups int) {
	d.Groups = groups
	for i := range d.A {
		d.A[i] = float64(i % groups)
	}
}

// groupBatchFor fills a batch of p's shape (p.penalty an R-group penalty)
// with n random rows in R groups, in shuffled order, and fresh masks.
func groupBatchFor(rng *rand.Rand, p problem, groups int) *train.Batch {
	d := randomData(rng, p.n, p.dim)
	regroup(&d, groups)
	b := train.NewBatch(p.size, p.dim, p.arch.HiddenLayers(), p.arch.Hidden, p.penalty.Inputs()...)
	b.Fill(d, rng.Perm(p.n))
	for _, m := range b.Masks {
		model.FillMask(rng, m, p.dropout)
	}
	if p.dropout == 0 {
		for _, m := range b.Masks { // without dropout both engines ignore masks
			model.FillMask(rng, m, 0.5)
		}
	}
	return b
}

// groupProblems: every built-in penalty's R-group form at R = 3 and 4,
// under cheb and linear, with and without dropout, on padded batches and
// the plain, unrolled (width 4) and BLAS (width 9) kernels.
func groupProblems(t *testing.T) []struct {
	problem
	groups int
} {
	type gp = struct {
		problem
		groups int
	}
	var out []gp
	shapes := []struct {
		arch model.Arch
		dim  int
	}{{model.Arch{Layers: 3, Hidden: 5}, 4}, {model.Arch{Layers: 4, Hidden: 4}, 6}, {model.Arch{Layers: 3, Hidden: 9}, 3}}
	k := 0
	for _, groups := range []int{3, 4} {
		for _, base := range []penalties.Penalty{penalties.ATOPenultimate, penalties.ATOAll, penalties.ATOPenultimateNormalized, penalties.ATOOutput} {
			pen, err := penalties.ForGroups(base, groups)
			if err != nil {
				t.Fatal(err)
			}
			for _, obj := range []scalarize.Objective{objective(scalarize.Chebyshev, 0.7), objective(scalarize.Linear, 0.4)} {
				for _, dropout := range []float64{0.2, 0} {
					s := shapes[k%len(shapes)]
					k++
					name := fmt.Sprintf("R%d/%s/%s/dropout-%g", groups, base.Name(), obj.Method, dropout)
					out = append(out, gp{problem{name, s.arch, s.dim, 17, 15, dropout, obj, pen}, groups})
				}
			}
		}
	}
	return out
}

// TestGroupPenaltyGradients checks both engines' gradients of every R-group
// penalty against central finite differences of their own objective
// (relative 1e-6; step 1e-5, since ato-output's gradients are small and a
// step of 1e-6 leaves their rounding noise near the tolerance), and the engines against each other: losses to relative
// 1e-12, gradients to relative 1e-9.
func TestGroupPenaltyGradients(t *testing.T) {
	for i, p := range groupProblems(t) {
		t.Run(p.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(i), 26))
			init := model.Init(p.arch, p.dim, rng)
			b := groupBatchFor(rng, p.problem, p.groups)
			if !b.Complete {
				t.Fatal("the batch lacks a group")
			}
			bp, err := backprop.Engine{}.NewTrainer(p.spec(init))
			if err != nil {
				t.Fatal(err)
			}
			gr, err := graph.Engine{}.NewTrainer(p.spec(init))
			if err != nil {
				t.Fatal(err)
			}
			grads := map[string][][]float64{}
			losses := map[string]train.Loss{}
			for _, e := range []struct {
				name string
				tr   train.Trainer
			}{{"backprop", bp}, {"graph", gr}} {
				l0, err := e.tr.Gradient(b)
				if err != nil {
					t.Fatal(err)
				}
				if !(l0.U > 0) {
					t.Errorf("%s: U = %g, want > 0 on a batch with every group", e.name, l0.U)
				}
				analytic := copyTensors(e.tr.Grads())
				numeric := copyTensors(analytic)
				const h = 1e-5
				for k, pt := range e.tr.Params() {
					for j := range pt {
						orig := pt[j]
						pt[j] = orig + h
						lp, _ := e.tr.Gradient(b)
						pt[j] = orig - h
						lm, _ := e.tr.Gradient(b)
						pt[j] = orig
						numeric[k][j] = (lp.Objective - lm.Objective) / (2 * h)
					}
				}
				compare(t, e.name+": gradient vs finite differences", analytic, numeric, 1e-6)
				grads[e.name], losses[e.name] = analytic, l0
			}
			lb, lg := losses["backprop"], losses["graph"]
			for _, c := range []struct {
				name   string
				bp, gr float64
			}{{"R", lb.R, lg.R}, {"U", lb.U, lg.U}, {"objective", lb.Objective, lg.Objective}} {
				if !relClose(c.bp, c.gr, 1e-12) {
					t.Errorf("%s = %.17g, graph %.17g", c.name, c.bp, c.gr)
				}
			}
			compare(t, "backprop vs graph", grads["backprop"], grads["graph"], 1e-9)
		})
	}
}

// TestGroupPenaltyTwoGroups: at R = 2 the R-group form gives the binary
// penalty's U and gradient (to rounding) on both engines, on one batch
// carrying both the contrast and the two overlap-mean columns.
func TestGroupPenaltyTwoGroups(t *testing.T) {
	for i, base := range []penalties.Penalty{penalties.ATOPenultimate, penalties.ATOAll, penalties.ATOPenultimateNormalized, penalties.ATOOutput} {
		pen, err := penalties.ForGroups(base, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range []train.Engine{backprop.Engine{}, graph.Engine{}} {
			t.Run(base.Name()+"/"+e.Name(), func(t *testing.T) {
				p := problem{"two", model.Arch{Layers: 4, Hidden: 5}, 4, 13, 11, 0.2, objective(scalarize.Chebyshev, 0.8), base}
				rng := rand.New(rand.NewPCG(uint64(i), 2))
				init := model.Init(p.arch, p.dim, rng)
				d := randomData(rng, p.n, p.dim)
				b := train.NewBatch(p.size, p.dim, p.arch.HiddenLayers(), p.arch.Hidden, append(pen.Inputs(), penalties.Contrast)...)
				b.Fill(d, rng.Perm(p.n))
				for _, m := range b.Masks {
					model.FillMask(rng, m, p.dropout)
				}
				old, err := e.NewTrainer(p.spec(init))
				if err != nil {
					t.Fatal(err)
				}
				p.penalty = pen
				grouped, err := e.NewTrainer(p.spec(init))
				if err != nil {
					t.Fatal(err)
				}
				lo, err := old.Gradient(b)
				if err != nil {
					t.Fatal(err)
				}
				lr, err := grouped.Gradient(b)
				if err != nil {
					t.Fatal(err)
				}
				// U is a difference of means of order 1 (probabilities for
				// ato-output), so rounding is 1e-16 absolute, not relative.
				if !(lo.U > 0) || math.Abs(lo.U-lr.U) > 1e-15+1e-13*lo.U || !relClose(lo.Objective, lr.Objective, 1e-13) {
					t.Errorf("binary U %.17g objective %.17g, R-group form at R = 2: %.17g %.17g", lo.U, lo.Objective, lr.U, lr.Objective)
				}
				compare(t, "R-group form vs binary penalty", grouped.Grads(), old.Grads(), 1e-9)
			})
		}
	}
}

// TestGroupPenaltyMissingGroup: a batch that lacks one of the R groups has
// U = 0 and no penalty gradient on either engine.
func TestGroupPenaltyMissingGroup(t *testing.T) {
	for _, base := range []penalties.Penalty{penalties.ATOAll, penalties.ATOPenultimateNormalized, penalties.ATOOutput} {
		pen, _ := penalties.ForGroups(base, 3)
		for _, e := range []train.Engine{backprop.Engine{}, graph.Engine{}} {
			t.Run(base.Name()+"/"+e.Name(), func(t *testing.T) {
				p := problem{"missing", model.Arch{Layers: 3, Hidden: 4}, 3, 9, 9, 0.2, objective(scalarize.Penalty, 1), pen}
				rng := rand.New(rand.NewPCG(4, 4))
				init := model.Init(p.arch, p.dim, rng)
				b := groupBatchFor(rng, p, 3)
				for i := range b.A[:b.N] {
					if b.A[i] == 2 {
						b.A[i] = 1
					}
				}
				b.Derive()
				if b.Complete {
					t.Fatal("a batch without group 2 is complete")
				}
				tr, err := e.NewTrainer(p.spec(init))
				if err != nil {
					t.Fatal(err)
				}
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
			})
		}
	}
}

// TestGroupPenaltyFit trains both engines for 3 epochs of train.Fit on data
// of three groups from the same seed: the weights agree to relative 1e-8.
// Fit refuses a penalty whose group count is not the data's.
func TestGroupPenaltyFit(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 26))
	d := randomData(rng, 203, 5)
	regroup(&d, 3)
	arch := model.Arch{Layers: 3, Hidden: 6}
	init := model.Init(arch, d.Dim, rng)
	pen, _ := penalties.ForGroups(penalties.ATOPenultimate, 3)
	spec := train.Spec{Arch: arch, Dim: d.Dim, BatchSize: 50, Dropout: 0.2, Init: init,
		Objective: objective(scalarize.Chebyshev, 0.6), Penalty: pen}
	plateau := optim.DefaultPlateau
	opt := train.Options{Epochs: 3, Adam: optim.DefaultAdam, Plateau: &plateau}
	var params [][][]float64
	for _, e := range []train.Engine{backprop.Engine{}, graph.Engine{}} {
		tr, err := e.NewTrainer(spec)
		if err != nil {
			t.Fatal(err)
		}
		res, err := train.Fit(context.Background(), tr, d, opt, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		if !(res.UMax > 0) {
			t.Errorf("%s: U never positive (%+v)", e.Name(), res)
		}
		params = append(params, copyTensors(tr.Params()))
	}
	compare(t, "backprop vs graph after 3 epochs", params[0], params[1], 1e-8)

	for _, c := range []struct {
		name   string
		groups int
		pen    train.Term
		want   string
	}{
		{"binary penalty on three groups", 3, penalties.ATOPenultimate, "compares 2 groups, the data's sensitive attribute has 3"},
		{"three-group penalty on a 0/1 attribute", 0, pen, "compares 3 groups, the data's sensitive attribute has 2"},
	} {
		dd := randomData(rand.New(rand.NewPCG(2, 2)), 40, 5)
		if c.groups > 0 {
			regroup(&dd, c.groups)
		}
		s := spec
		s.Penalty = c.pen
		tr, err := backprop.New(s)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := train.Fit(context.Background(), tr, dd, opt, rand.New(rand.NewPCG(1, 1))); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
}

// TestGroupPenaltyLockstep: members with an R-group penalty train in a
// lockstep group (fused first layer, no quads) as they train alone.
func TestGroupPenaltyLockstep(t *testing.T) {
	cases := groupCases()
	for _, c := range []groupCase{cases[0], cases[2]} { // width 4 (quad-shaped) and width 9
		for _, base := range []penalties.Penalty{penalties.ATOPenultimate, penalties.ATOAll, penalties.ATOOutput} {
			pen, _ := penalties.ForGroups(base, 3)
			testGroupEqualsAlone(t, c, pen)
		}
	}
}

// TestGroupPenaltyRefusals: the handwritten engine refuses an R-group term
// whose inputs are not its R columns.
func TestGroupPenaltyRefusals(t *testing.T) {
	bad := badGroupTerm{penalties.ATOPenultimate}
	err := backprop.Engine{}.Check(train.Requirements{Penalty: bad})
	if !errors.Is(err, backprop.ErrUnsupported) {
		t.Errorf("an R-group term with one input column: %v", err)
	}
	pen, _ := penalties.ForGroups(penalties.ATOAll, 4)
	if err := (backprop.Engine{}).Check(train.Requirements{Penalty: pen}); err != nil {
		t.Errorf("ato-all for 4 groups: %v", err)
	}
}

// badGroupTerm claims three groups but reads the binary contrast.
type badGroupTerm struct{ penalties.Penalty }

func (badGroupTerm) Groups() int        { return 3 }
func (badGroupTerm) ATOAllLayers() bool { return false }

// TestGroupPenaltyZeroAllocs: the R-group forms keep the handwritten
// engine's step free of allocations.
func TestGroupPenaltyZeroAllocs(t *testing.T) {
	for _, base := range []penalties.Penalty{penalties.ATOPenultimate, penalties.ATOAll, penalties.ATOPenultimateNormalized, penalties.ATOOutput} {
		pen, _ := penalties.ForGroups(base, 4)
		p := problem{base.Name(), model.Arch{Layers: 4, Hidden: 4}, 12, 150, 150, 0.2, objective(scalarize.Chebyshev, 0.3), pen}
		rng := rand.New(rand.NewPCG(6, 6))
		tr, err := backprop.New(p.spec(model.Init(p.arch, p.dim, rng)))
		if err != nil {
			t.Fatal(err)
		}
		b := groupBatchFor(rng, p, 4)
		if a := testing.AllocsPerRun(20, func() {
			if _, err := tr.Gradient(b); err != nil {
				panic(err)
			}
		}); a != 0 {
			t.Errorf("%s: %v allocations per step, want 0", p.name, a)
		}
	}
}
