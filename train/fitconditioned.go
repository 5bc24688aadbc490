package train

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
	"github.com/fpareto/fp/scalarize"
)

// The distributions of the λ a conditioned network trains at (docs/method.md
// §12), one λ drawn per mini-batch step.
const (
	// DrawGrid draws one of the grid's interior λ (strictly between 0 and
	// 1), each with the same probability: the network trains on exactly the
	// λ it is evaluated at.
	DrawGrid = "grid"
	// DrawLogUniform draws λ log-uniformly on [λ_min, 1], λ_min the grid's
	// smallest positive λ: every λ of a log grid's range, between the grid's
	// points too.
	DrawLogUniform = "log-uniform"
)

// DefaultDraw is the draw of a conditioned sweep unless another is asked
// for (the measurement behind it is in docs/method.md §12).
const DefaultDraw = DrawLogUniform

// Draws lists the λ draws a LambdaSampler accepts.
var Draws = []string{DrawGrid, DrawLogUniform}

// LambdaSampler draws the λ of each training step of a conditioned network
// from a distribution covering a grid.
type LambdaSampler struct {
	draw     string
	interior []float64 // the grid's λ strictly between 0 and 1
	logLo    float64   // log of the smallest positive λ
}

// NewLambdaSampler builds the sampler of draw (DrawGrid or DrawLogUniform)
// over grid, which must hold a λ strictly between 0 and 1.
func NewLambdaSampler(draw string, grid []float64) (*LambdaSampler, error) {
	s := &LambdaSampler{draw: draw}
	for _, l := range grid {
		if l > 0 && l < 1 {
			s.interior = append(s.interior, l)
		}
	}
	slices.Sort(s.interior)
	s.interior = slices.Compact(s.interior)
	if len(s.interior) == 0 {
		return nil, fmt.Errorf("λ draw: the grid %v has no λ strictly between 0 and 1 to train a conditioned network at", grid)
	}
	switch draw {
	case DrawGrid:
	case DrawLogUniform:
		s.logLo = math.Log(s.interior[0])
	default:
		return nil, fmt.Errorf("λ draw %q: want one of %v", draw, Draws)
	}
	return s, nil
}

// DrawStep returns the k λ of one training step (k ≥ 1), k draws of rng.
// With k = 1 it is Draw. With k > 1 the log-uniform draw is stratified:
// the i-th λ is drawn from the i-th of k equal parts of [log λ_min, 0], so
// every step sees the whole range; the grid draw draws k of the grid's λ
// independently.
func (s *LambdaSampler) DrawStep(rng *rand.Rand, k int) []float64 {
	if k <= 1 {
		return []float64{s.Draw(rng)}
	}
	out := make([]float64, k)
	for i := range out {
		if s.draw == DrawGrid {
			out[i] = s.interior[rng.IntN(len(s.interior))]
			continue
		}
		u := (float64(i) + rng.Float64()) / float64(k)
		out[i] = math.Exp(s.logLo * (1 - u))
	}
	return out
}

// Interior is the grid's λ strictly between 0 and 1, ascending.
func (s *LambdaSampler) Interior() []float64 { return slices.Clone(s.interior) }

// Draw returns the next λ, one draw of rng.
func (s *LambdaSampler) Draw(rng *rand.Rand) float64 {
	if s.draw == DrawGrid {
		return s.interior[rng.IntN(len(s.interior))]
	}
	// exp(log λ_min · (1 − u)) for u ∈ [0, 1) lies in [λ_min, 1].
	return math.Exp(s.logLo * (1 - rng.Float64()))
}

// ConditionedOptions configures FitConditioned.
type ConditionedOptions struct {
	// Options are Fit's: Epochs, Adam, Plateau, OnEpoch and BlockMasks as
	// there. Holdout, when set, is the validation part: its Objective is
	// the objective at any λ (its Lambda is replaced by each of Grid's) and
	// its Eval a plain evaluator of the network (model.Conditioned.At).
	Options
	// Sampler draws the λ of each step from LambdaRand.
	Sampler *LambdaSampler
	// PerStep is the number of λ each step trains at (0 or 1: one): the
	// step's gradient is the mean of the objective's gradients at
	// Sampler.DrawStep's λ on the same batch and dropout masks, one Adam
	// step for all of them, at PerStep times a step's arithmetic.
	PerStep int
	// Grid is the λ over which the schedule's objective is averaged: the
	// sweep's interior λ.
	Grid []float64
	// Rows are the fixed training rows the schedule's objective is measured
	// on when there is no holdout (with Eval); with a holdout the
	// validation part is used instead.
	Rows Data
	Eval *Evaluator
	// Checkpoints saves the training state every few epochs and resumes
	// from a saved one; the zero value does neither.
	Checkpoints ConditionedCheckpoints
}

