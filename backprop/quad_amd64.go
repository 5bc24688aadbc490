//go:build !noasm

package backprop

import "github.com/fpareto/fp/internal/gemm"

// The AVX2 quad kernels (quad_amd64.s), bit for bit the plain ones. They
// read and write whole rows of 16 values (z and dz rows of 4) without
// bounds checks: the wrappers below check the lengths.

func init() {
	if !gemm.Have {
		return
	}
	quadAffine = func(pre, in []float64, n int, w, b []float64) {
		_, _, _, _ = pre[:n*16], in[:n*16], w[63], b[15]
		quadAffineAVX(pre, in, n, w, b)
	}
	quadTau = func(tau, pre []float64, n int, c []float64) {
		_, _ = tau[15], pre[:n*16]
		_ = c[:n]
		quadTauAVX(tau, pre, n, c)
	}
	quadGateT = func(act, gate []float64, n int, m0, m1, m2, m3 []float64) {
		_, _, _, _, _, _ = act[:n*16], gate[:n*16], m0[:n*4], m1[:n*4], m2[:n*4], m3[:n*4]
		quadGateTAVX(act, gate, n, m0, m1, m2, m3)
	}
	quadOut = func(z, act []float64, n int, wo, bo []float64) {
		_, _, _, _ = z[:n*4], act[:n*16], wo[15], bo[3]
		quadOutAVX(z, act, n, wo, bo)
	}
	quadRisk = func(z, dz, sw, y []float64) (r [4]float64) {
		n := len(sw)
		_, _, _ = z[:n*4], dz[:n*4], y[:n]
		quadRiskAVX(z, dz, sw, y, &r)
		return r
	}
	quadOutBack = func(gwo []float64, gbo *[4]float64, d, act, dz []float64, n int, wo []float64) {
		_, _, _, _, _ = gwo[15], d[:n*16], act[:n*16], dz[:n*4], wo[15]
		quadOutBackAVX(gwo, gbo, d, act, dz, n, wo)
	}
	quadBackGate = func(dst []float64, stride int, d, g []float64, n int, c, s, gb []float64) {
		_, _, _ = d[:n*16], g[:n*16], gb[15]
		if n > 0 {
			_ = dst[(n-1)*stride+15]
		}
		if s != nil {
			_, _ = c[:n], s[15]
		}
		quadBackGateAVX(d, g, n, c, s, gb, dst, stride)
	}
	quadBias = func(gate, pre []float64, n, stride int, b []float64) {
		_, _ = gate[:n*16], b[15]
		if n > 0 {
			_ = pre[(n-1)*stride+15]
		}
		quadBiasAVX(gate, pre, n, stride, b)
	}
	quadGemmTN = func(gw, in, d []float64, n int) {
		_, _, _ = gw[63], in[:n*16], d[:n*16]
		if n == 0 {
			clear(gw[:64])
			return
		}
		quadGemmTNHalfAVX(gw, in, d, n)
		quadGemmTNHalfAVX(gw[32:], in[8:], d, n)
	}
	quadGemmNT = func(next, d []float64, n int, w []float64) {
		_, _, _ = next[:n*16], d[:n*16], w[63]
		quadGemmNTAVX(next, d, n, w)
	}
}

//go:noescape
func quadAffineAVX(pre, in []float64, n int, w, b []float64)

//go:noescape
func quadTauAVX(tau, pre []float64, n int, c []float64)

//go:noescape
func quadGateTAVX(act, gate []float64, n int, m0, m1, m2, m3 []float64)

//go:noescape
func quadOutAVX(z, act []float64, n int, wo, bo []float64)

//go:noescape
func quadRiskAVX(z, dz, sw, y []float64, r *[4]float64)

//go:noescape
func quadOutBackAVX(gwo []float64, gbo *[4]float64, d, act, dz []float64, n int, wo []float64)

//go:noescape
func quadBackGateAVX(d, g []float64, n int, c, s, gb, dst []float64, stride int)

//go:noescape
func quadBiasAVX(gate, pre []float64, n, stride int, b []float64)

//go:noescape
func quadGemmTNHalfAVX(gw, in, d []float64, n int)

//go:noescape
func quadGemmNTAVX(next, d []float64, n int, w []float64)
