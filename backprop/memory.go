package backprop

import "github.com/fpareto/fp/train"

var _ train.MemoryEstimator = Engine{}

// TrainerBytes is the memory a trainer of spec holds
// (train.MemoryEstimator), counted from the sizes newTrainer allocates:
// parameters and gradient; per hidden layer and batch row the gate and
// activation of each unit; two gradients flowing back; the centred
// pre-activations of the normalized penalty; the transposed hidden weights
// of a network with hidden-to-hidden layers. It is counted in float64 so
// that absurd sizes do not overflow.
func (Engine) TrainerBytes(spec train.Spec) float64 {
	a := spec.Arch
	h, nh, size := float64(a.Hidden), float64(a.HiddenLayers()), float64(spec.BatchSize)
	floats := 2*train.ParamCount(a, spec.Dim) + (2*nh+3)*size*h + 3*size + 3*h
	if a.HiddenLayers() >= 2 {
		floats += h * h
	}
	return 8 * floats
}
