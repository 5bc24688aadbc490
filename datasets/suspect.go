package datasets

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/integrate"
	"gonum.org/v1/gonum/stat"
)

// suspectMinRows is the fewest rows on which a column is judged to identify
// rows rather than describe them: on fewer, any column may be unique by
// chance.
const suspectMinRows = 10

// ColumnWarning is a feature column that identifies rows rather than
// describes them, or that gives the target away. It says what is wrong with the column, not what to do
// about it: a front end phrases the advice (leaving the column out) in its
// own terms.
type ColumnWarning struct {
	Column  string // the column's name in the source
	Problem string // one line: what marks the column
	// Cost is what leaving the column out would cost ("" when nothing
	// worth saying), and Only says that it is the only feature column, so
	// that it cannot be left out.
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
// the built-in datasets, Adult's marital status, reaches 0.76); a column
// recorded after the outcome, or derived from it, does.
const leakAUC = 0.95

// leakMinClass is the fewest rows of each class on which a column's
// separation of the target is judged: on fewer, a column separates them
// perfectly by chance.
const leakMinClass = 20

// leakyColumns looks for feature columns that separate the target almost
// perfectly on their own (leakAUC), from the encoded rows x (n × len(sources),
// sources[j] the source column of encoded column j) and the labels y. A
// column can be a legitimate, very strong predictor, so it is a warning,
// which says so. It returns one warning per such source column, in the
// columns' order, naming the encoded column (a categorical column's level)
// that separates best.
func leakyColumns(x []float64, sources, names []string, y []float64, target, positive string) []ColumnWarning {
	n, dim := len(y), len(sources)
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
	best := map[string]float64{}
	bestName := map[string]string{}
	var order []string
	col, cls := make([]float64, n), make([]bool, n)
	for j, src := range sources {
		for i := range n {
			col[i] = x[i*dim+j]
		}
		if slices.ContainsFunc(col, math.IsNaN) {
			continue // never from a parsed file; stat.ROC would refuse it
		}
		copy(cls, classes)
		stat.SortWeightedLabeled(col, cls, nil)
		tpr, fpr, _ := stat.ROC(nil, col, cls, nil)
		auc := integrate.Trapezoidal(fpr, tpr)
		auc = max(auc, 1-auc)
		if _, ok := best[src]; !ok {
			order = append(order, src)
		}
		if auc > best[src] {
			best[src], bestName[src] = auc, names[j]
		}
	}
	var out []ColumnWarning
	for _, src := range order {
		if best[src] < leakAUC {
			continue
		}
		what := fmt.Sprintf("column %q", src)
		if bestName[src] != src {
			what = fmt.Sprintf("column %q (its value %q)", src, strings.TrimPrefix(bestName[src], src+"="))
		}
		out = append(out, ColumnWarning{Column: src, Problem: fmt.Sprintf("%s alone separates %s = %q from the rest almost perfectly (AUC %.3f on its own, where 0.5 is chance): likely recorded after the outcome or derived from it, which a network learns in place of the task",
			what, target, positive, best[src]), Cost: "the accuracy it brings, real only if the column is known when the decision is made (then keep it)"})
	}
	return out
}
