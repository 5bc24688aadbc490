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
	spec train.Spec
	arch model.Arch
	dim  int // inputs
	size int // batch rows
	h    int // hidden width
	nh   int // hidden layers
	obj  scalarize.Objective
	pen  penalty
	// contrast names the batch column holding the ATO contrast ("" when
	// the objective has no penalty).
	contrast string
	masked   bool // dropout > 0: the batch's masks apply (as in the graph engine)

	// The R-group form of the penalty (GroupATOPenalty): groups is R (0
	// for a binary penalty), groupCols the names of the overlap-mean
	// columns, gc their rows in the batch at hand. For each covered layer
	// tau holds D_u = m_hi,u − m_lo,u, and hi, lo the groups of each
	// unit's maximum and minimum mean (the lowest group on a tie); means
	// is R×h scratch for m_r,u. For ato-output the same live in
	// outHi, outLo.
	groups       int
	groupCols    []string
	gc           [][]float64
	hi, lo       [][]int
	means        []float64
	outHi, outLo int

	theta, grad []float64   // all parameters / gradients, flat
	w, b        [][]float64 // views of theta per layer (W row-major In×Out)
	gw, gb      [][]float64 // views of grad per layer
	params      [][]float64 // W0, B0, W1, B1, … views of theta
	grads       [][]float64 // the same views of grad

	// Per hidden layer, size×h: gate holds the pre-activations until the
	// activation is taken, then ∂act/∂pre = mask ⊙ [pre ≥ 0]; act holds the
	// masked activations.
	gate, act [][]float64
	z         []float64   // size logits
	dz        []float64   // size: ∂objective/∂z
	d0, d1    []float64   // size×h: gradients flowing back, alternating
	tau       [][]float64 // per hidden layer: h ATO estimates τ̂(h^(l))
	sgn       []float64   // h: dU·sign(τ̂) of the layer being differentiated
	wt        []float64   // h×h: a transposed hidden weight matrix

	// ato-penultimate-normalized: the last hidden layer's pre-activations
	// centred on their batch mean (size×h), and σ' per unit (h).
	cen, sd []float64
	prob    []float64 // penalties on σ(z): size probabilities
	// eo-mean and the mean-variance penalties (output.go).
	out *outPenalty
}

func newTrainer(spec train.Spec, pen penalty, groups int) *Trainer {
	a := spec.Arch
	t := &Trainer{
		spec: spec, arch: a, dim: spec.Dim, size: spec.BatchSize, h: a.Hidden, nh: a.HiddenLayers(),
		obj: spec.Objective, pen: pen, masked: spec.Dropout > 0, groups: groups,
	}
	np := a.NumParams(spec.Dim)
	t.theta = make([]float64, np)
	t.grad = make([]float64, np)
	off := 0
	for _, s := range a.Shapes(spec.Dim) {
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
		t.gate = append(t.gate, make([]float64, sh))
		t.act = append(t.act, make([]float64, sh))
		t.tau = append(t.tau, make([]float64, t.h))
	}
	t.z = make([]float64, t.size)
	t.dz = make([]float64, t.size)
	t.d0 = make([]float64, sh)
	t.d1 = make([]float64, sh)
	t.sgn = make([]float64, t.h)
	if t.nh >= 2 { // only a hidden-to-hidden layer's gradient transposes its weights
		t.wt = make([]float64, t.h*t.h)
	}
	if groups > 0 {
		t.gc = make([][]float64, groups)
		t.means = make([]float64, groups*max(t.h, 1))
		for l := 0; l < t.nh; l++ {
			t.hi = append(t.hi, make([]int, t.h))
			t.lo = append(t.lo, make([]int, t.h))
		}
	}
	switch pen {
	case penLastNorm:
		t.cen = make([]float64, sh)
		t.sd = make([]float64, t.h)
	case penOutput, penEOMean, penMV, penRate:
		t.prob = make([]float64, t.size)
	}
	return t
}

