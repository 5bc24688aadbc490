package propensity

import (
	"fmt"
	"math"

	"github.com/fpareto/fp/model"
)

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

// SoftmaxFormat is the format of the network of a Multinomial stored as a
// model.File: the fields of a plain network file, the last layer's weights
// and biases with one column per group. Its own name keeps it from being
// read as a one-logit network.
const SoftmaxFormat = "fp-softmax-network/1"

// File wraps m's network (not copied) in a network file of format
// SoftmaxFormat, with the encoder's column names and statistics.
func (m *Multinomial) File(features []string, mean, sd []float64) *model.File {
	p := m.Net
	return &model.File{Format: SoftmaxFormat, Arch: p.Arch.String(), Dim: p.Dim,
		Features: features, Mean: mean, SD: sd, Weights: p.W, Biases: p.B}
}

// SoftmaxNetFromFile returns the network of R outputs f holds (not
// copied), validated as a Multinomial's; R is the width of its last layer.
func SoftmaxNetFromFile(f *model.File) (*model.Params, error) {
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
	p := &model.Params{Arch: a, Dim: f.Dim, Outputs: len(f.Biases[a.Layers-1]), W: f.Weights, B: f.Biases}
	if err := validateSoftmax(p, 2); err != nil {
		return nil, err
	}
	if (f.Mean != nil && len(f.Mean) != f.Dim) || (f.SD != nil && len(f.SD) != f.Dim) || (f.Features != nil && len(f.Features) != f.Dim) {
		return nil, fmt.Errorf("softmax network: features/mean/sd have %d/%d/%d entries, want dim %d", len(f.Features), len(f.Mean), len(f.SD), f.Dim)
	}
	return p, nil
}

// validateSoftmax checks that p is a network of at least one hidden layer
// and at least minGroups outputs, well-formed and finite.
func validateSoftmax(p *model.Params, minGroups int) error {
	if p.Arch.Layers < 2 || p.Arch.Hidden < 1 {
		return fmt.Errorf("softmax network: architecture %v needs at least one hidden layer", p.Arch)
	}
	if p.Dim < 1 {
		return fmt.Errorf("softmax network: %d inputs, want ≥ 1", p.Dim)
	}
	if p.Outputs < minGroups {
		return fmt.Errorf("softmax network: %d groups, want ≥ %d", p.Out(), minGroups)
	}
	if err := p.Validate(); err != nil {
		return fmt.Errorf("softmax network: %w", err)
	}
	return nil
}
