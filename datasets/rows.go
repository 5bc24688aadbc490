package datasets

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// OriginalFile is the published file a built-in dataset's rows come from
// (the training rows for Adult), or "" for a name that is not built in.
func OriginalFile(name string) string {
	switch name {
	case "compas":
		return compasFile
	case "adult-sex", "adult-race":
		return adultDataFile
	}
	return ""
}

// RowReader streams the rows of a data file one at a time, in constant
// memory, splitting each into trimmed fields. It reads the same files as
// the loaders: for Adult (dataset "adult-sex" or "adult-race") a file with
// no header whose fields are named as in adult.data (or, when its first
// field is "age" or RowColumn, a CSV of Adult's columns with a header); for anything else a
// CSV file with a header row, where the first column of a name wins (the
// COMPAS file repeats some names). Blank lines hold no row.
//
// Lines without a double quote are split on commas directly, which is
// several times faster than encoding/csv; from the first line with a quote
// on, the rest of the file is read by encoding/csv.
type RowReader struct {
	file   string
	header []string
	adult  bool

	br     *bufio.Reader
	long   []byte // a line longer than br's buffer
	line   int    // 1-based line of the last row returned
	fields [][]byte

	pending bool // fields holds a row read but not returned yet

	cr     *csv.Reader // set once a quote is seen
	crBase int         // lines read before cr took over

	types  []ColumnType // all AnyValue
	closer io.Closer    // the file OpenRows opened, or nil
}

// NewRowReader reads the header (if the format has one) from r; file names
// r in errors.
func NewRowReader(r io.Reader, file, dataset string) (*RowReader, error) {
	rr := &RowReader{file: file, br: bufio.NewReaderSize(r, 1<<16)}
	if err := skipBOM(rr.br); err != nil {
		return nil, &ParseError{File: file, Err: err}
	}
	if dataset == "adult-sex" || dataset == "adult-race" {
		// adult.data has no header; a CSV of its columns with a header row
		// (its first field is "age", or RowColumn as an export writes it,
		// never a number) is read as a CSV.
		rr.adult = true
		first, err := rr.Next()
		if err == io.EOF {
			return nil, &ParseError{File: file, Err: fmt.Errorf("%w: expected rows of %d comma-separated fields", ErrEmptyFile, len(adultFields))}
		}
		if err != nil {
			return nil, err
		}
		if f := string(first[0]); f != adultFields[0] && f != RowColumn {
			rr.header = slices.Clone(adultFields)
			rr.pending = true
			return rr, nil
		}
		rr.adult = false
		rr.setHeader(first)
		return rr, nil
	}
	h, err := rr.Next()
	if err == io.EOF {
		return nil, &ParseError{File: file, Err: fmt.Errorf("%w: expected a header row", ErrEmptyFile)}
	}
	if err != nil {
		return nil, err
	}
	rr.setHeader(h)
	return rr, nil
}

func (r *RowReader) setHeader(h [][]byte) {
	r.header = make([]string, len(h))
	for i, f := range h {
		r.header[i] = string(f)
	}
}

// Header lists the names of the fields of every row.
func (r *RowReader) Header() []string { return r.header }

// Types gives every column the type AnyValue: a text file says nothing of
// its columns' types.
func (r *RowReader) Types() []ColumnType {
	if len(r.types) != len(r.header) {
		r.types = make([]ColumnType, len(r.header))
	}
	return r.types
}

// Pos is the line of the last row Next returned.
func (r *RowReader) Pos() Position { return Position{Line: r.line} }

// Close closes the file OpenRows opened; a reader made by NewRowReader
// leaves its io.Reader to the caller.
func (r *RowReader) Close() error {
	if r.closer == nil {
		return nil
	}
	err := r.closer.Close()
	r.closer = nil
	return err
}

// Line is the 1-based line of the last row Next returned.
func (r *RowReader) Line() int { return r.line }

// File is the name the reader reports in errors.
func (r *RowReader) File() string { return r.file }

