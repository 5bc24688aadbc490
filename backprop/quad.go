package backprop

import (
	"math"
	"slices"

	"github.com/fpareto/fp/train"
)

// Width-4 networks (the COMPAS shape) in lockstep: the members go in
// quads, four networks side by side in the lanes of every value, so that
// one pass over the batch computes four networks and each hidden value of a
// row is one 4-wide vector: lane k of unit u is unit u of the quad's k-th
// member. A quad's hidden buffers hold a row as 16 values, unit-major
// ([u][k]); its weights as [j][u][k]. The first layer is the group's one
// wide product, its columns in the same quad order (column 16q + 4u + k).
//
// Each lane performs its member's operations in the order of the single
// trainer's width-4 loops (affine, gemv, gemvT, gemmTN, gemmNT, backGate),
// with products rounded before they are added. The loss differs in its
// exp and log1p only: expNeg and log1pUnit, within a unit in the last
// place of the math package's, without branches and four lanes at a time.
// A member thus follows its own trainer to the last bit or so (1e-12 after
// several epochs, TestGroupEqualsAlone). The kernels (quadAffine, quadTau,
// quadGateT, quadOut, quadRisk, quadOutBack, quadBackGate, quadBias, quadGemmTN,
// quadGemmNT) are plain Go, or AVX2 assembly where the CPU has it; the two
// agree bit for bit (TestQuadKernelsMatchPlain).

// quadState holds the lockstep group's quad buffers.
type quadState struct {
	nq int // quads: ⌈members / 4⌉

	// Per quad and hidden layer: 64 weights [j][u][k] (past the first
	// layer; w[0] is nil) and 16 biases [u][k]; the output layer's 16
	// weights [u][k] and 4 biases. Gradients alike: w[l] and gw[l] are
	// nq×64, b[l] and gb[l] nq×16.
	w, gw   [][]float64
	b, gb   [][]float64
	wo, gwo []float64 // nq×16
	bo, gbo []float64 // nq×4

	// Per hidden layer, nq × size × 16: the gates (mask ⊙ [pre ≥ 0]) and
	// the masked activations.
	gate, act [][]float64
	// lane[l][k] is the dropout mask of hidden layer l for lane k of the
	// quad in hand (size × 4, its member's own): zeros for an empty or
	// inactive lane, ones without dropout.
	lane        [][4][]float64
	zeros, ones []float64
	tau         [][]float64 // per hidden layer, nq×16: τ̂ per unit and lane
	z, dz       []float64   // nq × size × 4: logits and ∂objective/∂logit
	d0, d1      []float64   // nq × size × 16
	sgn         []float64   // 16: dU·sign(τ̂) per unit and lane
	cover       [][][4]bool // [q][l][k]: whether lane k's member penalises hidden layer l (fixed)
}

// quadOK reports whether the group's members can go in quads: width 4,
// no penalty or a binary ATO penalty on hidden pre-activations, one
// contrast. Members with an R-group penalty train in the fused first layer
// without quads, each through its own trainer's gradient.
func quadOK(ts []*Trainer) bool {
	contrast := ""
	for _, t := range ts {
		if t.h != 4 || t.groups > 0 {
			return false
		}
		switch t.pen {
		case penNone:
		case penLast, penAll:
			if contrast != "" && t.contrast != contrast {
				return false
			}
			contrast = t.contrast
		default:
			return false
		}
	}
	return true
}

