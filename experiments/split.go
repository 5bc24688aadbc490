package experiments

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// runSplit is Algorithm 1 on one split: propensity, the two standardization
// runs, then every other λ.
func (r *Runner) runSplit(ctx context.Context, m int, workers chan struct{}) error {
	sd, err := r.prepare(ctx, m, workers)
	if err != nil {
		return err
	}

	// λ = 0 minimises raw R and λ = 1 raw U; their mini-batch extremes are
	// the split's standardization constants. Each run's outcome is kept on
	// disk as soon as it ends, so an interruption never repeats it.
	var std [2]*records.Record
	var wg sync.WaitGroup
	errs := make([]error, 2)
	if r.cfg.Lockstep {
		std, errs[0] = r.standardizationGroup(ctx, sd, workers)
	} else {
		for i, method := range []scalarize.Method{scalarize.Risk, scalarize.Penalty} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				std[i], errs[i] = r.standardizationRun(ctx, sd, method, workers)
			}()
		}
		wg.Wait()
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	rec0, rec1 := *std[0], *std[1]
	rec0.UMin, rec0.UMax = rec1.UMin, rec1.UMax
	rec1.RMin, rec1.RMax = rec0.RMin, rec0.RMax
	for _, rec := range []*records.Record{&rec0, &rec1} {
		if _, ok := r.isDone(m, rec.Lambda); !ok {
			if err := r.finish(rec); err != nil {
				return err
			}
		}
	}

	constants := scalarize.Standardizer{RMin: rec0.RMin, RMax: rec0.RMax, UMin: rec1.UMin, UMax: rec1.UMax}
	var reason string
	switch {
	case !rec0.OK() || !rec1.OK():
		reason = fmt.Sprintf("split %d: a standardization run failed, so λ ∈ (0, 1) cannot be standardized", m)
	default:
		if err := constants.Validate(); err != nil {
			reason = fmt.Sprintf("split %d: %v", m, err)
		}
	}

	if r.cfg.Conditioned {
		return r.conditionedSplit(ctx, sd, constants, reason, workers)
	}

	errs = make([]error, len(r.grid))
	var group []scalarize.Objective // the λ that train in lockstep
	var groupDone []bool            // those of them recorded already
	for i, l := range r.grid {
		if l == 0 || l == 1 {
			continue
		}
		_, done := r.isDone(m, l)
		if r.cfg.Lockstep && reason == "" {
			// The whole group, its recorded members included: a member's
			// result depends on the group's shape (lockstep.go).
			group = append(group, r.objective(l, constants))
			groupDone = append(groupDone, done)
			continue
		}
		if done {
			continue
		}
		if reason != "" {
			rec := r.baseRecord(sd, scalarize.Method(r.cfg.Method), l)
			rec.RMin, rec.RMax, rec.UMin, rec.UMax = constants.RMin, constants.RMax, constants.UMin, constants.UMax
			rec.Status, rec.FailReason = records.StatusFailed, reason
			if err := r.finish(&rec); err != nil {
				return err
			}
			continue
		}
		obj := r.objective(l, constants)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !acquire(ctx, workers) {
				errs[i] = ctx.Err()
				return
			}
			defer func() { <-workers }()
			rec, _, err := r.trainCandidate(ctx, sd, obj)
			if err == nil {
				rec.RMin, rec.RMax, rec.UMin, rec.UMax = constants.RMin, constants.RMax, constants.UMin, constants.UMax
				err = r.finish(&rec)
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if err := r.lambdaGroup(ctx, sd, group, groupDone, constants, workers); err != nil {
		return err
	}
	if r.adaptive != nil {
		return r.runAdaptive(ctx, sd, constants, reason, workers)
	}
	return nil
}

// standardizationRun returns the record of the λ = 0 (Risk) or λ = 1
// (Penalty) run of a split, from the records, from its stored outcome, or by
// training it. Its own extremes are set (R for λ = 0, U for λ = 1).
func (r *Runner) standardizationRun(ctx context.Context, sd *splitData, method scalarize.Method, workers chan struct{}) (*records.Record, error) {
	rec, err := r.storedStandardization(sd, method)
	if rec != nil || err != nil {
		return rec, err
	}
	if !acquire(ctx, workers) {
		return nil, ctx.Err()
	}
	defer func() { <-workers }()
	trained, res, err := r.trainCandidate(ctx, sd, standardizationObjective(method))
	if err != nil {
		return nil, err
	}
	return r.storeStandardization(sd, method, trained, res)
}

// standardizationObjective is what the λ = 0 (Risk) or λ = 1 (Penalty) run
// minimises.
func standardizationObjective(method scalarize.Method) scalarize.Objective {
	if method == scalarize.Penalty {
		return scalarize.Objective{Method: method, Lambda: 1}
	}
	return scalarize.Objective{Method: method}
}

// storedStandardization returns the record of a split's λ = 0 or λ = 1 run
// from the records or its stored outcome; nil when it has yet to be trained.
func (r *Runner) storedStandardization(sd *splitData, method scalarize.Method) (*records.Record, error) {
	if rec, ok := r.isDone(sd.m, standardizationObjective(method).Lambda); ok {
		return rec, nil
	}
	return runfolder.ReadStandardization(r.out, sd.m, string(method))
}

// storeStandardization sets a trained standardization run's own extremes
// and keeps its outcome on disk.
func (r *Runner) storeStandardization(sd *splitData, method scalarize.Method, rec records.Record, res train.Result) (*records.Record, error) {
	if rec.OK() {
		if method == scalarize.Risk {
			rec.RMin, rec.RMax = res.RMin, res.RMax
		} else {
			rec.UMin, rec.UMax = res.UMin, res.UMax
		}
	}
	return &rec, runfolder.WriteStandardization(r.out, sd.m, string(method), &rec)
}

// EvalBlock is the most rows whose R and U are measured at once (train_r,
// val_r, …); larger parts are measured in blocks of this size.
const EvalBlock = 4096

// evalBlock is the block size in which the split's parts are measured: the
// validation part's size when one is kept, else the training rows', at most
// EvalBlock.
func (sd *splitData) evalBlock() int {
	n := sd.train.N
	if sd.val.N > 0 {
		n = sd.val.N
	}
	return min(n, EvalBlock)
}

// baseRecord fills what a record says about the candidate before training.
func (r *Runner) baseRecord(sd *splitData, method scalarize.Method, lambda float64) records.Record {
	c := r.cfg
	preset := c.Preset
	name := c.Dataset
	if c.CSV != "" {
		name = filepath.Base(c.CSV)
	}
	if preset == "" && r.data.Preset != "" {
		preset = r.data.Preset
	}
	rec := records.Record{
		Dataset: name, Preset: preset, Sensitive: r.sensitiveKey(),
		Method: c.Method, Penalty: c.Penalty, FamilyName: c.Family(), Rho: c.Rho, Lambdas: c.Lambdas, Split: sd.m, Lambda: lambda, Seed: c.Seed,
		Engine: r.engine.Name(), EngineVersion: r.engine.Version(), EngineMode: r.mode(),
		Arch: c.Arch, Batch: c.Batch, Epochs: c.Epochs,
		Dim: sd.train.Dim, NTrain: sd.train.N, NTest: len(sd.testY), NVal: sd.val.N,
		Status:  records.StatusOK,
		Weights: runfolder.NetworkPath(c.Method, c.Penalty, sd.m, lambda),
	}
	if n := len(sd.sel.y); n > 0 {
		rec.Selection = &records.Selection{NSel: n}
	}
	if r.cfg.groups > 2 {
		rec.GroupCounts = make(map[string]int, r.cfg.groups)
		for _, l := range r.data.Levels {
			rec.GroupCounts[l] = 0
		}
		for _, g := range sd.testZ {
			rec.GroupCounts[r.data.Levels[g]]++
		}
	}
	setOverlap(&rec, sd.overlap)
	return rec
}

// sensitiveKey is the records' sensitive key: the sensitive column, and
// for R > 2 groups the column(s) with the levels in code order,
// "race[African-American|Caucasian|Hispanic|other]".
func (r *Runner) sensitiveKey() string {
	if r.cfg.groups <= 2 {
		return r.data.Sensitive
	}
	cols := r.data.GroupColumns
	if len(cols) == 0 {
		cols = []string{r.data.Sensitive}
	}
	return strings.Join(cols, ",") + "[" + strings.Join(r.data.Levels, "|") + "]"
}

// evaluate scores logits z of the test rows (sel false) or the selection
// rows over their groups, with their overlap weights.
func (r *Runner) evaluate(z []float64, sd *splitData, sel bool) (fairness.Metrics, error) {
	if sel {
		return fairness.EvaluateLogits(z, sd.sel.y, sd.sel.z, sd.sel.w)
	}
	return fairness.EvaluateLogits(z, sd.testY, sd.testZ, sd.testW)
}

func (r *Runner) penalty() (train.Term, error) { return r.cfg.penalty() }

// objective is the sweep's scalarized objective at λ = l with the split's
// constants. The configuration was validated, so its scalarization exists.
func (r *Runner) objective(l float64, std scalarize.Standardizer) scalarize.Objective {
	s, _ := r.cfg.scalarization()
	return scalarize.Objective{Method: scalarize.Method(r.cfg.Method), Lambda: l, Std: std, Scalarization: s}
}

// candidate is one network of a split, ready to train: its record so far,
// its trainer's spec, its generator and its training options.
type candidate struct {
	obj  scalarize.Objective
	rec  records.Record
	spec train.Spec
	rng  *rand.Rand
	eval *train.Evaluator
	opt  train.Options
}

// newCandidate prepares the network of obj on split sd.
func (r *Runner) newCandidate(sd *splitData, obj scalarize.Objective) (*candidate, error) {
	c := r.cfg
	rec := r.baseRecord(sd, obj.Method, obj.Lambda)
	if obj.Method == scalarize.Risk || obj.Method == scalarize.Penalty {
		rec.Lambda = obj.Lambda
	}
	arch, _ := model.ParseArch(c.Arch)
	// The generator is the candidate's identity: (seed, split, what is
	// minimised, λ). The λ = 0 and λ = 1 runs minimise raw R and raw U,
	// which is why sweeps of different methods share them exactly.
	rng := newRand(c.Seed, "candidate", sd.m, string(obj.Method), obj.Lambda)
	penalty, err := r.penalty()
	if err != nil {
		return nil, err
	}
	pen := penalty
	if obj.Method == scalarize.Risk {
		pen = nil
	}
	batch := min(c.Batch, sd.train.N)
	spec := train.Spec{
		Arch: arch, Dim: sd.train.Dim, BatchSize: batch, Dropout: c.Dropout,
		Init: model.Init(arch, sd.train.Dim, rng), Objective: obj, Penalty: pen, Risk: r.cfg.CustomRisk,
	}
	// The evaluator measures R and U of whole parts in evaluation mode, U
	// even for λ = 0 (whose trainer has no penalty), in blocks of the same
	// size for the training and the validation part (U, a contrast, is
	// larger on fewer rows by noise alone).
	evalSpec := spec
	evalSpec.Penalty = penalty
	eval, err := train.NewEvaluator(r.engine, evalSpec, sd.evalBlock())
	if err != nil {
		return nil, fmt.Errorf("split %d, λ = %g: %w", sd.m, obj.Lambda, err)
	}
	adam := optim.DefaultAdam
	adam.LR = c.LR
	plateau := optim.DefaultPlateau
	opt := train.Options{Epochs: c.Epochs, Adam: adam, Plateau: &plateau}
	if sd.val.N > 0 {
		opt.Holdout = &train.Holdout{Data: sd.val, Eval: eval, Objective: obj}
	}
	return &candidate{obj: obj, rec: rec, spec: spec, rng: rng, eval: eval, opt: opt}, nil
}

// trainCandidate trains one network on obj, scores it on the test split and
// stores it. A diverged run gives a failed record, not an error.
func (r *Runner) trainCandidate(ctx context.Context, sd *splitData, obj scalarize.Objective) (records.Record, train.Result, error) {
	cand, err := r.newCandidate(sd, obj)
	if err != nil {
		return records.Record{}, train.Result{}, err
	}
	tr, err := r.engine.NewTrainer(cand.spec)
	if err != nil {
		return cand.rec, train.Result{}, fmt.Errorf("split %d, λ = %g: %w", sd.m, obj.Lambda, err)
	}
	start := time.Now()
	res, err := train.Fit(ctx, tr, sd.train, cand.opt, cand.rng)
	rec, err := r.trained(sd, cand, tr, res, err, time.Since(start).Seconds())
	return rec, res, err
}

// trained completes a candidate's record once its training has ended with
// fitErr after the given seconds: a diverged run gives a failed record, not
// an error; otherwise the network is measured, scored and stored.
func (r *Runner) trained(sd *splitData, cand *candidate, tr train.Trainer, res train.Result, fitErr error, seconds float64) (records.Record, error) {
	rec := cand.rec
	rec.TrainSeconds = seconds
	rec.SkippedBatches = res.Skipped
	var div *train.DivergedError
	if errors.As(fitErr, &div) {
		rec.Status, rec.FailEpoch, rec.FailReason = records.StatusFailed, div.Epoch, div.Reason
		rec.Weights = ""
		return rec, nil
	}
	if fitErr != nil {
		return rec, fitErr
	}
	fin, err := cand.eval.Loss(tr.Params(), sd.train)
	if err != nil {
		return rec, fmt.Errorf("split %d, λ = %g: %w", sd.m, cand.obj.Lambda, err)
	}
	rec.TrainR, rec.TrainU = fin.R, fin.U
	if res.Val != nil {
		rec.ValR, rec.ValU, rec.KeptEpoch = &res.Val.R, &res.Val.U, res.Kept
	}
	if err := r.score(&rec, tr.Network(), sd); err != nil {
		return rec, err
	}
	return rec, nil
}

// score evaluates a trained network on the test split, fills the record's
// metrics and stores the network.
func (r *Runner) score(rec *records.Record, net *model.Params, sd *splitData) error {
	if err := r.measure(rec, net, sd); err != nil || !rec.OK() {
		return err
	}
	f := model.NewFile(net, sd.columns, sd.std.Mean, sd.std.SD)
	f.Card = r.card(rec)
	f.Card.Test = model.Metrics{Risk: rec.Risk, Accuracy: rec.Accuracy, ATO: rec.ATO, DP: rec.DP, EO: rec.EO, EOpp: rec.EOpp}
	return r.saveNetwork(rec.Weights, f)
}

// card is the model card of the network behind rec.
func (r *Runner) card(rec *records.Record) *model.Card {
	var levels, cols, groupMap []string
	if r.cfg.groups > 2 {
		levels, cols, groupMap = r.data.Levels, r.data.GroupColumns, r.cfg.GroupMap
		if len(cols) == 0 {
			cols = []string{r.data.Sensitive}
		}
	}
	return &model.Card{Levels: levels, GroupColumns: cols, GroupMap: groupMap,
		Dataset: rec.Dataset, Preset: rec.Preset, Sensitive: rec.Sensitive, Method: rec.Method, Penalty: rec.Penalty,
		Lambda: rec.Lambda, Split: rec.Split, Seed: rec.Seed, Engine: rec.Engine, Epochs: rec.Epochs,
		Config: r.cfg.Digest(), Version: model.Version(),
	}
}

// saveNetwork stores a network file, with the data's schema, at rel under
// the output folder.
func (r *Runner) saveNetwork(rel string, f *model.File) error {
	schema := r.data.Schema
	f.Schema = &schema
	path := filepath.Join(r.out, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return model.Save(path, f)
}

// measure evaluates a trained network on the test split (and the
// selection rows) and fills the record's metrics; a metric that is not
// finite fails the record.
func (r *Runner) measure(rec *records.Record, net *model.Params, sd *splitData) error {
	n := len(sd.testY)
	z := make([]float64, n)
	net.Forward(sd.testX, n, z)
	met, err := r.evaluate(z, sd, false)
	if err != nil {
		return fmt.Errorf("split %d, λ = %g: evaluation: %w", sd.m, rec.Lambda, err)
	}
	dec, err := r.decide(z, sd, false)
	if err != nil {
		return fmt.Errorf("split %d, λ = %g: decision metrics: %w", sd.m, rec.Lambda, err)
	}
	rec.Risk, rec.Accuracy, rec.ATO, rec.DP, rec.EO, rec.EOpp = met.Risk, dec.Accuracy, met.ATO, met.DP, met.EO, met.EOpp
	rec.Decision = &records.Decision{DPDiff: dec.DPDiff, DPRatio: dec.DPRatio, EODiff: dec.EODiff, EOppDiff: dec.EOppDiff}
	rec.Threshold = r.cfg.Threshold
	ms := dec.MajorityShare()
	rec.MajorityShare = &ms
	spread := scoreSD(z)
	rec.Collapsed, rec.NearConstant = spread < collapsedSD, spread < nearConstantSD
	rec.SingleClass = singleClass(z)
	values := []float64{met.Risk, met.Accuracy, met.ATO, met.DP, met.EO, met.EOpp}
	if n := len(sd.sel.y); n > 0 {
		zs := make([]float64, n)
		net.Forward(sd.sel.x, n, zs)
		sm, err := r.evaluate(zs, sd, true)
		if err != nil {
			return fmt.Errorf("split %d, λ = %g: evaluation on the selection rows: %w", sd.m, rec.Lambda, err)
		}
		sdec, err := r.decide(zs, sd, true)
		if err != nil {
			return fmt.Errorf("split %d, λ = %g: decision metrics on the selection rows: %w", sd.m, rec.Lambda, err)
		}
		base := baseRate(sd.train.Y, sd.val.Y)
		scr, sce := constRisk(sd.sel.y, base), constError(sd.sel.y, base)
		sms := sdec.MajorityShare()
		rec.Selection = &records.Selection{SelRisk: sm.Risk, SelAccuracy: sdec.Accuracy, SelATO: sm.ATO,
			SelDP: sm.DP, SelEO: sm.EO, SelEOpp: sm.EOpp, NSel: n,
			SelSingleClass: singleClass(zs), SelNearConstant: scoreSD(zs) < nearConstantSD, SelConstRisk: &scr, SelConstError: &sce, SelMajorityShare: &sms,
			SelDecision: &records.SelDecision{SelDPDiff: sdec.DPDiff, SelDPRatio: sdec.DPRatio, SelEODiff: sdec.EODiff, SelEOppDiff: sdec.EOppDiff}}
		values = append(values, sm.Risk, sm.Accuracy, sm.ATO, sm.DP, sm.EO, sm.EOpp)
	}
	for k, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			rec.Status, rec.FailReason = records.StatusFailed, "a test metric is not finite"
			if k >= 6 {
				rec.FailReason = "a selection metric is not finite"
			}
			rec.Risk, rec.Accuracy, rec.ATO, rec.DP, rec.EO, rec.EOpp = 0, 0, 0, 0, 0, 0
			rec.Decision, rec.MajorityShare = nil, nil
			if rec.Selection != nil {
				rec.Selection = &records.Selection{NSel: rec.NSel}
			}
			rec.Weights = ""
			return nil
		}
	}
	base := baseRate(sd.train.Y, sd.val.Y)
	cr, ce := constRisk(sd.testY, base), constError(sd.testY, base)
	rec.ConstRisk, rec.ConstError = &cr, &ce
	return nil
}

