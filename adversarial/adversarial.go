package adversarial

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/fpareto/fp/backprop"
	"github.com/fpareto/fp/internal/vec"
	"github.com/fpareto/fp/layers"
	"github.com/fpareto/fp/losses"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// AdversaryArch is the adversary of docs/method.md §6: 1 → 32 → 32 → 32 → 32 → 1.
var AdversaryArch = model.Arch{Layers: 5, Hidden: 32}

// PenaltyName is the adversary penalty's name.
const PenaltyName = "adversary"

// Penalty is U = −BCE(adversary(p̂), a): the classifier's loss
// BCE_y − β·BCE_a is the objective R + β·U. The adversary's weights are
// inputs of the classifier's graph, not parameters, so they get no gradient
// there; Set copies the adversary's latest weights in before each step.
type Penalty struct {
	init *model.Params
	mlp  *layers.MLP
}

var _ penalties.Penalty = (*Penalty)(nil)

// NewPenalty returns the adversary penalty for an adversary that starts at
// init (an AdversaryArch network on one input).
func NewPenalty(init *model.Params) *Penalty { return &Penalty{init: init} }

// Name is PenaltyName.
func (p *Penalty) Name() string { return PenaltyName }

// Version is empty: the baseline is identified by fp's own version.
func (p *Penalty) Version() string { return "" }

// Inputs is empty: the penalty reads the groups and SW of the batch.
func (p *Penalty) Inputs() []train.Input { return nil }

// Node builds U on the classifier's logits.
func (p *Penalty) Node(net penalties.Net, b penalties.BatchNodes) (*G.Node, error) {
	if p.init == nil {
		return nil, fmt.Errorf("%s: no adversary network", PenaltyName)
	}
	g := net.Logit.Graph()
	mlp, err := layers.NewMLPNamed(g, p.init, "adversary")
	if err != nil {
		return nil, err
	}
	p.mlp = mlp
	prob, err := G.Sigmoid(net.Logit)
	if err != nil {
		return nil, err
	}
	col, err := G.Reshape(prob, tensor.Shape{net.Logit.Shape()[0], 1})
	if err != nil {
		return nil, err
	}
	out, err := mlp.Forward(col, nil)
	if err != nil {
		return nil, err
	}
	bce, err := losses.BCE.Node(out.Logit, b.A, b.SW)
	if err != nil {
		return nil, err
	}
	return G.Neg(bce)
}

// Set copies the adversary's weights (model.Params tensor order) into the
// classifier's graph.
func (p *Penalty) Set(adv [][]float64) {
	for i, v := range p.mlp.Values() {
		copy(v, adv[i])
	}
}

// Requirements is what the baseline asks of the classifier's engine.
func Requirements() train.Requirements {
	return train.Requirements{Penalty: &Penalty{}}
}

// Versions of the training schedule. Records of different versions are not
// comparable, so the version is part of a sweep's configuration.
const (
	// VersionEvalFreshAdam is the first schedule: the adversary learns from
	// the classifier's evaluation-mode (no dropout) predictions of all
	// training rows, computed once per round, and the classifier's rounds
	// start a fresh Adam after pre-training.
	VersionEvalFreshAdam = 1
	// VersionLouppe follows Louppe et al.'s reference implementation: one
	// Adam for the classifier from pre-training to the last round, and the
	// adversary fed the classifier's training-mode output (dropout active,
	// fresh masks) computed batch by batch as it learns.
	VersionLouppe = 2
	// Version is the default schedule.
	Version = VersionLouppe
)

// Setup is one adversarial training run.
type Setup struct {
	// Engine trains the classifier; it must pass Check(Requirements()).
	Engine  train.Engine
	Arch    model.Arch // the classifier's
	Batch   int        // rows per mini-batch (at most Data.N)
	Dropout float64    // the classifier's dropout
	Adam    optim.AdamConfig
	// Beta weighs the adversary's loss: the classifier minimises BCE_y − β·BCE_a.
	Beta float64
	// Rounds of (one adversary epoch, one classifier step) after
	// PretrainClf classifier epochs on BCE_y and PretrainAdv adversary epochs.
	Rounds, PretrainClf, PretrainAdv int
	// Version is the schedule (VersionLouppe or VersionEvalFreshAdam); 0
	// means Version.
	Version int
	// ClfSteps is the classifier's Adam steps per round (VersionLouppe
	// only); 0 means 1, the paper's. A round's steps take consecutive
	// batches of one shuffle of the rows, shuffling again when fewer than
	// Batch rows are left, so that one step is the paper's round.
	ClfSteps int
}

