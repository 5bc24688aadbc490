package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/records"
)

// fp front and fp compare say when two splits leave the p-value unable to
// reach 0.05.
func TestFrontAndCompareNoteTooFewSplits(t *testing.T) {
	dir := t.TempDir()
	cheb, linear := filepath.Join(dir, "cheb.jsonl"), filepath.Join(dir, "linear.jsonl")
	// On each split cheb's two extremes and linear's middle point: the
	// hypervolumes differ (0.21 against 0.36), yet p stays at 0.5.
	var cs, ls []records.Record
	for m := range 2 {
		a, b, l := frontRecord("cheb", "c1", 0, 10, 0.3, 0.5), frontRecord("cheb", "c1", 1, 20, 0.1, 0.1), frontRecord("linear", "c2", 0.5, 15, 0.2, 0.3)
		a.Split, b.Split, l.Split = m, m, m
		cs, ls = append(cs, a, b), append(ls, l)
	}
	writeFrontRecords(t, cheb, cs...)
	writeFrontRecords(t, linear, ls...)
	for _, cmd := range []string{"front", "compare"} {
		out, _, err := runFP(t, cmd, "--front-rule", "minmax", cheb, linear)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out, "note: 2 paired splits cannot give p below 0.5") ||
			!strings.Contains(out, "(6 splits can reach it)") {
			t.Errorf("fp %s:\n%s", cmd, out)
		}
	}
}
