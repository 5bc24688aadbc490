//go:build noasm || !amd64

package gemm

// Without the amd64 kernels the wide products take the blas64 paths.
const Have = false

const have512 = false

// Name names the kernel: "" here, where there is none.
func Name() string { return "" }

func kern4x8(k int, a *float64, rs, cs int, b *float64, ldb int, c *float64, ldc int, add bool) {
	panic("gemm: no assembly kernel on this architecture")
}

func kern1x8(k int, a *float64, cs int, b *float64, ldb int, c *float64, add bool) {
	panic("gemm: no assembly kernel on this architecture")
}

func kern4x32(k int, a *float64, rs, cs int, b *float64, ldb int, c *float64, ldc int, add bool) {
	panic("gemm: no assembly kernel on this architecture")
}