// Spec is the spec the trainer was built for.
func (t *Trainer) Spec() train.Spec { return t.spec }

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
	if len(b.X) < n*t.dim || len(b.Y) < n || len(b.SW) < n {
		return fmt.Errorf("backprop: batch buffers shorter than %d rows", n)
	}
	if t.contrast != "" && len(b.Column(t.contrast)) < n {
		return fmt.Errorf("backprop: batch lacks the input column %q of %d rows", t.contrast, n)
	}
	names := t.groupCols
	if t.out != nil {
		names = t.out.names
	}
	for _, name := range names {
		if len(b.Column(name)) < n {
			return fmt.Errorf("backprop: batch lacks the input column %q of %d rows", name, n)
		}
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

// SetLambda sets the λ of the trainer's objective for the following
// Gradient calls (train.LambdaSetter).
func (t *Trainer) SetLambda(lambda float64) error {
	if err := train.CheckLambda(t.obj, lambda); err != nil {
		return fmt.Errorf("backprop: %w", err)
	}
	t.obj.Lambda = lambda
	t.spec.Objective.Lambda = lambda
	return nil
}

// Gradient evaluates the objective on b in training mode and writes its
// gradient into Grads. b.Masks apply when the spec has dropout and are
// ignored without (train.Fit then makes them all ones). Padding rows
// (N … Size−1) carry zero weight in every term, so they are skipped: the
// result is exactly that of the padded batch.
func (t *Trainer) Gradient(b *train.Batch) (train.Loss, error) {
	if err := t.check(b); err != nil {
		return train.Loss{}, err
	}
	return t.gradient(b, false), nil
}

// gradient is Gradient on a checked batch. With first, the first layer's
// pre-activations are already in gate[0] and its weight gradient is left
// to the caller, who finds ∂objective/∂pre of layer 0 in d0: a lockstep
// group computes both for all its members at once.
func (t *Trainer) gradient(b *train.Batch, first bool) train.Loss {
	n, h, nh := b.N, t.h, t.nh
	masks := b.Masks
	if !t.masked {
		masks = nil
	}
	var c []float64 // the ATO contrast; nil without a penalty
	if t.contrast != "" {
		c = b.Column(t.contrast)[:n]
	}
	for r, name := range t.groupCols {
		t.gc[r] = b.Column(name)[:n]
	}
	sw := b.SW[:n]
	u := t.forward(b.X, n, true, masks, c, sw, first)

	// Risk R = Σ sw·(softplus(z) − y·z); ∂R/∂z = sw·(σ(z) − y). One exp per row.
	z, dz := t.z[:n], t.dz[:n]
	y := b.Y[:n]
	var r, tauOut float64 // tauOut: τ̂(σ(z)) for ato-output
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
		if t.prob != nil {
			t.prob[i] = sig
			if t.pen == penOutput && t.groups == 0 {
				tauOut += c[i] * sig
			}
		}
	}
	switch {
	case t.out != nil && t.out.rate:
		u = t.out.value(t.out.selections(z), b)
	case t.out != nil:
		u = t.out.value(t.prob[:n], b)
	case t.prob != nil && t.groups > 0:
		u = t.outputSpread(n)
	case t.prob != nil:
		u = math.Abs(tauOut)
	}
	v, dR, dU := t.obj.Value(r, u)
	for i := range dz {
		dz[i] *= dR
	}
	if t.out != nil && t.out.rate && dU != 0 {
		// ∂U/∂z_i = ∂U/∂ŝ_i·ŝ_i(1 − ŝ_i)/T.
		t.out.grad(t.out.shat[:n])
		for i, q := range t.out.shat[:n] {
			dz[i] += dU * t.out.dp[i] * (q * (1 - q) * t.out.inv)
		}
	} else if t.out != nil && dU != 0 {
		// ∂U/∂z_i = ∂U/∂p_i·σ_i(1 − σ_i).
		t.out.grad(t.prob[:n])
		for i, p := range t.prob[:n] {
			dz[i] += dU * t.out.dp[i] * p * (1 - p)
		}
	} else if t.prob != nil && dU != 0 && t.groups > 0 {
		// ∂D/∂z_i = (g_hi,i − g_lo,i)·σ_i(1 − σ_i).
		hi, lo := t.gc[t.outHi], t.gc[t.outLo]
		for i, p := range t.prob[:n] {
			dz[i] += dU * (hi[i] - lo[i]) * p * (1 - p)
		}
	} else if t.prob != nil && dU != 0 {
		// ∂|τ̂|/∂z_i = sign(τ̂)·c_i·σ_i(1 − σ_i).
		s := dU * sign(tauOut)
		for i, p := range t.prob[:n] {
			dz[i] += s * c[i] * p * (1 - p)
		}
	}

	// Output layer: z = a·w + b with a the last hidden activations (n×h).
	gemvT(t.gw[nh], t.act[nh-1][:n*h], n, h, dz)
	var sb float64
	for _, d := range dz {
		sb += d
	}
	t.gb[nh][0] = sb
	d := t.d0[:n*h]
	wo := t.w[nh][:h]
	for i, di := range dz {
		row := d[i*h : i*h+h]
		for j, w := range wo {
			row[j] = di * w
		}
	}

	// Hidden layers, last to first: d holds ∂/∂act on entry.
	for l := nh - 1; l >= 0; l-- {
		// ∂/∂pre = d ⊙ mask ⊙ [pre ≥ 0] (ReLU′(0) = 1, as the graph), plus
		// dU·c_i·sign(τ̂_u); its column sums are the bias gradient.
		var sgn []float64
		norm := dU != 0 && t.pen == penLastNorm && t.pen.covers(l, nh)
		if dU != 0 && t.pen.covers(l, nh) {
			sgn = t.sgn
			for j, tv := range t.tau[l] {
				sgn[j] = dU
				if t.groups == 0 {
					sgn[j] *= sign(tv)
				}
				if norm {
					sgn[j] /= t.sd[j]
				}
			}
		}
		if t.groups > 0 {
			backGate(d, t.gate[l][:n*h], n, h, nil, nil, t.gb[l])
			if sgn != nil {
				t.backGroups(d, n, l, sgn)
			}
		} else {
			backGate(d, t.gate[l][:n*h], n, h, c, sgn, t.gb[l])
		}
		if norm {
			t.backNorm(d, n, sw, l, dU)
		}
		in, k := b.X[:n*t.dim], t.dim
		if l > 0 {
			in, k = t.act[l-1][:n*h], h
		}
		if l == 0 && first {
			break
		}
		gemmTN(t.gw[l], in, n, k, d, h)
		if l > 0 {
			next := t.d1[:n*h]
			gemmNT(next, d, n, h, t.w[l], k, t.wt)
			t.d0, t.d1 = t.d1, t.d0
			d = next
		}
	}
	return train.Loss{R: r, U: u, Objective: v}
}

