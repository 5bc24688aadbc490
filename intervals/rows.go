package intervals

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/fairness/bootstrap"
	"github.com/fpareto/fp/records"
)

// check says why no interval can be given for rec (named who) before any
// row is re-scored: the folder's data cannot be reloaded or holds other
// rows, or the network file is not there; "" when nothing stands in the
// way.
func (f *Folder) check(rec *records.Record, who string) string {
	if f.problem != "" {
		return f.problem
	}
	// The rows must be the ones the records were computed on: a data file
	// edited since training gives other rows.
	if id := f.src.DataID(); rec.DataID != "" && id != rec.DataID {
		return fmt.Sprintf("no intervals for %s: its data now holds other rows than it was trained on "+
			"(data_id %s, the records say %s): the data, or its target or sensitive column, changed since training", f.dir, id, rec.DataID)
	}
	if rec.Weights == "" {
		return fmt.Sprintf("no interval for %s: the record names no network file", who)
	}
	net := filepath.Join(f.dir, rec.Weights)
	if _, err := os.Stat(net); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Sprintf("no interval for %s: its network file %s is missing", who, net)
		}
		return fmt.Sprintf("no interval for %s: %v", who, err)
	}
	return ""
}

// sample re-scores rec's test rows (its selection rows, when selection)
// with its network, checks that they reproduce the recorded metrics of
// those rows and returns them prepared for resampling at the record's
// threshold. note says why the ATO is missing; refusal, when not "", why
// there is no sample. f.check must have passed.
func (f *Folder) sample(rec *records.Record, who string, selection bool) (s *bootstrap.Sample, note, refusal string) {
	rows := rowsName(selection)
	pr, err := f.src.Predictions(rec)
	if err != nil {
		return nil, "", fmt.Sprintf("no interval for %s: its %s cannot be re-scored: %v", who, rows, err)
	}
	if selection {
		if pr.Selection == nil || !rec.HasSelection() {
			return nil, "", fmt.Sprintf("no interval for %s on the selection rows: its split keeps none", who)
		}
		pr = pr.Selection
	}
	met, build, note, refusal := f.rescore(rec, pr, who, selection)
	if refusal != "" {
		return nil, "", refusal
	}
	if why := mismatch(rec, met, selection); why != "" {
		return nil, "", fmt.Sprintf("no interval for %s: %s: the data or the network changed since training", who, why)
	}
	if s, err = build(); err != nil {
		return nil, "", fmt.Sprintf("no interval for %s: %v", who, err)
	}
	if s, err = s.WithThreshold(fairness.ThresholdOr(rec.Threshold)); err != nil {
		return nil, "", fmt.Sprintf("no interval for %s: %v", who, err)
	}
	return s, note, ""
}

// weights returns the propensities ê of split m's test rows (selection
// rows, when selection) for a binary attribute, or their generalised
// overlap weights for one in more groups.
func (f *Folder) weights(m int, groups, selection bool) ([]float64, error) {
	switch {
	case groups && selection:
		return f.src.SelectionOverlapWeightsGroups(m)
	case groups:
		return f.src.OverlapWeightsGroups(m)
	case selection:
		return f.src.SelectionPropensity(m)
	}
	return f.src.Propensity(m)
}

// rowsName names the rows in messages.
func rowsName(selection bool) string {
	if selection {
		return "selection rows"
	}
	return "test rows"
}
