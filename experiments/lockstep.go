package experiments

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"slices"
	"time"

	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// Lockstep groups (docs/method.md §5.4). A member's result depends on the group's batch
// order, its own generator and the group's shape: the engine computes the
// members' first layers in one product, and width-4 members four to a
// vector, so the rounding of a member's sums depends on how many members
// the group has and where the member sits. A group resumed with some
// members already done is therefore built whole, as it was first, with
// the done members marked (train.Checkpoints.Done): they train no more,
// and the others get exactly the results of the uninterrupted group.

// orderStandardization names the batch order of a split's standardization group:
// the λ = 0 and λ = 1 runs are shared by the cheb and linear sweeps, as
// when networks train one after another, so their order does not depend
// on the method.
const orderStandardization = "standardization"

// trainGroup trains the candidates of objs on split sd in lockstep, on the
// batch order seeded from (seed, split, order, "lockstep"), and returns
// their scored and stored records with their training results, except for
// the members with done[k], whose entries are left zero. A member's
// divergence gives its failed record, not an error.
func (r *Runner) trainGroup(ctx context.Context, sd *splitData, objs []scalarize.Objective, done []bool, order string) ([]records.Record, []train.Result, error) {
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
		// One draw of the member's generator per mask: at the COMPAS
		// shape one draw per entry costs as much as the step.
		opts[k].BlockMasks = true
	}
	g, err := ge.NewGroup(specs)
	if err != nil {
		return nil, nil, fmt.Errorf("split %d: %w", sd.m, err)
	}
	ck, err := r.groupCheckpoints(sd.m, order, objs, done)
	if err != nil {
		return nil, nil, err
	}
	start := time.Now()
	out, err := train.FitGroup(ctx, g, sd.train, opts, newRand(r.cfg.Seed, "lockstep", sd.m, order, 0), rngs, ck)
	if err != nil {
		return nil, nil, fmt.Errorf("split %d: %w", sd.m, err)
	}
	// The group's time, shared equally among the members it trained: a
	// member has no time of its own.
	secs := time.Since(start).Seconds() / float64(len(objs)-count(ck.Done))
	recs := make([]records.Record, len(objs))
	res := make([]train.Result, len(objs))
	members := g.Members()
	for k, c := range cands {
		if done[k] {
			continue
		}
		res[k] = out[k].Result
		if recs[k], err = r.trained(sd, c, members[k], out[k].Result, out[k].Err, secs); err != nil {
			return nil, nil, err
		}
	}
	return recs, res, nil
}

// CheckpointEvery is how many epochs a lockstep group, or a λ-conditioned
// network, trains between the checkpoints of its state: an interruption
// loses at most this many epochs of it.
const CheckpointEvery = 50

// checkpointSaved, when set (by tests), is told of every checkpoint saved,
// a lockstep group's or a conditioned network's.
var checkpointSaved func(path string, epoch int)

// groupFile is a lockstep group's checkpoint: the λ of its members, which
// of them were done (their state is not trained), and their state.
type groupFile struct {
	Lambdas []float64         `json:"lambdas"`
	Done    []bool            `json:"done,omitempty"`
	State   *train.GroupState `json:"state"`
}

// groupCheckpoints returns how the group of objs on split m, ordered by
// order, saves its state, and resumes from a saved one when the file holds
// a state of the same members, each member to be trained trained in it.
// The members done (recorded) train no more only when the group resumes
// from such a state, where theirs is the state they were recorded from;
// without one the group trains whole, as when none of it was recorded,
// and the done members' outcomes, the same as recorded, are not stored
// again. (A done member without a state has none worth keeping in a
// checkpoint: its untrained network and a scheduler that never stepped.)
func (r *Runner) groupCheckpoints(m int, order string, objs []scalarize.Objective, done []bool) (train.Checkpoints, error) {
	path := r.groupPath(m, order)
	lambdas := make([]float64, len(objs))
	for k, o := range objs {
		lambdas[k] = o.Lambda
	}
	ck := train.Checkpoints{Every: CheckpointEvery}
	ck.Save = func(st *train.GroupState) error {
		return saveCheckpoint(path, groupFile{Lambdas: lambdas, Done: ck.Done, State: st}, st.Epoch)
	}
	var f groupFile
	if found, err := readCheckpoint(path, &f, "group"); !found || err != nil {
		return ck, err
	}
	// Another group starts over, and so does a group one of whose members
	// to be trained was done when the state was saved (its state there is
	// the untrained one): the outcome is the same, only later.
	if slices.Equal(f.Lambdas, lambdas) && f.State != nil && covers(done, f.Done) {
		ck.From, ck.Done = f.State, done
	}
	return ck, nil
}

