package backprop

import (
	"fmt"
	"math"

	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// Trainer computes the objective of one network and its gradient by hand.
// Every buffer is allocated by New; Gradient and Predict allocate nothing.
// A Trainer is used by one goroutine at a time.
type Trainer struct {
	arch   model.Arch
	dim    int // inputs
	size   int // batch rows
	h      int // hidden width
	nh     int // hidden layers
	obj    scalarize.Objective
	pen    penalty
	masked bool // dropout > 0: the batch's masks apply (as in the graph engine)
	shapes []model.Shape

	theta, grad []float64   // all parameters / gradients, flat
	w, b        [][]float64 // views of theta per layer (W row-major In×Out)
	gw, gb      [][]float64 // views of grad per layer
	params      [][]float64 // W0, B0, W1, B1, … views of theta
	grads       [][]float64 // the same views of grad

	pre, act [][]float64 // per hidden layer: size×h pre-activations and masked activations
	z        []float64   // size logits
	dz       []float64   // size: ∂objective/∂z
	d0, d1   []float64   // size×h: gradients flowing back, alternating
	tau      [][]float64 // per hidden layer: h ATO estimates τ̂(h^(l))
	sgn      []float64   // h: dU·sign(τ̂) of the layer being differentiated
	wt       []float64   // h×h: a transposed hidden weight matrix
}

func newTrainer(spec train.Spec, pen penalty) *Trainer {
	a := spec.Arch
	t := &Trainer{
		arch: a, dim: spec.Dim, size: spec.BatchSize, h: a.Hidden, nh: a.HiddenLayers(),
		obj: spec.Objective, pen: pen, shapes: a.Shapes(spec.Dim), masked: spec.Dropout > 0,
	}
	np := a.NumParams(spec.Dim)
	t.theta = make([]float64, np)
	t.grad = make([]float64, np)
	off := 0
	for _, s := range t.shapes {
		nw, nb := s.In*s.Out, s.Out
		t.w = append(t.w, t.theta[off:off+nw:off+nw])
		t.gw = append(t.gw, t.grad[off:off+nw:off+nw])
		off += nw
		t.b = append(t.b, t.theta[off:off+nb:off+nb])
		t.gb = append(t.gb, t.grad[off:off+nb:off+nb])
		off += nb
		t.params = append(t.params, t.w[len(t.w)-1], t.b[len(t.b)-1])
		t.grads = append(t.grads, t.gw[len(t.gw)-1], t.gb[len(t.gb)-1])
	}
	for l := range t.w {
		copy(t.w[l], spec.Init.W[l])
		copy(t.b[l], spec.Init.B[l])
	}
	sh := t.size * t.h
	for l := 0; l < t.nh; l++ {
		t.pre = append(t.pre, make([]float64, sh))
		t.act = append(t.act, make([]float64, sh))
		t.tau = append(t.tau, make([]float64, t.h))
	}
	t.z = make([]float64, t.size)
	t.dz = make([]float64, t.size)
	t.d0 = make([]float64, sh)
	t.d1 = make([]float64, sh)
	t.sgn = make([]float64, t.h)
	t.wt = make([]float64, t.h*t.h)
	return t
}

// BatchSize is the number of rows every batch must have.
func (t *Trainer) BatchSize() int { return t.size }

// Params returns views of the parameters in model.Params order (W0, B0, W1, B1, …).
func (t *Trainer) Params() [][]float64 { return append([][]float64(nil), t.params...) }

// Grads returns views of the gradients, in the order of Params; they hold the
// gradient of the last Gradient call.
func (t *Trainer) Grads() [][]float64 { return append([][]float64(nil), t.grads...) }

// Network returns a copy of the current weights.
func (t *Trainer) Network() *model.Params {
	p := model.NewParams(t.arch, t.dim)
	for l := range t.w {
		copy(p.W[l], t.w[l])
		copy(p.B[l], t.b[l])
	}
	return p
}

// check validates a batch against the trainer's shapes.
func (t *Trainer) check(b *train.Batch) error {
	if b == nil {
		return fmt.Errorf("backprop: nil batch")
	}
	if b.Size != t.size || b.Dim != t.dim || b.N < 0 || b.N > b.Size {
		return fmt.Errorf("backprop: batch of %d rows (%d real) × %d features, want %d rows × %d features",
			b.Size, b.N, b.Dim, t.size, t.dim)
	}
	n := t.size
	if len(b.X) < n*t.dim || len(b.Y) < n || len(b.SW) < n || len(b.C) < n {
		return fmt.Errorf("backprop: batch buffers shorter than %d rows", n)
	}
	if !t.masked {
		return nil
	}
	if len(b.Masks) != t.nh {
		return fmt.Errorf("backprop: batch has %d dropout masks, want one per hidden layer (%d)", len(b.Masks), t.nh)
	}
	for l, m := range b.Masks {
		if len(m) < n*t.h {
			return fmt.Errorf("backprop: dropout mask %d has %d entries, want %d×%d", l+1, len(m), n, t.h)
		}
	}
	return nil
}

// Gradient evaluates the objective on b in training mode and writes its
// gradient into Grads. b.Masks apply when the spec has dropout and are
// ignored without (train.Fit then makes them all ones). Padding rows (N … Size−1) carry zero weight
// in every term, so they are skipped: the result is exactly that of the
// padded batch.
func (t *Trainer) Gradient(b *train.Batch) (train.Loss, error) {
	if err := t.check(b); err != nil {
		return train.Loss{}, err
	}
	n, h, nh := b.N, t.h, t.nh
	masks := b.Masks
	if !t.masked {
		masks = nil
	}
	t.forward(b.X, n, masks)

	// Risk R = Σ sw·(softplus(z) − y·z); ∂R/∂z = sw·(σ(z) − y). One exp per row.
	z, dz := t.z[:n], t.dz[:n]
	sw, y := b.SW[:n], b.Y[:n]
	var r float64
	for i, zi := range z {
		e := math.Exp(-math.Abs(zi))
		sp, sig := math.Log1p(e), 1/(1+e)
		if zi > 0 {
			sp += zi
		} else {
			sig = e * sig
		}
		r += sw[i] * (sp - y[i]*zi)
		dz[i] = sw[i] * (sig - y[i])
	}

	// Penalty U = Σ_l Σ_u |Σ_i c_i h^(l)_{iu}| on the covered layers.
	var u float64
	if t.pen != penNone {
		c := b.C[:n]
		for l := 0; l < nh; l++ {
			if !t.pen.covers(l, nh) {
				continue
			}
			tau := t.tau[l]
			gemvT(tau, t.pre[l][:n*h], n, h, c)
			for _, v := range tau {
				u += math.Abs(v)
			}
		}
	}
	v, dR, dU := t.obj.Value(r, u)
	for i := range dz {
		dz[i] *= dR
	}

	// Output layer: z = a·w + b with a the last hidden activations (n×h).
	last := nh
	top := t.act[nh-1][:n*h]
	gemvT(t.gw[last], top, n, h, dz)
	var sb float64
	for _, d := range dz {
		sb += d
	}
	t.gb[last][0] = sb
	d := t.d0[:n*h]
	wo := t.w[last]
	for i, di := range dz {
		row := d[i*h : i*h+h]
		for j := range row {
			row[j] = di * wo[j]
		}
	}

	// Hidden layers, last to first: d holds ∂/∂(masked activation) on entry.
	for l := nh - 1; l >= 0; l-- {
		pre := t.pre[l][:n*h]
		penalised := dU != 0 && t.pen.covers(l, nh)
		if penalised {
			for j, tv := range t.tau[l] {
				t.sgn[j] = dU * sign(tv)
			}
		}
		// ∂/∂pre = d ⊙ mask ⊙ [pre ≥ 0] (ReLU′(0) = 1, as the graph), plus dU·c_i·sign(τ̂_u).
		if masks != nil {
			reluMaskGrad(d, pre, masks[l][:n*h])
		} else {
			reluGrad(d, pre)
		}
		if penalised {
			for i, ci := range b.C[:n] {
				axpy(ci, t.sgn, d[i*h:i*h+h])
			}
		}
		in, k := b.X[:n*t.dim], t.dim
		if l > 0 {
			in, k = t.act[l-1][:n*h], h
		}
		gemmTN(t.gw[l], in, n, k, d, h)
		colSum(t.gb[l], d, n, h)
		if l > 0 {
			next := t.d1[:n*h]
			gemmNT(next, d, n, h, t.w[l], k, t.wt)
			t.d0, t.d1 = t.d1, t.d0
			d = next
		}
	}
	return train.Loss{R: r, U: u, Objective: v}, nil
}

// forward computes pre-activations, activations and logits of x[:n·dim].
// masks == nil is evaluation mode (no dropout).
func (t *Trainer) forward(x []float64, n int, masks [][]float64) {
	h := t.h
	in, k := x[:n*t.dim], t.dim
	for l := 0; l < t.nh; l++ {
		pre, act := t.pre[l][:n*h], t.act[l][:n*h]
		affine(pre, in, n, k, t.w[l], t.b[l], h)
		if masks != nil {
			m := masks[l][:n*h]
			for i, v := range pre {
				if v >= 0 {
					act[i] = v * m[i]
				} else {
					act[i] = 0
				}
			}
		} else {
			for i, v := range pre {
				act[i] = max(v, 0)
			}
		}
		in, k = act, h
	}
	z := t.z[:n]
	gemv(z, in, n, k, t.w[t.nh])
	bo := t.b[t.nh][0]
	for i := range z {
		z[i] += bo
	}
}

// Predict writes the logits of n rows of x (row-major n×dim) in evaluation
// mode (no dropout) into logits[:n], in chunks of the batch size.
func (t *Trainer) Predict(x []float64, n int, logits []float64) error {
	if n < 0 || len(x) < n*t.dim || len(logits) < n {
		return fmt.Errorf("backprop: predict %d rows: got %d values (want %d) and room for %d logits",
			n, len(x), n*t.dim, len(logits))
	}
	for s := 0; s < n; s += t.size {
		m := min(t.size, n-s)
		t.forward(x[s*t.dim:(s+m)*t.dim], m, nil)
		copy(logits[s:s+m], t.z[:m])
	}
	return nil
}

// reluMaskGrad computes d = d ⊙ m ⊙ [pre ≥ 0].
func reluMaskGrad(d, pre, m []float64) {
	pre, m = pre[:len(d)], m[:len(d)]
	for j, p := range pre {
		if p >= 0 {
			d[j] *= m[j]
		} else {
			d[j] = 0
		}
	}
}

// reluGrad computes d = d ⊙ [pre ≥ 0].
func reluGrad(d, pre []float64) {
	pre = pre[:len(d)]
	for j, p := range pre {
		if p < 0 {
			d[j] = 0
		}
	}
}

// sign is the derivative of |x| as Gorgonia's tensor Abs takes it: 0 at 0.
func sign(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}
