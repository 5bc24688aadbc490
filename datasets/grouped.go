package datasets

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// PropensityPrefix begins the name of each propensity column of a file of
// predictions in R groups: propensity_<group> holds P(group | x), with
// <group> written as GroupedPredictions.Groups names it.
const PropensityPrefix = "propensity_"

// GroupSeparator joins the values of several grouping columns into the
// name of their intersection, e.g. "Black × Female".
const GroupSeparator = " × "

// PropensitySumTolerance is how far from 1 a row's propensities over the R
// groups may sum.
const PropensitySumTolerance = 1e-6

// GroupColumns name the columns of a predictions file read in groups.
type GroupColumns struct {
	Score  string   // predicted probabilities P(y=1) in [0, 1]; or
	Logit  string   // logits z with P(y=1) = σ(z); exactly one of Score and Logit
	Label  string   // the true labels: two values
	Groups []string // one or more columns: each combination of their values present is a group
	// Decision is optional, as in PredictionColumns.
	Decision string
}

// GroupedPredictions are the rows of a predictions file in R ≥ 2 groups.
type GroupedPredictions struct {
	File string
	P    []float64 // probabilities; nil when read from logits
	Z    []float64 // logits; nil when read from probabilities
	D    []float64 // decision probabilities P(ŷ = 1); nil without a decision column
	Y    []float64 // labels, 0 or 1
	G    []int     // each row's group: an index into Groups

	// Groups names the groups in sorted order: a value of the grouping
	// column, or the values of several joined by GroupSeparator, ordered
	// column by column (numbers as numbers).
	Groups []string
	// Columns are the grouping columns.
	Columns []string
	// E holds the propensities, row-major n×R: E[i·R + r] is row i's
	// P(group r | x), from column PropensityPrefix + Groups[r]. nil when the
	// file has no propensity column.
	E []float64

	Label Coding
}

// ReadGroupedPredictions reads a CSV file with a header row (or a Parquet
// file, when the name ends in .parquet) of predictions whose rows fall in
// groups: a probability (or a logit), the true label and one or more
// grouping columns; each combination of their values that occurs is a
// group, and at least two groups must occur. The label is coded as for
// ReadPredictions; a grouping value is kept as written, except that numbers
// are written in one form (so "1" and "1.0" are one group).
//
// When the header holds columns whose names begin with PropensityPrefix,
// they must be exactly one propensity_<group> column per group, each a
// probability, and on every row they must sum to 1 within
// PropensitySumTolerance. Other columns are ignored.
//
// Every problem with the file is a *ParseError naming the file, and the
// line and column where there is one.
func ReadGroupedPredictions(path string, cols GroupColumns) (*GroupedPredictions, error) {
	if err := cols.check(); err != nil {
		return nil, err
	}
	src, err := OpenRows(path, "")
	if err != nil {
		return nil, err
	}
	defer src.Close()
	return groupedPredictionsOf(src, cols)
}

// ReadGroupedPredictionsFrom reads a CSV file of predictions from r, as
// ReadGroupedPredictions reads a file; name stands for it in errors.
func ReadGroupedPredictionsFrom(r io.Reader, name string, cols GroupColumns) (*GroupedPredictions, error) {
	if err := cols.check(); err != nil {
		return nil, err
	}
	rr, err := NewRowReader(r, name, "")
	if err != nil {
		return nil, err
	}
	return groupedPredictionsOf(rr, cols)
}

// check refuses a set of columns that names no score, no label or no
// grouping column, or a grouping column twice.
func (cols GroupColumns) check() error {
	if err := scoreColumns(cols.Score, cols.Logit, cols.Decision); err != nil {
		return err
	}
	if cols.Label == "" || len(cols.Groups) == 0 {
		return errors.New("predictions: name the label column and at least one grouping column")
	}
	for i, g := range cols.Groups {
		if g == "" {
			return fmt.Errorf("predictions: grouping column %d of %d has an empty name", i+1, len(cols.Groups))
		}
		if slices.Contains(cols.Groups[:i], g) {
			return fmt.Errorf("predictions: grouping column %q named twice", g)
		}
	}
	return nil
}

func groupedPredictionsOf(src RowSource, cols GroupColumns) (*GroupedPredictions, error) {
	file := src.File()
	names := slices.DeleteFunc([]string{cols.Score, cols.Logit, cols.Decision, cols.Label}, func(s string) bool { return s == "" })
	names = append(names, cols.Groups...)
	var props []string // the propensity columns in the header, in file order
	for _, h := range src.Header() {
		if strings.HasPrefix(h, PropensityPrefix) && !slices.Contains(names, h) && !slices.Contains(props, h) {
			props = append(props, h)
		}
	}
	t, err := readTable(src, append(slices.Clone(names), props...))
	if err != nil {
		return nil, err
	}
	for _, name := range append(slices.Clone(names), props...) {
		if i := slices.Index(t.header, name); slices.Contains(t.header[i+1:], name) {
			j := i + 1 + slices.Index(t.header[i+1:], name)
			return nil, errorAt(file, t.headerAt, j, name,
				fmt.Errorf("duplicate column name (also column %d): which one is meant is ambiguous", i+1))
		}
	}

	pr := &GroupedPredictions{File: file, Columns: slices.Clone(cols.Groups)}
	if pr.P, pr.Z, pr.D, err = t.scores(cols.Score, cols.Logit, cols.Decision); err != nil {
		return nil, err
	}
	if pr.Y, pr.Label, err = t.binary(t.column(cols.Label), false); err != nil {
		return nil, err
	}
	if err := pr.group(t, cols.Groups); err != nil {
		return nil, err
	}
	if len(props) > 0 {
		if err := pr.propensities(t, props); err != nil {
			return nil, err
		}
	}
	return pr, nil
}

