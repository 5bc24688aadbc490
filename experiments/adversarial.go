package experiments

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/fpareto/fp/adversarial"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// runAdversarialSplit trains the adversarial baseline for every β of the grid on one split.
func (r *Runner) runAdversarialSplit(ctx context.Context, m int, workers chan struct{}) error {
	sd, err := r.prepare(ctx, m, workers)
	if err != nil {
		return err
	}
	return r.eachLambda(ctx, m, workers, func(_ int, l float64) (records.Record, error) {
		return r.trainAdversarial(ctx, sd, l)
	})
}

// eachLambda trains, for every λ of the grid not yet recorded on split m,
// the candidate train(i, λ) makes (i its place in the grid), each in its
// own goroutine holding one of workers, and records it; the methods whose
// candidates train one at a time (the adversarial baseline, reductions)
// share it.
func (r *Runner) eachLambda(ctx context.Context, m int, workers chan struct{}, train func(i int, l float64) (records.Record, error)) error {
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
			rec, err := train(i, l)
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

// trainAdversarial trains the adversarial baseline (package adversarial)
// with β = beta on one split and scores it.
func (r *Runner) trainAdversarial(ctx context.Context, sd *splitData, beta float64) (records.Record, error) {
	c := r.cfg
	rec := r.baseRecord(sd, MethodAdversarial, beta)
	rec.BetaScale = c.AdvBetaScale
	rec.AdvVersion = c.AdvVersion
	arch, _ := model.ParseArch(c.Arch)
	rng := newRand(c.Seed, "candidate", sd.m, MethodAdversarial, beta)
	adam := optim.DefaultAdam
	adam.LR = c.LR
	setup := adversarial.Setup{Engine: r.engine, Arch: arch, Batch: min(c.Batch, sd.train.N), Dropout: c.Dropout,
		Adam: adam, Beta: beta, Rounds: c.AdvEpochs, PretrainClf: c.AdvPretrainClf, PretrainAdv: c.AdvPretrainAdv,
		Version: c.AdvVersion, ClfSteps: c.AdvClfSteps}
	start := time.Now()
	res, err := adversarial.Train(ctx, setup, sd.train, rng)
	var div *train.DivergedError
	if errors.As(err, &div) {
		rec.TrainSeconds = time.Since(start).Seconds()
		rec.Status, rec.FailEpoch, rec.FailReason, rec.Weights = records.StatusFailed, div.Epoch, div.Reason, ""
		return rec, nil
	}
	if err != nil {
		return rec, fmt.Errorf("split %d, β = %g: %w", sd.m, beta, err)
	}
	rec.TrainSeconds = time.Since(start).Seconds()
	rec.SkippedBatches = res.Skipped
	if c.AdvClfSteps > 1 {
		// The steps as counted, which the configuration fixes in advance
		// (Config.AdvClfStepsTotal).
		rec.AdvClfSteps, rec.AdvClfStepsTotal = c.AdvClfSteps, res.Steps
	}
	// The final training risk; the baseline has no penalty U of its own, so
	// train_u stays 0.
	eval, err := train.NewEvaluator(r.engine, train.Spec{Arch: arch, Dim: sd.train.Dim, BatchSize: 1,
		Init: res.Network, Objective: scalarize.Objective{Method: scalarize.Risk}}, sd.evalBlock())
	if err != nil {
		return rec, fmt.Errorf("split %d, β = %g: %w", sd.m, beta, err)
	}
	fin, err := eval.Loss(res.Network.Tensors(), sd.train)
	if err != nil {
		return rec, fmt.Errorf("split %d, β = %g: %w", sd.m, beta, err)
	}
	rec.TrainR = fin.R
	if err := r.score(&rec, res.Network, sd); err != nil {
		return rec, err
	}
	return rec, nil
}
