package experiments

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/propensity"
	"github.com/fpareto/fp/train"
)

// LoadDataset loads the data a config names.
func LoadDataset(c Config) (*datasets.Dataset, error) {
	if c.CSV != "" {
		return datasets.LoadCSV(c.CSV, datasets.CSVOptions{
			Target: c.Target, Sensitive: c.Sensitive, Positive: c.Positive,
			SensitivePositive: c.SensitivePositive, DropMissing: c.DropMissing,
		})
	}
	preset := c.Preset
	if preset == "" {
		preset = datasets.DefaultPreset(c.Dataset)
	}
	return datasets.Load(c.Dataset, datasets.Options{Preset: preset, DataDir: c.DataDir})
}

// splitOf draws split m of d, as every command that needs it does.
func splitOf(c Config, d *datasets.Dataset, m int) (datasets.Split, error) {
	s, err := d.Split(datasets.SplitOptions{TrainFraction: c.TrainFraction, TrainSize: c.TrainSize, TestSize: c.TestSize},
		newRand(c.Seed, "split", m, "", 0))
	if err != nil {
		return s, fmt.Errorf("split %d: %w", m, err)
	}
	return s, nil
}

// splitData is one split, encoded and weighted, ready to train on.
type splitData struct {
	m           int
	train       train.Data // standardized; W = overlap weights
	testX       []float64  // standardized
	testY       []float64
	testA       []float64
	testE       []float64 // calibrated propensity on the test rows
	std         *datasets.Standardizer
	columns     []string
	propensityT float64
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
	std := datasets.FitStandardizer(r.data, sp.Train)
	sd := &splitData{m: m, std: std, columns: r.data.Columns}
	sd.train.X = std.Apply(r.data, sp.Train)
	sd.train.N, sd.train.Dim = len(sp.Train), r.data.Dim
	sd.train.Y, sd.train.A = r.data.Subset(sp.Train)
	sd.testX = std.Apply(r.data, sp.Test)
	sd.testY, sd.testA = r.data.Subset(sp.Test)

	pm, err := r.propensityModel(ctx, sd)
	if err != nil {
		return nil, fmt.Errorf("split %d: propensity model: %w", m, err)
	}
	sd.propensityT = pm.T
	e := pm.Predict(sd.train.X, sd.train.N)
	sd.train.W = make([]float64, sd.train.N)
	fairness.OverlapWeights(e, sd.train.A, sd.train.W)
	sd.testE = pm.Predict(sd.testX, len(sp.Test))
	return sd, nil
}

// propensityFile is a split's stored propensity model.
type propensityFile struct {
	T       float64     `json:"temperature"`
	Network *model.File `json:"network"`
}

func (r *Runner) propensityPath(m int) string {
	return filepath.Join(r.out, "splits", fmt.Sprintf("split-%03d", m), "propensity.json")
}

// propensityModel reloads the split's propensity model or fits and stores it.
func (r *Runner) propensityModel(ctx context.Context, sd *splitData) (*propensity.Model, error) {
	path := r.propensityPath(sd.m)
	if b, err := os.ReadFile(path); err == nil {
		var f propensityFile
		if err := json.Unmarshal(b, &f); err != nil || f.Network == nil {
			return nil, fmt.Errorf("%s: not a propensity model (delete it to refit)", path)
		}
		net, err := f.Network.Params()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		pm := &propensity.Model{Net: net, T: f.T}
		if err := pm.Validate(); err != nil {
			return nil, fmt.Errorf("%s: %w (delete it to refit)", path, err)
		}
		return pm, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	cfg := propensity.DefaultConfig()
	cfg.Epochs = r.cfg.PropensityEpochs
	if po, ok := r.obs.(PropensityObserver); ok {
		cfg.OnEpoch = func(epoch, epochs int) {
			r.mu.Lock()
			defer r.mu.Unlock()
			po.PropensityEpoch(sd.m, epoch, epochs)
		}
	}
	pm, _, err := propensity.Fit(ctx, r.engine, sd.train.X, sd.train.N, sd.train.Dim, sd.train.A, cfg,
		newRand(r.cfg.Seed, "propensity", sd.m, "", 0))
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	b, err := json.Marshal(propensityFile{T: pm.T, Network: model.NewFile(pm.Net, nil, nil, nil)})
	if err != nil {
		return nil, err
	}
	return pm, model.WriteFileAtomic(path, b)
}
