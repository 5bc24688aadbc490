//go:build noasm || !amd64

package vec

// Have is false: there are no vector loops for this architecture or build.
const Have = false

func Mul(o, a, b []float64)        { panic("vec: no vector kernels here") }
func Add(o, a, b []float64)        { panic("vec: no vector kernels here") }
func GE(o, a []float64, s float64) { panic("vec: no vector kernels here") }
