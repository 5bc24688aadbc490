package graph

import (
	"fmt"

	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/train"
)

// ConditionedTrainer trains a λ-conditioned network (docs/method.md §12) in
// one graph: the conditioning network is graph code (layers.FiLM) fed the
// encoding of λ as an input, and it modulates every hidden pre-activation
// of the MLP, γ_l ⊙ z_l + δ_l, before ReLU and dropout. The penalties that
// read hidden layers therefore read the modulated layers, and ato-output the
// output, as they do for the plain network at λ (model.Conditioned.At);
// with spec.FiLMPenalty "before" they read the z_l instead, which the fold
// has no form of (docs/method.md §12).
// Params and Grads are the MLP's tensors, then the conditioning network's
// (model.Conditioned.Tensors order). SetLambda changes both the objective's
// λ and the conditioning network's input, for Gradient and Predict.
type ConditionedTrainer struct {
	*Trainer
}

var _ train.ConditionedTrainer = (*ConditionedTrainer)(nil)

// NewConditioned builds and compiles the graph for spec, which must have a
// conditioning network (spec.FiLM) and a scalarized objective; its λ
// starts at spec.Objective.Lambda. spec.Init and spec.FiLM are copied.
func NewConditioned(spec train.Spec) (*ConditionedTrainer, error) {
	if spec.FiLM == nil {
		return nil, fmt.Errorf("graph engine: conditioned trainer: the spec has no conditioning network")
	}
	t, err := newTrainer(spec)
	if err != nil {
		return nil, err
	}
	return &ConditionedTrainer{Trainer: t}, nil
}

// Lambda is the λ last set.
func (c *ConditionedTrainer) Lambda() float64 { return c.spec.Objective.Lambda }

// Network is the plain network the conditioned one computes at the current
// λ (model.Conditioned.At).
func (c *ConditionedTrainer) Network() *model.Params {
	return c.Conditioned().At(c.Lambda())
}

// Conditioned returns a copy of the current weights.
func (c *ConditionedTrainer) Conditioned() *model.Conditioned {
	return &model.Conditioned{Net: c.mlp.Network(), FiLM: c.prog.FiLM.Network()}
}
