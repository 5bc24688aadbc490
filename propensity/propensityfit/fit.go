package propensityfit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
	"github.com/fpareto/fp/propensity"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// MinRows is the fewest rows Fit accepts: below it neither the network nor
// the temperature has anything to learn from.
const MinRows = 10

// Config is the propensity model and how it is trained (docs/method.md §4).
type Config struct {
	Arch      model.Arch       // linear layers × hidden units; 3x32
	Dropout   float64          // after every hidden activation, training only; 0.2
	Epochs    int              // 100
	BatchFrac float64          // batch ≈ this share of the rows trained on (at least 1 row); 0.05
	CalibFrac float64          // share of the rows held out to fit the temperature; 0.2
	Adam      optim.AdamConfig // optim.DefaultAdam (lr 1e-3)

	// OnEpoch, when set, is told after each training epoch (1-based) how
	// far the fit is: on a large data set it takes a while. It only
	// observes; the fit is the same without it.
	OnEpoch func(epoch, epochs int)
}

// DefaultConfig is docs/method.md §4's propensity model.
func DefaultConfig() Config {
	return Config{
		Arch:      model.Arch{Layers: 3, Hidden: 32},
		Dropout:   0.2,
		Epochs:    100,
		BatchFrac: 0.05,
		CalibFrac: 0.2,
		Adam:      optim.DefaultAdam,
	}
}

// Validate checks the configuration's own consistency.
func (c Config) Validate() error {
	if c.Arch.Layers < 2 || c.Arch.Hidden < 1 {
		return fmt.Errorf("propensity: architecture %v needs at least one hidden layer", c.Arch)
	}
	if !(c.Dropout >= 0 && c.Dropout < 1) {
		return fmt.Errorf("propensity: dropout %g is outside [0, 1)", c.Dropout)
	}
	if c.Epochs < 1 {
		return fmt.Errorf("propensity: epochs = %d, want ≥ 1", c.Epochs)
	}
	if !(c.BatchFrac > 0 && c.BatchFrac <= 1) {
		return fmt.Errorf("propensity: batch fraction %g is outside (0, 1]", c.BatchFrac)
	}
	if !(c.CalibFrac > 0 && c.CalibFrac < 1) {
		return fmt.Errorf("propensity: calibration fraction %g is outside (0, 1)", c.CalibFrac)
	}
	return nil
}

// Report says what Fit did: how the rows were split, the temperature, and
// the held-out NLL with the raw network (T = 1) and with the fitted T.
type Report struct {
	NTrain, NCalib int
	T              float64
	NLLBefore      float64 // mean NLL on the calibration rows at T = 1
	NLLAfter       float64 // … at the fitted T; never above NLLBefore
}

