package runfolder

import (
	"fmt"

	"github.com/fpareto/fp/datasets"
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
	splits map[int]Parts
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
	return &PredictionSource{dir: dir, cfg: c, data: data, splits: map[int]Parts{}}, nil
}

// Predictions returns rec's predicted probabilities on its test split, with
// the labels and groups of those rows (and the same on the selection rows
// when the run keeps some), from its stored network.
func (s *PredictionSource) Predictions(rec *records.Record) (*Predictions, error) {
	if rec.Weights == "" {
		return nil, fmt.Errorf("candidate %s has no stored network", rec.Key())
	}
	sp, ok := s.splits[rec.Split]
	if !ok {
		var err error
		if sp, err = PartsOf(s.cfg, s.data, rec.Split); err != nil {
			return nil, err
		}
		s.splits[rec.Split] = sp
	}
	return predict(s.dir, s.data, sp, rec)
}
