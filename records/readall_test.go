package records

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeRecords writes recs to path (creating its directory).
func writeRecords(t *testing.T, path string, recs ...Record) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := Open(path)
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

func withConfig(r Record, config string) Record { r.Config = config; return r }

func TestReadAllDirectory(t *testing.T) {
	dir := t.TempDir()
	writeRecords(t, filepath.Join(dir, "b.jsonl"), sample(1))
	writeRecords(t, filepath.Join(dir, "a.jsonl"), sample(0))
	writeRecords(t, filepath.Join(dir, "shard-1", "records.jsonl"), sample(2))
	writeRecords(t, filepath.Join(dir, "shard-1", "deep", "x.jsonl"), sample(9)) // two levels down: not read
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not records"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, warnings, err := ReadAll([]string{dir})
	if err != nil || len(warnings) != 0 {
		t.Fatalf("ReadAll: %v, warnings %v", err, warnings)
	}
	var lambdas []float64
	for _, r := range got {
		lambdas = append(lambdas, r.Lambda)
	}
	// Lexical file order: a.jsonl, b.jsonl, shard-1/records.jsonl.
	if want := []float64{0, 0.1, 0.2}; !slices.Equal(lambdas, want) {
		t.Errorf("λ of the records read = %v, want %v", lambdas, want)
	}
}

func TestReadAllTornWarning(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.jsonl")
	writeLines(t, path, 2, tornTail)
	got, warnings, err := ReadAll([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var torn *TornLineError
	if len(got) != 2 || len(warnings) != 1 || !errors.As(warnings[0], &torn) || torn.Line != 3 {
		t.Errorf("got %d records and warnings %v; want 2 and one torn line at 3", len(got), warnings)
	}
}

func TestReadAllConfigs(t *testing.T) {
	dir := t.TempDir()
	writeRecords(t, filepath.Join(dir, "one", "r.jsonl"), withConfig(sample(0), "c1"))
	writeRecords(t, filepath.Join(dir, "two", "r.jsonl"), withConfig(sample(1), "c2"))

	// Separate arguments may differ.
	got, _, err := ReadAll([]string{filepath.Join(dir, "one"), filepath.Join(dir, "two", "r.jsonl")})
	if err != nil || len(got) != 2 {
		t.Fatalf("separate sweeps: %d records, %v", len(got), err)
	}
	// One directory holding both is refused.
	_, _, err = ReadAll([]string{dir})
	if err == nil || !strings.Contains(err.Error(), "mix sweep configurations") ||
		!strings.Contains(err.Error(), `"c1"`) || !strings.Contains(err.Error(), `"c2"`) {
		t.Errorf("mixed directory: error %v", err)
	}
}

func TestReadAllErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte("{}\nnot json\n{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		paths []string
		want  string
	}{
		{"nothing", nil, "no file or directory"},
		{"missing", []string{filepath.Join(dir, "nope.jsonl")}, "nope.jsonl"},
		{"empty dir", []string{t.TempDir()}, "no *.jsonl file"},
		{"bad line", []string{dir}, bad + ":2:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := ReadAll(tc.paths)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestSucceeded(t *testing.T) {
	recs := []Record{sample(0), sample(1), sample(2)}
	recs[1].Status = StatusFailed
	ok, failed := Succeeded(recs)
	if len(ok) != 2 || failed != 1 || ok[1].Lambda != recs[2].Lambda {
		t.Errorf("Succeeded: %d ok, %d failed", len(ok), failed)
	}
}

func TestGrouping(t *testing.T) {
	adv := sample(4)
	adv.Method, adv.Penalty = "adversarial", ""
	for _, tc := range []struct {
		by   string
		rec  Record
		want string
	}{
		{"method,penalty", sample(1), "cheb/ato-penultimate"},
		{"method, penalty", adv, "adversarial"},
		{"penalty", adv, "(none)"},
		{"lambda", sample(1), "lambda=0.1"},
		{"split", sample(5), "split=2"},
		{"method,split,engine", sample(0), "cheb/split=0/graph"},
	} {
		g, err := ParseGrouping(tc.by)
		if err != nil {
			t.Fatal(err)
		}
		if got := g.Key(&tc.rec); got != tc.want {
			t.Errorf("%q: key %q, want %q", tc.by, got, tc.want)
		}
	}
	for _, bad := range []string{"", "method,", "colour"} {
		if _, err := ParseGrouping(bad); err == nil {
			t.Errorf("ParseGrouping(%q) accepted", bad)
		}
	}
	g, _ := ParseGrouping("split")
	groups := GroupBy([]Record{sample(0), sample(1), sample(3), adv}, g)
	if len(groups) != 2 || len(groups["split=1"]) != 2 || len(groups["split=0"]) != 2 || groups["split=0"][1].Lambda != 0.3 {
		t.Errorf("GroupBy: %v", groups)
	}
}
