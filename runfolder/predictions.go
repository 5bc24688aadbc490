package runfolder

import (
	"fmt"
	"path/filepath"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/records"
)

// Predictions are a stored candidate's predicted probabilities on its test
// split, with the labels and groups of those rows. Z holds the logits
// (P = sigmoid(Z)), from which the risk is recomputed as the run computed it.
type Predictions struct {
	P, Y, A []float64
	// Z are the logits of P (the risk is computed from them exactly as
	// training computed it).
	Z []float64
	// Groups and Levels are, when the run's sensitive attribute is in
	// R > 2 groups, each row's group (an index into Levels) and the groups'
	// names in code order; nil otherwise. A stays the binary coding.
	Groups []int
	Levels []string
	// Rules are, for a network with group thresholds (a thresholds
	// candidate, model.FileFormatThresholds), the rules it decides with
	// (model.GroupThresholds.DecideAll); nil for a network that decides at
	// one threshold.
	Rules *model.GroupThresholds
	// Selection holds the same on the split's selection rows; nil when the
	// run keeps none.
	Selection *Predictions
}

// LoadPredictions recomputes a candidate's test predictions from the folder
// its record lives in: the folder's config.json gives the data and the split,
// and the record's network file the weights and input standardization.
func LoadPredictions(dir string, rec *records.Record) (*Predictions, error) {
	if rec.Weights == "" {
		return nil, fmt.Errorf("candidate %s has no stored network", rec.Key())
	}
	src, err := NewPredictionSource(dir)
	if err != nil {
		return nil, err
	}
	return src.Predictions(rec)
}

// NetworkAt loads the network of rec, a record of the folder dir, as the
// plain network the record's metrics are of: a λ-conditioned file (shared
// by every λ of its split) folded at the record's λ (model.File.At), a
// plain file as it is. Whatever re-scores a record's rows goes through it.
func NetworkAt(dir string, rec *records.Record) (*model.File, error) {
	if rec.Weights == "" {
		return nil, fmt.Errorf("candidate %s has no stored network", rec.Key())
	}
	path := filepath.Join(dir, rec.Weights)
	f, err := model.Load(path)
	if err != nil {
		return nil, err
	}
	if !f.IsConditioned() {
		if rec.Conditioned {
			return nil, fmt.Errorf("%s: the record of %s says a λ-conditioned network (%s), the file holds a plain one (%s)",
				path, rec.Key(), model.FileFormatConditioned, f.Format)
		}
		return f, nil
	}
	at, err := f.At(rec.Lambda)
	if err != nil {
		return nil, fmt.Errorf("%s at the λ of %s: %w", path, rec.Key(), err)
	}
	return at, nil
}

// predict scores the rows of sp's test and selection parts with rec's
// stored network.
func predict(dir string, data *datasets.Dataset, sp Parts, rec *records.Record) (*Predictions, error) {
	f, err := NetworkAt(dir, rec)
	if err != nil {
		return nil, err
	}
	if f.Dim != data.Dim {
		return nil, fmt.Errorf("%s: network takes %d inputs, the data has %d", rec.Weights, f.Dim, data.Dim)
	}
	on := func(rows []int) (*Predictions, error) {
		x := make([]float64, 0, len(rows)*data.Dim)
		for _, i := range rows {
			x = append(x, data.X[i*data.Dim:(i+1)*data.Dim]...)
		}
		z, err := f.Logits(x, len(rows))
		if err != nil {
			return nil, err
		}
		y, a := data.Subset(rows)
		pr := &Predictions{P: sigmoids(z), Y: y, A: a, Z: z}
		if f.UsesGroup() {
			pr.Rules = f.GroupThresholds
		}
		if len(data.Levels) > 2 {
			pr.Levels = data.Levels
			for _, i := range rows {
				pr.Groups = append(pr.Groups, data.Groups[i])
			}
		}
		return pr, nil
	}
	out, err := on(sp.Test)
	if err != nil || len(sp.Selection) == 0 {
		return out, err
	}
	out.Selection, err = on(sp.Selection)
	return out, err
}

// sigmoids are the probabilities of logits z.
func sigmoids(z []float64) []float64 {
	p := make([]float64, len(z))
	for i, v := range z {
		p[i] = model.Sigmoid(v)
	}
	return p
}
