package datasets

import (
	"fmt"
	"math"
)

// suspectMinRows is the fewest rows on which a column is judged to identify
// rows rather than describe them: on fewer, any column may be unique by
// chance.
const suspectMinRows = 10

// ColumnWarning is a feature column that identifies rows rather than
// describes them. It says what is wrong with the column, not what to do
// about it: a front end phrases the advice (leaving the column out) in its
// own terms.
type ColumnWarning struct {
	Column  string // the column's name in the source
	Problem string // one line: what marks the column
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
				out = append(out, ColumnWarning{c.name, fmt.Sprintf("column %q has a different value in each of the %d rows: one-hot encoded, its %d features identify rows rather than describe them",
					c.name, n, width)})
			case 2*width > n:
				out = append(out, ColumnWarning{c.name, fmt.Sprintf("column %q has %d distinct values in %d rows: its one-hot encoding (%d features) is wider than half the rows",
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
			out = append(out, ColumnWarning{c.name, fmt.Sprintf("column %q holds a different integer in each of the %d rows (%s to %s): likely a row counter or identifier, which a network learns by heart (if it is a measurement, keep it)",
				c.name, n, formatInt(lo), formatInt(hi))})
		}
	}
	return out
}

func formatInt(v float64) string { return fmt.Sprintf("%.0f", v) }