func newQuadState(ts []*Trainer) *quadState {
	t0 := ts[0]
	nq := (len(ts) + 3) / 4
	s := &quadState{nq: nq}
	rows := t0.size * 16 * nq
	for l := 0; l < t0.nh; l++ {
		var w, gw []float64 // the first layer's are the group's wide ones
		if l > 0 {
			w, gw = make([]float64, nq*64), make([]float64, nq*64)
		}
		s.w, s.gw = append(s.w, w), append(s.gw, gw)
		s.b = append(s.b, make([]float64, nq*16))
		s.gb = append(s.gb, make([]float64, nq*16))
		s.gate = append(s.gate, make([]float64, rows))
		s.act = append(s.act, make([]float64, rows))
		s.lane = append(s.lane, [4][]float64{})
		s.tau = append(s.tau, make([]float64, nq*16))
	}
	s.wo, s.gwo = make([]float64, nq*16), make([]float64, nq*16)
	s.bo, s.gbo = make([]float64, nq*4), make([]float64, nq*4)
	s.z, s.dz = make([]float64, t0.size*4*nq), make([]float64, t0.size*4*nq)
	s.d0, s.d1 = make([]float64, rows), make([]float64, rows)
	s.cover = make([][][4]bool, nq)
	for q := range s.cover {
		s.cover[q] = make([][4]bool, t0.nh)
		for k := 0; k < 4 && 4*q+k < len(ts); k++ {
			for l := range s.cover[q] {
				s.cover[q][l][k] = ts[4*q+k].pen.covers(l, t0.nh)
			}
		}
	}
	s.sgn = make([]float64, 16)
	s.zeros, s.ones = make([]float64, t0.size*4), make([]float64, t0.size*4)
	for i := range s.ones {
		s.ones[i] = 1
	}
	return s
}

// quadColumn is the column of unit u of member m in the group's wide
// first-layer buffers.
func quadColumn(m, u int) int { return m/4*16 + u*4 + m%4 }

// gradientsQuads is Group.Gradients for width-4 members: g.pre holds the
// first layers' products on entry and g.bias their biases; on return every
// active member's Grads hold its gradient except the first layer's
// weights, whose ∂objective/∂pre is in g.d.
func (g *Group) gradientsQuads(b *train.Batch, masks [][][]float64, active []bool, losses []train.Loss) {
	s := g.quad
	n, nh, wide := b.N, g.ts[0].nh, g.wide
	var c []float64
	for _, t := range g.ts {
		if t.contrast != "" {
			c = b.Column(t.contrast)[:n]
			break
		}
	}
	sw, y := b.SW[:n], b.Y[:n]
	for q := 0; q < s.nq; q++ {
		if !slices.Contains(active[4*q:min(4*q+4, len(active))], true) {
			continue // a quad computes its own lanes only: none is needed
		}
		// Gather the quad's weights into lanes and point to its masks. An
		// empty lane (past the last member) keeps zero weights.
		for k := 0; k < 4; k++ {
			m := 4*q + k
			if m >= len(g.ts) {
				for l := 0; l < nh; l++ {
					s.lane[l][k] = s.zeros
				}
				continue
			}
			t := g.ts[m]
			for l := 1; l < nh; l++ {
				w, bb := s.w[l][q*64:q*64+64], s.b[l][q*16:q*16+16]
				for j := 0; j < 4; j++ {
					for u := 0; u < 4; u++ {
						w[j*16+u*4+k] = t.w[l][j*4+u]
					}
				}
				for u := 0; u < 4; u++ {
					bb[u*4+k] = t.b[l][u]
				}
			}
			for u := 0; u < 4; u++ {
				s.wo[q*16+u*4+k] = t.w[nh][u]
			}
			s.bo[q*4+k] = t.b[nh][0]
			for l := 0; l < nh; l++ {
				switch {
				case !active[m]:
					s.lane[l][k] = s.zeros
				case !t.masked:
					s.lane[l][k] = s.ones
				default:
					s.lane[l][k] = masks[m][l]
				}
			}
		}
		g.quadStep(q, n, wide, c, sw, y, active, losses)
	}
}