// Next returns the fields of the next row, trimmed of surrounding white
// space, or io.EOF after the last. The fields are valid until the next call.
func (r *RowReader) Next() ([][]byte, error) {
	if r.pending { // the first row, read to look for a header
		r.pending = false
		return r.fields, r.checkCount()
	}
	if r.cr != nil {
		return r.nextCSV()
	}
	for {
		b, err := r.readLine()
		if err != nil {
			return nil, err
		}
		r.line++
		b = bytes.TrimRight(b, "\r\n")
		if len(bytes.TrimSpace(b)) == 0 || (r.adult && r.line == 1 && b[0] == '|') {
			continue
		}
		if !r.adult && bytes.IndexByte(b, '"') >= 0 {
			// Hand this line and the rest to encoding/csv.
			r.crBase = r.line - 1
			rest := append(append([]byte(nil), b...), '\n')
			r.cr = csv.NewReader(io.MultiReader(bytes.NewReader(rest), r.br))
			r.cr.FieldsPerRecord = -1
			r.cr.ReuseRecord = true
			return r.nextCSV()
		}
		r.fields = r.fields[:0]
		for {
			i := bytes.IndexByte(b, ',')
			if i < 0 {
				r.fields = append(r.fields, bytes.TrimSpace(b))
				break
			}
			r.fields = append(r.fields, bytes.TrimSpace(b[:i]))
			b = b[i+1:]
		}
		return r.fields, r.checkCount()
	}
}

// readLine returns the next line, with its newline, or io.EOF.
func (r *RowReader) readLine() ([]byte, error) {
	b, err := r.br.ReadSlice('\n')
	if err == nil || (err == io.EOF && len(b) > 0) {
		return b, nil
	}
	if err != bufio.ErrBufferFull {
		if err != io.EOF {
			err = &ParseError{File: r.file, Line: r.line + 1, Err: err}
		}
		return nil, err
	}
	r.long = append(r.long[:0], b...)
	for err == bufio.ErrBufferFull {
		b, err = r.br.ReadSlice('\n')
		r.long = append(r.long, b...)
	}
	if err != nil && err != io.EOF {
		return nil, &ParseError{File: r.file, Line: r.line + 1, Err: err}
	}
	return r.long, nil
}

func (r *RowReader) nextCSV() ([][]byte, error) {
	rec, err := r.cr.Read()
	if err == io.EOF {
		return nil, err
	}
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return nil, &ParseError{File: r.file, Line: r.crBase + pe.Line, Err: fmt.Errorf("character %d: %w", pe.Column, pe.Err)}
		}
		return nil, &ParseError{File: r.file, Err: err}
	}
	line, _ := r.cr.FieldPos(0)
	r.line = r.crBase + line
	r.fields = r.fields[:0]
	for _, f := range rec {
		r.fields = append(r.fields, []byte(strings.TrimSpace(f)))
	}
	return r.fields, r.checkCount()
}

// checkCount checks a row's fields: as many as the header has, and each
// UTF-8 text (checkUTF8).
func (r *RowReader) checkCount() error {
	if err := r.checkUTF8(); err != nil {
		return err
	}
	if r.header != nil && len(r.fields) != len(r.header) {
		what := "as in the header"
		if r.adult {
			what = "as in adult.data"
		}
		return &ParseError{File: r.file, Line: r.line, Err: fmt.Errorf("%w: expected %d fields %s, got %d",
			ErrFieldCount, len(r.header), what, len(r.fields))}
	}
	return nil
}

// checkUTF8 refuses a field that is not UTF-8 text. fp reads text files
// as UTF-8, training and prediction alike: a file saved in another
// encoding (Latin-1's "région") would otherwise train on names and
// values with U+FFFD in them that no later read of the same file matches.
func (r *RowReader) checkUTF8() error {
	for j, f := range r.fields {
		if utf8.Valid(f) {
			continue
		}
		bad := 0
		for bad < len(f) {
			c, n := utf8.DecodeRune(f[bad:])
			if c == utf8.RuneError && n <= 1 {
				break
			}
			bad += n
		}
		e := &ParseError{File: r.file, Line: r.line, Column: j + 1,
			Err: fmt.Errorf("%w: byte 0x%02X at byte %d of the field; save the file as UTF-8 (from Latin-1: iconv -f latin1 -t utf-8)", ErrNotUTF8, f[bad], bad+1)}
		if j < len(r.header) {
			e.Name = r.header[j]
		}
		return e
	}
	return nil
}

// ErrUnknownLevel is the kind of error for a category the network has not
// seen in training.
var ErrUnknownLevel = errors.New("unseen category")

// Encoder turns the fields of raw rows into the encoded feature vector a
// Schema describes.
type Encoder struct {
	file string
	dim  int
	cols []encColumn
}

type encColumn struct {
	name  string
	field int // 0-based field of the row
	off   int // first entry of x it writes
	cat   bool
	pos   map[string]int // raw value → entry of x, −1 for the dropped level
	width int            // entries of x it owns
	known []string
}

