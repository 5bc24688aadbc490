package layers

import (
	"fmt"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Dense is a fully connected layer: for a batch x (N×In) its output is the
// pre-activation x·W + b (N×Out), with W an In×Out matrix and b an Out-vector.
type Dense struct {
	W, B    *G.Node
	In, Out int
	w, b    []float64 // the slices backing W's and B's values
}

// NewDense adds a layer with In×Out weights w (row-major) and Out biases b to
// g. The values are copied into fresh slices, which become the nodes' values:
// writing to Weights or Biases changes the layer for the next run.
func NewDense(g *G.ExprGraph, in, out int, w, b []float64, name string) (*Dense, error) {
	if in < 1 || out < 1 || len(w) != in*out || len(b) != out {
		return nil, fmt.Errorf("dense layer %s: want %d×%d weights and %d biases, got %d and %d",
			name, in, out, out, len(w), len(b))
	}
	d := &Dense{In: in, Out: out, w: append([]float64(nil), w...), b: append([]float64(nil), b...)}
	d.W = G.NewMatrix(g, tensor.Float64, G.WithShape(in, out), G.WithName(name+".W"),
		G.WithValue(tensor.New(tensor.WithShape(in, out), tensor.WithBacking(d.w))))
	d.B = G.NewVector(g, tensor.Float64, G.WithShape(out), G.WithName(name+".b"),
		G.WithValue(tensor.New(tensor.WithShape(out), tensor.WithBacking(d.b))))
	return d, nil
}

// Weights returns the slice backing W (row-major In×Out).
func (d *Dense) Weights() []float64 { return d.w }

// Biases returns the slice backing B.
func (d *Dense) Biases() []float64 { return d.b }

// Forward returns the pre-activation x·W + b of a batch x (N×In).
func (d *Dense) Forward(x *G.Node) (*G.Node, error) {
	xw, err := G.Mul(x, d.W)
	if err != nil {
		return nil, fmt.Errorf("dense %d×%d: %w", d.In, d.Out, err)
	}
	// Pattern {0} repeats b along the batch axis.
	h, err := G.BroadcastAdd(xw, d.B, nil, []byte{0})
	if err != nil {
		return nil, fmt.Errorf("dense %d×%d: %w", d.In, d.Out, err)
	}
	return h, nil
}
