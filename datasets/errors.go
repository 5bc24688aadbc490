package datasets

import (
	"errors"
	"fmt"
	"strings"

	"github.com/fpareto/fp/internal/printable"
)

// The kinds of data error; a *ParseError wraps one of them, so callers can
// test with errors.Is.
var (
	ErrEmptyFile     = errors.New("empty file")
	ErrNoRows        = errors.New("no data rows")
	ErrMissingColumn = errors.New("column not found")
	ErrFieldCount    = errors.New("wrong number of fields")
	ErrEmptyCell     = errors.New("empty cell")
	ErrNotNumber     = errors.New("expected a number")
	ErrNotFinite     = errors.New("expected a finite number")
	ErrTooLarge      = errors.New("number too large")
	ErrNotBinary     = errors.New("expected exactly two distinct values")
	ErrEmptyGroup    = errors.New("no rows left in a group")
	ErrBadValue      = errors.New("unexpected value")
	ErrBadType       = errors.New("wrong column type")
	ErrTooWide       = errors.New("too many categories to encode")
	ErrNotUTF8       = errors.New("text that is not UTF-8")
)

// A ParseError is a problem with a data file, located as a text editor shows
// it. It is modelled on encoding/csv.ParseError.
type ParseError struct {
	File   string // the file as it was named to fp
	Line   int    // 1-based line; 0 when the error concerns the whole file
	Row    int    // 1-based data row of a file without lines (Parquet); 0 otherwise
	Column int    // 1-based column (field) number; 0 when the error concerns a whole line or file
	Name   string // the column's name in the header, when known
	Err    error  // the cause, usually one of the Err* kinds above
}

func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ", line %d", e.Line)
	}
	if e.Row > 0 {
		fmt.Fprintf(&b, ", row %d", e.Row)
	}
	if e.Column > 0 {
		fmt.Fprintf(&b, ", column %d", e.Column)
	}
	if e.Name != "" { // a column's name, from the data: shown, never obeyed
		fmt.Fprintf(&b, " (%s)", printable.String(e.Name))
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *ParseError) Unwrap() error { return e.Err }

// quoteList formats values for an error message, at most ten of them.
func quoteList(vals []string) string {
	const most = 10
	var b strings.Builder
	for i, v := range vals {
		if i == most {
			fmt.Fprintf(&b, " and %d more", len(vals)-most)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", v)
	}
	return b.String()
}
