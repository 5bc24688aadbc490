package experiments

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/propensity"
	"github.com/fpareto/fp/propensity/propensityfit"
	"github.com/fpareto/fp/runfolder"
	"github.com/fpareto/fp/train"
)

// LoadDataset loads the data a config names (runfolder.LoadDataset).
func LoadDataset(c Config) (*datasets.Dataset, error) { return runfolder.LoadDataset(c.Config) }

// splitOf draws split m of d, as every command that needs it does
// (runfolder.PartsOf): its training, selection and test rows.
func splitOf(c Config, d *datasets.Dataset, m int) (runfolder.Parts, error) {
	return runfolder.PartsOf(c.Config, d, m)
}

// groupCode is row i's group: its code 0 … R−1 for R > 2 groups, else a.
func groupCode(c Config, d *datasets.Dataset, i int) int {
	if c.groups > 2 {
		return d.Groups[i]
	}
	return int(d.A[i])
}

// holdOut divides the rows of a training split into the rows trained on and
// a validation part of about frac of them, stratified by (y, group) so that both
// parts keep the split's label and group mix. The draw is seeded from the
// sweep's seed and the split's index. Both lists keep train's order.
func holdOut(c Config, d *datasets.Dataset, m int, trainRows []int, frac float64) (fit, val []int) {
	if frac <= 0 {
		return trainRows, nil
	}
	rng := newRand(c.Seed, "validation", m, "", 0)
	groups := max(c.groups, 2)
	cells := make([][]int, 2*groups) // positions in trainRows, by groups·y + a
	for k, i := range trainRows {
		cell := groups*int(d.Y[i]) + groupCode(c, d, i)
		cells[cell] = append(cells[cell], k)
	}
	isVal := make([]bool, len(trainRows))
	for _, cell := range cells {
		rng.Shuffle(len(cell), func(i, j int) { cell[i], cell[j] = cell[j], cell[i] })
		for _, k := range cell[:int(math.Round(frac*float64(len(cell))))] {
			isVal[k] = true
		}
	}
	for k, i := range trainRows {
		if isVal[k] {
			val = append(val, i)
		} else {
			fit = append(fit, i)
		}
	}
	return fit, val
}

// splitData is one split, encoded and weighted, ready to train on.
type splitData struct {
	m           int
	train       train.Data // standardized; W = overlap weights; the rows trained on
	val         train.Data // the validation part (N = 0 when none is kept)
	overlap     runfolder.SplitOverlap
	testX       []float64 // standardized
	testY       []float64
	testA       []float64
	testE       []float64 // calibrated propensity on the test rows
	testZ       []int     // the test rows' groups, 0 … R−1 (two groups: testA)
	testW       []float64 // their overlap weights
	sel         evalRows  // the selection rows (n = 0 when none are kept)
	std         *datasets.Standardizer
	columns     []string
	propensityT float64
}

// evalRows are rows a network is scored on, standardized, with their
// labels, groups and calibrated propensity.
// z holds their groups, 0 … R−1 (two groups: a), and w their overlap
// weights.
type evalRows struct {
	x, y, a, e []float64
	z          []int
	w          []float64
}

// prepare splits, standardizes and fits (or reloads) the split's propensity
// model, holding one worker slot while it does.
func (r *Runner) prepare(ctx context.Context, m int, workers chan struct{}) (*splitData, error) {
	if !acquire(ctx, workers) {
		return nil, ctx.Err()
	}
	defer func() { <-workers }()
	c := r.cfg
	sp, err := splitOf(c, r.data, m)
	if err != nil {
		return nil, err
	}
	// The standardization and the propensity model are fitted on the whole
	// training split, as without a validation part; only the network's
	// training rows leave the validation part out.
	std := sp.Standardizer(r.data)
	sd := &splitData{m: m, std: std, columns: r.data.Columns}
	whole := r.encode(std, sp.Train)
	sd.testX = std.Apply(r.data, sp.Test)
	sd.testY, sd.testA = r.data.Subset(sp.Test)

	if c.groups > 2 {
		err = r.prepareGroups(ctx, sd, sp, &whole, std)
	} else {
		err = r.prepareBinary(ctx, sd, sp, &whole, std)
	}
	if err != nil {
		return nil, err
	}

	fit, val := holdOut(c, r.data, m, sp.Train, c.ValFraction)
	if len(val) == 0 {
		sd.train = whole.Data
		return sd, nil
	}
	pos := make(map[int]int, len(sp.Train)) // row → its place in whole
	for k, i := range sp.Train {
		pos[i] = k
	}
	sd.train, sd.val = whole.rows(fit, pos), whole.rows(val, pos)
	return sd, nil
}

