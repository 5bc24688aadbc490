package predict

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/datasets"
)

// RunFile writes the whole output or, on a bad row, nothing: no partial
// file, no temporary file, and an older output untouched.
func TestRunFileAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	d, err := datasets.LoadCSV(write("train.csv", "x,colour,y,g\n1,red,0,m\n2,blue,1,f\n3,red,0,f\n4,blue,1,m\n"),
		datasets.CSVOptions{Target: "y", Sensitive: "g"})
	if err != nil {
		t.Fatal(err)
	}
	f := network(t, d, "2x2")
	out := filepath.Join(dir, "scores.csv")
	n, err := RunFile(f, write("good.csv", "x,colour\n1,red\n2,blue\n"), out, Options{Threshold: 0.5})
	if err != nil || n != 2 {
		t.Fatalf("RunFile = %d, %v", n, err)
	}
	good, err := os.ReadFile(out)
	if err != nil || len(strings.Split(strings.TrimSpace(string(good)), "\n")) != 3 {
		t.Fatalf("output %q, %v", good, err)
	}
	if st, _ := os.Stat(out); st.Mode().Perm() != 0o644 {
		t.Errorf("output mode %v, want 0644", st.Mode().Perm())
	}
	if _, err := RunFile(f, write("bad.csv", "x,colour\n1,red\n2,mauve\n"), out, Options{Threshold: 0.5}); !errors.Is(err, datasets.ErrUnknownLevel) {
		t.Fatalf("bad row: err = %v", err)
	}
	if now, _ := os.ReadFile(out); string(now) != string(good) {
		t.Errorf("a failed run changed the older output: %q", now)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	if _, err := RunFile(f, filepath.Join(dir, "missing.csv"), out, Options{}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing data: err = %v", err)
	}
}
