package train

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
)

// Options configures Fit.
type Options struct {
	Epochs int
	Adam   optim.AdamConfig
	// Plateau, when set, lowers the learning rate on plateaus of the epoch's
	// mean training objective (docs/method.md §5); nil keeps the rate constant.
	Plateau *optim.PlateauConfig
	// OnEpoch, when set, is called after every epoch.
	OnEpoch func(EpochStats)
	// Holdout, when set, is scored after every epoch, and Fit ends with the
	// network of the epoch with the lowest validation objective (the first
	// such epoch on a tie) instead of the last one.
	Holdout *Holdout
	// BlockMasks draws the dropout masks with model.FillMaskBlocks (one
	// generator draw per mask) instead of model.FillMask.
	BlockMasks bool
}

// EpochStats are an epoch's means over its mini-batches, and the learning
// rate its steps used.
type EpochStats struct {
	Epoch     int     `json:"epoch"`
	R         float64 `json:"r"`
	U         float64 `json:"u"`
	Objective float64 `json:"objective"`
	LR        float64 `json:"lr"`
	// Val is the network's R, U and objective on the holdout at the end of
	// the epoch (evaluation mode); nil without a holdout.
	Val *Loss `json:"val,omitempty"`
}

// Result is what Fit measured. The network itself stays in the trainer.
type Result struct {
	History []EpochStats
	// RMin … UMax are the extremes of the mini-batch R and U over all epochs:
	// the standardization constants when this is a λ = 0 or λ = 1 run.
	RMin, RMax, UMin, UMax float64
	Skipped                int // batches that lacked one of the groups
	Steps                  int // optimizer steps taken
	// Kept is the epoch (1-based) whose network the trainer holds at the
	// end: the last one, or with a holdout the one with the lowest
	// validation objective. Val is that epoch's holdout score.
	Kept int
	Val  *Loss
}

// DivergedError reports a non-finite loss or gradient; the run is abandoned.
type DivergedError struct {
	Epoch  int // 1-based
	Reason string
}

func (e *DivergedError) Error() string {
	return fmt.Sprintf("diverged in epoch %d: %s", e.Epoch, e.Reason)
}

// Loop composes a trainer with Adam and the plateau schedule, keeping the
// optimizer's state across calls, so a caller can interleave epochs and
// single steps of several networks (as the adversarial baseline does). Fit
// is the common case: a number of epochs on one dataset.
type Loop struct {
	tr      Trainer
	opt     Options
	params  [][]float64
	grads   [][]float64
	adam    *optim.Adam
	plateau *optim.Plateau
	batch   *Batch
	dropout float64 // the trainer's Spec().Dropout
	perm    []int
	epoch   int
	res     Result
}

// NewLoop prepares to train tr with opt (opt.Epochs is not used by Loop).
// The dropout probability and the batch's input columns come from
// tr.Spec().
func NewLoop(tr Trainer, opt Options) (*Loop, error) {
	params, grads := tr.Params(), tr.Grads()
	adam, err := optim.NewAdamFor(opt.Adam, params)
	if err != nil {
		return nil, err
	}
	l := &Loop{tr: tr, opt: opt, params: params, grads: grads, adam: adam,
		res: Result{RMin: math.Inf(1), RMax: math.Inf(-1), UMin: math.Inf(1), UMax: math.Inf(-1)}}
	if opt.Plateau != nil {
		l.plateau = optim.NewPlateau(*opt.Plateau)
	}
	net := tr.Network()
	spec := tr.Spec()
	l.dropout = spec.Dropout
	l.batch = NewBatch(tr.BatchSize(), net.Dim, net.Arch.HiddenLayers(), net.Arch.Hidden, spec.Inputs()...)
	if l.dropout <= 0 {
		for _, m := range l.batch.Masks {
			model.FillMask(nil, m, 0)
		}
	}
	return l, nil
}

// Result is what the loop has measured so far.
func (l *Loop) Result() Result { return l.res }

// Step fills the loop's batch with rows idx of d (fresh dropout masks from
// rng), computes the gradient and takes one Adam step.
func (l *Loop) Step(d Data, idx []int, rng *rand.Rand) (Loss, error) {
	b := l.batch
	b.Fill(d, idx)
	l.fillMasks(b.Masks, rng)
	loss, err := l.tr.Gradient(b)
	if err != nil {
		return loss, fmt.Errorf("epoch %d: %w", l.epoch+1, err)
	}
	return loss, l.apply(loss, b.Complete)
}

// fillMasks draws fresh dropout masks from rng (nothing without dropout:
// the masks stay all ones).
func (l *Loop) fillMasks(masks [][]float64, rng *rand.Rand) {
	switch {
	case l.dropout <= 0:
	case l.opt.BlockMasks:
		for _, m := range masks {
			model.FillMaskBlocks(rng, m, l.dropout)
		}
	default:
		for _, m := range masks {
			model.FillMask(rng, m, l.dropout)
		}
	}
}

