package propensity

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
)

// Multinomial is a trained propensity model of R ≥ 3 groups: a softmax
// network and one temperature on its logits (docs/method.md §4.4).
type Multinomial struct {
	Net *SoftmaxNet
	T   float64 // temperature > 0: e = softmax(logits/T)
}

// Groups is R, the number of groups the model predicts.
func (m *Multinomial) Groups() int { return m.Net.Groups }

// Validate checks that m can predict: a well-formed, finite network of at
// least three groups and a finite temperature > 0.
func (m *Multinomial) Validate() error {
	if m == nil || m.Net == nil {
		return errors.New("multinomial propensity model: no network")
	}
	if !(m.T > 0) || math.IsInf(m.T, 1) {
		return fmt.Errorf("multinomial propensity model: temperature %v, want a finite value > 0", m.T)
	}
	if err := m.Net.Validate(); err != nil {
		return fmt.Errorf("multinomial propensity model: %w", err)
	}
	if m.Net.Groups < 3 {
		return fmt.Errorf("multinomial propensity model: %d groups, want ≥ 3 (two groups use the binary model)", m.Net.Groups)
	}
	return nil
}

// Predict returns the calibrated propensities of n rows of x (row-major
// n×Net.Dim, standardized as the training rows were): row-major n×R, row i
// holding e_0(x_i) … e_{R−1}(x_i), each at least about Clip and adding up
// to 1 (CalibratedProbabilities). A shape mismatch is a programming error
// and panics, as an out-of-range slice would.
func (m *Multinomial) Predict(x []float64, n int) []float64 {
	if n < 0 || len(x) != n*m.Net.Dim {
		panic(fmt.Sprintf("propensity: predict %d rows of %d inputs from %d values", n, m.Net.Dim, len(x)))
	}
	R := m.Net.Groups
	z := make([]float64, n*R)
	m.Net.Forward(x, n, z)
	e := make([]float64, n*R)
	for i := 0; i < n; i++ {
		CalibratedProbabilities(e[i*R:(i+1)*R], z[i*R:(i+1)*R], m.T)
	}
	return e
}

// ColumnName is the name of the column that holds the propensity of the
// group whose level is level, in a file of scored rows: "propensity_" + level.
func ColumnName(level string) string { return "propensity_" + level }

// FitMultinomial trains a multinomial propensity network on x (row-major
// n×dim, standardized, finite) to predict the group a_i ∈ {0, …, groups−1}
// of each row, then fits its temperature on held-out rows. It is Fit for
// R = groups ≥ 3: two groups keep the binary model (Fit), whose numbers it
// does not reproduce.
//
// The recipe is Fit's (docs/method.md §4.1): the rows are split within each
// group, round(CalibFrac·n_g) of group g (at least 1, at most n_g − 1) held
// out; the network (cfg.Arch's hidden layers, ReLU, inverted dropout
// cfg.Dropout, then groups logits) minimises the mean multinomial
// cross-entropy mean_i (logsumexp(z_i) − z_{i,a_i}) with Adam (cfg.Adam,
// constant rate) for cfg.Epochs epochs in shuffled batches of
// max(1, round(BatchFrac·nTrain)) rows; the temperature then minimises the
// held-out NLL (FitSoftmaxTemperature), and T = 1 is kept if the fitted T
// were worse.
//
// The engines of package train compute one logit, so the network is trained
// here by a dedicated loop with a handwritten gradient (checked against
// finite differences in the tests).
//
// All randomness comes from rng, drawn in this order: the split (group 0,
// 1, …), the initial weights, then per epoch the row order and per batch
// the dropout masks of each hidden layer (model.FillMask). The same
// generator state gives the same model.
//
// FitMultinomial fails on fewer than MinRows rows, mismatched shapes, a
// non-finite feature, fewer than three groups, a group code outside 0…groups−1, a
// group with fewer than two rows, an invalid cfg, when ctx is done, or when
// training diverges.
func FitMultinomial(ctx context.Context, x []float64, n, dim int, a []int, groups int, cfg Config, rng *rand.Rand) (*Multinomial, Report, error) {
	if err := cfg.Validate(); err != nil {
		return nil, Report{}, err
	}
	if groups < 3 {
		return nil, Report{}, fmt.Errorf("propensity: %d groups: the multinomial model needs at least 3 (two groups use the binary model)", groups)
	}
	if n < MinRows {
		return nil, Report{}, fmt.Errorf("propensity: %d rows, need at least %d", n, MinRows)
	}
	if dim < 1 || len(x) != n*dim || len(a) != n {
		return nil, Report{}, fmt.Errorf("propensity: %d rows × %d features, got %d values and %d groups", n, dim, len(x), len(a))
	}
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, Report{}, fmt.Errorf("propensity: row %d, feature %d is %v", i/dim, i%dim, v)
		}
	}
	rows := make([][]int, groups)
	for i, g := range a {
		if g < 0 || g >= groups {
			return nil, Report{}, fmt.Errorf("propensity: row %d: group %d, want a code in 0…%d", i, g, groups-1)
		}
		rows[g] = append(rows[g], i)
	}
	for g, r := range rows {
		if len(r) < 2 {
			return nil, Report{}, fmt.Errorf("propensity: group %d has %d rows, need at least 2 (one to train on, one to calibrate with)", g, len(r))
		}
	}

	trainIdx, calibIdx := splitCalibration(rows, cfg.CalibFrac, rng)
	trX, trA := gatherGroups(x, a, dim, trainIdx)
	caX, caA := gatherGroups(x, a, dim, calibIdx)

	net := initSoftmaxNet(cfg.Arch, dim, groups, rng)
	if err := trainSoftmax(ctx, net, trX, trA, cfg, rng); err != nil {
		return nil, Report{}, fmt.Errorf("propensity: train: %w", err)
	}
	if err := net.Validate(); err != nil {
		return nil, Report{}, fmt.Errorf("propensity: trained network: %w", err)
	}

	nc := len(caA)
	z := make([]float64, nc*groups)
	net.Forward(caX, nc, z)
	T, err := FitSoftmaxTemperature(z, groups, caA)
	if err != nil {
		return nil, Report{}, fmt.Errorf("propensity: calibrate: %w", err)
	}
	rep := Report{NTrain: len(trA), NCalib: nc, T: T, NLLBefore: SoftmaxNLL(z, groups, caA, 1), NLLAfter: SoftmaxNLL(z, groups, caA, T)}
	if rep.NLLAfter > rep.NLLBefore {
		// As in Fit: only within rounding of a flat optimum at T = 1.
		rep.T, rep.NLLAfter = 1, rep.NLLBefore
	}
	return &Multinomial{Net: net, T: rep.T}, rep, nil
}

