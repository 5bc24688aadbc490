package model

// Forward computes the logits of n rows of x (row-major n×Dim) without dropout
// (evaluation mode) into logits[:n]. It is the plain numeric forward pass that
// stored networks are evaluated with; the engines have their own.
func (p *Params) Forward(x []float64, n int, logits []float64) {
	shapes := p.Arch.Shapes(p.Dim)
	maxw := 0
	for _, s := range shapes {
		maxw = max(maxw, s.Out)
	}
	cur := make([]float64, maxw)
	next := make([]float64, maxw)
	for i := 0; i < n; i++ {
		in := x[i*p.Dim : (i+1)*p.Dim]
		for l, s := range shapes {
			out := next[:s.Out]
			copy(out, p.B[l])
			w := p.W[l]
			for k, v := range in {
				if v == 0 {
					continue
				}
				row := w[k*s.Out : (k+1)*s.Out]
				for j := range out {
					out[j] += v * row[j]
				}
			}
			if l < len(shapes)-1 {
				for j, v := range out {
					if v < 0 {
						out[j] = 0
					}
				}
			}
			cur, next = next, cur
			in = cur[:s.Out]
		}
		logits[i] = in[0]
	}
}
