package train

import (
	"fmt"

	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/losses"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/scalarize"
)

// Spec describes the trainer to build: a network, an objective and a batch size.
type Spec struct {
	Arch      model.Arch
	Dim       int
	BatchSize int     // rows per batch; short batches are padded to it
	Dropout   float64 // dropout probability after every hidden activation (training only)
	// Init is the starting network; the trainer copies it.
	Init *model.Params
	// Objective is what the trainer minimises.
	Objective scalarize.Objective
	// Penalty is U; required unless Objective.Method is scalarize.Risk.
	Penalty fairness.Penalty
	// Risk is R; nil means losses.BCE.
	Risk losses.Risk
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
	if s.Objective.UsesPenalty() && s.Penalty == nil {
		return fmt.Errorf("trainer spec: objective %q needs a penalty", s.Objective.Method)
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
type Engine interface {
	// Name is the engine's name in records: "graph" or "backprop".
	Name() string
	// NewTrainer builds a trainer for spec. It may be called from several
	// goroutines at once.
	NewTrainer(spec Spec) (Trainer, error)
}
