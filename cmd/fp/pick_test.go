package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/records"
)

// writeSweep writes records with the given (risk, ato, accuracy), each
// changed by mark when not nil, into a new folder and returns it.
func writeSweep(t *testing.T, pts [][3]float64, mark func(i int, r *records.Record)) string {
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
			Status: records.StatusOK, Config: "abc",
			Weights: filepath.Join("networks", "split-000", "net-"+string(rune('a'+i))+".json")}
		if mark != nil {
			mark(i, &r)
		}
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
	dir := writeSweep(t, pts, func(i int, r *records.Record) { r.Collapsed = i == 5 })
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

// kneeSweep has its knee at λ = 0.1 (risk 0.52); without that candidate,
// the knee is λ = 0.3 (risk 0.61). Every candidate but λ = 0.1 is better
// than the constant predictor (risk 0.9).
var kneeSweep = [][3]float64{{0.50, 0.30, 0.75}, {0.52, 0.10, 0.74}, {0.60, 0.08, 0.70}, {0.61, 0.02, 0.69}, {0.70, 0.015, 0.60}, {0.80, 0.01, 0.55}}

func TestPickLeavesOutDegenerateCandidates(t *testing.T) {
	cases := []struct {
		name string
		mark func(r *records.Record)
		why  string // in the note on standard error
	}{
		{"single class", func(r *records.Record) { r.SingleClass = true }, "1 single-class"},
		{"near-constant", func(r *records.Record) { r.NearConstant = true }, "1 near-constant"},
		{"worse than constant", func(r *records.Record) { c := 0.515; r.ConstRisk = &c }, "1 no better than constant"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeSweep(t, kneeSweep, func(i int, r *records.Record) {
				c := 0.9
				r.ConstRisk = &c
				if i == 1 {
					tc.mark(r)
				}
			})
			pick := func(args ...string) (map[string]any, string) {
				t.Helper()
				stdout, stderr, err := runFP(t, append([]string{"pick", dir, "--knee", "--json"}, args...)...)
				if err != nil {
					t.Fatal(err)
				}
				var got map[string]any
				if err := json.Unmarshal([]byte(stdout), &got); err != nil {
					t.Fatal(err)
				}
				return got, stderr
			}
			got, stderr := pick()
			if got["lambda"].(float64) != 0.3 {
				t.Errorf("knee λ = %v, want 0.3 once λ = 0.1 is left out", got["lambda"])
			}
			want := "fp: note: left out 1 of 6 candidates before forming the front: " + tc.why + " (--allow-degenerate"
			if !strings.Contains(stderr, want) {
				t.Errorf("standard error lacks %q:\n%s", want, stderr)
			}
			for _, k := range []string{"single_class", "collapsed", "near_constant", "const_risk", "no_better_than_constant", "left_out"} {
				if _, ok := got[k]; !ok {
					t.Errorf("JSON lacks %q: %v", k, got)
				}
			}
			if got["const_risk"].(float64) != 0.9 || got["single_class"].(bool) || got["near_constant"].(bool) {
				t.Errorf("JSON flags of the pick %v, want none set and const_risk 0.9", got)
			}
			// --allow-degenerate restores the choice made among all.
			got, stderr = pick("--allow-degenerate")
			if got["lambda"].(float64) != 0.1 || strings.Contains(stderr, "left out") {
				t.Errorf("--allow-degenerate: knee λ = %v, stderr %q; want 0.1 and nothing left out", got["lambda"], stderr)
			}
			degenerate := got["single_class"].(bool) || got["near_constant"].(bool) || got["no_better_than_constant"].(bool)
			if !degenerate {
				t.Errorf("--allow-degenerate: the JSON does not say the pick is degenerate: %v", got)
			}
		})
	}
}

func TestPickRefusals(t *testing.T) {
	// Records of older runs carry no const_risk: not tested against it.
	old := writeSweep(t, kneeSweep, nil)
	stdout, stderr, err := runFP(t, "pick", old, "--knee", "--json")
	if err != nil || !strings.Contains(stdout, `"lambda": 0.1`) || !strings.Contains(stdout, `"const_risk": null`) || strings.Contains(stderr, "left out") {
		t.Errorf("records without const_risk: err %v, stdout %s, stderr %q; want λ = 0.1, const_risk null, nothing left out", err, stdout, stderr)
	}
	// No knee stands out: the best-balanced point, the middle one, with a
	// note on stderr and in the JSON.
	line := writeSweep(t, [][3]float64{{0.5, 0.5, 0.7}, {0.625, 0.375, 0.7}, {0.75, 0.25, 0.7}, {0.875, 0.125, 0.7}, {1, 0, 0.7}}, nil)
	for _, args := range [][]string{{"--knee"}, {"--knee", "--json"}} {
		stdout, stderr, err := runFP(t, append([]string{"pick", line}, args...)...)
		if err != nil {
			t.Fatalf("straight front %v: %v", args, err)
		}
		if want := "fp: note: no point of the front stands out by its trade-off; the best-balanced point was taken"; !strings.Contains(stderr, want) {
			t.Errorf("straight front %v: stderr %q, want %q", args, stderr, want)
		}
		if !strings.Contains(stdout, "net-c.json") {
			t.Errorf("straight front %v: picked\n%s\nwant the middle point, λ = 0.2", args, stdout)
		}
		if json := len(args) == 2; json != strings.Contains(stdout, `"note": "no point of the front stands out`) {
			t.Errorf("straight front %v: the JSON note is missing, or the text carries it:\n%s", args, stdout)
		}
	}
	// Every candidate degenerate: say so, and how to keep them.
	all := writeSweep(t, kneeSweep[:2], func(i int, r *records.Record) { r.SingleClass = true })
	_, _, err = runFP(t, "pick", all, "--knee")
	if err == nil || !strings.Contains(err.Error(), "every candidate is degenerate (2 single-class)") || !strings.Contains(err.Error(), "--allow-degenerate") {
		t.Errorf("all single-class: err = %v", err)
	} else {
		oneLine(t, err.Error())
	}
}
