package backprop

import (
	"math"

	"github.com/fpareto/fp/train"
)

// outPenalty computes eo-mean (EOMeanPenalty) and the mean-variance
// penalties (MVPenalty) from the batch's probabilities p = σ(z), and the
// selection-rate penalties (RatePenalty) from the smoothed selections
// ŝ = σ((z − logit t)/T) in their place: U is the larger of its parts (one
// subset of rows for dp-mv and dp-rate, the rows with y = 0 and those with
// y = 1 otherwise), and grad writes ∂U/∂p_i (∂U/∂ŝ_i) of the part that
// attains it, the first on a tie (as the graph's ½(a + b + |a − b|) with
// |·|′(0) = +1). The rate penalties compute their parts as eo-mean does,
// on ŝ.
type outPenalty struct {
	mv     bool     // the mean-variance index; else eo-mean
	r      int      // groups compared
	spread bool     // eo-mean's R-group form: each part a spread of R means
	parts  int      // subsets: 1 or 2
	temp   float64  // mean-variance: the temperature T
	names  []string // the input columns, in the penalty's order
	cols   [][]float64
	val    [2]float64
	sel    int    // the part that attains U
	hi, lo [2]int // eo-mean's R-group form: each part's groups of max and min
	dp     []float64

	// Selection rates: shift = logit t, inv = 1/T, shat the batch's ŝ.
	rate       bool
	shift, inv float64
	shat       []float64

	// Mean-variance scratch: k and kap the n×n kernel K_ij and its
	// derivative κ_ij = K_ij(1 − K_ij), f the part's F and F_r (R+1 rows
	// of n), e its 2·q_r,i·d_r,i (parts×R rows of n) and eps their sums
	// over r (parts rows of n).
	k, kap, f, e, eps []float64
}

// initOutput sets up eo-mean, a mean-variance or a selection-rate penalty
// p over groups groups (0: a 0/1 attribute); check has validated its
// columns.
func (t *Trainer) initOutput(p train.Term, groups int) {
	o := &outPenalty{r: max(groups, 2), parts: 2, dp: make([]float64, t.size)}
	for _, in := range p.Inputs() {
		o.names = append(o.names, in.Name)
	}
	o.cols = make([][]float64, len(o.names))
	if m, ok := p.(RatePenalty); ok {
		th, temp, cond := m.SelectionRate()
		o.rate, o.spread = true, groups > 0
		o.shift, o.inv = math.Log(th/(1-th)), 1/temp
		o.shat = make([]float64, t.size)
		if !cond {
			o.parts = 1
		}
	} else if m, ok := p.(MVPenalty); ok {
		temp, cond := m.MeanVariance()
		o.mv, o.temp = true, temp
		if !cond {
			o.parts = 1
		}
		n := t.size
		o.k, o.kap = make([]float64, n*n), make([]float64, n*n)
		o.f = make([]float64, (o.r+1)*n)
		o.e = make([]float64, o.parts*o.r*n)
		o.eps = make([]float64, o.parts*n)
	} else {
		o.spread = groups > 0
	}
	t.out = o
}

// selections fills and returns ŝ_i = σ((z_i − logit t)·(1/T)) of the
// logits z, computed as the graph computes them.
func (o *outPenalty) selections(z []float64) []float64 {
	s := o.shat[:len(z)]
	for i, v := range z {
		s[i] = graphSigmoid((v - o.shift) * o.inv)
	}
	return s
}

// value returns U on the probabilities p of the batch b's real rows.
func (o *outPenalty) value(p []float64, b *train.Batch) float64 {
	n := len(p)
	for k, name := range o.names {
		o.cols[k] = b.Column(name)[:n]
	}
	if o.mv {
		o.kernel(p)
	}
	for k := 0; k < o.parts; k++ {
		switch {
		case o.mv:
			o.val[k] = o.index(k, n)
		case o.spread:
			o.val[k], o.hi[k], o.lo[k] = spreadOf(o.cols[k*o.r:(k+1)*o.r], p)
		default:
			o.val[k] = math.Abs(dot(o.cols[k], p))
		}
	}
	o.sel = 0
	if o.parts == 2 && !(o.val[0] >= o.val[1]) {
		o.sel = 1
	}
	return o.val[o.sel]
}

