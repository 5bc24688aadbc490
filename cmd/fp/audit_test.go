package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/fairness/audit"
)

// writeFile writes text to a fresh file and returns its path.
func writeAuditFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// handCSV is the hand-worked case of the fairness tests with text labels:
//
//	score = 0.1  0.2  0.2  0.3  0.5  0.6
//	y     = yes  yes  yes  yes  no   no    → 1 1 1 1 0 0
//	sex   = F    F    M    M    M    F     → a = 0 0 1 1 1 0 (M, the later value, is 1)
//	e     = 0.5  0.5  0.25 0.25 0.75 0.5
//
// risk = −[ln .1 + ln .2 + ln .2 + ln .3 + ln .5 + ln .4]/6, accuracy 0
// (predictions 0 0 0 0 1 1), ato = |2/7 − 3/10| = 1/70, dp = 1/54,
// eo = max(1/8, 3/64) = 1/8, eopp = 3/64 (worked out in fairness/mv_test.go).
// Per group: F has scores .1 .2 .6 and labels 1 1 0: base rate 2/3, mean
// score 0.3, accuracy 0, selection rate 1/3; M has .2 .3 .5 and 1 1 0:
// base rate 2/3, mean score 1/3, accuracy 0, selection rate 1/3.
const handCSV = `id,score,y,sex,e
1,0.1,yes,F,0.5
2,0.2,yes,F,0.5
3,0.2,yes,M,0.25
4,0.3,yes,M,0.25
5,0.5,no,M,0.75
6,0.6,no,F,0.5
`

func TestAuditHandWorked(t *testing.T) {
	path := writeAuditFile(t, "preds.csv", handCSV)
	out, _, err := runFP(t, "audit", "--data", path, "--score", "score", "--label", "y", "--group", "sex", "--propensity", "e", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var got audit.Result
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	risk := -(math.Log(0.1) + math.Log(0.2) + math.Log(0.2) + math.Log(0.3) + math.Log(0.5) + math.Log(0.4)) / 6
	if got.ATO == nil {
		t.Fatal("no ato in the output")
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"n", float64(got.N), 6}, {"risk", got.Risk, risk}, {"accuracy", got.Accuracy, 0},
		{"ato", *got.ATO, 1.0 / 70}, {"dp", got.DP, 1.0 / 54}, {"eo", got.EO, 1.0 / 8}, {"eopp", got.EOpp, 3.0 / 64},
	} {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("%s = %.17g, want %.17g", c.name, c.got, c.want)
		}
	}
	if got.LabelPositive != "yes" || got.GroupPositive != "M" {
		t.Errorf("coded 1: label %q, group %q; want yes, M", got.LabelPositive, got.GroupPositive)
	}
	want := []audit.Group{
		{Group: "F", GroupMetrics: fairness.GroupMetrics{A: 0, Count: 3, BaseRate: 2.0 / 3, MeanScore: 0.3, Accuracy: 0, SelectionRate: 1.0 / 3}},
		{Group: "M", GroupMetrics: fairness.GroupMetrics{A: 1, Count: 3, BaseRate: 2.0 / 3, MeanScore: 1.0 / 3, Accuracy: 0, SelectionRate: 1.0 / 3}},
	}
	checkAuditGroups(t, got.ByGroup, want)

	// The keys are the documented ones.
	var keys map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &keys); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"n", "risk", "accuracy", "ato", "dp", "eo", "eopp", "by_group"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("JSON output lacks key %q", k)
		}
	}

	// The text form says how the values were coded and prints every metric.
	out, _, err = runFP(t, "audit", "--data", path, "--score", "score", "--label", "y", "--group", "sex")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`label: "yes" coded as 1, "no" as 0`, `group: "M" coded as 1, "F" as 0`,
		"dp         0.0185185", "eo         0.125", "eopp       0.046875", "M      1  3      0.6667     0.3333"} {
		if !strings.Contains(out, s) {
			t.Errorf("text output lacks %q:\n%s", s, out)
		}
	}
	if strings.Contains(out, "ato") {
		t.Errorf("ato printed without a propensity column:\n%s", out)
	}
}

