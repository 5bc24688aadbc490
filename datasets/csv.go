package datasets

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// CSVOptions describe a CSV file's roles (docs/method.md §1.3).
type CSVOptions struct {
	Target string // the label column; two distinct values
	// Sensitive is the sensitive-attribute column: two distinct values, or
	// more with SensitivePositive (that value against the rest) or Groups.
	// Several columns separated by commas ("race,sex") ask for the groups
	// of their intersection (GroupOptions.All unless Groups lists levels);
	// a column whose whole name is the string is that column.
	Sensitive         string
	Positive          string // the target value coded 1 (against the rest, for more than two); "" = the rule below
	SensitivePositive string // the sensitive value coded 1; "" = the rule below
	// Groups asks for the sensitive values as groups (docs/method.md §1.9);
	// not with SensitivePositive.
	Groups      GroupOptions
	DropMissing bool // drop rows with an empty cell in a column in use instead of failing
	// Columns chooses the feature columns (default: every column but the
	// target and the sensitive one).
	Columns ColumnChoice
}

// LoadCSV reads any CSV file with a header row, or a Parquet file when the
// name ends in .parquet (see the package documentation for its types).
// Every column other than the target and the sensitive one is a feature (or
// those opt.Columns keeps; the others are not read beyond the header and
// may hold anything, empty cells included): numeric when all its non-empty
// values are numbers (for Parquet: when its type is numeric), else
// categorical, one-hot encoded with one column per
// level in sorted order. Without Positive (SensitivePositive), the value
// coded 1 is "1", "true" or "yes" (in any case) when present, else the later
// of the two values in sorted order (numeric order when both are numbers).
func LoadCSV(path string, opt CSVOptions) (*Dataset, error) {
	switch {
	case opt.Target == "":
		return nil, errors.New("CSV data needs a target column")
	case opt.Sensitive == "":
		return nil, errors.New("CSV data needs a sensitive column")
	case opt.Target == opt.Sensitive:
		return nil, fmt.Errorf("column %q cannot be both the target and the sensitive attribute", opt.Target)
	}
	t, err := readFile(path, nil)
	if err != nil {
		return nil, err
	}
	d, err := fromCSV(t, opt)
	if err != nil {
		return nil, err
	}
	d.Name, d.Source, d.Notes = filepath.Base(path), path, t.notes
	return d, nil
}

