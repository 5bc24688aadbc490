package intervals_test

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/experiments/experimentstest"
	"github.com/fpareto/fp/intervals"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

// writeCSV writes n rows where the label and two features depend on the
// sensitive attribute, so that an unpenalised network's DP is well away
// from 0.
func writeCSV(t *testing.T, path string, n int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 8))
	var b strings.Builder
	b.WriteString("x1,x2,x3,colour,group,label\n")
	for range n {
		a := rng.IntN(2)
		x1 := rng.NormFloat64() + 1.2*float64(a)
		x2 := rng.NormFloat64()
		x3 := rng.NormFloat64() + 0.5*float64(a)
		y := 0
		if rng.Float64() < 1/(1+math.Exp(-(1.5*x1+x2-0.8))) {
			y = 1
		}
		fmt.Fprintf(&b, "%.4f,%.4f,%.4f,%s,%s,%s\n", x1, x2, x3, []string{"red", "blue", "green"}[rng.IntN(3)],
			[]string{"f", "m"}[a], []string{"no", "yes"}[y])
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// csvConfig writes writeCSV's n rows into a fresh folder and returns the
// configuration that trains on them (label "yes" against group "m"), the
// folder to train into and the CSV's path.
func csvConfig(t *testing.T, n int) (c experiments.Config, dir, csv string) {
	t.Helper()
	root := t.TempDir()
	csv = filepath.Join(root, "data.csv")
	writeCSV(t, csv, n)
	c = experiments.DefaultConfig()
	c.Dataset, c.CSV, c.Target, c.Sensitive, c.Positive, c.SensitivePositive = "", csv, "label", "group", "yes", "m"
	return c, filepath.Join(root, "run"), csv
}

// csvRun trains a small sweep on a fresh CSV and returns the folder, the
// CSV and the successful records.
func csvRun(t *testing.T) (dir, csv string, recs []records.Record) {
	t.Helper()
	c, dir, csv := csvConfig(t, 600)
	c.Splits, c.Lambdas, c.Epochs, c.PropensityEpochs, c.Engine = 1, "0,1", 20, 10, "backprop"
	recs = experimentstest.Train(t, c, dir)
	if len(recs) != 2 {
		t.Fatalf("%d successful candidates, want 2", len(recs))
	}
	return dir, csv, recs
}

// text is c's JSON form, to compare intervals by value.
func text(t *testing.T, c intervals.CI) string {
	t.Helper()
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func open(t *testing.T, dir string, resamples int) *intervals.Folder {
	t.Helper()
	f, err := intervals.Open(dir, nil, resamples)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// The intervals of a candidate are reproducible, from a fresh computation
// or from the cache, contain its recorded values, and depend on the
// number of resamples.
func TestIntervals(t *testing.T) {
	dir, _, recs := csvRun(t)
	var first []intervals.CI
	for _, r := range recs {
		c := open(t, dir, 500).For(&r)
		// The run's 148 test rows leave a group fewer than 30 rows within a
		// class: the intervals are given with a note saying so, which names
		// the split whose rows they are (splits differ in their rows).
		if !c.Given() || c.Note != "" || !strings.Contains(c.Caution, fmt.Sprintf("split %d, a group has fewer than 30 rows within a class", r.Split)) {
			t.Fatalf("%s: no intervals, or no caution on the small cells: %+v", r.Key(), c)
		}
		if c.Resamples != 500 || c.Rows != r.NTest {
			t.Errorf("%s: %d resamples of %d rows, want 500 of %d", r.Key(), c.Resamples, c.Rows, r.NTest)
		}
		first = append(first, c)
	}
	if text(t, first[0]) == text(t, first[1]) {
		t.Error("two candidates have the same intervals")
	}
	// Again, without a cache: the same numbers.
	for i, r := range recs {
		if c := open(t, dir, 500).For(&r); text(t, c) != text(t, first[i]) {
			t.Errorf("%s: intervals %s, then %s", r.Key(), text(t, first[i]), text(t, c))
		}
	}
	// Computed together, on several cores: the same numbers.
	for i, c := range open(t, dir, 500).ForAll([]*records.Record{&recs[0], &recs[1]}) {
		if text(t, c) != text(t, first[i]) {
			t.Errorf("%s: intervals %s alone, %s together", recs[i].Key(), text(t, first[i]), text(t, c))
		}
	}
	// Cached, then read back.
	f := open(t, dir, 500)
	for _, r := range recs {
		f.For(&r)
	}
	if !f.Save() {
		t.Fatal("the cache was not written")
	}
	if _, err := os.Stat(runfolder.CachePath(dir, intervals.CacheFile)); err != nil {
		t.Fatal(err)
	}
	for i, r := range recs {
		if c := open(t, dir, 500).For(&r); text(t, c) != text(t, first[i]) {
			t.Errorf("%s: cached intervals %s, computed %s", r.Key(), text(t, c), text(t, first[i]))
		}
	}
	// Another number of resamples is another bootstrap.
	if c := open(t, dir, 300).For(&recs[0]); c.Resamples != 300 || *c.Risk == *first[0].Risk {
		t.Errorf("300 resamples give %+v, as 500 do", c)
	}

	for i, r := range recs {
		c := first[i]
		for _, m := range []struct {
			name string
			v    float64
		}{{"risk", r.Risk}, {"accuracy", r.Accuracy}, {"ato", r.ATO}, {"dp", r.DP}, {"eo", r.EO}, {"eopp", r.EOpp}} {
			iv := c.Metric(m.name)
			if iv == nil {
				t.Errorf("%s: no %s interval", r.Key(), m.name)
				continue
			}
			if !(iv[0] <= iv[1]) {
				t.Errorf("%s: %s interval %v is not ordered", r.Key(), m.name, *iv)
			}
			// The fairness metrics of λ = 1 lie near 0, where the bootstrap's
			// upward bias can put the estimate below the interval.
			if r.Lambda == 0 || m.name == "risk" || m.name == "accuracy" {
				if !(iv[0] <= m.v && m.v <= iv[1]) {
					t.Errorf("%s: %s interval %v does not hold the recorded %g", r.Key(), m.name, *iv, m.v)
				}
			}
		}
	}
	if recs[0].Lambda != 0 || !(recs[0].DP > 0.01) {
		t.Errorf("the unpenalised candidate's DP is %g: the data should make it large", recs[0].DP)
	}

	// The JSON form carries every key.
	b, err := json.Marshal(first[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"risk_ci", "accuracy_ci", "ato_ci", "dp_ci", "eo_ci", "eopp_ci", "ci_resamples", "ci_rows"} {
		if !strings.Contains(string(b), `"`+k+`":`) {
			t.Errorf("JSON %s lacks %q", b, k)
		}
	}
}

// Where the rows cannot be rebuilt as they were, no interval is given and
// one line says why.
func TestIntervalsRefused(t *testing.T) {
	dir, csv, recs := csvRun(t)
	data, err := os.ReadFile(csv)
	if err != nil {
		t.Fatal(err)
	}
	restore := func() {
		if err := os.WriteFile(csv, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Cached intervals must not hide a change of the data.
	f := open(t, dir, 200)
	f.For(&recs[0])
	f.Save()
	for _, tc := range []struct {
		name   string
		change func(r *records.Record) func()
		want   string
	}{
		{"a target value changed", func(*records.Record) func() {
			s := strings.Replace(string(data), ",yes\n", ",no\n", 1)
			if err := os.WriteFile(csv, []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
			return restore
		}, "its data now holds other rows than it was trained on"},
		{"a target value changed, records without data_id", func(r *records.Record) func() {
			r.DataID = ""
			s := strings.Replace(string(data), ",yes\n", ",no\n", 1)
			if err := os.WriteFile(csv, []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
			return restore
		}, "the data or the network changed since training"},
		{"the data file missing", func(*records.Record) func() {
			if err := os.Remove(csv); err != nil {
				t.Fatal(err)
			}
			return restore
		}, "its data cannot be reloaded"},
		{"the network missing", func(r *records.Record) func() {
			net := filepath.Join(dir, r.Weights)
			b, err := os.ReadFile(net)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(net); err != nil {
				t.Fatal(err)
			}
			return func() { os.WriteFile(net, b, 0o644) }
		}, "is missing"},
		{"every network missing", func(*records.Record) func() {
			nets := filepath.Join(dir, "networks")
			if err := os.Rename(nets, nets+".away"); err != nil {
				t.Fatal(err)
			}
			return func() { os.Rename(nets+".away", nets) }
		}, "its networks are not there"},
		{"a recorded metric differs", func(r *records.Record) func() {
			r.Risk += 1e-6
			return func() {}
		}, "the re-scored test risk"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := recs[0]
			undo := tc.change(&r)
			defer undo()
			c := open(t, dir, 200).For(&r)
			if c.Given() || c.Metric("dp") != nil || c.Metric("ato") != nil {
				t.Errorf("intervals given: %+v", c)
			}
			if !strings.Contains(c.Note, tc.want) {
				t.Errorf("note %q, want it to say %q", c.Note, tc.want)
			}
			if strings.Contains(c.Note, "\n") {
				t.Errorf("note %q is not one line", c.Note)
			}
		})
	}
	// Back as it was, the intervals are given again.
	if c := open(t, dir, 200).For(&recs[0]); !c.Given() {
		t.Errorf("the restored data gives no interval: %s", c.Note)
	}
}

// A folder whose cache cannot be written keeps none, and the intervals
// are still given.
func TestIntervalsUnwritableCache(t *testing.T) {
	dir, _, recs := csvRun(t)
	// A file where the cache folder belongs: no cache can be written, even
	// by a user who may write anywhere.
	if err := os.WriteFile(filepath.Join(dir, runfolder.CacheDir), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	f := open(t, dir, 200)
	if c := f.For(&recs[0]); !c.Given() {
		t.Fatalf("no intervals: %s", c.Note)
	}
	if f.Save() {
		t.Error("Save reports a cache written where none can be")
	}
}
