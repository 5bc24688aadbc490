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
	var err error
	if d.W, err = Input(g, d.w, name+".W", in, out); err != nil {
		return nil, fmt.Errorf("dense layer %s: %w", name, err)
	}
	if d.B, err = Input(g, d.b, name+".b", out); err != nil {
		return nil, fmt.Errorf("dense layer %s: %w", name, err)
	}
	return d, nil
}

// Input adds to g an input node of the given shape (a vector or a matrix)
// whose value is a tensor backed by data: writing to data changes the node
// for the next run. Gorgonia merges input nodes of equal name, type and
// shape into one, which would silently share a value between two inputs, so
// a name already used in g is an error.
func Input(g *G.ExprGraph, data []float64, name string, shape ...int) (*G.Node, error) {
	size := 1
	for _, s := range shape {
		size *= s
	}
	if len(shape) < 1 || len(shape) > 2 || size != len(data) || size == 0 {
		return nil, fmt.Errorf("input %s: shape %v does not fit %d values", name, shape, len(data))
	}
	v := tensor.New(tensor.WithShape(shape...), tensor.WithBacking(data))
	var n *G.Node
	if len(shape) == 1 {
		n = G.NewVector(g, tensor.Float64, G.WithShape(shape...), G.WithName(name), G.WithValue(v))
	} else {
		n = G.NewMatrix(g, tensor.Float64, G.WithShape(shape...), G.WithName(name), G.WithValue(v))
	}
	if got, ok := n.Value().Data().([]float64); !ok || &got[0] != &data[0] {
		return nil, fmt.Errorf("input %s: the graph already has an input of that name and shape", name)
	}
	return n, nil
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
