package datasets

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fpareto/fp/internal/fuzzcheck"
	"github.com/parquet-go/parquet-go"
)

// The fuzz targets of the data readers. Each reads one input under the
// bounds of fuzzcheck (no panic, no hang, bounded memory, one-line errors)
// and checks what a successful read promises. Their seed corpora are the
// f.Add calls and testdata/fuzz/<target>; go test runs both.

// checkDataset checks what a loaded dataset promises: the shapes agree,
// y and a are 0/1 codes, and every feature is finite and within
// MaxMagnitude.
func checkDataset(t *testing.T, d *Dataset) {
	t.Helper()
	if d.N <= 0 || len(d.Y) != d.N || len(d.A) != d.N || len(d.X) != d.N*d.Dim || len(d.Columns) != d.Dim {
		t.Fatalf("shapes: N %d, Dim %d, %d labels, %d sensitive codes, %d features, %d column names",
			d.N, d.Dim, len(d.Y), len(d.A), len(d.X), len(d.Columns))
	}
	for i := range d.N {
		if (d.Y[i] != 0 && d.Y[i] != 1) || (d.A[i] != 0 && d.A[i] != 1) {
			t.Fatalf("row %d: y = %v, a = %v, want 0/1 codes", i, d.Y[i], d.A[i])
		}
	}
	for k, v := range d.X {
		if math.IsNaN(v) || math.Abs(v) > MaxMagnitude {
			t.Fatalf("feature %d of row %d is %v", k%d.Dim, k/d.Dim, v)
		}
	}
	if d.Levels != nil {
		if len(d.Groups) != d.N || len(d.Levels) < 2 {
			t.Fatalf("%d groups for %d rows, %d levels", len(d.Groups), d.N, len(d.Levels))
		}
		for i, g := range d.Groups {
			if g < 0 || g >= len(d.Levels) {
				t.Fatalf("row %d: group %d of %d levels", i, g, len(d.Levels))
			}
		}
	}
}

// FuzzCSVReader loads a CSV file as fp train --csv does, with its first
// column as the target and its second as the sensitive attribute, every
// other column a feature.
func FuzzCSVReader(f *testing.F) {
	for _, s := range []string{
		"y,a,x\n0,0,1.5\n1,1,2\n0,1,3\n1,0,4\n",
		"y,a,x,c\n0,m,1,red\n1,f,2,blue\n1,m,,red\n0,f,4,green\n",
		"\ufeffy,a,x\r\n0,0,1\r\n1,1,2\r\n",
		"y,a,\"x,q\"\n0,0,\"1\"\n1,1,\"a \"\"b\"\"\"\n",
		"y,a,x\n0,0,NaN\n1,1,1e400\n",
		"y,a,x\n0,0,1\n1,1\n",
		"y,a,y\n0,0,1\n",
		"y,a,x\n0,0,1\n0,1,2\n",
		"y,a,x\n",
		"",
		"y,a,x\n0,0,\"1\n",
		"y,a,x\n0,0,0x1p600\n1,1,-0x1p511\n",
		"y,a,x\n1,\x1b[31m,1\n0,b,2\n",
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, dropMissing bool) {
		fuzzcheck.Run(t, len(data), func() error {
			tb, err := readCSV(bytes.NewReader(data), "fuzz.csv", nil)
			if err != nil {
				return err
			}
			if len(tb.cols) < 2 {
				return nil
			}
			d, err := fromCSV(tb, CSVOptions{Target: tb.cols[0].name, Sensitive: tb.cols[1].name, DropMissing: dropMissing})
			if err != nil {
				return err
			}
			checkDataset(t, d)
			return nil
		})
	})
}

// FuzzRowReader streams a file as fp predict does: the rows of a CSV file
// (or of Adult's headerless format), each with as many fields as the
// header, encoded by the schema of a network that reads the first column as
// a number and the second as a category.
func FuzzRowReader(f *testing.F) {
	for _, s := range []string{
		"x,c\n1,a\n2.5,b\n-3,a\n",
		"x,c\n1,a\n\n  2 , b \r\n",
		"x,c\n\"1\",\"a\"\n\"2\",\"b,\"\"c\"\"\"\n",
		"x,c\n1,a\n2\n",
		"x,c\n1,d\n",
		"x,c\nabc,a\n",
		"x,c\n1e999,a\n",
		"x,c\n,a\n",
		"x,c\n1,a\n\"2,b\n",
		"39, State-gov, 77516, Bachelors, 13, Never-married, Adm-clerical, Not-in-family, White, Male, 2174, 0, 40, United-States, <=50K\n",
		"|1x3 Cross validator\n25, Private, 226802, 11th, 7, Never-married, Machine-op-inspct, Own-child, Black, Male, 0, 0, 40, United-States, <=50K.\n",
		"age,sex\n39,Male\n",
		"",
		"\ufeff",
		"x,c\n" + strings.Repeat("7", 70000) + ",a\n",
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, adult bool) {
		dataset := ""
		if adult {
			dataset = "adult-sex"
		}
		fuzzcheck.Run(t, len(data), func() error {
			rr, err := NewRowReader(bytes.NewReader(data), "fuzz.csv", dataset)
			if err != nil {
				return err
			}
			header := rr.Header()
			var enc *Encoder
			if len(header) >= 2 && header[0] != header[1] {
				s := &Schema{Columns: []SourceColumn{{Name: header[0], Kind: KindNumeric},
					{Name: header[1], Kind: KindCategorical, Levels: []string{"a", "b"}, Dropped: "a"}}}
				if enc, err = s.NewEncoder(rr); err != nil {
					return err
				}
			}
			x := make([]float64, 2)
			line := 0
			for {
				fields, err := rr.Next()
				if err == io.EOF {
					return nil
				}
				if err != nil {
					return err
				}
				if len(fields) != len(header) {
					t.Fatalf("line %d: %d fields under a header of %d", rr.Line(), len(fields), len(header))
				}
				if rr.Line() <= line {
					t.Fatalf("line %d after line %d", rr.Line(), line)
				}
				line = rr.Line()
				if enc == nil {
					continue
				}
				if err := enc.Encode(fields, rr.Pos(), x); err != nil {
					fuzzcheck.OneLine(t, err)
					continue
				}
				if math.IsNaN(x[0]) || math.IsInf(x[0], 0) || (x[1] != 0 && x[1] != 1) {
					t.Fatalf("line %d encodes as %v", line, x)
				}
			}
		})
	})
}

