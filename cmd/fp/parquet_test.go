package main

import (
	"bytes"
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/fpareto/fp/datasets"
)

// writeTable writes the same rows as a CSV and as a Parquet file whose
// columns have the given types.
func writeTable(t *testing.T, dir, name string, cols []datasets.ParquetColumn, rows [][]string) (csvPath, pqPath string) {
	t.Helper()
	var text strings.Builder
	for j, c := range cols {
		if j > 0 {
			text.WriteByte(',')
		}
		text.WriteString(c.Name)
	}
	text.WriteByte('\n')
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
	csvPath, pqPath = filepath.Join(dir, name+".csv"), filepath.Join(dir, name+".parquet")
	if err := os.WriteFile(csvPath, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pqPath, pq.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return csvPath, pqPath
}

// writeCOMPASFiles writes the embedded COMPAS rows (the network's columns,
// the label and race) as a CSV and as Parquet: integers as INT64, text as
// strings.
func writeCOMPASFiles(t *testing.T, dir string) (csvPath, pqPath string) {
	t.Helper()
	d, err := datasets.Load("compas", datasets.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var cols []datasets.ParquetColumn
	for _, c := range d.Schema.Columns {
		typ := datasets.ParquetInt64
		if c.Kind == datasets.KindCategorical {
			typ = datasets.ParquetString
		}
		cols = append(cols, datasets.ParquetColumn{Name: c.Name, Type: typ})
	}
	cols = append(cols, datasets.ParquetColumn{Name: "two_year_recid", Type: datasets.ParquetInt32},
		datasets.ParquetColumn{Name: "race", Type: datasets.ParquetString})
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
		rows[i] = append(raw, strconv.Itoa(int(d.Y[i])), race)
	}
	return writeTable(t, dir, "compas", cols, rows)
}

// The COMPAS data as Parquet trains to the records the same data as a CSV
// trains to (all but the file's name, the timing and the configuration
// digest, which names the file), and a network of either run scores the
// Parquet file as it scores the CSV.
func TestTrainParquetMatchesCSV(t *testing.T) {
	dir := t.TempDir()
	csvPath, pqPath := writeCOMPASFiles(t, dir)
	train := func(data, out string) {
		t.Helper()
		if _, _, err := runFP(t, "train", "--data", data, "--target", "two_year_recid", "--sensitive", "race",
			"--sensitive-positive", "African-American", "--splits", "1", "--lambdas", "0,0.5,1", "--epochs", "2",
			"--propensity-epochs", "2", "--out", out, "--quiet", "--no-plot"); err != nil {
			t.Fatalf("train on %s: %v", data, err)
		}
	}
	csvRun, pqRun := filepath.Join(dir, "run-csv"), filepath.Join(dir, "run-parquet")
	train(csvPath, csvRun)
	train(pqPath, pqRun)
	fromCSV, fromPQ := readRecords(t, csvRun), readRecords(t, pqRun)
	if len(fromCSV) != 3 || len(fromPQ) != 3 {
		t.Fatalf("%d and %d records, want 3 each", len(fromCSV), len(fromPQ))
	}
	if fromCSV[0].Dataset != "compas.csv" || fromPQ[0].Dataset != "compas.parquet" {
		t.Errorf("datasets %q and %q", fromCSV[0].Dataset, fromPQ[0].Dataset)
	}
	for i := range fromCSV {
		a, b := fromCSV[i], fromPQ[i]
		a.Dataset, b.Dataset = "", ""
		a.Config, b.Config = "", ""
		if !reflect.DeepEqual(a, b) {
			t.Errorf("record %d differs:\nCSV     %+v\nParquet %+v", i, a, b)
		}
	}

	// fp predict: identical scores from the CSV and the Parquet file, with
	// the network of either run.
	for _, run := range []string{csvRun, pqRun} {
		model := filepath.Join(run, readRecords(t, run)[1].Weights)
		var outs []string
		for _, data := range []string{csvPath, pqPath} {
			out, _, err := runFP(t, "predict", "--model", model, "--data", data, "--logit", "--keep", "race")
			if err != nil {
				t.Fatalf("predict %s: %v", data, err)
			}
			outs = append(outs, out)
		}
		if outs[0] != outs[1] || strings.Count(outs[0], "\n") != 6173 {
			t.Errorf("%s: the Parquet file scores differently from the CSV (%d and %d lines)",
				run, strings.Count(outs[0], "\n"), strings.Count(outs[1], "\n"))
		}
	}
}

// fp predict --out FILE.parquet writes Parquet and says how many rows.
func TestPredictOutParquet(t *testing.T) {
	dir := t.TempDir()
	csvPath, pqPath := writeCOMPASFiles(t, dir)
	run := filepath.Join(dir, "run")
	if _, _, err := runFP(t, "train", "--data", csvPath, "--target", "two_year_recid", "--sensitive", "race",
		"--splits", "1", "--lambdas", "0,1", "--epochs", "1", "--propensity-epochs", "1", "--out", run, "--quiet", "--no-plot"); err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(run, readRecords(t, run)[0].Weights)
	want, _, err := runFP(t, "predict", "--model", model, "--data", csvPath)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "scores.parquet")
	_, stderr, err := runFP(t, "predict", "--model", model, "--data", pqPath, "--out", out)
	if err != nil || !strings.Contains(stderr, "6172 rows scored into "+out) {
		t.Fatalf("err %v, stderr %q", err, stderr)
	}
	r, err := datasets.OpenParquet(out)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	recs, _ := csv.NewReader(strings.NewReader(want)).ReadAll()
	if !reflect.DeepEqual(r.Header(), recs[0]) {
		t.Fatalf("header %q, want %q", r.Header(), recs[0])
	}
	for i := 1; i < len(recs); i++ {
		fields, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if string(fields[0]) != recs[i][0] || string(fields[1]) != recs[i][1] {
			t.Fatalf("row %d: %q %q, want %q", i, fields[0], fields[1], recs[i])
		}
	}
}

