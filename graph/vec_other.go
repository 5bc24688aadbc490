//go:build noasm || !amd64

package graph

const haveVec = false

func mulVVasm(o, a, b []float64)        { panic("graph: no vector kernels here") }
func addVVasm(o, a, b []float64)        { panic("graph: no vector kernels here") }
func geVSasm(o, a []float64, s float64) { panic("graph: no vector kernels here") }
