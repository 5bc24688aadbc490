package gemm

import "fmt"

// The kernel (kern_amd64.s) keeps a 4×8 block of the product in registers
// while it runs down the shared dimension, so each element of the output is
// loaded and stored once per product instead of once per rank-1 update.

// kernChunk bounds the shared dimension of one pass over the output in
// products whose A is read transposed (the weight gradients): the rows of A
// and B that one pass reads then stay in the L1 cache while every output
// block reuses them.
const kernChunk = 3 << 10 // float64s of A per pass (24 KiB)

// Add adds A·B into C, where A is rows×k with element (r, p) at
// a[r·rs+p·cs], B is k×cols row-major with row stride ldb, and C is
// rows×cols with row stride ldc. cols must be at least 8, and Have true:
// without the kernel Add panics.
func Add(rows, cols, k int, a []float64, rs, cs int, b []float64, ldb int, c []float64, ldc int) {
	product(rows, cols, k, a, rs, cs, b, ldb, c, ldc, true)
}

// Set computes C = A·B with the arguments of Add.
func Set(rows, cols, k int, a []float64, rs, cs int, b []float64, ldb int, c []float64, ldc int) {
	product(rows, cols, k, a, rs, cs, b, ldb, c, ldc, false)
}

func product(rows, cols, k int, a []float64, rs, cs int, b []float64, ldb int, c []float64, ldc int, add bool) {
	if rows == 0 {
		return
	}
	if k == 0 {
		if !add { // an empty sum
			for r := 0; r < rows; r++ {
				clear(c[r*ldc : r*ldc+cols])
			}
		}
		return
	}
	if cols < 8 || (rows-1)*rs+(k-1)*cs >= len(a) || (k-1)*ldb+cols > len(b) || (rows-1)*ldc+cols > len(c) {
		panic(fmt.Sprintf("gemm: product %d×%d×%d out of its buffers", rows, k, cols))
	}
	if rs == 1 && cs > 1 {
		// A transposed: walk the shared dimension in chunks that fit L1.
		step := max(16, kernChunk/cs)
		for p0 := 0; p0 < k; p0 += step {
			kernBlock(rows, cols, min(step, k-p0), a[p0*cs:], rs, cs, b[p0*ldb:], ldb, c, ldc, add || p0 > 0)
		}
		return
	}
	kernBlock(rows, cols, k, a, rs, cs, b, ldb, c, ldc, add)
}

// kernBlock is product without the chunking; the bounds are checked.
func kernBlock(rows, cols, k int, a []float64, rs, cs int, b []float64, ldb int, c []float64, ldc int, add bool) {
	c8 := cols &^ 7
	r4 := rows &^ 3
	c32 := 0 // columns the AVX-512 kernel covers
	if have512 {
		c32 = cols &^ 31
	}
	for r := 0; r < r4; r += 4 {
		for j := 0; j < c32; j += 32 {
			kern4x32(k, &a[r*rs], rs, cs, &b[j], ldb, &c[r*ldc+j], ldc, add)
		}
		for j := c32; j < c8; j += 8 {
			kern4x8(k, &a[r*rs], rs, cs, &b[j], ldb, &c[r*ldc+j], ldc, add)
		}
	}
	for r := r4; r < rows; r++ {
		for j := 0; j < c8; j += 8 {
			kern1x8(k, &a[r*rs], cs, &b[j], ldb, &c[r*ldc+j], add)
		}
	}
	for r := 0; r < rows; r++ { // the columns past the last multiple of 8
		cr := c[r*ldc : r*ldc+cols]
		for j := c8; j < cols; j++ {
			var s float64
			for p := 0; p < k; p++ {
				s += a[r*rs+p*cs] * b[p*ldb+j]
			}
			if add {
				s += cr[j]
			}
			cr[j] = s
		}
	}
}
