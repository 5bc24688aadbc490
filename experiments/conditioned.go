package experiments

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// A conditioned sweep (Config.Conditioned, docs/method.md §12) trains, per
// split, the λ = 0 and λ = 1 runs as every sweep does (their records stay
// the λ = 0 and λ = 1 candidates, and their extremes the split's
// standardization constants), then one λ-conditioned network, and records
// that network folded at every interior λ of the grid, and at the λ of the
// evaluation grid that are not in it (eval_only).

// checkConditioned refuses the settings of a conditioned sweep that cannot
// go together, one reason each, and the conditioning settings without
// Conditioned. The engine is asked by building a trainer of a one-unit
// conditioned network on the sweep's terms: an engine that cannot train
// one refuses with its own error.
func (c Config) checkConditioned(eng train.Engine) error {
	if !c.Conditioned {
		// Every setting of the λ-conditioned network, from the table of
		// settings: none may be given without Conditioned.
		for _, st := range runfolder.Settings {
			if st.Only != runfolder.OnlyConditioned || st.IsZero(&c.Config) {
				continue
			}
			v := st.Value(&c.Config)
			if b, ok := v.(bool); ok && b {
				return fieldErr(st.Key, "the setting applies to --conditioned only")
			}
			if str, ok := v.(string); ok {
				return fieldErr(st.Key, "%q: the setting applies to --conditioned only", str)
			}
			return fieldErr(st.Key, "%v: the setting applies to --conditioned only", v)
		}
		return nil
	}
	switch {
	case c.Method == MethodAdversarial:
		return fieldErr("conditioned", "the adversarial baseline trains a classifier against an adversary at each β and cannot be λ-conditioned; use cheb, linear or cheb-aug")
	case scalarize.IsAdaptive(c.Lambdas):
		return fieldErr("conditioned", "%q: a conditioned network is recorded at a fixed grid; give log:N, linear:N or a list (and --eval-lambdas for a denser one)", c.Lambdas)
	case c.Lockstep:
		return fieldErr("lockstep", "a conditioned sweep trains one network per split, not a lockstep group; leave out --lockstep")
	case c.ScheduleRows < 0:
		return fieldErr("schedule_rows", "%d, want ≥ 1 (0: every training row)", c.ScheduleRows)
	case c.ConditionedLR != "" && c.ConditionedLR != ConditionedLRConstant:
		return fieldErr("conditioned_lr", "%q: want %s (or leave it out for the plateau schedule)", c.ConditionedLR, ConditionedLRConstant)
	case c.LambdasPerStep < 0 || c.LambdasPerStep > MaxLambdasPerStep:
		return fieldErr("lambdas_per_step", "%d, want 1 to %d (0: one); each costs a gradient per step", c.LambdasPerStep, MaxLambdasPerStep)
	case c.ConditionedEpochs < 0:
		return fieldErr("conditioned_epochs", "%d, want ≥ 1 (0: --epochs)", c.ConditionedEpochs)
	case c.FiLMWidth < 0:
		return fieldErr("film_width", "%d, want ≥ 1 (0: %d)", c.FiLMWidth, model.DefaultFiLMWidth)
	case c.LambdaDraw != "" && !slices.Contains(train.Draws, c.LambdaDraw):
		return fieldErr("lambda_draw", "%q: want one of %s", c.LambdaDraw, strings.Join(train.Draws, ", "))
	case c.FiLMPenalty != "" && !slices.Contains(train.FiLMPenalties, c.FiLMPenalty):
		return fieldErr("film_penalty", "%q: want one of %s", c.FiLMPenalty, strings.Join(train.FiLMPenalties, ", "))
	}
	if c.ConditionedArch != "" {
		if err := checkArch("conditioned_arch", c.ConditionedArch); err != nil {
			return err
		}
	}
	if c.FiLMPenalty == train.PenaltyBeforeFiLM {
		pen, err := c.penalty()
		if err != nil {
			return err
		}
		if err := train.CheckFiLMPenalty(c.FiLMPenalty, true, pen); err != nil {
			return &FieldError{Field: "film_penalty", Err: err}
		}
	}
	grid, err := scalarize.ParseGrid(c.Lambdas)
	if err != nil {
		return &FieldError{Field: "lambdas", Err: err}
	}
	if _, err := train.NewLambdaSampler(train.DrawGrid, grid); err != nil {
		return fieldErr("lambdas", "%q has no λ strictly between 0 and 1 to record a conditioned network at", c.Lambdas)
	}
	if c.EvalLambdas != "" {
		if scalarize.IsAdaptive(c.EvalLambdas) {
			return fieldErr("eval_lambdas", "%q: want a fixed grid (log:N, linear:N or a list)", c.EvalLambdas)
		}
		if _, err := scalarize.ParseGrid(c.EvalLambdas); err != nil {
			return &FieldError{Field: "eval_lambdas", Err: err}
		}
	}
	return c.probeConditioned(eng)
}

