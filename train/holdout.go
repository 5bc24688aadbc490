package train

import (
	"fmt"

	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/scalarize"
)

// Evaluator measures the risk R and the penalty U of a network on a whole
// data set at once, in evaluation mode (no dropout), with the same engine
// and terms the network is trained with. It is how a held-out part is scored
// after every epoch, and how a trained candidate's final R and U are taken.
//
// It wraps a trainer of the same network whose one batch holds Size rows
// (fewer are padded, which is exact) and whose objective is R + 0·U, so
// that U is computed even for a network trained on R alone. An Evaluator is
// used by one goroutine at a time.
type Evaluator struct {
	tr     Trainer
	params [][]float64
	batch  *Batch
	idx    []int
}

// BlockLimited is implemented by a penalty whose cost grows faster than
// the rows it is computed on (the mean-variance penalties compare every
// pair of rows): an Evaluator measures it in blocks of at most EvalRows
// rows, whatever size it is asked for.
type BlockLimited interface {
	EvalRows() int
}

// NewEvaluator builds an evaluator for networks of spec that scores up to
// size rows at once (fewer for a BlockLimited penalty). U is measured when
// spec.Penalty is set (whatever the spec's objective) and is 0 otherwise.
func NewEvaluator(e Engine, spec Spec, size int) (*Evaluator, error) {
	if size < 1 {
		return nil, fmt.Errorf("evaluator: %d rows, want ≥ 1", size)
	}
	if l, ok := spec.Penalty.(BlockLimited); ok && l.EvalRows() >= 1 {
		size = min(size, l.EvalRows())
	}
	s := spec
	s.BatchSize = size
	s.Dropout = 0
	s.Objective = scalarize.Objective{Method: scalarize.Risk}
	if s.Penalty != nil {
		s.Objective = scalarize.Objective{Method: scalarize.Sum, Lambda: 0}
	}
	tr, err := e.NewTrainer(s)
	if err != nil {
		return nil, fmt.Errorf("evaluator: %w", err)
	}
	net := tr.Network()
	b := NewBatch(size, net.Dim, net.Arch.HiddenLayers(), net.Arch.Hidden, s.Inputs()...)
	for _, m := range b.Masks {
		model.FillMask(nil, m, 0)
	}
	return &Evaluator{tr: tr, params: tr.Params(), batch: b}, nil
}

// Size is the most rows the evaluator scores at once (one block).
func (ev *Evaluator) Size() int { return ev.batch.Size }

// Loss returns R and U (Objective = R) of the network whose parameter
// tensors are params (model.Params order, as Trainer.Params gives them) on
// every row of d. Up to Size rows are scored at once; more are scored in
// consecutive blocks of Size rows (the last one shorter), and R and U are
// the means over the blocks weighted by their rows (exact for R; for U, a
// contrast that is not additive, the mean of the blocks' contrasts).
func (ev *Evaluator) Loss(params [][]float64, d Data) (Loss, error) {
	if len(params) != len(ev.params) {
		return Loss{}, fmt.Errorf("evaluator: %d parameter tensors, want %d", len(params), len(ev.params))
	}
	for i, p := range params {
		if len(p) != len(ev.params[i]) {
			return Loss{}, fmt.Errorf("evaluator: parameter tensor %d has %d values, want %d", i, len(p), len(ev.params[i]))
		}
		copy(ev.params[i], p)
	}
	if err := matchGroups(ev.tr.Spec().Penalty, d); err != nil {
		return Loss{}, fmt.Errorf("evaluator: %w", err)
	}
	size := ev.batch.Size
	if len(ev.idx) < size {
		ev.idx = make([]int, size)
	}
	var sum Loss
	for start := 0; start < d.N; start += size {
		n := min(size, d.N-start)
		idx := ev.idx[:n]
		for k := range idx {
			idx[k] = start + k
		}
		ev.batch.Fill(d, idx)
		l, err := ev.tr.Gradient(ev.batch)
		if err != nil {
			return Loss{}, fmt.Errorf("evaluator: rows %d–%d: %w", start, start+n-1, err)
		}
		f := float64(n) / float64(d.N)
		sum.R += f * l.R
		sum.U += f * l.U
	}
	sum.Objective = sum.R
	return sum, nil
}

// Holdout is a validation part kept aside from the training rows: Fit
// scores the network on it after every epoch and, at the end, restores the
// epoch whose network had the best validation objective.
type Holdout struct {
	Data Data
	// Eval scores a network on Data.
	Eval *Evaluator
	// Objective turns the validation R and U into the number that is
	// minimised: the trained objective, with the standardization constants
	// the network is trained with (raw R for λ = 0, raw U for λ = 1).
	Objective scalarize.Objective
}

// score is the holdout's R, U and objective for the network params.
func (h *Holdout) score(params [][]float64) (Loss, error) {
	l, err := h.Eval.Loss(params, h.Data)
	if err != nil {
		return l, fmt.Errorf("validation: %w", err)
	}
	l.Objective, _, _ = h.Objective.Value(l.R, l.U)
	return l, nil
}

func cloneTensors(ts [][]float64) [][]float64 {
	out := make([][]float64, len(ts))
	for i, t := range ts {
		out[i] = append([]float64(nil), t...)
	}
	return out
}
