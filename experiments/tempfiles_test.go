package experiments_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fpareto/fp/experiments"
)

// A run that claims a folder removes the temporary files a killed run of
// its shard left: all of fp's temporary names in its own splits' folders,
// and at the top those older than a minute. Files of other shards' splits,
// recent top-level ones (another shard may be writing them) and files of
// other names stay.
func TestNewRunnerRemovesStaleTempFiles(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	old := time.Now().Add(-time.Hour)
	files := []struct {
		path    string
		old     bool
		removed bool
	}{
		{"networks/split-000/.cheb-ato-penultimate-lambda-0.1.json.tmp123456", false, true},
		{"splits/split-000/.propensity.json.tmp42", false, true},
		{"splits/split-000/.lockstep-cheb.json.tmp7", true, true},
		{"networks/split-001/.cheb-ato-penultimate-lambda-0.1.json.tmp99", true, false}, // shard 1's split
		{".config.json.tmp3141", true, true},
		{".front-ato.png.tmp2718", false, false}, // may be another process's write in progress
		{"networks/split-000/notes.tmp1", true, false},
		{"networks/split-000/.keep", true, false},
		{"splits/split-000/.std-risk.json.tmpx", true, false},
	}
	for _, f := range files {
		p := filepath.Join(out, f.path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
		if f.old {
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	c := smallConfig()
	c.Shard = experiments.Shard{Index: 0, Count: 2}
	r, err := experiments.NewRunner(c, out, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	for _, f := range files {
		_, err := os.Stat(filepath.Join(out, f.path))
		switch gone := errors.Is(err, os.ErrNotExist); {
		case err != nil && !gone:
			t.Fatal(err)
		case gone != f.removed:
			t.Errorf("%s: removed %v, want %v", f.path, gone, f.removed)
		}
	}
}
