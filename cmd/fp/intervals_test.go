package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ciRun trains a small sweep on a fresh CSV and returns the run folder and
// the CSV.
func ciRun(t *testing.T) (dir, csv string) {
	t.Helper()
	root := t.TempDir()
	csv = filepath.Join(root, "data.csv")
	writeCIData(t, csv)
	dir = filepath.Join(root, "run")
	if _, stderr, err := runFP(t, "train", "--data", csv, "--target", "label", "--sensitive", "group", "--splits", "1",
		"--lambdas", "0,0.5,1", "--epochs", "10", "--engine", "backprop", "--out", dir, "-q", "--no-plot"); err != nil {
		t.Fatalf("train: %v\n%s", err, stderr)
	}
	return dir, csv
}

// writeCIData writes 400 rows of a CSV to csv: two features, a colour,
// the sensitive column group (f, m) and the target label (no, yes), which
// depends on the group.
func writeCIData(t *testing.T, csv string) {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	var b strings.Builder
	b.WriteString("x1,x2,colour,group,label\n")
	for range 400 {
		a := rng.IntN(2)
		x1 := rng.NormFloat64() + float64(a)
		y := 0
		if rng.Float64() < 0.3+0.4*float64(a) {
			y = 1
		}
		fmt.Fprintf(&b, "%.4f,%.4f,%s,%s,%s\n", x1, rng.NormFloat64(), []string{"red", "blue"}[rng.IntN(2)], []string{"f", "m"}[a], []string{"no", "yes"}[y])
	}
	if err := os.WriteFile(csv, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

var ciKeys = []string{"risk_ci", "accuracy_ci", "ato_ci", "dp_ci", "eo_ci", "eopp_ci"}

// fp pick and fp front --ci give the shown candidates intervals, as text
// and under their JSON keys; --ci-resamples 0 leaves them out.
func TestIntervalsInPickAndFront(t *testing.T) {
	dir, _ := ciRun(t)
	out, _, err := runFP(t, "pick", dir, "--max-unfairness", "1", "--allow-degenerate", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	for _, k := range ciKeys {
		iv, ok := got[k].([]any)
		if !ok || len(iv) != 2 || !(iv[0].(float64) <= iv[1].(float64)) {
			t.Errorf("pick --json: %s = %v, want [lo, hi]", k, got[k])
		}
	}
	if got["ci_resamples"] != 1000.0 {
		t.Errorf("pick --json: ci_resamples = %v, want the default 1000", got["ci_resamples"])
	}
	if _, ok := got["ci_low"]; ok {
		t.Error("pick --json carries fp compare's ci_low")
	}
	out, _, err = runFP(t, "pick", dir, "--max-unfairness", "1", "--allow-degenerate", "--json", "--ci-resamples", "0")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "_ci") {
		t.Errorf("pick --ci-resamples 0 gives intervals:\n%s", out)
	}
	out, _, err = runFP(t, "pick", dir, "--max-unfairness", "1", "--allow-degenerate", "--ci-resamples", "200")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "95% intervals from 200 bootstrap resamples") {
		t.Errorf("pick prints no intervals:\n%s", out)
	}

	out, _, err = runFP(t, "front", dir, "--ci", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var front struct {
		Front []map[string]any `json:"front"`
	}
	if err := json.Unmarshal([]byte(out), &front); err != nil {
		t.Fatal(err)
	}
	if len(front.Front) == 0 {
		t.Fatalf("front --ci --json has no front:\n%s", out)
	}
	for i, row := range front.Front {
		for _, k := range append(ciKeys, "risk", "split", "lambda", "weights") {
			if row[k] == nil {
				t.Errorf("front --ci --json: a row lacks %s: %v", k, row)
			}
		}
		// By test risk, as the table's heading says, whatever the risk
		// that formed the front.
		if r, ok := row["risk"].(float64); i > 0 && ok && r < front.Front[i-1]["risk"].(float64) {
			t.Errorf("front --ci: row %d has test risk %g, below row %d's %v", i, r, i-1, front.Front[i-1]["risk"])
		}
	}
	out, _, err = runFP(t, "front", dir, "--ci")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "non-dominated networks in (risk, ato)") || !strings.Contains(out, "95%") {
		t.Errorf("front --ci prints no front with intervals:\n%s", out)
	}
	if out, _, _ := runFP(t, "front", dir); strings.Contains(out, "95%") {
		t.Errorf("front without --ci prints intervals:\n%s", out)
	}
}

// Without the rows the run was scored on, fp pick shows no interval and
// says why in one line.
func TestIntervalsRefusedInPick(t *testing.T) {
	dir, csv := ciRun(t)
	data, err := os.ReadFile(csv)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		change func()
		want   string
	}{
		{"edited", func() {
			os.WriteFile(csv, []byte(strings.Replace(string(data), ",yes\n", ",no\n", 1)), 0o644)
		}, "its data now holds other rows than it was trained on"},
		{"missing", func() { os.Remove(csv) }, "its data cannot be reloaded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.change()
			defer os.WriteFile(csv, data, 0o644)
			out, stderr, err := runFP(t, "pick", dir, "--max-unfairness", "1", "--allow-degenerate", "--json")
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]any
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatal(err)
			}
			for _, k := range ciKeys {
				if v, ok := got[k]; !ok || v != nil {
					t.Errorf("%s = %v, want null", k, v)
				}
			}
			if !strings.Contains(got["ci_note"].(string), tc.want) {
				t.Errorf("ci_note %q, want it to say %q", got["ci_note"], tc.want)
			}
			var lines []string
			for _, l := range strings.Split(stderr, "\n") {
				if strings.Contains(l, "no intervals") {
					lines = append(lines, l)
				}
			}
			if len(lines) != 1 || !strings.Contains(lines[0], tc.want) {
				t.Errorf("stderr %q: want one line saying %q", stderr, tc.want)
			}
			text, _, err := runFP(t, "pick", dir, "--max-unfairness", "1", "--allow-degenerate")
			if err != nil || strings.Contains(text, "95%") {
				t.Errorf("pick prints intervals (%v):\n%s", err, text)
			}
		})
	}
}

