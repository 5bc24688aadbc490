package datasets

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/integrate"
	"gonum.org/v1/gonum/stat"
)

// suspectMinRows is the fewest rows on which a column is judged to identify
// rows rather than describe them: on fewer, any column may be unique by
// chance.
const suspectMinRows = 10

// ColumnWarning is a feature column that identifies rows rather than
// describes them, or that gives the target away. It says what is wrong
// with the column, not what to do about it: a front end phrases the advice
// (leaving the column out) in its own terms, with Cost.
type ColumnWarning struct {
	Column  string // the column's name in the source
	Problem string // one line: what marks the column
	// Cost follows the advice to leave the column out: when not to, and
	// what it costs ("" when nothing is worth saying). Only says that it is
	// the only feature column, so that it cannot be left out.
	Cost string
	Only bool
}

// suspectColumns looks for feature columns that identify rows rather than
// describe them, which a network learns by heart and which fill the overlap
// diagnostics with noise: a categorical column whose value is unique per
// row or whose one-hot encoding is wider than half the rows, and a numeric
// column holding a different integer in every row, whatever their span: a
// row counter or an identifier (a counter of a file that held more rows,
// or of some other table, spans more than this file's rows). Such a column
// may be a measurement whose values happen to differ, so it is a warning,
// which says so. It returns one warning per such column.
func suspectColumns(t *table, rows []int, feats []feature) []ColumnWarning {
	n := len(rows)
	if n < suspectMinRows {
		return nil
	}
	var out []ColumnWarning
	for _, ft := range feats {
		c := ft.col
		used := usedCodes(c, rows)
		if ft.enc != numeric {
			levels := map[string]bool{}
			for _, k := range used {
				v := c.levels[k]
				if r, ok := ft.rename[v]; ok {
					v = r
				}
				levels[v] = true
			}
			width := len(levels)
			if ft.enc == oneHotDropFirst {
				width--
			}
			switch {
			case len(levels) == n:
				out = append(out, ColumnWarning{Column: c.name, Problem: fmt.Sprintf("column %q has a different value in each of the %d rows: one-hot encoded, its %d features identify rows rather than describe them",
					c.name, n, width)})
			case 2*width > n:
				out = append(out, ColumnWarning{Column: c.name, Problem: fmt.Sprintf("column %q has %d distinct values in %d rows: its one-hot encoding (%d features) is wider than half the rows",
					c.name, len(levels), n, width)})
			}
			continue
		}
		if len(used) != n {
			continue
		}
		vals, errs := numbers(c)
		lo, hi := math.Inf(1), math.Inf(-1)
		integers := true
		for _, k := range used {
			v := vals[k]
			if errs[k] != nil || v != math.Trunc(v) {
				integers = false
				break
			}
			lo, hi = min(lo, v), max(hi, v)
		}
		if integers {
			out = append(out, ColumnWarning{Column: c.name, Problem: fmt.Sprintf("column %q holds a different integer in each of the %d rows (%s to %s): likely a row counter or identifier, which a network learns by heart (if it is a measurement, keep it)",
				c.name, n, formatInt(lo), formatInt(hi))})
		}
	}
	return out
}

func formatInt(v float64) string { return fmt.Sprintf("%.0f", v) }

// leakAUC is the separation of the target by one feature column alone at
// or above which the column is taken for a likely leak: its area under the
// ROC curve, on its own, as a score for y (or for 1 − y). Measurements
// known when a decision is made rarely reach it (the strongest column of
// the built-in datasets, Adult's relationship, reaches 0.78); a column
// recorded after the outcome, or derived from it, does.
const leakAUC = 0.95

// leakMinClass is the fewest rows of each class on which a column's
// separation of the target is judged: on fewer, a column separates them
// perfectly by chance.
const leakMinClass = 20

