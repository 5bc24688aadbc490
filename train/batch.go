package train

import (
	"fmt"
	"math"
)

// Data is a training set: n rows of dim features with label y, sensitive
// attribute a and overlap weight w (w may be nil when no penalty is used).
type Data struct {
	X       []float64 // row-major N×Dim
	N, Dim  int
	Y, A, W []float64
}

// Validate checks shapes and values.
func (d Data) Validate() error {
	if d.N < 1 || d.Dim < 1 || len(d.X) != d.N*d.Dim || len(d.Y) != d.N || len(d.A) != d.N {
		return fmt.Errorf("training data: %d rows × %d features, got %d values, %d labels, %d groups",
			d.N, d.Dim, len(d.X), len(d.Y), len(d.A))
	}
	if d.W != nil && len(d.W) != d.N {
		return fmt.Errorf("training data: %d rows but %d overlap weights", d.N, len(d.W))
	}
	for i, v := range d.X {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("training data: row %d, feature %d is %v", i/d.Dim, i%d.Dim, v)
		}
	}
	for i := range d.Y {
		if (d.Y[i] != 0 && d.Y[i] != 1) || (d.A[i] != 0 && d.A[i] != 1) {
			return fmt.Errorf("training data: row %d: label %v and group %v must be 0 or 1", i, d.Y[i], d.A[i])
		}
	}
	return nil
}

// Batch is one mini-batch, padded to a fixed size. Rows N … Size−1 are
// padding: zero in X, Y, A, W, SW and every input column, so they change
// neither the loss nor any gradient (padding is exact, not approximate).
//
// Besides the rows themselves a batch carries the per-row input columns the
// trainer's terms declared (Term.Inputs), computed by each Input's Fill
// whenever the batch is filled; Column returns them by name.
type Batch struct {
	Size, N, Dim int
	X            []float64   // Size×Dim
	Y, A, W      []float64   // Size
	SW           []float64   // 1/N on real rows
	Masks        [][]float64 // one Size×H dropout mask per hidden layer
	// Complete is false when the batch lacks one of the two groups; a
	// penalty is then 0 by construction (docs/method.md §3).
	Complete bool

	inputs []Input
	cols   map[string][]float64
}

// NewBatch allocates a batch of size rows, dim features and hidden layers of
// width h, with a column for each of inputs (duplicates by name are kept once).
func NewBatch(size, dim, hiddenLayers, h int, inputs ...Input) *Batch {
	b := &Batch{Size: size, Dim: dim, X: make([]float64, size*dim), cols: map[string][]float64{}}
	for _, p := range []*[]float64{&b.Y, &b.A, &b.W, &b.SW} {
		*p = make([]float64, size)
	}
	for _, in := range inputs {
		if _, ok := b.cols[in.Name]; ok {
			continue
		}
		b.inputs = append(b.inputs, in)
		b.cols[in.Name] = make([]float64, size)
	}
	for l := 0; l < hiddenLayers; l++ {
		b.Masks = append(b.Masks, make([]float64, size*h))
	}
	return b
}

// Column returns the input column called name (Size entries), or nil when
// the batch carries none of that name.
func (b *Batch) Column(name string) []float64 { return b.cols[name] }

// Inputs lists the input columns the batch carries, in the order they are
// computed.
func (b *Batch) Inputs() []Input { return b.inputs }

// Fill loads rows idx of d into the batch (len(idx) ≤ Size), pads the rest
// and computes SW, the input columns and Complete. Masks are left to the
// caller.
func (b *Batch) Fill(d Data, idx []int) {
	n := len(idx)
	b.N = n
	for k, i := range idx {
		copy(b.X[k*b.Dim:(k+1)*b.Dim], d.X[i*d.Dim:(i+1)*d.Dim])
		b.Y[k], b.A[k] = d.Y[i], d.A[i]
		if d.W != nil {
			b.W[k] = d.W[i]
		} else {
			b.W[k] = 1
		}
	}
	clear(b.X[n*b.Dim:])
	for _, v := range [][]float64{b.Y, b.A, b.W} {
		clear(v[n:])
	}
	b.Derive()
}

// Derive recomputes SW, Complete and the input columns from N, Y, A and W.
func (b *Batch) Derive() {
	n := b.N
	var n1 float64
	for k := 0; k < n; k++ {
		n1 += b.A[k]
	}
	for k := 0; k < b.Size; k++ {
		b.SW[k] = 0
		if k < n {
			b.SW[k] = 1 / float64(n)
		}
	}
	b.Complete = n1 > 0 && n1 < float64(n)
	for _, in := range b.inputs {
		col := b.cols[in.Name]
		clear(col)
		in.Fill(b, col[:n])
	}
}
