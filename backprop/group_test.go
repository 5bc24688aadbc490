package backprop_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/fpareto/fp/backprop"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// groupCase is a lockstep group: one architecture, several objectives.
type groupCase struct {
	name    string
	arch    model.Arch
	dim, n  int
	batch   int
	dropout float64
	objs    []scalarize.Objective
	blocks  bool // masks drawn with model.FillMaskBlocks, as lockstep runs draw them
}

func groupCases() []groupCase {
	cheb := func(l float64) scalarize.Objective { return objective(scalarize.Chebyshev, l) }
	lin := func(l float64) scalarize.Objective { return objective(scalarize.Linear, l) }
	return []groupCase{
		{"compas-like 4x4", model.Arch{Layers: 4, Hidden: 4}, 11, 460, 150, 0.2,
			[]scalarize.Objective{cheb(0.1), cheb(0.3), cheb(0.5), cheb(0.7), cheb(0.9)}, false},
		{"standardization pair", model.Arch{Layers: 4, Hidden: 4}, 11, 300, 150, 0.2,
			[]scalarize.Objective{{Method: scalarize.Risk}, {Method: scalarize.Penalty, Lambda: 1}}, true},
		{"wide 3x9 no dropout", model.Arch{Layers: 3, Hidden: 9}, 7, 230, 64, 0,
			[]scalarize.Objective{lin(0.2), lin(0.6), lin(0.8)}, false},
		{"one member 3x5", model.Arch{Layers: 3, Hidden: 5}, 6, 101, 40, 0.3,
			[]scalarize.Objective{cheb(0.4)}, false},
		// Width 4 goes in quads of four members (backprop's quad kernels):
		// two full quads; one quad with a lane left empty; no dropout.
		{"two quads 4x4 block masks", model.Arch{Layers: 4, Hidden: 4}, 12, 400, 150, 0.2,
			[]scalarize.Objective{cheb(0.05), cheb(0.1), cheb(0.2), cheb(0.3), lin(0.4), lin(0.5), cheb(0.7), cheb(0.9)}, true},
		{"three members 5x4 block masks", model.Arch{Layers: 5, Hidden: 4}, 9, 333, 100, 0.2,
			[]scalarize.Objective{{Method: scalarize.Risk}, cheb(0.5), {Method: scalarize.Penalty, Lambda: 1}}, true},
		{"quad 3x4 no dropout", model.Arch{Layers: 3, Hidden: 4}, 10, 250, 60, 0,
			[]scalarize.Objective{lin(0.3), cheb(0.6), cheb(0.8), lin(0.9)}, false},
		// The augmented Chebyshev scalarization in a quad and in a wide group.
		{"cheb-aug quad 4x4 block masks", model.Arch{Layers: 4, Hidden: 4}, 11, 300, 150, 0.2,
			[]scalarize.Objective{augmented(0.05, 0.01), augmented(0.3, 0.01), augmented(0.7, 0.1), augmented(0.95, 0.01)}, true},
		{"cheb-aug wide 3x9", model.Arch{Layers: 3, Hidden: 9}, 7, 230, 64, 0.2,
			[]scalarize.Objective{augmented(0.2, 0.01), cheb(0.6), augmented(0.8, 0.01)}, false},
	}
}

// TestGroupEqualsAlone trains each group for 3 epochs in lockstep and each
// member alone (Loop.EpochOrder) on the same batch orders and masks: the
// weights, epoch means and extremes agree to 1e-12 (the group's fused
// first-layer products round with FMA, the lone trainer's narrow loops not).
func TestGroupEqualsAlone(t *testing.T) {
	for _, c := range groupCases() {
		// ato-penultimate-normalized is left out: its gradient on the last
		// hidden bias is zero in exact arithmetic (τ̂ and σ ignore a shift), so
		// what the two computations give there is rounding noise of different
		// FMA roundings, which Adam scales up to full-size steps (the
		// cross-engine test of that penalty avoids the same trap).
		for _, penalty := range []train.Term{penalties.ATOPenultimate, penalties.ATOAll, penalties.ATOOutput} {
			testGroupEqualsAlone(t, c, penalty)
		}
	}
}