// forward computes the activations and logits of x[:n·dim] (with first,
// the first layer's pre-activations are already in gate[0]). In training
// mode it also keeps the gates for the backward pass, applies masks (nil:
// no dropout) and returns the hidden-layer penalty: U = Σ_l Σ_u |τ̂_u(h^(l))|
// with τ̂(h) = hᵀc over the covered layers, each term over σ'_u for
// ato-penultimate-normalized (sw: the batch's row weights). ato-output's U
// is left to the caller. Evaluation mode has no dropout.
func (t *Trainer) forward(x []float64, n int, training bool, masks [][]float64, c, sw []float64, first bool) (u float64) {
	h := t.h
	in, k := x[:n*t.dim], t.dim
	for l := 0; l < t.nh; l++ {
		pre, act := t.gate[l][:n*h], t.act[l][:n*h]
		if l > 0 || !first { // with first, gate[0] holds them already
			affine(pre, in, n, k, t.w[l], t.b[l], h)
		}
		switch {
		case !training:
			relu(act, pre)
		case masks != nil:
			if t.pen.covers(l, t.nh) {
				u += t.ato(l, pre, n, c, sw)
			}
			gateMask(act, pre, masks[l][:n*h])
		default:
			if t.pen.covers(l, t.nh) {
				u += t.ato(l, pre, n, c, sw)
			}
			gateOnly(act, pre)
		}
		in, k = act, h
	}
	z := t.z[:n]
	gemv(z, in, n, k, t.w[t.nh])
	bo := t.b[t.nh][0]
	for i := range z {
		z[i] += bo
	}
	return u
}

