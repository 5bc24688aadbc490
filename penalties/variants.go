package penalties

import (
	"fmt"

	"github.com/fpareto/fp/train"
	G "gorgonia.org/gorgonia"
)

// NormalizedEps is ε of the small-σ guard of ATOPenultimateNormalized: each
// unit's standard deviation σ enters as σ' = √(σ² + ε²), so a unit that is
// constant on the batch (σ = 0, and then τ̂ = 0 too, since the contrast sums
// to 0) contributes 0 with a finite gradient instead of 0/0.
const NormalizedEps = 1e-8

// ATOPenultimateNormalized is U = Σ_u |τ̂(h_u)| / σ'_u over the units u of
// the last hidden layer's pre-activation h = h^(L−1), where σ_u is the
// standard deviation of h_u over the batch's rows (unweighted: mean and
// variance with weight 1/n on each of the n real rows) and
// σ'_u = √(σ_u² + ε²), ε = NormalizedEps. Scaling the layer's weights and
// bias by c > 0 scales τ̂_u and σ_u alike, so (up to ε) U does not change,
// and a ReLU network cannot lower it by moving scale into the output layer
// without changing its predictions.
var ATOPenultimateNormalized Penalty = normalizedPenalty{}

// ATOOutput is U = |τ̂(σ(z))|, the ATO of the predicted probability σ(z) on
// the batch: the quantity the test metric ato measures (docs/method.md §7), here on a
// mini-batch in training mode.
var ATOOutput Penalty = outputPenalty{}

// DPMean is U = |mean σ(z) over the batch's rows with a = 1 − mean σ(z)
// over those with a = 0|, unweighted means (padding rows excluded): the gap
// in mean predicted probability between the groups, a differentiable
// demographic-parity penalty. It is ATOOutput with the contrast
// DPContrast in place of the overlap-weighted one.
var DPMean Penalty = outputPenalty{dp: true}

type normalizedPenalty struct{}

func (normalizedPenalty) Name() string { return NameATOPenultimateNormalized }

// Version is empty: the built-ins are identified by fp's own version.
func (normalizedPenalty) Version() string { return "" }

// Inputs is the ATO contrast.
func (normalizedPenalty) Inputs() []train.Input { return []train.Input{Contrast} }

// ATOPenultimateNormalized is how the handwritten engine recognises the
// penalty (backprop.NormalizedATOPenalty).
func (normalizedPenalty) ATOPenultimateNormalized() {}

// Node builds Σ_u |cᵀh_u| / √(Σ_i sw_i (h_iu − μ_u)² + ε²), μ = swᵀh. SW is
// 0 on padding rows, so they enter neither μ nor σ.
func (p normalizedPenalty) Node(n Net, b BatchNodes) (*G.Node, error) {
	if len(n.Hidden) == 0 {
		return nil, fmt.Errorf("%s: the network has no hidden layer", p.Name())
	}
	h := n.Hidden[len(n.Hidden)-1]
	c, err := b.Column(Contrast.Name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Name(), err)
	}
	if b.SW == nil {
		return nil, fmt.Errorf("%s: the batch has no row weights SW", p.Name())
	}
	wrap := func(err error) error { return fmt.Errorf("%s: %w", p.Name(), err) }
	tau, err := G.Mul(c, h) // H-vector
	if err != nil {
		return nil, wrap(err)
	}
	sd, err := unitSD(h, b.SW)
	if err != nil {
		return nil, wrap(err)
	}
	r, err := G.HadamardDiv(tau, sd)
	if err != nil {
		return nil, wrap(err)
	}
	abs, err := G.Abs(r)
	if err != nil {
		return nil, wrap(err)
	}
	u, err := G.Sum(abs)
	if err != nil {
		return nil, wrap(err)
	}
	return u, nil
}

// unitSD builds σ'_u = √(Σ_i sw_i (h_iu − μ_u)² + ε²), μ = swᵀh, for each
// unit of the batch×H matrix h.
func unitSD(h, sw *G.Node) (*G.Node, error) {
	mu, err := G.Mul(sw, h)
	if err != nil {
		return nil, err
	}
	cen, err := G.BroadcastSub(h, mu, nil, []byte{0})
	if err != nil {
		return nil, err
	}
	sq, err := G.HadamardProd(cen, cen)
	if err != nil {
		return nil, err
	}
	v, err := G.Mul(sw, sq)
	if err != nil {
		return nil, err
	}
	if v, err = G.Add(v, G.NewConstant(NormalizedEps*NormalizedEps)); err != nil {
		return nil, err
	}
	return G.Sqrt(v)
}

// outputPenalty is ato-output (the overlap-weighted contrast) or, with dp,
// dp-mean (the unweighted one, DPContrast): U = |cᵀσ(z)|.
type outputPenalty struct{ dp bool }

func (p outputPenalty) Name() string {
	if p.dp {
		return NameDPMean
	}
	return NameATOOutput
}

// Version is empty: the built-ins are identified by fp's own version.
func (outputPenalty) Version() string { return "" }

// Inputs is the ATO contrast, or for dp-mean the unweighted one.
func (p outputPenalty) Inputs() []train.Input {
	if p.dp {
		return []train.Input{DPContrast}
	}
	return []train.Input{Contrast}
}

// ATOOutput is how the handwritten engine recognises the penalty
// (backprop.OutputATOPenalty): dp-mean is the ATO of the probability with
// unit weights, so the same gradient serves it with its own contrast.
func (outputPenalty) ATOOutput() {}

// OutputOnly marks a penalty that reads no hidden layer (train's check of
// where a conditioned network's penalty reads).
func (outputPenalty) OutputOnly() {}

// Node builds |cᵀσ(z)|. A batch that lacks a group has c = 0, so U = 0 and
// every gradient, c_i·σ′(z_i)·sign(τ̂), is 0 whatever sign(0) is taken to be.
func (p outputPenalty) Node(n Net, b BatchNodes) (*G.Node, error) {
	if n.Logit == nil {
		return nil, fmt.Errorf("%s: the network has no logit", p.Name())
	}
	c, err := b.Column(p.Inputs()[0].Name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Name(), err)
	}
	prob, err := G.Sigmoid(n.Logit)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Name(), err)
	}
	tau, err := G.Mul(c, prob) // the inner product, a scalar
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Name(), err)
	}
	u, err := G.Abs(tau)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Name(), err)
	}
	return u, nil
}