func fromCSV(t *table, opt CSVOptions) (*Dataset, error) {
	header := make([]string, len(t.cols))
	for j, c := range t.cols {
		header[j] = c.name
	}
	target := t.column(opt.Target)
	sensNames := sensitiveColumns(t, opt.Sensitive)
	sensCols := make([]*column, len(sensNames))
	for j, n := range sensNames {
		sensCols[j] = t.column(n)
	}
	type role struct {
		role, name string
		c          *column
	}
	roles := []role{{"target", opt.Target, target}}
	for j, n := range sensNames {
		roles = append(roles, role{"sensitive", n, sensCols[j]})
	}
	seen := map[string]bool{opt.Target: true}
	for k, m := range roles {
		if m.c == nil {
			return nil, errorAt(t.files[0], t.headerAt, -1, "", fmt.Errorf("%w: no %s column %q in the header (columns: %s)",
				ErrMissingColumn, m.role, m.name, quoteList(header)))
		}
		if k > 0 && seen[m.name] {
			if m.name == opt.Target {
				return nil, fmt.Errorf("column %q cannot be both the target and a sensitive column", m.name)
			}
			return nil, fmt.Errorf("--sensitive: column %q is listed twice", m.name)
		}
		seen[m.name] = true
	}
	sens := sensCols[0]
	isSens := func(c *column) bool { return slices.Contains(sensCols, c) }
	// The row index an export writes (RowColumn) is a key, never a feature.
	var available []string
	for _, c := range t.cols {
		if c != target && !isSens(c) && c.name != RowColumn {
			available = append(available, c.name)
		}
	}
	if len(available) == 0 {
		msg := "no feature columns besides the target and the sensitive one"
		if slices.Contains(header, RowColumn) {
			msg += " (" + RowColumn + ", the row index, is never a feature)"
		}
		return nil, errorAt(t.files[0], t.headerAt, -1, "", errors.New(msg))
	}
	groups := opt.Groups
	if len(sensCols) > 1 && groups.Levels == nil {
		groups.All = true // an intersection is in groups
	}
	if err := groups.check(); err != nil {
		return nil, err
	}
	if groups.asked() && opt.SensitivePositive != "" {
		return nil, fmt.Errorf("%w: --sensitive-positive codes one value against the rest as two groups; with --sensitive-levels or --group-map (or several --sensitive columns) the groups are given, so leave it out", ErrGroups)
	}
	keep, err := opt.Columns.keep(available, header, opt.Target, sensNames, t.files[0])
	if err != nil {
		return nil, err
	}
	// The columns in use: the target, the sensitive column and the features
	// kept. Only they are checked for empty cells.
	var used []*column
	for _, c := range t.cols {
		if c == target || isSens(c) || keep[c.name] {
			used = append(used, c)
		}
	}

	// Rows with an empty cell fail, or are dropped.
	empty := make([]int32, len(used)) // code of "" in each column, or -1
	for j, c := range used {
		empty[j] = -1
		if k, ok := c.index[""]; ok {
			empty[j] = k
		}
	}
	rows := make([]int, 0, t.rows())
rowLoop:
	for i := range t.rows() {
		for j, c := range used {
			if c.codes[i] == empty[j] {
				if opt.DropMissing {
					continue rowLoop
				}
				return nil, t.errAt(i, c, fmt.Errorf("%w: expected a value (--drop-missing drops rows with empty cells)", ErrEmptyCell))
			}
		}
		rows = append(rows, i)
	}
	dropped := t.rows() - len(rows)
	if len(rows) == 0 {
		return nil, &ParseError{File: t.files[0], Err: fmt.Errorf("%w: every one of the %d rows has an empty cell", ErrNoRows, dropped)}
	}

	d := &Dataset{Target: opt.Target, Sensitive: opt.Sensitive}
	if d.Y, d.LabelPositive, err = binaryColumn(t, target, rows, opt.Positive, "target", "--positive"); err != nil {
		return nil, err
	}
	if groups.asked() {
		if err := d.setGroups(t, rows, sensCols, groups); err != nil {
			return nil, err
		}
		d.binaryFromGroups("")
	} else if d.A, d.GroupPositive, err = binaryColumn(t, sens, rows, opt.SensitivePositive, "sensitive", "--sensitive-positive"); err != nil {
		return nil, err
	}

	var feats []feature
	for _, c := range used {
		if c == target || isSens(c) {
			continue
		}
		enc := numeric
		switch c.kind.Kind {
		case TextValue: // typed text stays categorical, whatever it looks like
			enc = oneHot
		case AnyValue:
			for _, k := range usedCodes(c, rows) {
				if _, ok, _ := number(c.levels[k]); !ok {
					enc = oneHot
					break
				}
			}
		}
		feats = append(feats, feature{col: c, enc: enc})
	}
	if _, err := d.finish(t, rows, feats); err != nil {
		return nil, err
	}
	if len(usedCodes(target, rows)) == 2 { // else every value but the positive one codes 0
		d.Schema.TargetNegative = otherValue(target, rows, d.LabelPositive)
	}
	switch {
	case d.Levels != nil:
		// Two named groups code as the column would; otherwise a = 0 is
		// every group but the one coded 1.
		if len(d.Levels) == 2 && d.Levels[1] != OtherLevel && len(sensCols) == 1 {
			d.Schema.SensitiveNegative = otherValue(sens, rows, d.GroupPositive)
		}
	case len(usedCodes(sens, rows)) == 2:
		d.Schema.SensitiveNegative = otherValue(sens, rows, d.GroupPositive)
	}
	d.ID = d.identity("", t.rows(), rows)
	return d, nil
}

// sensitiveColumns splits the sensitive setting into its columns: one
// column when the header has a column of that whole name or it holds no
// comma, else the names between commas, trimmed.
func sensitiveColumns(t *table, s string) []string {
	if t.column(s) != nil || !strings.Contains(s, ",") {
		return []string{s}
	}
	var out []string
	for n := range strings.SplitSeq(s, ",") {
		out = append(out, strings.TrimSpace(n))
	}
	return out
}

