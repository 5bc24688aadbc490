package datasets

import (
	"github.com/fpareto/fp/internal/printable"

	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// RowSource is a data file read one row at a time: the names of its
// columns, then each row's cells as text, trimmed of surrounding white
// space, with an empty cell for a missing value. A CSV file (*RowReader) and
// a Parquet file (*ParquetReader) are both row sources, so the loaders, the
// encoder of fp predict and the reader of predictions treat them alike.
type RowSource interface {
	// File is the name the source reports in errors.
	File() string
	// Header lists the names of the columns, in file order.
	Header() []string
	// Types says what each column of Header holds.
	Types() []ColumnType
	// Next returns the cells of the next row, one per column of Header,
	// or io.EOF after the last. The cells are valid until the next call.
	Next() ([][]byte, error)
	// Pos locates the last row Next returned (before the first call: the
	// header).
	Pos() Position
	// Close releases the file; it is a no-op for a source read from an
	// io.Reader the caller owns.
	Close() error
}

// Position locates a row of a file in messages: by its line in a text
// file, by its 1-based number among the data rows in a file without lines
// (Parquet).
type Position struct {
	Line int
	Row  int
}

// ValueKind says how fp reads a column's values.
type ValueKind uint8

const (
	// AnyValue is a column of text (CSV): numeric when every value is a
	// number, else categorical.
	AnyValue ValueKind = iota
	// NumberValue is a column of numbers (Parquet INT32, INT64, FLOAT,
	// DOUBLE): always numeric.
	NumberValue
	// TextValue is a column of text or booleans (Parquet strings and
	// BOOLEAN): always categorical, even when the values look like numbers.
	TextValue
	// Unsupported is a column fp cannot read (Parquet INT96, fixed-length
	// byte arrays, nested and repeated fields); using it is an error.
	Unsupported
)

// ColumnType is the type of a source column.
type ColumnType struct {
	Kind ValueKind
	// Name is the file's own type for messages, e.g. "INT64" or
	// "BYTE_ARRAY (STRING)"; "" for a CSV column.
	Name string
	// Parquet is the Parquet type that holds the column's cells exactly
	// when they are written back out (a CSV column's cells are strings).
	Parquet ParquetType
}

// describe names the type for a message: `a column of type INT96`.
func (c ColumnType) describe() string {
	if c.Name == "" {
		return "a text column"
	}
	return "a column of type " + c.Name
}

// IsParquet reports whether path names a Parquet file, by its extension
// (.parquet, in any case); every other file is read as text.
func IsParquet(path string) bool {
	return strings.EqualFold(filepath.Ext(path), ".parquet")
}

// OpenRows opens the data file at path as a row source: a Parquet file
// when its name ends in .parquet, else a text file read as NewRowReader
// reads it for dataset ("" for a CSV file with a header row).
func OpenRows(path, dataset string) (RowSource, error) {
	if IsParquet(path) {
		return OpenParquet(path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	rr, err := NewRowReader(f, path, dataset)
	if err != nil {
		f.Close()
		return nil, err
	}
	rr.closer = f
	return rr, nil
}

// IndexNote says, for a header whose first name is empty (the row index
// pandas writes with DataFrame.to_csv unless index=False), that the
// column is read as a row index and left out; false for any other header.
// Training and prediction both leave such a column out and both say so.
func IndexNote(file string, header []string) (string, bool) {
	if len(header) < 2 || header[0] != "" {
		return "", false
	}
	return fmt.Sprintf("%s: column 1 has no name in the header: read as a row index (as pandas writes one) and left out; name it in the header to use it", file), true
}

// errorAt locates err at a row (or the header) of a source, and a column
// (0-based field; −1 for none).
func errorAt(file string, at Position, field int, name string, err error) *ParseError {
	return &ParseError{File: file, Line: at.Line, Row: at.Row, Column: field + 1, Name: name, Err: err}
}

// readTable reads every row of src into a table. With want nil it keeps
// every column (and rejects duplicate or empty names), but for a first
// column without a name: the row index pandas writes (DataFrame.to_csv
// without index=False), which it leaves out with a note, as a reader that
// wants only named columns (fp predict) does; otherwise it keeps the first
// column of each wanted name. A kept column of a type fp cannot read is an
// error.
func readTable(src RowSource, want []string) (*table, error) {
	file, header, types := src.File(), src.Header(), src.Types()
	at := src.Pos()
	t := &table{files: []string{file}, header: header, headerAt: at, byRow: at.Line == 0}
	keep := make([]int, 0, len(header)) // header position of each kept column
	seen := map[string]int{}
	for i, h := range header {
		if want == nil {
			if note, ok := IndexNote(file, header); ok && i == 0 {
				t.notes = append(t.notes, note)
				continue
			}
			if h == "" {
				return nil, errorAt(file, at, i, "", errors.New("empty column name in the header: give the column a name (only the first column, a row index, may have none)"))
			}
			if j, dup := seen[h]; dup {
				return nil, errorAt(file, at, i, h, fmt.Errorf("duplicate column name (also column %d)", j+1))
			}
		} else if _, dup := seen[h]; dup || !slices.Contains(want, h) {
			seen[h] = i
			continue
		}
		seen[h] = i
		if types[i].Kind == Unsupported {
			return nil, errorAt(file, at, i, h, fmt.Errorf("%w: %s, expected numbers (INT32, INT64, FLOAT, DOUBLE), strings or booleans",
				ErrBadType, types[i].describe()))
		}
		keep = append(keep, i)
		c := newColumn(h, i+1)
		c.kind = types[i]
		t.cols = append(t.cols, c)
	}
	for _, w := range want {
		if _, ok := seen[w]; !ok {
			return nil, errorAt(file, at, -1, "", fmt.Errorf("%w: no column %q in the header (columns: %s)",
				ErrMissingColumn, w, strings.Join(printable.Strings(header), ", ")))
		}
	}
	for {
		fields, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		for j, i := range keep {
			t.cols[j].addBytes(fields[i])
		}
		p := src.Pos()
		t.lines = append(t.lines, int32(p.Line+p.Row))
	}
	if t.rows() == 0 {
		return nil, &ParseError{File: file, Err: fmt.Errorf("%w: the file has a header but no rows", ErrNoRows)}
	}
	return t, nil
}

// readFile reads the data file at path (Parquet or CSV, by its extension)
// into a table, as readTable.
func readFile(path string, want []string) (*table, error) {
	src, err := OpenRows(path, "")
	if err != nil {
		return nil, err
	}
	defer src.Close()
	return readTable(src, want)
}
