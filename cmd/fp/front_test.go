package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/compare"
	"github.com/fpareto/fp/pareto"
	"github.com/fpareto/fp/records"
)

// frontRecord is a candidate with the given method, λ, risk and metrics.
func frontRecord(method, config string, lambda, risk, ato, dp float64) records.Record {
	return records.Record{Dataset: "compas", Method: method, Penalty: "ato-penultimate", Lambda: lambda,
		Risk: risk, ATO: ato, DP: dp, Status: records.StatusOK, Config: config}
}

func writeFrontRecords(t *testing.T, path string, recs ...records.Record) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := records.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range recs {
		if err := w.Append(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// twoSweeps writes the case of pareto's TestCompareHandWorked as two sweeps
// with different configurations, plus a failed candidate that would
// dominate everything if it were counted. It is worked out under the
// min–max front rule, which the tests that use it name (its records carry
// no const_risk):
//
//	cheb   (risk, ato) = (10, 0.3), (20, 0.1), (20, 0.3)
//	linear             = (15, 0.2)
//
// Normalised over the four: cheb → (0,1), (1,0), (1,1); linear → (0.5, 0.5).
// cheb: 3 candidates, 2 non-dominated, HV 0.21, share 2/3;
// linear: 1 candidate, 1 non-dominated, HV 0.6² = 0.36, share 1/3.
func twoSweeps(t *testing.T) (cheb, linear string) {
	dir := t.TempDir()
	cheb = filepath.Join(dir, "cheb", "records.jsonl")
	failed := frontRecord("cheb", "c1", 0.7, 0, 0, 0)
	failed.Status, failed.FailEpoch, failed.FailReason = records.StatusFailed, 3, "loss is NaN"
	writeFrontRecords(t, cheb, frontRecord("cheb", "c1", 0, 10, 0.3, 0.5), frontRecord("cheb", "c1", 1, 20, 0.1, 0.1),
		frontRecord("cheb", "c1", 0.5, 20, 0.3, 0.2), failed)
	linear = filepath.Join(dir, "linear", "records.jsonl")
	writeFrontRecords(t, linear, frontRecord("linear", "c2", 0.5, 15, 0.2, 0.3))
	return filepath.Dir(cheb), linear
}

func TestFrontHandWorked(t *testing.T) {
	cheb, linear := twoSweeps(t)
	out, stderr, err := runFP(t, "front", "--front-rule", "minmax", cheb, linear, "--json")
	if err != nil {
		t.Fatal(err)
	}
	got := pooledSummaries(t, out)
	want := []pareto.Summary{
		{Group: "cheb/ato-penultimate", Candidates: 3, NonDominated: 2, Hypervolume: 0.21, Share: 2.0 / 3},
		{Group: "linear/ato-penultimate", Candidates: 1, NonDominated: 1, Hypervolume: 0.36, Share: 1.0 / 3},
	}
	checkFront(t, got, want)
	if !strings.Contains(stderr, "1 failed candidate") {
		t.Errorf("stderr does not mention the failed candidate: %q", stderr)
	}
	var keys struct{ Pooled []map[string]any }
	if err := json.Unmarshal([]byte(out), &keys); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"group", "candidates", "nondominated", "hypervolume", "share", "front_collapsed", "front_single_class", "front_no_better_than_constant"} {
		if _, ok := keys.Pooled[0][k]; !ok {
			t.Errorf("JSON lacks key %q", k)
		}
	}

	out, _, err = runFP(t, "front", "--front-rule", "minmax", cheb, linear)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"group", "nondominated", "hypervolume", "share",
		"cheb/ato-penultimate    3           2             0.2100       0.667",
		"linear/ato-penultimate  1           1             0.3600       0.333"} {
		if !strings.Contains(out, s) {
			t.Errorf("text output lacks %q:\n%s", s, out)
		}
	}
}

// pooledSummaries reads the pooled rows of fp front's or fp compare's JSON.
func pooledSummaries(t *testing.T, out string) []pareto.Summary {
	t.Helper()
	var res compare.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	var got []pareto.Summary
	for _, r := range res.Pooled {
		got = append(got, pareto.Summary{Group: r.Group, Candidates: r.Candidates, NonDominated: r.NonDominated,
			Hypervolume: r.Hypervolume, Share: r.Share})
	}
	return got
}