// ConditionedCheckpoints configures FitConditioned's saving and resuming,
// as Checkpoints does FitGroup's.
type ConditionedCheckpoints struct {
	Every int                           // epochs between saves; 0: none
	Save  func(*ConditionedState) error // called with the state after every Every epochs
	From  *ConditionedState             // a saved state to go on from
}

// ConditionedState is a conditioned network's training state after a whole
// epoch, in a form that encoding/json writes and reads back exactly.
type ConditionedState struct {
	Epoch int `json:"epoch"` // epochs done
	// Params are the MLP's tensors, then the conditioning network's
	// (ConditionedTrainer.Params order).
	Params  [][]float64     `json:"params"`
	Adam    optim.AdamState `json:"adam"`
	Plateau *optim.Plateau  `json:"plateau,omitempty"`
	Result  Result          `json:"result"`
	// Best and Kept are the holdout's best network so far and its epoch;
	// empty without a holdout.
	Best [][]float64 `json:"best,omitempty"`
	Kept int         `json:"kept,omitempty"`
}

// ErrSavedState is the error of a saved training state that does not fit
// the network or options it is to resume.
var ErrSavedState = errors.New("the saved training state does not fit")

// ConditionedResult is Result with the network kept (the best epoch's with
// a holdout, else the last) as a conditioned network.
type ConditionedResult struct {
	Result
	Net *model.Conditioned
}