// ato stores τ̂(h^(l)) = preᵀc and returns Σ_u |τ̂_u|, or for
// ato-penultimate-normalized Σ_u |τ̂_u|/σ'_u, keeping the centred
// pre-activations and σ' for the backward pass. For the R-group form it
// stores D_u ≥ 0 in place of τ̂_u (spread), and the same sums follow.
func (t *Trainer) ato(l int, pre []float64, n int, c, sw []float64) float64 {
	tau := t.tau[l]
	if t.groups > 0 {
		t.spread(tau, t.hi[l], t.lo[l], pre, n, t.h)
	} else {
		gemvT(tau, pre, n, t.h, c)
	}
	var s float64
	if t.pen != penLastNorm {
		for _, v := range tau {
			s += math.Abs(v)
		}
		return s
	}
	h := t.h
	mu, cen := t.sd, t.cen[:n*h] // sd holds the means until it holds σ'
	gemvT(mu, pre, n, h, sw)
	for i := 0; i < n; i++ {
		for j, p := range pre[i*h : i*h+h] {
			cen[i*h+j] = p - mu[j]
		}
	}
	clear(t.sd)
	for i, w := range sw {
		for j, v := range cen[i*h : i*h+h] {
			t.sd[j] += w * v * v
		}
	}
	for j, v := range t.sd {
		t.sd[j] = math.Sqrt(v + normEps*normEps)
		s += math.Abs(tau[j]) / t.sd[j]
	}
	return s
}

// spread sets d_u = m_hi,u − m_lo,u for each of the h units of the n×h
// matrix pre, with m_r = preᵀg_r the group means and hi_u, lo_u the groups
// of the largest and smallest mean, the lowest group on a tie (as the
// graph's running selection).
func (t *Trainer) spread(d []float64, hi, lo []int, pre []float64, n, h int) {
	m := t.means[:t.groups*h]
	for r, g := range t.gc {
		gemvT(m[r*h:r*h+h], pre, n, h, g)
	}
	for u := 0; u < h; u++ {
		a, b := 0, 0
		for r := 1; r < t.groups; r++ {
			v := m[r*h+u]
			if v > m[a*h+u] {
				a = r
			}
			if v < m[b*h+u] {
				b = r
			}
		}
		hi[u], lo[u] = a, b
		d[u] = m[a*h+u] - m[b*h+u]
	}
}

// outputSpread returns D of the probabilities in prob (ato-output's R-group
// form) and keeps the groups of its maximum and minimum mean.
func (t *Trainer) outputSpread(n int) float64 {
	var d [1]float64
	var hi, lo [1]int
	t.spread(d[:], hi[:], lo[:], t.prob[:n], n, 1)
	t.outHi, t.outLo = hi[0], lo[0]
	return d[0]
}

// backGroups adds to d (∂/∂pre of hidden layer l, n×h) and to its bias
// gradient the R-group penalty's part: ∂D_u/∂h_iu = g_hi,i − g_lo,i,
// times s_u (dU, over σ'_u for the normalized form).
func (t *Trainer) backGroups(d []float64, n, l int, s []float64) {
	h := t.h
	hi, lo, gb := t.hi[l], t.lo[l], t.gb[l][:h]
	for i := 0; i < n; i++ {
		row := d[i*h : i*h+h]
		for u, su := range s[:h] {
			v := su * (t.gc[hi[u]][i] - t.gc[lo[u]][i])
			row[u] += v
			gb[u] += v
		}
	}
}

