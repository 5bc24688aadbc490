package propensity

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/fpareto/fp/model"
)

// SoftmaxNet is the multinomial propensity network of docs/method.md §4.4:
// Arch's hidden layers (ReLU) as in a model.Params, then a linear output
// layer of Groups units, one logit per group. W[l] is row-major In×Out and
// B[l] has Out entries, in the order of Shapes.
type SoftmaxNet struct {
	Arch   model.Arch // Layers linear layers, the output layer included
	Dim    int
	Groups int // R ≥ 2: output units
	W, B   [][]float64
}

// Shapes lists the linear layers: Arch's, with Groups outputs in the last.
func (p *SoftmaxNet) Shapes() []model.Shape {
	s := p.Arch.Shapes(p.Dim)
	s[len(s)-1].Out = p.Groups
	return s
}

// newSoftmaxNet returns a network of zeros.
func newSoftmaxNet(a model.Arch, dim, groups int) *SoftmaxNet {
	p := &SoftmaxNet{Arch: a, Dim: dim, Groups: groups}
	for _, s := range p.Shapes() {
		p.W = append(p.W, make([]float64, s.In*s.Out))
		p.B = append(p.B, make([]float64, s.Out))
	}
	return p
}

// InitSoftmaxNet returns a network of groups outputs, its weights drawn as model.Init draws them (PyTorch's Linear
// default, docs/method.md §2): layer by layer, weights then biases, each
// from U(−1/√fan_in, 1/√fan_in).
func InitSoftmaxNet(a model.Arch, dim, groups int, rng *rand.Rand) *SoftmaxNet {
	p := newSoftmaxNet(a, dim, groups)
	model.InitLayers(p.Shapes(), p.W, p.B, rng)
	return p
}

// Tensors returns views of the parameters in the order W0, B0, W1, B1, ….
func (p *SoftmaxNet) Tensors() [][]float64 {
	t := make([][]float64, 0, 2*len(p.W))
	for l := range p.W {
		t = append(t, p.W[l], p.B[l])
	}
	return t
}

// Validate checks that the parameters match the architecture and the
// number of groups, and are finite.
func (p *SoftmaxNet) Validate() error {
	if p.Arch.Layers < 2 || p.Arch.Hidden < 1 {
		return fmt.Errorf("softmax network: architecture %v needs at least one hidden layer", p.Arch)
	}
	if p.Dim < 1 {
		return fmt.Errorf("softmax network: %d inputs, want ≥ 1", p.Dim)
	}
	if p.Groups < 2 {
		return fmt.Errorf("softmax network: %d groups, want ≥ 2", p.Groups)
	}
	shapes := p.Shapes()
	if len(p.W) != len(shapes) || len(p.B) != len(shapes) {
		return fmt.Errorf("softmax network %v on %d inputs: want %d layers, got %d weights and %d biases",
			p.Arch, p.Dim, len(shapes), len(p.W), len(p.B))
	}
	for l, s := range shapes {
		if len(p.W[l]) != s.In*s.Out || len(p.B[l]) != s.Out {
			return fmt.Errorf("softmax network layer %d: want %d×%d weights and %d biases, got %d and %d",
				l+1, s.In, s.Out, s.Out, len(p.W[l]), len(p.B[l]))
		}
		for _, t := range [][]float64{p.W[l], p.B[l]} {
			for _, v := range t {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return fmt.Errorf("softmax network layer %d: parameter is %v", l+1, v)
				}
			}
		}
	}
	return nil
}

// Forward writes the Groups logits of each of n rows of x (row-major
// n×Dim) into logits (row-major n×Groups), without dropout.
func (p *SoftmaxNet) Forward(x []float64, n int, logits []float64) {
	shapes := p.Shapes()
	maxw := 0
	for _, s := range shapes {
		maxw = max(maxw, s.Out)
	}
	cur, next := make([]float64, maxw), make([]float64, maxw)
	for i := 0; i < n; i++ {
		in := x[i*p.Dim : (i+1)*p.Dim]
		for l, s := range shapes {
			out := next[:s.Out]
			copy(out, p.B[l])
			affine(out, in, p.W[l])
			if l < len(shapes)-1 {
				relu(out)
			}
			cur, next = next, cur
			in = cur[:s.Out]
		}
		copy(logits[i*p.Groups:(i+1)*p.Groups], in)
	}
}

