package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fpareto/fp/compare"
	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/records"
)

// ruleSweeps writes compare's hand-worked case of the constant rule
// (compare.TestRunConstantRuleHandWorked) as two sweeps: on split 0 (constant
// 0.7) cheb (0.5, 0.2), (0.6, 0.1) and linear (0.55, 0.4), (0.8, 0); on
// split 1 (constant 1) cheb (1.2, 0.3), worse than constant, and linear
// (0.8, 0.6), (0.9, 0.3). The x is the risk, or with onError the error
// 1 − accuracy (every risk then 9, above const_risk). withError sets
// const_error, withRisk const_risk.
func ruleSweeps(t *testing.T, onError, withRisk, withError bool) (cheb, linear string) {
	mk := func(method, config string, split int, x, ato, c float64) records.Record {
		r := frontRecord(method, config, float64(len(method))+x, x, ato, 0)
		r.Split = split
		if onError {
			r.Risk, r.Accuracy = 9, 1-x
		}
		if withRisk {
			r.ConstRisk = &c
		}
		if withError {
			r.ConstError = &c
		}
		return r
	}
	dir := t.TempDir()
	cheb, linear = filepath.Join(dir, "cheb.jsonl"), filepath.Join(dir, "linear.jsonl")
	writeFrontRecords(t, cheb, mk("cheb", "c1", 0, 0.5, 0.2, 0.7), mk("cheb", "c1", 0, 0.6, 0.1, 0.7), mk("cheb", "c1", 1, 1.2, 0.3, 1))
	writeFrontRecords(t, linear, mk("linear", "c2", 0, 0.55, 0.4, 0.7), mk("linear", "c2", 0, 0.8, 0, 0.7),
		mk("linear", "c2", 1, 0.8, 0.6, 1), mk("linear", "c2", 1, 0.9, 0.3, 1))
	return cheb, linear
}

// fp front and fp compare scale by --front-rule (default constant) on
// --axis (default risk), say which in text and JSON, and refuse in one line
// records that lack what the rule needs.
func TestFrontRuleAndAxis(t *testing.T) {
	want := map[int]map[string]float64{ // compare's hand-worked per-split hypervolumes
		0: {"cheb/ato-penultimate": 0.835, "linear/ato-penultimate": 0.185},
		1: {"cheb/ato-penultimate": 0.11, "linear/ato-penultimate": 0.46},
	}
	riskC, riskL := ruleSweeps(t, false, true, false)
	errC, errL := ruleSweeps(t, true, true, true)
	for _, tc := range []struct {
		name       string
		args       []string
		rule, axis string
	}{
		{"defaults", []string{"front", "--json", riskC, riskL}, "constant", "risk"},
		{"compare", []string{"compare", "--json", riskC, riskL}, "constant", "risk"},
		{"error axis", []string{"front", "--json", "--axis", "error", errC, errL}, "constant", "error"},
		{"named", []string{"front", "--json", "--front-rule", "constant", "--axis", "risk", riskC, riskL}, "constant", "risk"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := runFP(t, tc.args...)
			if err != nil {
				t.Fatal(err)
			}
			var res compare.Result
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatal(err)
			}
			if res.FrontRule != tc.rule || res.Axis != tc.axis {
				t.Errorf("rule %q, axis %q; want %q, %q", res.FrontRule, res.Axis, tc.rule, tc.axis)
			}
			n := 0
			for _, h := range res.PerSplit {
				if h.Metric != "ato" {
					continue
				}
				n++
				if w := want[h.Split][h.Group]; math.Abs(h.Hypervolume-w) > 1e-9 {
					t.Errorf("split %d %s: hypervolume %.17g, want %g", h.Split, h.Group, h.Hypervolume, w)
				}
			}
			if n != 4 {
				t.Errorf("%d per-split rows of ato, want 4: %+v", n, res.PerSplit)
			}
		})
	}
	// On the risk axis the error-axis records' networks are all worse than
	// constant: every front is the constant predictor's, 0.11.
	out, _, err := runFP(t, "front", "--json", errC, errL)
	if err != nil {
		t.Fatal(err)
	}
	var res compare.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	for _, h := range res.PerSplit {
		if math.Abs(h.Hypervolume-0.11) > 1e-12 {
			t.Errorf("risk axis, worse-than-constant networks: split %d %s hypervolume %g, want 0.11", h.Split, h.Group, h.Hypervolume)
		}
	}
	text, _, err := runFP(t, "front", "--axis", "error", errC, errL)
	if err != nil || !strings.Contains(text, "front rule constant, x axis error (1 − accuracy)") || !strings.Contains(text, "error vs ato, pooled") {
		t.Errorf("text (%v):\n%s", err, text)
	}

	oldC, oldL := ruleSweeps(t, false, false, false) // neither constant recorded
	for _, tc := range []struct {
		name string
		args []string
		want []string // in the one-line error; nil: no error
	}{
		{"no const_risk", []string{"front", oldC, oldL}, []string{oldC, "const_risk", "--front-rule minmax"}},
		{"no const_risk, compare", []string{"compare", oldC, oldL}, []string{oldC, "const_risk", "--front-rule minmax"}},
		{"no const_risk, minmax", []string{"front", "--front-rule", "minmax", oldC, oldL}, nil},
		{"no const_error", []string{"front", "--axis", "error", riskC, riskL}, []string{riskC, "written before fp recorded const_error", "rerun the sweep"}},
		{"no const_error, minmax", []string{"compare", "--front-rule", "minmax", "--axis", "error", riskC, riskL}, nil},
		{"bad axis", []string{"front", "--axis", "auc", riskC}, []string{"--axis", `"auc"`, "risk or error"}},
		{"bad rule", []string{"compare", "--front-rule", "hv", riskC}, []string{"--front-rule", `"hv"`, "constant or minmax"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runFP(t, tc.args...)
			if tc.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil {
				t.Fatal("no error")
			}
			oneLine(t, err.Error())
			for _, s := range tc.want {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q lacks %q", err, s)
				}
			}
		})
	}
}

