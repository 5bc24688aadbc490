package runfolder

import (
	"fmt"
	"io"
	"slices"

	"github.com/fpareto/fp/datasets"
)

// PartNames are the parts of a split that can be asked for by name: the
// test rows of the records' test metrics, the selection rows and the whole
// training split.
var PartNames = []string{"test", "selection", "train"}

// Rows returns the rows of the part of the split with the given name (one
// of PartNames).
func (p Parts) Rows(part string) ([]int, error) {
	switch part {
	case "test":
		return p.Test, nil
	case "selection":
		if p.Selection == nil {
			return nil, fmt.Errorf("part selection: the split keeps no selection rows (fp train --select-fraction)")
		}
		return p.Selection, nil
	case "train":
		return p.Train, nil
	}
	return nil, fmt.Errorf("part %q: want test, selection or train", part)
}

// Standardizer is the split's standardization of d's features: fitted on
// its training rows. The split's networks, its propensity model and every
// reader that scores them again see the rows through it.
func (p Parts) Standardizer(d *datasets.Dataset) *datasets.Standardizer {
	return datasets.FitStandardizer(d, p.Train)
}

// RunPart is one part of one split of a run, on the rows of a dataset that
// has the run's rows (the same number, in the same order, with the same y
// and binary a).
type RunPart struct {
	Run   *datasets.Dataset // the data the run trains on: its features are the networks'
	Parts Parts             // the split, as the run draws it
	Rows  []int             // the part's rows: indices into Run and into the dataset asked for
}

// LoadRunPart draws part (test, selection or train) of split m of the run
// in dir, whose rows must be d's. That holds for a built-in dataset and its
// variant in groups (compas and compas-race4) although their data_id
// differ, so that a binary run's rows can be written with their groups.
func LoadRunPart(dir string, m int, part string, d *datasets.Dataset) (*RunPart, error) {
	if !slices.Contains(PartNames, part) {
		return nil, fmt.Errorf("--part %q: want test, selection or train", part)
	}
	cfg, err := ReadConfig(dir)
	if err != nil {
		return nil, fmt.Errorf("--run %s: %w", dir, err)
	}
	if cfg.CSV != "" {
		return nil, fmt.Errorf("--run %s trains on the file %s, not a built-in dataset: its rows are that file's", dir, cfg.CSV)
	}
	if m < 0 || m >= cfg.Splits {
		return nil, fmt.Errorf("--split %d: the run in %s has splits 0 to %d", m, dir, cfg.Splits-1)
	}
	rd, err := LoadDataset(cfg)
	if err != nil {
		return nil, fmt.Errorf("--run %s: %w", dir, err)
	}
	if rd.N != d.N || !slices.Equal(rd.Y, d.Y) || !slices.Equal(rd.A, d.A) {
		return nil, fmt.Errorf("--run %s trains on %s (%d rows), not on the rows of %s (%d rows, or another y or a): its splits index other rows",
			dir, cfg.Dataset, rd.N, d.Name, d.N)
	}
	p, err := PartsOf(cfg, rd, m)
	if err != nil {
		return nil, fmt.Errorf("--run %s: %w", dir, err)
	}
	rows, err := p.Rows(part)
	if err != nil {
		return nil, fmt.Errorf("--part %s: the run in %s keeps no selection rows (fp train --select-fraction)", part, dir)
	}
	return &RunPart{Run: rd, Parts: p, Rows: rows}, nil
}

// WriteCSV writes the part's rows of d (the dataset asked for, whose rows
// are the run's) as CSV and returns how many it wrote: d's source columns
// under their own names, as the whole dataset is exported
// (datasets.Dataset.WriteCSVRows), or with coded the features as the
// split's networks see them (Coded) with the target and the group coded.
func (r *RunPart) WriteCSV(w io.Writer, d *datasets.Dataset, coded bool) (int, error) {
	if coded {
		return d.WriteCodedCSVRows(w, r.Rows, r.Run.Columns, r.Coded())
	}
	return d.WriteCSVRows(w, r.Rows)
}

// Coded is the part's feature matrix as the split's networks see it,
// row-major len(Rows)×len(Run.Columns): the run's feature columns, one-hot
// coded and standardized by the split's Standardizer.
func (r *RunPart) Coded() []float64 {
	return r.Parts.Standardizer(r.Run).Apply(r.Run, r.Rows)
}
