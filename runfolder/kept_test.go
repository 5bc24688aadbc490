package runfolder

import (
	"os"
	"path/filepath"
	"testing"
)

// KeptAt finds the run folder above a path, whatever its name (here one
// that holds only its configuration and records, so that its records
// alone make it a run folder), and names what the folder keeps there.
func TestKeptAt(t *testing.T) {
	run := filepath.Join(t.TempDir(), `a[1]\b`)
	for _, f := range []string{ConfigFile, RecordsFile(Shard{})} {
		p := filepath.Join(run, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ rel, want string }{
		{"records.jsonl", "a records file"},
		{"records.jsonl.lock", "a records file"},
		{"other.jsonl", "a records file"},
		{"config.json", "the configuration"},
		{"runs.log", "the invocation log"},
		{"networks/split-000/x.json", "a stored network"},
		{"splits/split-001/propensity.json", "a per-split file (propensity model, standardization, overlap)"},
		{"networks", "a folder"},
		{"running.json", "the invocation line of a running run (a killed run's, until the next run logs it)"},
		{"running-shard-2-of-3.json", "the invocation line of a running run (a killed run's, until the next run logs it)"},
		{"running-notes.json", ""},
		{"front.png", ""},
		{"networks/split-000/x.onnx", ""},
	} {
		gotRun, what := KeptAt(filepath.Join(run, filepath.FromSlash(tc.rel)))
		if what != tc.want || (tc.want != "" && gotRun != run) {
			t.Errorf("%s: run %q, %q; want %q in %s", tc.rel, gotRun, what, tc.want, run)
		}
	}
	if gotRun, what := KeptAt(filepath.Join(filepath.Dir(run), "records.jsonl")); gotRun != "" || what != "" {
		t.Errorf("outside the run: %q, %q; want none", gotRun, what)
	}
	for name, want := range map[string]bool{"records.jsonl": true, "records-shard-1-of-2.jsonl.lock": true, "other.jsonl": false, "records.json": false} {
		if IsRecordsName(name) != want {
			t.Errorf("IsRecordsName(%q) = %v", name, !want)
		}
	}
}
