package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/records"
)

// writeSweep writes records with the given (risk, ato, accuracy) into a
// new folder and returns it.
func writeSweep(t *testing.T, pts [][3]float64, collapsed map[int]bool) string {
	t.Helper()
	dir := t.TempDir()
	w, err := records.Open(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for i, p := range pts {
		r := records.Record{Dataset: "compas", Method: "cheb", Penalty: "ato-penultimate", Split: 0,
			Lambda: float64(i) / 10, Risk: p[0], ATO: p[1], Accuracy: p[2], DP: p[1] / 2, EO: p[1] / 3, EOpp: p[1] / 4,
			Status: records.StatusOK, Config: "abc", Collapsed: collapsed[i],
			Weights: filepath.Join("networks", "split-000", "net-"+string(rune('a'+i))+".json")}
		if err := w.Append(&r); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestPick(t *testing.T) {
	// λ index: 0..5. Index 1 is dominated by 2; index 5 is collapsed.
	pts := [][3]float64{
		{0.60, 0.20, 0.70},
		{0.62, 0.12, 0.68},
		{0.61, 0.10, 0.69},
		{0.62, 0.02, 0.67},
		{0.70, 0.01, 0.60},
		{0.50, 0.00, 0.90},
	}
	dir := writeSweep(t, pts, map[int]bool{5: true})
	cases := []struct {
		args   []string
		lambda float64 // the pick's λ, or −1 for an error
		want   string  // in the error
	}{
		{[]string{"--max-unfairness", "0.05"}, 0.3, ""},
		{[]string{"--max-unfairness", "0.1"}, 0.2, ""},
		{[]string{"--max-risk", "0.615"}, 0.2, ""},
		{[]string{"--min-accuracy", "0.7"}, 0, ""},
		{[]string{"--knee"}, 0.3, ""},
		{[]string{"--max-unfairness", "0.001"}, -1, "closest is cheb/ato-penultimate split 0 λ = 0.4"},
		{[]string{"--max-risk", "0.5"}, -1, "closest is cheb/ato-penultimate split 0 λ = 0 "},
		{[]string{"--min-accuracy", "0.95"}, -1, "λ = 0 "},
		{[]string{"--knee", "--max-risk", "1"}, -1, "exactly one"},
		{nil, -1, "exactly one"},
		{[]string{"--knee", "--metric", "bogus"}, -1, "bogus"},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			stdout, stderr, err := runFP(t, append([]string{"pick", dir, "--json"}, tc.args...)...)
			if tc.lambda < 0 {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("err = %v, want one naming %q", err, tc.want)
				}
				oneLine(t, err.Error())
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]any
			if err := json.Unmarshal([]byte(stdout), &got); err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"run", "split", "lambda", "method", "penalty", "risk", "accuracy", "ato", "dp", "eo", "eopp", "weights"} {
				if _, ok := got[k]; !ok {
					t.Errorf("JSON lacks %q: %s", k, stdout)
				}
			}
			if got["lambda"].(float64) != tc.lambda {
				t.Errorf("picked λ = %v, want %v", got["lambda"], tc.lambda)
			}
			if w := got["weights"].(string); !strings.HasPrefix(w, dir) {
				t.Errorf("weights %q not resolved against %s", w, dir)
			}
			if !strings.Contains(stderr, "optimistic") {
				t.Errorf("no warning about choosing on the test rows: %q", stderr)
			}
		})
	}
	// The text form names the file and the command that uses it.
	stdout, _, err := runFP(t, "pick", dir, "--knee")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"net-d.json", "fp predict --model " + filepath.Join(dir, "networks", "split-000", "net-d.json")} {
		if !strings.Contains(stdout, w) {
			t.Errorf("output lacks %q:\n%s", w, stdout)
		}
	}
}