// grad writes ∂U/∂p_i into dp[:len(p)] (after value on the same p).
func (o *outPenalty) grad(p []float64) {
	n := len(p)
	dp := o.dp[:n]
	k := o.sel
	switch {
	case o.mv:
		o.indexGrad(k, n)
	case o.spread:
		hi, lo := o.cols[k*o.r+o.hi[k]], o.cols[k*o.r+o.lo[k]]
		for i := range dp {
			dp[i] = hi[i] - lo[i]
		}
	default:
		c, s := o.cols[k], sign(dot(o.cols[k], p))
		for i := range dp {
			dp[i] = s * c[i]
		}
	}
}

// spreadOf returns max_r m_r − min_r m_r of the means m_r = g_rᵀp and the
// groups of the maximum and the minimum, the lowest on a tie.
func spreadOf(g [][]float64, p []float64) (d float64, hi, lo int) {
	m0 := dot(g[0], p)
	mhi, mlo := m0, m0
	for r := 1; r < len(g); r++ {
		m := dot(g[r], p)
		if m > mhi {
			mhi, hi = m, r
		}
		if m < mlo {
			mlo, lo = m, r
		}
	}
	return mhi - mlo, hi, lo
}

func dot(a, b []float64) float64 {
	var s float64
	for i, v := range b {
		s += a[i] * v
	}
	return s
}

// graphSigmoid is σ as Gorgonia computes it, exactly 0 below −709 and 1
// above 19, so that the kernel and its derivative y(1 − y) match the graph
// engine's where the scores are far apart.
func graphSigmoid(x float64) float64 {
	switch {
	case x < -709:
		return 0
	case x > 19:
		return 1
	}
	return 1 / (1 + math.Exp(-x))
}

// kernel fills K_ij = σ((p_i − p_j)/T) for i ≠ j, K_ii = 1, and κ_ij =
// K_ij(1 − K_ij) (0 on the diagonal, which carries no gradient).
func (o *outPenalty) kernel(p []float64) {
	n := len(p)
	inv := 1 / o.temp
	for i, pi := range p {
		row, kr := o.k[i*n:i*n+n], o.kap[i*n:i*n+n]
		for j, pj := range p {
			if i == j {
				row[j], kr[j] = 1, 0
				continue
			}
			v := graphSigmoid(pi*inv - inv*pj)
			row[j], kr[j] = v, v*(1-v)
		}
	}
}

// index returns the smoothed index of part s, Σ_r Σ_i q_r,i (F_r,i − F_i)²
// with F = K·w and F_r = K·g_r, and keeps e_r,i = 2·q_r,i·(F_r,i − F_i)
// and their sums over r for the gradient.
func (o *outPenalty) index(s, n int) float64 {
	r := o.r
	c := o.cols[s*(1+2*r) : (s+1)*(1+2*r)]
	w, g, q := c[0], c[1:1+r], c[1+r:]
	f := o.f[:(r+1)*n]
	for i := 0; i < n; i++ {
		row := o.k[i*n : i*n+n]
		f[i] = dot(w, row)
		for k := range g {
			f[(k+1)*n+i] = dot(g[k], row)
		}
	}
	e, eps := o.e[s*r*n:(s+1)*r*n], o.eps[s*n:(s+1)*n]
	clear(eps)
	var u float64
	for k := range g {
		ek := e[k*n : k*n+n]
		for i := 0; i < n; i++ {
			d := f[(k+1)*n+i] - f[i]
			u += q[k][i] * d * d
			ek[i] = 2 * q[k][i] * d
			eps[i] += ek[i]
		}
	}
	return u
}

// indexGrad writes ∂U/∂p of part s into dp. With E_ij = ∂U/∂K_ij =
// Σ_r e_r,i g_r,j − ε_i w_j and ∂K_ij/∂p_i = κ_ij/T = −∂K_ij/∂p_j,
// ∂U/∂p_m = (1/T) Σ_{j≠m} (E_mj κ_mj − E_jm κ_jm).
func (o *outPenalty) indexGrad(s, n int) {
	r := o.r
	c := o.cols[s*(1+2*r) : (s+1)*(1+2*r)]
	w, g := c[0], c[1:1+r]
	e, eps := o.e[s*r*n:(s+1)*r*n], o.eps[s*n:(s+1)*n]
	inv := 1 / o.temp
	el := func(i, j int) float64 { // E_ij
		v := -eps[i] * w[j]
		for k := range g {
			v += e[k*n+i] * g[k][j]
		}
		return v
	}
	for m := 0; m < n; m++ {
		var acc float64
		for j := 0; j < n; j++ {
			if j != m {
				acc += el(m, j)*o.kap[m*n+j] - el(j, m)*o.kap[j*n+m]
			}
		}
		o.dp[m] = acc * inv
	}
}
