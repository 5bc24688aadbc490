package predict

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/fpareto/fp/datasets"
)

// writeCOMPAS writes the embedded COMPAS rows with an id column, the
// network's columns, the label and the group, as a CSV and as a Parquet
// file of the same values (integer columns as INT64, text as strings).
func writeCOMPAS(t testing.TB, dir string) (csvPath, pqPath string) {
	t.Helper()
	d, err := datasets.Load("compas", datasets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	header := []string{"id"}
	for _, c := range d.Schema.Columns {
		header = append(header, c.Name)
	}
	header = append(header, "two_year_recid", "race")
	rows := make([][]string, d.N)
	for i := range d.N {
		raw, err := d.Schema.Raw(d.X[i*d.Dim : (i+1)*d.Dim])
		if err != nil {
			t.Fatal(err)
		}
		race := "Other"
		if d.A[i] == 1 {
			race = "African-American"
		}
		rows[i] = append(append([]string{strconv.Itoa(1000 + i)}, raw...), strconv.Itoa(int(d.Y[i])), race)
	}
	cols := make([]datasets.ParquetColumn, len(header))
	for j, name := range header {
		cols[j] = datasets.ParquetColumn{Name: name, Type: datasets.ParquetInt64}
		for _, r := range rows {
			if _, err := strconv.ParseInt(r[j], 10, 64); err != nil {
				cols[j].Type = datasets.ParquetString
				break
			}
		}
	}
	var text strings.Builder
	text.WriteString(strings.Join(header, ",") + "\n")
	var pq bytes.Buffer
	w, err := datasets.NewParquetWriter(&pq, cols)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		text.WriteString(strings.Join(r, ",") + "\n")
		cells := make([][]byte, len(r))
		for j, c := range r {
			cells[j] = []byte(c)
		}
		if err := w.Write(cells); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	csvPath, pqPath = filepath.Join(dir, "compas.csv"), filepath.Join(dir, "compas.parquet")
	if err := os.WriteFile(csvPath, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pqPath, pq.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return csvPath, pqPath
}

// A network trained on a CSV scores the Parquet copy of a file exactly as
// it scores the CSV, and a network trained on the Parquet copy scores the
// CSV exactly as the Parquet file: both load to the same data.
func TestParquetScoresAsCSV(t *testing.T) {
	dir := t.TempDir()
	csvPath, pqPath := writeCOMPAS(t, dir)
	opt := datasets.CSVOptions{Target: "two_year_recid", Sensitive: "race", SensitivePositive: "African-American"}
	load := func(path string) *datasets.Dataset {
		d, err := datasets.LoadCSV(path, opt)
		if err != nil {
			t.Fatal(err)
		}
		d.Name, d.Source = "", ""
		return d
	}
	fromCSV, fromPQ := load(csvPath), load(pqPath)
	if !reflect.DeepEqual(fromCSV, fromPQ) {
		t.Fatalf("the CSV and its Parquet copy load to different data:\n%v\n%v", fromCSV.Columns, fromPQ.Columns)
	}
	score := func(name string, d *datasets.Dataset, data string) string {
		out := filepath.Join(dir, name)
		n, err := RunFile(network(t, d, "4x4"), data, out, Options{Keep: []string{"id"}, Threshold: 0.5, Logit: true})
		if err != nil || n != d.N {
			t.Fatalf("%s: %d rows, %v", name, n, err)
		}
		b, _ := os.ReadFile(out)
		return string(b)
	}
	want := score("csv-on-csv.csv", fromCSV, csvPath)
	for name, got := range map[string]string{
		"CSV-trained network on the Parquet file":     score("csv-on-pq.csv", fromCSV, pqPath),
		"Parquet-trained network on the CSV file":     score("pq-on-csv.csv", fromPQ, csvPath),
		"Parquet-trained network on the Parquet file": score("pq-on-pq.csv", fromPQ, pqPath),
	} {
		if got != want {
			t.Errorf("%s: the scores differ from the CSV's", name)
		}
	}
	recs, _ := csv.NewReader(strings.NewReader(want)).ReadAll()
	checkScores(t, network(t, fromCSV, "4x4"), fromCSV, recs)
}

// --out FILE.parquet writes the CSV output's values, with the kept
// columns' Parquet types, score and logit as DOUBLE and label as INT32.
func TestRunFileWritesParquet(t *testing.T) {
	dir := t.TempDir()
	csvPath, pqPath := writeCOMPAS(t, dir)
	d, err := datasets.LoadCSV(csvPath, datasets.CSVOptions{Target: "two_year_recid", Sensitive: "race"})
	if err != nil {
		t.Fatal(err)
	}
	f := network(t, d, "4x4")
	opt := Options{Keep: []string{"id", "sex"}, Threshold: 0.4, Logit: true}
	var want bytes.Buffer
	if _, err := RunTo(f, pqPath, &want, opt); err != nil {
		t.Fatal(err)
	}
	wantRecs, err := csv.NewReader(&want).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{csvPath, pqPath} {
		out := filepath.Join(dir, "scores.parquet")
		if n, err := RunFile(f, in, out, opt); err != nil || n != d.N {
			t.Fatalf("%s: %d rows, %v", in, n, err)
		}
		r, err := datasets.OpenParquet(out)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(r.Header(), wantRecs[0]) {
			t.Errorf("header %q, want %q", r.Header(), wantRecs[0])
		}
		var types []datasets.ParquetType
		for _, typ := range r.Types() {
			types = append(types, typ.Parquet)
		}
		idType := datasets.ParquetInt64 // as in the Parquet input
		if in == csvPath {
			idType = datasets.ParquetString // a CSV's cells are text
		}
		if want := []datasets.ParquetType{idType, datasets.ParquetString, datasets.ParquetDouble, datasets.ParquetInt32, datasets.ParquetDouble}; !reflect.DeepEqual(types, want) {
			t.Errorf("%s: types %v, want %v", in, types, want)
		}
		for i := 1; ; i++ {
			fields, err := r.Next()
			if err == io.EOF {
				if i != len(wantRecs) {
					t.Errorf("%d rows, want %d", i-1, len(wantRecs)-1)
				}
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			for j, f := range fields {
				if string(f) != wantRecs[i][j] {
					t.Fatalf("%s: row %d, column %s: %q, want %q", in, i, wantRecs[0][j], f, wantRecs[i][j])
				}
			}
		}
		r.Close()
	}
}

// A bad cell of a Parquet file stops fp predict with one line naming the
// file, the row and the column; --out is not written.
func TestRunRefusesBadParquetRows(t *testing.T) {
	dir := t.TempDir()
	csvPath, _ := writeCOMPAS(t, dir)
	d, err := datasets.LoadCSV(csvPath, datasets.CSVOptions{Target: "two_year_recid", Sensitive: "race"})
	if err != nil {
		t.Fatal(err)
	}
	f := network(t, d, "4x4")
	write := func(name string, cols []datasets.ParquetColumn, rows ...[]string) string {
		path := filepath.Join(dir, name)
		var buf bytes.Buffer
		w, err := datasets.NewParquetWriter(&buf, cols)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			cells := make([][]byte, len(r))
			for j, c := range r {
				cells[j] = []byte(c)
			}
			if err := w.Write(cells); err != nil {
				t.Fatal(err)
			}
		}
		w.Close()
		os.WriteFile(path, buf.Bytes(), 0o644)
		return path
	}
	var cols []datasets.ParquetColumn
	for _, c := range d.Schema.Columns {
		typ := datasets.ParquetDouble
		if c.Kind == datasets.KindCategorical {
			typ = datasets.ParquetString
		}
		cols = append(cols, datasets.ParquetColumn{Name: c.Name, Type: typ})
	}
	good, err := d.Schema.Raw(d.X[:d.Dim])
	if err != nil {
		t.Fatal(err)
	}
	with := func(j int, v string) []string {
		r := append([]string(nil), good...)
		r[j] = v
		return r
	}
	sexCol := -1
	for j, c := range d.Schema.Columns {
		if c.Name == "sex" {
			sexCol = j
		}
	}
	asText := append([]datasets.ParquetColumn(nil), cols...)
	asText[0].Type = datasets.ParquetString
	cases := []struct {
		name string
		path string
		kind error
		want string
	}{
		{"null", write("null.parquet", cols, good, with(0, "")), datasets.ErrEmptyCell,
			", row 2, column 1 (" + cols[0].Name + "): empty cell: expected a number"},
		{"NaN", write("nan.parquet", cols, good, good, with(0, "NaN")), datasets.ErrNotFinite,
			", row 3, column 1 (" + cols[0].Name + `): expected a finite number, got "NaN"`},
		{"unseen category", write("level.parquet", cols, with(sexCol, "Unknown")), datasets.ErrUnknownLevel,
			", row 1, column " + strconv.Itoa(sexCol+1) + ` (sex): unseen category "Unknown"`},
		{"text where numbers are read", write("text.parquet", asText, good), datasets.ErrBadType,
			", column 1 (" + cols[0].Name + "): wrong column type: a column of type BYTE_ARRAY (STRING), expected numbers"},
	}
	for _, tc := range cases {
		out := filepath.Join(dir, tc.name+".csv")
		_, err := RunFile(f, tc.path, out, Options{Threshold: 0.5})
		if !errors.Is(err, tc.kind) || !strings.HasPrefix(err.Error(), tc.path+tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: err = %v\nwant %s%s…", tc.name, err, tc.path, tc.want)
		}
		if _, serr := os.Stat(out); serr == nil {
			t.Errorf("%s: the output was written", tc.name)
		}
	}
}
