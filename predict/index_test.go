package predict

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/datasets"
)

// A file saved by pandas with its row index (a first column without a
// name) is scored as training read it: the index left out, with the same
// one-line note, and every row scored.
func TestUnnamedIndexColumnNoted(t *testing.T) {
	var b strings.Builder
	b.WriteString(",y,a,x\n")
	for i := range 60 {
		fmt.Fprintf(&b, "%d,%d,%c,%.2f\n", i, i*7%3%2, "mf"[i*5%7%2], float64(i*37%101)/101)
	}
	path := filepath.Join(t.TempDir(), "pandas.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := datasets.LoadCSV(path, datasets.CSVOptions{Target: "y", Sensitive: "a"})
	if err != nil {
		t.Fatal(err)
	}
	var notes []string
	recs := scoreFile(t, network(t, d, "2x3"), path, Options{Threshold: 0.5, Note: func(l string) { notes = append(notes, l) }})
	if len(recs) != 61 {
		t.Errorf("%d rows scored, want 60", len(recs)-1)
	}
	if len(notes) != 1 || len(d.Notes) != 1 || notes[0] != d.Notes[0] {
		t.Errorf("prediction's notes %q, training's %q: want the same one", notes, d.Notes)
	}
}
