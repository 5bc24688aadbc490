package main

import (
	"os"
	"path/filepath"
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
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, err := runFP(t, append([]string{"datasets", "export", "--out", x}, tc.args...)...)
			if err == nil || !strings.Contains(err.Error()+stderr, tc.want) {
				t.Errorf("error %v, stderr %q; want it to name %q", err, stderr, tc.want)
			}
		})
	}
}
