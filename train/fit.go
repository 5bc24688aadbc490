package train

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
)

// Options configures Fit.
type Options struct {
	Epochs  int
	Dropout float64 // the mask probability; must match the trainer's Spec
	Adam    optim.AdamConfig
	// Plateau, when set, lowers the learning rate on plateaus of the epoch's
	// mean training objective (SPEC §5); nil keeps the rate constant.
	Plateau *optim.PlateauConfig
	// OnEpoch, when set, is called after every epoch.
	OnEpoch func(EpochStats)
}

// EpochStats are an epoch's means over its mini-batches, and the learning
// rate its steps used.
type EpochStats struct {
	Epoch     int     `json:"epoch"`
	R         float64 `json:"r"`
	U         float64 `json:"u"`
	Objective float64 `json:"objective"`
	LR        float64 `json:"lr"`
}

// Result is what Fit measured. The network itself stays in the trainer.
type Result struct {
	History []EpochStats
	// RMin … UMax are the extremes of the mini-batch R and U over all epochs:
	// the standardization constants when this is a λ = 0 or λ = 1 run.
	RMin, RMax, UMin, UMax float64
	Skipped                int // batches that lacked one of the groups
	Steps                  int // optimizer steps taken
}

// DivergedError reports a non-finite loss or gradient; the run is abandoned.
type DivergedError struct {
	Epoch  int // 1-based
	Reason string
}

func (e *DivergedError) Error() string {
	return fmt.Sprintf("diverged in epoch %d: %s", e.Epoch, e.Reason)
}

// Fit trains tr on d for opt.Epochs epochs. Each epoch shuffles the rows with
// rng and walks them in batches of tr.BatchSize() (the last, short batch is
// padded, which is exact); each batch gets fresh dropout masks from rng; each
// step is one Adam update. It stops early with ctx's error when ctx is done,
// and with a *DivergedError when a loss or gradient is not finite.
func Fit(ctx context.Context, tr Trainer, d Data, opt Options, rng *rand.Rand) (Result, error) {
	if err := d.Validate(); err != nil {
		return Result{}, err
	}
	net := tr.Network()
	if net.Dim != d.Dim {
		return Result{}, fmt.Errorf("fit: network takes %d inputs, data has %d", net.Dim, d.Dim)
	}
	if opt.Epochs < 1 {
		return Result{}, fmt.Errorf("fit: epochs = %d, want ≥ 1", opt.Epochs)
	}
	params, grads := tr.Params(), tr.Grads()
	sizes := make([]int, len(params))
	for i, p := range params {
		sizes[i] = len(p)
	}
	adam, err := optim.NewAdam(opt.Adam, sizes)
	if err != nil {
		return Result{}, err
	}
	var plateau *optim.Plateau
	if opt.Plateau != nil {
		plateau = optim.NewPlateau(*opt.Plateau)
	}

	size := tr.BatchSize()
	b := NewBatch(size, d.Dim, net.Arch.HiddenLayers(), net.Arch.Hidden)
	if opt.Dropout <= 0 {
		for _, m := range b.Masks {
			model.FillMask(nil, m, 0)
		}
	}
	perm := make([]int, d.N)
	for i := range perm {
		perm[i] = i
	}
	res := Result{RMin: math.Inf(1), RMax: math.Inf(-1), UMin: math.Inf(1), UMax: math.Inf(-1)}
	for epoch := 1; epoch <= opt.Epochs; epoch++ {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		rng.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		var sr, su, so float64
		batches := 0
		for start := 0; start < d.N; start += size {
			b.Fill(d, perm[start:min(start+size, d.N)])
			if opt.Dropout > 0 {
				for _, m := range b.Masks {
					model.FillMask(rng, m, opt.Dropout)
				}
			}
			l, err := tr.Gradient(b)
			if err != nil {
				return res, fmt.Errorf("epoch %d: %w", epoch, err)
			}
			if !finite(l.R) || !finite(l.U) || !finite(l.Objective) {
				return res, &DivergedError{Epoch: epoch, Reason: fmt.Sprintf("loss is not finite (R = %v, U = %v, objective = %v)", l.R, l.U, l.Objective)}
			}
			if !allFinite(grads) {
				return res, &DivergedError{Epoch: epoch, Reason: "gradient is not finite"}
			}
			adam.Step(params, grads)
			res.Steps++
			if !b.Complete {
				res.Skipped++
			}
			res.RMin, res.RMax = math.Min(res.RMin, l.R), math.Max(res.RMax, l.R)
			res.UMin, res.UMax = math.Min(res.UMin, l.U), math.Max(res.UMax, l.U)
			sr, su, so = sr+l.R, su+l.U, so+l.Objective
			batches++
		}
		nb := float64(batches)
		st := EpochStats{Epoch: epoch, R: sr / nb, U: su / nb, Objective: so / nb, LR: adam.LR()}
		res.History = append(res.History, st)
		if opt.OnEpoch != nil {
			opt.OnEpoch(st)
		}
		if plateau != nil {
			adam.SetLR(plateau.Step(st.Objective, adam.LR()))
		}
	}
	return res, nil
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