func checkFront(t *testing.T, got, want []pareto.Summary) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d groups, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Group != w.Group || g.Candidates != w.Candidates || g.NonDominated != w.NonDominated ||
			math.Abs(g.Hypervolume-w.Hypervolume) > 1e-12 || math.Abs(g.Share-w.Share) > 1e-12 {
			t.Errorf("group %d = %+v, want %+v", i, g, w)
		}
	}
}

func TestFrontMetricAndGrouping(t *testing.T) {
	cheb, linear := twoSweeps(t)
	// By dp: cheb (10, .5), (20, .1), (20, .2); linear (15, .3). X ∈ [10, 20],
	// Y ∈ [.1, .5]: cheb → (0, 1), (1, 0), (1, .25); linear → (.5, .5).
	// Every group by λ: 0 → (0,1): HV 1.1·0.1; 0.5 → (1, .25) and (.5, .5):
	// 0.6·0.6 + 0.1·0.25; 1 → (1, 0): 0.1·1.1. Pooled front: (0,1), (.5,.5),
	// (1,0), one point each for λ = 0 and λ = 1 and one for λ = 0.5.
	// Flags may come before, between or after the paths.
	for _, args := range [][]string{
		{"--metric", "dp", "--by", "lambda", "--json", cheb, linear},
		{cheb, "--metric=dp", linear, "--by", "lambda", "--json"},
	} {
		out, _, err := runFP(t, append([]string{"front", "--front-rule", "minmax"}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		checkFront(t, pooledSummaries(t, out), []pareto.Summary{
			{Group: "lambda=0", Candidates: 1, NonDominated: 1, Hypervolume: 0.11, Share: 1.0 / 3},
			{Group: "lambda=0.5", Candidates: 2, NonDominated: 2, Hypervolume: 0.36 + 0.025, Share: 1.0 / 3},
			{Group: "lambda=1", Candidates: 1, NonDominated: 1, Hypervolume: 0.11, Share: 1.0 / 3},
		})
	}
}

func TestFrontShardsAndTornLine(t *testing.T) {
	dir := t.TempDir()
	writeFrontRecords(t, filepath.Join(dir, "shard-0", "records.jsonl"), frontRecord("cheb", "c1", 0, 10, 0.3, 0))
	one := filepath.Join(dir, "shard-1", "records.jsonl")
	writeFrontRecords(t, one, frontRecord("cheb", "c1", 1, 20, 0.1, 0))
	f, err := os.OpenFile(one, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"method":"cheb","risk":0.`)
	f.Close()
	out, stderr, err := runFP(t, "front", "--front-rule", "minmax", "--json", dir)
	if err != nil {
		t.Fatal(err)
	}
	got := pooledSummaries(t, out)
	if len(got) != 1 || got[0].Candidates != 2 || got[0].NonDominated != 2 || got[0].Share != 1 {
		t.Errorf("got %+v, want one group of 2 candidates, both non-dominated", got)
	}
	if !strings.Contains(stderr, "warning") || !strings.Contains(stderr, one+":2") {
		t.Errorf("stderr does not warn about %s:2: %q", one, stderr)
	}
}

func TestFrontMixedConfigs(t *testing.T) {
	dir := t.TempDir()
	writeFrontRecords(t, filepath.Join(dir, "a.jsonl"), frontRecord("cheb", "c1", 0, 10, 0.3, 0))
	writeFrontRecords(t, filepath.Join(dir, "b.jsonl"), frontRecord("cheb", "c2", 0, 12, 0.2, 0))
	_, _, err := runFP(t, "front", "--front-rule", "minmax", dir)
	if err == nil || !strings.Contains(err.Error(), "mix sweep configurations") {
		t.Errorf("a directory mixing configurations: error %v", err)
	}
	oneLine(t, err.Error())
	// Named separately they are two runs, named after their files.
	out, stderr, err := runFP(t, "front", "--front-rule", "minmax", "--json", filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl"))
	if err != nil || stderr != "" {
		t.Fatalf("error %v, stderr %q", err, stderr)
	}
	got := pooledSummaries(t, out)
	if len(got) != 2 || got[0].Group != "cheb/ato-penultimate (a)" || got[1].Group != "cheb/ato-penultimate (b)" {
		t.Errorf("groups %+v, want one per file", got)
	}
	// Grouped by method they pool, with a warning.
	_, stderr, err = runFP(t, "front", "--front-rule", "minmax", "--by", "method,penalty", filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "cheb/ato-penultimate pools candidates of 2 sweep configurations") {
		t.Errorf("no warning about the mixed group: %q", stderr)
	}
	// Grouping by λ pools sweeps on purpose: no warning.
	_, stderr, err = runFP(t, "front", "--front-rule", "minmax", "--by", "lambda", filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl"))
	if err != nil || stderr != "" {
		t.Errorf("--by lambda: error %v, stderr %q", err, stderr)
	}
}

func TestFrontErrors(t *testing.T) {
	cheb, _ := twoSweeps(t)
	onlyFailed := filepath.Join(t.TempDir(), "f.jsonl")
	failed := frontRecord("cheb", "c1", 0, 1, 1, 1)
	failed.Status = records.StatusFailed
	writeFrontRecords(t, onlyFailed, failed)
	adult := filepath.Join(t.TempDir(), "adult.jsonl")
	other := frontRecord("cheb", "c9", 0, 1, 1, 1)
	other.Dataset = "adult-sex"
	writeFrontRecords(t, adult, other)
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	if err := os.WriteFile(bad, []byte("{}\noops\n{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no argument", nil, "at least one"},
		{"bad metric", []string{"--metric", "auc", cheb}, `--metric "auc"`},
		{"bad grouping", []string{"--by", "colour", cheb}, `field "colour"`},
		{"missing path", []string{filepath.Join(cheb, "none.jsonl")}, "none.jsonl"},
		{"only failed", []string{onlyFailed}, "no successful candidate"},
		{"bad line", []string{bad}, bad + ":2:"},
		{"unknown flag after a path", []string{cheb, "--colour"}, "unknown flag --colour"},
		{"flag without its value", []string{cheb, "--metric"}, "needs an argument: --metric"},
		{"zero tolerance", []string{"--tolerance", "0", cheb}, "--tolerance 0"},
		{"other dataset", []string{cheb, adult}, "2 datasets (compas; adult-sex): a front or a comparison is of one dataset's candidates; give one dataset's runs, or keep the datasets apart with --by dataset,run"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runFP(t, append([]string{"front"}, tc.args...)...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			oneLine(t, err.Error())
		})
	}
}

// Grouped by dataset, records of two datasets are compared each on its own.
func TestFrontByDataset(t *testing.T) {
	cheb, linear := twoSweeps(t)
	adult := filepath.Join(t.TempDir(), "adult.jsonl")
	a, b := frontRecord("cheb", "c9", 0, 1, 0.5, 0), frontRecord("cheb", "c9", 1, 2, 0.1, 0)
	a.Dataset, b.Dataset = "adult-sex", "adult-sex"
	writeFrontRecords(t, adult, a, b)
	out, _, err := runFP(t, "front", "--front-rule", "minmax", "--json", "--by", "dataset,run", cheb, linear, adult)
	if err != nil {
		t.Fatal(err)
	}
	// compas alone is the hand-worked case; adult's one group has both
	// its points on its own front and the whole pooled front.
	checkFront(t, pooledSummaries(t, out), []pareto.Summary{
		{Group: "adult-sex/cheb/ato-penultimate", Candidates: 2, NonDominated: 2, Hypervolume: 0.21, Share: 1},
		{Group: "compas/cheb/ato-penultimate", Candidates: 3, NonDominated: 2, Hypervolume: 0.21, Share: 2.0 / 3},
		{Group: "compas/linear/ato-penultimate", Candidates: 1, NonDominated: 1, Hypervolume: 0.36, Share: 1.0 / 3},
	})
}

// Near duplicates count once unless the tolerance is below their distance.
func TestFrontTolerance(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	// X over [10, 20], Y over [0, 1]: (20, 0) and (20.0005, 0.00001) are
	// 5e-5 and 1e-5 apart normalised.
	writeFrontRecords(t, path, frontRecord("cheb", "c1", 0, 10, 1, 0), frontRecord("cheb", "c1", 1, 20.0005, 0, 0),
		frontRecord("cheb", "c1", 0.9, 20, 0.00001, 0))
	for _, tc := range []struct {
		tol  string
		want int
	}{{"1e-4", 2}, {"1e-5", 3}} {
		out, _, err := runFP(t, "front", "--front-rule", "minmax", "--json", "--tolerance", tc.tol, path)
		if err != nil {
			t.Fatal(err)
		}
		if got := pooledSummaries(t, out); got[0].NonDominated != tc.want {
			t.Errorf("--tolerance %s: %d distinct non-dominated, want %d", tc.tol, got[0].NonDominated, tc.want)
		}
	}
}
