package audit

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/fpareto/fp/datasets"
)

// Read reads the predictions an audit measures from the file data ("-":
// standard input, whose bytes stdin holds, so that a file read twice is
// read from them): in two groups (two) when one grouping column is named
// and it holds two values, else in the groups of the grouping columns'
// values or their combinations (grouped), which take their propensities
// from the columns datasets.PropensityPrefix<group>, not from
// cols.Propensity. A *datasets.ParseError, which names the file first, is
// returned as it is.
func Read(data string, stdin []byte, cols datasets.PredictionColumns, groups []string) (two *datasets.Predictions, grouped *datasets.GroupedPredictions, err error) {
	if len(groups) == 1 {
		cols.Group = groups[0]
		two, err = read(data, stdin, cols)
		if errors.Is(err, datasets.ErrMissingColumn) && cols.Propensity != "" {
			// A file of more than two groups has no propensity column
			// (fp predict writes one per group instead): say so, rather
			// than that the column is missing.
			noProp := cols
			noProp.Propensity = ""
			if _, e := read(data, stdin, noProp); moreGroups(e, cols.Group) {
				err = e
			}
		}
		if !moreGroups(err, cols.Group) {
			return two, nil, err
		}
		// A third value of the group: audit in R groups.
	}
	if cols.Propensity != "" {
		return nil, nil, fmt.Errorf("--propensity names the column of P(group=1 | x) for two groups; with %s in more than two groups, "+
			"leave it out: the propensities are read from the columns %s<group>, one per group", strings.Join(groups, ", "), datasets.PropensityPrefix)
	}
	gcols := datasets.GroupColumns{Score: cols.Score, Logit: cols.Logit, Label: cols.Label, Groups: groups, Decision: cols.Decision}
	if data == "-" {
		grouped, err = datasets.ReadGroupedPredictionsFrom(bytes.NewReader(stdin), "standard input", gcols)
	} else {
		grouped, err = datasets.ReadGroupedPredictions(data, gcols)
	}
	if pe := (*datasets.ParseError)(nil); err != nil && !errors.As(err, &pe) {
		err = fmt.Errorf("--group: %w", err)
	}
	return nil, grouped, err
}

// read reads the predictions of two groups from the file data ("-":
// standard input, whose bytes stdin holds).
func read(data string, stdin []byte, cols datasets.PredictionColumns) (*datasets.Predictions, error) {
	if data == "-" {
		return datasets.ReadPredictionsFrom(bytes.NewReader(stdin), "standard input", cols)
	}
	return datasets.ReadPredictions(data, cols)
}

// moreGroups reports whether err is a reading's refusal of the grouping
// column group for holding a third value on a data row.
func moreGroups(err error, group string) bool {
	pe := (*datasets.ParseError)(nil)
	return errors.As(err, &pe) && errors.Is(err, datasets.ErrNotBinary) && pe.Name == group && pe.Line+pe.Row > 0
}
