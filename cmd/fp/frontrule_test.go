package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/compare"
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
		{"reference at 1", []string{"compare", "--front-rule", "minmax", "--reference", "1", riskC, riskL}, []string{"--reference 1", "above 1"}},
		{"reference far out", []string{"front", "--front-rule", "minmax", "--reference", "11", riskC}, []string{"--reference 11", "at most 10"}},
		{"reference 1.01", []string{"compare", "--front-rule", "minmax", "--reference", "1.01", riskC, riskL}, nil},
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
// rule existed, as docs/reproduction.md ran it. The text: every line of the
// committed file, in order, begins a line of the output (the paired tables
// have gained a q column and their headings name A and B), but for the
// line on p-values that now goes on to q-values. The JSON: every value of
// the committed file is the output's (the output adds the rule, the axis,
// the q-values and the runs).
func TestCompareMinMaxReproducesCommittedFile(t *testing.T) {
	t.Chdir("../..")
	runs := []string{"results/compas/scalarizations/cheb-ato-output", "results/compas/scalarizations/cheb-aug-ato-output"}
	want, err := os.ReadFile("results/compas/compare-cheb-aug.txt")
	if err != nil {
		t.Fatal(err)
	}
	// The overlap line no longer states the bound of an extreme ê, which
	// since scales with the groups' shares (these records hold the share
	// of ê < 0.01 or > 0.99, the bound of their time).
	want = bytes.ReplaceAll(want, []byte("extreme ê (< 0.01 or > 0.99) at most"), []byte("extreme ê at most"))
	out, _, err := runFP(t, "compare", "--front-rule", "minmax", runs[0], runs[1])
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(out, "\n")
	k := 0
	for _, line := range strings.Split(string(want), "\n") {
		if strings.HasSuffix(line, "p the two-sided Wilcoxon signed-rank p-value (* p < 0.05).") {
			continue
		}
		for k < len(got) && !strings.HasPrefix(got[k], line) {
			k++
		}
		if k == len(got) {
			t.Fatalf("compare-cheb-aug.txt: line %q is not reproduced:\n%s", line, out)
		}
		k++
	}
	if !strings.Contains(out, "split by split: A − B, A = cheb/ato-output ("+runs[0]+"), B = cheb-aug/ato-output ("+runs[1]+")") {
		t.Errorf("the paired table does not name A and B:\n%s", out)
	}

	var committed, now map[string]any
	raw, err := os.ReadFile("results/compas/compare-cheb-aug.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &committed); err != nil {
		t.Fatal(err)
	}
	js, _, err := runFP(t, "compare", "--front-rule", "minmax", "--json", runs[0], runs[1])
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(js), &now); err != nil {
		t.Fatal(err)
	}
	committed["overlap"] = now["overlap"] // the overlap bound's wording, as above
	if path, ok := subsetOf(committed, now, "$"); !ok {
		t.Errorf("compare-cheb-aug.json is not reproduced at %s", path)
	}
	paired := now["paired"].([]any)
	for _, p := range paired {
		row := p.(map[string]any)
		if _, ok := row["q_value"]; !ok || fmt.Sprint(row["a_runs"]) != "["+runs[0]+"]" || fmt.Sprint(row["b_runs"]) != "["+runs[1]+"]" {
			t.Errorf("paired row %v lacks q_value, or its a_runs and b_runs are not the runs given", row)
		}
	}
	// The default rule scales otherwise, and says so.
	out, _, err = runFP(t, append([]string{"compare"}, runs...)...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "front rule constant, x axis risk") {
		t.Errorf("the default comparison does not name its rule:\n%s", out)
	}
}

// subsetOf reports whether every value in want is in got, the same, and
// where the first one is not.
func subsetOf(want, got any, path string) (string, bool) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return path, false
		}
		for k, v := range w {
			if p, ok := subsetOf(v, g[k], path+"."+k); !ok {
				return p, false
			}
		}
		return "", true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return path, false
		}
		for i := range w {
			if p, ok := subsetOf(w[i], g[i], fmt.Sprintf("%s[%d]", path, i)); !ok {
				return p, false
			}
		}
		return "", true
	}
	return path, fmt.Sprint(want) == fmt.Sprint(got)
}