// NewEncoder locates the schema's columns among the columns of a source
// (the first column of a name wins). A missing column, or a column of a
// typed file (Parquet) whose type is not the one the network reads (text
// where it reads a number, or a type fp cannot read), is an error naming
// file and column.
func (s *Schema) NewEncoder(src RowSource) (*Encoder, error) {
	file, header, types := src.File(), src.Header(), src.Types()
	e := &Encoder{file: file}
	for _, c := range s.Columns {
		field := slices.Index(header, c.Name)
		if field < 0 {
			return nil, errorAt(file, src.Pos(), -1, "", fmt.Errorf("%w: no column %q, which the network reads (it reads %s)",
				ErrMissingColumn, c.Name, quoteEvery(schemaColumnNames(s))))
		}
		ec := encColumn{name: c.Name, field: field, off: e.dim, cat: c.Kind == KindCategorical}
		switch typ := types[field]; {
		case typ.Kind == Unsupported:
			return nil, errorAt(file, src.Pos(), field, c.Name, fmt.Errorf("%w: %s, which fp cannot read; the network reads it as %s",
				ErrBadType, typ.describe(), c.Kind))
		case typ.Kind == TextValue && !ec.cat:
			return nil, errorAt(file, src.Pos(), field, c.Name, fmt.Errorf("%w: %s, expected numbers (INT32, INT64, FLOAT or DOUBLE): the network reads it as numeric",
				ErrBadType, typ.describe()))
		}
		if !ec.cat {
			ec.width = 1
		} else {
			ec.pos = map[string]int{}
			k := 0
			for _, l := range c.Levels {
				if l == c.Dropped && c.Dropped != "" {
					ec.pos[l] = -1
					continue
				}
				ec.pos[l] = e.dim + k
				k++
			}
			for from, to := range c.Rename {
				if p, ok := ec.pos[to]; ok {
					ec.pos[from] = p
				}
			}
			ec.width = k
			ec.known = c.Levels
		}
		e.dim += ec.width
		e.cols = append(e.cols, ec)
	}
	return e, nil
}

func schemaColumnNames(s *Schema) []string {
	out := make([]string, len(s.Columns))
	for i, c := range s.Columns {
		out[i] = c.Name
	}
	return out
}

// Dim is the length of an encoded row.
func (e *Encoder) Dim() int { return e.dim }

// Encode writes the encoding of one row's fields into x[:Dim]; at locates
// the row in errors: an empty cell, a value that is not a finite number in
// a numeric column, a category the network has not seen.
func (e *Encoder) Encode(fields [][]byte, at Position, x []float64) error {
	for i := range e.cols {
		c := &e.cols[i]
		v := fields[c.field]
		if len(v) == 0 {
			want := "a number"
			if c.cat {
				want = "a category"
			}
			return e.err(at, c, fmt.Errorf("%w: expected %s", ErrEmptyCell, want))
		}
		if !c.cat {
			f, err := fastNumber(v)
			if err != nil {
				return e.err(at, c, err)
			}
			x[c.off] = f
			continue
		}
		p, ok := c.pos[string(v)]
		if !ok {
			return e.err(at, c, fmt.Errorf("%w %q: the network knows %s", ErrUnknownLevel, v, quoteEvery(c.known)))
		}
		clear(x[c.off : c.off+c.width])
		if p >= 0 {
			x[p] = 1
		}
	}
	return nil
}

func (e *Encoder) err(at Position, c *encColumn, err error) error {
	return errorAt(e.file, at, c.field, c.name, err)
}

// fastNumber reads a numeric cell exactly as the loaders do
// (strconv.ParseFloat, finite values only). Plain decimals of at most 15
// digits take a fast path: their digits and the power of ten are exact
// float64 values, so one correctly rounded division gives ParseFloat's
// result.
func fastNumber(b []byte) (float64, error) {
	i, neg := 0, false
	if b[0] == '-' || b[0] == '+' {
		neg, i = b[0] == '-', 1
	}
	var mant uint64
	digits, frac, dot := 0, 0, false
scan:
	for ; i < len(b); i++ {
		switch c := b[i]; {
		case c >= '0' && c <= '9':
			mant = mant*10 + uint64(c-'0')
			digits++
			if dot {
				frac++
			}
		case c == '.' && !dot:
			dot = true
		default:
			break scan
		}
	}
	if i == len(b) && digits > 0 && digits <= 15 {
		v := float64(mant) / exactPow10[frac]
		if neg {
			v = -v
		}
		return v, nil
	}
	s := string(b)
	v, ok, err := number(s)
	switch {
	case !ok:
		return 0, fmt.Errorf("%w, got %q", ErrNotNumber, s)
	case err != nil:
		return 0, err
	case math.IsNaN(v):
		return 0, fmt.Errorf("%w, got %q", ErrNotFinite, s)
	}
	return v, nil
}

var exactPow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// quoteEvery formats every value for an error message.
func quoteEvery(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}
