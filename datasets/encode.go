package datasets

import (
	"fmt"
	"slices"
)

// encoding says how a column becomes columns of x.
type encoding int

const (
	numeric         encoding = iota // the value itself
	oneHot                          // one 0/1 column per level, levels sorted
	oneHotDropFirst                 // as oneHot without the first level (a linear model's reference level)
)

type feature struct {
	col *column
	enc encoding
	// rename maps a raw value to the level it stands for (Adult's "?" → "Unknown").
	rename map[string]string
}

// encodeX builds the row-major feature matrix of the given rows, and the
// schema of the source columns it read. One-hot levels are those found in
// these rows, so every split of them has the same columns.
func encodeX(t *table, rows []int, feats []feature) (names []string, x []float64, schema []SourceColumn, err error) {
	type plan struct {
		off  int
		vals []float64 // numeric: value of each code
		errs []error
		pos  []int // one-hot: column offset of each code, -1 for none
	}
	plans := make([]plan, len(feats))
	widths := make([]int, len(feats)) // the columns of x each feature writes
	dim := 0
	for f, ft := range feats {
		c := ft.col
		p := &plans[f]
		p.off = dim
		if ft.enc == numeric {
			p.vals, p.errs = numbers(c)
			names = append(names, c.name)
			schema = append(schema, SourceColumn{Name: c.name, Kind: KindNumeric})
			widths[f] = 1
			dim++
			continue
		}
		level := func(code int32) string {
			v := c.levels[code]
			if r, ok := ft.rename[v]; ok {
				return r
			}
			return v
		}
		used := make([]bool, len(c.levels))
		for _, i := range rows {
			k := c.codes[i]
			if !used[k] && c.levels[k] == "" {
				return nil, nil, nil, t.errAt(i, c, fmt.Errorf("%w: expected a category", ErrEmptyCell))
			}
			used[k] = true
		}
		var levels []string
		for k, u := range used {
			if u {
				levels = append(levels, level(int32(k)))
			}
		}
		slices.Sort(levels)
		levels = slices.Compact(levels)
		sc := SourceColumn{Name: c.name, Kind: KindCategorical, Levels: slices.Clone(levels)}
		for from, to := range ft.rename {
			if sc.Rename == nil {
				sc.Rename = map[string]string{}
			}
			sc.Rename[from] = to
		}
		if ft.enc == oneHotDropFirst && len(levels) > 0 {
			sc.Dropped = levels[0]
			levels = levels[1:]
		}
		schema = append(schema, sc)
		p.pos = make([]int, len(c.levels))
		for k := range c.levels {
			p.pos[k] = -1
			if j, ok := slices.BinarySearch(levels, level(int32(k))); ok {
				p.pos[k] = dim + j
			}
		}
		for _, l := range levels {
			names = append(names, c.name+"="+l)
		}
		widths[f] = len(levels)
		dim += len(levels)
	}
	if err := checkEncodedSize(t, rows, feats, widths, dim); err != nil {
		return nil, nil, nil, err
	}
	x = make([]float64, len(rows)*dim)
	for f, ft := range feats {
		p := &plans[f]
		codes := ft.col.codes
		for r, i := range rows {
			k := codes[i]
			if p.pos == nil {
				if p.errs[k] != nil {
					return nil, nil, nil, t.errAt(i, ft.col, p.errs[k])
				}
				x[r*dim+p.off] = p.vals[k]
			} else if j := p.pos[k]; j >= 0 {
				x[r*dim+j] = 1
			}
		}
	}
	return names, x, schema, nil
}

// The feature matrix is dense: a categorical column adds one column of x
// per value, so a column of identifiers (a name, a case number) makes x
// rows × rows, gigabytes from a file of a few megabytes. A matrix of more
// than maxDenseCells cells that is also more than maxExpansion times the
// cells it encodes is refused before it is allocated; below either bound
// any encoding is kept.
const (
	maxDenseCells = 32 << 20 // 256 MiB of float64
	maxExpansion  = 64
)

// checkEncodedSize refuses a feature matrix of len(rows) × dim cells past
// both bounds, naming the widest categorical column.
func checkEncodedSize(t *table, rows []int, feats []feature, widths []int, dim int) error {
	n := len(rows)
	cells := float64(n) * float64(dim)
	if cells <= maxDenseCells || cells <= maxExpansion*float64(n)*float64(len(feats)) {
		return nil
	}
	widest := 0
	for f, w := range widths {
		if w > widths[widest] {
			widest = f
		}
	}
	c := feats[widest].col
	return t.errColumn(c, fmt.Errorf("%w: one-hot encoded, its %d values make the features %d columns wide for %d rows (%.1f GB); leave the column out (--exclude) or choose the feature columns (--features)",
		ErrTooWide, widths[widest], dim, n, cells*8/1e9))
}
