package datasets

import (
	"fmt"
	"slices"
	"strings"

	"github.com/xrash/smetrics"
)

// ColumnChoice chooses the source columns that become features. The zero
// value keeps every feature column. Names are source columns as the file
// names them ("age", "sex"), never encoded ones ("sex=Male"); the target and
// the sensitive column are never features and cannot be listed.
type ColumnChoice struct {
	Features []string // only these feature columns
	Exclude  []string // every feature column but these
}

// IsZero reports whether the choice keeps every feature column.
func (c ColumnChoice) IsZero() bool { return len(c.Features) == 0 && len(c.Exclude) == 0 }

// keep returns the feature columns the choice keeps, in the order of
// available (the feature columns the data has). header lists every column
// the source has (a superset of available, with the target and the
// sensitive column), so that a column that is there but not a feature is
// told apart from a misspelt one; where names the data in messages.
func (c ColumnChoice) keep(available, header []string, target string, sensitive []string, where string) (map[string]bool, error) {
	if len(c.Features) > 0 && len(c.Exclude) > 0 {
		return nil, fmt.Errorf("%s: give --features or --exclude, not both", where)
	}
	flag, names := "--features", c.Features
	if len(c.Exclude) > 0 {
		flag, names = "--exclude", c.Exclude
	}
	listed := map[string]bool{}
	for _, n := range names {
		switch {
		case n == "":
			return nil, fmt.Errorf("%s: %s: an empty column name (write the names separated by commas)", where, flag)
		case listed[n]:
			return nil, fmt.Errorf("%s: %s: column %q is listed twice", where, flag, n)
		case n == target:
			return nil, fmt.Errorf("%s: %s: %q is the target column, which is never a feature", where, flag, n)
		case slices.Contains(sensitive, n):
			return nil, fmt.Errorf("%s: %s: %q is the sensitive column, which is never a feature", where, flag, n)
		case n == RowColumn:
			return nil, fmt.Errorf("%s: %s: %q is the row index fp datasets export writes, which is never a feature", where, flag, n)
		case !slices.Contains(available, n):
			if slices.Contains(header, n) {
				return nil, fmt.Errorf("%s: %s: column %q is not a feature column (the feature columns: %s)",
					where, flag, n, strings.Join(available, ", "))
			}
			msg := fmt.Sprintf("%s: %s: no column %q", where, flag, n)
			if strings.Contains(n, "=") {
				msg += " (name a source column, not an encoded one such as column=level)"
			}
			if best := closest(n, available); best != "" {
				return nil, fmt.Errorf("%s; did you mean %q?", msg, best)
			}
			return nil, fmt.Errorf("%s (the feature columns: %s)", msg, strings.Join(available, ", "))
		}
		listed[n] = true
	}
	keep := make(map[string]bool, len(available))
	for _, n := range available {
		keep[n] = len(names) == 0 || listed[n] == (flag == "--features")
	}
	if !slices.ContainsFunc(available, func(n string) bool { return keep[n] }) {
		return nil, fmt.Errorf("%s: --exclude leaves no feature column", where)
	}
	return keep, nil
}

// closest is the name among names nearest to s, or "" when none is near.
// An encoded name ("sex=Male") is matched on its column part first.
func closest(s string, names []string) string {
	if i := strings.Index(s, "="); i > 0 && slices.Contains(names, s[:i]) {
		return s[:i]
	}
	best, score := "", 0.0
	for _, n := range names {
		if v := smetrics.JaroWinkler(strings.ToLower(s), strings.ToLower(n), 0.7, 4); v > score {
			best, score = n, v
		}
	}
	if score < 0.75 {
		return ""
	}
	return best
}

// FeatureColumns lists the source columns a built-in dataset encodes as
// features, in encoding order: the names ColumnChoice may list for it; nil
// for an unknown name.
func FeatureColumns(name string) []string {
	switch name {
	case "compas":
		return slices.Concat(compasNumeric, compasCategorical)
	case "adult-sex", "adult-race":
		return slices.Concat(adultNumeric, adultCategorical)
	}
	return nil
}
