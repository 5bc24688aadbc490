package graph

import (
	"fmt"
	"strings"
	"unsafe"

	"github.com/fpareto/fp/internal/gemm"
	"github.com/fpareto/fp/internal/vec"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Fast paths for the ops that dominate an MLP's step. Gorgonia's own
// implementations of these allocate on every call (iterators, shape copies,
// scalar results) and send matrix products through gonum's Dgemm, which
// starts goroutines; these write into the value of the previous run and use
// fp's matrix kernel. Each is chosen when the program is built, from the
// op's kind and the shapes of its node and children, and computes what the
// op computes (matrix products round as the kernel does: FMA, a different
// summation order). A value of an unexpected kind at run time makes the
// step fall back to the op itself.

// fastFn computes a step into prev (nil: into a new value) and returns the
// value; ok false means it cannot, and the op must run instead.
type fastFn func(prev G.Value, in []G.Value) (v G.Value, ok bool)

// fastOp returns the fast path for node n with children ch, or nil.
func fastOp(n *G.Node, ch []*G.Node) fastFn {
	if n.Dtype() != tensor.Float64 {
		return nil
	}
	for _, c := range ch {
		if c.Dtype() != tensor.Float64 {
			return nil
		}
	}
	op := n.Op()
	kind := fmt.Sprintf("%T", op)
	desc := op.String()
	switch {
	case kind == "gorgonia.linAlgBinOp" && len(ch) == 2:
		return matMulOp(n, ch, desc)
	case kind == "gorgonia.elemBinOp" && len(ch) == 2:
		return binOp(n, ch, desc)
	case kind == "gorgonia.elemUnaryOp" && len(ch) == 1:
		return unaryOp(n, ch, op)
	case kind == "gorgonia.sumOp" && desc == "Σ[0]" && len(ch) == 1:
		return sumRowsOp(n, ch)
	case kind == "gorgonia.reshapeOp" && len(ch) == 1:
		return reshapeOp(n, ch)
	case kind == "*gorgonia.repeatOp" && desc == "Repeat0" && len(ch) >= 1:
		return repeatRowsOp(n, ch)
	case kind == "gorgonia.sizeOp" && len(ch) == 1:
		return sameEveryRun(op)
	case kind == "*gorgonia.sliceOp" && len(ch) == 1:
		return sliceVecOp(n, ch, op)
	case kind == "gorgonia.sliceIncrOp" && len(ch) == 2:
		return sliceIncrVecOp(n, ch, op)
	}
	return nil
}

// rangeOf is the contiguous range [start, end) that a slice op takes from a
// vector of length size, if it is one.
func rangeOf(op G.Op, size int) (start, end int, ok bool) {
	r, isRange := op.(interface {
		Start() int
		End() int
		Step() int
	})
	if !isRange || r.Step() != 1 {
		return 0, 0, false
	}
	start, end = r.Start(), r.End()
	return start, end, 0 <= start && start < end && end <= size
}

// sliceVecOp copies the range of a vector into a value of its own (the op
// makes a view, a new value on every run).
func sliceVecOp(n *G.Node, ch []*G.Node, op G.Op) fastFn {
	is, os := ch[0].Shape(), n.Shape()
	if len(is) != 1 || len(os) != 1 {
		return nil
	}
	start, end, ok := rangeOf(op, is[0])
	if !ok || os[0] != end-start {
		return nil
	}
	var va, vo view
	return func(prev G.Value, in []G.Value) (G.Value, bool) {
		a, ok := va.of(in[0], is[0])
		if !ok {
			return nil, false
		}
		out, o := vo.tensor(prev, os)
		copy(o, a[start:end])
		return out, true
	}
}

// sliceIncrVecOp is the gradient of a vector slice: zero but the range,
// which holds the increment. Gorgonia's own op adds the increment to the
// value it is given to write into without zeroing it first, so a reused
// value would accumulate (see newMachine).
func sliceIncrVecOp(n *G.Node, ch []*G.Node, op G.Op) fastFn {
	is, ds, os := ch[0].Shape(), ch[1].Shape(), n.Shape()
	if len(is) != 1 || len(ds) != 1 || !os.Eq(is) {
		return nil
	}
	start, end, ok := rangeOf(op, is[0])
	if !ok || ds[0] != end-start {
		return nil
	}
	var vd, vo view
	return func(prev G.Value, in []G.Value) (G.Value, bool) {
		d, ok := vd.of(in[1], ds[0])
		if !ok {
			return nil, false
		}
		out, o := vo.tensor(prev, os)
		clear(o)
		copy(o[start:end], d)
		return out, true
	}
}

// binOp is an elementwise +, −, ⊙, ÷ or a comparison returning 1 or 0,
// between tensors of one shape, a tensor and a scalar, or two scalars.
func binOp(n *G.Node, ch []*G.Node, desc string) fastFn {
	f := strings.Fields(desc)
	if len(f) != 2 {
		return nil
	}
	code := -1
	for i, name := range binNames {
		if name == f[0] {
			code = i
		}
	}
	if code < 0 || (code >= opGE && f[1] != "true") { // comparisons returning booleans are not
		return nil
	}
	os, as, bs := n.Shape(), ch[0].Shape(), ch[1].Shape()
	size := os.TotalSize()
	sa, sb := as.IsScalar(), bs.IsScalar()
	switch {
	case os.IsScalar():
		if !sa || !sb {
			return nil
		}
		var x, y, o [1]float64
		return func(prev G.Value, in []G.Value) (G.Value, bool) {
			var okA, okB bool
			x[0], okA = scalarOf(in[0])
			y[0], okB = scalarOf(in[1])
			if !okA || !okB {
				return nil, false
			}
			binVV(code, o[:], x[:], y[:])
			return outScalar(prev, o[0]), true
		}
	case sa && sb, !sa && !as.Eq(os), !sb && !bs.Eq(os):
		return nil
	}
	var va, vb, vo view
	return func(prev G.Value, in []G.Value) (G.Value, bool) {
		switch {
		case sa:
			a, okA := scalarOf(in[0])
			b, okB := vb.of(in[1], size)
			if !okA || !okB {
				return nil, false
			}
			out, o := vo.tensor(prev, os)
			binSV(code, o, a, b)
			return out, true
		case sb:
			a, okA := va.of(in[0], size)
			b, okB := scalarOf(in[1])
			if !okA || !okB {
				return nil, false
			}
			out, o := vo.tensor(prev, os)
			binVS(code, o, a, b)
			return out, true
		}
		a, okA := va.of(in[0], size)
		b, okB := vb.of(in[1], size)
		if !okA || !okB {
			return nil, false
		}
		out, o := vo.tensor(prev, os)
		binVV(code, o, a, b)
		return out, true
	}
}

// The elementwise binary ops, by their names in Gorgonia's op strings.
const (
	opAdd = iota
	opSub
	opMul
	opDiv
	opGE // comparisons from here on
	opGT
	opLE
	opLT
)

var binNames = [...]string{"+", "-", "⊙", "÷", ">=", ">", "<=", "<"}

// binVV sets o = a op b elementwise; one loop per op, so that the loops
// vectorise and have no call per element.
func binVV(op int, o, a, b []float64) {
	a, b = a[:len(o)], b[:len(o)]
	if vec.Have {
		switch op {
		case opAdd:
			vec.Add(o, a, b)
			return
		case opMul:
			vec.Mul(o, a, b)
			return
		}
	}
	switch op {
	case opAdd:
		for i := range o {
			o[i] = a[i] + b[i]
		}
	case opSub:
		for i := range o {
			o[i] = a[i] - b[i]
		}
	case opMul:
		for i := range o {
			o[i] = a[i] * b[i]
		}
	case opDiv:
		for i := range o {
			o[i] = a[i] / b[i]
		}
	default:
		for i := range o {
			o[i] = cmp(op, a[i], b[i])
		}
	}
}

// binVS sets o = a op b with b a scalar.
func binVS(op int, o, a []float64, b float64) {
	a = a[:len(o)]
	switch op {
	case opAdd:
		for i := range o {
			o[i] = a[i] + b
		}
	case opSub:
		for i := range o {
			o[i] = a[i] - b
		}
	case opMul:
		for i := range o {
			o[i] = a[i] * b
		}
	case opDiv:
		for i := range o {
			o[i] = a[i] / b
		}
	case opGE: // x ≥ 0 is every ReLU's gate: branch-free
		if vec.Have {
			vec.GE(o, a, b)
			return
		}
		for i := range o {
			var v float64
			if a[i] >= b {
				v = 1
			}
			o[i] = v
		}
	default:
		for i := range o {
			o[i] = cmp(op, a[i], b)
		}
	}
}

// binSV sets o = a op b with a a scalar.
func binSV(op int, o []float64, a float64, b []float64) {
	b = b[:len(o)]
	switch op {
	case opAdd:
		for i := range o {
			o[i] = a + b[i]
		}
	case opSub:
		for i := range o {
			o[i] = a - b[i]
		}
	case opMul:
		for i := range o {
			o[i] = a * b[i]
		}
	case opDiv:
		for i := range o {
			o[i] = a / b[i]
		}
	default:
		for i := range o {
			o[i] = cmp(op, a, b[i])
		}
	}
}

// cmp is a comparison as 1 or 0.
func cmp(op int, a, b float64) float64 {
	var r bool
	switch op {
	case opGE:
		r = a >= b
	case opGT:
		r = a > b
	case opLE:
		r = a <= b
	default:
		r = a < b
	}
	if r {
		return 1
	}
	return 0
}

// unaryOp runs a tensor's elementwise op in place on a copy of its input
// in last run's value: Gorgonia's own arithmetic, without its allocations.
func unaryOp(n *G.Node, ch []*G.Node, op G.Op) fastFn {
	ud, ok := op.(G.UnsafeDoer)
	os := n.Shape()
	if !ok || os.IsScalar() || !ch[0].Shape().Eq(os) {
		return nil
	}
	size := os.TotalSize()
	var va, vo view
	return func(prev G.Value, in []G.Value) (G.Value, bool) {
		a, ok := va.of(in[0], size)
		if !ok {
			return nil, false
		}
		out, o := vo.tensor(prev, os)
		copy(o, a)
		v, err := ud.UnsafeDo(out)
		if err != nil || v != out {
			return nil, false
		}
		return out, true
	}
}

// sumRowsOp sums a vector to a scalar or a matrix's rows to a vector.
func sumRowsOp(n *G.Node, ch []*G.Node) fastFn {
	is, os := ch[0].Shape(), n.Shape()
	switch {
	case len(is) == 1 && os.IsScalar():
		size := is[0]
		var va view
		return func(prev G.Value, in []G.Value) (G.Value, bool) {
			a, ok := va.of(in[0], size)
			if !ok {
				return nil, false
			}
			var s float64
			for _, v := range a {
				s += v
			}
			return outScalar(prev, s), true
		}
	case len(is) == 2 && len(os) == 1 && os[0] == is[1]:
		rows, cols := is[0], is[1]
		var va, vo view
		return func(prev G.Value, in []G.Value) (G.Value, bool) {
			a, ok := va.of(in[0], rows*cols)
			if !ok {
				return nil, false
			}
			out, o := vo.tensor(prev, os)
			copy(o, a[:cols])
			for r := 1; r < rows; r++ {
				for j, v := range a[r*cols : r*cols+cols] {
					o[j] += v
				}
			}
			return out, true
		}
	}
	return nil
}

// reshapeOp copies its input into a value of the new shape (the op itself
// makes a view, a new value on every run).
func reshapeOp(n *G.Node, ch []*G.Node) fastFn {
	os := n.Shape()
	size := os.TotalSize()
	is := ch[0].Shape()
	if os.IsScalar() || max(is.TotalSize(), 1) != size {
		return nil
	}
	var va, vo view
	return func(prev G.Value, in []G.Value) (G.Value, bool) {
		if is.IsScalar() {
			x, ok := scalarOf(in[0])
			if !ok {
				return nil, false
			}
			out, o := vo.tensor(prev, os)
			o[0] = x
			return out, true
		}
		a, ok := va.of(in[0], size)
		if !ok {
			return nil, false
		}
		out, o := vo.tensor(prev, os)
		copy(o, a)
		return out, true
	}
}

// repeatRowsOp repeats a tensor whose first axis has length 1 (or a
// scalar) along that axis: a row broadcast.
func repeatRowsOp(n *G.Node, ch []*G.Node) fastFn {
	is, os := ch[0].Shape(), n.Shape()
	if os.IsScalar() || (!is.IsScalar() && (is[0] != 1 || len(is) != len(os))) {
		return nil
	}
	w := os.TotalSize() / os[0]
	if max(is.TotalSize(), 1) != w {
		return nil
	}
	for i := 1; i < len(is); i++ {
		if is[i] != os[i] {
			return nil
		}
	}
	rows := os[0]
	var va, vo view
	return func(prev G.Value, in []G.Value) (G.Value, bool) {
		var row []float64
		if is.IsScalar() {
			s, ok := scalarOf(in[0])
			if !ok {
				return nil, false
			}
			row = []float64{s}
		} else {
			var ok bool
			if row, ok = va.of(in[0], w); !ok {
				return nil, false
			}
		}
		out, o := vo.tensor(prev, os)
		for r := 0; r < rows; r++ {
			copy(o[r*w:r*w+w], row)
		}
		return out, true
	}
}

// sameEveryRun is an op whose result depends only on the shapes of its
// inputs, which are fixed: it runs once, in the fresh run, and its value is
// kept.
func sameEveryRun(op G.Op) fastFn {
	return func(prev G.Value, in []G.Value) (G.Value, bool) {
		if prev != nil {
			return prev, true
		}
		v, err := op.Do(in...)
		return v, err == nil
	}
}

// scalarOf reads a float64 scalar value.
func scalarOf(v G.Value) (float64, bool) {
	switch s := v.(type) {
	case *G.F64:
		return float64(*s), true
	case *tensor.Dense:
		if d, ok := s.Data().([]float64); ok && len(d) == 1 {
			return d[0], true
		}
		if d, ok := s.Data().(float64); ok {
			return d, true
		}
	}
	return 0, false
}

// outScalar writes x into prev if it is a *G.F64, or into a new one.
func outScalar(prev G.Value, x float64) G.Value {
	if p, ok := prev.(*G.F64); ok {
		*p = G.F64(x)
		return p
	}
	p := G.F64(x)
	return &p
}

// matMulOp is a product of two matrices, either transposed, a
// matrix-vector product, or an outer product of two vectors. Products with
// at least 8 output columns use fp's matrix kernel where the CPU has it
// (Gorgonia's BLAS otherwise); narrower ones, such as the output layer and
// the penalty's hᵀc, plain loops.
func matMulOp(n *G.Node, ch []*G.Node, desc string) fastFn {
	as, bs, os := ch[0].Shape(), ch[1].Shape(), n.Shape()
	var ta, tb bool
	switch desc {
	case "A × B", "A × b":
	case "Aᵀ × B", "Aᵀ × b":
		ta = true
	case "A × Bᵀ":
		tb = true
	case "Aᵀ × Bᵀ":
		ta, tb = true, true
	case "a ⊗ b":
		if len(as) != 1 || len(bs) != 1 || len(os) != 2 || os[0] != as[0] || os[1] != bs[0] {
			return nil
		}
		return outerOp(as[0], bs[0], os)
	default:
		return nil
	}
	if len(as) != 2 || len(bs) < 1 || len(bs) > 2 || len(os) != len(bs) {
		return nil
	}
	rows, k := as[0], as[1]
	if ta {
		rows, k = k, rows
	}
	kb, cols := bs[0], 1 // op(B) is kb×cols
	if len(bs) == 2 {
		kb, cols = bs[0], bs[1]
		if tb {
			kb, cols = cols, kb
		}
	}
	if k != kb || os[0] != rows || (len(os) == 2 && os[1] != cols) {
		return nil
	}
	rs, cs := k, 1
	if ta {
		rs, cs = 1, rows
	}
	kernel := gemm.Have && cols >= 8
	if !kernel && cols >= 8 {
		return nil // Gorgonia's BLAS
	}
	var bt []float64 // Bᵀ stored as k×cols, for the kernel
	if kernel && tb {
		bt = make([]float64, k*cols)
	}
	var va, vb, vo view
	return func(prev G.Value, in []G.Value) (G.Value, bool) {
		a, okA := va.of(in[0], rows*k)
		b, okB := vb.of(in[1], k*cols)
		if !okA || !okB {
			return nil, false
		}
		out, c := vo.tensor(prev, os)
		if !kernel {
			smallMatMul(c, a, b, rows, cols, k, ta, tb)
			return out, true
		}
		if tb {
			// b is cols×k; the kernel reads B by rows of cols.
			for j := 0; j < cols; j++ {
				for p, v := range b[j*k : j*k+k] {
					bt[p*cols+j] = v
				}
			}
			b = bt
		}
		gemm.Set(rows, cols, k, a, rs, cs, b, cols, c, cols)
		return out, true
	}
}

// smallMatMul sets c (rows×cols) = op(A)·op(B) for A stored rows×k (k×rows
// when ta) and B stored k×cols (cols×k when tb), with contiguous inner
// loops.
func smallMatMul(c, a, b []float64, rows, cols, k int, ta, tb bool) {
	switch {
	case !ta && !tb && cols == 1:
		for r := range c[:rows] {
			c[r] = dot(a[r*k:r*k+k], b)
		}
	case !ta && !tb && cols == 4: // narrow layers: the row stays in registers
		for r := 0; r < rows; r++ {
			var s0, s1, s2, s3 float64
			for p, v := range a[r*k : r*k+k] {
				br := b[p*4 : p*4+4 : p*4+4]
				s0 += v * br[0]
				s1 += v * br[1]
				s2 += v * br[2]
				s3 += v * br[3]
			}
			cr := c[r*4 : r*4+4 : r*4+4]
			cr[0], cr[1], cr[2], cr[3] = s0, s1, s2, s3
		}
	case !ta && !tb:
		for r := 0; r < rows; r++ {
			cr := c[r*cols : r*cols+cols]
			clear(cr)
			for p, v := range a[r*k : r*k+k] {
				axpy(v, b[p*cols:p*cols+cols], cr)
			}
		}
	case ta && !tb && cols == 4:
		for r := 0; r < rows; r++ {
			var s0, s1, s2, s3 float64
			for p := 0; p < k; p++ {
				v := a[p*rows+r]
				br := b[p*4 : p*4+4 : p*4+4]
				s0 += v * br[0]
				s1 += v * br[1]
				s2 += v * br[2]
				s3 += v * br[3]
			}
			cr := c[r*4 : r*4+4 : r*4+4]
			cr[0], cr[1], cr[2], cr[3] = s0, s1, s2, s3
		}
	case ta && !tb:
		clear(c[:rows*cols])
		for p := 0; p < k; p++ {
			br := b[p*cols : p*cols+cols]
			for r, v := range a[p*rows : p*rows+rows] {
				axpy(v, br, c[r*cols:r*cols+cols])
			}
		}
	case !ta && tb:
		for r := 0; r < rows; r++ {
			ar := a[r*k : r*k+k]
			for j := 0; j < cols; j++ {
				c[r*cols+j] = dot(ar, b[j*k:j*k+k])
			}
		}
	default:
		for r := 0; r < rows; r++ {
			for j := 0; j < cols; j++ {
				var s float64
				for p := 0; p < k; p++ {
					s += a[p*rows+r] * b[j*k+p]
				}
				c[r*cols+j] = s
			}
		}
	}
}

// dot returns a·b over len(a) entries.
func dot(a, b []float64) float64 {
	b = b[:len(a)]
	var s float64
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

// axpy sets y += v·x.
func axpy(v float64, x, y []float64) {
	x = x[:len(y)]
	for j := range y {
		y[j] += v * x[j]
	}
}

// outerOp is the outer product of an m- and an n-vector.
func outerOp(m, n int, os tensor.Shape) fastFn {
	var va, vb, vo view
	return func(prev G.Value, in []G.Value) (G.Value, bool) {
		a, okA := va.of(in[0], m)
		b, okB := vb.of(in[1], n)
		if !okA || !okB {
			return nil, false
		}
		out, c := vo.tensor(prev, os)
		for i, x := range a {
			row := c[i*n : i*n+n]
			for j, y := range b[:len(row)] {
				row[j] = x * y
			}
		}
		return out, true
	}
}

// view remembers the backing slice of the tensor a step last saw in one
// place: Gorgonia hands it out only through Data, which allocates, and the
// tensors are the same from run to run.
type view struct {
	t *tensor.Dense
	s []float64
}

// of returns the backing slice of v if it is a contiguous row-major float64
// tensor of size elements.
func (c *view) of(v G.Value, size int) ([]float64, bool) {
	d, ok := v.(*tensor.Dense)
	if !ok || d.Dtype() != tensor.Float64 || d.IsMaterializable() || d.DataOrder().IsColMajor() || d.DataSize() != size {
		return nil, false
	}
	if d != c.t || len(c.s) != size || d.Uintptr() != uintptr(unsafe.Pointer(unsafe.SliceData(c.s))) {
		s, ok := d.Data().([]float64)
		if !ok || len(s) != size {
			return nil, false
		}
		c.t, c.s = d, s
	}
	return c.s, true
}

// tensor returns prev if it is a float64 tensor of shape sh, or a new one,
// with its backing slice.
func (c *view) tensor(prev G.Value, sh tensor.Shape) (G.Value, []float64) {
	if prev != nil {
		if s, ok := c.of(prev, sh.TotalSize()); ok && prev.Shape().Eq(sh) {
			return prev, s
		}
	}
	t := tensor.New(tensor.WithShape(sh.Clone()...), tensor.Of(tensor.Float64))
	c.t, c.s = t, t.Float64s()
	return t, c.s
}
