package runfolder

import (
	"fmt"
	"path/filepath"

	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/records"
)

// Predictions are a stored candidate's predicted probabilities on its test
// split, with the labels and groups of those rows. Z holds the logits
// (P = sigmoid(Z)), from which the risk is recomputed as the run computed it.
type Predictions struct {
	P, Y, A []float64
	Z       []float64
}

// LoadPredictions recomputes a candidate's test predictions from the folder
// its record lives in: the folder's config.json gives the data and the split,
// and the record's network file the weights and input standardization.
func LoadPredictions(dir string, rec *records.Record) (*Predictions, error) {
	if rec.Weights == "" {
		return nil, fmt.Errorf("candidate %s has no stored network", rec.Key())
	}
	c, err := ReadConfig(dir)
	if err != nil {
		return nil, err
	}
	data, err := LoadDataset(c)
	if err != nil {
		return nil, err
	}
	sp, err := SplitOf(c, data, rec.Split)
	if err != nil {
		return nil, err
	}
	f, err := model.Load(filepath.Join(dir, rec.Weights))
	if err != nil {
		return nil, err
	}
	if f.Dim != data.Dim {
		return nil, fmt.Errorf("%s: network takes %d inputs, the data has %d", rec.Weights, f.Dim, data.Dim)
	}
	x := make([]float64, 0, len(sp.Test)*data.Dim)
	for _, i := range sp.Test {
		x = append(x, data.X[i*data.Dim:(i+1)*data.Dim]...)
	}
	z, err := f.Logits(x, len(sp.Test))
	if err != nil {
		return nil, err
	}
	y, a := data.Subset(sp.Test)
	return &Predictions{P: sigmoids(z), Y: y, A: a, Z: z}, nil
}

// sigmoids are the probabilities of logits z.
func sigmoids(z []float64) []float64 {
	p := make([]float64, len(z))
	for i, v := range z {
		p[i] = model.Sigmoid(v)
	}
	return p
}
