package experiments_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/experiments/experimentstest"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/runfolder"
)

// writeIDCSV writes n rows with an identifier, two features, a target and
// a sensitive column; without the id column when withID is false.
func writeIDCSV(t *testing.T, dir, name string, n int, withID bool) string {
	t.Helper()
	var b strings.Builder
	if withID {
		b.WriteString("id,")
	}
	b.WriteString("x,kind,y,g\n")
	for i := range n {
		if withID {
			fmt.Fprintf(&b, "%d,", i+1)
		}
		fmt.Fprintf(&b, "%d.25,%s,%d,%s\n", (i*13)%29, []string{"a", "b", "c"}[i%3], (i*7)%5/3, []string{"p", "q"}[(i/3)%2])
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func csvConfig(path string) experiments.Config {
	c := smallConfig()
	c.Dataset, c.CSV, c.Target, c.Sensitive = "", path, "y", "g"
	c.Splits, c.Lambdas, c.Epochs, c.PropensityEpochs = 1, "0,1", 2, 2
	return c
}

// A run that excludes a column, and one on a copy of the file without it,
// train on the same rows with the same identity and splits; the networks
// neither read nor need the column.
func TestExcludedColumnKeepsRowsAndSplits(t *testing.T) {
	dir := t.TempDir()
	withID := writeIDCSV(t, dir, "before.csv", 120, true)
	withoutID := writeIDCSV(t, dir, "after.csv", 120, false)

	all := csvConfig(withID)
	r, err := experiments.NewRunner(all, filepath.Join(dir, "all"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if w := strings.Join(r.Warnings(), "\n"); !strings.Contains(w, `column "id" holds a different integer in each of the`) ||
		!strings.Contains(w, "--exclude id") {
		t.Errorf("warnings lack the row counter:\n%s", w)
	}
	// The run's line in runs.log keeps the column warnings for the report.
	if _, err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	r.Close()
	invs, err := runfolder.ReadInvocations(filepath.Join(dir, "all"))
	if err != nil || len(invs) != 1 || len(invs[0].ColumnWarnings) != 1 ||
		!strings.HasSuffix(invs[0].ColumnWarnings[0], "; leave it out with --exclude id") {
		t.Errorf("runs.log: %+v, %v; want one line holding the row counter's warning", invs, err)
	}

	excl := csvConfig(withID)
	excl.Exclude = []string{"id"}
	runs := map[string]experiments.Config{"excluded": excl, "edited": csvConfig(withoutID)}
	ids := map[string]string{}
	var tests [][]float64
	for name, c := range runs {
		out := filepath.Join(dir, name)
		r, err := experiments.NewRunner(c, out, nil)
		if err != nil {
			t.Fatal(err)
		}
		if w := strings.Join(r.Warnings(), "\n"); strings.Contains(w, "--exclude") {
			t.Errorf("%s: warnings %s", name, w)
		}
		if _, err := r.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		r.Close()
		stored, err := experiments.ReadConfig(out)
		if err != nil {
			t.Fatal(err)
		}
		ids[name] = stored.DataID
		for _, rec := range readRecords(t, out) {
			if rec.DataID != stored.DataID || rec.DataID == "" {
				t.Errorf("%s: record data_id %q, config.json %q", name, rec.DataID, stored.DataID)
			}
			f, err := model.Load(filepath.Join(out, rec.Weights))
			if err != nil {
				t.Fatal(err)
			}
			var cols []string
			for _, c := range f.Schema.Columns {
				cols = append(cols, c.Name)
			}
			if !reflect.DeepEqual(cols, []string{"x", "kind"}) {
				t.Errorf("%s: the network reads %v, want x and kind", name, cols)
			}
			p, err := runfolder.LoadPredictions(out, &rec)
			if err != nil {
				t.Fatal(err)
			}
			tests = append(tests, p.Y, p.A)
		}
	}
	if ids["excluded"] != ids["edited"] {
		t.Errorf("data_id %s with --exclude id, %s on the copy without id", ids["excluded"], ids["edited"])
	}
	for i := 2; i < len(tests); i += 2 {
		if !reflect.DeepEqual(tests[i], tests[0]) || !reflect.DeepEqual(tests[i+1], tests[1]) {
			t.Error("the test splits of the two runs differ")
		}
	}
	if a, b := excl.Digest(), csvConfig(withID).Digest(); a == b {
		t.Error("excluding a column leaves the configuration digest unchanged")
	}
}

// A column named that the file lacks is refused before the run folder is
// made, with the closest name.
func TestUnknownColumnRefusedBeforeTheFolder(t *testing.T) {
	dir := t.TempDir()
	c := csvConfig(writeIDCSV(t, dir, "d.csv", 60, true))
	c.Exclude = []string{"idd"}
	out := filepath.Join(dir, "run")
	_, err := experiments.NewRunner(c, out, nil)
	if err == nil || !strings.Contains(err.Error(), `--exclude: no column "idd"; did you mean "id"?`) {
		t.Fatalf("got %v", err)
	}
	if _, serr := os.Stat(out); !os.IsNotExist(serr) {
		t.Errorf("the run folder exists after the refusal: %v", serr)
	}
	c.Exclude, c.Features = []string{"id"}, []string{"x"}
	if _, err := experiments.NewRunner(c, out, nil); err == nil || !strings.Contains(err.Error(), "not both") {
		t.Errorf("--features with --exclude: %v", err)
	}
}

// A folder's records of other rows (the file edited in place, say) are not
// resumed: the configuration digest names the file, not its rows.
func TestChangedRowsRefusedOnResume(t *testing.T) {
	dir := t.TempDir()
	path := writeIDCSV(t, dir, "d.csv", 80, false)
	out := filepath.Join(dir, "run")
	c := csvConfig(path)
	c.Lambdas = "0,0.5,1"
	experimentstest.Run(t, c, out)
	b, _ := os.ReadFile(path)
	lines := strings.Split(string(b), "\n")
	lines[1] = strings.Replace(lines[1], ",0,", ",1,", 1)
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := experiments.NewRunner(c, out, nil)
	if err == nil || !strings.Contains(err.Error(), "holds records of other rows") {
		t.Errorf("resume on changed rows: %v", err)
	}
}

// Configurations without the new keys keep their digests: the committed
// results' records were written with the digests their config.json gives.
func TestCommittedDigestsUnchanged(t *testing.T) {
	files, _ := filepath.Glob("../results/*/*/config.json")
	more, _ := filepath.Glob("../results/*/*/*/config.json")
	files = append(files, more...)
	if len(files) == 0 {
		t.Fatal("no committed config.json under results/")
	}
	checked := 0
	for _, f := range files {
		dir := filepath.Dir(f)
		c, err := experiments.ReadConfig(dir)
		if err != nil {
			t.Fatal(err)
		}
		recs, _, err := runfolder.ReadAll([]string{dir})
		if err != nil || len(recs) == 0 {
			continue
		}
		checked++
		if recs[0].Config != c.Digest() {
			t.Errorf("%s: records of configuration %s, config.json's digest %s", dir, recs[0].Config, c.Digest())
		}
	}
	if checked == 0 {
		t.Error("no committed run folder with records")
	}
}
