package experiments

import (
	"strings"
	"testing"
)

func TestStatusWriteText(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Splits = 2
	miss := []Candidate{{Split: 1, Lambda: 0, Key: "k0"}, {Split: 1, Lambda: 0.5, Key: "k1"}}
	for _, tc := range []struct {
		name string
		rep  StatusReport
		want []string
	}{
		{"complete", StatusReport{Dir: "runs/x", Config: cfg, Digest: "abc", Lambdas: []float64{0, 0.5}, PerSplit: 2,
			Overall: Progress{Expected: 4, Done: 4}, Files: []FileStatus{{Name: "records.jsonl", Records: 4}}},
			[]string{"runs/x: compas cheb", "2 splits × 2 λ (log:15) = 4 candidates", "4/4", "records.jsonl (4)", "complete: every candidate is recorded"}},
		{"missing a whole split, with a failure", StatusReport{Dir: "runs/x", Config: cfg, Digest: "abc", Lambdas: []float64{0, 0.5}, PerSplit: 2,
			Overall: Progress{Expected: 4, Done: 2, Missing: miss,
				Failed: []FailedCandidate{{Candidate: Candidate{Split: 0, Lambda: 0.5, Key: "kf"}, Epoch: 3, Reason: "loss diverged"}}}},
			[]string{"2/4", "(none yet)", "split 0, λ = 0.5 at epoch 3: loss diverged [kf]", "split 1: all 2 λ (0, 0.5)", "run the same fp train command again"}},
	} {
		var b strings.Builder
		if err := tc.rep.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		for _, s := range tc.want {
			if !strings.Contains(b.String(), s) {
				t.Errorf("%s: text lacks %q:\n%s", tc.name, s, b.String())
			}
		}
	}
}
