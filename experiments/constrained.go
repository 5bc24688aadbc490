package experiments

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"time"

	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/groupthresholds"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/reductions"
	"github.com/fpareto/fp/runfolder"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// The two methods that trade accuracy against a constraint on decisions
// (docs/method.md §13): group thresholds on each split's λ = 0 network
// (post-processing, which reads the sensitive attribute at prediction
// time) and the reductions approach's grid search (networks trained on
// cost-sensitive relabellings of the training rows, which do not).

// constrained reports whether the sweep's method is thresholds or
// reductions.
func (c Config) constrained() bool {
	return c.Method == MethodThresholds || c.Method == MethodReductions
}

// constraintPenalty is the penalty whose value a constrained sweep's
// records carry as train_u and val_u: the constraint's gap of the mean
// probabilities.
func constraintPenalty(constraint string) string {
	if constraint == runfolder.ConstraintEO {
		return penalties.NameEOMean
	}
	return penalties.NameDPMean
}

// checkConstrained refuses the settings of the thresholds and reductions
// methods that cannot go together, and theirs given to another method, one
// reason each.
func (c Config) checkConstrained() error {
	if !c.constrained() {
		switch {
		case c.Constraint != "":
			return fieldErr("constraint", "%q: the constraint applies to --method thresholds or reductions only", c.Constraint)
		case c.BaseRun != "":
			return fieldErr("base_run", "%q: a base run applies to --method thresholds only", c.BaseRun)
		}
		return nil
	}
	switch {
	case c.Constraint != "" && c.Constraint != runfolder.ConstraintDP && c.Constraint != runfolder.ConstraintEO:
		return fieldErr("constraint", "%q, want dp or eo (\"\": dp)", c.Constraint)
	case c.BaseRun != "" && c.Method != MethodThresholds:
		return fieldErr("base_run", "%q: a base run applies to --method thresholds only", c.BaseRun)
	case c.CustomPenalty != nil || c.CustomScalarization != nil:
		return fieldErr("method", "the %s method trains on the risk alone: leave out the custom penalty and scalarization", c.Method)
	case c.Conditioned:
		return fieldErr("conditioned", "the %s method trains one network per split or per multiplier and cannot be λ-conditioned", c.Method)
	case scalarize.IsAdaptive(c.Lambdas):
		return fieldErr("lambdas", "%q: the adaptive grid places λ by the standardized R and U of cheb and linear sweeps; give the %s method a fixed grid", c.Lambdas, c.Method)
	case c.Method == MethodThresholds && c.Threshold != 0:
		return fieldErr("threshold", "%g: the thresholds method fits a threshold per group; leave out --threshold", c.Threshold)
	}
	return nil
}

// checkBaseRun refuses a base run of other rows or splits than the sweep's,
// in one line.
func (c Config) checkBaseRun() error {
	if c.BaseRun == "" {
		return nil
	}
	base, err := runfolder.ReadConfig(c.BaseRun)
	if err != nil {
		return fieldErr("base_run", "%s: %v: give the run folder of a sweep on the same data and seed", c.BaseRun, err)
	}
	switch {
	case base.DataID != c.DataID:
		return fieldErr("base_run", "%s has other rows (data_id %s, this sweep's %s): give a run of the same data, or leave out --base-run to train the λ = 0 networks", c.BaseRun, base.DataID, c.DataID)
	case base.Seed != c.Seed:
		return fieldErr("base_run", "%s was split with seed %d, this sweep with %d: give --seed %d or another run", c.BaseRun, base.Seed, c.Seed, base.Seed)
	case base.Splits < c.Splits:
		return fieldErr("base_run", "%s has %d splits, this sweep %d: give --splits %d or fewer", c.BaseRun, base.Splits, c.Splits, base.Splits)
	case base.TrainFraction != c.TrainFraction || base.TrainSize != c.TrainSize || base.TestSize != c.TestSize || base.SelectFraction != c.SelectFraction:
		return fieldErr("base_run", "%s splits its rows otherwise (train and test sizes or selection share): give the same split settings", c.BaseRun)
	}
	return nil
}

// splitGroups are the group codes of data rows whose attribute is a (0/1,
// or the group codes of R > 2 groups).
func splitGroups(a []float64) []int {
	g := make([]int, len(a))
	for i, v := range a {
		g[i] = int(v)
	}
	return g
}

// groupCount is R: 2 for a binary attribute.
func (r *Runner) groupCount() int { return max(2, r.cfg.groups) }

