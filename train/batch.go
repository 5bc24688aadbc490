package train

import (
	"fmt"
	"math"
)

// Data is a training set: n rows of dim features with label y, sensitive
// attribute a and overlap weight w (w may be nil when no penalty is used).
//
// RW are the rows' weights in the risk: the risk of a batch is
// Σ RW_i·ℓ_i / n over its n rows, so rows of weight 2 count twice (a
// cost-sensitive problem, docs/method.md §13.2). nil weighs every row 1,
// the risk of every other sweep.
//
// Groups is the number of groups of the sensitive attribute: 0 or 2 for
// today's binary attribute, A holding 0 or 1; R ≥ 3 for an attribute of R
// groups, A holding each row's group code 0 … R−1 (as a float64), every
// code on at least one row (docs/method.md §3.3).
type Data struct {
	X       []float64 // row-major N×Dim
	N, Dim  int
	Y, A, W []float64
	RW      []float64
	Groups  int
}

// GroupCount is R, the number of groups of the sensitive attribute: 2 when
// Groups is 0.
func (d Data) GroupCount() int {
	if d.Groups == 0 {
		return 2
	}
	return d.Groups
}

// Rows returns rows idx of d, in that order, as new data; W and RW are
// copied when d has them.
func (d Data) Rows(idx []int) Data {
	out := Data{N: len(idx), Dim: d.Dim, Groups: d.Groups, X: make([]float64, 0, len(idx)*d.Dim),
		Y: make([]float64, len(idx)), A: make([]float64, len(idx))}
	if d.W != nil {
		out.W = make([]float64, len(idx))
	}
	if d.RW != nil {
		out.RW = make([]float64, len(idx))
	}
	for k, j := range idx {
		out.X = append(out.X, d.X[j*d.Dim:(j+1)*d.Dim]...)
		out.Y[k], out.A[k] = d.Y[j], d.A[j]
		if d.W != nil {
			out.W[k] = d.W[j]
		}
		if d.RW != nil {
			out.RW[k] = d.RW[j]
		}
	}
	return out
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
	if d.RW != nil && len(d.RW) != d.N {
		return fmt.Errorf("training data: %d rows but %d row weights", d.N, len(d.RW))
	}
	for i, w := range d.RW {
		if !(w >= 0) || math.IsInf(w, 0) {
			return fmt.Errorf("training data: row %d: row weight %v, want a finite weight ≥ 0", i, w)
		}
	}
	for i, v := range d.X {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("training data: row %d, feature %d is %v", i/d.Dim, i%d.Dim, v)
		}
	}
	if d.Groups > 2 {
		return d.validateGroups()
	}
	if d.Groups != 0 && d.Groups != 2 {
		return fmt.Errorf("training data: %d groups, want 0 or 2 (a 0/1 attribute) or at least 3", d.Groups)
	}
	for i := range d.Y {
		if (d.Y[i] != 0 && d.Y[i] != 1) || (d.A[i] != 0 && d.A[i] != 1) {
			return fmt.Errorf("training data: row %d: label %v and group %v must be 0 or 1", i, d.Y[i], d.A[i])
		}
	}
	return nil
}

// validateGroups checks the labels and group codes of data of R ≥ 3 groups.
func (d Data) validateGroups() error {
	seen := make([]bool, d.Groups)
	for i := range d.Y {
		if d.Y[i] != 0 && d.Y[i] != 1 {
			return fmt.Errorf("training data: row %d: label %v, want 0 or 1", i, d.Y[i])
		}
		a := d.A[i]
		if !(a >= 0 && a < float64(d.Groups)) || a != math.Trunc(a) {
			return fmt.Errorf("training data: row %d: group %v, want an integer code 0 … %d", i, a, d.Groups-1)
		}
		seen[int(a)] = true
	}
	for r, ok := range seen {
		if !ok {
			return fmt.Errorf("training data: group %d of %d has no row: every group needs rows for the penalty to compare it", r, d.Groups)
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
	RW           []float64   // the rows' risk weights (Data.RW; 1 where it has none), Size
	SW           []float64   // RW/N on real rows: the risk's weight of each row
	Masks        [][]float64 // one Size×H dropout mask per hidden layer
	// Groups is the data's Groups (Fill copies it): 0 or 2 for a 0/1
	// attribute, R ≥ 3 for A holding group codes 0 … R−1.
	Groups int
	// Complete is false when the batch lacks one of the groups (one of the
	// two, or of the R); a penalty is then 0 by construction
	// (docs/method.md §3).
	Complete bool

	inputs []Input
	cols   map[string][]float64
	seen   []bool // everyGroup's scratch
}

// NewBatch allocates a batch of size rows, dim features and hidden layers of
// width h, with a column for each of inputs (duplicates by name are kept once).
func NewBatch(size, dim, hiddenLayers, h int, inputs ...Input) *Batch {
	b := &Batch{Size: size, Dim: dim, X: make([]float64, size*dim), cols: map[string][]float64{}}
	for _, p := range []*[]float64{&b.Y, &b.A, &b.W, &b.RW, &b.SW} {
		*p = make([]float64, size)
	}
	// Rows of weight 1 until Fill says otherwise, so that a batch filled
	// by hand (and Derive) has the unweighted risk.
	for k := range b.RW {
		b.RW[k] = 1
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
	b.Groups = d.Groups
	for k, i := range idx {
		copy(b.X[k*b.Dim:(k+1)*b.Dim], d.X[i*d.Dim:(i+1)*d.Dim])
		b.Y[k], b.A[k] = d.Y[i], d.A[i]
		if d.W != nil {
			b.W[k] = d.W[i]
		} else {
			b.W[k] = 1
		}
		if d.RW != nil {
			b.RW[k] = d.RW[i]
		} else {
			b.RW[k] = 1
		}
	}
	clear(b.X[n*b.Dim:])
	for _, v := range [][]float64{b.Y, b.A, b.W, b.RW} {
		clear(v[n:])
	}
	b.Derive()
}

// Derive recomputes SW, Complete and the input columns from N, Groups, Y,
// A, W and RW.
func (b *Batch) Derive() {
	n := b.N
	for k := 0; k < b.Size; k++ {
		b.SW[k] = 0
		if k < n {
			b.SW[k] = b.RW[k] / float64(n)
		}
	}
	if b.Groups > 2 {
		b.Complete = b.everyGroup()
	} else {
		var n1 float64
		for k := 0; k < n; k++ {
			n1 += b.A[k]
		}
		b.Complete = n1 > 0 && n1 < float64(n)
	}
	for _, in := range b.inputs {
		col := b.cols[in.Name]
		clear(col)
		in.Fill(b, col[:n])
	}
}

// everyGroup reports whether each of the Groups codes is on one of the
// batch's real rows.
func (b *Batch) everyGroup() bool {
	if len(b.seen) < b.Groups {
		b.seen = make([]bool, b.Groups)
	}
	seen := b.seen[:b.Groups]
	clear(seen)
	missing := b.Groups
	for _, a := range b.A[:b.N] {
		r := int(a)
		if r >= 0 && r < b.Groups && float64(r) == a && !seen[r] {
			seen[r] = true
			if missing--; missing == 0 {
				return true
			}
		}
	}
	return false
}