// MaxLambdasPerStep bounds --lambdas-per-step: each λ costs one gradient
// per step, and four changed nothing measurable on COMPAS (docs/method.md
// §12).
const MaxLambdasPerStep = 64

// ConditionedLRConstant trains a conditioned network at a constant
// learning rate (--conditioned-lr constant) instead of the plateau
// schedule.
const ConditionedLRConstant = "constant"

// conditionedEpochs is the epochs a split's conditioned network trains:
// ConditionedEpochs, or Epochs where it is 0.
func (c Config) conditionedEpochs() int {
	if c.ConditionedEpochs > 0 {
		return c.ConditionedEpochs
	}
	return c.Epochs
}

// conditionedArch is the conditioned network's architecture:
// ConditionedArch, or Arch where it is "".
func (c Config) conditionedArch() string {
	if c.ConditionedArch != "" {
		return c.ConditionedArch
	}
	return c.Arch
}

// probeConditioned builds a trainer of a one-unit conditioned network on
// the sweep's terms: it fails, with the engine's own error, where the
// engine cannot train the sweep's conditioned networks.
func (c Config) probeConditioned(eng train.Engine) error {
	pen, err := c.penalty()
	if err != nil {
		return err
	}
	s, err := c.scalarization()
	if err != nil {
		return err
	}
	arch := model.Arch{Layers: 2, Hidden: 1}
	spec := train.Spec{Arch: arch, Dim: 1, BatchSize: 2, Init: model.NewParams(arch, 1),
		FiLM: model.NewFiLM(arch, 1, c.FiLMOutput, rand.New(rand.NewPCG(0, 0))),
		Objective: scalarize.Objective{Method: scalarize.Method(c.Method), Lambda: 0.5,
			Std: scalarize.Standardizer{RMax: 1, UMax: 1}, Scalarization: s},
		Penalty: pen, Risk: c.CustomRisk, FiLMPenalty: c.FiLMPenalty}
	tr, err := eng.NewTrainer(spec)
	if err != nil {
		return &FieldError{Field: "engine", Err: err}
	}
	if _, ok := tr.(train.ConditionedTrainer); !ok {
		return fieldErr("engine", "the %s engine cannot train a λ-conditioned network (--conditioned); use --engine backprop", eng.Name())
	}
	return nil
}

// ScheduleLambdas is the most λ of the grid whose mean objective the
// conditioned network's plateau schedule and held-out stopping read each
// epoch (train.Spread): each costs about one epoch of training, so all of
// log:15's 13 would make the network cost about as much as the grid's
// networks one after another (docs/method.md §12).
const ScheduleLambdas = 5

// evalOnlyGrid is the λ of the evaluation grid that the training grid does
// not hold, ascending; nil without an evaluation grid.
func (c Config) evalOnlyGrid(grid []float64) []float64 {
	if !c.Conditioned || c.EvalLambdas == "" {
		return nil
	}
	eval, _ := scalarize.ParseGrid(c.EvalLambdas) // checked by Validate
	var out []float64
	for _, l := range eval {
		if !slices.Contains(grid, l) {
			out = append(out, l)
		}
	}
	return out
}

// interior is the grid's λ strictly between 0 and 1, in grid order.
func interior(grid []float64) []float64 {
	var out []float64
	for _, l := range grid {
		if l > 0 && l < 1 {
			out = append(out, l)
		}
	}
	return out
}

// conditionedLambdas are the λ a split's conditioned network is recorded
// at: the grid's interior, then the evaluation grid's others.
func (r *Runner) conditionedLambdas() []float64 {
	return append(interior(r.grid), r.evalOnly...)
}

// conditionedSplit trains split sd's conditioned network, unless every
// record it gives is written already, and writes its records not yet
// written. A split whose standardization failed (reason) gets failed
// records. The network saves its state every conditionedEvery epochs: a
// sweep stopped while it trains goes on from the last checkpoint when
// resumed, to the same weights; the checkpoint is removed once the
// records are written.
func (r *Runner) conditionedSplit(ctx context.Context, sd *splitData, constants scalarize.Standardizer, reason string, workers chan struct{}) error {
	var todo []float64
	for _, l := range r.conditionedLambdas() {
		if _, done := r.isDone(sd.m, l); !done {
			todo = append(todo, l)
		}
	}
	if len(todo) == 0 {
		// A sweep killed between the last record and the removal leaves
		// the checkpoint behind.
		return removeIfAny(r.conditionedPath(sd.m))
	}
	if reason != "" {
		for _, l := range todo {
			rec := r.conditionedRecord(sd, l, constants)
			rec.Status, rec.FailReason, rec.Weights = records.StatusFailed, reason, ""
			if err := r.finish(&rec); err != nil {
				return err
			}
		}
		return nil
	}
	if !acquire(ctx, workers) {
		return ctx.Err()
	}
	defer func() { <-workers }()
	recs, err := r.trainConditioned(ctx, sd, constants, todo)
	if err != nil {
		return err
	}
	for k := range recs {
		if err := r.finish(&recs[k]); err != nil {
			return err
		}
	}
	return removeIfAny(r.conditionedPath(sd.m))
}