func checkAuditGroups(t *testing.T, got, want []audit.Group) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d group rows, want %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Group != w.Group || g.A != w.A || g.Count != w.Count ||
			math.Abs(g.BaseRate-w.BaseRate) > 1e-12 || math.Abs(g.MeanScore-w.MeanScore) > 1e-12 ||
			math.Abs(g.Accuracy-w.Accuracy) > 1e-12 || math.Abs(g.SelectionRate-w.SelectionRate) > 1e-12 {
			t.Errorf("group row %d = %+v, want %+v", i, g, w)
		}
	}
}

// A larger random file: the metrics are those of the fairness package on
// the same numbers, and the per-group rows match a direct count.
func TestAuditMatchesFairness(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 500
	p, y, a, e := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	var b strings.Builder
	b.WriteString("a,prob,label,e\n")
	for i := range n {
		a[i] = float64(rng.IntN(2))
		y[i] = float64(rng.IntN(2))
		p[i] = math.Round(min(1, rng.Float64()*0.8+0.2*a[i])*100) / 100 // ties
		e[i] = 0.05 + 0.9*rng.Float64()
		fmt.Fprintf(&b, "%g,%s,%g,%s\n", a[i], strconv.FormatFloat(p[i], 'g', -1, 64), y[i], strconv.FormatFloat(e[i], 'g', -1, 64))
	}
	path := writeAuditFile(t, "preds.csv", b.String())
	out, _, err := runFP(t, "audit", "--data", path, "--score", "prob", "--label", "label", "--group", "a", "--propensity", "e", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var got audit.Result
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	g, w, err := fairness.Binary(a, e)
	if err != nil {
		t.Fatal(err)
	}
	m, err := fairness.Evaluate(p, y, g, w)
	if err != nil {
		t.Fatal(err)
	}
	if got.N != n || got.Risk != m.Risk || got.Accuracy != m.Accuracy || got.ATO == nil || *got.ATO != m.ATO ||
		got.DP != m.DP || got.EO != m.EO || got.EOpp != m.EOpp {
		t.Errorf("audit %+v (ato %v), fairness.Evaluate %+v", got, got.ATO, m)
	}
	if got.LabelPositive != "1" || got.GroupPositive != "1" {
		t.Errorf("coded 1: %q, %q", got.LabelPositive, got.GroupPositive)
	}
	var want []audit.Group
	for g := range 2 {
		r := audit.Group{Group: strconv.Itoa(g), GroupMetrics: fairness.GroupMetrics{A: g}}
		var pos, sc, cor, sel float64
		for i := range n {
			if a[i] == float64(g) {
				r.Count++
				pos += y[i]
				sc += p[i]
				if (p[i] >= 0.5) == (y[i] == 1) {
					cor++
				}
				if p[i] >= 0.5 {
					sel++
				}
			}
		}
		c := float64(r.Count)
		r.BaseRate, r.MeanScore, r.Accuracy, r.SelectionRate = pos/c, sc/c, cor/c, sel/c
		want = append(want, r)
	}
	checkAuditGroups(t, got.ByGroup, want)
}

func TestAuditLabelCoding(t *testing.T) {
	for _, tc := range []struct {
		name, values  string // the label and group cells of two rows
		label, group  string // values coded 1
		codedInOutput bool
	}{
		{"numbers", "0,1;1,0", "1", "1", false},
		{"numbers written as floats", "0.0,1;1.0,0", "1", "1", false},
		{"true/false", "TRUE,b;false,a", "TRUE", "b", true},
		{"sorted numerically", "2,10;10,9", "10", "10", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			b.WriteString("s,y,g\n")
			for i, row := range strings.Split(tc.values, ";") {
				fmt.Fprintf(&b, "0.%d,%s\n", i+3, row)
			}
			path := writeAuditFile(t, "p.csv", b.String())
			out, _, err := runFP(t, "audit", "--data", path, "--score", "s", "--label", "y", "--group", "g", "--json")
			if err != nil {
				t.Fatal(err)
			}
			var got audit.Result
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatal(err)
			}
			if got.LabelPositive != tc.label || got.GroupPositive != tc.group {
				t.Errorf("coded 1: label %q, group %q; want %q, %q", got.LabelPositive, got.GroupPositive, tc.label, tc.group)
			}
			text, _, err := runFP(t, "audit", "--data", path, "--score", "s", "--label", "y", "--group", "g")
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(text, "coded as 1") != tc.codedInOutput {
				t.Errorf("coding printed = %v, want %v:\n%s", !tc.codedInOutput, tc.codedInOutput, text)
			}
		})
	}
	// A label with one value 0 or 1 is fine (every example negative or
	// positive); a group with one value is not.
	path := writeAuditFile(t, "p.csv", "s,y,g\n0.2,1,0\n0.7,1,1\n")
	if _, _, err := runFP(t, "audit", "--data", path, "--score", "s", "--label", "y", "--group", "g"); err != nil {
		t.Errorf("all-positive labels: %v", err)
	}
}

