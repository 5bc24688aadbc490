package train

import (
	"fmt"
	"math"

	"github.com/fpareto/fp/fairness"
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
// padding: zero in X, Y, A, W, SW, C, G1 and G0, so they change neither the
// loss nor any gradient (padding is exact, not approximate).
type Batch struct {
	Size, N, Dim int
	X            []float64   // Size×Dim
	Y, A, W      []float64   // Size
	SW           []float64   // 1/N on real rows
	C            []float64   // ATO contrast (fairness.Contrast)
	G1, G0       []float64   // a/n₁ and (1−a)/n₀ on real rows
	Masks        [][]float64 // one Size×H dropout mask per hidden layer
	// Complete is false when the batch lacks one of the two groups; its
	// penalty is then 0 by construction (SPEC §3).
	Complete bool
}

// NewBatch allocates a batch of size rows, dim features and hidden layers of width h.
func NewBatch(size, dim, hiddenLayers, h int) *Batch {
	b := &Batch{Size: size, Dim: dim, X: make([]float64, size*dim)}
	for _, p := range []*[]float64{&b.Y, &b.A, &b.W, &b.SW, &b.C, &b.G1, &b.G0} {
		*p = make([]float64, size)
	}
	for l := 0; l < hiddenLayers; l++ {
		b.Masks = append(b.Masks, make([]float64, size*h))
	}
	return b
}

// Fill loads rows idx of d into the batch (len(idx) ≤ Size), pads the rest
// and computes SW, C, G1, G0 and Complete. Masks are left to the caller.
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

// Derive recomputes SW, C, G1, G0 and Complete from N, A and W.
func (b *Batch) Derive() {
	n := b.N
	var n1 float64
	for k := 0; k < n; k++ {
		n1 += b.A[k]
	}
	n0 := float64(n) - n1
	for k := 0; k < b.Size; k++ {
		b.SW[k], b.G1[k], b.G0[k] = 0, 0, 0
		if k >= n {
			continue
		}
		b.SW[k] = 1 / float64(n)
		if b.A[k] == 1 {
			b.G1[k] = 1 / n1
		} else {
			b.G0[k] = 1 / n0
		}
	}
	b.Complete = fairness.Contrast(b.A[:n], b.W[:n], b.C[:n])
	clear(b.C[n:])
	if !b.Complete {
		clear(b.G1)
		clear(b.G0)
	}
}
