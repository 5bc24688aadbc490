package model

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Params holds a network's weights. W[l] is row-major In×Out, B[l] has Out
// entries. Tensors() lists them in the fixed order W0, B0, W1, B1, … that every
// engine and the optimizer use.
//
// A network has one output, a logit, unless Outputs says otherwise: the
// propensity model of R ≥ 3 groups is the same network with R outputs, one
// logit per group (docs/method.md §4.4), so that one type, one forward pass
// and one file layout serve both. The engines train one-output networks.
type Params struct {
	Arch Arch
	Dim  int
	// Outputs is the width of the last layer; 0 means 1, the one logit of
	// a classifier or of a two-group propensity model.
	Outputs int
	W       [][]float64
	B       [][]float64
}

// Out is the number of outputs: Outputs, or 1 when it is 0.
func (p *Params) Out() int { return max(p.Outputs, 1) }

// Shapes lists the linear layers: Arch's on Dim inputs, with Out() outputs
// in the last.
func (p *Params) Shapes() []Shape {
	s := p.Arch.Shapes(p.Dim)
	if len(s) > 0 {
		s[len(s)-1].Out = p.Out()
	}
	return s
}

// NewParams returns zeroed parameters of a one-output network.
func NewParams(a Arch, dim int) *Params { return NewOutputs(a, dim, 1) }

// NewOutputs returns zeroed parameters of a network of out outputs.
func NewOutputs(a Arch, dim, out int) *Params {
	p := &Params{Arch: a, Dim: dim}
	if out != 1 {
		p.Outputs = out
	}
	for _, s := range p.Shapes() {
		p.W = append(p.W, make([]float64, s.In*s.Out))
		p.B = append(p.B, make([]float64, s.Out))
	}
	return p
}

// Init draws parameters as PyTorch's Linear does by default (docs/method.md §2): every
// weight and bias of layer l from U(−1/√fan_in, 1/√fan_in), layer by layer,
// weights before biases, weights in row-major In×Out order.
func Init(a Arch, dim int, rng *rand.Rand) *Params { return InitOutputs(a, dim, 1, rng) }

// InitOutputs is Init for a network of out outputs.
func InitOutputs(a Arch, dim, out int, rng *rand.Rand) *Params {
	p := NewOutputs(a, dim, out)
	InitLayers(p.Shapes(), p.W, p.B, rng)
	return p
}

// InitLayers draws the weights w[l] and biases b[l] of the linear layers
// shapes as Init does: layer by layer, weights before biases, each from
// U(−1/√fan_in, 1/√fan_in). Any fully connected network starts from it.
func InitLayers(shapes []Shape, w, b [][]float64, rng *rand.Rand) {
	for l, s := range shapes {
		bound := 1 / math.Sqrt(float64(s.In))
		for i := range w[l] {
			w[l][i] = (2*rng.Float64() - 1) * bound
		}
		for i := range b[l] {
			b[l][i] = (2*rng.Float64() - 1) * bound
		}
	}
}

// Tensors returns views of the parameters in the order W0, B0, W1, B1, ….
func (p *Params) Tensors() [][]float64 {
	t := make([][]float64, 0, 2*len(p.W))
	for l := range p.W {
		t = append(t, p.W[l], p.B[l])
	}
	return t
}

// Clone returns a deep copy.
func (p *Params) Clone() *Params {
	q := NewOutputs(p.Arch, p.Dim, p.Out())
	q.CopyFrom(p)
	return q
}

// CopyFrom copies q's values into p; both must have the same shape.
func (p *Params) CopyFrom(q *Params) {
	for l := range p.W {
		copy(p.W[l], q.W[l])
		copy(p.B[l], q.B[l])
	}
}

// Validate checks that the parameter slices match the architecture and the
// number of outputs, and are finite. It is the one home of that rule: Load
// checks a network file's architecture, inputs and tensors through it.
// The architecture, the input width and the outputs may come from a file
// and claim any size, so they are checked against the slices held before
// anything of their size is allocated or multiplied. Its errors are
// *FieldError values naming the network file's member ("arch", "dim",
// "weights[l]", "biases[l]"), the same names as W's and B's indices.
func (p *Params) Validate() error {
	a := p.Arch
	if a.Layers < 1 || a.Hidden < 1 {
		return fieldErr("arch", "%v: want at least one layer and one hidden unit", a)
	}
	if p.Outputs < 0 {
		return fmt.Errorf("network %v: %d outputs, want at least one", a, p.Outputs)
	}
	if len(p.W) != a.Layers || len(p.B) != a.Layers {
		return fieldErr("weights", "architecture %v: want %d layers, got %d weight and %d bias tensors", a, a.Layers, len(p.W), len(p.B))
	}
	if a.Layers > 1 && a.Hidden != len(p.B[0]) {
		return fieldErr("arch", "%d hidden units, the first layer holds %d biases", a.Hidden, len(p.B[0]))
	}
	if p.Dim < 1 || p.Dim > len(p.W[0]) {
		return fieldErr("dim", "%d inputs, the first layer holds %d weights", p.Dim, len(p.W[0]))
	}
	for l, s := range p.Shapes() {
		if s.In > math.MaxInt/s.Out || len(p.W[l]) != s.In*s.Out {
			return fieldErr(fmt.Sprintf("weights[%d]", l), "%d values, want %d×%d", len(p.W[l]), s.In, s.Out)
		}
		if len(p.B[l]) != s.Out {
			return fieldErr(fmt.Sprintf("biases[%d]", l), "%d values, want %d", len(p.B[l]), s.Out)
		}
		if err := finite(fmt.Sprintf("weights[%d]", l), p.W[l]); err != nil {
			return err
		}
		if err := finite(fmt.Sprintf("biases[%d]", l), p.B[l]); err != nil {
			return err
		}
	}
	return nil
}