func testGroupEqualsAlone(t *testing.T, c groupCase, penalty train.Term) {
	{
		t.Run(c.name+"/"+penalty.Name(), func(t *testing.T) {
			d := randomData(rand.New(rand.NewPCG(1, 2)), c.n, c.dim)
			if r := train.TermGroups(penalty); r > 2 {
				regroup(&d, r)
			}
			specs := make([]train.Spec, len(c.objs))
			for k, o := range c.objs {
				var pen train.Term
				if o.UsesPenalty() {
					pen = penalty
				}
				init := model.Init(c.arch, c.dim, rand.New(rand.NewPCG(9, uint64(k))))
				specs[k] = train.Spec{Arch: c.arch, Dim: c.dim, BatchSize: c.batch, Dropout: c.dropout,
					Init: init, Objective: o, Penalty: pen}
			}
			plateau := optim.DefaultPlateau
			opt := train.Options{Epochs: 3, Adam: optim.DefaultAdam, Plateau: &plateau, BlockMasks: c.blocks}
			g, err := backprop.NewGroup(specs)
			if err != nil {
				t.Fatal(err)
			}
			opts := make([]train.Options, len(specs))
			rngs := make([]*rand.Rand, len(specs))
			for k := range specs {
				opts[k], rngs[k] = opt, rand.New(rand.NewPCG(5, uint64(k)))
			}
			got, err := train.FitGroup(context.Background(), g, d, opts, rand.New(rand.NewPCG(7, 7)), rngs, train.Checkpoints{})
			if err != nil {
				t.Fatal(err)
			}
			for k, s := range specs {
				tr, err := backprop.New(s)
				if err != nil {
					t.Fatal(err)
				}
				l, err := train.NewLoop(tr, opt)
				if err != nil {
					t.Fatal(err)
				}
				order, rng := rand.New(rand.NewPCG(7, 7)), rand.New(rand.NewPCG(5, uint64(k)))
				perm := make([]int, d.N)
				for i := range perm {
					perm[i] = i
				}
				var hist []train.EpochStats
				for e := 0; e < opt.Epochs; e++ {
					order.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
					st, err := l.EpochOrder(context.Background(), d, perm, rng)
					if err != nil {
						t.Fatal(err)
					}
					hist = append(hist, st)
				}
				if got[k].Err != nil {
					t.Fatalf("member %d: %v", k, got[k].Err)
				}
				want := tr.Params()
				if d := maxDiff(g.Members()[k].Params(), want); !(d <= 1e-12) {
					t.Errorf("member %d: weights differ by %g after 3 epochs", k, d)
				}
				if len(got[k].History) != len(hist) {
					t.Fatalf("member %d: %d epochs, want %d", k, len(got[k].History), len(hist))
				}
				for e, st := range hist {
					gs := got[k].History[e]
					if math.Abs(gs.Objective-st.Objective) > 1e-12 || math.Abs(gs.R-st.R) > 1e-12 || gs.LR != st.LR {
						t.Errorf("member %d epoch %d: %+v, alone %+v", k, e+1, gs, st)
					}
				}
				r := l.Result()
				if got[k].Steps != r.Steps || got[k].Skipped != r.Skipped || !relClose(got[k].RMin, r.RMin, 1e-12) || !relClose(got[k].UMax, r.UMax, 1e-12) {
					t.Errorf("member %d: steps %d skipped %d extremes %g %g, alone %d %d %g %g",
						k, got[k].Steps, got[k].Skipped, got[k].RMin, got[k].UMax, r.Steps, r.Skipped, r.RMin, r.UMax)
				}
			}
		})
	}
}

// TestGroupRefusesMixedShapes: the members of a group share one shape.
func TestGroupRefusesMixedShapes(t *testing.T) {
	a := model.Arch{Layers: 3, Hidden: 4}
	rng := rand.New(rand.NewPCG(1, 1))
	s := train.Spec{Arch: a, Dim: 5, BatchSize: 10, Init: model.Init(a, 5, rng), Objective: scalarize.Objective{Method: scalarize.Risk}}
	s2 := s
	s2.BatchSize = 11
	if _, err := backprop.NewGroup([]train.Spec{s, s2}); err == nil {
		t.Fatal("a group of batch sizes 10 and 11 was accepted")
	}
	if _, err := backprop.NewGroup(nil); err == nil {
		t.Fatal("an empty group was accepted")
	}
}

