package optim

import (
	"fmt"
	"math"

	"github.com/fpareto/fp/internal/vec"
)

// AdamConfig holds Adam's hyper-parameters. The zero value is invalid; use
// DefaultAdam (docs/method.md §5: lr 1e-3, β = (0.9, 0.999), ε = 1e-8).
type AdamConfig struct {
	LR, Beta1, Beta2, Eps float64
}

// DefaultAdam is PyTorch's default Adam.
var DefaultAdam = AdamConfig{LR: 1e-3, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8}

// Adam is Adam (Kingma & Ba) with PyTorch's arithmetic:
//
//	m ← β1·m + (1−β1)·g,  v ← β2·v + (1−β2)·g²
//	θ ← θ − (lr/(1−β1ᵗ)) · m / (√v/√(1−β2ᵗ) + ε)
//
// It keeps one moment buffer per parameter tensor, allocated once.
type Adam struct {
	cfg  AdamConfig
	lr   float64
	t    int
	m, v [][]float64
}

// NewAdam returns an optimizer for parameter tensors of the given sizes.
func NewAdam(cfg AdamConfig, sizes []int) (*Adam, error) {
	if !(cfg.LR > 0) || !(cfg.Beta1 >= 0 && cfg.Beta1 < 1) || !(cfg.Beta2 >= 0 && cfg.Beta2 < 1) || !(cfg.Eps > 0) {
		return nil, fmt.Errorf("adam: invalid hyper-parameters %+v", cfg)
	}
	a := &Adam{cfg: cfg, lr: cfg.LR}
	for _, n := range sizes {
		a.m = append(a.m, make([]float64, n))
		a.v = append(a.v, make([]float64, n))
	}
	return a, nil
}

// NewAdamFor returns an optimizer for the given parameter tensors (only
// their sizes are used).
func NewAdamFor(cfg AdamConfig, params [][]float64) (*Adam, error) {
	sizes := make([]int, len(params))
	for i, p := range params {
		sizes[i] = len(p)
	}
	return NewAdam(cfg, sizes)
}

// LR is the current learning rate.
func (a *Adam) LR() float64 { return a.lr }

// SetLR changes the learning rate, keeping the moments and the step count.
func (a *Adam) SetLR(lr float64) { a.lr = lr }

// Steps is the number of updates made so far.
func (a *Adam) Steps() int { return a.t }

// Step updates params in place from grads (same shapes as given to NewAdam).
func (a *Adam) Step(params, grads [][]float64) {
	a.t++
	b1, b2 := a.cfg.Beta1, a.cfg.Beta2
	bc1 := 1 - math.Pow(b1, float64(a.t))
	bc2 := math.Sqrt(1 - math.Pow(b2, float64(a.t)))
	step := a.lr / bc1
	eps := a.cfg.Eps
	for k, p := range params {
		// vec.AdamPlain's loop, four entries at a time where the CPU can.
		vec.Adam(p, grads[k], a.m[k], a.v[k], b1, b2, step, bc2, eps)
	}
}

// AdamState is an optimizer's state: what a saved training run needs to
// go on exactly where it stopped.
type AdamState struct {
	LR float64     `json:"lr"`
	T  int         `json:"t"`
	M  [][]float64 `json:"m"`
	V  [][]float64 `json:"v"`
}

// State returns a copy of the optimizer's state.
func (a *Adam) State() AdamState {
	cp := func(ts [][]float64) [][]float64 {
		out := make([][]float64, len(ts))
		for i, t := range ts {
			out[i] = append([]float64(nil), t...)
		}
		return out
	}
	return AdamState{LR: a.lr, T: a.t, M: cp(a.m), V: cp(a.v)}
}

// Restore sets the optimizer's state to s, which must have its shapes.
func (a *Adam) Restore(s AdamState) error {
	if len(s.M) != len(a.m) || len(s.V) != len(a.v) || s.T < 0 {
		return fmt.Errorf("adam: state of %d/%d tensors at step %d, want %d", len(s.M), len(s.V), s.T, len(a.m))
	}
	for i := range a.m {
		if len(s.M[i]) != len(a.m[i]) || len(s.V[i]) != len(a.v[i]) {
			return fmt.Errorf("adam: state tensor %d has %d/%d entries, want %d", i, len(s.M[i]), len(s.V[i]), len(a.m[i]))
		}
		copy(a.m[i], s.M[i])
		copy(a.v[i], s.V[i])
	}
	a.lr, a.t = s.LR, s.T
	return nil
}
