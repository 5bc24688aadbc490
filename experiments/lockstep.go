package experiments

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// Lockstep groups (SPEC §5). A member's result depends only on the group's
// batch order and its own generator, never on which other members train
// beside it, so a group resumed with some members already done gives the
// others exactly the results of the uninterrupted group.

// orderStandardization names the batch order of a split's standardization group:
// the λ = 0 and λ = 1 runs are shared by the cheb and linear sweeps, as in
// the default mode, so their order does not depend on the method.
const orderStandardization = "standardization"

// trainGroup trains the candidates of objs on split sd in lockstep, on the
// batch order seeded from (seed, split, order, "lockstep"), and returns
// their scored and stored records with their training results. A member's
// divergence gives its failed record, not an error.
func (r *Runner) trainGroup(ctx context.Context, sd *splitData, objs []scalarize.Objective, order string) ([]records.Record, []train.Result, error) {
	ge, ok := r.engine.(train.GroupEngine)
	if !ok { // Config.Validate refuses this before a run starts
		return nil, nil, fmt.Errorf("the %s engine cannot train in lockstep", r.engine.Name())
	}
	cands := make([]*candidate, len(objs))
	specs := make([]train.Spec, len(objs))
	opts := make([]train.Options, len(objs))
	rngs := make([]*rand.Rand, len(objs))
	for k, obj := range objs {
		c, err := r.newCandidate(sd, obj)
		if err != nil {
			return nil, nil, err
		}
		cands[k], specs[k], opts[k], rngs[k] = c, c.spec, c.opt, c.rng
	}
	g, err := ge.NewGroup(specs)
	if err != nil {
		return nil, nil, fmt.Errorf("split %d: %w", sd.m, err)
	}
	start := time.Now()
	out, err := train.FitGroup(ctx, g, sd.train, opts, newRand(r.cfg.Seed, "lockstep", sd.m, order, 0), rngs)
	if err != nil {
		return nil, nil, fmt.Errorf("split %d: %w", sd.m, err)
	}
	// The group's time, shared equally: a member has no time of its own.
	secs := time.Since(start).Seconds() / float64(len(objs))
	recs := make([]records.Record, len(objs))
	res := make([]train.Result, len(objs))
	members := g.Members()
	for k, c := range cands {
		res[k] = out[k].Result
		if recs[k], err = r.trained(sd, c, members[k], out[k].Result, out[k].Err, secs); err != nil {
			return nil, nil, err
		}
	}
	return recs, res, nil
}

// standardizationGroup returns the records of a split's λ = 0 and λ = 1
// runs, training those not yet done together as one unit of work.
func (r *Runner) standardizationGroup(ctx context.Context, sd *splitData, workers chan struct{}) ([2]*records.Record, error) {
	var std [2]*records.Record
	methods := []scalarize.Method{scalarize.Risk, scalarize.Penalty}
	var todo []int
	for i, m := range methods {
		rec, err := r.storedStandardization(sd, m)
		if err != nil {
			return std, err
		}
		if std[i] = rec; rec == nil {
			todo = append(todo, i)
		}
	}
	if len(todo) == 0 {
		return std, nil
	}
	objs := make([]scalarize.Objective, len(todo))
	for j, i := range todo {
		objs[j] = standardizationObjective(methods[i])
	}
	if !acquire(ctx, workers) {
		return std, ctx.Err()
	}
	defer func() { <-workers }()
	recs, res, err := r.trainGroup(ctx, sd, objs, orderStandardization)
	if err != nil {
		return std, err
	}
	for j, i := range todo {
		if std[i], err = r.storeStandardization(sd, methods[i], recs[j], res[j]); err != nil {
			return std, err
		}
	}
	return std, nil
}

// lambdaGroup trains the split's λ of objs in lockstep as one unit of work
// and writes each record as the group ends.
func (r *Runner) lambdaGroup(ctx context.Context, sd *splitData, objs []scalarize.Objective, constants scalarize.Standardizer, workers chan struct{}) error {
	if len(objs) == 0 {
		return nil
	}
	if !acquire(ctx, workers) {
		return ctx.Err()
	}
	defer func() { <-workers }()
	recs, _, err := r.trainGroup(ctx, sd, objs, r.cfg.Method)
	if err != nil {
		return err
	}
	for k := range recs {
		rec := &recs[k]
		rec.RMin, rec.RMax, rec.UMin, rec.UMax = constants.RMin, constants.RMax, constants.UMin, constants.UMax
		if err := r.finish(rec); err != nil {
			return err
		}
	}
	return nil
}
