package datasets

import (
	"bytes"
	"encoding/csv"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// WriteCSV writes a built-in dataset so that its schema's encoder reads back
// every row's features exactly, each row under its index, and LoadCSV codes
// y and a as the dataset and takes the row index for no feature.
func TestWriteCSVReadsBack(t *testing.T) {
	for _, tc := range []struct{ name, preset string }{
		{"compas", ""}, {"adult-sex", PresetPaper}, {"adult-race", PresetFull},
	} {
		t.Run(tc.name+tc.preset, func(t *testing.T) {
			d, err := Load(tc.name, Options{Preset: tc.preset})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			n, err := d.WriteCSV(&b)
			if err != nil || n != d.N {
				t.Fatalf("%d rows of %d: %v", n, d.N, err)
			}
			rr, err := NewRowReader(bytes.NewReader(b.Bytes()), "export.csv", d.Name)
			if err != nil {
				t.Fatal(err)
			}
			want := slices.Concat([]string{RowColumn}, schemaColumnNames(&d.Schema), []string{d.Target, d.Sensitive})
			if !slices.Equal(rr.Header(), want) {
				t.Fatalf("header %q, want %q", rr.Header(), want)
			}
			enc, err := d.Schema.NewEncoder(rr)
			if err != nil {
				t.Fatal(err)
			}
			x := make([]float64, enc.Dim())
			for i := 0; ; i++ {
				fields, err := rr.Next()
				if err == io.EOF {
					if i != d.N {
						t.Fatalf("%d rows read back, want %d", i, d.N)
					}
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if string(fields[0]) != strconv.Itoa(i) {
					t.Fatalf("row %d has %s %q", i, RowColumn, fields[0])
				}
				if err := enc.Encode(fields, rr.Pos(), x); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(x, d.X[i*d.Dim:(i+1)*d.Dim]) {
					t.Fatalf("row %d encodes to %v, want %v", i, x, d.X[i*d.Dim:(i+1)*d.Dim])
				}
			}
			path := filepath.Join(t.TempDir(), "export.csv")
			if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			back, err := LoadCSV(path, CSVOptions{Target: d.Target, Sensitive: d.Sensitive})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(back.Y, d.Y) || !slices.Equal(back.A, d.A) || back.N != d.N {
				t.Errorf("LoadCSV codes y and a otherwise than %s", d.Name)
			}
			// (A CSV codes every level; Adult drops the first, so only the
			// source columns are compared.)
			if got, want := schemaColumnNames(&back.Schema), schemaColumnNames(&d.Schema); !slices.Equal(got, want) {
				t.Errorf("LoadCSV reads the features of %q, want %s's %q", got, d.Name, want)
			}
		})
	}
}

// WriteCodedCSVRows writes each asked row under its index with the coded
// values given, exactly, and the target and group codes: 0/1, or the group
// index with groups.
func TestWriteCodedCSVRows(t *testing.T) {
	for _, name := range []string{"compas", "compas-race4"} {
		t.Run(name, func(t *testing.T) {
			d, err := Load(name, Options{})
			if err != nil {
				t.Fatal(err)
			}
			s, err := d.Split(SplitOptions{TrainFraction: 0.7}, rand.New(rand.NewPCG(3, 4)))
			if err != nil {
				t.Fatal(err)
			}
			x := FitStandardizer(d, s.Train).Apply(d, s.Test)
			var b bytes.Buffer
			n, err := d.WriteCodedCSVRows(&b, s.Test, d.Columns, x)
			if err != nil || n != len(s.Test) {
				t.Fatalf("%d rows of %d: %v", n, len(s.Test), err)
			}
			recs, err := csv.NewReader(&b).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			want := slices.Concat([]string{RowColumn}, d.Columns, []string{d.Target, d.Sensitive})
			if !slices.Equal(recs[0], want) || len(recs) != 1+len(s.Test) {
				t.Fatalf("header %q and %d rows, want %q and %d", recs[0], len(recs)-1, want, len(s.Test))
			}
			for k, i := range s.Test {
				rec := recs[1+k]
				if rec[0] != strconv.Itoa(i) {
					t.Fatalf("row %d: %s %s, want %d", k, RowColumn, rec[0], i)
				}
				for j := range d.Dim {
					if v, err := strconv.ParseFloat(rec[1+j], 64); err != nil || v != x[k*d.Dim+j] {
						t.Fatalf("row %d, %s: %q, want %v", i, d.Columns[j], rec[1+j], x[k*d.Dim+j])
					}
				}
				group := int(d.A[i])
				if d.Levels != nil {
					group = d.Groups[i]
				}
				if rec[1+d.Dim] != strconv.Itoa(int(d.Y[i])) || rec[2+d.Dim] != strconv.Itoa(group) {
					t.Fatalf("row %d: y %s, a %s; want %v, %d", i, rec[1+d.Dim], rec[2+d.Dim], d.Y[i], group)
				}
			}
		})
	}
	d, err := Load("compas", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		rows    []int
		columns []string
		x       []float64
	}{
		{"too few values", []int{0, 1}, d.Columns, make([]float64, d.Dim)},
		{"row out of range", []int{d.N}, d.Columns, make([]float64, d.Dim)},
		{"a column named as the row index", []int{0}, []string{RowColumn}, []float64{0}},
		{"a column named as the target", []int{0}, []string{d.Target}, []float64{0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := d.WriteCodedCSVRows(io.Discard, tc.rows, tc.columns, tc.x); err == nil {
				t.Errorf("no error")
			}
		})
	}
}