func maxDiff(a, b [][]float64) float64 {
	var m float64
	for i := range a {
		for j := range a[i] {
			m = math.Max(m, math.Abs(a[i][j]-b[i][j]))
			if math.IsNaN(a[i][j]) != math.IsNaN(b[i][j]) {
				return math.NaN()
			}
		}
	}
	return m
}

// TestGroupResumesBitForBit stops a group at a checkpoint (through its JSON
// form, as a run folder keeps it) and resumes it with a group built afresh:
// weights, histories and extremes equal the uninterrupted run's exactly.
func TestGroupResumesBitForBit(t *testing.T) {
	c := groupCases()[0]
	d := randomData(rand.New(rand.NewPCG(1, 2)), c.n, c.dim)
	build := func() (*backprop.Group, []train.Options, []*rand.Rand) {
		specs := make([]train.Spec, len(c.objs))
		opts := make([]train.Options, len(c.objs))
		rngs := make([]*rand.Rand, len(c.objs))
		for k, o := range c.objs {
			rngs[k] = rand.New(rand.NewPCG(5, uint64(k)))
			plateau := optim.DefaultPlateau
			plateau.Patience = 1 // the schedule moves within the test's epochs
			opts[k] = train.Options{Epochs: 7, Adam: optim.DefaultAdam, Plateau: &plateau}
			specs[k] = train.Spec{Arch: c.arch, Dim: c.dim, BatchSize: c.batch, Dropout: c.dropout,
				Init: model.Init(c.arch, c.dim, rngs[k]), Objective: o, Penalty: penalties.ATOPenultimate}
		}
		g, err := backprop.NewGroup(specs)
		if err != nil {
			t.Fatal(err)
		}
		return g, opts, rngs
	}
	var saved [][]byte
	save := func(st *train.GroupState) error {
		b, err := json.Marshal(st)
		saved = append(saved, b)
		return err
	}
	g, opts, rngs := build()
	whole, err := train.FitGroup(context.Background(), g, d, opts, rand.New(rand.NewPCG(7, 7)), rngs, train.Checkpoints{Every: 3, Save: save})
	if err != nil {
		t.Fatal(err)
	}
	if len(saved) != 2 { // after epochs 3 and 6, not after the last
		t.Fatalf("%d checkpoints, want 2", len(saved))
	}
	var st train.GroupState
	if err := json.Unmarshal(saved[0], &st); err != nil {
		t.Fatal(err)
	}
	g2, opts2, rngs2 := build()
	resumed, err := train.FitGroup(context.Background(), g2, d, opts2, rand.New(rand.NewPCG(7, 7)), rngs2, train.Checkpoints{From: &st})
	if err != nil {
		t.Fatal(err)
	}
	for k := range whole {
		if !reflect.DeepEqual(g.Members()[k].Params(), g2.Members()[k].Params()) {
			t.Errorf("member %d: resumed weights differ (by up to %g)", k, maxDiff(g.Members()[k].Params(), g2.Members()[k].Params()))
		}
		if !reflect.DeepEqual(whole[k].Result, resumed[k].Result) {
			t.Errorf("member %d: resumed result\n%+v\nwant\n%+v", k, resumed[k].Result, whole[k].Result)
		}
	}
	if lr := whole[0].History[6].LR; lr == optim.DefaultAdam.LR {
		t.Errorf("the plateau schedule never lowered the rate (%g): the test does not cover its state", lr)
	}
	// A state of another group is refused.
	bad := st
	bad.Members = bad.Members[:1]
	g3, opts3, rngs3 := build()
	if _, err := train.FitGroup(context.Background(), g3, d, opts3, rand.New(rand.NewPCG(7, 7)), rngs3, train.Checkpoints{From: &bad}); err == nil {
		t.Error("a saved state of 1 member resumed a group of 5")
	}
}

