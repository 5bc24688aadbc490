package backprop

import (
	"errors"
	"fmt"

	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/losses"
	"github.com/fpareto/fp/train"
)

// Name is the engine's name in records.
const Name = "backprop"

// ErrUnsupported is wrapped by the error NewTrainer returns for a penalty or
// a risk that is not built in: those are graph code, which only the graph
// engine can differentiate.
var ErrUnsupported = errors.New("the backprop engine supports only the built-in risk (bce) and penalties (ato-penultimate, ato-all); use the graph engine (--engine graph)")

// Engine builds handwritten-gradient trainers. The zero value is ready to use.
type Engine struct{}

var _ train.Engine = Engine{}

// Name returns "backprop".
func (Engine) Name() string { return Name }

// NewTrainer builds a trainer for spec. It refuses a custom penalty or risk
// with an error wrapping ErrUnsupported. It is safe for concurrent use.
func (Engine) NewTrainer(spec train.Spec) (train.Trainer, error) {
	return New(spec)
}

// New is NewTrainer with the concrete type.
func New(spec train.Spec) (*Trainer, error) {
	if err := spec.Validate(); err != nil {
		return nil, fmt.Errorf("backprop: %w", err)
	}
	if spec.Risk != nil && !losses.IsBCE(spec.Risk) {
		return nil, fmt.Errorf("backprop: risk %q: %w", spec.Risk.Name(), ErrUnsupported)
	}
	pen := penNone
	if spec.Penalty != nil {
		all, ok := fairness.IsBuiltinATO(spec.Penalty)
		if !ok {
			return nil, fmt.Errorf("backprop: penalty %q: %w", spec.Penalty.Name(), ErrUnsupported)
		}
		// A risk-only objective never reads U: the graph engine builds no
		// penalty for it either, and reports U = 0.
		if spec.Objective.UsesPenalty() {
			pen = penLast
			if all {
				pen = penAll
			}
		}
	}
	if err := spec.Init.Validate(); err != nil {
		return nil, fmt.Errorf("backprop: initial network: %w", err)
	}
	return newTrainer(spec, pen), nil
}

// penalty says which hidden layers the built-in ATO penalty covers.
type penalty int

const (
	penNone penalty = iota // objective without U
	penLast                // ato-penultimate: the last hidden layer
	penAll                 // ato-all: every hidden layer
)

// covers reports whether hidden layer l (0-based) of nh is penalised.
func (p penalty) covers(l, nh int) bool {
	switch p {
	case penAll:
		return true
	case penLast:
		return l == nh-1
	}
	return false
}