// Result is a trained classifier.
type Result struct {
	Network *model.Params
	// Skipped counts the classifier steps whose batch lacked a group.
	Skipped int
	// Steps counts the classifier's Adam steps, pre-training included.
	Steps int
}

// Train is Louppe et al.'s adversarial training as docs/method.md §6 fixes it:
// pre-train the classifier on BCE(y) and the adversary on (p̂, a); then,
// for each round, one full epoch of the adversary with the classifier fixed
// and one step of the classifier on one sampled mini-batch of
// BCE_y − β·BCE_a with the adversary fixed. s.Version chooses how the
// adversary sees p̂ and whether the classifier keeps its optimizer (see
// VersionLouppe). Every random draw comes from rng. A non-finite loss ends
// it with a *train.DivergedError.
func Train(ctx context.Context, s Setup, d train.Data, rng *rand.Rand) (Result, error) {
	if err := s.Engine.Check(Requirements()); err != nil {
		return Result{}, err
	}
	switch s.Version {
	case 0, VersionLouppe:
		return trainLouppe(ctx, s, d, rng)
	case VersionEvalFreshAdam:
		if s.ClfSteps > 1 {
			return Result{}, fmt.Errorf("adversarial: %d classifier steps per round needs schedule version %d", s.ClfSteps, VersionLouppe)
		}
		return trainEvalFreshAdam(ctx, s, d, rng)
	}
	return Result{}, fmt.Errorf("adversarial: schedule version %d, want %d or %d", s.Version, VersionEvalFreshAdam, VersionLouppe)
}

// newAdversary builds the adversary's trainer (the handwritten engine: it is
// a plain MLP on BCE, a built-in objective, and agrees with the graph engine
// to 1e-8 at an order of magnitude less time on this tiny network) and its
// loop, whose Adam lives as long as the run.
func newAdversary(s Setup, rng *rand.Rand) (train.Trainer, *train.Loop, error) {
	adv, err := backprop.Engine{}.NewTrainer(train.Spec{Arch: AdversaryArch, Dim: 1, BatchSize: s.Batch,
		Init: model.Init(AdversaryArch, 1, rng), Objective: scalarize.Objective{Method: scalarize.Risk}})
	if err != nil {
		return nil, nil, err
	}
	loop, err := train.NewLoop(adv, train.Options{Adam: s.Adam})
	if err != nil {
		return nil, nil, err
	}
	return adv, loop, nil
}

