package train_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fpareto/fp/backprop"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

func TestLambdaSamplerDraws(t *testing.T) {
	grid := []float64{0, 0.001, 0.01, 0.1, 1}
	rng := rand.New(rand.NewPCG(1, 1))
	g, err := train.NewLambdaSampler(train.DrawGrid, grid)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[float64]int{}
	for range 3000 {
		seen[g.Draw(rng)]++
	}
	if len(seen) != 3 || seen[0.001] < 900 || seen[0.01] < 900 || seen[0.1] < 900 {
		t.Errorf("grid draw: %v, want the three interior λ about 1000 times each", seen)
	}
	l, err := train.NewLambdaSampler(train.DrawLogUniform, grid)
	if err != nil {
		t.Fatal(err)
	}
	var below int // λ < 10⁻¹·⁵: half of the log range [10⁻³, 1]
	for range 4000 {
		v := l.Draw(rng)
		if !(v >= 0.001 && v <= 1) {
			t.Fatalf("log-uniform draw %g outside [0.001, 1]", v)
		}
		if v < math.Pow(10, -1.5) {
			below++
		}
	}
	if below < 1800 || below > 2200 {
		t.Errorf("log-uniform: %d of 4000 draws below 10^-1.5, want about 2000", below)
	}
	for _, c := range []struct {
		draw string
		grid []float64
		want string
	}{
		{train.DrawGrid, []float64{0, 1}, "no λ strictly between 0 and 1"},
		{"beta", grid, `λ draw "beta"`},
	} {
		if _, err := train.NewLambdaSampler(c.draw, c.grid); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s over %v: err = %v, want %q", c.draw, c.grid, err, c.want)
		}
	}
}

// DrawStep with one λ is Draw; with k it draws one λ from each of k equal
// parts of the log range (log-uniform) or k of the grid's interior λ.
func TestLambdaSamplerDrawStep(t *testing.T) {
	grid := []float64{0, 0.001, 0.01, 0.1, 1}
	l, err := train.NewLambdaSampler(train.DrawLogUniform, grid)
	if err != nil {
		t.Fatal(err)
	}
	a, b := rand.New(rand.NewPCG(3, 3)), rand.New(rand.NewPCG(3, 3))
	for range 100 {
		if got, want := l.DrawStep(a, 1), l.Draw(b); len(got) != 1 || got[0] != want {
			t.Fatalf("DrawStep(1) = %v, Draw = %g", got, want)
		}
	}
	for range 500 {
		step := l.DrawStep(a, 3) // parts of [log 0.001, 0]: [-3, -2], [-2, -1], [-1, 0] in log10
		for i, v := range step {
			lo, hi := math.Pow(10, float64(i-3)), math.Pow(10, float64(i-2))
			if !(v >= lo*(1-1e-12) && v <= hi*(1+1e-12)) {
				t.Fatalf("λ %d of a step is %g, want it in [%g, %g]", i, v, lo, hi)
			}
		}
	}
	g, err := train.NewLambdaSampler(train.DrawGrid, grid)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[float64]int{}
	for range 1000 {
		step := g.DrawStep(a, 2)
		if len(step) != 2 {
			t.Fatalf("DrawStep(2) gave %d λ", len(step))
		}
		for _, v := range step {
			seen[v]++
		}
	}
	if len(seen) != 3 || seen[0.001] < 500 || seen[0.01] < 500 || seen[0.1] < 500 {
		t.Errorf("grid draw, two per step: %v, want the three interior λ about 667 times each", seen)
	}
}

