package model

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// EncodingWidth is the number of values EncodeLambda gives.
const EncodingWidth = 2

// DefaultFiLMWidth is the width of the conditioning network's hidden layer
// (docs/method.md §12).
const DefaultFiLMWidth = 16

// EncodeLambda is the conditioning network's input for λ ∈ [0, 1]: 2λ − 1,
// and (log10(λ + 10⁻⁴) + 2)/2, which spreads the log grid's 10⁻³ … 1 over
// about [−0.5, 1] where λ alone would crowd it near −1 (docs/method.md §12).
func EncodeLambda(lambda float64) [EncodingWidth]float64 {
	return [EncodingWidth]float64{2*lambda - 1, (math.Log10(lambda+1e-4) + 2) / 2}
}

// FiLM is the conditioning network of a λ-conditioned MLP (docs/method.md
// §12): from e = EncodeLambda(λ), one tanh layer of Width units,
// c = tanh(e·W1 + B1), then one linear layer o = c·W2 + B2 with
// 2·Layers·Hidden outputs (two more with Output). Hidden layer l of the
// MLP is modulated as h ↦ γ_l ⊙ h + δ_l on its pre-activation, with
// γ_l = 1 + o[2lH : 2lH+H] and δ_l = o[2lH+H : 2lH+2H]; with Output the
// logit is too, z ↦ γ_out·z + δ_out with γ_out = 1 + o[2LH] and
// δ_out = o[2LH+1]. W1 is row-major EncodingWidth×Width, W2
// Width×Outputs().
type FiLM struct {
	Width  int `json:"width"`  // units of the conditioning network's hidden layer
	Layers int `json:"layers"` // hidden layers of the MLP it modulates
	Hidden int `json:"hidden"` // their width
	// Output says the output layer's logit is modulated too. Files
	// without it modulate the hidden layers only.
	Output bool      `json:"output,omitempty"`
	W1     []float64 `json:"w1"`
	B1     []float64 `json:"b1"`
	W2     []float64 `json:"w2"`
	B2     []float64 `json:"b2"`
}

// Outputs is the number of values o has: 2·Layers·Hidden, plus 2 with
// Output.
func (f *FiLM) Outputs() int {
	n := 2 * f.Layers * f.Hidden
	if f.Output {
		n += 2
	}
	return n
}

// Modulated is the number of layers the modulation acts on: Layers, plus
// the output layer with Output. It is the length of Modulation's slices.
func (f *FiLM) Modulated() int {
	if f.Output {
		return f.Layers + 1
	}
	return f.Layers
}

// NewFiLM draws a conditioning network for a, modulating the output layer
// too when output is set: W1 and B1 as PyTorch's Linear does
// (U(±1/√fan_in)), W2 and B2 zero, so that γ = 1 and δ = 0 at every λ and
// the conditioned network starts as the plain one.
func NewFiLM(a Arch, width int, output bool, rng *rand.Rand) *FiLM {
	f := &FiLM{Width: width, Layers: a.HiddenLayers(), Hidden: a.Hidden, Output: output}
	f.W1 = make([]float64, EncodingWidth*width)
	f.B1 = make([]float64, width)
	f.W2 = make([]float64, width*f.Outputs())
	f.B2 = make([]float64, f.Outputs())
	bound := 1 / math.Sqrt(EncodingWidth)
	for i := range f.W1 {
		f.W1[i] = (2*rng.Float64() - 1) * bound
	}
	for i := range f.B1 {
		f.B1[i] = (2*rng.Float64() - 1) * bound
	}
	return f
}

// Tensors returns views of the parameters in the order W1, B1, W2, B2.
func (f *FiLM) Tensors() [][]float64 { return [][]float64{f.W1, f.B1, f.W2, f.B2} }

// Clone returns a deep copy.
func (f *FiLM) Clone() *FiLM {
	g := *f
	g.W1 = append([]float64(nil), f.W1...)
	g.B1 = append([]float64(nil), f.B1...)
	g.W2 = append([]float64(nil), f.W2...)
	g.B2 = append([]float64(nil), f.B2...)
	return &g
}

// Validate checks the shapes against the MLP a and that every value is finite.
func (f *FiLM) Validate(a Arch) error {
	if f.Width < 1 || f.Layers != a.HiddenLayers() || f.Hidden != a.Hidden {
		return fmt.Errorf("conditioning network: width %d modulating %d layers of %d units, want width ≥ 1 and %d layers of %d units",
			f.Width, f.Layers, f.Hidden, a.HiddenLayers(), a.Hidden)
	}
	// Width comes from the file: held against B1's length first, it is
	// bounded by the file's size, and so are the products below.
	if len(f.B1) != f.Width {
		return fmt.Errorf("conditioning network: tensor 2 has %d values, want %d", len(f.B1), f.Width)
	}
	want := []int{EncodingWidth * f.Width, f.Width, f.Width * f.Outputs(), f.Outputs()}
	for i, t := range f.Tensors() {
		if len(t) != want[i] {
			return fmt.Errorf("conditioning network: tensor %d has %d values, want %d", i+1, len(t), want[i])
		}
		for _, v := range t {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("conditioning network: tensor %d holds %v", i+1, v)
			}
		}
	}
	return nil
}

// Hidden returns c = tanh(e·W1 + B1) for e = EncodeLambda(λ).
func (f *FiLM) hiddenAt(lambda float64) []float64 {
	e := EncodeLambda(lambda)
	c := make([]float64, f.Width)
	for j := range c {
		s := f.B1[j]
		for i, v := range e {
			s += v * f.W1[i*f.Width+j]
		}
		c[j] = math.Tanh(s)
	}
	return c
}

