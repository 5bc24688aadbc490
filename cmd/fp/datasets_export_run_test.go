package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fpareto/fp/runfolder"
)

// fp datasets export NAME --run DIR --split M --part P writes the rows of
// that part of the run's split, in NAME's columns: a binary compas run's
// rows with compas-race4's four groups, as the full export has them at the
// indices the run draws, and as many as its records count.
func TestDatasetsExportRunPart(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	if _, stderr, err := runFP(t, "train", "--dataset", "compas", "--out", run, "--quiet", "--no-plot", "--epochs", "1",
		"--splits", "2", "--lambdas", "0,1", "--propensity-epochs", "1", "--engine", "backprop", "--select-fraction", "0.5"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	plain := filepath.Join(dir, "plain")
	if _, stderr, err := runFP(t, "train", "--dataset", "compas", "--out", plain, "--quiet", "--no-plot", "--epochs", "1",
		"--splits", "1", "--lambdas", "0,1", "--propensity-epochs", "1", "--engine", "backprop"); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	all := filepath.Join(dir, "all.csv")
	if _, stderr, err := runFP(t, "datasets", "export", "compas-race4", "--out", all); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	b, err := os.ReadFile(all)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	c, err := runfolder.ReadConfig(run)
	if err != nil {
		t.Fatal(err)
	}
	d, err := runfolder.LoadDataset(c)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := runfolder.ReadRecords(run)
	if err != nil {
		t.Fatal(err)
	}
	parts, err := runfolder.PartsOf(c, d, 1)
	if err != nil {
		t.Fatal(err)
	}
	var rec1 int
	for k, r := range recs {
		if r.Split == 1 {
			rec1 = k
		}
	}
	for _, tc := range []struct {
		part  string
		rows  []int
		count int
	}{
		{"test", parts.Test, recs[rec1].NTest},
		{"selection", parts.Selection, recs[rec1].NSel},
		{"train", parts.Train, recs[rec1].NTrain},
	} {
		out := filepath.Join(dir, tc.part+".csv")
		if _, stderr, err := runFP(t, "datasets", "export", "compas-race4", "--run", run, "--split", "1", "--part", tc.part, "--out", out); err != nil {
			t.Fatalf("%s: %v\n%s", tc.part, err, stderr)
		}
		gb, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Split(strings.TrimSpace(string(gb)), "\n")
		want := []string{lines[0]}
		for _, i := range tc.rows {
			want = append(want, lines[1+i])
		}
		if len(got)-1 != tc.count {
			t.Errorf("%s: %d rows, the records count %d", tc.part, len(got)-1, tc.count)
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: the rows written are not the run's rows of split 1", tc.part)
		}
		// Coded, the rows are the same, under the same fp_row.
		coded := filepath.Join(dir, tc.part+"-coded.csv")
		if _, stderr, err := runFP(t, "datasets", "export", "compas-race4", "--run", run, "--split", "1", "--part", tc.part, "--coded", "--out", coded); err != nil {
			t.Fatalf("%s: %v\n%s", tc.part, err, stderr)
		}
		for _, file := range []string{out, coded} {
			if got := rowColumn(t, file); !slices.Equal(got, tc.rows) {
				t.Errorf("%s: fp_row %v…, want the split's rows %v…", file, got[:min(5, len(got))], tc.rows[:min(5, len(tc.rows))])
			}
		}
	}

	x := filepath.Join(dir, "x.csv")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"split out of range", []string{"compas-race4", "--run", run, "--split", "2"}, "--split 2: the run in " + run + " has splits 0 to 1"},
		{"unknown part", []string{"compas", "--run", run, "--part", "sel"}, `--part "sel": want test, selection or train`},
		{"no selection rows", []string{"compas", "--run", plain, "--part", "selection"}, "--part selection: the run in " + plain + " keeps no selection rows"},
		{"other rows", []string{"adult-sex", "--run", run}, "--run " + run + " trains on compas (6172 rows), not on the rows of adult-sex"},
		{"split without run", []string{"compas", "--split", "1"}, "--split and --part need --run DIR"},
		{"not a run", []string{"compas", "--run", dir}, "--run " + dir},
		{"coded without a run", []string{"compas", "--coded"}, "--coded codes the rows as one split of a run standardizes them: add --run DIR --split M"},
		{"coded without a split", []string{"compas", "--run", run, "--coded"}, "add --run DIR --split M"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, err := runFP(t, append([]string{"datasets", "export", "--out", x}, tc.args...)...)
			if err == nil || !strings.Contains(err.Error()+stderr, tc.want) {
				t.Errorf("error %v, stderr %q; want it to name %q", err, stderr, tc.want)
			}
		})
	}
}

// rowColumn reads the fp_row column of a CSV file whose first column it is.
func rowColumn(t *testing.T, path string) []int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if recs[0][0] != "fp_row" {
		t.Fatalf("%s: first column %q, want fp_row", path, recs[0][0])
	}
	rows := make([]int, len(recs)-1)
	for k, rec := range recs[1:] {
		if rows[k], err = strconv.Atoi(rec[0]); err != nil {
			t.Fatalf("%s: row %d: %v", path, k+1, err)
		}
	}
	return rows
}
