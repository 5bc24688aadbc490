package datasets

import (
	"errors"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Spreadsheet programs begin a CSV with a UTF-8 byte-order mark and quote
// the header cells: each reader of CSV files (training data, rows to
// score, predictions to audit) reads such a file as it reads the same file
// without the mark, and names the first column without it.
func TestReadersSkipByteOrderMark(t *testing.T) {
	const bom = "\ufeff"
	bodies := []struct{ name, text string }{
		{"quoted header", `"x","y","g"` + "\n1,0,u\n2,1,v\n3,1,u\n"},
		{"quoted first cell", `"x",y,g` + "\n1,0,u\n2,1,v\n3,1,u\n"},
		{"plain header", "x,y,g\n1,0,u\n2,1,v\n3,1,u\n"},
		{"quoted cells in rows", "x,y,g\n\"1\",0,u\n2,1,\"v\"\n3,1,u\n"},
	}
	for _, b := range bodies {
		t.Run(b.name, func(t *testing.T) {
			plain, err := LoadCSV(writeCSV(t, b.text), basic)
			if err != nil {
				t.Fatal(err)
			}
			path := writeCSV(t, bom+b.text)
			marked, err := LoadCSV(path, basic)
			if err != nil {
				t.Fatalf("training data: %v", err)
			}
			plain.Source, plain.Name = marked.Source, marked.Name
			if !reflect.DeepEqual(plain, marked) {
				t.Errorf("training data: read as\n%+v\nwithout the mark\n%+v", marked, plain)
			}

			r, err := NewRowReader(strings.NewReader(bom+b.text), "f.csv", "")
			if err != nil {
				t.Fatalf("rows to score: %v", err)
			}
			if !slices.Equal(r.Header(), []string{"x", "y", "g"}) {
				t.Errorf("rows to score: header %q", r.Header())
			}
			var first []string
			for {
				f, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("rows to score: %v", err)
				}
				first = append(first, string(f[0]))
			}
			if !slices.Equal(first, []string{"1", "2", "3"}) {
				t.Errorf("rows to score: first fields %q", first)
			}

			p, err := ReadPredictions(path, PredictionColumns{Logit: "x", Label: "y", Group: "g"})
			if err != nil {
				t.Fatalf("predictions: %v", err)
			}
			if !slices.Equal(p.Z, []float64{1, 2, 3}) {
				t.Errorf("predictions: logits %v", p.Z)
			}
		})
	}
}

// A file of a byte-order mark alone, or shorter than one, is an empty file.
func TestByteOrderMarkAloneIsEmpty(t *testing.T) {
	for _, text := range []string{"\ufeff", "\ufeff\n", "x"} {
		_, err := LoadCSV(writeCSV(t, text), basic)
		if text == "x" {
			if err == nil || strings.Contains(err.Error(), "EOF") {
				t.Errorf("%q: err = %v, want a missing column", text, err)
			}
			continue
		}
		if !errors.Is(err, ErrEmptyFile) {
			t.Errorf("%q: err = %v, want %v", text, err, ErrEmptyFile)
		}
		if _, err := NewRowReader(strings.NewReader(text), "f.csv", ""); !errors.Is(err, ErrEmptyFile) {
			t.Errorf("rows of %q: err = %v, want %v", text, err, ErrEmptyFile)
		}
	}
}