// apply checks a step's loss and gradient, takes the Adam step and updates
// the extremes; complete says whether the batch had both groups.
func (l *Loop) apply(loss Loss, complete bool) error {
	epoch := l.epoch + 1
	if !finite(loss.R) || !finite(loss.U) || !finite(loss.Objective) {
		return &DivergedError{Epoch: epoch, Reason: fmt.Sprintf("loss is not finite (R = %v, U = %v, objective = %v)", loss.R, loss.U, loss.Objective)}
	}
	if !allFinite(l.grads) {
		return &DivergedError{Epoch: epoch, Reason: "gradient is not finite"}
	}
	l.adam.Step(l.params, l.grads)
	r := &l.res
	r.Steps++
	if !complete {
		r.Skipped++
	}
	r.RMin, r.RMax = math.Min(r.RMin, loss.R), math.Max(r.RMax, loss.R)
	r.UMin, r.UMax = math.Min(r.UMin, loss.U), math.Max(r.UMax, loss.U)
	return nil
}

// Epoch shuffles the rows of d with rng, takes one step per batch (the last,
// short batch is padded, which is exact), records the epoch's means and
// lets the plateau schedule adjust the learning rate.
func (l *Loop) Epoch(ctx context.Context, d Data, rng *rand.Rand) (EpochStats, error) {
	if err := ctx.Err(); err != nil {
		return EpochStats{}, err
	}
	perm := l.order(d.N)
	rng.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	return l.EpochOrder(ctx, d, perm, rng)
}

// order returns the loop's row order buffer, the identity when first made
// for n rows.
func (l *Loop) order(n int) []int {
	if len(l.perm) != n {
		l.perm = make([]int, n)
		for i := range l.perm {
			l.perm[i] = i
		}
	}
	return l.perm
}

// EpochOrder is Epoch with the rows taken in the given order (a permutation
// of d's rows) instead of a shuffle; rng then draws only the dropout masks.
// It is how a network trains alone on the batch order of a lockstep group.
func (l *Loop) EpochOrder(ctx context.Context, d Data, order []int, rng *rand.Rand) (EpochStats, error) {
	if err := ctx.Err(); err != nil {
		return EpochStats{}, err
	}
	size := l.batch.Size
	var sr, su, so float64
	batches := 0
	lr := l.adam.LR()
	for start := 0; start < len(order); start += size {
		loss, err := l.Step(d, order[start:min(start+size, len(order))], rng)
		if err != nil {
			return EpochStats{}, err
		}
		sr, su, so = sr+loss.R, su+loss.U, so+loss.Objective
		batches++
	}
	return l.endEpoch(sr, su, so, batches, lr), nil
}

// endEpoch records an epoch of the given sums over its batches, run at
// rate lr, and lets the plateau schedule adjust the rate.
func (l *Loop) endEpoch(sr, su, so float64, batches int, lr float64) EpochStats {
	l.epoch++
	nb := float64(batches)
	st := EpochStats{Epoch: l.epoch, R: sr / nb, U: su / nb, Objective: so / nb, LR: lr}
	l.res.History = append(l.res.History, st)
	if l.opt.OnEpoch != nil {
		l.opt.OnEpoch(st)
	}
	if l.plateau != nil {
		l.adam.SetLR(l.plateau.Step(st.Objective, l.adam.LR()))
	}
	return st
}

// Fit trains tr on d for opt.Epochs epochs. Each epoch shuffles the rows with
// rng and walks them in batches of tr.BatchSize() (the last, short batch is
// padded, which is exact); each batch gets fresh dropout masks from rng; each
// step is one Adam update. With opt.Holdout it scores the network on the
// holdout after every epoch and ends holding the best epoch's network
// (Result.Kept, Result.Val); the extremes RMin … UMax still cover every
// epoch run. It stops early with ctx's error when ctx is done, and with a
// *DivergedError when a loss or gradient is not finite.
func Fit(ctx context.Context, tr Trainer, d Data, opt Options, rng *rand.Rand) (Result, error) {
	h, err := checkFit(tr, d, &opt)
	if err != nil {
		return Result{}, err
	}
	l, err := NewLoop(tr, opt)
	if err != nil {
		return Result{}, err
	}
	k := keeper{h: h}
	for epoch := 1; epoch <= opt.Epochs; epoch++ {
		if _, err := l.Epoch(ctx, d, rng); err != nil {
			return l.res, err
		}
		if err := k.after(l, epoch); err != nil {
			return l.res, err
		}
	}
	k.finish(l)
	return l.res, nil
}

