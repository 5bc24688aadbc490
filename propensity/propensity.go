package propensity

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// Clip is how close to 0 or 1 a calibrated score may come (docs/method.md §4): Predict
// returns values in [Clip, 1−Clip].
const Clip = model.PropensityClip

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

// Model is a trained propensity network with its temperature.
type Model struct {
	Net *model.Params
	T   float64 // temperature > 0: ê = sigmoid(logit/T)
}

// Validate checks that m can predict: a well-formed, finite network and a
// finite temperature > 0 (a model read back from a file, say).
func (m *Model) Validate() error {
	if m == nil || m.Net == nil {
		return errors.New("propensity model: no network")
	}
	if !(m.T > 0) || math.IsInf(m.T, 1) {
		return fmt.Errorf("propensity model: temperature %v, want a finite value > 0", m.T)
	}
	if err := m.Net.Validate(); err != nil {
		return fmt.Errorf("propensity model: %w", err)
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
// NLL of the held-out rows (FitTemperature).
//
// All randomness comes from rng, drawn in this order: the split, the initial
// weights (model.Init), then batch order and dropout masks (train.Fit). The
// same generator state and engine give the same model.
//
// Fit fails on fewer than MinRows rows, mismatched shapes, a non-finite
// feature, a group other than 0 or 1, a group with fewer than two rows (one
// for each part), an invalid cfg, when ctx is done, or when training diverges.
func Fit(ctx context.Context, eng train.Engine, x []float64, n, dim int, a []float64, cfg Config, rng *rand.Rand) (*Model, Report, error) {
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
	T, err := FitTemperature(z, ca.Y)
	if err != nil {
		return nil, Report{}, fmt.Errorf("propensity: calibrate: %w", err)
	}
	rep := Report{NTrain: tr.N, NCalib: ca.N, T: T, NLLBefore: NLL(z, ca.Y, 1), NLLAfter: NLL(z, ca.Y, T)}
	if rep.NLLAfter > rep.NLLBefore {
		// T = 1 lies inside the bracket, so this only happens within rounding
		// of a flat optimum at 1; keep the raw network rather than a worse T.
		rep.T, rep.NLLAfter = 1, rep.NLLBefore
	}
	return &Model{Net: net, T: rep.T}, rep, nil
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

// Predict returns the calibrated propensity scores ê = sigmoid(logit/T) of n
// rows of x (row-major n×Net.Dim, standardized as the training rows were),
// clipped to [Clip, 1−Clip]. A shape mismatch is a programming error and
// panics, as an out-of-range slice would.
func (m *Model) Predict(x []float64, n int) []float64 {
	if n < 0 || len(x) != n*m.Net.Dim {
		panic(fmt.Sprintf("propensity: predict %d rows of %d inputs from %d values", n, m.Net.Dim, len(x)))
	}
	e := make([]float64, n)
	m.Net.Forward(x, n, e)
	for i, z := range e {
		e[i] = model.CalibratedPropensity(z, m.T)
	}
	return e
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