// conditionedEvery is how many epochs a conditioned network trains between
// checkpoints (CheckpointEvery; tests lower it to stop a short run after
// one).
var conditionedEvery = CheckpointEvery

// conditionedFile is a conditioned network's checkpoint: the sweep (its
// configuration's digest), the engine and the split whose network it is,
// and the network's state.
type conditionedFile struct {
	Config string                  `json:"config"`
	Engine string                  `json:"engine"`
	Split  int                     `json:"split"`
	State  *train.ConditionedState `json:"state"`
}

// conditionedPath is the checkpoint file of split m's conditioned network.
func (r *Runner) conditionedPath(m int) string {
	return runfolder.ConditionedCheckpointPath(r.out, m, r.cfg.Method, r.cfg.Penalty)
}

// conditionedCheckpoints returns how split m's conditioned network saves
// its state, and resumes from a saved one when the file holds the state of
// this sweep's network of the split on this engine; a file of another
// network is ignored (and overwritten by the first save), as a lockstep
// group's is.
func (r *Runner) conditionedCheckpoints(m int) (train.ConditionedCheckpoints, error) {
	path := r.conditionedPath(m)
	key := conditionedFile{Config: r.cfg.Digest(), Engine: r.engine.Name() + " " + r.engine.Version(), Split: m}
	ck := train.ConditionedCheckpoints{Every: conditionedEvery, Save: func(st *train.ConditionedState) error {
		f := key
		f.State = st
		return saveCheckpoint(path, f, st.Epoch)
	}}
	var f conditionedFile
	if found, err := readCheckpoint(path, &f, "network"); !found || err != nil {
		return ck, err
	}
	if f.Config == key.Config && f.Engine == key.Engine && f.Split == key.Split && f.State != nil {
		ck.From = f.State
	}
	return ck, nil
}

// conditionedRecord is the record of split sd's conditioned network at λ
// before it is scored.
func (r *Runner) conditionedRecord(sd *splitData, lambda float64, constants scalarize.Standardizer) records.Record {
	rec := r.baseRecord(sd, scalarize.Method(r.cfg.Method), lambda)
	rec.Conditioned = true
	rec.Epochs = r.cfg.conditionedEpochs()
	rec.Arch = r.cfg.conditionedArch()
	rec.EvalOnly = slices.Contains(r.evalOnly, lambda)
	rec.FiLMPenalty = r.cfg.FiLMPenalty // "" (after the modulation) or "before"
	rec.Weights = runfolder.ConditionedNetworkPath(r.cfg.Method, r.cfg.Penalty, sd.m)
	rec.RMin, rec.RMax, rec.UMin, rec.UMax = constants.RMin, constants.RMax, constants.UMin, constants.UMax
	return rec
}