// With k λ per step, a step moves the weights as Adam does with the mean of
// the k gradients, each computed at its λ on the same batch and dropout
// masks: the same step as a hand-made mean of single-λ gradients. Checked
// on the handwritten engine's fold (the graph engine's conditioned trainer
// is checked against it elsewhere, gradient for gradient).
func TestFitConditionedSeveralLambdasPerStepTakesTheMeanGradient(t *testing.T) {
	d := synth(20, 3, rand.New(rand.NewPCG(9, 9)))
	spec := conditionedSpec(rand.New(rand.NewPCG(4, 4)), 3)
	spec.Dropout = 0 // the hand-made mean below draws no masks
	newTrainer := func() train.ConditionedTrainer {
		tr, err := backprop.Engine{}.NewTrainer(spec)
		if err != nil {
			t.Fatal(err)
		}
		return tr.(train.ConditionedTrainer)
	}
	plain := spec
	plain.FiLM = nil
	ev, err := train.NewEvaluator(backprop.Engine{}, plain, 20)
	if err != nil {
		t.Fatal(err)
	}
	s, err := train.NewLambdaSampler(train.DrawLogUniform, []float64{0, 0.001, 0.01, 0.1, 1})
	if err != nil {
		t.Fatal(err)
	}
	// One epoch of one batch (20 rows), three λ.
	tr := newTrainer()
	adam := optim.DefaultAdam
	opt := train.ConditionedOptions{Options: train.Options{Epochs: 1, Adam: adam}, Sampler: s, PerStep: 3,
		Grid: s.Interior(), Rows: d, Eval: ev}
	if _, err := train.FitConditioned(context.Background(), tr, d, opt, rand.New(rand.NewPCG(1, 1)), rand.New(rand.NewPCG(2, 2))); err != nil {
		t.Fatal(err)
	}
	// By hand: the same λ (the same generator), the rows in the same
	// order (the same shuffle), the mean gradient, one Adam step.
	lambdas := s.DrawStep(rand.New(rand.NewPCG(2, 2)), 3)
	perm := []int{}
	for i := range d.N {
		perm = append(perm, i)
	}
	rand.New(rand.NewPCG(1, 1)).Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	ref := newTrainer()
	b := train.NewBatch(20, 3, spec.Arch.HiddenLayers(), spec.Arch.Hidden, spec.Inputs()...)
	for _, m := range b.Masks {
		model.FillMask(nil, m, 0)
	}
	b.Fill(d, perm)
	mean := make([][]float64, len(ref.Grads()))
	for i, g := range ref.Grads() {
		mean[i] = make([]float64, len(g))
	}
	for _, l := range lambdas {
		if err := ref.SetLambda(l); err != nil {
			t.Fatal(err)
		}
		if _, err := ref.Gradient(b); err != nil {
			t.Fatal(err)
		}
		for i, g := range ref.Grads() {
			for j, v := range g {
				mean[i][j] += v
			}
		}
	}
	for _, g := range mean {
		for j := range g {
			g[j] /= 3
		}
	}
	// The trainer's gradient buffers hold what the step applied: the mean.
	var worst, scale float64
	for i, g := range mean {
		for j, v := range g {
			worst = math.Max(worst, math.Abs(v-tr.Grads()[i][j]))
			scale = math.Max(scale, math.Abs(v))
		}
	}
	if worst > 1e-12*scale {
		t.Errorf("the step's gradient differs from the mean of the three λ's gradients by %g (largest entry %g)", worst, scale)
	}
	a, err := optim.NewAdamFor(adam, ref.Params())
	if err != nil {
		t.Fatal(err)
	}
	a.Step(ref.Params(), mean)
	if !reflect.DeepEqual(ref.Params(), tr.Params()) {
		t.Error("the step at three λ is not Adam's step on the mean of their gradients")
	}
	// One λ's gradient is not the mean: the comparison above can fail.
	if err := ref.SetLambda(lambdas[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := ref.Gradient(b); err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(ref.Grads()[0], tr.Grads()[0]) {
		t.Error("one λ's gradient equals the mean of three: the test cannot tell them apart")
	}
}

// lambdaLog is a conditioned trainer that records the λ of every step.
type lambdaLog struct {
	train.ConditionedTrainer
	steps []float64
}

func (l *lambdaLog) Gradient(b *train.Batch) (train.Loss, error) {
	l.steps = append(l.steps, l.Lambda())
	return l.ConditionedTrainer.Gradient(b)
}

func conditionedSpec(rng *rand.Rand, dim int) train.Spec {
	arch := model.Arch{Layers: 3, Hidden: 4}
	std := scalarize.Standardizer{RMin: 0.3, RMax: 0.8, UMin: 0, UMax: 0.5}
	return train.Spec{Arch: arch, Dim: dim, BatchSize: 20, Dropout: 0.1, Init: model.Init(arch, dim, rng),
		FiLM:      model.NewFiLM(arch, 8, false, rng),
		Objective: scalarize.Objective{Method: scalarize.Chebyshev, Lambda: 0.5, Std: std},
		Penalty:   penalties.ATOPenultimate}
}

// fitConditioned trains a small conditioned network on synthetic rows and
// returns the trainer (with its λ log) and the result.
func fitConditioned(t *testing.T, seed uint64, holdout bool) (*lambdaLog, train.ConditionedResult, train.ConditionedOptions, train.Data) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 5))
	d := synth(100, 3, rand.New(rand.NewPCG(9, 9)))
	val := synth(60, 3, rand.New(rand.NewPCG(8, 8)))
	spec := conditionedSpec(rng, 3)
	tr, err := backprop.Engine{}.NewTrainer(spec)
	if err != nil {
		t.Fatal(err)
	}
	ct, ok := tr.(train.ConditionedTrainer)
	if !ok {
		t.Fatalf("the backprop engine gave a %T for a conditioned spec", tr)
	}
	plain := spec
	plain.FiLM = nil
	ev, err := train.NewEvaluator(backprop.Engine{}, plain, 100)
	if err != nil {
		t.Fatal(err)
	}
	grid := []float64{0, 0.01, 0.1, 0.5, 1}
	s, err := train.NewLambdaSampler(train.DrawGrid, grid)
	if err != nil {
		t.Fatal(err)
	}
	p := optim.DefaultPlateau
	opt := train.ConditionedOptions{Options: train.Options{Epochs: 6, Adam: optim.DefaultAdam, Plateau: &p},
		Sampler: s, Grid: s.Interior(), Rows: d, Eval: ev}
	if holdout {
		opt.Holdout = &train.Holdout{Data: val, Eval: ev, Objective: spec.Objective}
	}
	log := &lambdaLog{ConditionedTrainer: ct}
	res, err := train.FitConditioned(context.Background(), log, d, opt, rng, rand.New(rand.NewPCG(seed, 6)))
	if err != nil {
		t.Fatal(err)
	}
	return log, res, opt, val
}