func TestIntervalFlags(t *testing.T) {
	dir, _ := ciRun(t)
	for _, args := range [][]string{
		{"pick", dir, "--knee", "--ci-resamples", "1"},
		{"pick", dir, "--knee", "--ci-resamples", "-5"},
		{"front", dir, "--ci-resamples", "100"},
		{"report", dir, "--ci-resamples", "1"},
	} {
		_, _, err := runFP(t, args...)
		if err == nil || !strings.Contains(err.Error(), "--ci-resamples") {
			t.Errorf("%v: error %v, want one naming --ci-resamples", args, err)
			continue
		}
		oneLine(t, err.Error())
	}
}

// fp pick and fp front --ci say how many points of the front can be told
// apart from their neighbours, on the rows that decided the front, in text
// and JSON; without intervals they say nothing.
func TestDistinguishableInPickAndFront(t *testing.T) {
	dir, _ := ciRun(t)
	type dist struct {
		Rows            string `json:"rows"`
		Metric          string `json:"metric"`
		Points          int    `json:"points"`
		Distinguishable int    `json:"distinguishable"`
		Pairs           []struct {
			Paired bool `json:"paired"`
		} `json:"pairs"`
	}
	cases := []struct {
		name string
		args []string
		text string // in the text output
		rows string
	}{
		{"pick", []string{"pick", dir, "--knee", "--allow-degenerate", "--ci-resamples", "200"}, "the front it was picked from: ", "selection"},
		{"pick on test rows", []string{"pick", dir, "--knee", "--allow-degenerate", "--ci-resamples", "200", "--decide-on", "test"},
			"the front it was picked from: ", "test"},
		{"front", []string{"front", dir, "--ci", "--metric", "dp", "--ci-resamples", "200"}, "the front: ", "selection"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := runFP(t, tc.args...)
			if err != nil {
				t.Fatal(err)
			}
			var line string
			for _, l := range strings.Split(out, "\n") {
				if strings.HasPrefix(l, tc.text) {
					line = l
				}
			}
			if !strings.Contains(line, " points; ") || !strings.Contains(line, "at 95% on the "+tc.rows+" rows") ||
				!strings.Contains(line, "paired bootstrap") {
				t.Errorf("no statement of distinguishability in\n%s", out)
			}
			js, _, err := runFP(t, append(tc.args, "--json")...)
			if err != nil {
				t.Fatal(err)
			}
			var d dist
			if tc.name == "front" {
				var got struct {
					Front           []map[string]any `json:"front"`
					Distinguishable []dist           `json:"distinguishable"`
				}
				if err := json.Unmarshal([]byte(js), &got); err != nil {
					t.Fatal(err)
				}
				if len(got.Distinguishable) != 1 || got.Distinguishable[0].Points != len(got.Front) {
					t.Fatalf("front --ci --json: %d fronts tested, %d rows:\n%s", len(got.Distinguishable), len(got.Front), js)
				}
				d = got.Distinguishable[0]
			} else {
				var got struct {
					Distinguishable *dist `json:"distinguishable"`
				}
				if err := json.Unmarshal([]byte(js), &got); err != nil {
					t.Fatal(err)
				}
				if got.Distinguishable == nil {
					t.Fatalf("pick --json has no distinguishable:\n%s", js)
				}
				d = *got.Distinguishable
			}
			// One split: every pair of neighbours is paired.
			if d.Rows != tc.rows || d.Points < 2 || len(d.Pairs) != d.Points-1 || d.Distinguishable > d.Points {
				t.Errorf("distinguishable %+v", d)
			}
			for _, p := range d.Pairs {
				if !p.Paired {
					t.Errorf("a pair of one split not paired: %+v", d)
				}
			}
			if !strings.Contains(line, fmt.Sprintf("%d points; ", d.Points)) {
				t.Errorf("the text %q disagrees with the JSON %+v", line, d)
			}
			// No intervals asked for: no claim.
			none, _, err := runFP(t, append(tc.args, "--ci-resamples", "0")...)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(none, "distinguishable") {
				t.Errorf("--ci-resamples 0 states distinguishability:\n%s", none)
			}
		})
	}
}