// trainConditioned trains split sd's conditioned network, stores it and
// returns its records at the λ of todo. A diverged network gives failed
// records, not an error.
//
// The network's generator is its identity (seed, split, "conditioned",
// method): the MLP is drawn from it exactly as a plain network's is
// (model.Init), the conditioning network after it, and then the batch
// order and the dropout masks. The λ of each step comes from a generator of
// its own, so that the draw changes no other stream.
func (r *Runner) trainConditioned(ctx context.Context, sd *splitData, constants scalarize.Standardizer, todo []float64) ([]records.Record, error) {
	c := r.cfg
	arch, _ := model.ParseArch(c.conditionedArch())
	rng := newRand(c.Seed, "conditioned", sd.m, c.Method, 0)
	lambdaRng := newRand(c.Seed, "lambda-draw", sd.m, c.Method, 0)
	penalty, err := r.penalty()
	if err != nil {
		return nil, err
	}
	grid := interior(r.grid)
	schedule := train.Spread(grid, ScheduleLambdas)
	sampler, err := train.NewLambdaSampler(c.LambdaDraw, r.grid)
	if err != nil {
		return nil, err
	}
	init := model.Init(arch, sd.train.Dim, rng)
	film := model.NewFiLM(arch, c.FiLMWidth, c.FiLMOutput, rng)
	spec := train.Spec{
		Arch: arch, Dim: sd.train.Dim, BatchSize: min(c.Batch, sd.train.N), Dropout: c.Dropout,
		Init: init, FiLM: film, Objective: r.objective(grid[0], constants), Penalty: penalty, Risk: c.CustomRisk,
		FiLMPenalty: c.FiLMPenalty,
	}
	where := fmt.Sprintf("split %d, conditioned network", sd.m)
	tr, err := r.engine.NewTrainer(spec)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	ct, ok := tr.(train.ConditionedTrainer)
	if !ok { // Config.Validate refuses this before a run starts
		return nil, fmt.Errorf("%s: the %s engine cannot train a λ-conditioned network", where, r.engine.Name())
	}
	plain := spec
	plain.FiLM, plain.FiLMPenalty = nil, ""
	eval, err := train.NewEvaluator(r.engine, plain, sd.evalBlock())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	adam := optim.DefaultAdam
	adam.LR = c.LR
	plateau := optim.DefaultPlateau
	opt := train.ConditionedOptions{Options: train.Options{Epochs: c.conditionedEpochs(), Adam: adam, Plateau: &plateau},
		Sampler: sampler, PerStep: c.LambdasPerStep, Grid: schedule, Rows: scheduleRows(sd.train, c.ScheduleRows, newRand(c.Seed, "schedule-rows", sd.m, c.Method, 0)), Eval: eval}
	if c.ConditionedLR == ConditionedLRConstant {
		// The mean objective over the grid is still measured every epoch,
		// for divergence and the held-out rule; only the learning rate
		// stays where it starts.
		opt.Plateau = nil
	}
	if sd.val.N > 0 {
		opt.Holdout = &train.Holdout{Data: sd.val, Eval: eval, Objective: spec.Objective}
	}
	if opt.Checkpoints, err = r.conditionedCheckpoints(sd.m); err != nil {
		return nil, err
	}
	start := time.Now()
	res, fitErr := train.FitConditioned(ctx, ct, sd.train, opt, rng, lambdaRng)
	seconds := time.Since(start).Seconds()
	if errors.Is(fitErr, train.ErrSavedState) {
		return nil, fmt.Errorf("%s: %w (delete it to train the network from the start)", r.conditionedPath(sd.m), fitErr)
	}

	recs := make([]records.Record, len(todo))
	for k, l := range todo {
		recs[k] = r.conditionedRecord(sd, l, constants)
		recs[k].SkippedBatches = res.Skipped
		// The network's time is shared among the grid's λ it stands for;
		// the evaluation grid's others cost no training.
		if !recs[k].EvalOnly {
			recs[k].TrainSeconds = seconds / float64(len(grid))
		}
	}
	var div *train.DivergedError
	if errors.As(fitErr, &div) {
		for k := range recs {
			recs[k].Status, recs[k].FailEpoch, recs[k].FailReason, recs[k].Weights = records.StatusFailed, div.Epoch, div.Reason, ""
		}
		return recs, nil
	}
	if fitErr != nil {
		return nil, fitErr
	}
	f := model.NewConditionedFile(res.Net, sd.columns, sd.std.Mean, sd.std.SD)
	f.Card = r.card(&recs[0])
	f.Card.Lambda = 0 // the file holds every λ; its records give each one's metrics
	f.Card.Conditioned = true
	if err := r.saveNetwork(recs[0].Weights, f); err != nil {
		return nil, err
	}
	for k, l := range todo {
		rec := &recs[k]
		net := res.Net.At(l)
		fin, err := eval.Loss(net.Tensors(), sd.train)
		if err != nil {
			return nil, fmt.Errorf("%s at λ = %g: %w", where, l, err)
		}
		rec.TrainR, rec.TrainU = fin.R, fin.U
		if sd.val.N > 0 {
			v, err := eval.Loss(net.Tensors(), sd.val)
			if err != nil {
				return nil, fmt.Errorf("%s at λ = %g: validation: %w", where, l, err)
			}
			rec.ValR, rec.ValU, rec.KeptEpoch = &v.R, &v.U, res.Kept
		}
		if err := r.measure(rec, net, sd); err != nil {
			return nil, err
		}
	}
	return recs, nil
}

// scheduleRows is the fixed set of training rows the conditioned network's
// schedule is measured on: every row of d, or with most > 0 and fewer rows
// than d has, that many drawn without replacement by rng and kept in their
// order. Measuring on every row costs about an epoch per λ of the
// schedule (docs/method.md §12), most of a conditioned network's time on
// Adult; a sample bounds it.
func scheduleRows(d train.Data, most int, rng *rand.Rand) train.Data {
	if most <= 0 || most >= d.N {
		return d
	}
	idx := rng.Perm(d.N)[:most]
	slices.Sort(idx)
	return d.Rows(idx)
}