// Fit trains a propensity network on x (row-major n×dim, already
// standardized, finite) to predict the group a (0 or 1 per row) with eng, then
// fits its temperature on held-out rows.
//
// The rows are split at random within each group, so both parts keep the
// groups' proportions: round(CalibFrac·n_g) rows of group g (at least one) are
// held out, the rest train the network. Training minimises the mean BCE with
// Adam (cfg.Adam, constant rate) for cfg.Epochs epochs in batches of
// max(1, round(BatchFrac·nTrain)) rows. The temperature then minimises the
// NLL of the held-out rows (propensity.FitTemperature).
//
// All randomness comes from rng, drawn in this order: the split, the initial
// weights (model.Init), then batch order and dropout masks (train.Fit). The
// same generator state and engine give the same model.
//
// Fit fails on fewer than MinRows rows, mismatched shapes, a non-finite
// feature, a group other than 0 or 1, a group with fewer than two rows (one
// for each part), an invalid cfg, when ctx is done, or when training diverges.
func Fit(ctx context.Context, eng train.Engine, x []float64, n, dim int, a []float64, cfg Config, rng *rand.Rand) (*propensity.Model, Report, error) {
	if eng == nil {
		return nil, Report{}, errors.New("propensity: no engine")
	}
	if err := cfg.Validate(); err != nil {
		return nil, Report{}, err
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
	var groups [2][]int
	for i, v := range a {
		if v != 0 && v != 1 {
			return nil, Report{}, fmt.Errorf("propensity: row %d: group %v, want 0 or 1", i, v)
		}
		groups[int(v)] = append(groups[int(v)], i)
	}
	for g, rows := range groups {
		if len(rows) < 2 {
			return nil, Report{}, fmt.Errorf("propensity: group a = %d has %d rows, need at least 2 (one to train on, one to calibrate with)", g, len(rows))
		}
	}

	// Split within each group.
	trainIdx, calibIdx := splitCalibration(groups[:], cfg.CalibFrac, rng)
	tr := gather(x, a, dim, trainIdx)
	ca := gather(x, a, dim, calibIdx)

	spec := train.Spec{
		Arch:      cfg.Arch,
		Dim:       dim,
		BatchSize: max(1, int(math.Round(cfg.BatchFrac*float64(tr.N)))),
		Dropout:   cfg.Dropout,
		Init:      model.Init(cfg.Arch, dim, rng),
		Objective: scalarize.Objective{Method: scalarize.Risk},
	}
	trainer, err := eng.NewTrainer(spec)
	if err != nil {
		return nil, Report{}, fmt.Errorf("propensity: build %s trainer: %w", eng.Name(), err)
	}
	opt := train.Options{Epochs: cfg.Epochs, Adam: cfg.Adam}
	if cfg.OnEpoch != nil {
		opt.OnEpoch = func(st train.EpochStats) { cfg.OnEpoch(st.Epoch, cfg.Epochs) }
	}
	if _, err := train.Fit(ctx, trainer, tr, opt, rng); err != nil {
		return nil, Report{}, fmt.Errorf("propensity: train: %w", err)
	}
	net := trainer.Network()
	if err := net.Validate(); err != nil {
		return nil, Report{}, fmt.Errorf("propensity: trained network: %w", err)
	}

	z := make([]float64, ca.N)
	net.Forward(ca.X, ca.N, z)
	T, err := propensity.FitTemperature(z, ca.Y)
	if err != nil {
		return nil, Report{}, fmt.Errorf("propensity: calibrate: %w", err)
	}
	rep := Report{NTrain: tr.N, NCalib: ca.N, T: T, NLLBefore: propensity.NLL(z, ca.Y, 1), NLLAfter: propensity.NLL(z, ca.Y, T)}
	if rep.NLLAfter > rep.NLLBefore {
		// T = 1 lies inside the bracket, so this only happens within rounding
		// of a flat optimum at 1; keep the raw network rather than a worse T.
		rep.T, rep.NLLAfter = 1, rep.NLLBefore
	}
	return &propensity.Model{Net: net, T: rep.T}, rep, nil
}

// gather copies rows idx of x (and their groups, used as labels) into training data.
func gather(x, a []float64, dim int, idx []int) train.Data {
	d := train.Data{X: make([]float64, len(idx)*dim), N: len(idx), Dim: dim, Y: make([]float64, len(idx))}
	for k, i := range idx {
		copy(d.X[k*dim:(k+1)*dim], x[i*dim:(i+1)*dim])
		d.Y[k] = a[i]
	}
	d.A = d.Y // the penalty is unused; the group is the label here
	return d
}

// splitCalibration splits each group's rows (shuffled in place, group by
// group, from rng) into training and calibration rows: round(frac·n) of a
// group's n rows, at least one and at most n − 1, calibrate.
func splitCalibration(groups [][]int, frac float64, rng *rand.Rand) (trainIdx, calibIdx []int) {
	for _, rows := range groups {
		rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		k := int(math.Round(frac * float64(len(rows))))
		k = min(max(k, 1), len(rows)-1)
		calibIdx = append(calibIdx, rows[:k]...)
		trainIdx = append(trainIdx, rows[k:]...)
	}
	return trainIdx, calibIdx
}

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
// held-out NLL (propensity.FitSoftmaxTemperature), and T = 1 is kept if the fitted T
// were worse.
//
// The network is Fit's with R outputs (model.Params.Outputs), trained by
// train.Fit as Fit's is; the engines of package train compute one logit, so
// the gradient of the multinomial cross-entropy is computed here
// (softmaxTrainer; checked against finite differences in the tests).
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
func FitMultinomial(ctx context.Context, x []float64, n, dim int, a []int, groups int, cfg Config, rng *rand.Rand) (*propensity.Multinomial, Report, error) {
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

	net := model.InitOutputs(cfg.Arch, dim, groups, rng)
	if err := trainSoftmax(ctx, net, trX, trA, cfg, rng); err != nil {
		return nil, Report{}, fmt.Errorf("propensity: train: %w", err)
	}
	if err := net.Validate(); err != nil {
		return nil, Report{}, fmt.Errorf("propensity: trained network: %w", err)
	}

	nc := len(caA)
	z := make([]float64, nc*groups)
	net.Forward(caX, nc, z)
	T, err := propensity.FitSoftmaxTemperature(z, groups, caA)
	if err != nil {
		return nil, Report{}, fmt.Errorf("propensity: calibrate: %w", err)
	}
	rep := Report{NTrain: len(trA), NCalib: nc, T: T, NLLBefore: propensity.SoftmaxNLL(z, groups, caA, 1), NLLAfter: propensity.SoftmaxNLL(z, groups, caA, T)}
	if rep.NLLAfter > rep.NLLBefore {
		// As in Fit: only within rounding of a flat optimum at T = 1.
		rep.T, rep.NLLAfter = 1, rep.NLLBefore
	}
	return &propensity.Multinomial{Net: net, T: rep.T}, rep, nil
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

// trainSoftmax trains net on the mean cross-entropy of rows x (groups a,
// codes 0 … R−1) with train.Fit, the loop every network of fp trains in:
// each epoch shuffles the rows, each batch gets fresh dropout masks (one per
// hidden layer, batch size × hidden units, drawn for the padding of the
// last batch too) and one Adam step (cfg.Adam, constant rate).
func trainSoftmax(ctx context.Context, net *model.Params, x []float64, a []int, cfg Config, rng *rand.Rand) error {
	n := len(a)
	d := train.Data{X: x, N: n, Dim: net.Dim, Y: make([]float64, n), A: make([]float64, n), Groups: net.Out()}
	for i, g := range a {
		d.A[i] = float64(g)
	}
	size := max(1, int(math.Round(cfg.BatchFrac*float64(n))))
	tr := &softmaxTrainer{
		spec: train.Spec{Arch: net.Arch, Dim: net.Dim, BatchSize: size, Dropout: cfg.Dropout, Init: net,
			Objective: scalarize.Objective{Method: scalarize.Risk}},
		net: net, g: newSoftmaxGrad(net, size), a: make([]int, size),
	}
	opt := train.Options{Epochs: cfg.Epochs, Adam: cfg.Adam}
	if cfg.OnEpoch != nil {
		opt.OnEpoch = func(st train.EpochStats) { cfg.OnEpoch(st.Epoch, cfg.Epochs) }
	}
	_, err := train.Fit(ctx, tr, d, opt, rng)
	return err
}

// softmaxTrainer is the train.Trainer of a network of R outputs (net,
// trained in place) on the multinomial cross-entropy of the batch's groups
// (its A, codes 0 … R−1). The engines compute one logit, so its gradient is
// computed here (softmaxGrad); everything else, from the batches to the
// Adam step, is train.Fit's, as for the two-group model.
type softmaxTrainer struct {
	spec train.Spec
	net  *model.Params
	g    *softmaxGrad
	a    []int // the batch's groups
}

func (t *softmaxTrainer) BatchSize() int      { return t.spec.BatchSize }
func (t *softmaxTrainer) Spec() train.Spec    { return t.spec }
func (t *softmaxTrainer) Params() [][]float64 { return t.net.Tensors() }
func (t *softmaxTrainer) Grads() [][]float64  { return t.g.grads }

// Gradient computes the mean cross-entropy of the batch's real rows and
// its gradient; the padding rows take no part.
func (t *softmaxTrainer) Gradient(b *train.Batch) (train.Loss, error) {
	n := b.N
	for k, v := range b.A[:n] {
		t.a[k] = int(v)
	}
	loss := t.g.lossGrad(b.X[:n*t.net.Dim], t.a[:n], b.Masks)
	return train.Loss{R: loss, Objective: loss}, nil
}

// Predict writes the R logits of each of n rows of x (row-major n×R).
func (t *softmaxTrainer) Predict(x []float64, n int, logits []float64) error {
	t.net.Forward(x, n, logits)
	return nil
}

func (t *softmaxTrainer) Network() *model.Params { return t.net.Clone() }

// softmaxGrad holds the buffers of one batch's forward and backward pass.
type softmaxGrad struct {
	net    *model.Params
	shapes []model.Shape
	grads  [][]float64  // as net.Tensors(): dW0, dB0, dW1, …
	pre    [][]float64  // per hidden layer, size×H pre-activations
	act    [][]float64  // per hidden layer, size×H activations after ReLU and mask
	z      []float64    // size×R logits, then their gradient
	dh     [2][]float64 // size×H gradient buffers, used in turn
}

func newSoftmaxGrad(net *model.Params, size int) *softmaxGrad {
	g := &softmaxGrad{net: net, shapes: net.Shapes()}
	for l, s := range g.shapes {
		g.grads = append(g.grads, make([]float64, s.In*s.Out), make([]float64, s.Out))
		if l < len(g.shapes)-1 {
			g.pre = append(g.pre, make([]float64, size*s.Out))
			g.act = append(g.act, make([]float64, size*s.Out))
		}
	}
	g.z = make([]float64, size*net.Out())
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
	R := net.Out()
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
			model.AddAffine(out, in[i*inW:(i+1)*inW], net.W[l])
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
		model.AddAffine(zi, in[i*inW:(i+1)*inW], net.W[L-1])
		loss += propensity.LogSumExp(zi) - zi[a[i]]
		// zi becomes ∂loss/∂zi.
		propensity.SoftmaxInto(zi, zi, 1)
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
