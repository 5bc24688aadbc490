package datasets

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// column is one column of a source file, dictionary-encoded: row i holds
// levels[codes[i]]. Files repeat few distinct values, so parsing each level
// once keeps loading fast.
type column struct {
	name   string
	field  int // 1-based position in the source file
	levels []string
	codes  []int32
	index  map[string]int32
	kind   ColumnType // the type the source gives the column
}

func newColumn(name string, field int) *column {
	return &column{name: name, field: field, index: map[string]int32{}}
}

func (c *column) add(v string) {
	k, ok := c.index[v]
	if !ok {
		k = int32(len(c.levels))
		v = strings.Clone(v) // v may point into a whole line
		c.levels = append(c.levels, v)
		c.index[v] = k
	}
	c.codes = append(c.codes, k)
}

// addBytes is add for a cell that is valid only until the next row.
func (c *column) addBytes(v []byte) {
	k, ok := c.index[string(v)]
	if !ok {
		k = int32(len(c.levels))
		s := string(v)
		c.levels = append(c.levels, s)
		c.index[s] = k
	}
	c.codes = append(c.codes, k)
}

func (c *column) value(i int) string { return c.levels[c.codes[i]] }

// table holds the columns fp reads from one or more source files.
type table struct {
	files  []string // names used in error messages
	header []string // the header of a file with one, trimmed; nil for other files
	src    []uint8  // file of each row, an index into files; nil when there is one file
	lines  []int32  // 1-based line of each row in its file (its row number when byRow)
	cols   []*column

	headerAt Position // where the header is, for messages about it
	byRow    bool     // the file has rows, not lines (Parquet)
	// notes say, one line each, what was made of the file beyond its
	// columns (an unnamed index column left out).
	notes []string
}

func (t *table) rows() int { return len(t.lines) }

// column returns the first column with the name, or nil.
func (t *table) column(name string) *column {
	for _, c := range t.cols {
		if c.name == name {
			return c
		}
	}
	return nil
}

func (t *table) file(row int) string {
	if t.src == nil {
		return t.files[0]
	}
	return t.files[t.src[row]]
}

// errAt locates err at a cell.
func (t *table) errAt(row int, c *column, err error) error {
	pe := &ParseError{File: t.file(row), Line: int(t.lines[row]), Column: c.field, Name: c.name, Err: err}
	if t.byRow {
		pe.Line, pe.Row = 0, int(t.lines[row])
	}
	return pe
}

// errColumn locates err at a whole column.
func (t *table) errColumn(c *column, err error) error {
	return &ParseError{File: strings.Join(t.files, ", "), Column: c.field, Name: c.name, Err: err}
}

// concat appends the rows of u (which has the same columns) to those of t.
func concat(t, u *table) *table {
	out := &table{files: append(append([]string{}, t.files...), u.files...)}
	for _, c := range t.cols {
		out.cols = append(out.cols, newColumn(c.name, c.field))
	}
	for k, part := range []*table{t, u} {
		for i := range part.rows() {
			for j, c := range part.cols {
				out.cols[j].add(c.value(i))
			}
			out.lines = append(out.lines, part.lines[i])
			s := uint8(k * len(t.files))
			if part.src != nil {
				s += part.src[i]
			}
			out.src = append(out.src, s)
		}
	}
	return out
}

// adultFields are the fields of adult.data and adult.test, in file order.
var adultFields = []string{"age", "workclass", "fnlwgt", "education", "education-num",
	"marital-status", "occupation", "relationship", "race", "sex", "capital-gain",
	"capital-loss", "hours-per-week", "native-country", "income"}

// readAdult reads adult.data or adult.test: no header, fields separated by
// ", ". A first line starting with "|" (adult.test has one) and blank lines
// are skipped. fnlwgt, a sampling weight fp never uses, is not kept.
func readAdult(r io.Reader, file string) (*table, error) {
	t := &table{files: []string{file}}
	for i, name := range adultFields {
		if name != "fnlwgt" {
			t.cols = append(t.cols, newColumn(name, i+1))
		}
	}
	sc := bufio.NewScanner(r)
	line := 0
	fields := make([]string, 0, len(adultFields))
	for sc.Scan() {
		line++
		s := sc.Text()
		if strings.TrimSpace(s) == "" || (line == 1 && strings.HasPrefix(s, "|")) {
			continue
		}
		fields = fields[:0]
		for f := range strings.SplitSeq(s, ",") {
			fields = append(fields, strings.TrimSpace(f))
		}
		if len(fields) != len(adultFields) {
			return nil, &ParseError{File: file, Line: line, Err: fmt.Errorf("%w: expected %d comma-separated fields, got %d",
				ErrFieldCount, len(adultFields), len(fields))}
		}
		k := 0
		for i, f := range fields {
			if i != 2 {
				t.cols[k].add(f)
				k++
			}
		}
		t.lines = append(t.lines, int32(line))
	}
	if err := sc.Err(); err != nil {
		return nil, &ParseError{File: file, Line: line + 1, Err: err}
	}
	if line == 0 {
		return nil, &ParseError{File: file, Err: fmt.Errorf("%w: expected rows of %d comma-separated fields", ErrEmptyFile, len(adultFields))}
	}
	if t.rows() == 0 {
		return nil, &ParseError{File: file, Err: ErrNoRows}
	}
	return t, nil
}

// skipBOM reads past a UTF-8 byte-order mark at the start of br, which
// spreadsheet programs write. It must go before the CSV reader sees the
// first field: after it a quoted first header cell would be a bare quote.
func skipBOM(br *bufio.Reader) error {
	b, err := br.Peek(3)
	switch {
	case string(b) == "\ufeff":
		_, err = br.Discard(3)
		return err
	case err == io.EOF: // shorter than a mark: the readers say what is missing
		return nil
	}
	return err
}

// readCSV reads a CSV file with a header row, as readTable.
func readCSV(r io.Reader, file string, want []string) (*table, error) {
	rr, err := NewRowReader(r, file, "")
	if err != nil {
		return nil, err
	}
	return readTable(rr, want)
}

// MaxMagnitude is the largest magnitude of a number in a data cell, 2⁵¹¹
// (about 6.7e153): its square is finite, with room for a factor of 4, so
// a column's standardization never overflows (FitStandardizer). Larger
// finite values are refused, naming the cell, rather than turned into an
// infinite statistic.
const MaxMagnitude = 0x1p511

// number parses a numeric cell. ok is false when s is not a number at all;
// err is set when it is a number but not a finite one, or one above
// MaxMagnitude.
func number(s string) (v float64, ok bool, err error) {
	v, perr := strconv.ParseFloat(s, 64)
	if perr != nil && !errors.Is(perr, strconv.ErrRange) {
		return 0, false, nil
	}
	if perr != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, true, fmt.Errorf("%w, got %q", ErrNotFinite, s)
	}
	if math.Abs(v) > MaxMagnitude {
		return 0, true, fmt.Errorf("%w: expected a magnitude at most %.2g (its square must be a finite float64), got %q", ErrTooLarge, MaxMagnitude, s)
	}
	return v, true, nil
}

// numbers parses each level of c once.
func numbers(c *column) (vals []float64, errs []error) {
	vals = make([]float64, len(c.levels))
	errs = make([]error, len(c.levels))
	for k, s := range c.levels {
		v, ok, err := number(s)
		switch {
		case s == "":
			errs[k] = fmt.Errorf("%w: expected a number", ErrEmptyCell)
		case !ok:
			errs[k] = fmt.Errorf("%w, got %q", ErrNotNumber, s)
		case err != nil:
			errs[k] = err
		}
		vals[k] = v
	}
	return vals, errs
}
