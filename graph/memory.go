package graph

import "github.com/fpareto/fp/train"

var _ train.MemoryEstimator = Engine{}

// rowUnitFloats is the float64 values the engine's compiled programs
// (training, with its gradient nodes, and evaluation) hold per batch row
// and hidden unit of each hidden layer: the matrix product, the biased
// pre-activation, the ReLU, the dropout product and the gradient of each,
// the penalty's view of the hidden layer and the evaluation copy. It is
// measured (heap in use after NewTrainer and one Gradient on 2×500 to
// 3×2000 networks, batches of 150 to 1,000 rows: 12.2 to 13.6), not
// derived from Gorgonia's internals, which choose their own buffers.
const rowUnitFloats = 14

// paramCopies is the parameter-sized values the programs hold: the
// weights, their gradient (a dual value) and the transposes and copies the
// machine makes for the products of the backward pass; measured as
// rowUnitFloats is (about 7 on 3×500 and 3×2000 networks).
const paramCopies = 8

// TrainerBytes is the memory a trainer of spec holds
// (train.MemoryEstimator).
func (Engine) TrainerBytes(spec train.Spec) float64 {
	a := spec.Arch
	return 8 * (paramCopies*train.ParamCount(a, spec.Dim) +
		rowUnitFloats*float64(spec.BatchSize)*float64(a.Hidden)*float64(a.HiddenLayers()))
}
