package model

import (
	"fmt"
	"strconv"
	"strings"
)

// Arch is a fully connected architecture: Layers linear layers in total, that
// is Layers−1 hidden layers of width Hidden, then one output unit (docs/method.md §2).
type Arch struct {
	Layers int // L ≥ 1: linear layers, the output layer included
	Hidden int // H: width of every hidden layer
}

// ParseArch reads "LxH", e.g. "4x4" or "10x32".
func ParseArch(s string) (Arch, error) {
	l, h, ok := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	if !ok {
		return Arch{}, fmt.Errorf("architecture %q: want LxH, e.g. 4x4 (L linear layers, H hidden units)", s)
	}
	L, err1 := strconv.Atoi(l)
	H, err2 := strconv.Atoi(h)
	if err1 != nil || err2 != nil || L < 2 || H < 1 {
		return Arch{}, fmt.Errorf("architecture %q: want LxH with L ≥ 2 and H ≥ 1", s)
	}
	return Arch{Layers: L, Hidden: H}, nil
}

func (a Arch) String() string { return fmt.Sprintf("%dx%d", a.Layers, a.Hidden) }

// HiddenLayers is L−1, the number of hidden layers (each followed by ReLU and dropout).
func (a Arch) HiddenLayers() int { return a.Layers - 1 }

// Shape is one linear layer: In inputs, Out outputs. Its weight is stored
// row-major In×Out so that the pre-activation of a batch X (N×In) is X·W + b.
type Shape struct{ In, Out int }

// Shapes lists the linear layers of the network for inputs of width dim.
func (a Arch) Shapes(dim int) []Shape {
	s := make([]Shape, a.Layers)
	in := dim
	for l := 0; l < a.Layers; l++ {
		out := a.Hidden
		if l == a.Layers-1 {
			out = 1
		}
		s[l] = Shape{In: in, Out: out}
		in = out
	}
	return s
}

// NumParams is the number of scalars in a network of this architecture.
func (a Arch) NumParams(dim int) int {
	n := 0
	for _, s := range a.Shapes(dim) {
		n += s.In*s.Out + s.Out
	}
	return n
}