// The min–max rule reproduces a comparison committed before the constant
// rule existed, as docs/reproduction.md ran it: the text to the byte, and
// the JSON to the byte but for the two lines naming the rule and the axis,
// the text but for the note on the metrics' scales added since.
func TestCompareMinMaxReproducesCommittedFile(t *testing.T) {
	t.Chdir("../..")
	runs := []string{"results/compas/scalarizations/cheb-ato-output", "results/compas/scalarizations/cheb-aug-ato-output"}
	for _, tc := range []struct {
		file string
		args []string
		drop []string // lines of the output the committed file lacks
	}{
		{"results/compas/compare-cheb-aug.txt", nil, strings.Split(fairness.ScaleNote, "\n")},
		{"results/compas/compare-cheb-aug.json", []string{"--json"}, []string{`  "front_rule": "minmax",`, `  "axis": "risk",`}},
	} {
		want, err := os.ReadFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		// The overlap line no longer states the bound of an extreme ê, which
		// since scales with the groups' shares (these records hold the share
		// of ê < 0.01 or > 0.99, the bound of their time).
		want = bytes.ReplaceAll(want, []byte("extreme ê (< 0.01 or > 0.99) at most"), []byte("extreme ê at most"))
		out, _, err := runFP(t, append(append([]string{"compare", "--front-rule", "minmax"}, tc.args...), runs...)...)
		if err != nil {
			t.Fatal(err)
		}
		var kept []string
		dropped := 0
		for _, line := range strings.SplitAfter(out, "\n") {
			if slices.Contains(tc.drop, strings.TrimSuffix(line, "\n")) {
				dropped++
				continue
			}
			kept = append(kept, line)
		}
		if dropped != len(tc.drop) {
			t.Errorf("%s: the output does not state the rule and axis as %q", tc.file, tc.drop)
		}
		if got := strings.Join(kept, ""); !bytes.Equal([]byte(got), want) {
			t.Errorf("%s is not reproduced:\n%s", tc.file, firstDiff(got, string(want)))
		}
	}
	// The default rule scales otherwise, and says so.
	out, _, err := runFP(t, append([]string{"compare"}, runs...)...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "front rule constant, x axis risk") {
		t.Errorf("the default comparison does not name its rule:\n%s", out)
	}
}

// firstDiff shows the first line where got and want differ.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n got  %s\n want %s", i+1, a, b)
		}
	}
	return "(equal lines, different endings)"
}
