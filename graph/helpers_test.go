package graph

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/train"
)

// synth draws a small dataset in which the label depends on the features
// and the group, so a network has something to learn and something unfair
// to unlearn.
func synth(rng *rand.Rand, n, dim int) train.Data {
	d := train.Data{N: n, Dim: dim, X: make([]float64, n*dim),
		Y: make([]float64, n), A: make([]float64, n), W: make([]float64, n)}
	for i := 0; i < n; i++ {
		if rng.Float64() < 0.5 {
			d.A[i] = 1
		}
		s := 0.8 * d.A[i]
		for j := 0; j < dim; j++ {
			v := rng.NormFloat64() + 0.5*d.A[i]
			d.X[i*dim+j] = v
			s += v / float64(j+1)
		}
		if rng.Float64() < model.Sigmoid(s) {
			d.Y[i] = 1
		}
		d.W[i] = 0.1 + 0.8*rng.Float64()
	}
	return d
}

// batchOf fills a batch of the given size from the first n rows of d with
// dropout masks drawn with probability p.
// allColumns are the input columns of every penalty the tests use.
var allColumns = []train.Input{penalties.Contrast, penalties.Group1Mean, penalties.Group0Mean}

func batchOf(d train.Data, size, n int, arch model.Arch, p float64, rng *rand.Rand) *train.Batch {
	b := train.NewBatch(size, d.Dim, arch.HiddenLayers(), arch.Hidden, allColumns...)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	b.Fill(d, idx)
	for _, m := range b.Masks {
		model.FillMask(rng, m, p)
	}
	return b
}

// refForward is a plain numeric forward pass with dropout masks, independent
// of the graph: the pre-activations of each hidden layer and the logits.
func refForward(p *model.Params, x []float64, n int, masks [][]float64) (hidden [][]float64, logits []float64) {
	shapes := p.Arch.Shapes(p.Dim)
	in := append([]float64(nil), x[:n*p.Dim]...)
	for l, s := range shapes {
		pre := make([]float64, n*s.Out)
		for i := 0; i < n; i++ {
			for j := 0; j < s.Out; j++ {
				v := p.B[l][j]
				for k := 0; k < s.In; k++ {
					v += in[i*s.In+k] * p.W[l][k*s.Out+j]
				}
				pre[i*s.Out+j] = v
			}
		}
		if l == len(shapes)-1 {
			return hidden, pre
		}
		hidden = append(hidden, pre)
		act := make([]float64, len(pre))
		for i, v := range pre {
			act[i] = math.Max(v, 0)
			if masks != nil {
				act[i] *= masks[l][i]
			}
		}
		in = act
	}
	return nil, nil
}

// refATO is Σ_l Σ_units |Σ_i c_i h_ij| over the given layers.
func refATO(hidden [][]float64, c []float64, n, h int) float64 {
	var u float64
	for _, pre := range hidden {
		for j := 0; j < h; j++ {
			var tau float64
			for i := 0; i < n; i++ {
				tau += c[i] * pre[i*h+j]
			}
			u += math.Abs(tau)
		}
	}
	return u
}

// refBCE is Σ_i sw_i (softplus(z_i) − y_i z_i).
func refBCE(z, y, sw []float64) float64 {
	var r float64
	for i := range z {
		r += sw[i] * (model.Softplus(z[i]) - y[i]*z[i])
	}
	return r
}

// numGrad is the central finite-difference gradient of f(Gradient(b)) with
// respect to every parameter of tr, with step h.
func numGrad(t *testing.T, tr train.Trainer, b *train.Batch, f func(train.Loss) float64, h float64) [][]float64 {
	t.Helper()
	var out [][]float64
	for _, p := range tr.Params() {
		g := make([]float64, len(p))
		for i := range p {
			old := p[i]
			p[i] = old + h
			lp, err := tr.Gradient(b)
			if err != nil {
				t.Fatal(err)
			}
			p[i] = old - h
			lm, err := tr.Gradient(b)
			if err != nil {
				t.Fatal(err)
			}
			p[i] = old
			g[i] = (f(lp) - f(lm)) / (2 * h)
		}
		out = append(out, g)
	}
	return out
}

// relDiff is ‖a − b‖ / ‖b‖ over all entries (‖a‖ when b is zero).
func relDiff(a, b [][]float64) float64 {
	var d, n, na float64
	for k := range a {
		for i := range a[k] {
			d += (a[k][i] - b[k][i]) * (a[k][i] - b[k][i])
			n += b[k][i] * b[k][i]
			na += a[k][i] * a[k][i]
		}
	}
	if n == 0 {
		return math.Sqrt(na)
	}
	return math.Sqrt(d / n)
}

func norm(a [][]float64) float64 {
	var s float64
	for _, t := range a {
		for _, v := range t {
			s += v * v
		}
	}
	return math.Sqrt(s)
}

func clone(a [][]float64) [][]float64 {
	out := make([][]float64, len(a))
	for i := range a {
		out[i] = append([]float64(nil), a[i]...)
	}
	return out
}

// axpy returns x·a + y·b entrywise.
func combine(x float64, a [][]float64, y float64, b [][]float64) [][]float64 {
	out := clone(a)
	for k := range out {
		for i := range out[k] {
			out[k][i] = x*a[k][i] + y*b[k][i]
		}
	}
	return out
}