// quadStep runs quad q's forward and backward passes past the first
// layer's product.
func (g *Group) quadStep(q, n, wide int, c, sw, y []float64, active []bool, losses []train.Loss) {
	s := g.quad
	nh := g.ts[0].nh
	off := q * n * 16
	// Forward: gates, ATO sums and the next layer's pre-activations.
	var u [4]float64
	for l := 0; l < nh; l++ {
		gate, act := s.gate[l][off:off+n*16], s.act[l][off:off+n*16]
		if l == 0 {
			quadBias(gate, g.pre[q*16:], n, wide, g.bias[q*16:q*16+16])
		} else {
			quadAffine(gate, s.act[l-1][off:off+n*16], n, s.w[l][q*64:q*64+64], s.b[l][q*16:q*16+16])
		}
		cov := s.cover[q][l]
		if cov[0] || cov[1] || cov[2] || cov[3] {
			tau := s.tau[l][q*16 : q*16+16]
			quadTau(tau, gate, n, c)
			for k := 0; k < 4; k++ {
				if cov[k] {
					var a float64
					for j := 0; j < 4; j++ {
						a += math.Abs(tau[j*4+k])
					}
					u[k] += a
				}
			}
		}
		lm := &s.lane[l]
		quadGateT(act, gate, n, lm[0], lm[1], lm[2], lm[3])
	}
	z, dz := s.z[q*n*4:q*n*4+n*4], s.dz[q*n*4:q*n*4+n*4]
	last := s.act[nh-1][off : off+n*16]
	quadOut(z, last, n, s.wo[q*16:q*16+16], s.bo[q*4:q*4+4])

	// Losses, per lane in the order of Trainer.gradient.
	risk := quadRisk(z, dz, sw, y)
	var dU [4]float64
	for k := 0; k < 4; k++ {
		m := 4*q + k
		if m >= len(g.ts) || !active[m] {
			for i := 0; i < n; i++ {
				dz[i*4+k] = 0
			}
			continue
		}
		r := risk[k]
		v, dR, dUk := g.ts[m].obj.Value(r, u[k])
		losses[m] = train.Loss{R: r, U: u[k], Objective: v}
		for i := 0; i < n; i++ {
			dz[i*4+k] *= dR
		}
		dU[k] = dUk
	}

	// Backward.
	d := s.d0[off : off+n*16]
	quadOutBack(s.gwo[q*16:q*16+16], (*[4]float64)(s.gbo[q*4:]), d, last, dz, n, s.wo[q*16:q*16+16])
	for l := nh - 1; l >= 0; l-- {
		var sgn []float64
		cov := s.cover[q][l]
		for k := 0; k < 4; k++ {
			if cov[k] && dU[k] != 0 {
				sgn = s.sgn
			}
		}
		if sgn != nil {
			tau := s.tau[l][q*16 : q*16+16]
			for j := 0; j < 16; j++ {
				k := j % 4
				sgn[j] = 0
				if cov[k] && dU[k] != 0 {
					sgn[j] = dU[k] * sign(tau[j])
				}
			}
		}
		if l == 0 { // into the group's wide buffer, for the first layer's product
			quadBackGate(g.d[q*16:], wide, d, s.gate[l][off:off+n*16], n, c, sgn, s.gb[l][q*16:q*16+16])
			break
		}
		quadBackGate(d, 16, d, s.gate[l][off:off+n*16], n, c, sgn, s.gb[l][q*16:q*16+16])
		in := s.act[l-1][off : off+n*16]
		quadGemmTN(s.gw[l][q*64:q*64+64], in, d, n)
		next := s.d1[off : off+n*16]
		quadGemmNT(next, d, n, s.w[l][q*64:q*64+64])
		s.d0, s.d1 = s.d1, s.d0
		d = next
	}
}

// quadRiskPlain is Trainer.gradient's risk loop for the four lanes of z
// and dz (n×4, n = len(sw)): it returns per lane R = Σ sw·(softplus(z) −
// y·z) and sets dz = sw·(σ(z) − y). exp and log1p are expNeg and
// log1pUnit, and σ's two forms are selected on the sign of z, all without
// branches, which a batch's logits would mispredict, and which the
// assembly kernel does four lanes at a time. They agree with the math
// package to the last bit or within it; the trainer's R and σ are thus
// matched to a unit or so in the last place.
func quadRiskPlain(z, dz, sw, y []float64) (r [4]float64) {
	for i, wi := range sw {
		zr := (*[4]float64)(z[i*4:])
		dr := (*[4]float64)(dz[i*4:])
		yi := y[i]
		for k, zi := range zr {
			bits := math.Float64bits(zi)
			neg := uint64(int64(bits) >> 63) // all ones when z's sign is set
			e := expNeg(-math.Abs(zi))
			sig := 1 / (1 + e)
			// softplus(z) = max(z, 0) + log1p(e); σ(z) = 1/(1+e) for z ≥ 0, e/(1+e) below.
			sp := log1pUnit(e) + math.Float64frombits(bits&^neg)
			sig = math.Float64frombits(math.Float64bits(sig)&^neg | math.Float64bits(e*sig)&neg)
			r[k] += wi * (sp - yi*zi)
			dr[k] = wi * (sig - yi)
		}
	}
	return r
}