// encode is the standardized training data of rows (no weights yet).
func (r *Runner) encode(std *datasets.Standardizer, rows []int) encoded {
	d := train.Data{X: std.Apply(r.data, rows), N: len(rows), Dim: r.data.Dim}
	d.Y, d.A = r.data.Subset(rows)
	return encoded{d}
}

// encoded is training data that can be cut into parts.
type encoded struct{ train.Data }

// rows is the part of d made of the given dataset rows; pos maps a dataset
// row to its place in d.
func (d encoded) rows(rows []int, pos map[int]int) train.Data {
	idx := make([]int, len(rows))
	for k, i := range rows {
		idx[k] = pos[i]
	}
	return d.Rows(idx)
}

// propensityConfig is how split m's propensity model trains: the sweep's
// epochs, each reported to the observer when it wants them.
func (r *Runner) propensityConfig(m int) propensityfit.Config {
	cfg := propensityfit.DefaultConfig()
	cfg.Epochs = r.cfg.PropensityEpochs
	if po, ok := r.obs.(PropensityObserver); ok {
		cfg.OnEpoch = func(epoch, epochs int) {
			r.mu.Lock()
			defer r.mu.Unlock()
			po.PropensityEpoch(m, epoch, epochs)
		}
	}
	return cfg
}

// propensityModel reloads the split's propensity model or fits and stores
// it, with the split's standardization std, so that the file scores raw
// rows as the split's networks do.
func (r *Runner) propensityModel(ctx context.Context, m int, d encoded, std *datasets.Standardizer) (*propensity.Model, error) {
	if pm, err := runfolder.ReadPropensity(r.out, m); pm != nil || err != nil {
		return pm, err
	}
	cfg := r.propensityConfig(m)
	pm, _, err := propensityfit.Fit(ctx, r.engine, d.X, d.N, d.Dim, d.A, cfg,
		newRand(r.cfg.Seed, "propensity", m, "", 0))
	if err != nil {
		return nil, err
	}
	schema := r.data.Schema
	return pm, runfolder.WritePropensity(r.out, m, pm, &runfolder.PropensityEncoding{
		Schema: &schema, Features: r.data.Columns, Std: std, Config: r.cfg.Digest()})
}