// With a holdout, every member of a group keeps its own best epoch: each
// ends as the same member trained in a group of its own (which runs the
// lone trainer's code), with the same kept epoch and validation score.
func TestGroupHoldoutPerMember(t *testing.T) {
	c := groupCases()[0]
	rng := rand.New(rand.NewPCG(1, 2))
	d, val := randomData(rng, c.n, c.dim), randomData(rng, 90, c.dim)
	member := func(k int) (train.Spec, train.Options, *rand.Rand) {
		r := rand.New(rand.NewPCG(5, uint64(k)))
		s := train.Spec{Arch: c.arch, Dim: c.dim, BatchSize: c.batch, Dropout: c.dropout,
			Init: model.Init(c.arch, c.dim, r), Objective: c.objs[k], Penalty: penalties.ATOPenultimate}
		ev, err := train.NewEvaluator(backprop.Engine{}, s, 64)
		if err != nil {
			t.Fatal(err)
		}
		plateau := optim.DefaultPlateau
		return s, train.Options{Epochs: 6, Adam: optim.DefaultAdam, Plateau: &plateau,
			Holdout: &train.Holdout{Data: val, Eval: ev, Objective: c.objs[k]}}, r
	}
	var specs []train.Spec
	var opts []train.Options
	var rngs []*rand.Rand
	for k := range c.objs {
		s, o, r := member(k)
		specs, opts, rngs = append(specs, s), append(opts, o), append(rngs, r)
	}
	g, err := backprop.NewGroup(specs)
	if err != nil {
		t.Fatal(err)
	}
	all, err := train.FitGroup(context.Background(), g, d, opts, rand.New(rand.NewPCG(7, 7)), rngs, train.Checkpoints{})
	if err != nil {
		t.Fatal(err)
	}
	kept := map[int]bool{}
	for k := range c.objs {
		s, o, r := member(k)
		one, err := backprop.NewGroup([]train.Spec{s})
		if err != nil {
			t.Fatal(err)
		}
		alone, err := train.FitGroup(context.Background(), one, d, []train.Options{o}, rand.New(rand.NewPCG(7, 7)), []*rand.Rand{r}, train.Checkpoints{})
		if err != nil {
			t.Fatal(err)
		}
		if all[k].Kept != alone[0].Kept || all[k].Val == nil || !relClose(all[k].Val.Objective, alone[0].Val.Objective, 1e-12) {
			t.Errorf("member %d: kept epoch %d (%+v), alone %d (%+v)", k, all[k].Kept, all[k].Val, alone[0].Kept, alone[0].Val)
		}
		if dd := maxDiff(g.Members()[k].Params(), one.Members()[0].Params()); !(dd <= 1e-12) {
			t.Errorf("member %d: kept weights differ by %g", k, dd)
		}
		kept[all[k].Kept] = true
	}
	t.Logf("kept epochs: %v", kept)
}

// A member that diverges stops with its own *DivergedError; the others
// train on as they would without it.
func TestGroupMemberDiverges(t *testing.T) {
	c := groupCases()[0]
	d := randomData(rand.New(rand.NewPCG(1, 2)), c.n, c.dim)
	run := func(members []int, wild int) ([]train.GroupResult, *backprop.Group) {
		var specs []train.Spec
		var opts []train.Options
		var rngs []*rand.Rand
		for _, k := range members {
			r := rand.New(rand.NewPCG(5, uint64(k)))
			specs = append(specs, train.Spec{Arch: c.arch, Dim: c.dim, BatchSize: c.batch, Dropout: c.dropout,
				Init: model.Init(c.arch, c.dim, r), Objective: c.objs[k], Penalty: penalties.ATOPenultimate})
			adam := optim.DefaultAdam
			if k == wild {
				adam.LR = 1e300 // the first step sends the weights to infinity
			}
			opts = append(opts, train.Options{Epochs: 3, Adam: adam})
			rngs = append(rngs, r)
		}
		g, err := backprop.NewGroup(specs)
		if err != nil {
			t.Fatal(err)
		}
		out, err := train.FitGroup(context.Background(), g, d, opts, rand.New(rand.NewPCG(7, 7)), rngs, train.Checkpoints{})
		if err != nil {
			t.Fatal(err)
		}
		return out, g
	}
	with, g := run([]int{0, 1, 2}, 1)
	without, g2 := run([]int{0, 2}, -1)
	var div *train.DivergedError
	if !errors.As(with[1].Err, &div) || div.Epoch != 1 {
		t.Fatalf("the wild member: err = %v, want divergence in epoch 1", with[1].Err)
	}
	for i, k := range []int{0, 2} {
		if with[k].Err != nil || len(with[k].History) != 3 {
			t.Fatalf("member %d: err %v after %d epochs", k, with[k].Err, len(with[k].History))
		}
		if !relClose(with[k].History[2].Objective, without[i].History[2].Objective, 1e-12) {
			t.Errorf("member %d: last epoch's objective %v, %v without the wild member", k, with[k].History[2].Objective, without[i].History[2].Objective)
		}
		if dd := maxDiff(g.Members()[k].Params(), g2.Members()[i].Params()); !(dd <= 1e-12) {
			t.Errorf("member %d: weights differ by %g from the group without the wild member", k, dd)
		}
	}
}