// leakyColumns looks for feature columns that separate the target almost
// perfectly on their own (leakAUC), from the encoded rows x (n rows of the
// schema's encoded columns) and the labels y; the columns in skip (already
// warned about) are passed over. A numeric column is scored as it is, in
// either direction; a categorical one by each row's value's share of
// y = 1 (levelShares), which catches a leak spread over several values as
// well as one carried by a single value. A column can be a legitimate,
// very strong predictor, so it is a warning, which says so. It returns one
// warning per such column, in the schema's order.
func leakyColumns(x []float64, schema []SourceColumn, y []float64, target, positive string, skip map[string]bool) []ColumnWarning {
	var out []ColumnWarning
	for k, auc := range separations(x, schema, y) {
		name := schema[k].Name
		if skip[name] || !(auc >= leakAUC) {
			continue
		}
		out = append(out, ColumnWarning{Column: name, Problem: fmt.Sprintf("column %q alone separates %s = %q from the rest almost perfectly (AUC %.3f on its own, where 0.5 is chance): likely recorded after the outcome or derived from it, which a network learns in place of the task",
			name, target, positive, auc), Cost: "unless it is known when the decision is made (leaving it out loses the accuracy it brings)"})
	}
	return out
}

// separations is, for each column of the schema, its AUC as a score for y
// on its own (leakyColumns says how), NaN where it cannot be judged: nil
// when a class has fewer than leakMinClass rows.
func separations(x []float64, schema []SourceColumn, y []float64) []float64 {
	n := len(y)
	// Each column's encoded columns, by the schema's one rule of them.
	sources := (&Schema{Columns: schema}).Sources()
	dim, width := len(sources), map[string]int{}
	for _, src := range sources {
		width[src]++
	}
	if dim == 0 || len(x) != n*dim {
		return nil
	}
	classes := make([]bool, n)
	pos := 0
	for i, v := range y {
		classes[i] = v == 1
		if classes[i] {
			pos++
		}
	}
	if min(pos, n-pos) < leakMinClass {
		return nil
	}
	out := make([]float64, len(schema))
	col, cls := make([]float64, n), make([]bool, n)
	off := 0
	for k := range schema {
		c, w, j := &schema[k], width[schema[k].Name], off
		off += w
		out[k] = math.NaN()
		if w == 0 {
			continue
		}
		numeric := c.Kind == KindNumeric
		if numeric {
			for i := range n {
				col[i] = x[i*dim+j]
			}
		} else {
			levelShares(col, x, dim, j, w, y)
		}
		if slices.ContainsFunc(col, math.IsNaN) {
			continue // never from a parsed file; stat.ROC would refuse it
		}
		copy(cls, classes)
		stat.SortWeightedLabeled(col, cls, nil)
		tpr, fpr, _ := stat.ROC(nil, col, cls, nil)
		out[k] = integrate.Trapezoidal(fpr, tpr)
		if numeric {
			out[k] = max(out[k], 1-out[k])
		}
	}
	return out
}

// levelShares sets share[i] to the share of y = 1 among the rows with row
// i's value of the one-hot encoded columns j … j+w−1 of x (dim wide; no
// column set: the dropped level). A value with fewer than leakMinClass rows
// shares the pooled rate of all such values: on a handful of rows its own
// share would separate y by chance (a column of values unique per row
// would separate it perfectly).
func levelShares(share, x []float64, dim, j, w int, y []float64) {
	n := len(y)
	level := make([]int, n) // w for the dropped level
	rows, ones := make([]float64, w+1), make([]float64, w+1)
	for i := range n {
		level[i] = w
		for k := range w {
			if x[i*dim+j+k] == 1 {
				level[i] = k
				break
			}
		}
		rows[level[i]]++
		ones[level[i]] += y[i]
	}
	var rareRows, rareOnes float64
	for l := range rows {
		if rows[l] < leakMinClass {
			rareRows += rows[l]
			rareOnes += ones[l]
		}
	}
	for i := range n {
		if l := level[i]; rows[l] >= leakMinClass {
			share[i] = ones[l] / rows[l]
		} else {
			share[i] = rareOnes / rareRows
		}
	}
}