// group sets G and Groups from the grouping columns.
func (pr *GroupedPredictions) group(t *table, groupCols []string) error {
	n := t.rows()
	// rank[j][k] is the sorted position of level k of column j.
	rank := make([][]int, len(groupCols))
	values := make([][]string, len(groupCols)) // each column's distinct values, sorted
	norm := make([][]string, len(groupCols))
	for j, name := range groupCols {
		c := t.column(name)
		norm[j] = make([]string, len(c.levels))
		for k, s := range c.levels {
			norm[j][k] = s
			if v, ok, err := number(s); ok && err == nil {
				norm[j][k] = strconv.FormatFloat(v, 'g', -1, 64)
			}
		}
		for i, k := range c.codes {
			if norm[j][k] == "" {
				return t.errAt(i, c, fmt.Errorf("%w: expected the row's group", ErrEmptyCell))
			}
		}
		values[j] = slices.Compact(slices.Sorted(slices.Values(norm[j])))
		sortValues(values[j])
		rank[j] = make([]int, len(c.levels))
		for k, s := range norm[j] {
			rank[j][k] = slices.Index(values[j], s)
		}
	}
	// Each row's tuple of ranks, and the distinct tuples in order.
	keys := make([][]int, n)
	for i := range n {
		keys[i] = make([]int, len(groupCols))
		for j, name := range groupCols {
			keys[i][j] = rank[j][t.column(name).codes[i]]
		}
	}
	distinct := slices.SortedFunc(slices.Values(slices.Clone(keys)), slices.Compare)
	distinct = slices.CompactFunc(distinct, slices.Equal)
	pr.Groups = make([]string, len(distinct))
	for g, key := range distinct {
		parts := make([]string, len(key))
		for j, r := range key {
			parts[j] = values[j][r]
		}
		pr.Groups[g] = strings.Join(parts, GroupSeparator)
	}
	if len(distinct) < 2 {
		return &ParseError{File: strings.Join(t.files, ", "),
			Err: fmt.Errorf("%w: every row is in group %q of %s, but the fairness metrics compare at least two groups",
				ErrEmptyGroup, pr.Groups[0], strings.Join(groupCols, GroupSeparator))}
	}
	pr.G = make([]int, n)
	for i, key := range keys {
		pr.G[i], _ = slices.BinarySearchFunc(distinct, key, slices.Compare)
	}
	return nil
}

// propensities reads the propensity columns props, which must be one per
// group, into E.
func (pr *GroupedPredictions) propensities(t *table, props []string) error {
	var missing, extra []string
	for _, g := range pr.Groups {
		if !slices.Contains(props, PropensityPrefix+g) {
			missing = append(missing, PropensityPrefix+g)
		}
	}
	for _, p := range props {
		if !slices.Contains(pr.Groups, strings.TrimPrefix(p, PropensityPrefix)) {
			extra = append(extra, p)
		}
	}
	if len(missing)+len(extra) > 0 {
		var what []string
		if len(missing) > 0 {
			what = append(what, "no column "+quoteList(missing))
		}
		if len(extra) > 0 {
			what = append(what, "column "+quoteList(extra)+" names no group")
		}
		return errorAt(pr.File, t.headerAt, -1, "", fmt.Errorf("%w: the propensity columns do not match the %d groups of %s: %s (expected one %s<group> column per group)",
			ErrMissingColumn, len(pr.Groups), strings.Join(pr.Columns, GroupSeparator), strings.Join(what, "; "), PropensityPrefix))
	}
	r := len(pr.Groups)
	n := t.rows()
	pr.E = make([]float64, n*r)
	for g, name := range pr.Groups {
		vals, err := t.floats(t.column(PropensityPrefix+name), "propensity", true)
		if err != nil {
			return err
		}
		for i, v := range vals {
			pr.E[i*r+g] = v
		}
	}
	for i := range n {
		var sum float64
		for _, v := range pr.E[i*r : (i+1)*r] {
			sum += v
		}
		if math.Abs(sum-1) > PropensitySumTolerance {
			pe := &ParseError{File: t.file(i), Line: int(t.lines[i]),
				Err: fmt.Errorf("%w: the %d propensity columns sum to %v, expected 1 (within %g)", ErrBadValue, r, sum, PropensitySumTolerance)}
			if t.byRow {
				pe.Line, pe.Row = 0, int(t.lines[i])
			}
			return pe
		}
	}
	return nil
}

// CodingNote describes the coding of the label when it is not plain 0/1,
// as Predictions.CodingNote does.
func (pr *GroupedPredictions) CodingNote() string {
	if !pr.Label.Plain() && pr.Label.Negative != "" {
		return fmt.Sprintf("label: %q coded as 1, %q as 0\n", pr.Label.Positive, pr.Label.Negative)
	}
	return ""
}