// Each step trains at a λ drawn from the sampler's own generator; the same
// generators give the same network; the validation mean over the grid picks
// the kept epoch, and the network returned is that epoch's.
func TestFitConditionedDrawsLambdaPerStepAndKeepsTheBestGridMean(t *testing.T) {
	log, res, opt, val := fitConditioned(t, 1, true)
	if len(log.steps) != 6*5 || res.Steps != 30 {
		t.Fatalf("%d steps (%d λ set), want 6 epochs × 5 batches", res.Steps, len(log.steps))
	}
	seen := map[float64]bool{}
	for _, l := range log.steps {
		seen[l] = true
	}
	if len(seen) != 3 || !seen[0.01] || !seen[0.1] || !seen[0.5] {
		t.Errorf("λ trained at: %v, want the grid's interior", seen)
	}
	again, res2, _, _ := fitConditioned(t, 1, true)
	if !slices.Equal(again.steps, log.steps) || !slices.Equal(flat(res2.Net), flat(res.Net)) {
		t.Error("the same generators gave other λ or weights")
	}
	best := math.Inf(1)
	kept := 0
	for _, st := range res.History {
		if st.Val == nil {
			t.Fatalf("epoch %d has no validation score", st.Epoch)
		}
		if st.Val.Objective < best {
			best, kept = st.Val.Objective, st.Epoch
		}
	}
	if res.Kept != kept || res.Val.Objective != best {
		t.Errorf("kept epoch %d (objective %g), want %d (%g)", res.Kept, res.Val.Objective, kept, best)
	}
	got, err := train.GridLoss(res.Net, opt.Holdout.Eval, val, opt.Holdout.Objective, opt.Grid)
	if err != nil {
		t.Fatal(err)
	}
	if got != *res.Val {
		t.Errorf("the network returned scores %+v on the validation part, the kept epoch %+v", got, *res.Val)
	}
	if slices.Equal(flat(res.Net)[len(flat(res.Net))-4:], make([]float64, 4)) {
		t.Error("the conditioning network's output layer did not move from its identity start")
	}
}

func flat(c *model.Conditioned) []float64 {
	var out []float64
	for _, t := range c.Tensors() {
		out = append(out, t...)
	}
	return out
}