// trainLouppe is VersionLouppe.
func trainLouppe(ctx context.Context, s Setup, d train.Data, rng *rand.Rand) (Result, error) {
	batch, n := s.Batch, d.N
	clfInit := model.Init(s.Arch, d.Dim, rng)
	pre, err := s.Engine.NewTrainer(train.Spec{Arch: s.Arch, Dim: d.Dim, BatchSize: batch, Dropout: s.Dropout,
		Init: clfInit, Objective: scalarize.Objective{Method: scalarize.Risk}})
	if err != nil {
		return Result{}, err
	}
	// One Adam for the classifier throughout: its moments are per parameter
	// position, and the pre-training and the round trainers have the same
	// parameter shapes.
	st, err := newStepper(pre, s, d)
	if err != nil {
		return Result{}, err
	}
	perm := identity(n)
	for e := 1; e <= s.PretrainClf; e++ {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		shuffle(rng, perm)
		for start := 0; start < n; start += batch {
			if err := st.step(pre, perm[start:min(start+batch, n)], e, rng); err != nil {
				return Result{}, err
			}
		}
	}

	adv, advLoop, err := newAdversary(s, rng)
	if err != nil {
		return Result{}, err
	}
	advData := train.Data{X: make([]float64, n), N: n, Dim: 1, Y: d.A, A: d.A}
	fwd := newTrainForward(s.Arch, d.Dim, s.Dropout)
	// advEpoch is one epoch of the adversary, each mini-batch on the
	// classifier's training-mode output for its rows, fresh masks each time.
	advEpoch := func(clf train.Trainer) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		params := clf.Params()
		shuffle(rng, perm)
		for start := 0; start < n; start += batch {
			idx := perm[start:min(start+batch, n)]
			for _, i := range idx {
				advData.X[i] = model.Sigmoid(fwd.logit(params, d.X[i*d.Dim:(i+1)*d.Dim], rng))
			}
			if _, err := advLoop.Step(advData, idx, rng); err != nil {
				return err
			}
		}
		return nil
	}
	for e := 0; e < s.PretrainAdv; e++ {
		if err := advEpoch(pre); err != nil {
			return Result{}, err
		}
	}

	pen := NewPenalty(adv.Network())
	clf, err := s.Engine.NewTrainer(train.Spec{Arch: s.Arch, Dim: d.Dim, BatchSize: batch, Dropout: s.Dropout,
		Init: pre.Network(), Objective: scalarize.Objective{Method: scalarize.Sum, Lambda: s.Beta}, Penalty: pen})
	if err != nil {
		return Result{}, err
	}
	if err := st.rebind(clf); err != nil {
		return Result{}, err
	}
	skipped, k := 0, max(s.ClfSteps, 1)
	for round := 1; round <= s.Rounds; round++ {
		if err := advEpoch(clf); err != nil {
			return Result{}, err
		}
		pen.Set(adv.Params())
		shuffle(rng, perm)
		pos := 0
		for range k {
			if pos+batch > n {
				shuffle(rng, perm)
				pos = 0
			}
			if err := st.step(clf, perm[pos:pos+batch], s.PretrainClf+round, rng); err != nil {
				return Result{}, err
			}
			pos += batch
			if !st.batch.Complete {
				skipped++
			}
		}
	}
	return Result{Network: clf.Network(), Skipped: skipped, Steps: st.steps}, nil
}

// stepper takes Adam steps on a classifier, keeping one optimizer state
// across the trainers it is bound to.
type stepper struct {
	adam    *optim.Adam
	batch   *train.Batch
	data    train.Data
	dropout float64
	params  [][]float64
	grads   [][]float64
	steps   int // Adam steps taken
}

func newStepper(tr train.Trainer, s Setup, d train.Data) (*stepper, error) {
	adam, err := optim.NewAdamFor(s.Adam, tr.Params())
	if err != nil {
		return nil, err
	}
	st := &stepper{adam: adam, data: d, dropout: s.Dropout}
	return st, st.rebind(tr)
}

// rebind points the stepper at tr (same parameter shapes), with a batch
// carrying tr's input columns; the Adam state is kept.
func (st *stepper) rebind(tr train.Trainer) error {
	spec := tr.Spec()
	st.params, st.grads = tr.Params(), tr.Grads()
	if len(st.params) != len(st.grads) {
		return fmt.Errorf("adversarial: %d parameter and %d gradient tensors", len(st.params), len(st.grads))
	}
	st.batch = train.NewBatch(tr.BatchSize(), spec.Dim, spec.Arch.HiddenLayers(), spec.Arch.Hidden, spec.Inputs()...)
	return nil
}

// step is one Adam step of tr on rows idx (fresh dropout masks from rng);
// epoch names the step in a *train.DivergedError.
func (st *stepper) step(tr train.Trainer, idx []int, epoch int, rng *rand.Rand) error {
	b := st.batch
	b.Fill(st.data, idx)
	for _, m := range b.Masks {
		model.FillMask(rng, m, st.dropout)
	}
	loss, err := tr.Gradient(b)
	if err != nil {
		return fmt.Errorf("epoch %d: %w", epoch, err)
	}
	if !finite(loss.R) || !finite(loss.U) || !finite(loss.Objective) {
		return &train.DivergedError{Epoch: epoch, Reason: fmt.Sprintf("loss is not finite (R = %v, U = %v, objective = %v)", loss.R, loss.U, loss.Objective)}
	}
	for _, g := range st.grads {
		for _, v := range g {
			if !finite(v) {
				return &train.DivergedError{Epoch: epoch, Reason: "gradient is not finite"}
			}
		}
	}
	st.adam.Step(st.params, st.grads)
	st.steps++
	return nil
}

