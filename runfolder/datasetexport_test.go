package runfolder

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// DatasetExport writes every row of a built-in dataset, says so in one
// line, and refuses a folder or a file a run keeps as its output.
func TestDatasetExport(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "compas.csv")
	sum, notes, err := DatasetExport{Name: "compas"}.Write(out)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if rows := bytes.Count(b, []byte("\n")) - 1; rows != 6172 || len(notes) != 0 ||
		sum != "wrote 6172 rows of compas to "+out+` (two_year_recid: 1 means "1"; race: 1 means "African-American", 0 any other value)` {
		t.Errorf("%d rows, notes %q, summary %q", rows, notes, sum)
	}
	if err := os.MkdirAll(filepath.Join(dir, "run"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"run/config.json", "run/records.jsonl"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for out, want := range map[string]string{
		dir: "is a folder", filepath.Join(dir, "run", "records.jsonl"): "records",
	} {
		if _, _, err := (DatasetExport{Name: "compas"}).Write(out); err == nil || !strings.HasPrefix(err.Error(), "datasets export: --out") || !strings.Contains(err.Error(), want) {
			t.Errorf("--out %s: err = %v, want %q", out, err, want)
		}
	}
}
