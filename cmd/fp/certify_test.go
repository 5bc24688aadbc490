package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/fpareto/fp/records"
)

// fp pick --confidence: a certificate on success, a refusal with the
// closest candidate and the rows it would need (and the same in JSON,
// status 1) when nothing is certified; --knee and confidences outside
// (0.5, 1) refused.
func TestPickConfidence(t *testing.T) {
	dir, _ := ciRun(t)
	// The sweep is short (10 epochs): its candidates are degenerate, and
	// all of them are certified but none may be chosen without
	// --allow-degenerate.
	_, _, err := runFP(t, "pick", dir, "--max-risk", "10", "--confidence", "0.9", "--ci-resamples", "0")
	if err == nil || !strings.Contains(err.Error(), "certified are all degenerate") {
		t.Errorf("certified but degenerate: %v", err)
	}
	out, _, err := runFP(t, "pick", dir, "--max-risk", "10", "--confidence", "0.9", "--json", "--ci-resamples", "0", "--allow-degenerate")
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got["certified"] != true || got["confidence"] != 0.9 || got["bound_on"] != "selection" {
		t.Errorf("certified pick: %v", got)
	}
	if b, ok := got["bound"].(float64); !ok || !(b > 0 && b <= 10) {
		t.Errorf("bound %v, want a risk bound ≤ 10", got["bound"])
	}
	if _, ok := got["weights"]; !ok {
		t.Errorf("certified pick without the pick's keys: %v", got)
	}
	text, _, err := runFP(t, "pick", dir, "--max-risk", "10", "--confidence", "0.9", "--ci-resamples", "0", "--allow-degenerate")
	// The front it was picked from is that of the certified candidates.
	if err != nil || !strings.Contains(text, "certified: risk ≤ 10 holds with probability ≥ 0.9") ||
		!regexp.MustCompile(`picked from the \d+ non-dominated of \d+ certified candidates`).MatchString(text) {
		t.Errorf("certified pick text (%v):\n%s", err, text)
	}

	// dp_diff ≤ 0 holds for no network that selects anyone differently.
	out, _, err = runFP(t, "pick", dir, "--metric", "dp-diff", "--max-unfairness", "0", "--confidence", "0.9", "--json")
	if err == nil || !strings.Contains(err.Error(), "no candidate is certified to have dp-diff ≤ 0 at confidence 0.9") {
		t.Fatalf("refusal: %v", err)
	}
	got = nil
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("refusal JSON: %v\n%s", err, out)
	}
	if _, ok := got["rows_needed"]; !ok || got["certified"] != false {
		t.Errorf("refusal JSON lacks certified false or rows_needed: %v", got)
	}
	// The closest is one the sequence tests: not a λ = 1 network, which
	// minimised the unfairness alone, nor a constant predictor.
	for _, args := range [][]string{
		{"--metric", "dp-diff", "--max-unfairness", "0"},
		{"--metric", "dp", "--max-unfairness", "0.0001", "--allow-degenerate"}, // λ = 1 would be closest
		{"--min-ratio", "1", "--allow-degenerate"},
	} {
		out, _, err := runFP(t, append([]string{"pick", dir, "--confidence", "0.9", "--ci-resamples", "0", "--json"}, args...)...)
		var refusal struct {
			Closest *struct {
				Lambda    float64 `json:"lambda"`
				Collapsed bool    `json:"collapsed"`
			} `json:"closest"`
		}
		if err == nil || json.Unmarshal([]byte(out), &refusal) != nil {
			t.Fatalf("%v: a refusal wanted (%v):\n%s", args, err, out)
		}
		if c := refusal.Closest; c != nil && (c.Lambda == 1 || c.Collapsed) {
			t.Errorf("%v: the closest is λ = %g (collapsed %v), which the sequence does not test", args, c.Lambda, c.Collapsed)
		}
	}
	for _, bad := range [][]string{
		{"--knee", "--confidence", "0.9"},
		{"--max-risk", "1", "--confidence", "1.5"},
		{"--max-risk", "1", "--confidence", "0"},
		// A bound at level 0.5 or below would be the interval's other end.
		{"--max-risk", "1", "--confidence", "0.5"},
	} {
		_, _, err := runFP(t, append([]string{"pick", dir}, bad...)...)
		want := "want a probability above 0.5 and below 1"
		if bad[0] == "--knee" {
			want = "--confidence certifies a stated requirement"
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v: error %v, want one containing %q", bad, err, want)
		}
	}
}

// Without --confidence the pick is by point estimates on the deciding
// rows, and a shown test value that breaks the requirement is marked.
func TestPickMarksABrokenRequirement(t *testing.T) {
	pts := [][3]float64{{0.60, 0.20, 0.70}, {0.65, 0.30, 0.66}}
	dir := writeSweep(t, pts, func(i int, r *records.Record) {
		r.Selection = &records.Selection{SelRisk: r.Risk, SelATO: []float64{0.01, 0.02}[i], SelAccuracy: r.Accuracy, NSel: 100}
	})
	out, _, err := runFP(t, "pick", dir, "--max-unfairness", "0.05", "--ci-resamples", "0")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "0.2000!") || !strings.Contains(out, "! breaks the stated requirement (ato ≤ 0.05) on the test rows shown") {
		t.Errorf("no mark on the test ATO that breaks the requirement:\n%s", out)
	}
	out, _, err = runFP(t, "pick", dir, "--max-unfairness", "0.5", "--ci-resamples", "0")
	if err != nil || strings.Contains(out, "!") {
		t.Errorf("a met requirement marked (%v):\n%s", err, out)
	}
}