// FitConditioned trains the conditioned network of tr on d for
// opt.Epochs epochs (docs/method.md §12). Every epoch shuffles the rows
// with rng and walks them in batches as Fit does; before each step a λ is
// drawn from lambdaRng (opt.Sampler) and set. The objective at the drawn λ
// jumps from step to step, so the plateau schedule reads instead, once per
// epoch, the mean over opt.Grid of the objective of the network at each λ,
// in evaluation mode, on fixed rows: the validation part when
// opt.Holdout is set (and the epoch with the lowest such mean is then kept,
// Result.Val holding its means of R, U and the objective), else opt.Rows.
// It stops with ctx's error when ctx is done and with a *DivergedError
// when a loss or gradient is not finite.
//
// With opt.Checkpoints.Every > 0 it hands Save the state after every Every
// epochs (not after the last); with From it goes on from such a state,
// given the trainer as built at the start and the generators as they were
// then: as FitGroup, it replays their draws of the saved epochs (the
// shuffles, the λ and the dropout masks) instead of storing them, so the
// result equals the uninterrupted run's bit for bit. A state that does not
// fit gives an error wrapping ErrSavedState.
func FitConditioned(ctx context.Context, tr ConditionedTrainer, d Data, opt ConditionedOptions, rng, lambdaRng *rand.Rand) (ConditionedResult, error) {
	h, err := checkFit(tr, d, &opt.Options)
	if err != nil {
		return ConditionedResult{}, err
	}
	if opt.Sampler == nil || len(opt.Grid) == 0 {
		return ConditionedResult{}, fmt.Errorf("fit conditioned: a λ sampler and a grid are required")
	}
	rows, eval := opt.Rows, opt.Eval
	if h != nil {
		rows, eval = h.Data, h.Eval
	}
	if eval == nil || rows.N == 0 {
		return ConditionedResult{}, fmt.Errorf("fit conditioned: the schedule needs an evaluator and rows to measure the network on")
	}
	objective := tr.Spec().Objective
	if h != nil {
		objective = h.Objective
	}
	// The loop runs without a plateau: the schedule below steps it.
	loopOpt := opt.Options
	loopOpt.Plateau = nil
	l, err := NewLoop(tr, loopOpt)
	if err != nil {
		return ConditionedResult{}, err
	}
	var plateau *optim.Plateau
	if opt.Plateau != nil {
		plateau = optim.NewPlateau(*opt.Plateau)
	}
	var best [][]float64
	kept := 0
	ck := opt.Checkpoints
	first := 1
	if st := ck.From; st != nil {
		if err := st.restore(l, plateau, h != nil, opt.Epochs); err != nil {
			return ConditionedResult{}, err
		}
		best, kept = st.Best, st.Kept
		// Replay the draws of the saved epochs, in the order the loop below
		// makes them: each epoch's shuffle (of the loop's order, as each
		// shuffle starts from the last), then per step a λ and the masks.
		perm := l.order(d.N)
		for range st.Epoch {
			rng.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
			for start := 0; start < len(perm); start += l.batch.Size {
				opt.Sampler.DrawStep(lambdaRng, opt.PerStep)
				l.fillMasks(l.batch.Masks, rng)
			}
		}
		first = st.Epoch + 1
	}
	for epoch := first; epoch <= opt.Epochs; epoch++ {
		if err := ctx.Err(); err != nil {
			return ConditionedResult{Result: l.res}, err
		}
		perm := l.order(d.N)
		rng.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		var sr, su, so float64
		batches := 0
		lr := l.adam.LR()
		for start := 0; start < len(perm); start += l.batch.Size {
			loss, err := stepAt(l, tr, opt.Sampler.DrawStep(lambdaRng, opt.PerStep), d, perm[start:min(start+l.batch.Size, len(perm))], rng)
			if err != nil {
				return ConditionedResult{Result: l.res}, err
			}
			sr, su, so = sr+loss.R, su+loss.U, so+loss.Objective
			batches++
		}
		l.endEpoch(sr, su, so, batches, lr)
		mean, err := GridLoss(tr.Conditioned(), eval, rows, objective, opt.Grid)
		if err != nil {
			return ConditionedResult{Result: l.res}, fmt.Errorf("epoch %d: %w", epoch, err)
		}
		if !finite(mean.R) || !finite(mean.U) || !finite(mean.Objective) {
			return ConditionedResult{Result: l.res}, &DivergedError{Epoch: epoch, Reason: fmt.Sprintf("mean objective over the grid is not finite (R = %v, U = %v)", mean.R, mean.U)}
		}
		if plateau != nil {
			l.adam.SetLR(plateau.Step(mean.Objective, l.adam.LR()))
		}
		l.res.Kept = epoch
		if h != nil {
			l.res.History[len(l.res.History)-1].Val = &mean
			if l.res.Val == nil || mean.Objective < l.res.Val.Objective {
				v := mean
				l.res.Val = &v
				best, kept = cloneTensors(l.params), epoch
			}
		}
		if ck.Every > 0 && ck.Save != nil && epoch%ck.Every == 0 && epoch < opt.Epochs {
			st := &ConditionedState{Epoch: epoch, Params: cloneTensors(l.params), Adam: l.adam.State(),
				Result: l.res, Best: best, Kept: kept}
			st.Result.History = slices.Clone(l.res.History)
			if plateau != nil {
				p := *plateau
				st.Plateau = &p
			}
			if err := ck.Save(st); err != nil {
				return ConditionedResult{Result: l.res}, fmt.Errorf("epoch %d: checkpoint: %w", epoch, err)
			}
		}
	}
	if h != nil {
		for i, p := range best {
			copy(l.params[i], p)
		}
		l.res.Kept = kept
	}
	return ConditionedResult{Result: l.res, Net: tr.Conditioned()}, nil
}

