package experiments

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/fpareto/fp/backprop"
	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/graph"
	"github.com/fpareto/fp/layers"
	"github.com/fpareto/fp/losses"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// AdversaryArch is the adversary of SPEC §6: 1 → 32 → 32 → 32 → 32 → 1.
var AdversaryArch = model.Arch{Layers: 5, Hidden: 32}

// adversaryPenalty is U = −BCE(adversary(p̂), a): the classifier's loss
// BCE_y − β·BCE_a is the objective R + β·U. The adversary's weights are
// inputs of the classifier's graph, not parameters, so they get no gradient
// there; set copies the adversary's latest weights in before each step.
type adversaryPenalty struct {
	init *model.Params
	mlp  *layers.MLP
}

func (p *adversaryPenalty) Name() string { return "adversary" }

func (p *adversaryPenalty) Node(net fairness.Net, b fairness.BatchNodes) (*G.Node, error) {
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

// set copies the adversary's weights into the classifier's graph.
func (p *adversaryPenalty) set(adv [][]float64) {
	for i, v := range p.mlp.Values() {
		copy(v, adv[i])
	}
}

// runAdversarialSplit trains the adversarial baseline for every β of the grid on one split.
func (r *Runner) runAdversarialSplit(ctx context.Context, m int, workers chan struct{}) error {
	sd, err := r.prepare(ctx, m, workers)
	if err != nil {
		return err
	}
	errs := make([]error, len(r.grid))
	done := make(chan int, len(r.grid))
	started := 0
	for i, l := range r.grid {
		if _, ok := r.isDone(m, l); ok {
			continue
		}
		started++
		go func() {
			defer func() { done <- i }()
			if !acquire(ctx, workers) {
				errs[i] = ctx.Err()
				return
			}
			defer func() { <-workers }()
			rec, err := r.trainAdversarial(ctx, sd, l)
			if err == nil {
				err = r.finish(&rec)
			}
			errs[i] = err
		}()
	}
	for range started {
		<-done
	}
	return errors.Join(errs...)
}

// trainAdversarial is Louppe et al.'s adversarial training as SPEC §6 fixes
// it: pre-train the classifier on BCE(y) and the adversary on (p̂, a); then,
// for each round, one full epoch of the adversary with the classifier fixed
// and one step of the classifier on one sampled mini-batch of
// BCE_y − β·BCE_a with the adversary fixed.
func (r *Runner) trainAdversarial(ctx context.Context, sd *splitData, beta float64) (records.Record, error) {
	c := r.cfg
	rec := r.baseRecord(sd, MethodAdversarial, beta)
	rec.BetaScale = c.AdvBetaScale
	arch, _ := model.ParseArch(c.Arch)
	rng := newRand(c.Seed, "candidate", sd.m, MethodAdversarial, beta)
	batch := min(c.Batch, sd.train.N)
	adam := optim.DefaultAdam
	adam.LR = c.LR
	opt := train.Options{Dropout: c.Dropout, Adam: adam}
	start := time.Now()
	fail := func(err error) (records.Record, error) {
		var div *train.DivergedError
		if errors.As(err, &div) {
			rec.TrainSeconds = time.Since(start).Seconds()
			rec.Status, rec.FailEpoch, rec.FailReason, rec.Weights = records.StatusFailed, div.Epoch, div.Reason, ""
			return rec, nil
		}
		return rec, fmt.Errorf("split %d, β = %g: %w", sd.m, beta, err)
	}

	eng := graph.Engine{}
	clfInit := model.Init(arch, sd.train.Dim, rng)
	pre, err := eng.NewTrainer(train.Spec{Arch: arch, Dim: sd.train.Dim, BatchSize: batch, Dropout: c.Dropout,
		Init: clfInit, Objective: scalarize.Objective{Method: scalarize.Risk}})
	if err != nil {
		return fail(err)
	}
	preLoop, err := train.NewLoop(pre, opt)
	if err != nil {
		return fail(err)
	}
	for e := 0; e < c.AdvPretrainClf; e++ {
		if _, err := preLoop.Epoch(ctx, sd.train, rng); err != nil {
			return fail(err)
		}
	}

	n := sd.train.N
	advData := train.Data{X: make([]float64, n), N: n, Dim: 1, Y: sd.train.A, A: sd.train.A}
	// predict puts the classifier's probabilities on the training rows into
	// the adversary's input.
	predict := func(tr train.Trainer) error {
		if err := tr.Predict(sd.train.X, n, advData.X); err != nil {
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
	// classifier, whose loss runs through the adversary, needs the graph.
	adv, err := backprop.Engine{}.NewTrainer(train.Spec{Arch: AdversaryArch, Dim: 1, BatchSize: batch,
		Init: model.Init(AdversaryArch, 1, rng), Objective: scalarize.Objective{Method: scalarize.Risk}})
	if err != nil {
		return fail(err)
	}
	advLoop, err := train.NewLoop(adv, train.Options{Adam: adam})
	if err != nil {
		return fail(err)
	}
	if err := predict(pre); err != nil {
		return fail(err)
	}
	for e := 0; e < c.AdvPretrainAdv; e++ {
		if _, err := advLoop.Epoch(ctx, advData, rng); err != nil {
			return fail(err)
		}
	}

	pen := &adversaryPenalty{init: adv.Network()}
	clf, err := eng.NewTrainer(train.Spec{Arch: arch, Dim: sd.train.Dim, BatchSize: batch, Dropout: c.Dropout,
		Init: pre.Network(), Objective: scalarize.Objective{Method: scalarize.Sum, Lambda: beta}, Penalty: pen})
	if err != nil {
		return fail(err)
	}
	clfLoop, err := train.NewLoop(clf, opt)
	if err != nil {
		return fail(err)
	}
	perm := make([]int, n)
	for round := 1; round <= c.AdvEpochs; round++ {
		if err := ctx.Err(); err != nil {
			return rec, err
		}
		if err := predict(clf); err != nil {
			return fail(err)
		}
		if _, err := advLoop.Epoch(ctx, advData, rng); err != nil {
			return fail(err)
		}
		pen.set(adv.Params())
		for i := range perm {
			perm[i] = i
		}
		rng.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		if _, err := clfLoop.Step(sd.train, perm[:batch], rng); err != nil {
			return fail(err)
		}
	}
	rec.TrainSeconds = time.Since(start).Seconds()
	rec.SkippedBatches = clfLoop.Result().Skipped
	if err := r.score(&rec, clf.Network(), sd); err != nil {
		return rec, err
	}
	return rec, nil
}
