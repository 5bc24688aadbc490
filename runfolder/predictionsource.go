package runfolder

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/propensity"
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
	props  map[part][]float64 // the rows' propensities by split and part
	groupW map[part][]float64 // the rows' generalised overlap weights by split and part, R > 2 groups
}

// part names the rows of a split: its test rows, or its selection rows.
type part struct {
	split     int
	selection bool
}

// rows are the rows of p in its split's parts sp.
func (p part) rows(sp Parts) []int {
	if p.selection {
		return sp.Selection
	}
	return sp.Test
}

// String names the rows in messages.
func (p part) String() string {
	if p.selection {
		return "selection rows"
	}
	return "test rows"
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
	return &PredictionSource{dir: dir, cfg: c, data: data, splits: map[int]Parts{}, props: map[part][]float64{},
		groupW: map[part][]float64{}}, nil
}

// Predictions returns rec's predicted probabilities on its test split, with
// the labels and groups of those rows (and the same on the selection rows
// when the run keeps some), from its stored network.
func (s *PredictionSource) Predictions(rec *records.Record) (*Predictions, error) {
	if rec.Weights == "" {
		return nil, fmt.Errorf("candidate %s has no stored network", rec.Key())
	}
	sp, err := s.split(rec.Split)
	if err != nil {
		return nil, err
	}
	return predict(s.dir, s.data, sp, rec)
}

// split draws split m once.
func (s *PredictionSource) split(m int) (Parts, error) {
	sp, ok := s.splits[m]
	if !ok {
		var err error
		if sp, err = PartsOf(s.cfg, s.data, m); err != nil {
			return sp, err
		}
		s.splits[m] = sp
	}
	return sp, nil
}

// Propensity returns the calibrated propensity ê of split m's test rows,
// in the order of Predictions' rows, from the split's stored propensity
// model (as LoadTestSplit computes it).
func (s *PredictionSource) Propensity(m int) ([]float64, error) {
	return s.propensity(part{split: m})
}

// SelectionPropensity is Propensity on split m's selection rows, in the
// order of Predictions.Selection's rows: the ê the sweep measured the
// selection metrics with. A split that keeps no selection rows has none.
func (s *PredictionSource) SelectionPropensity(m int) ([]float64, error) {
	return s.propensity(part{split: m, selection: true})
}

func (s *PredictionSource) propensity(p part) ([]float64, error) {
	if e, ok := s.props[p]; ok {
		return e, nil
	}
	sp, err := s.split(p.split)
	if err != nil {
		return nil, err
	}
	if p.selection && len(sp.Selection) == 0 {
		return nil, fmt.Errorf("split %d keeps no selection rows", p.split)
	}
	on, err := splitPropensity(s.dir, p.split, s.data, sp)
	if err != nil {
		return nil, err
	}
	e := on(p.rows(sp))
	s.props[p] = e
	return e, nil
}

// OverlapWeightsGroups returns, for a run whose sensitive attribute is in
// R > 2 groups, the generalised overlap weights of split m's test rows
// (in the order of Predictions' rows and groups), from the split's stored
// multinomial propensity model as the run computed them
// (propensity.OverlapWeights of its calibrated propensities).
func (s *PredictionSource) OverlapWeightsGroups(m int) ([]float64, error) {
	return s.overlapWeightsGroups(part{split: m})
}

// SelectionOverlapWeightsGroups is OverlapWeightsGroups on split m's
// selection rows, in the order of Predictions.Selection's rows.
func (s *PredictionSource) SelectionOverlapWeightsGroups(m int) ([]float64, error) {
	return s.overlapWeightsGroups(part{split: m, selection: true})
}

func (s *PredictionSource) overlapWeightsGroups(p part) ([]float64, error) {
	m := p.split
	if w, ok := s.groupW[p]; ok {
		return w, nil
	}
	r := len(s.data.Levels)
	if r <= 2 {
		return nil, fmt.Errorf("split %d: the data has %d groups; two groups have a binary propensity (Propensity)", m, r)
	}
	sp, err := s.split(m)
	if err != nil {
		return nil, err
	}
	pm, levels, err := ReadPropensityGroups(s.dir, m)
	if err != nil {
		return nil, fmt.Errorf("split %d: %w", m, err)
	}
	if pm == nil {
		return nil, fmt.Errorf("split %d: %s: no propensity model stored", m, PropensityPath(s.dir, m))
	}
	if !slices.Equal(levels, s.data.Levels) {
		return nil, fmt.Errorf("split %d: %s is a model of the groups %s, the data's are %s", m, PropensityPath(s.dir, m),
			strings.Join(levels, ", "), strings.Join(s.data.Levels, ", "))
	}
	rows := p.rows(sp)
	if p.selection && len(rows) == 0 {
		return nil, fmt.Errorf("split %d keeps no selection rows", m)
	}
	std := sp.Standardizer(s.data)
	z := make([]int, len(rows))
	for k, i := range rows {
		z[k] = s.data.Groups[i]
	}
	w := make([]float64, len(z))
	if err := propensity.OverlapWeights(pm.Predict(std.Apply(s.data, rows), len(z)), r, z, w); err != nil {
		return nil, fmt.Errorf("split %d: %s: %w", m, p, err)
	}
	s.groupW[p] = w
	return w, nil
}

// Config is the folder's stored configuration.
func (s *PredictionSource) Config() Config { return s.cfg }

// DataID is the identity of the rows the data loads now
// (datasets.Dataset.ID), to be checked against the records' data_id.
func (s *PredictionSource) DataID() string { return s.data.ID }