// checkFit validates Fit's arguments and moves opt's holdout out of opt
// (the loop itself does not score it) into the returned value.
func checkFit(tr Trainer, d Data, opt *Options) (*Holdout, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	net := tr.Network()
	if net.Dim != d.Dim {
		return nil, fmt.Errorf("fit: network takes %d inputs, data has %d", net.Dim, d.Dim)
	}
	if opt.Epochs < 1 {
		return nil, fmt.Errorf("fit: epochs = %d, want ≥ 1", opt.Epochs)
	}
	pen := tr.Spec().Penalty
	if err := matchGroups(pen, d); err != nil {
		return nil, fmt.Errorf("fit: %w", err)
	}
	h := opt.Holdout
	if h != nil {
		if err := h.Data.Validate(); err != nil {
			return nil, fmt.Errorf("validation: %w", err)
		}
		if err := matchGroups(pen, h.Data); err != nil {
			return nil, fmt.Errorf("validation: %w", err)
		}
		if h.Data.Dim != d.Dim || h.Eval == nil {
			return nil, fmt.Errorf("fit: validation part of %d rows × %d features needs an evaluator and %d features", h.Data.N, h.Data.Dim, d.Dim)
		}
		opt.Holdout = nil
	}
	return h, nil
}

// matchGroups checks that a penalty compares as many groups as d has: a
// binary penalty would read codes 2 … R−1 as group 0, an R-group penalty
// would never see a complete batch of data with fewer groups.
func matchGroups(pen Term, d Data) error {
	if pen == nil {
		return nil
	}
	if want, have := TermGroups(pen), d.GroupCount(); want != have {
		return fmt.Errorf("the penalty %s compares %d groups, the data's sensitive attribute has %d: build the penalty for %d groups",
			pen.Name(), want, have, have)
	}
	return nil
}

// keeper scores a loop's network on the holdout after every epoch and keeps
// the best one; without a holdout it keeps the last.
type keeper struct {
	h    *Holdout
	best [][]float64
	kept int
}

// after is called when epoch (1-based) has ended.
func (k *keeper) after(l *Loop, epoch int) error {
	l.res.Kept = epoch
	if k.h == nil {
		return nil
	}
	v, err := k.h.score(l.params)
	if err != nil {
		return fmt.Errorf("epoch %d: %w", epoch, err)
	}
	if !finite(v.R) || !finite(v.U) || !finite(v.Objective) {
		return &DivergedError{Epoch: epoch, Reason: fmt.Sprintf("validation loss is not finite (R = %v, U = %v)", v.R, v.U)}
	}
	l.res.History[len(l.res.History)-1].Val = &v
	if l.res.Val == nil || v.Objective < l.res.Val.Objective {
		vv := v
		l.res.Val, k.kept = &vv, epoch
		k.best = cloneTensors(l.params)
	}
	return nil
}

// finish puts the kept network back into the trainer.
func (k *keeper) finish(l *Loop) {
	if k.h == nil {
		return
	}
	for i, p := range k.best {
		copy(l.params[i], p)
	}
	l.res.Kept = k.kept
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func allFinite(ts [][]float64) bool {
	for _, t := range ts {
		for _, v := range t {
			if v-v != 0 { // NaN or ±Inf
				return false
			}
		}
	}
	return true
}

// resultJSON is Result as JSON holds it: an extreme not seen yet (±Inf
// before the first batch) is null, for JSON has no infinity.
type resultJSON struct {
	resultFields
	RMin, RMax, UMin, UMax *float64
}

type resultFields Result

// MarshalJSON writes r with the extremes not seen yet as null, so that the
// checkpoint of a member that has not trained can be written.
func (r Result) MarshalJSON() ([]byte, error) {
	j := resultJSON{resultFields: resultFields(r)}
	for _, f := range []struct {
		dst **float64
		v   float64
	}{{&j.RMin, r.RMin}, {&j.RMax, r.RMax}, {&j.UMin, r.UMin}, {&j.UMax, r.UMax}} {
		if finite(f.v) {
			v := f.v
			*f.dst = &v
		}
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON writes: a null minimum is +Inf, a
// null maximum −Inf, as before the first batch.
func (r *Result) UnmarshalJSON(b []byte) error {
	var j resultJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*r = Result(j.resultFields)
	r.RMin, r.RMax, r.UMin, r.UMax = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, f := range []struct {
		dst *float64
		v   *float64
	}{{&r.RMin, j.RMin}, {&r.RMax, j.RMax}, {&r.UMin, j.UMin}, {&r.UMax, j.UMax}} {
		if f.v != nil {
			*f.dst = *f.v
		}
	}
	return nil
}