// FuzzNumberParser checks the two readers of a numeric cell against each
// other and against their contract: fastNumber (fp predict's) gives
// number's value bit for bit and refuses exactly what number refuses, and
// what they accept is finite and at most MaxMagnitude.
func FuzzNumberParser(f *testing.F) {
	for _, s := range []string{"0", "-0", "+5", "1.", ".5", "-.5", "0.1", "123456789012345", "1234567890123456",
		"0.000000000000001", "1e3", "1E-3", "0x1p-2", "0x1p511", "0x1p512", "1e154", "6.7e153", "Inf", "-inf",
		"NaN", "nan", "1e400", "1e-400", "1_000", "0x_1p3", "--1", "+-1", "1.2.3", " 1", "1 ", "", "-", ".", "٣",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fuzzcheck.Run(t, len(s), func() error {
			v, ok, err := number(s)
			if ok && err == nil && (math.IsNaN(v) || math.Abs(v) > MaxMagnitude) {
				t.Fatalf("number(%q) = %v without an error", s, v)
			}
			if err != nil {
				fuzzcheck.OneLine(t, err)
			}
			if s == "" {
				return nil // a cell is checked for emptiness before it is parsed
			}
			fv, ferr := fastNumber([]byte(s))
			switch {
			case ok && err == nil:
				if ferr != nil || math.Float64bits(fv) != math.Float64bits(v) {
					t.Fatalf("fastNumber(%q) = %v, %v; number gives %v", s, fv, ferr, v)
				}
			case ferr == nil:
				t.Fatalf("fastNumber(%q) = %v; number refuses it (ok %v, %v)", s, fv, ok, err)
			case !ok && !errors.Is(ferr, ErrNotNumber), ok && !errors.Is(ferr, ErrNotFinite) && !errors.Is(ferr, ErrTooLarge):
				t.Fatalf("fastNumber(%q): %v; number: ok %v, %v", s, ferr, ok, err)
			}
			return ferr
		})
	})
}

// parquetSeeds are Parquet files of every type fp reads and some it cannot,
// several row groups, nulls, and damaged copies of them.
func parquetSeeds(f *testing.F) [][]byte {
	dir := f.TempDir()
	var out [][]byte
	add := func(name string, rowsPerGroup int, cols ...pqCol) []byte {
		path := filepath.Join(dir, name+".parquet")
		writeParquet(f, path, rowsPerGroup, cols...)
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, b)
		return b
	}
	every := add("every", 2, everyType()...)
	nums := make([]any, 40)
	for i := range nums {
		nums[i] = float64(i) / 3
	}
	ys := make([]any, 40)
	for i := range ys {
		ys[i] = int32(i % 2)
	}
	gs := make([]any, 40)
	for i := range gs {
		gs[i] = []string{"a", "b", "c"}[i%3]
	}
	add("table", 16, pqCol{"y", parquet.Leaf(parquet.Int32Type), ys}, pqCol{"g", parquet.String(), gs},
		pqCol{"x", parquet.Leaf(parquet.DoubleType), nums})
	var buf bytes.Buffer
	w, err := NewParquetWriter(&buf, []ParquetColumn{{"y", ParquetInt32}, {"a", ParquetString}, {"x", ParquetDouble}})
	if err != nil {
		f.Fatal(err)
	}
	for _, row := range [][]string{{"0", "m", "1.5"}, {"1", "f", ""}, {"1", "m", "-2"}} {
		cells := make([][]byte, len(row))
		for j, c := range row {
			cells[j] = []byte(c)
		}
		if err := w.Write(cells); err != nil {
			f.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		f.Fatal(err)
	}
	out = append(out, slices.Clone(buf.Bytes()))
	// Damaged: cut short, a byte changed in the pages, the footer's length
	// claiming more than the file holds.
	out = append(out, every[:len(every)/2], append(every[:100:100], every[len(every)-200:]...))
	flipped := slices.Clone(every)
	flipped[len(flipped)/3] ^= 0xff
	out = append(out, flipped,
		[]byte("PAR1\x15\x06\x15\x80\x32\x15\x80PAR1"),
		[]byte("PAR1PAR1"), []byte("PAR1\xff\xff\xff\x7fPAR1"), []byte("x,y\n1,2\n"))
	return out
}

// FuzzParquetReader reads a Parquet file as every command does: its footer,
// then each row of each row group, into a table.
func FuzzParquetReader(f *testing.F) {
	for _, b := range parquetSeeds(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzcheck.Run(t, len(data), func() error {
			pr, err := NewParquetReader(bytes.NewReader(data), int64(len(data)), "fuzz.parquet")
			if err != nil {
				return err
			}
			defer pr.Close()
			tb, err := readTable(pr, nil)
			if err != nil {
				return err
			}
			for _, c := range tb.cols {
				if len(c.codes) != tb.rows() {
					t.Fatalf("column %q has %d cells in %d rows", c.name, len(c.codes), tb.rows())
				}
			}
			return nil
		})
	})
}
