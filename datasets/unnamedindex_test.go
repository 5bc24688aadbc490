package datasets

import (
	"fmt"
	"strings"
	"testing"
)

// A file saved by pandas with its row index (a first column without a
// name) loads: the index is left out of the columns with a one-line note.
// Any other column without a name is refused, saying what to do.
func TestUnnamedIndexColumnLeftOut(t *testing.T) {
	var b strings.Builder
	b.WriteString(",y,a,x\n")
	for i := range 60 {
		fmt.Fprintf(&b, "%d,%d,%c,%.2f\n", i, i*7%3%2, "mf"[i*5%7%2], float64(i*37%101)/101)
	}
	path := writeCSV(t, b.String())
	d, err := LoadCSV(path, CSVOptions{Target: "y", Sensitive: "a"})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Notes) != 1 || !strings.Contains(d.Notes[0], "column 1 has no name") || !strings.Contains(d.Notes[0], "left out") ||
		!strings.HasPrefix(d.Notes[0], path) {
		t.Errorf("notes %q", d.Notes)
	}
	if len(d.Columns) != 1 || d.Columns[0] != "x" || len(d.ColumnWarnings) != 0 {
		t.Errorf("features %v, warnings %v; want x alone, no warning", d.Columns, d.ColumnWarnings)
	}
	for _, csv := range []string{"y,,x,a\n1,2,3,m\n0,2,3,f\n", ",\n1\n"} {
		_, err := LoadCSV(writeCSV(t, csv), CSVOptions{Target: "y", Sensitive: "a"})
		if err == nil || !strings.Contains(err.Error(), "empty column name") {
			t.Errorf("%q: err = %v, want the empty name refused", csv, err)
		}
	}
}