// prepareBinary fits (or reloads) the propensity model of a 0/1 attribute on
// the split's training rows, stores its overlap, and sets the overlap
// weights of whole and the test and selection rows' propensity.
func (r *Runner) prepareBinary(ctx context.Context, sd *splitData, sp runfolder.Parts, whole *encoded, std *datasets.Standardizer) error {
	m := sd.m
	pm, err := r.propensityModel(ctx, m, *whole, std)
	if err != nil {
		return fmt.Errorf("split %d: propensity model: %w", m, err)
	}
	sd.propensityT = pm.T
	e := pm.Predict(whole.X, whole.N)
	ov, err := propensity.Diagnose(e, whole.A, pm.T)
	if err != nil {
		return fmt.Errorf("split %d: %w", m, err)
	}
	sd.testE = pm.Predict(sd.testX, len(sp.Test))
	// The ATO is measured on the test rows: their overlap, with the
	// weights used there, decides whether it can be trusted.
	tov, err := propensity.Diagnose(sd.testE, sd.testA, pm.T)
	if err != nil {
		return fmt.Errorf("split %d: test rows: %w", m, err)
	}
	if sd.testZ, sd.testW, err = fairness.Binary(sd.testA, sd.testE); err != nil {
		return fmt.Errorf("split %d: test rows: %w", m, err)
	}
	sd.overlap = runfolder.SplitOverlap{Split: m, Overlap: ov}
	sd.overlap.SetTest(tov)
	if len(sp.Selection) > 0 {
		sd.sel.x = std.Apply(r.data, sp.Selection)
		sd.sel.y, sd.sel.a = r.data.Subset(sp.Selection)
		sd.sel.e = pm.Predict(sd.sel.x, len(sp.Selection))
		sov, err := propensity.Diagnose(sd.sel.e, sd.sel.a, pm.T)
		if err != nil {
			return fmt.Errorf("split %d: selection rows: %w", m, err)
		}
		if sd.sel.z, sd.sel.w, err = fairness.Binary(sd.sel.a, sd.sel.e); err != nil {
			return fmt.Errorf("split %d: selection rows: %w", m, err)
		}
		sd.overlap.SetSelection(sov)
	}
	poor, why := ov.Poor()
	if poor {
		sd.overlap.Warning = why
	}
	if poor || sd.overlap.Unreliable() {
		sources := r.data.Schema.Sources()
		sd.overlap.Predictors = propensity.WithTarget(propensity.Predictors(whole.X, whole.N, sources, whole.A, 3), whole.X, whole.N, sources, whole.Y)
	}
	sd.overlap.GroupRows = make([]int, 2)
	for _, a := range r.data.A {
		sd.overlap.GroupRows[int(a)]++
	}
	if err := runfolder.WriteOverlap(r.out, sd.overlap); err != nil {
		return err
	}
	r.observeOverlap(sd.overlap)
	if _, whole.W, err = fairness.Binary(whole.A, e); err != nil {
		return fmt.Errorf("split %d: training rows: %w", m, err)
	}
	return nil
}

// prepareGroups is prepareBinary for a sensitive attribute of R > 2 groups
// (docs/method.md §4.4): the multinomial propensity model with its
// temperature, fitted on the training rows (or reloaded), the generalised
// overlap weights of the training, test and selection rows, and the
// per-group overlap. whole's A becomes the group codes 0 … R−1.
func (r *Runner) prepareGroups(ctx context.Context, sd *splitData, sp runfolder.Parts, whole *encoded, std *datasets.Standardizer) error {
	m, R, levels := sd.m, r.cfg.groups, r.data.Levels
	codes := func(rows []int) []int {
		z := make([]int, len(rows))
		for k, i := range rows {
			z[k] = r.data.Groups[i]
		}
		return z
	}
	z := codes(sp.Train)
	for k, g := range z {
		whole.A[k] = float64(g)
	}
	whole.Groups = R
	pm, err := r.propensityGroups(ctx, m, *whole, z, std)
	if err != nil {
		return fmt.Errorf("split %d: propensity model: %w", m, err)
	}
	sd.propensityT = pm.T
	// weigh returns the generalised overlap weights of rows x (n of them,
	// groups zr) and their overlap.
	weigh := func(x []float64, zr []int, rows string) ([]float64, propensity.GroupOverlap, error) {
		e := pm.Predict(x, len(zr))
		w := make([]float64, len(zr))
		if err := propensity.OverlapWeights(e, R, zr, w); err != nil {
			return nil, propensity.GroupOverlap{}, fmt.Errorf("split %d: %s: %w", m, rows, err)
		}
		ov, err := propensity.DiagnoseGroups(e, levels, zr, pm.T)
		if err != nil {
			return nil, propensity.GroupOverlap{}, fmt.Errorf("split %d: %s: %w", m, rows, err)
		}
		return w, ov, nil
	}
	w, ov, err := weigh(whole.X, z, "training rows")
	if err != nil {
		return err
	}
	sd.testZ = codes(sp.Test)
	var tov propensity.GroupOverlap
	if sd.testW, tov, err = weigh(sd.testX, sd.testZ, "test rows"); err != nil {
		return err
	}
	var sov *propensity.GroupOverlap
	if len(sp.Selection) > 0 {
		sd.sel.x = std.Apply(r.data, sp.Selection)
		sd.sel.y, sd.sel.a = r.data.Subset(sp.Selection)
		sd.sel.z = codes(sp.Selection)
		var so propensity.GroupOverlap
		if sd.sel.w, so, err = weigh(sd.sel.x, sd.sel.z, "selection rows"); err != nil {
			return err
		}
		sov = &so
	}
	sd.overlap = runfolder.SplitOverlap{Split: m}
	sd.overlap.SetGroups(ov, tov, sov)
	poor, why := ov.Poor()
	if poor {
		sd.overlap.Warning = why
	}
	if poor || sd.overlap.Unreliable() {
		sources := r.data.Schema.Sources()
		sd.overlap.Predictors = propensity.WithTarget(groupPredictors(whole.Data, z, R, sources), whole.X, whole.N, sources, whole.Y)
	}
	sd.overlap.GroupRows = make([]int, R)
	for _, g := range r.data.Groups {
		sd.overlap.GroupRows[g]++
	}
	if err := runfolder.WriteOverlap(r.out, sd.overlap); err != nil {
		return err
	}
	r.observeOverlap(sd.overlap)
	whole.W = w
	return nil
}

