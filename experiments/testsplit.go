package experiments

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/propensity"
)

// TestSplit is the test part of one split of a run folder, as the run
// scored its candidates on it: the rows, and the calibrated propensity
// P(a=1 | x) of each from the split's stored propensity model.
type TestSplit struct {
	Data       *datasets.Dataset
	Rows       []int     // the test rows, indices into Data
	Propensity []float64 // per test row
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
	sp, err := splitOf(c, data, m)
	if err != nil {
		return nil, err
	}
	r := &Runner{out: dir}
	path := r.propensityPath(m)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("split %d: %w", m, err)
	}
	var f propensityFile
	if err := json.Unmarshal(b, &f); err != nil || f.Network == nil {
		return nil, fmt.Errorf("%s: not a propensity model", path)
	}
	net, err := f.Network.Params()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	pm := &propensity.Model{Net: net, T: f.T}
	if err := pm.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	std := datasets.FitStandardizer(data, sp.Train)
	return &TestSplit{Data: data, Rows: sp.Test, Propensity: pm.Predict(std.Apply(data, sp.Test), len(sp.Test))}, nil
}