// affine adds in·w to out, w row-major len(in)×len(out). Inputs that are 0
// (one-hot columns, ReLU units that are off) are skipped.
func affine(out, in, w []float64) {
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

func relu(v []float64) {
	for j, u := range v {
		if u < 0 {
			v[j] = 0
		}
	}
}

// LogSumExp is log Σ exp(z_r), computed without overflow (the fitted
// model's and its training's, propensityfit's, one copy).
func LogSumExp(z []float64) float64 {
	m := math.Inf(-1)
	for _, v := range z {
		m = max(m, v)
	}
	var s float64
	for _, v := range z {
		s += math.Exp(v - m)
	}
	return m + math.Log(s)
}

// SoftmaxInto writes softmax(s·z) into p.
func SoftmaxInto(p, z []float64, s float64) {
	m := math.Inf(-1)
	for _, v := range z {
		m = max(m, s*v)
	}
	var sum float64
	for r, v := range z {
		p[r] = math.Exp(s*v - m)
		sum += p[r]
	}
	for r := range p {
		p[r] /= sum
	}
}

// CalibratedProbabilities writes the calibrated propensities of one row
// whose softmax network gives the logits z under temperature T into e:
// softmax(z/T), each entry floored at Clip, then divided by their sum so
// that they still add up to 1 (docs/method.md §4.4). Every e_r is then
// positive, so every overlap weight is.
func CalibratedProbabilities(e, z []float64, T float64) {
	SoftmaxInto(e, z, 1/T)
	Floor(e)
}

// Floor floors one row's propensities e (adding up to 1) at Clip and
// divides them by their sum, so that they still add up to 1 and each is
// positive: the clipping of docs/method.md §4.4, which a file's
// propensities go through before their overlap is judged as fp's own.
func Floor(e []float64) {
	var sum float64
	for r, v := range e {
		e[r] = max(v, Clip)
		sum += e[r]
	}
	for r := range e {
		e[r] /= sum
	}
}

// SoftmaxFormat is the format of a softmax network stored as a
// model.File: the fields of a plain network file, the last layer's weights
// and biases with one column per group. Its own name keeps it from being
// read as a one-logit network.
const SoftmaxFormat = "fp-softmax-network/1"

// File wraps p (not copied) in a network file of format SoftmaxFormat, with
// the encoder's column names and statistics.
func (p *SoftmaxNet) File(features []string, mean, sd []float64) *model.File {
	return &model.File{Format: SoftmaxFormat, Arch: p.Arch.String(), Dim: p.Dim,
		Features: features, Mean: mean, SD: sd, Weights: p.W, Biases: p.B}
}

// SoftmaxNetFromFile returns the softmax network f holds (not copied),
// validated; the number of groups is the width of its last layer.
func SoftmaxNetFromFile(f *model.File) (*SoftmaxNet, error) {
	if f.Format != SoftmaxFormat {
		return nil, fmt.Errorf("network file format %q: want %q, a softmax network", f.Format, SoftmaxFormat)
	}
	a, err := model.ParseArch(f.Arch)
	if err != nil {
		return nil, err
	}
	if len(f.Biases) != a.Layers {
		return nil, fmt.Errorf("softmax network %v: want %d layers, got %d biases", a, a.Layers, len(f.Biases))
	}
	p := &SoftmaxNet{Arch: a, Dim: f.Dim, Groups: len(f.Biases[a.Layers-1]), W: f.Weights, B: f.Biases}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if (f.Mean != nil && len(f.Mean) != f.Dim) || (f.SD != nil && len(f.SD) != f.Dim) || (f.Features != nil && len(f.Features) != f.Dim) {
		return nil, fmt.Errorf("softmax network: features/mean/sd have %d/%d/%d entries, want dim %d", len(f.Features), len(f.Mean), len(f.SD), f.Dim)
	}
	return p, nil
}