// TestGroupWithDoneMembers trains each group whole and again with all its
// members but one marked done (train.Checkpoints.Done), as a resumed run
// does: the one left ends bit for bit as in the whole group, whichever it
// is, in fused products, quads and the lone trainer's code alike.
func TestGroupWithDoneMembers(t *testing.T) {
	for _, c := range groupCases() {
		t.Run(c.name, func(t *testing.T) {
			d := randomData(rand.New(rand.NewPCG(1, 2)), c.n, c.dim)
			build := func() (*backprop.Group, []train.Options, []*rand.Rand) {
				specs := make([]train.Spec, len(c.objs))
				opts := make([]train.Options, len(c.objs))
				rngs := make([]*rand.Rand, len(c.objs))
				for k, o := range c.objs {
					var pen train.Term
					if o.UsesPenalty() {
						pen = penalties.ATOPenultimate
					}
					rngs[k] = rand.New(rand.NewPCG(5, uint64(k)))
					plateau := optim.DefaultPlateau
					opts[k] = train.Options{Epochs: 3, Adam: optim.DefaultAdam, Plateau: &plateau, BlockMasks: c.blocks}
					specs[k] = train.Spec{Arch: c.arch, Dim: c.dim, BatchSize: c.batch, Dropout: c.dropout,
						Init: model.Init(c.arch, c.dim, rand.New(rand.NewPCG(9, uint64(k)))), Objective: o, Penalty: pen}
				}
				g, err := backprop.NewGroup(specs)
				if err != nil {
					t.Fatal(err)
				}
				return g, opts, rngs
			}
			g, opts, rngs := build()
			whole, err := train.FitGroup(context.Background(), g, d, opts, rand.New(rand.NewPCG(7, 7)), rngs, train.Checkpoints{})
			if err != nil {
				t.Fatal(err)
			}
			for left := range c.objs {
				done := make([]bool, len(c.objs))
				for k := range done {
					done[k] = k != left
				}
				g2, opts2, rngs2 := build()
				got, err := train.FitGroup(context.Background(), g2, d, opts2, rand.New(rand.NewPCG(7, 7)), rngs2, train.Checkpoints{Done: done})
				if err != nil {
					t.Fatal(err)
				}
				if a, b := g.Members()[left].Params(), g2.Members()[left].Params(); !reflect.DeepEqual(a, b) {
					t.Errorf("member %d left alone: weights differ by up to %g", left, maxDiff(a, b))
				}
				if !reflect.DeepEqual(got[left].Result, whole[left].Result) {
					t.Errorf("member %d left alone: result\n%+v\nwant\n%+v", left, got[left].Result, whole[left].Result)
				}
				for k := range done {
					if k != left && !reflect.DeepEqual(g2.Members()[k].Params(), initialWeights(c, k)) {
						t.Errorf("member %d, marked done, was trained", k)
					}
				}
			}
			if _, err := train.FitGroup(context.Background(), g, d, opts, rand.New(rand.NewPCG(7, 7)), rngs, train.Checkpoints{Done: []bool{true}}); len(c.objs) > 1 && err == nil {
				t.Error("one done flag for a group of several members was accepted")
			}
		})
	}
}

// initialWeights is member k's initial weights in TestGroupWithDoneMembers.
func initialWeights(c groupCase, k int) [][]float64 {
	return model.Init(c.arch, c.dim, rand.New(rand.NewPCG(9, uint64(k)))).Tensors()
}