// scatterQuads writes the quads' gradients past the first layer's weights
// into the active members' Grads.
func (g *Group) scatterQuads(active []bool) {
	s, nh := g.quad, g.ts[0].nh
	for m, t := range g.ts {
		if !active[m] {
			continue
		}
		q, k := m/4, m%4
		for l := 0; l < nh; l++ {
			if l > 0 {
				gw := s.gw[l][q*64 : q*64+64]
				for j := 0; j < 4; j++ {
					for u := 0; u < 4; u++ {
						t.gw[l][j*4+u] = gw[j*16+u*4+k]
					}
				}
			}
			for u := 0; u < 4; u++ {
				t.gb[l][u] = s.gb[l][q*16+u*4+k]
			}
		}
		for u := 0; u < 4; u++ {
			t.gw[nh][u] = s.gwo[q*16+u*4+k]
		}
		t.gb[nh][0] = s.gbo[q*4+k]
	}
}

// The plain-Go quad kernels. Every buffer of rows holds n rows of 16
// values [u][k]; weights are [j][u][k].

// quadAffine sets pre = in·W + b per lane: pre[u] = b[u] + Σ_j in[j]·W[j][u],
// j ascending (affine's order).
func quadAffinePlain(pre, in []float64, n int, w, b []float64) {
	w, b = w[:64], b[:16]
	for i := 0; i < n; i++ {
		x := (*[16]float64)(in[i*16:])
		o := (*[16]float64)(pre[i*16:])
		for uk := 0; uk < 16; uk++ {
			k := uk & 3
			a := b[uk]
			a += x[k] * w[uk]
			a += x[4+k] * w[16+uk]
			a += x[8+k] * w[32+uk]
			a += x[12+k] * w[48+uk]
			o[uk] = a
		}
	}
}

// quadTauPlain sets tau = Σ_i c_i·pre_i (gemvT's order).
func quadTauPlain(tau, pre []float64, n int, c []float64) {
	var s [16]float64
	for i, ci := range c[:n] {
		r := (*[16]float64)(pre[i*16:])
		for j := range s {
			s[j] += ci * r[j]
		}
	}
	copy(tau[:16], s[:])
}

// quadGateTPlain is gateMask on quad rows, act = gate ⊙ g and gate = g with
// g = mask ⊙ [gate ≥ 0], the masks given per lane: m[k] holds lane k's
// member's mask, n rows of 4 units (read transposed).
func quadGateTPlain(act, gate []float64, n int, m0, m1, m2, m3 []float64) {
	m := [4][]float64{m0, m1, m2, m3}
	for i := 0; i < n; i++ {
		p := (*[16]float64)(gate[i*16:])
		a := (*[16]float64)(act[i*16:])
		for uk := range p {
			g := math.Float64frombits(math.Float64bits(m[uk&3][i*4+uk>>2]) & keep(p[uk]))
			a[uk] = p[uk] * g
			p[uk] = g
		}
	}
}

// quadOutPlain sets z (n×4) to the logits: per lane ((a₀w₀ + a₂w₂) +
// (a₁w₁ + a₃w₃)) + b, gemv's order.
func quadOutPlain(z, act []float64, n int, wo, bo []float64) {
	wo, bo = wo[:16], bo[:4]
	for i := 0; i < n; i++ {
		a := (*[16]float64)(act[i*16:])
		o := (*[4]float64)(z[i*4:])
		for k := 0; k < 4; k++ {
			s0 := a[k] * wo[k]
			s0 += a[8+k] * wo[8+k]
			s1 := a[4+k] * wo[4+k]
			s1 += a[12+k] * wo[12+k]
			o[k] = (s0 + s1) + bo[k]
		}
	}
}

