package train

import (
	"fmt"

	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/scalarize"
)

// Spec describes the trainer to build: a network, an objective and a batch size.
type Spec struct {
	Arch      model.Arch
	Dim       int
	BatchSize int // rows per batch; short batches are padded to it
	// Dropout is the probability of dropping a hidden activation in
	// training; the trainer and the loop that feeds it (Loop, Fit) both
	// read it from here.
	Dropout float64
	// Init is the starting network; the trainer copies it.
	Init *model.Params
	// FiLM, when set, makes the network λ-conditioned (docs/method.md §12):
	// Init is its MLP and FiLM the starting conditioning network (copied);
	// the engine's trainer is then a ConditionedTrainer.
	FiLM *model.FiLM
	// FiLMPenalty says where a penalty on hidden layers reads a conditioned
	// network (docs/method.md §12): PenaltyAfterFiLM ("" is the same), the
	// modulated pre-activations, or PenaltyBeforeFiLM, the pre-activations
	// before the modulation. PenaltyBeforeFiLM needs FiLM and a penalty
	// that reads hidden layers; an engine that cannot read there refuses it
	// in Check (Requirements.PenaltyBeforeFiLM).
	FiLMPenalty string
	// Objective is what the trainer minimises.
	Objective scalarize.Objective
	// Penalty is U; required unless Objective.Method is scalarize.Risk.
	Penalty Term
	// Risk is R; nil means the built-in binary cross-entropy.
	Risk Term
}

// Validate checks the spec's own consistency.
func (s Spec) Validate() error {
	if s.Dim < 1 || s.BatchSize < 1 {
		return fmt.Errorf("trainer spec: dim %d and batch size %d must be ≥ 1", s.Dim, s.BatchSize)
	}
	if s.Arch.Layers < 2 || s.Arch.Hidden < 1 {
		return fmt.Errorf("trainer spec: architecture %v needs at least one hidden layer", s.Arch)
	}
	if !(s.Dropout >= 0 && s.Dropout < 1) {
		return fmt.Errorf("trainer spec: dropout %g is outside [0, 1)", s.Dropout)
	}
	if s.Init == nil || s.Init.Arch != s.Arch || s.Init.Dim != s.Dim {
		return fmt.Errorf("trainer spec: initial network missing or not %v on %d inputs", s.Arch, s.Dim)
	}
	if err := s.Objective.Validate(); err != nil {
		return fmt.Errorf("trainer spec: %w", err)
	}
	if s.FiLM != nil {
		if err := s.FiLM.Validate(s.Arch); err != nil {
			return fmt.Errorf("trainer spec: %w", err)
		}
		if s.Objective.Scalar() == nil {
			return fmt.Errorf("trainer spec: a conditioned network needs a scalarized objective, not %q", s.Objective.Method)
		}
	}
	if s.Objective.UsesPenalty() && s.Penalty == nil {
		return fmt.Errorf("trainer spec: objective %q needs a penalty", s.Objective.Method)
	}
	if err := CheckFiLMPenalty(s.FiLMPenalty, s.FiLM != nil, s.Penalty); err != nil {
		return fmt.Errorf("trainer spec: %w", err)
	}
	return nil
}

// Loss is what one gradient evaluation measured on a batch.
type Loss struct {
	R         float64 // risk
	U         float64 // unfairness penalty (0 when the objective has none)
	Objective float64 // the scalarized objective actually differentiated
}

// Trainer computes a network's objective and its gradient on mini-batches.
// It owns the parameters; the optimizer updates them in place through Params.
// A Trainer is used by one goroutine at a time.
type Trainer interface {
	// BatchSize is the number of rows every Batch given to Gradient must have.
	BatchSize() int
	// Spec is the spec the trainer was built for: its dropout and the input
	// columns (Spec.Inputs) every Batch given to Gradient must carry.
	Spec() Spec
	// Params returns views of the parameter tensors, in model.Params order
	// (W0, B0, W1, B1, …); writing to them changes the network.
	Params() [][]float64
	// Grads returns views of the gradient tensors, same order and shapes,
	// valid after Gradient.
	Grads() [][]float64
	// Gradient evaluates the objective on b (training mode: b.Masks apply)
	// and writes its gradient into Grads.
	Gradient(b *Batch) (Loss, error)
	// Predict writes the logits of n rows of x (row-major n×dim) in
	// evaluation mode (no dropout) into logits[:n].
	Predict(x []float64, n int, logits []float64) error
	// Network returns a copy of the current weights.
	Network() *model.Params
}

// Engine builds trainers.
//
// An engine says up front what it can train, as gonum's optimize.Method
// does with Uses: Check looks at the terms of a job before any data is read,
// so that a caller refuses an unsupported combination at once. NewTrainer
// runs the same check on its spec.
type Engine interface {
	// Name is the engine's name in records (e.g. "graph" or "backprop").
	Name() string
	// Version names the numerical implementation (e.g. "backprop/2"), for
	// records: a run is reproduced bit for bit by the same version.
	Version() string
	// Check returns nil when the engine can train networks on req's terms,
	// and otherwise an error wrapping ErrUnsupported (an
	// *UnsupportedError) that names the term.
	Check(req Requirements) error
	// NewTrainer builds a trainer for spec. It may be called from several
	// goroutines at once.
	NewTrainer(spec Spec) (Trainer, error)
}

// MemoryEstimator is an engine that can say how much memory a trainer of a
// spec holds while it trains, so that a sweep too large for the machine is
// refused before it starts rather than killed part way.
type MemoryEstimator interface {
	// TrainerBytes is the bytes a trainer of spec holds once it has
	// computed a gradient: its parameters, gradients and the buffers of
	// every batch row.
	TrainerBytes(spec Spec) float64
}

// genericRowUnitFloats is the float64 values per batch row and hidden unit
// assumed for an engine that does not estimate its memory: the most either
// built-in engine holds (the graph engine, about 13).
const genericRowUnitFloats = 16

// TrainerBytes is e's estimate of a trainer of spec's memory
// (MemoryEstimator), or for an engine that gives none a generous one.
func TrainerBytes(e Engine, spec Spec) float64 {
	if m, ok := e.(MemoryEstimator); ok {
		return m.TrainerBytes(spec)
	}
	a := spec.Arch
	return 8 * (6*ParamCount(a, spec.Dim) + genericRowUnitFloats*float64(spec.BatchSize)*float64(a.Hidden)*float64(a.HiddenLayers()))
}

// BatchBytes is the memory of a Batch of spec's size (NewBatch): the rows,
// their targets, groups and weights, the input columns of the terms and a
// dropout mask per hidden layer.
func BatchBytes(spec Spec) float64 {
	a := spec.Arch
	size := float64(spec.BatchSize)
	return 8 * size * (float64(spec.Dim) + 4 + float64(len(spec.Inputs())) + float64(a.HiddenLayers())*float64(a.Hidden))
}

// ParamCount is the number of parameters of a network of arch a on dim
// inputs, as a float64 so that absurd sizes do not overflow.
func ParamCount(a model.Arch, dim int) float64 {
	h, d := float64(a.Hidden), float64(dim)
	return (d*h + h) + float64(a.Layers-2)*(h*h+h) + (h + 1)
}