func TestAuditBadInput(t *testing.T) {
	const header = "score,y,g,e\n"
	for _, tc := range []struct {
		name  string
		text  string
		args  []string // extra flags
		wants []string // fragments of the error, after the file name
	}{
		{"empty file", "", nil, []string{"empty file"}},
		{"header only", header, nil, []string{"no data rows"}},
		{"missing column", "prob,y,g\n0.5,1,0\n", nil, []string{"line 1", `no column "score"`, "prob, y, g"}},
		{"missing propensity column", header + "0.5,1,0,0.5\n", []string{"--propensity", "p"}, []string{"line 1", `no column "p"`}},
		{"duplicate column", "score,y,g,score\n0.5,1,0,0.5\n", nil, []string{"line 1, column 4 (score)", "duplicate"}},
		{"non-numeric score", header + "0.5,1,0,0.5\nabc,1,1,0.5\n", nil, []string{"line 3, column 1 (score)", "expected a number", `"abc"`}},
		{"score above 1", header + "0.5,1,0,0.5\n1.5,1,1,0.5\n", nil, []string{"line 3, column 1 (score)", "1.5 is outside [0, 1]"}},
		{"negative score", header + "-0.1,1,0,0.5\n", nil, []string{"line 2, column 1 (score)", "outside [0, 1]"}},
		{"NaN score", header + "0.5,1,0,0.5\nNaN,1,1,0.5\n", nil, []string{"line 3, column 1 (score)", "finite", `"NaN"`}},
		{"Inf score", header + "0.5,1,0,0.5\n+Inf,1,1,0.5\n", nil, []string{"line 3, column 1 (score)", "finite"}},
		{"empty score", header + "0.5,1,0,0.5\n ,1,1,0.5\n", nil, []string{"line 3, column 1 (score)", "empty cell"}},
		{"empty label", header + "0.5,1,0,0.5\n0.5,,1,0.5\n", nil, []string{"line 3, column 2 (y)", "empty cell"}},
		{"empty group", header + "0.5,1,0,0.5\n0.5,1,,0.5\n", nil, []string{"line 3, column 3 (g)", "empty cell"}},
		{"ragged row", header + "0.5,1,0,0.5\n0.5,1,0\n", nil, []string{"line 3", "expected 4 fields", "got 3"}},
		{"long row", header + "0.5,1,0,0.5,9\n", nil, []string{"line 2", "expected 4 fields", "got 5"}},
		{"three-valued label", header + "0.5,0,0,0.5\n0.5,1,1,0.5\n0.5,2,1,0.5\n", nil,
			[]string{"line 4, column 2 (y)", `third value "2"`}},
		{"one group", header + "0.5,0,1,0.5\n0.5,1,1,0.5\n", nil, []string{"column 3 (g)", `every row has the value "1"`, "two groups"}},
		{"one text label", header + "0.5,yes,1,0.5\n0.5,yes,0,0.5\n", nil, []string{"column 2 (y)", `every row has the value "yes"`}},
		{"propensity out of range", header + "0.5,1,0,0.5\n0.5,1,1,2\n", []string{"--propensity", "e"},
			[]string{"line 3, column 4 (e)", "2 is outside [0, 1]"}},
		{"propensity not a number", header + "0.5,1,0,x\n", []string{"--propensity", "e"}, []string{"line 2, column 4 (e)", "expected a number"}},
		{"weightless group", header + "0.5,1,0,0.5\n0.5,1,1,1\n", []string{"--propensity", "e"},
			[]string{"column 4 (e)", `group "1" (a=1)`, "propensity 1"}},
		{"bad quoting", header + "0.5,1,0,0.5\n\"0.5,1,0,0.5\n", nil, []string{"line 3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeAuditFile(t, "bad.csv", tc.text)
			args := append([]string{"audit", "--data", path, "--score", "score", "--label", "y", "--group", "g"}, tc.args...)
			out, _, err := runFP(t, args...)
			if err == nil {
				t.Fatalf("accepted; output:\n%s", out)
			}
			msg := err.Error()
			oneLine(t, msg)
			if !strings.HasPrefix(msg, path) {
				t.Errorf("error %q does not start with the file name", msg)
			}
			for _, w := range tc.wants {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
			if out != "" {
				t.Errorf("printed output despite the error:\n%s", out)
			}
		})
	}
}

func TestAuditUsageErrors(t *testing.T) {
	path := writeAuditFile(t, "p.csv", handCSV)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"missing file", []string{"--data", filepath.Join(t.TempDir(), "none.csv"), "--score", "score", "--label", "y", "--group", "sex"}, "none.csv"},
		{"extra argument", []string{"--data", path, "--score", "score", "--label", "y", "--group", "sex", "other.csv"}, "unexpected argument"},
		{"missing flag", []string{"--data", path, "--score", "score", "--label", "y"}, "group"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runFP(t, append([]string{"audit"}, tc.args...)...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// With --logit the risk is the records' softplus form, exact where a
// clipped probability is not: a confident mistake (z = 60, y = 0) costs 60,
// not −log(1e-15) ≈ 34.5.
func TestAuditLogits(t *testing.T) {
	z := []float64{60, -2.5, 0.3, 1.25, -0.75, 4}
	y := []float64{0, 0, 1, 1, 0, 1}
	a := []float64{0, 1, 0, 1, 1, 0}
	e := []float64{0.5, 0.4, 0.3, 0.6, 0.7, 0.2}
	var b strings.Builder
	b.WriteString("logit,label,group,e\n")
	for i := range z {
		fmt.Fprintf(&b, "%s,%g,%g,%g\n", strconv.FormatFloat(z[i], 'g', -1, 64), y[i], a[i], e[i])
	}
	path := writeAuditFile(t, "logits.csv", b.String())
	out, _, err := runFP(t, "audit", "--data", path, "--logit", "logit", "--label", "label", "--group", "group", "--propensity", "e", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var got audit.Result
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	g, w, err := fairness.Binary(a, e)
	if err != nil {
		t.Fatal(err)
	}
	m, err := fairness.EvaluateLogits(z, y, g, w)
	if err != nil {
		t.Fatal(err)
	}
	if got.N != len(z) || got.Risk != m.Risk || got.Accuracy != m.Accuracy || got.ATO == nil || *got.ATO != m.ATO ||
		got.DP != m.DP || got.EO != m.EO || got.EOpp != m.EOpp {
		t.Errorf("audit --logit %+v, fairness.EvaluateLogits %+v", got, m)
	}
	if m.Risk < 60.0/6 {
		t.Errorf("risk %v: the confident mistake should cost 60/6 alone", m.Risk)
	}
	if got.ByGroup[0].MeanScore <= 0.5 || got.ByGroup[0].SelectionRate != 1 {
		t.Errorf("group 0 from logits: %+v", got.ByGroup[0])
	}

	for _, args := range [][]string{
		{"--score", "logit", "--logit", "logit"},
		{},
	} {
		all := append([]string{"audit", "--data", path, "--label", "label", "--group", "group"}, args...)
		if _, _, err := runFP(t, all...); err == nil || !strings.Contains(err.Error(), "--score or --logit") {
			t.Errorf("%v: err = %v, want one asking for --score or --logit", args, err)
		}
	}
}

// fp audit --json carries the decision metrics and each group's TPR and
// FPR; in three groups, one of them without positives, that group is left
// out of the TPR gap and named. The numbers are checked against a count
// written out here, independent of package fairness.
func TestAuditDecisionMetricsJSON(t *testing.T) {
	const csv = "p,y,g\n" +
		"0.9,1,a\n0.2,0,a\n0.7,0,a\n0.4,1,a\n" + // a: decisions 1 0 1 0: sel 1/2, TPR 1/2, FPR 1/2
		"0.8,1,b\n0.6,1,b\n0.1,0,b\n" + // b: 1 1 0: sel 2/3, TPR 1, FPR 0
		"0.3,0,c\n0.55,0,c\n" // c: 0 1: sel 1/2, no positives, FPR 1/2
	path := writeAuditFile(t, "three.csv", csv)
	out, _, err := runFP(t, "audit", "--data", path, "--score", "p", "--label", "y", "--group", "g", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	want := map[string]float64{"dp_diff": 2.0/3 - 0.5, "dp_ratio": 0.5 / (2.0 / 3), "eo_diff": 0.5, "eopp_diff": 0.5, "accuracy": 6.0 / 9}
	for k, v := range want {
		if g, ok := got[k].(float64); !ok || math.Abs(g-v) > 1e-12 {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	if np, _ := got["no_positives"].([]any); len(np) != 1 || np[0] != "c" {
		t.Errorf("no_positives = %v, want [c]", got["no_positives"])
	}
	groups, _ := got["by_group"].([]any)
	if len(groups) != 3 {
		t.Fatalf("by_group = %v", got["by_group"])
	}
	for i, w := range []struct{ tpr, fpr any }{{0.5, 0.5}, {1.0, 0.0}, {nil, 0.5}} {
		g := groups[i].(map[string]any)
		if g["tpr"] != w.tpr || g["fpr"] != w.fpr {
			t.Errorf("group %v: tpr %v, fpr %v; want %v, %v", g["group"], g["tpr"], g["fpr"], w.tpr, w.fpr)
		}
	}
	// The text names the scale of every metric once.
	text, _, err := runFP(t, "audit", "--data", path, "--score", "p", "--label", "y", "--group", "g")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(text, "mean-variance indices") != 1 || !strings.Contains(text, "dp_ratio") || !strings.Contains(text, "left out of the TPR gap") {
		t.Errorf("text output:\n%s", text)
	}
}

// fp audit judges the ato as fp train judges its test rows: each group's
// effective sample size and largest share of one row, printed and in the
// JSON, and a warning when one row carries much of a group's weight; well
// spread weights give none. In R groups likewise.
func TestAuditJudgesTheATO(t *testing.T) {
	// x is a = 0 (y, the later value, is 1), so its weights are ê: 0.5,
	// 0.6, 0.05 and 0.55, the second 35% of their sum.
	skewed := "score,y,g,p\n0.8,1,x,0.5\n0.7,1,x,0.6\n0.4,0,x,0.05\n0.6,1,x,0.55\n0.3,0,y,0.5\n0.2,0,y,0.45\n0.5,1,y,0.4\n0.1,0,y,0.5\n"
	var even strings.Builder
	even.WriteString("score,y,g,p\n")
	for i := range 200 {
		fmt.Fprintf(&even, "%.2f,%d,%s,%.2f\n", 0.3+0.002*float64(i), i%2, []string{"x", "y"}[i%3%2], 0.4+0.001*float64(i))
	}
	for _, tc := range []struct {
		name, csv string
		reliable  bool
	}{{"one row carries a group", skewed, false}, {"weights spread", even.String(), true}} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeAuditFile(t, "preds.csv", tc.csv)
			args := []string{"audit", "--data", path, "--score", "score", "--label", "y", "--group", "g", "--propensity", "p"}
			text, _, err := runFP(t, args...)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(text, "overlap of the ato's weights on the audited rows: extreme ") || !strings.Contains(text, "ESS x ") {
				t.Errorf("no overlap line:\n%s", text)
			}
			warned := strings.Contains(text, "warning: the ato is unreliable (")
			if warned == tc.reliable {
				t.Errorf("warning printed %v:\n%s", warned, text)
			}
			if !tc.reliable && !strings.Contains(text, `on the audited rows one row carries 3`) {
				t.Errorf("the warning does not name the row's share:\n%s", text)
			}
			js, _, err := runFP(t, append(args, "--json")...)
			if err != nil {
				t.Fatal(err)
			}
			var got struct {
				ATO         *float64 `json:"ato"`
				ATOReliable *bool    `json:"ato_reliable"`
				Reason      string   `json:"ato_unreliable_reason"`
				Overlap     struct {
					Groups []struct {
						Level    string  `json:"level"`
						N        int     `json:"n"`
						ESS      float64 `json:"ess"`
						MaxShare float64 `json:"max_share"`
					} `json:"groups"`
				} `json:"overlap"`
			}
			if err := json.Unmarshal([]byte(js), &got); err != nil {
				t.Fatal(err)
			}
			if got.ATO == nil || got.ATOReliable == nil || *got.ATOReliable != tc.reliable || (got.Reason == "") != tc.reliable ||
				len(got.Overlap.Groups) != 2 || got.Overlap.Groups[0].Level != "x" {
				t.Fatalf("JSON %s", js)
			}
			if !tc.reliable {
				// x's weights: ê = 0.5, 0.6, 0.05, 0.55 (a = 0), 1.7 in all.
				x := got.Overlap.Groups[0]
				if math.Abs(x.MaxShare-0.6/1.7) > 1e-9 || math.Abs(x.ESS-1.7*1.7/(0.25+0.36+0.0025+0.3025)) > 1e-9 || x.N != 4 {
					t.Errorf("group x: %+v", x)
				}
			}
		})
	}
	// Three groups, C's weight on one of its three rows.
	groups := "score,y,g,propensity_A,propensity_B,propensity_C\n" +
		"0.8,1,A,0.4,0.4,0.2\n0.7,0,A,0.4,0.4,0.2\n0.6,1,B,0.4,0.4,0.2\n0.5,0,B,0.4,0.4,0.2\n" +
		"0.4,1,C,0.3,0.3,0.4\n0.3,0,C,0.45,0.45,0.1\n0.2,1,C,0.49,0.49,0.02\n"
	text, _, err := runFP(t, "audit", "--data", writeAuditFile(t, "groups.csv", groups), "--score", "score", "--label", "y", "--group", "g")
	if err != nil || !strings.Contains(text, "ESS C ") || !strings.Contains(text, `one row carries `) || !strings.Contains(text, `of group "C"'s weight`) {
		t.Errorf("three groups: %v\n%s", err, text)
	}
	// Without propensities nothing is judged.
	path := writeAuditFile(t, "preds.csv", skewed)
	js, _, err := runFP(t, "audit", "--data", path, "--score", "score", "--label", "y", "--group", "g", "--json")
	if err != nil || strings.Contains(js, "ato_reliable") || strings.Contains(js, `"overlap"`) {
		t.Errorf("no propensity: %v\n%s", err, js)
	}
}
