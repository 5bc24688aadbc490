package runfolder

import (
	"fmt"

	"github.com/fpareto/fp/datasets"
)

// TestSplit is the test part of one split of a run folder, as the run
// scored its candidates on it: the rows, and the calibrated propensity
// P(a=1 | x) of each from the split's stored propensity model; and the
// selection rows with theirs when the run keeps some.
type TestSplit struct {
	Data       *datasets.Dataset
	Rows       []int     // the test rows (without the selection rows), indices into Data
	Propensity []float64 // per test row
	// SelectionRows are the split's selection rows, and SelectionPropensity
	// their propensity; nil when the run keeps none.
	SelectionRows       []int
	SelectionPropensity []float64
}

// LoadTestSplit rebuilds split m's test part of the run in dir from its
// config.json and stored propensity model.
func LoadTestSplit(dir string, m int) (*TestSplit, error) {
	c, err := ReadConfig(dir)
	if err != nil {
		return nil, err
	}
	data, err := LoadDataset(c)
	if err != nil {
		return nil, err
	}
	sp, err := PartsOf(c, data, m)
	if err != nil {
		return nil, err
	}
	on, err := splitPropensity(dir, m, data, sp)
	if err != nil {
		return nil, err
	}
	ts := &TestSplit{Data: data, Rows: sp.Test, Propensity: on(sp.Test)}
	if len(sp.Selection) > 0 {
		ts.SelectionRows, ts.SelectionPropensity = sp.Selection, on(sp.Selection)
	}
	return ts, nil
}

// splitPropensity returns the calibrated propensity of split m on any of
// its rows: the split's stored model on the rows standardized as the run
// standardized them (fitted on the split's training rows).
func splitPropensity(dir string, m int, data *datasets.Dataset, sp Parts) (func(rows []int) []float64, error) {
	pm, err := ReadPropensity(dir, m)
	if err != nil {
		return nil, fmt.Errorf("split %d: %w", m, err)
	}
	if pm == nil {
		return nil, fmt.Errorf("split %d: %s: no propensity model stored", m, PropensityPath(dir, m))
	}
	std := sp.Standardizer(data)
	return func(rows []int) []float64 { return pm.Predict(std.Apply(data, rows), len(rows)) }, nil
}