// fp audit reads a Parquet file of predictions as it reads the CSV of the
// same values; a score column of strings is refused in one line.
func TestAuditParquet(t *testing.T) {
	dir := t.TempDir()
	recs, err := csv.NewReader(strings.NewReader(handCSV)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	cols := []datasets.ParquetColumn{{Name: "id", Type: datasets.ParquetInt64}, {Name: "score", Type: datasets.ParquetDouble},
		{Name: "y", Type: datasets.ParquetString}, {Name: "sex", Type: datasets.ParquetString}, {Name: "e", Type: datasets.ParquetFloat}}
	csvPath, pqPath := writeTable(t, dir, "preds", cols, recs[1:])
	var outs []string
	for _, data := range []string{csvPath, pqPath} {
		out, _, err := runFP(t, "audit", "--data", data, "--score", "score", "--label", "y", "--group", "sex", "--propensity", "e", "--json")
		if err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		outs = append(outs, out)
	}
	if outs[0] != outs[1] {
		t.Errorf("the Parquet file audits differently:\n%s\n%s", outs[0], outs[1])
	}

	cols[1].Type = datasets.ParquetString
	_, bad := writeTable(t, dir, "text-scores", cols, recs[1:])
	_, _, err = runFP(t, "audit", "--data", bad, "--score", "score", "--label", "y", "--group", "sex")
	want := bad + ", column 2 (score): wrong column type: a column of type BYTE_ARRAY (STRING), expected numbers"
	if !errors.Is(err, datasets.ErrBadType) || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("err = %v\nwant %s…", err, want)
	}
	oneLine(t, err.Error())
}

// The help of each command that reads --data says that .parquet selects
// Parquet.
func TestHelpNamesParquet(t *testing.T) {
	for _, cmd := range []string{"train", "predict", "audit"} {
		out, _, err := runFP(t, cmd, "--help")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out, ".parquet") {
			t.Errorf("fp %s --help does not mention .parquet", cmd)
		}
	}
}
