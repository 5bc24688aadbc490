package vec

import "math"

// AdamPlain is Adam written plainly: for each i,
//
//	m[i] = b1·m[i] + (1−b1)·g[i]
//	v[i] = b2·v[i] + (1−b2)·g[i]·g[i]
//	p[i] −= step·m[i] / (√v[i]/bc2 + eps)
//
// each operation rounded in this order.
func AdamPlain(p, g, m, v []float64, b1, b2, step, bc2, eps float64) {
	g, m, v = g[:len(p)], m[:len(p)], v[:len(p)]
	for i := range p {
		gi := g[i]
		m[i] = b1*m[i] + (1-b1)*gi
		v[i] = b2*v[i] + (1-b2)*gi*gi
		p[i] -= step * m[i] / (math.Sqrt(v[i])/bc2 + eps)
	}
}