// quadOutBackPlain is the output layer's backward pass: gwo[u] = Σ_i dz_i·act_i[u],
// gbo = Σ_i dz_i and d_i[u] = dz_i·wo[u].
func quadOutBackPlain(gwo []float64, gbo *[4]float64, d, act, dz []float64, n int, wo []float64) {
	var sw [16]float64
	var sb [4]float64
	wo = wo[:16]
	for i := 0; i < n; i++ {
		a := (*[16]float64)(act[i*16:])
		o := (*[16]float64)(d[i*16:])
		e := (*[4]float64)(dz[i*4:])
		for uk := range sw {
			sw[uk] += e[uk&3] * a[uk]
			o[uk] = e[uk&3] * wo[uk]
		}
		for k := range sb {
			sb[k] += e[k]
		}
	}
	copy(gwo[:16], sw[:])
	*gbo = sb
}

// quadBackGatePlain is backGate on quad rows: v = d ⊙ g (+ c_i·s), gb =
// Σ_i v_i, with row i of v written to dst[i·stride:] (dst = d, stride 16:
// in place; the first layer writes into the group's wide buffer).
func quadBackGatePlain(dst []float64, stride int, d, g []float64, n int, c, s, gb []float64) {
	var sb [16]float64
	for i := 0; i < n; i++ {
		dr := (*[16]float64)(d[i*16:])
		gr := (*[16]float64)(g[i*16:])
		o := (*[16]float64)(dst[i*stride:])
		if s == nil {
			for j := range dr {
				v := dr[j] * gr[j]
				o[j] = v
				sb[j] += v
			}
			continue
		}
		ci := c[i]
		for j := range dr {
			v := dr[j]*gr[j] + ci*s[j]
			o[j] = v
			sb[j] += v
		}
	}
	copy(gb[:16], sb[:])
}

// quadBiasPlain sets gate_i = pre_i + b for n rows of pre at stride (the
// first layer's product, its bias added as the product kernel adds to what
// it accumulates).
func quadBiasPlain(gate, pre []float64, n, stride int, b []float64) {
	b = b[:16]
	for i := 0; i < n; i++ {
		p := (*[16]float64)(pre[i*stride:])
		o := (*[16]float64)(gate[i*16:])
		for j := range o {
			o[j] = p[j] + b[j]
		}
	}
}

// quadGemmTNPlain sets gw[j][u] = Σ_i in_i[j]·d_i[u], i ascending.
func quadGemmTNPlain(gw, in, d []float64, n int) {
	var s [64]float64
	for i := 0; i < n; i++ {
		x := (*[16]float64)(in[i*16:])
		e := (*[16]float64)(d[i*16:])
		for j := 0; j < 4; j++ {
			for uk := 0; uk < 16; uk++ {
				s[j*16+uk] += x[j*4+uk&3] * e[uk]
			}
		}
	}
	copy(gw[:64], s[:])
}

// quadGemmNTPlain sets next_i[j] = ((d₀W[j][0] + d₁W[j][1]) + d₂W[j][2]) + d₃W[j][3]
// (gemmNT's order).
func quadGemmNTPlain(next, d []float64, n int, w []float64) {
	w = w[:64]
	for i := 0; i < n; i++ {
		e := (*[16]float64)(d[i*16:])
		o := (*[16]float64)(next[i*16:])
		for jk := 0; jk < 16; jk++ {
			j, k := jk>>2, jk&3
			r := w[j*16:]
			o[jk] = e[k]*r[k] + e[4+k]*r[4+k] + e[8+k]*r[8+k] + e[12+k]*r[12+k]
		}
	}
}

// The quad kernels in use: plain Go, or assembly where the CPU has it
// (quad_amd64.go).
var (
	quadAffine   = quadAffinePlain
	quadTau      = quadTauPlain
	quadGateT    = quadGateTPlain
	quadRisk     = quadRiskPlain
	quadOut      = quadOutPlain
	quadOutBack  = quadOutBackPlain
	quadBackGate = quadBackGatePlain
	quadBias     = quadBiasPlain
	quadGemmTN   = quadGemmTNPlain
	quadGemmNT   = quadGemmNTPlain
)