// The plateau schedule reads the grid mean on fixed rows, not the objective
// of the drawn λ: a network that cannot improve (learning rate 0) lowers the
// rate after the plateau's patience although the drawn λ's objective jumps.
func TestFitConditionedPlateauReadsTheGridMean(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	d := synth(80, 3, rng)
	spec := conditionedSpec(rng, 3)
	tr, err := backprop.Engine{}.NewTrainer(spec)
	if err != nil {
		t.Fatal(err)
	}
	plain := spec
	plain.FiLM = nil
	ev, err := train.NewEvaluator(backprop.Engine{}, plain, 80)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := train.NewLambdaSampler(train.DrawLogUniform, []float64{0, 0.001, 0.3, 1})
	p := optim.DefaultPlateau
	p.Eps = 0 // lets the tiny rate below drop
	adam := optim.DefaultAdam
	adam.LR = 1e-300 // the weights do not move: the grid mean is constant
	var lrs []float64
	opt := train.ConditionedOptions{Options: train.Options{Epochs: 14, Adam: adam, Plateau: &p,
		OnEpoch: func(s train.EpochStats) { lrs = append(lrs, s.LR) }},
		Sampler: s, Grid: s.Interior(), Rows: d, Eval: ev}
	res, err := train.FitConditioned(context.Background(), tr.(train.ConditionedTrainer), d, opt, rng, rand.New(rand.NewPCG(3, 3)))
	if err != nil {
		t.Fatal(err)
	}
	if res.History[0].Objective == res.History[1].Objective {
		t.Fatal("the drawn λ's objective did not change between epochs; the test shows nothing")
	}
	if !(lrs[12] < lrs[11]) || lrs[11] != lrs[0] {
		t.Errorf("rates %v: want the first drop after 1 + 11 epochs of a constant grid mean", lrs)
	}
	if res.Kept != 14 || res.Val != nil {
		t.Errorf("without a holdout: kept %d, val %v; want the last epoch", res.Kept, res.Val)
	}
}

func TestFitConditionedRefusesWithoutSamplerOrRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	d := synth(40, 3, rng)
	spec := conditionedSpec(rng, 3)
	tr, err := backprop.Engine{}.NewTrainer(spec)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := train.NewLambdaSampler(train.DrawGrid, []float64{0, 0.5, 1})
	for name, opt := range map[string]train.ConditionedOptions{
		"no sampler": {Options: train.Options{Epochs: 1, Adam: optim.DefaultAdam}, Grid: []float64{0.5}},
		"no rows":    {Options: train.Options{Epochs: 1, Adam: optim.DefaultAdam}, Sampler: s, Grid: []float64{0.5}},
	} {
		_, err := train.FitConditioned(context.Background(), tr.(train.ConditionedTrainer), d, opt, rng, rng)
		if err == nil || errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "fit conditioned") {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}

func TestSpread(t *testing.T) {
	g := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}
	for _, c := range []struct {
		grid []float64
		k    int
		want []float64
	}{
		{g, 5, []float64{1, 4, 7, 10, 13}},
		{g, 2, []float64{1, 13}},
		{g, 1, []float64{7}},
		{g[:3], 5, g[:3]},
	} {
		if got := train.Spread(c.grid, c.k); !slices.Equal(got, c.want) {
			t.Errorf("Spread(%v, %d) = %v, want %v", c.grid, c.k, got, c.want)
		}
	}
}