// backNorm adds to d (∂/∂pre of hidden layer l, n×h) and to its bias
// gradient the part of ato-penultimate-normalized's gradient that flows
// through σ'_u: ∂(|τ̂_u|/σ'_u)/∂h_iu = sign(τ̂_u)·c_i/σ'_u (added by
// backGate) − |τ̂_u|·sw_i·(h_iu − μ_u)/σ'_u³.
func (t *Trainer) backNorm(d []float64, n int, sw []float64, l int, dU float64) {
	h := t.h
	q := t.sgn[:h] // backGate is done with it
	for j, tv := range t.tau[l] {
		sd := t.sd[j]
		q[j] = -dU * math.Abs(tv) / (sd * sd * sd)
	}
	gb, cen := t.gb[l][:h], t.cen[:n*h]
	for i, w := range sw {
		row, cr := d[i*h:i*h+h], cen[i*h:i*h+h]
		for j, qj := range q {
			v := w * cr[j] * qj
			row[j] += v
			gb[j] += v
		}
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
		t.forward(x[s*t.dim:(s+m)*t.dim], m, false, nil, nil, nil, false)
		copy(logits[s:s+m], t.z[:m])
	}
	return nil
}

// The ReLU steps are branch-free: the sign of a pre-activation is as good
// as random, and a mispredicted branch per unit cost more than the matrix
// products at the Adult shape.

// keep is all ones when p ≥ 0 and zero when p < 0. p+0 turns −0 into +0,
// so that −0 counts as ≥ 0 as it does in the graph's x ≥ 0.
func keep(p float64) uint64 {
	return ^uint64(int64(math.Float64bits(p+0)) >> 63)
}

// gateMask sets act = pre ⊙ g and pre = g with g = mask ⊙ [pre ≥ 0].
func gateMask(act, pre, mask []float64) {
	act, mask = act[:len(pre)], mask[:len(pre)]
	for j, p := range pre {
		g := math.Float64frombits(math.Float64bits(mask[j]) & keep(p))
		act[j] = p * g
		pre[j] = g
	}
}

// gateOnly sets act = pre ⊙ g and pre = g with g = [pre ≥ 0].
func gateOnly(act, pre []float64) {
	act = act[:len(pre)]
	one := math.Float64bits(1)
	for j, p := range pre {
		g := math.Float64frombits(one & keep(p))
		act[j] = p * g
		pre[j] = g
	}
}

// relu sets act = max(pre, 0).
func relu(act, pre []float64) {
	act = act[:len(pre)]
	for j, p := range pre {
		act[j] = math.Float64frombits(math.Float64bits(p) & keep(p))
	}
}

// backGate sets d (n×h) = d ⊙ g + c ⊗ s, without the second term when s is
// nil, and gb = the column sums of the result.
func backGate(d, g []float64, n, h int, c, s, gb []float64) {
	gb = gb[:h]
	if h == 4 { // the column sums stay in registers
		var p0, p1, p2, p3, s0, s1, s2, s3 float64
		if s != nil {
			p0, p1, p2, p3 = s[0], s[1], s[2], s[3]
		}
		for i := 0; i < n; i++ {
			dr := d[i*4 : i*4+4 : i*4+4]
			gr := g[i*4 : i*4+4 : i*4+4]
			v0, v1, v2, v3 := dr[0]*gr[0], dr[1]*gr[1], dr[2]*gr[2], dr[3]*gr[3]
			if s != nil {
				ci := c[i]
				v0, v1, v2, v3 = v0+ci*p0, v1+ci*p1, v2+ci*p2, v3+ci*p3
			}
			dr[0], dr[1], dr[2], dr[3] = v0, v1, v2, v3
			s0, s1, s2, s3 = s0+v0, s1+v1, s2+v2, s3+v3
		}
		gb[0], gb[1], gb[2], gb[3] = s0, s1, s2, s3
		return
	}
	clear(gb)
	for i := 0; i < n; i++ {
		dr := d[i*h : i*h+h]
		gr := g[i*h : i*h+h]
		gr, gb := gr[:len(dr)], gb[:len(dr)]
		if s == nil {
			for j, v := range dr {
				v *= gr[j]
				dr[j] = v
				gb[j] += v
			}
			continue
		}
		ci, s := c[i], s[:len(dr)]
		for j, v := range dr {
			v = v*gr[j] + ci*s[j]
			dr[j] = v
			gb[j] += v
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