// trainForward is the classifier's forward pass in training mode: inverted
// dropout after every hidden ReLU, a fresh mask per row drawn from the
// generator it is given.
type trainForward struct {
	shapes    []model.Shape
	dropout   float64
	cur, next []float64
	mask      []float64
}

func newTrainForward(a model.Arch, dim int, dropout float64) *trainForward {
	shapes := a.Shapes(dim)
	w := dim
	for _, s := range shapes {
		w = max(w, s.Out)
	}
	return &trainForward{shapes: shapes, dropout: dropout, cur: make([]float64, w), next: make([]float64, w), mask: make([]float64, a.Hidden)}
}

// logit computes one row's logit; params are in model.Params order.
func (f *trainForward) logit(params [][]float64, x []float64, rng *rand.Rand) float64 {
	in := x
	for l, s := range f.shapes {
		out := f.next[:s.Out]
		vec.Affine(out, params[2*l+1], in, params[2*l])
		if l < len(f.shapes)-1 {
			m := f.mask[:s.Out]
			model.FillMask(rng, m, f.dropout)
			for j, v := range out {
				out[j] = max(v, 0) * m[j]
			}
		}
		f.cur, f.next = f.next, f.cur
		in = f.cur[:s.Out]
	}
	return in[0]
}

func identity(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return p
}

func shuffle(rng *rand.Rand, p []int) {
	rng.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// trainEvalFreshAdam is VersionEvalFreshAdam.
func trainEvalFreshAdam(ctx context.Context, s Setup, d train.Data, rng *rand.Rand) (Result, error) {
	batch := s.Batch
	opt := train.Options{Adam: s.Adam}

	clfInit := model.Init(s.Arch, d.Dim, rng)
	pre, err := s.Engine.NewTrainer(train.Spec{Arch: s.Arch, Dim: d.Dim, BatchSize: batch, Dropout: s.Dropout,
		Init: clfInit, Objective: scalarize.Objective{Method: scalarize.Risk}})
	if err != nil {
		return Result{}, err
	}
	preLoop, err := train.NewLoop(pre, opt)
	if err != nil {
		return Result{}, err
	}
	for e := 0; e < s.PretrainClf; e++ {
		if _, err := preLoop.Epoch(ctx, d, rng); err != nil {
			return Result{}, err
		}
	}

	n := d.N
	advData := train.Data{X: make([]float64, n), N: n, Dim: 1, Y: d.A, A: d.A}
	// predict puts the classifier's probabilities on the training rows into
	// the adversary's input.
	predict := func(tr train.Trainer) error {
		if err := tr.Predict(d.X, n, advData.X); err != nil {
			return err
		}
		for i, z := range advData.X {
			advData.X[i] = model.Sigmoid(z)
		}
		return nil
	}
	adv, advLoop, err := newAdversary(s, rng)
	if err != nil {
		return Result{}, err
	}
	if err := predict(pre); err != nil {
		return Result{}, err
	}
	for e := 0; e < s.PretrainAdv; e++ {
		if _, err := advLoop.Epoch(ctx, advData, rng); err != nil {
			return Result{}, err
		}
	}

	pen := NewPenalty(adv.Network())
	clf, err := s.Engine.NewTrainer(train.Spec{Arch: s.Arch, Dim: d.Dim, BatchSize: batch, Dropout: s.Dropout,
		Init: pre.Network(), Objective: scalarize.Objective{Method: scalarize.Sum, Lambda: s.Beta}, Penalty: pen})
	if err != nil {
		return Result{}, err
	}
	clfLoop, err := train.NewLoop(clf, opt)
	if err != nil {
		return Result{}, err
	}
	perm := make([]int, n)
	for round := 1; round <= s.Rounds; round++ {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		if err := predict(clf); err != nil {
			return Result{}, err
		}
		if _, err := advLoop.Epoch(ctx, advData, rng); err != nil {
			return Result{}, err
		}
		pen.Set(adv.Params())
		for i := range perm {
			perm[i] = i
		}
		rng.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		if _, err := clfLoop.Step(d, perm[:batch], rng); err != nil {
			return Result{}, err
		}
	}
	return Result{Network: clf.Network(), Skipped: clfLoop.Result().Skipped}, nil
}
