package model

// Scorer computes the logit of one unstandardized encoded row at a time,
// without allocating: the arithmetic of Predict and Forward, row by row.
// A Scorer is not safe for concurrent use.
type Scorer struct {
	p         *Params
	mean, sd  []float64
	x         []float64
	cur, next []float64
	shapes    []Shape
}

// NewScorer prepares f's network for scoring rows.
func (f *File) NewScorer() (*Scorer, error) {
	p, err := f.Params()
	if err != nil {
		return nil, err
	}
	shapes := p.Arch.Shapes(p.Dim)
	w := 1
	for _, s := range shapes {
		w = max(w, s.Out)
	}
	return &Scorer{p: p, mean: f.Mean, sd: f.SD, x: make([]float64, p.Dim),
		cur: make([]float64, w), next: make([]float64, w), shapes: shapes}, nil
}

// Dim is the length of the rows Logit takes.
func (s *Scorer) Dim() int { return s.p.Dim }

// Logit standardizes row (len Dim, not modified) as the file says and
// returns the network's logit.
func (s *Scorer) Logit(row []float64) float64 {
	in := s.x
	for j, v := range row {
		if s.mean != nil {
			if s.sd[j] == 0 {
				v = 0
			} else {
				v = (v - s.mean[j]) / s.sd[j]
			}
		}
		in[j] = v
	}
	cur, next := s.cur, s.next
	for l, sh := range s.shapes {
		out := next[:sh.Out]
		copy(out, s.p.B[l])
		w := s.p.W[l]
		for k, v := range in {
			if v == 0 {
				continue
			}
			wr := w[k*sh.Out : (k+1)*sh.Out]
			for j := range out {
				out[j] += v * wr[j]
			}
		}
		if l < len(s.shapes)-1 {
			for j, v := range out {
				if v < 0 {
					out[j] = 0
				}
			}
		}
		cur, next = next, cur
		in = cur[:sh.Out]
	}
	return in[0]
}
