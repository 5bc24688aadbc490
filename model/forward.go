package model

// Forward computes the outputs of n rows of x (row-major n×Dim) without
// dropout (evaluation mode) into logits, row-major n×Out() (logits[:n] for
// one output). It is the plain numeric forward pass that stored networks
// are evaluated with; the engines have their own.
func (p *Params) Forward(x []float64, n int, logits []float64) {
	shapes := p.Shapes()
	k := p.Out()
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
			AddAffine(out, in, p.W[l])
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
		copy(logits[i*k:(i+1)*k], in)
	}
}

// AddAffine adds in·w to out, w row-major len(in)×len(out): one linear
// layer of Forward, the kernel a network's training computes its forward
// pass with too. Inputs that are 0 (one-hot columns, ReLU units that are
// off) are skipped.
func AddAffine(out, in, w []float64) {
	k := len(out)
	for j, v := range in {
		if v == 0 {
			continue
		}
		row := w[j*k : (j+1)*k]
		for c := range out {
			out[c] += v * row[c]
		}
	}
}