// gatherGroups copies rows idx of x and their groups.
func gatherGroups(x []float64, a []int, dim int, idx []int) ([]float64, []int) {
	gx, ga := make([]float64, len(idx)*dim), make([]int, len(idx))
	for k, i := range idx {
		copy(gx[k*dim:(k+1)*dim], x[i*dim:(i+1)*dim])
		ga[k] = a[i]
	}
	return gx, ga
}

// trainSoftmax runs cfg.Epochs epochs of Adam on the mean cross-entropy of
// rows x (groups a), the loop train.Fit runs for one logit: each epoch
// shuffles the rows, each batch gets fresh dropout masks (one per hidden
// layer, batch size × hidden units, drawn even for the padding of the last
// batch, as train.Fit draws them) and one Adam step.
func trainSoftmax(ctx context.Context, net *SoftmaxNet, x []float64, a []int, cfg Config, rng *rand.Rand) error {
	n := len(a)
	size := max(1, int(math.Round(cfg.BatchFrac*float64(n))))
	params := net.Tensors()
	g := newSoftmaxGrad(net, size)
	adam, err := optim.NewAdamFor(cfg.Adam, params)
	if err != nil {
		return err
	}
	masks := make([][]float64, net.Arch.HiddenLayers())
	for l := range masks {
		masks[l] = make([]float64, size*net.Arch.Hidden)
		model.FillMask(nil, masks[l], 0)
	}
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	bx := make([]float64, size*net.Dim)
	ba := make([]int, size)
	for epoch := 1; epoch <= cfg.Epochs; epoch++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		rng.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		for start := 0; start < n; start += size {
			idx := perm[start:min(start+size, n)]
			for k, i := range idx {
				copy(bx[k*net.Dim:(k+1)*net.Dim], x[i*net.Dim:(i+1)*net.Dim])
				ba[k] = a[i]
			}
			if cfg.Dropout > 0 {
				for _, m := range masks {
					model.FillMask(rng, m, cfg.Dropout)
				}
			}
			loss := g.lossGrad(bx[:len(idx)*net.Dim], ba[:len(idx)], masks)
			if math.IsNaN(loss) || math.IsInf(loss, 0) {
				return fmt.Errorf("diverged in epoch %d: loss is %v", epoch, loss)
			}
			for _, t := range g.grads {
				for _, v := range t {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						return fmt.Errorf("diverged in epoch %d: gradient is not finite", epoch)
					}
				}
			}
			adam.Step(params, g.grads)
		}
		if cfg.OnEpoch != nil {
			cfg.OnEpoch(epoch, cfg.Epochs)
		}
	}
	return nil
}