// A conditioned network stopped right after a checkpoint (through its JSON
// form, as a run folder keeps it) and resumed with a trainer and generators
// built afresh ends exactly as the uninterrupted run: weights, history,
// extremes and kept epoch. A state that does not fit is refused.
func TestFitConditionedResumesBitForBit(t *testing.T) {
	build := func(holdout bool, draw string, perStep int) (train.ConditionedTrainer, train.Data, train.ConditionedOptions, *rand.Rand, *rand.Rand) {
		rng := rand.New(rand.NewPCG(11, 5))
		d := synth(100, 3, rand.New(rand.NewPCG(9, 9)))
		spec := conditionedSpec(rng, 3)
		tr, err := backprop.Engine{}.NewTrainer(spec)
		if err != nil {
			t.Fatal(err)
		}
		plain := spec
		plain.FiLM = nil
		ev, err := train.NewEvaluator(backprop.Engine{}, plain, 100)
		if err != nil {
			t.Fatal(err)
		}
		s, err := train.NewLambdaSampler(draw, []float64{0, 0.01, 0.1, 0.5, 1})
		if err != nil {
			t.Fatal(err)
		}
		p := optim.DefaultPlateau
		// The schedule moves within the test's epochs: an epoch improves
		// only when it halves the grid mean.
		p.Patience, p.Threshold = 1, 0.5
		opt := train.ConditionedOptions{Options: train.Options{Epochs: 7, Adam: optim.DefaultAdam, Plateau: &p},
			Sampler: s, PerStep: perStep, Grid: s.Interior(), Rows: d, Eval: ev}
		if holdout {
			// Flipped labels: the validation objective worsens as the
			// network learns, so the best epoch comes before the first
			// checkpoint and the resumed run must carry it.
			val := synth(60, 3, rand.New(rand.NewPCG(8, 8)))
			for i, y := range val.Y {
				val.Y[i] = 1 - y
			}
			opt.Holdout = &train.Holdout{Data: val, Eval: ev, Objective: spec.Objective}
		}
		return tr.(train.ConditionedTrainer), d, opt, rng, rand.New(rand.NewPCG(11, 6))
	}
	for _, c := range []struct {
		name    string
		holdout bool
		draw    string
		perStep int
	}{
		{"without a validation part", false, train.DrawLogUniform, 0},
		{"with a validation part", true, train.DrawGrid, 0},
		{"three λ per step", false, train.DrawLogUniform, 3},
		{"two λ per step, with a validation part", true, train.DrawGrid, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			var saved []int
			tr, d, opt, rng, lrng := build(c.holdout, c.draw, c.perStep)
			opt.Checkpoints = train.ConditionedCheckpoints{Every: 3, Save: func(st *train.ConditionedState) error {
				saved = append(saved, st.Epoch)
				return nil
			}}
			whole, err := train.FitConditioned(context.Background(), tr, d, opt, rng, lrng)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(saved, []int{3, 6}) { // not after the last epoch
				t.Fatalf("checkpoints after epochs %v, want [3 6]", saved)
			}
			if lr := whole.History[6].LR; lr == optim.DefaultAdam.LR {
				t.Errorf("the plateau schedule never lowered the rate (%g): the test does not cover its state", lr)
			}
			if c.holdout && whole.Kept > 3 {
				t.Errorf("kept epoch %d: the test does not cover a best network saved in the checkpoint", whole.Kept)
			}

			// Stop at the first checkpoint, as a killed sweep does.
			var b []byte
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			tr2, d2, opt2, rng2, lrng2 := build(c.holdout, c.draw, c.perStep)
			opt2.Checkpoints = train.ConditionedCheckpoints{Every: 3, Save: func(st *train.ConditionedState) error {
				var err error
				b, err = json.Marshal(st)
				cancel()
				return err
			}}
			if _, err := train.FitConditioned(ctx, tr2, d2, opt2, rng2, lrng2); !errors.Is(err, context.Canceled) {
				t.Fatalf("stopped run: err = %v, want context.Canceled", err)
			}
			var st train.ConditionedState
			if err := json.Unmarshal(b, &st); err != nil {
				t.Fatal(err)
			}
			if st.Epoch != 3 || (st.Best != nil) != c.holdout {
				t.Fatalf("saved state after epoch %d with a best network %v", st.Epoch, st.Best != nil)
			}

			saved = nil
			tr3, d3, opt3, rng3, lrng3 := build(c.holdout, c.draw, c.perStep)
			opt3.Checkpoints = train.ConditionedCheckpoints{Every: 3, From: &st, Save: func(st *train.ConditionedState) error {
				saved = append(saved, st.Epoch)
				return nil
			}}
			resumed, err := train.FitConditioned(context.Background(), tr3, d3, opt3, rng3, lrng3)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(saved, []int{6}) {
				t.Errorf("the resumed run saved after epochs %v, want [6]", saved)
			}
			if !reflect.DeepEqual(flat(resumed.Net), flat(whole.Net)) || !reflect.DeepEqual(tr3.Params(), tr.Params()) {
				t.Error("the resumed network's weights differ from the uninterrupted run's")
			}
			if !reflect.DeepEqual(resumed.Result, whole.Result) {
				t.Errorf("resumed result\n%+v\nwant\n%+v", resumed.Result, whole.Result)
			}

			// A state that does not fit is refused, naming the mismatch.
			for name, bad := range map[string]func(s *train.ConditionedState){
				"a tensor short":         func(s *train.ConditionedState) { s.Params = s.Params[1:] },
				"past the last epoch":    func(s *train.ConditionedState) { s.Epoch = 8 },
				"another validation run": func(s *train.ConditionedState) { s.Best = map[bool][][]float64{true: nil, false: s.Params}[c.holdout] },
			} {
				var s train.ConditionedState
				if err := json.Unmarshal(b, &s); err != nil {
					t.Fatal(err)
				}
				bad(&s)
				tr4, d4, opt4, rng4, lrng4 := build(c.holdout, c.draw, c.perStep)
				opt4.Checkpoints.From = &s
				if _, err := train.FitConditioned(context.Background(), tr4, d4, opt4, rng4, lrng4); !errors.Is(err, train.ErrSavedState) {
					t.Errorf("%s: err = %v, want one wrapping train.ErrSavedState", name, err)
				}
			}
		})
	}
}