// usedCodes lists the codes of c that occur in rows, in order of first occurrence.
func usedCodes(c *column, rows []int) []int32 {
	seen := make([]bool, len(c.levels))
	var out []int32
	for _, i := range rows {
		if k := c.codes[i]; !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// otherValue is the value of the two-valued column c over rows that is not pos.
func otherValue(c *column, rows []int, pos string) string {
	for _, k := range usedCodes(c, rows) {
		if v := c.levels[k]; v != pos {
			return v
		}
	}
	return ""
}

// binaryColumn codes a two-valued column 0/1 over rows, or a column of
// more values with positive given, that value against the rest. Any other
// count of values is refused naming the flags that handle more.
func binaryColumn(t *table, c *column, rows []int, positive, role, flag string) ([]float64, string, error) {
	var vals []string
	for _, k := range usedCodes(c, rows) {
		vals = append(vals, c.levels[k])
	}
	sortValues(vals)
	if len(vals) > 2 && positive != "" {
		if !slices.Contains(vals, positive) {
			return nil, "", t.errColumn(c, fmt.Errorf("%w: %s %q is not a value of the %s column (values: %s)",
				ErrBadValue, flag, positive, role, quoteList(vals)))
		}
		// That value against the rest: a = 0 for every other value.
		out := make([]float64, len(rows))
		for r, i := range rows {
			if c.value(i) == positive {
				out[r] = 1
			}
		}
		return out, positive, nil
	}
	if len(vals) != 2 {
		var all []string // the non-empty values in the whole file
		for _, k := range usedCodes(c, allRows(t)) {
			if l := c.levels[k]; l != "" {
				all = append(all, l)
			}
		}
		if len(vals) == 1 && len(all) == 2 {
			// Dropping rows with empty cells emptied one of the two groups.
			gone := all[0]
			if gone == vals[0] {
				gone = all[1]
			}
			return nil, "", t.errColumn(c, fmt.Errorf("%w: no row with %s value %q is left after dropping %d rows with empty cells",
				ErrEmptyGroup, role, gone, t.rows()-len(rows)))
		}
		more := fmt.Sprintf("; give %s VALUE to code that value 1 and every other 0", flag)
		if role == "sensitive" {
			more = "; give --sensitive-levels all (or the VALUES kept) to compare the groups, or --sensitive-positive VALUE for that value against the rest"
		}
		if len(vals) < 2 {
			more = ""
		}
		return nil, "", t.errColumn(c, fmt.Errorf("%w in the %s column, found %d: %s%s", ErrNotBinary, role, len(vals), quoteList(vals), more))
	}
	pos := positive
	switch {
	case pos != "":
		if !slices.Contains(vals, pos) {
			return nil, "", t.errColumn(c, fmt.Errorf("%w: %s %q is not a value of the %s column (values: %s)",
				ErrBadValue, flag, pos, role, quoteList(vals)))
		}
	default:
		pos = positiveValue(vals)
	}
	out := make([]float64, len(rows))
	for r, i := range rows {
		if c.value(i) == pos {
			out[r] = 1
		}
	}
	return out, pos, nil
}

// positiveValue is the value coded 1 among the values of a binary column,
// sorted by sortValues: "1", "true" or "yes" (in any case) when present,
// else the last one.
func positiveValue(sorted []string) string {
	for _, want := range []string{"1", "true", "yes"} {
		if i := slices.IndexFunc(sorted, func(v string) bool { return strings.EqualFold(v, want) }); i >= 0 {
			return sorted[i]
		}
	}
	return sorted[len(sorted)-1]
}

// sortValues sorts numerically when every value is a number, else as text.
func sortValues(vals []string) {
	nums := make(map[string]float64, len(vals))
	for _, v := range vals {
		x, ok, err := number(v)
		if !ok || err != nil {
			slices.Sort(vals)
			return
		}
		nums[v] = x
	}
	slices.SortFunc(vals, func(a, b string) int {
		switch {
		case nums[a] < nums[b]:
			return -1
		case nums[a] > nums[b]:
			return 1
		}
		return strings.Compare(a, b)
	})
}

func allRows(t *table) []int {
	rows := make([]int, t.rows())
	for i := range rows {
		rows[i] = i
	}
	return rows
}
