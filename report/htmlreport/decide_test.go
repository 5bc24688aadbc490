package htmlreport

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/records"
)

// Decided on the selection rows, the page marks the candidates
// non-dominated there, shows their test metrics and says so.
func TestBuildDecidesOnSelectionRows(t *testing.T) {
	dir := t.TempDir()
	w, err := records.Open(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	// [test risk, test metric, selection risk, selection metric]: the
	// second is dominated on the test rows only, the fourth on the
	// selection rows only.
	for i, m := range [][4]float64{{0.60, 0.02, 0.60, 0.10}, {0.65, 0.10, 0.62, 0.01}, {0.70, 0, 0.70, 0}, {0.55, 0.05, 0.75, 0.2}} {
		r := records.Record{Dataset: "compas", Sensitive: "race", Method: "cheb", Penalty: "ato-penultimate", Lambda: float64(i),
			Risk: m[0], ATO: m[1], DP: m[1], EO: m[1], EOpp: m[1], Status: records.StatusOK, Config: "abc",
			Selection: &records.Selection{SelRisk: m[2], SelATO: m[3], SelDP: m[3], SelEO: m[3], SelEOpp: m[3], NSel: 9}}
		if err := w.Append(&r); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	for _, tc := range []struct {
		flag    string
		decided string
		front   []bool
	}{
		{"", "selection", []bool{true, true, true, false}},
		{"test", "test", []bool{true, false, true, true}},
	} {
		p, err := Build([]string{dir}, Options{Decide: tc.flag, Resamples: 10})
		if err != nil {
			t.Fatal(err)
		}
		if p.DecidedOn != tc.decided {
			t.Errorf("--decide-on %q: decided on %q, want %q", tc.flag, p.DecidedOn, tc.decided)
		}
		for i, c := range p.Data.Candidates {
			if on := len(c.Front) == 4; on != tc.front[i] {
				t.Errorf("decided on %s: candidate %d on the fronts %v, want %v", tc.decided, i, c.Front, tc.front[i])
			}
		}
		if got := float64(p.Data.Candidates[1].Risk); got != 0.65 {
			t.Errorf("decided on %s: shown risk %g, want the test risk 0.65", tc.decided, got)
		}
		var page bytes.Buffer
		if err := Render(&page, p); err != nil {
			t.Fatal(err)
		}
		if note := strings.Contains(page.String(), "chosen on selection rows, shown on test rows"); note != (tc.decided == "selection") {
			t.Errorf("decided on %s: the page's note present = %v", tc.decided, note)
		}
	}
}