// decide computes the decision metrics of logits z on the test rows (or
// the selection rows) at the sweep's threshold.
func (r *Runner) decide(z []float64, sd *splitData, sel bool) (fairness.Decision, error) {
	y, groups := sd.testY, sd.testZ
	if sel {
		y, groups = sd.sel.y, sd.sel.z
	}
	return fairness.DecideLogits(z, y, groups, r.cfg.threshold())
}

// singleClass reports a network that predicts one class for every row: all
// logits on one side of 0 (probability 0.5).
func singleClass(z []float64) bool {
	pos := 0
	for _, v := range z {
		if v > 0 {
			pos++
		}
	}
	return pos == 0 || pos == len(z)
}

// Thresholds on the standard deviation of the predicted probabilities on
// the test rows (docs/method.md §7): below collapsedSD a network is a
// constant predictor, below nearConstantSD it is near-constant.
const (
	collapsedSD    = 1e-6
	nearConstantSD = 1e-3
)

// scoreSD is the population standard deviation of the predicted
// probabilities of logits z.
func scoreSD(z []float64) float64 {
	var s, ss float64
	for _, v := range z {
		p := model.Sigmoid(v)
		s += p
		ss += p * p
	}
	n := float64(len(z))
	mean := s / n
	return math.Sqrt(math.Max(0, ss/n-mean*mean))
}

// baseRate is the share of y = 1 over the rows of parts together: the
// rows trained on and the validation part make up the training split.
func baseRate(parts ...[]float64) float64 {
	var pos, n float64
	for _, ys := range parts {
		for _, y := range ys {
			pos += y
		}
		n += float64(len(ys))
	}
	return pos / n
}

// constError is the error on labels y of the constant predictor at base
// rate p: it predicts 1 for every row when p ≥ 0.5 (as a probability p
// does at the default threshold), else 0.
func constError(y []float64, p float64) float64 {
	var wrong float64
	for _, v := range y {
		if (p >= 0.5) != (v == 1) {
			wrong++
		}
	}
	return wrong / float64(len(y))
}

// constRisk is the mean log-loss on labels y of the constant predictor of
// probability p, clipped to [1e-15, 1 − 1e-15] so that a training split of
// one class gives a finite risk.
func constRisk(y []float64, p float64) float64 {
	p = math.Min(math.Max(p, 1e-15), 1-1e-15)
	var s float64
	for _, v := range y {
		s -= v*math.Log(p) + (1-v)*math.Log(1-p)
	}
	return s / float64(len(y))
}