// groupPredictors are the source columns that go most with membership of
// some group: for each group the best predictor of its indicator, the
// strongest first, each column once, at most three.
func groupPredictors(d train.Data, z []int, groups int, sources []string) []propensity.Predictor {
	best := map[string]float64{}
	ind := make([]float64, len(z))
	for g := range groups {
		for k, v := range z {
			ind[k] = 0
			if v == g {
				ind[k] = 1
			}
		}
		for _, p := range propensity.Predictors(d.X, d.N, sources, ind, 1) {
			best[p.Column] = max(best[p.Column], p.Corr)
		}
	}
	var out []propensity.Predictor
	for col, c := range best {
		out = append(out, propensity.Predictor{Column: col, Corr: c})
	}
	slices.SortFunc(out, func(a, b propensity.Predictor) int {
		if a.Corr != b.Corr {
			return cmp.Compare(b.Corr, a.Corr)
		}
		return strings.Compare(a.Column, b.Column)
	})
	return out[:min(3, len(out))]
}

// propensityGroups is propensityModel for R > 2 groups z: the multinomial
// model, seeded as the binary one is.
func (r *Runner) propensityGroups(ctx context.Context, m int, d encoded, z []int, std *datasets.Standardizer) (*propensity.Multinomial, error) {
	pm, levels, err := runfolder.ReadPropensityGroups(r.out, m)
	if err != nil {
		return nil, err
	}
	if pm != nil {
		if !slices.Equal(levels, r.data.Levels) {
			return nil, fmt.Errorf("%s holds a model of the groups %s, not %s (delete it to refit)",
				runfolder.PropensityPath(r.out, m), strings.Join(levels, ", "), strings.Join(r.data.Levels, ", "))
		}
		return pm, nil
	}
	cfg := r.propensityConfig(m)
	pm, _, err = propensityfit.FitMultinomial(ctx, d.X, d.N, d.Dim, z, r.cfg.groups, cfg,
		newRand(r.cfg.Seed, "propensity", m, "", 0))
	if err != nil {
		return nil, err
	}
	schema := r.data.Schema
	return pm, runfolder.WritePropensityGroups(r.out, m, pm, r.data.Levels, &runfolder.PropensityEncoding{
		Schema: &schema, Features: r.data.Columns, Std: std, Config: r.cfg.Digest()})
}