// softmaxGrad holds the buffers of one batch's forward and backward pass.
type softmaxGrad struct {
	net    *SoftmaxNet
	shapes []model.Shape
	grads  [][]float64  // as net.Tensors(): dW0, dB0, dW1, …
	pre    [][]float64  // per hidden layer, size×H pre-activations
	act    [][]float64  // per hidden layer, size×H activations after ReLU and mask
	z      []float64    // size×R logits, then their gradient
	dh     [2][]float64 // size×H gradient buffers, used in turn
}

func newSoftmaxGrad(net *SoftmaxNet, size int) *softmaxGrad {
	g := &softmaxGrad{net: net, shapes: net.Shapes()}
	for l, s := range g.shapes {
		g.grads = append(g.grads, make([]float64, s.In*s.Out), make([]float64, s.Out))
		if l < len(g.shapes)-1 {
			g.pre = append(g.pre, make([]float64, size*s.Out))
			g.act = append(g.act, make([]float64, size*s.Out))
		}
	}
	g.z = make([]float64, size*net.Groups)
	g.dh = [2][]float64{make([]float64, size*net.Arch.Hidden), make([]float64, size*net.Arch.Hidden)}
	return g
}

// lossGrad returns the mean cross-entropy of the rows x (groups a) in
// training mode, with masks[l] (row-major, at least len(a)×H) multiplying
// hidden layer l's activations after the ReLU, and leaves its gradient with
// respect to every parameter in g.grads.
//
// With z_i the logits and p_i = softmax(z_i), the loss is
// (1/n) Σ_i logsumexp(z_i) − z_{i,a_i}, so ∂/∂z_ir = (p_ir − [r = a_i])/n;
// back through a linear layer out = in·W + b: ∂W = inᵀ·∂out, ∂b = Σ_rows ∂out,
// ∂in = ∂out·Wᵀ; back through the mask and the ReLU: ∂pre = ∂act·mask·[pre > 0].
func (g *softmaxGrad) lossGrad(x []float64, a []int, masks [][]float64) float64 {
	net, n := g.net, len(a)
	L := len(g.shapes)
	R := net.Groups
	for _, t := range g.grads {
		clear(t)
	}
	// Forward.
	in, inW := x, net.Dim
	for l, s := range g.shapes[:L-1] {
		pre, act, m := g.pre[l][:n*s.Out], g.act[l][:n*s.Out], masks[l][:n*s.Out]
		for i := 0; i < n; i++ {
			out := pre[i*s.Out : (i+1)*s.Out]
			copy(out, net.B[l])
			affine(out, in[i*inW:(i+1)*inW], net.W[l])
			for j, v := range out {
				act[i*s.Out+j] = max(v, 0) * m[i*s.Out+j]
			}
		}
		in, inW = act, s.Out
	}
	z := g.z[:n*R]
	var loss float64
	for i := 0; i < n; i++ {
		zi := z[i*R : (i+1)*R]
		copy(zi, net.B[L-1])
		affine(zi, in[i*inW:(i+1)*inW], net.W[L-1])
		loss += logSumExp(zi) - zi[a[i]]
		// zi becomes ∂loss/∂zi.
		softmaxInto(zi, zi, 1)
		zi[a[i]] -= 1
		for r := range zi {
			zi[r] /= float64(n)
		}
	}
	loss /= float64(n)

	// Backward: dout is ∂loss/∂(layer l's output), row-major n×Out.
	dout, outW := z, R
	for l := L - 1; l >= 0; l-- {
		s := g.shapes[l]
		var lin []float64
		if l == 0 {
			lin = x
		} else {
			lin = g.act[l-1][:n*s.In]
		}
		dW, dB := g.grads[2*l], g.grads[2*l+1]
		for i := 0; i < n; i++ {
			d := dout[i*outW : (i+1)*outW]
			for c, v := range d {
				dB[c] += v
			}
			affineOuter(dW, lin[i*s.In:(i+1)*s.In], d)
		}
		if l == 0 {
			break
		}
		// ∂ of the previous layer's activations, then of its pre-activations.
		din := g.dh[l%2][:n*s.In]
		w := net.W[l]
		pre, m := g.pre[l-1], masks[l-1]
		for i := 0; i < n; i++ {
			d := dout[i*outW : (i+1)*outW]
			for j := 0; j < s.In; j++ {
				k := i*s.In + j
				if pre[k] <= 0 || m[k] == 0 {
					din[k] = 0
					continue
				}
				row := w[j*s.Out : (j+1)*s.Out]
				var v float64
				for c, dc := range d {
					v += dc * row[c]
				}
				din[k] = v * m[k]
			}
		}
		dout, outW = din, s.In
	}
	return loss
}

// affineOuter adds the outer product inᵀ·d to dW (row-major len(in)×len(d)).
func affineOuter(dW, in, d []float64) {
	k := len(d)
	for j, v := range in {
		if v == 0 {
			continue
		}
		row := dW[j*k : (j+1)*k]
		for c, dc := range d {
			row[c] += v * dc
		}
	}
}
