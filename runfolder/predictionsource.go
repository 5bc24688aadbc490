package runfolder

import (
	"fmt"
	"path/filepath"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/records"
)

// PredictionSource recomputes the test predictions of many candidates of
// one run folder, as LoadPredictions does for one, but loads the data once
// and draws each split once: a report over hundreds of candidates would
// otherwise reload the dataset for each.
type PredictionSource struct {
	dir    string
	cfg    Config
	data   *datasets.Dataset
	splits map[int]datasets.Split
}

// NewPredictionSource reads dir's config.json and loads its data.
func NewPredictionSource(dir string) (*PredictionSource, error) {
	c, err := ReadConfig(dir)
	if err != nil {
		return nil, err
	}
	data, err := LoadDataset(c)
	if err != nil {
		return nil, err
	}
	return &PredictionSource{dir: dir, cfg: c, data: data, splits: map[int]datasets.Split{}}, nil
}

// Predictions returns rec's predicted probabilities on its test split, with
// the labels and groups of those rows, from its stored network.
func (s *PredictionSource) Predictions(rec *records.Record) (*Predictions, error) {
	if rec.Weights == "" {
		return nil, fmt.Errorf("candidate %s has no stored network", rec.Key())
	}
	sp, ok := s.splits[rec.Split]
	if !ok {
		var err error
		if sp, err = SplitOf(s.cfg, s.data, rec.Split); err != nil {
			return nil, err
		}
		s.splits[rec.Split] = sp
	}
	f, err := model.Load(filepath.Join(s.dir, rec.Weights))
	if err != nil {
		return nil, err
	}
	if f.Dim != s.data.Dim {
		return nil, fmt.Errorf("%s: network takes %d inputs, the data has %d", rec.Weights, f.Dim, s.data.Dim)
	}
	x := make([]float64, 0, len(sp.Test)*s.data.Dim)
	for _, i := range sp.Test {
		x = append(x, s.data.X[i*s.data.Dim:(i+1)*s.data.Dim]...)
	}
	p, err := f.Predict(x, len(sp.Test))
	if err != nil {
		return nil, err
	}
	y, a := s.data.Subset(sp.Test)
	return &Predictions{P: p, Y: y, A: a}, nil
}
