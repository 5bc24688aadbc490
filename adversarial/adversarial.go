package adversarial

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/fpareto/fp/backprop"
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

// AdversaryArch is the adversary of SPEC §6: 1 → 32 → 32 → 32 → 32 → 1.
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
}

// Result is a trained classifier.
type Result struct {
	Network *model.Params
	// Skipped counts the classifier steps whose batch lacked a group.
	Skipped int
}

// Train is Louppe et al.'s adversarial training as SPEC §6 fixes it:
// pre-train the classifier on BCE(y) and the adversary on (p̂, a); then,
// for each round, one full epoch of the adversary with the classifier fixed
// and one step of the classifier on one sampled mini-batch of
// BCE_y − β·BCE_a with the adversary fixed. Every random draw comes from
// rng. A non-finite loss ends it with a *train.DivergedError.
func Train(ctx context.Context, s Setup, d train.Data, rng *rand.Rand) (Result, error) {
	if err := s.Engine.Check(Requirements()); err != nil {
		return Result{}, err
	}
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
	// The adversary is a plain MLP on BCE, a built-in objective, so the
	// handwritten engine trains it (it agrees with the graph engine to 1e-8
	// and is an order of magnitude faster on this tiny network); the
	// classifier, whose loss runs through the adversary, needs graph code.
	adv, err := backprop.Engine{}.NewTrainer(train.Spec{Arch: AdversaryArch, Dim: 1, BatchSize: batch,
		Init: model.Init(AdversaryArch, 1, rng), Objective: scalarize.Objective{Method: scalarize.Risk}})
	if err != nil {
		return Result{}, err
	}
	advLoop, err := train.NewLoop(adv, train.Options{Adam: s.Adam})
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
