package backprop

import (
	"github.com/fpareto/fp/internal/gemm"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// The matrix kernels of the forward and backward passes, on row-major
// buffers. Each is chosen by shape, from measurements at GOMAXPROCS=1:
//
//   - on CPUs with AVX2 and FMA (amd64, unless built with the noasm tag),
//     rows of at least wideMin entries go through the register-tiled
//     assembly kernel of internal/gemm, about 6× faster than the rank-1 updates
//     below at the Adult shape;
//   - otherwise, rows of at least wideMin entries go through blas64 rank-1 updates
//     (Dger, a 4×4 register-blocked assembly kernel in gonum) over blocks of
//     blockRows rows, which keeps the updated block in L1 cache. At the Adult
//     shape (1000 rows, 93 → 32 → … → 32) this is 1.2–1.8× faster than
//     gonum's Dgemm, which accumulates one axpy at a time and, from four
//     64×64 blocks of output up, spawns goroutines and allocates; hand-written
//     Go loops run out of registers before they match either;
//   - width 4 (the COMPAS network) has fully unrolled loops that keep a row
//     in registers; at these sizes a BLAS call costs more than the work;
//   - any other width falls back to plain loops that skip the zeros ReLU and
//     dropout leave in activations and gradients.
//
// With the blas build tag (OpenBLAS), the wide products that the kernel does
// not take (CPUs without it, or the noasm tag) are single Dgemm calls with
// the transposes expressed as BLAS flags; where it runs, the kernel takes
// them, as it is about twice as fast as one-threaded OpenBLAS at these
// shapes.

const (
	wideMin   = 8  // row length from which the BLAS kernels pay off
	blockRows = 64 // rows per rank-1 block: 64×32 float64 = 16 KiB
)

// affine computes out (n×m) = in (n×k) · w (k×m) + b.
func affine(out, in []float64, n, k int, w, b []float64, m int) {
	switch {
	case m >= wideMin:
		impl := blas64.Implementation()
		for i := 0; i < n; i++ {
			copy(out[i*m:i*m+m], b)
		}
		if gemm.Have {
			gemm.Add(n, m, k, in, k, 1, w, m, out, m)
			return
		}
		if wholeGemm {
			if n > 0 {
				impl.Dgemm(blas.NoTrans, blas.NoTrans, n, m, k, 1, in, k, w, m, 1, out, m)
			}
			return
		}
		for r0 := 0; r0 < n; r0 += blockRows {
			r := min(blockRows, n-r0)
			for kk := 0; kk < k; kk++ {
				// out[r0:r0+r, :] += in[r0:r0+r, kk] ⊗ w[kk, :]
				impl.Dger(r, m, 1, in[r0*k+kk:], k, w[kk*m:kk*m+m], 1, out[r0*m:], m)
			}
		}
	case m == 4:
		w = w[:k*4]
		b0, b1, b2, b3 := b[0], b[1], b[2], b[3]
		for i := 0; i < n; i++ {
			a0, a1, a2, a3 := b0, b1, b2, b3
			for kk, v := range in[i*k : i*k+k] {
				r := w[kk*4 : kk*4+4 : kk*4+4]
				a0 += v * r[0]
				a1 += v * r[1]
				a2 += v * r[2]
				a3 += v * r[3]
			}
			o := out[i*4 : i*4+4 : i*4+4]
			o[0], o[1], o[2], o[3] = a0, a1, a2, a3
		}
	default:
		for i := 0; i < n; i++ {
			o := out[i*m : i*m+m]
			copy(o, b)
			for kk, v := range in[i*k : i*k+k] {
				if v != 0 {
					axpy(v, w[kk*m:kk*m+m], o)
				}
			}
		}
	}
}

// gemmTN computes c (k×m) = aᵀ · d with a n×k and d n×m.
func gemmTN(c, a []float64, n, k int, d []float64, m int) {
	c = c[:k*m]
	clear(c)
	switch {
	case m >= wideMin:
		if gemm.Have {
			gemm.Set(k, m, n, a, 1, k, d, m, c, m)
			return
		}
		impl := blas64.Implementation()
		if wholeGemm {
			if n > 0 {
				impl.Dgemm(blas.Trans, blas.NoTrans, k, m, n, 1, a, k, d, m, 0, c, m)
			}
			return
		}
		for i := 0; i < n; i++ {
			impl.Dger(k, m, 1, a[i*k:i*k+k], 1, d[i*m:i*m+m], 1, c, m)
		}
	case m == 4:
		for i := 0; i < n; i++ {
			r := d[i*4 : i*4+4 : i*4+4]
			d0, d1, d2, d3 := r[0], r[1], r[2], r[3]
			if d0 == 0 && d1 == 0 && d2 == 0 && d3 == 0 {
				continue // a row cut off entirely by ReLU or dropout
			}
			for kk, v := range a[i*k : i*k+k] {
				o := c[kk*4 : kk*4+4 : kk*4+4]
				o[0] += v * d0
				o[1] += v * d1
				o[2] += v * d2
				o[3] += v * d3
			}
		}
	default:
		for i := 0; i < n; i++ {
			dr := d[i*m : i*m+m]
			for kk, v := range a[i*k : i*k+k] {
				if v != 0 {
					axpy(v, dr, c[kk*m:kk*m+m])
				}
			}
		}
	}
}

// gemmNT computes c (n×k) = d (n×m) · wᵀ with w k×m. wt has room for the
// m×k transpose of w, whose rows are the vectors the wide and generic paths
// accumulate.
func gemmNT(c, d []float64, n, m int, w []float64, k int, wt []float64) {
	if m == 4 && k == 4 {
		w = w[:16]
		for i := 0; i < n; i++ {
			r := d[i*4 : i*4+4 : i*4+4]
			d0, d1, d2, d3 := r[0], r[1], r[2], r[3]
			o := c[i*4 : i*4+4 : i*4+4]
			o[0] = d0*w[0] + d1*w[1] + d2*w[2] + d3*w[3]
			o[1] = d0*w[4] + d1*w[5] + d2*w[6] + d3*w[7]
			o[2] = d0*w[8] + d1*w[9] + d2*w[10] + d3*w[11]
			o[3] = d0*w[12] + d1*w[13] + d2*w[14] + d3*w[15]
		}
		return
	}
	if k >= wideMin && wholeGemm && !gemm.Have {
		if n > 0 {
			blas64.Implementation().Dgemm(blas.NoTrans, blas.Trans, n, k, m, 1, d, m, w, m, 0, c, k)
		}
		return
	}
	wt = wt[:m*k]
	for kk := 0; kk < k; kk++ {
		for j, v := range w[kk*m : kk*m+m] {
			wt[j*k+kk] = v
		}
	}
	c = c[:n*k]
	if k >= wideMin && gemm.Have {
		gemm.Set(n, k, m, d, m, 1, wt, k, c, k)
		return
	}
	clear(c)
	if k >= wideMin {
		impl := blas64.Implementation()
		for r0 := 0; r0 < n; r0 += blockRows {
			r := min(blockRows, n-r0)
			for j := 0; j < m; j++ {
				// c[r0:r0+r, :] += d[r0:r0+r, j] ⊗ wt[j, :]
				impl.Dger(r, k, 1, d[r0*m+j:], m, wt[j*k:j*k+k], 1, c[r0*k:], k)
			}
		}
		return
	}
	for i := 0; i < n; i++ {
		o := c[i*k : i*k+k]
		for j, v := range d[i*m : i*m+m] {
			if v != 0 {
				axpy(v, wt[j*k:j*k+k], o)
			}
		}
	}
}

// gemv computes z (n) = a (n×k) · w (k).
func gemv(z, a []float64, n, k int, w []float64) {
	w = w[:k]
	for i := range z[:n] {
		var s0, s1 float64
		x := a[i*k : i*k+k]
		j := 0
		for ; j+2 <= len(x); j += 2 {
			s0 += x[j] * w[j]
			s1 += x[j+1] * w[j+1]
		}
		if j < len(x) {
			s0 += x[j] * w[j]
		}
		z[i] = s0 + s1
	}
}

// gemvT computes out (m) = aᵀ · c with a n×m and c n.
func gemvT(out, a []float64, n, m int, c []float64) {
	out = out[:m]
	clear(out)
	if m == 4 {
		var s0, s1, s2, s3 float64
		for i, ci := range c[:n] {
			r := a[i*4 : i*4+4 : i*4+4]
			s0 += ci * r[0]
			s1 += ci * r[1]
			s2 += ci * r[2]
			s3 += ci * r[3]
		}
		out[0], out[1], out[2], out[3] = s0, s1, s2, s3
		return
	}
	for i, ci := range c[:n] {
		if ci != 0 {
			axpy(ci, a[i*m:i*m+m], out)
		}
	}
}

// axpy computes y += a·x.
func axpy(a float64, x, y []float64) {
	x = x[:len(y)]
	for j, v := range x {
		y[j] += a * v
	}
}