// runReductionsSplit trains one network per multiplier of the grid on a
// split: the Lagrangian's best response, a network trained on the
// relabelled, reweighted training rows (docs/method.md §13.2).
func (r *Runner) runReductionsSplit(ctx context.Context, m int, workers chan struct{}) error {
	sd, err := r.prepare(ctx, m, workers)
	if err != nil {
		return err
	}
	mom, err := reductions.NewMoment(r.cfg.Constraint, sd.train.Y, splitGroups(sd.train.A), r.groupCount())
	if err != nil {
		return fmt.Errorf("split %d: %w", m, err)
	}
	grid := reductions.Grid(len(r.grid), mom.Dim(), reductions.GridLimit)
	return r.eachLambda(ctx, m, workers, func(i int, l float64) (records.Record, error) {
		return r.trainReduction(ctx, sd, mom, l, grid[i])
	})
}

// relabelled is d with the labels and row weights of the cost-sensitive
// problem at multipliers mult.
func relabelled(mom *reductions.Moment, mult []float64, d train.Data) (train.Data, error) {
	labels, w, err := mom.Costs(mult, d.Y, splitGroups(d.A))
	if err != nil {
		return d, err
	}
	d.Y, d.RW = labels, w
	return d, nil
}

// trainReduction trains the network of the multipliers mult (the grid's
// point for λ = l) and scores it as any candidate.
func (r *Runner) trainReduction(ctx context.Context, sd *splitData, mom *reductions.Moment, l float64, mult []float64) (records.Record, error) {
	c := r.cfg
	cand, err := r.newCandidate(sd, scalarize.Objective{Method: scalarize.Risk})
	if err != nil {
		return records.Record{}, err
	}
	cand.rec.Lambda, cand.rec.Multipliers = l, mult
	cand.rec.Weights = runfolder.NetworkPath(c.Method, c.Penalty, sd.m, l)
	// The candidate's own generator: (seed, split, the method, λ).
	cand.rng = newRand(c.Seed, "candidate", sd.m, c.Method, l)
	cand.spec.Init = model.Init(cand.spec.Arch, sd.train.Dim, cand.rng)
	fit, err := relabelled(mom, mult, sd.train)
	if err != nil {
		return cand.rec, fmt.Errorf("split %d, λ = %g: %w", sd.m, l, err)
	}
	if cand.opt.Holdout != nil {
		// Held-out stopping on the same cost-sensitive problem.
		val, err := relabelled(mom, mult, sd.val)
		if err != nil {
			return cand.rec, fmt.Errorf("split %d, λ = %g: validation part: %w", sd.m, l, err)
		}
		cand.opt.Holdout.Data = val
	}
	tr, err := r.engine.NewTrainer(cand.spec)
	if err != nil {
		return cand.rec, fmt.Errorf("split %d, λ = %g: %w", sd.m, l, err)
	}
	start := time.Now()
	res, err := train.Fit(ctx, tr, fit, cand.opt, cand.rng)
	rec, err := r.trained(sd, cand, tr, res, err, time.Since(start).Seconds())
	if err != nil || !rec.OK() || sd.val.N == 0 {
		return rec, err
	}
	// The validation part's R and U of the kept network on its own labels,
	// as every record's are: the relabelled problem's were what stopping
	// read.
	v, err := cand.eval.Loss(tr.Params(), sd.val)
	if err != nil {
		return rec, fmt.Errorf("split %d, λ = %g: %w", sd.m, l, err)
	}
	rec.ValR, rec.ValU = &v.R, &v.U
	return rec, nil
}

// base is a split's λ = 0 network and what its records say of it.
type base struct {
	net *model.Params
	rec records.Record
}