// covers reports whether every member done in saved (nil: none) is done
// in now.
func covers(now, saved []bool) bool {
	if saved == nil {
		return true
	}
	if len(saved) != len(now) {
		return false
	}
	for k, d := range saved {
		if d && !now[k] {
			return false
		}
	}
	return true
}

// count is the number of true flags.
func count(flags []bool) int {
	n := 0
	for _, f := range flags {
		if f {
			n++
		}
	}
	return n
}

// saveCheckpoint writes checkpoint v, the state after epoch, to path
// atomically and tells the test hook.
func saveCheckpoint(path string, v any, epoch int) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := writeAtomic(path, b); err != nil {
		return err
	}
	if checkpointSaved != nil {
		checkpointSaved(path, epoch)
	}
	return nil
}

// readCheckpoint reads the checkpoint at path into v; found is false when
// there is none. A file that is not a checkpoint is an error naming it and
// saying that deleting it trains the what (group, network) from the start.
func readCheckpoint(path string, v any, what string) (found bool, err error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return false, fmt.Errorf("%s: %w (delete it to train the %s from the start)", path, err, what)
	}
	return true, nil
}

// groupPath is the checkpoint file of split m's group ordered by order; it
// is removed once the group's outcomes are written.
func (r *Runner) groupPath(m int, order string) string {
	return runfolder.GroupCheckpointPath(r.out, m, order)
}

// standardizationGroup returns the records of a split's λ = 0 and λ = 1
// runs, training those not yet done together as one unit of work.
func (r *Runner) standardizationGroup(ctx context.Context, sd *splitData, workers chan struct{}) ([2]*records.Record, error) {
	var std [2]*records.Record
	methods := []scalarize.Method{scalarize.Risk, scalarize.Penalty}
	objs := make([]scalarize.Objective, len(methods))
	done := make([]bool, len(methods))
	for i, m := range methods {
		rec, err := r.storedStandardization(sd, m)
		if err != nil {
			return std, err
		}
		std[i], done[i], objs[i] = rec, rec != nil, standardizationObjective(m)
	}
	if !slices.Contains(done, false) {
		return std, nil
	}
	if !acquire(ctx, workers) {
		return std, ctx.Err()
	}
	defer func() { <-workers }()
	recs, res, err := r.trainGroup(ctx, sd, objs, done, orderStandardization)
	if err != nil {
		return std, err
	}
	for i := range methods {
		if done[i] {
			continue
		}
		if std[i], err = r.storeStandardization(sd, methods[i], recs[i], res[i]); err != nil {
			return std, err
		}
	}
	return std, removeIfAny(r.groupPath(sd.m, orderStandardization))
}

// lambdaGroup trains the split's λ of objs, the whole group, in lockstep as
// one unit of work, all but those with done[k] (recorded already), and
// writes each record as the group ends.
func (r *Runner) lambdaGroup(ctx context.Context, sd *splitData, objs []scalarize.Objective, done []bool, constants scalarize.Standardizer, workers chan struct{}) error {
	if !slices.Contains(done, false) {
		return nil
	}
	if !acquire(ctx, workers) {
		return ctx.Err()
	}
	defer func() { <-workers }()
	recs, _, err := r.trainGroup(ctx, sd, objs, done, r.cfg.Method)
	if err != nil {
		return err
	}
	for k := range recs {
		if done[k] {
			continue
		}
		rec := &recs[k]
		rec.RMin, rec.RMax, rec.UMin, rec.UMax = constants.RMin, constants.RMax, constants.UMin, constants.UMax
		if err := r.finish(rec); err != nil {
			return err
		}
	}
	return removeIfAny(r.groupPath(sd.m, r.cfg.Method))
}

// removeIfAny removes a file that may not exist.
func removeIfAny(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
