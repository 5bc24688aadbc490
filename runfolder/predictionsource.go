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
	props  map[int][]float64 // the propensities by partKey (split and part)
	groupW map[int][]float64 // the generalised overlap weights by partKey, R > 2 groups
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
	return &PredictionSource{dir: dir, cfg: c, data: data, splits: map[int]Parts{}, props: map[int][]float64{},
		groupW: map[int][]float64{}}, nil
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
func (s *PredictionSource) Propensity(m int) ([]float64, error) { return s.PropensityOn(m, false) }

// PropensityOn is Propensity on split m's test rows, or on its selection
// rows when sel (in the order of Predictions.Selection's rows).
func (s *PredictionSource) PropensityOn(m int, sel bool) ([]float64, error) {
	key := partKey(m, sel)
	if e, ok := s.props[key]; ok {
		return e, nil
	}
	sp, err := s.split(m)
	if err != nil {
		return nil, err
	}
	on, err := splitPropensity(s.dir, m, s.data, sp)
	if err != nil {
		return nil, err
	}
	e := on(part(sp, sel))
	s.props[key] = e
	return e, nil
}

// partKey is the cache key of split m's test (sel false) or selection
// rows: the split's number, negative for its selection rows.
func partKey(m int, sel bool) int {
	if sel {
		return -1 - m
	}
	return m
}

// part is sp's test rows, or its selection rows when sel.
func part(sp Parts, sel bool) []int {
	if sel {
		return sp.Selection
	}
	return sp.Test
}

// OverlapWeightsGroups returns, for a run whose sensitive attribute is in
// R > 2 groups, the generalised overlap weights of split m's test rows
// (in the order of Predictions' rows and groups), from the split's stored
// multinomial propensity model as the run computed them
// (propensity.OverlapWeights of its calibrated propensities).
func (s *PredictionSource) OverlapWeightsGroups(m int) ([]float64, error) {
	return s.OverlapWeightsGroupsOn(m, false)
}

// OverlapWeightsGroupsOn is OverlapWeightsGroups on split m's test rows, or
// on its selection rows when sel.
func (s *PredictionSource) OverlapWeightsGroupsOn(m int, sel bool) ([]float64, error) {
	key := partKey(m, sel)
	if w, ok := s.groupW[key]; ok {
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
	rows := part(sp, sel)
	std := sp.Standardizer(s.data)
	z := make([]int, len(rows))
	for k, i := range rows {
		z[k] = s.data.Groups[i]
	}
	w := make([]float64, len(z))
	if err := propensity.OverlapWeights(pm.Predict(std.Apply(s.data, rows), len(z)), r, z, w); err != nil {
		return nil, fmt.Errorf("split %d: %s rows: %w", m, map[bool]string{false: "test", true: "selection"}[sel], err)
	}
	s.groupW[key] = w
	return w, nil
}

// Config is the folder's stored configuration.
func (s *PredictionSource) Config() Config { return s.cfg }

// DataID is the identity of the rows the data loads now
// (datasets.Dataset.ID), to be checked against the records' data_id.
func (s *PredictionSource) DataID() string { return s.data.ID }
