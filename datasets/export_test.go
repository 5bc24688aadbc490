package datasets

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// WriteCSV writes a built-in dataset so that its schema's encoder reads back
// every row's features exactly, and LoadCSV codes y and a as the dataset.
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
			want := append(schemaColumnNames(&d.Schema), d.Target, d.Sensitive)
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
		})
	}
}