// runThresholdsSplit fits group thresholds for every λ of the grid to the
// split's λ = 0 network (docs/method.md §13.1).
func (r *Runner) runThresholdsSplit(ctx context.Context, m int, workers chan struct{}) error {
	sd, err := r.prepare(ctx, m, workers)
	if err != nil {
		return err
	}
	b, err := r.thresholdsBase(ctx, sd, workers)
	if err != nil {
		return err
	}
	// Fitted on the validation part when there is one, else on the rows the
	// network trained on: never on the selection or test rows.
	fit := sd.train
	if sd.val.N > 0 {
		fit = sd.val
	}
	z := make([]float64, fit.N)
	b.net.Forward(fit.X, fit.N, z)
	rows := groupthresholds.Rows{P: sigmoids(z), Y: fit.Y, G: splitGroups(fit.A), Groups: r.groupCount()}
	rules, err := groupthresholds.Fit(rows, r.cfg.Constraint, r.grid)
	if err != nil {
		return fmt.Errorf("split %d: group thresholds: %w", m, err)
	}
	for i, l := range r.grid {
		if _, ok := r.isDone(m, l); ok {
			continue
		}
		rec, err := r.thresholdsCandidate(sd, b, l, rules[i])
		if err == nil {
			err = r.finish(&rec)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// thresholdsBase is the split's λ = 0 network: the base run's, or one
// trained as a sweep's λ = 0 network is (same generator, so the same
// network as a sweep of the same settings trains), stored as
// networks/split-NNN/base-lambda-0.json.
func (r *Runner) thresholdsBase(ctx context.Context, sd *splitData, workers chan struct{}) (*base, error) {
	obj := standardizationObjective(scalarize.Risk)
	if r.cfg.BaseRun != "" {
		return r.loadBase(sd, obj)
	}
	if !acquire(ctx, workers) {
		return nil, ctx.Err()
	}
	defer func() { <-workers }()
	cand, err := r.newCandidate(sd, obj)
	if err != nil {
		return nil, err
	}
	cand.rec.Weights = runfolder.NetworkPath("base", "", sd.m, 0)
	tr, err := r.engine.NewTrainer(cand.spec)
	if err != nil {
		return nil, fmt.Errorf("split %d, λ = 0: %w", sd.m, err)
	}
	start := time.Now()
	res, err := train.Fit(ctx, tr, sd.train, cand.opt, cand.rng)
	rec, err := r.trained(sd, cand, tr, res, err, time.Since(start).Seconds())
	if err != nil {
		return nil, err
	}
	if !rec.OK() {
		return nil, fmt.Errorf("split %d: the λ = 0 network failed (%s): no network to fit thresholds to", sd.m, rec.FailReason)
	}
	return &base{net: tr.Network(), rec: rec}, nil
}

// loadBase reads split sd.m's λ = 0 network from the base run, and
// measures its train_r and train_u on the split's rows.
func (r *Runner) loadBase(sd *splitData, obj scalarize.Objective) (*base, error) {
	dir := r.cfg.BaseRun
	recs, err := runfolder.ReadRecords(dir)
	if err != nil {
		return nil, err
	}
	for i := range recs {
		rec := &recs[i]
		if rec.Split != sd.m || rec.Lambda != 0 || !rec.OK() || rec.Weights == "" || rec.Conditioned ||
			rec.Family() != records.FamilyPenalty {
			continue
		}
		f, err := model.Load(filepath.Join(dir, rec.Weights))
		if err != nil {
			return nil, err
		}
		net, err := f.Params()
		if err != nil {
			return nil, err
		}
		if f.Dim != sd.train.Dim || (len(f.Features) > 0 && fmt.Sprint(f.Features) != fmt.Sprint(sd.columns)) {
			return nil, fmt.Errorf("base run %s: split %d's network reads other features (%d inputs, the sweep's data %d): give the same --features or --exclude", dir, sd.m, f.Dim, sd.train.Dim)
		}
		cand, err := r.newCandidate(sd, obj)
		if err != nil {
			return nil, err
		}
		fin, err := cand.eval.Loss(net.Tensors(), sd.train)
		if err != nil {
			return nil, err
		}
		b := &base{net: net, rec: cand.rec}
		b.rec.TrainR, b.rec.TrainU, b.rec.TrainSeconds, b.rec.KeptEpoch = fin.R, fin.U, rec.TrainSeconds, rec.KeptEpoch
		if sd.val.N > 0 {
			v, err := cand.eval.Loss(net.Tensors(), sd.val)
			if err != nil {
				return nil, err
			}
			b.rec.ValR, b.rec.ValU = &v.R, &v.U
		}
		return b, nil
	}
	return nil, fmt.Errorf("base run %s has no successful λ = 0 network of split %d: give a sweep whose grid holds λ = 0", dir, sd.m)
}

// thresholdsCandidate scores the base network with the rules of λ = l: its
// probability metrics are the base network's, its accuracy and decision
// metrics those of the rules' decisions P(ŷ = 1 | x, a); it is stored as a
// fp-network/4 file.
func (r *Runner) thresholdsCandidate(sd *splitData, b *base, l float64, rules []model.ThresholdRule) (records.Record, error) {
	c := r.cfg
	rec := r.baseRecord(sd, MethodThresholds, l)
	rec.UsesSensitive = true
	rec.TrainSeconds, rec.TrainR, rec.TrainU = b.rec.TrainSeconds, b.rec.TrainR, b.rec.TrainU
	rec.ValR, rec.ValU, rec.KeptEpoch = b.rec.ValR, b.rec.ValU, b.rec.KeptEpoch
	if err := r.measure(&rec, b.net, sd); err != nil || !rec.OK() {
		return rec, err
	}
	gt := &model.GroupThresholds{Constraint: c.Constraint, Lambda: l, Levels: r.levels(), Rules: rules}
	decide := func(x, y []float64, groups []int) (fairness.Decision, bool, error) {
		z := make([]float64, len(y))
		b.net.Forward(x, len(y), z)
		d, err := gt.DecideAll(sigmoids(z), groups)
		if err != nil {
			return fairness.Decision{}, false, err
		}
		dec, err := fairness.DecideRandomized(d, y, groups)
		return dec, oneDecision(d), err
	}
	groups, err := r.groupsOf(sd.testA, sd.testZ)
	if err != nil {
		return rec, fmt.Errorf("split %d: %w", sd.m, err)
	}
	dec, single, err := decide(sd.testX, sd.testY, groups)
	if err != nil {
		return rec, fmt.Errorf("split %d, λ = %g: decision metrics: %w", sd.m, l, err)
	}
	rec.Accuracy, rec.SingleClass = dec.Accuracy, single
	rec.Decision = &records.Decision{DPDiff: dec.DPDiff, DPRatio: dec.DPRatio, EODiff: dec.EODiff, EOppDiff: dec.EOppDiff}
	ms := dec.MajorityShare()
	rec.MajorityShare = &ms
	if rec.Selection != nil && len(sd.sel.y) > 0 {
		sgroups, err := r.groupsOf(sd.sel.a, sd.sel.z)
		if err != nil {
			return rec, fmt.Errorf("split %d: selection rows: %w", sd.m, err)
		}
		sdec, ssingle, err := decide(sd.sel.x, sd.sel.y, sgroups)
		if err != nil {
			return rec, fmt.Errorf("split %d, λ = %g: decision metrics on the selection rows: %w", sd.m, l, err)
		}
		sel := *rec.Selection
		sel.SelAccuracy, sel.SelSingleClass = sdec.Accuracy, ssingle
		sms := sdec.MajorityShare()
		sel.SelMajorityShare = &sms
		sel.SelDecision = &records.SelDecision{SelDPDiff: sdec.DPDiff, SelDPRatio: sdec.DPRatio, SelEODiff: sdec.EODiff, SelEOppDiff: sdec.EOppDiff}
		rec.Selection = &sel
	}
	for _, v := range []float64{dec.Accuracy, dec.DPDiff, dec.EODiff} {
		if math.IsNaN(v) {
			return rec, fmt.Errorf("split %d, λ = %g: a decision metric is not finite", sd.m, l)
		}
	}
	f := model.NewFile(b.net, sd.columns, sd.std.Mean, sd.std.SD)
	f.Format = model.FileFormatThresholds
	f.GroupThresholds = gt
	f.Card = r.card(&rec)
	f.Card.Test = model.Metrics{Risk: rec.Risk, Accuracy: rec.Accuracy, ATO: rec.ATO, DP: rec.DP, EO: rec.EO, EOpp: rec.EOpp}
	return rec, r.saveNetwork(rec.Weights, f)
}

// levels names the groups in code order: the levels of R > 2 groups, and
// for two the sensitive attribute's codes.
func (r *Runner) levels() []string {
	if r.cfg.groups > 2 {
		return r.data.Levels
	}
	return []string{"0", "1"}
}

// groupsOf are the group codes of rows with binary attribute a or, for
// R > 2 groups, groups z.
func (r *Runner) groupsOf(a []float64, z []int) ([]int, error) {
	if r.cfg.groups > 2 {
		return z, nil
	}
	return fairness.BinaryGroups(a)
}

// oneDecision reports decisions that are all on one side of 1/2: every
// row more likely selected, or every row more likely not.
func oneDecision(d []float64) bool {
	pos := 0
	for _, v := range d {
		if v >= 0.5 {
			pos++
		}
	}
	return pos == 0 || pos == len(d)
}

// sigmoids are the probabilities of logits z.
func sigmoids(z []float64) []float64 {
	p := make([]float64, len(z))
	for i, v := range z {
		p[i] = model.Sigmoid(v)
	}
	return p
}
