package choose

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/records"
)

// candidates are records with the given (risk, ato, accuracy) at λ = i/10.
func candidates(pts [][3]float64) []Candidate {
	var out []Candidate
	for i, p := range pts {
		r := records.Record{Method: "cheb", Penalty: "ato-penultimate", Lambda: float64(i) / 10,
			Risk: p[0], ATO: p[1], Accuracy: p[2], DP: p[1] / 2, Status: records.StatusOK}
		out = append(out, Candidate{Record: r, Dir: "run", Weights: fmt.Sprintf("run/net-%d.json", i)})
	}
	return out
}

func TestPick(t *testing.T) {
	// Index 1 is dominated by 2.
	cands := candidates([][3]float64{{0.60, 0.20, 0.70}, {0.62, 0.12, 0.68}, {0.61, 0.10, 0.69}, {0.62, 0.02, 0.67}, {0.70, 0.01, 0.60}})
	cases := []struct {
		metric string
		rule   Rule
		lambda float64 // −1: no candidate meets the rule
		err    string
	}{
		{"ato", Rule{MaxUnfairness, 0.05}, 0.3, ""},
		{"ato", Rule{MaxRisk, 0.615}, 0.2, ""},
		{"ato", Rule{Knee, 0}, 0.3, ""},
		{"dp", Rule{MaxUnfairness, 0.05}, 0.2, ""},
		{"ato", Rule{MaxUnfairness, 0.001}, -1, "no point of the front has ato ≤ 0.001; the closest is cheb/ato-penultimate split 0 λ = 0.4 in run (risk 0.7, accuracy 0.6, ato 0.01)"},
		{"dp", Rule{MinAccuracy, 0.95}, -1, "no point of the front has accuracy ≥ 0.95; the closest is cheb/ato-penultimate split 0 λ = 0 in run"},
		{"auc", Rule{Knee, 0}, -1, `metric "auc"`},
	}
	for _, tc := range cases {
		t.Run(tc.metric+" "+tc.rule.String(), func(t *testing.T) {
			p, err := Pick(cands, tc.metric, tc.rule)
			if tc.lambda < 0 {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.Lambda != tc.lambda || p.Front != 4 || p.Candidates != 5 || p.Basis != "test" || p.Metric != tc.metric {
				t.Errorf("Pick = %+v, want λ %v among 4 of 5", p, tc.lambda)
			}
		})
	}
	_, err := Pick(cands, "ato", Rule{MaxRisk, 0.5})
	var pe *PickError
	if !errors.As(err, &pe) || !errors.Is(err, ErrNone) || pe.Closest != &cands[0] {
		t.Errorf("err = %v, want a *PickError naming the first candidate", err)
	}
	if _, err := Pick(nil, "ato", Rule{Kind: Knee}); err == nil {
		t.Error("no candidates: no error")
	}
}

func TestReadCandidates(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "shard-0"), 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := records.Open(filepath.Join(dir, "shard-0", "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range []records.Record{
		{Status: records.StatusOK, Risk: 0.5, Weights: "networks/a.json"},
		{Status: records.StatusOK, Risk: 0.4, Weights: "networks/b.json", Collapsed: true},
		{Status: records.StatusFailed, FailReason: "NaN"},
		{Status: records.StatusOK, Risk: 0.6},
	} {
		r.Lambda = float64(i)
		if err := w.Append(&r); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	f, err := os.OpenFile(filepath.Join(dir, "shard-0", "records.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"split": 0, "lam`) // a torn last line
	f.Close()
	cands, err := ReadCandidates([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(cands) != 1 || cands[0].Weights != filepath.Join(dir, "shard-0", "networks", "a.json") || cands[0].Dir != filepath.Join(dir, "shard-0") {
		t.Fatalf("ReadCandidates = %+v, want the one successful, non-collapsed candidate with a network", cands)
	}
	if _, err := ReadCandidates([]string{filepath.Join(dir, "missing")}); err == nil {
		t.Error("a missing path: no error")
	}
}

func ExamplePick() {
	cands := []Candidate{
		{Record: records.Record{Method: "cheb", Lambda: 0, Risk: 0.60, ATO: 0.20, Accuracy: 0.70}, Dir: "run", Weights: "run/a.json"},
		{Record: records.Record{Method: "cheb", Lambda: 0.5, Risk: 0.62, ATO: 0.02, Accuracy: 0.67}, Dir: "run", Weights: "run/b.json"},
	}
	p, _ := Pick(cands, "ato", Rule{Kind: MaxUnfairness, Bound: 0.05})
	_ = WriteText(os.Stdout, p)
	// Output:
	// picked from the 2 non-dominated of 2 candidates (risk vs ato, chosen on test metrics; test metrics shown):
	// run  method  penalty  split  λ    risk    accuracy  ato     dp      eo      eopp
	// run  cheb             0      0.5  0.6200  0.6700    0.0200  0.0000  0.0000  0.0000
	// network: run/b.json
}