// stepAt takes one step of l at the λ of lambdas: with one λ the loop's
// plain step at it; with more, the mean of the objective and of its
// gradient over them on one batch and one set of dropout masks, and one
// Adam step (ConditionedOptions.PerStep).
func stepAt(l *Loop, tr ConditionedTrainer, lambdas []float64, d Data, idx []int, rng *rand.Rand) (Loss, error) {
	if len(lambdas) == 1 {
		if err := tr.SetLambda(lambdas[0]); err != nil {
			return Loss{}, err
		}
		return l.Step(d, idx, rng)
	}
	b := l.batch
	b.Fill(d, idx)
	l.fillMasks(b.Masks, rng)
	sum := make([][]float64, len(l.grads))
	for i, g := range l.grads {
		sum[i] = make([]float64, len(g))
	}
	var mean Loss
	for _, lambda := range lambdas {
		if err := tr.SetLambda(lambda); err != nil {
			return Loss{}, err
		}
		loss, err := tr.Gradient(b)
		if err != nil {
			return loss, fmt.Errorf("epoch %d: λ = %g: %w", l.epoch+1, lambda, err)
		}
		mean.R += loss.R
		mean.U += loss.U
		mean.Objective += loss.Objective
		for i, g := range l.grads {
			for j, v := range g {
				sum[i][j] += v
			}
		}
	}
	k := float64(len(lambdas))
	mean.R, mean.U, mean.Objective = mean.R/k, mean.U/k, mean.Objective/k
	for i, g := range l.grads {
		for j := range g {
			g[j] = sum[i][j] / k
		}
	}
	return mean, l.apply(mean, b.Complete)
}

// restore puts the saved state into the loop and the schedule; holdout
// says whether the run has one (and so a best network).
func (st *ConditionedState) restore(l *Loop, plateau *optim.Plateau, holdout bool, epochs int) error {
	if st.Epoch < 1 || st.Epoch > epochs || len(st.Result.History) != st.Epoch {
		return fmt.Errorf("fit conditioned: %w: a state after epoch %d with %d epochs of history, want an epoch in 1…%d",
			ErrSavedState, st.Epoch, len(st.Result.History), epochs)
	}
	if err := fits("", st.Params, l.params); err != nil {
		return err
	}
	if holdout != (st.Best != nil) {
		return fmt.Errorf("fit conditioned: %w: the state and the options disagree on the validation part", ErrSavedState)
	}
	if holdout {
		if err := fits("best ", st.Best, l.params); err != nil {
			return err
		}
	}
	if (st.Plateau == nil) != (plateau == nil) {
		return fmt.Errorf("fit conditioned: %w: the state and the options disagree on the plateau schedule", ErrSavedState)
	}
	if err := l.adam.Restore(st.Adam); err != nil {
		return fmt.Errorf("fit conditioned: %w: %w", ErrSavedState, err)
	}
	for i, p := range l.params {
		copy(p, st.Params[i])
	}
	if plateau != nil {
		*plateau = *st.Plateau
	}
	l.res, l.epoch = st.Result, st.Epoch
	l.res.History = slices.Clone(st.Result.History)
	return nil
}

// fits checks that the saved tensors have the shapes of want.
func fits(what string, saved, want [][]float64) error {
	if len(saved) != len(want) {
		return fmt.Errorf("fit conditioned: %w: %s%d tensors, want %d", ErrSavedState, what, len(saved), len(want))
	}
	for i, p := range want {
		if len(saved[i]) != len(p) {
			return fmt.Errorf("fit conditioned: %w: %stensor %d has %d entries, want %d", ErrSavedState, what, i, len(saved[i]), len(p))
		}
	}
	return nil
}

// GridLoss is the mean over grid of the network c at each λ, scored by ev
// on d: R, U and obj's value with obj.Lambda set to the λ.
func GridLoss(c *model.Conditioned, ev *Evaluator, d Data, obj scalarize.Objective, grid []float64) (Loss, error) {
	var mean Loss
	for _, lambda := range grid {
		l, err := ev.Loss(c.At(lambda).Tensors(), d)
		if err != nil {
			return Loss{}, fmt.Errorf("λ = %g: %w", lambda, err)
		}
		o := obj
		o.Lambda = lambda
		v, _, _ := o.Value(l.R, l.U)
		mean.R += l.R
		mean.U += l.U
		mean.Objective += v
	}
	n := float64(len(grid))
	mean.R, mean.U, mean.Objective = mean.R/n, mean.U/n, mean.Objective/n
	return mean, nil
}

// Spread returns at most k of grid's λ spread evenly over its positions,
// its first and last included (all of them when it has no more than k).
func Spread(grid []float64, k int) []float64 {
	n := len(grid)
	if n <= k || k < 2 {
		if k == 1 && n > 1 {
			return []float64{grid[n/2]}
		}
		return slices.Clone(grid)
	}
	out := make([]float64, k)
	for i := range out {
		out[i] = grid[int(math.Round(float64(i*(n-1))/float64(k-1)))]
	}
	return out
}
