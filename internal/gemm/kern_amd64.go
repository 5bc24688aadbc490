//go:build !noasm

package gemm

import "golang.org/x/sys/cpu"

// Have reports whether the AVX2/FMA kernels below can run here.
var Have = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// have512 reports whether the 4×32 AVX-512 kernel can run here too.
var have512 = Have && cpu.X86.HasAVX512F

// Name names the kernel: "avx512-fma" or "avx2-fma", or "" where Have is
// false.
func Name() string {
	switch {
	case have512:
		return "avx512-fma"
	case Have:
		return "avx2-fma"
	}
	return ""
}

// kern4x8 writes a 4×8 block of a matrix product into c: for r < 4 and
// j < 8, c[r·ldc+j] = Σ_{p<k} a[r·rs+p·cs] · b[p·ldb+j], plus the old
// c[r·ldc+j] when add is set. The strides rs and cs let
// the same kernel read A by rows (rs = row length, cs = 1) or transposed
// (rs = 1, cs = row length). Every address it reads or writes must be in
// bounds; the callers check that.
//
//go:noescape
func kern4x8(k int, a *float64, rs, cs int, b *float64, ldb int, c *float64, ldc int, add bool)

// kern1x8 is kern4x8 for one row: c[j] (+)= Σ_{p<k} a[p·cs] · b[p·ldb+j].
//
//go:noescape
func kern1x8(k int, a *float64, cs int, b *float64, ldb int, c *float64, add bool)

// kern4x32 is kern4x8 for a 4×32 block, with AVX-512 (have512). It
// accumulates every element in the same order with the same fused
// operations, so it gives the same bits.
//
//go:noescape
func kern4x32(k int, a *float64, rs, cs int, b *float64, ldb int, c *float64, ldc int, add bool)