// Modulation returns γ_l and δ_l of every modulated layer at λ: the hidden
// layers', then with Output the output layer's (one value each).
func (f *FiLM) Modulation(lambda float64) (gamma, delta [][]float64) {
	c := f.hiddenAt(lambda)
	n := f.Outputs()
	o := make([]float64, n)
	for k := range o {
		o[k] = f.B2[k]
	}
	for j, cj := range c {
		row := f.W2[j*n : (j+1)*n]
		for k, w := range row {
			o[k] += cj * w
		}
	}
	H := f.Hidden
	for l := 0; l < f.Layers; l++ {
		g := make([]float64, H)
		for u := range g {
			g[u] = 1 + o[2*l*H+u]
		}
		gamma = append(gamma, g)
		delta = append(delta, append([]float64(nil), o[2*l*H+H:2*l*H+2*H]...))
	}
	if f.Output {
		gamma = append(gamma, []float64{1 + o[n-2]})
		delta = append(delta, []float64{o[n-1]})
	}
	return gamma, delta
}

// Conditioned is a λ-conditioned network: the MLP Net whose hidden
// pre-activations (and with FiLM.Output its logit) FiLM modulates
// (docs/method.md §12).
type Conditioned struct {
	Net  *Params
	FiLM *FiLM
}

// NewConditioned pairs net with a fresh identity conditioning network of
// the given width, modulating the hidden layers only, drawn from rng.
func NewConditioned(net *Params, width int, rng *rand.Rand) *Conditioned {
	return &Conditioned{Net: net, FiLM: NewFiLM(net.Arch, width, false, rng)}
}

// Tensors returns views of every parameter: Net's (W0, B0, W1, B1, …), then
// FiLM's (W1, B1, W2, B2). Engines and the optimizer use this order.
func (c *Conditioned) Tensors() [][]float64 {
	return append(c.Net.Tensors(), c.FiLM.Tensors()...)
}

// Clone returns a deep copy.
func (c *Conditioned) Clone() *Conditioned {
	return &Conditioned{Net: c.Net.Clone(), FiLM: c.FiLM.Clone()}
}

// Validate checks both parts.
func (c *Conditioned) Validate() error {
	if c.Net == nil || c.FiLM == nil {
		return fmt.Errorf("conditioned network: missing its MLP or its conditioning network")
	}
	if err := c.Net.Validate(); err != nil {
		return err
	}
	return c.FiLM.Validate(c.Net.Arch)
}

// At returns the plain network the conditioned one computes at λ: since
// γ ⊙ (xW + b) + δ = x(W·diag γ) + (γ ⊙ b + δ), hidden layer l's weights
// become W_l·diag(γ_l) and its biases γ_l ⊙ b_l + δ_l; the output layer is
// unchanged, or with FiLM.Output becomes W_L·γ_out and γ_out·b_L + δ_out
// the same way. Everything that scores a plain network (Forward, the engines'
// Predict, ONNX export) then scores the conditioned one at λ.
func (c *Conditioned) At(lambda float64) *Params {
	p := c.Net.Clone()
	FoldInto(p, c.Net, c.FiLM, lambda)
	return p
}

// FoldInto writes net folded with film at λ into dst (same shape as net),
// allocating only the modulation.
func FoldInto(dst, net *Params, film *FiLM, lambda float64) {
	gamma, delta := film.Modulation(lambda)
	FoldWith(dst, net, gamma, delta)
}

// FoldWith is FoldInto with the modulation (γ_l, δ_l of each modulated
// layer, as FiLM.Modulation gives them) already computed; layers past the
// modulated ones are copied.
func FoldWith(dst, net *Params, gamma, delta [][]float64) {
	shapes := net.Arch.Shapes(net.Dim)
	for l, s := range shapes {
		if l >= len(gamma) {
			copy(dst.W[l], net.W[l])
			copy(dst.B[l], net.B[l])
			continue
		}
		g, d := gamma[l], delta[l]
		for i := 0; i < s.In; i++ {
			for j := 0; j < s.Out; j++ {
				dst.W[l][i*s.Out+j] = net.W[l][i*s.Out+j] * g[j]
			}
		}
		for j := 0; j < s.Out; j++ {
			dst.B[l][j] = net.B[l][j]*g[j] + d[j]
		}
	}
}

// Backward writes into grads (W1, B1, W2, B2 order, shapes as Tensors) the
// gradient of a loss with respect to the conditioning network's parameters,
// given the loss's gradients dGamma[l] and dDelta[l] with respect to γ_l and
// δ_l at λ, in Modulation's order (with Output, entry Layers is the output
// layer's). grads are overwritten.
func (f *FiLM) Backward(lambda float64, dGamma, dDelta [][]float64, grads [][]float64) {
	e := EncodeLambda(lambda)
	c := f.hiddenAt(lambda)
	n, H := f.Outputs(), f.Hidden
	do := make([]float64, n)
	for l := 0; l < f.Layers; l++ {
		copy(do[2*l*H:2*l*H+H], dGamma[l])
		copy(do[2*l*H+H:2*l*H+2*H], dDelta[l])
	}
	if f.Output {
		do[n-2], do[n-1] = dGamma[f.Layers][0], dDelta[f.Layers][0]
	}
	dW1, dB1, dW2, dB2 := grads[0], grads[1], grads[2], grads[3]
	copy(dB2, do)
	for j, cj := range c {
		row := f.W2[j*n : (j+1)*n]
		drow := dW2[j*n : (j+1)*n]
		dc := 0.0
		for k, d := range do {
			drow[k] = cj * d
			dc += row[k] * d
		}
		dpre := dc * (1 - cj*cj)
		dB1[j] = dpre
		for i, v := range e {
			dW1[i*f.Width+j] = v * dpre
		}
	}
}
