package choose

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
			p, err := Pick(cands, tc.metric, tc.rule, Options{})
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
	_, err := Pick(cands, "ato", Rule{MaxRisk, 0.5}, Options{})
	var pe *PickError
	if !errors.As(err, &pe) || !errors.Is(err, ErrNone) || pe.Closest != &cands[0] {
		t.Errorf("err = %v, want a *PickError naming the first candidate", err)
	}
	if _, err := Pick(nil, "ato", Rule{Kind: Knee}, Options{}); err == nil {
		t.Error("no candidates: no error")
	}
}

// Candidates keeps the successful candidates with a network, each
// resolved against the folder of the file it was read from, and refuses
// candidates of two datasets.
func TestCandidates(t *testing.T) {
	file := filepath.Join("sweep", "shard-0", "records.jsonl")
	var recs []records.Record
	for i, r := range []records.Record{
		{Status: records.StatusOK, Risk: 0.5, Weights: "networks/a.json"},
		{Status: records.StatusOK, Risk: 0.4, Weights: "networks/b.json", Collapsed: true},
		{Status: records.StatusFailed, FailReason: "NaN"},
		{Status: records.StatusOK, Risk: 0.6},
	} {
		r.Lambda, r.File, r.Source = float64(i), file, "sweep"
		recs = append(recs, r)
	}
	cands, err := Candidates(recs)
	if err != nil {
		t.Fatal(err)
	}
	if len(cands) != 2 || cands[0].Weights != filepath.Join("sweep", "shard-0", "networks", "a.json") || cands[0].Dir != filepath.Join("sweep", "shard-0") {
		t.Fatalf("Candidates = %+v, want the two successful candidates with a network", cands)
	}
	// The constant predictor is left out even when degenerate candidates are allowed.
	for _, allow := range []bool{false, true} {
		if kept, left := Screen(cands, allow, records.DecideTest); len(kept) != 1 || kept[0].Record.Lambda != 0 || left != (LeftOut{Collapsed: 1}) {
			t.Errorf("Screen(allow %v) = %v, %+v; want the first candidate, one collapsed left out", allow, kept, left)
		}
	}
	other := recs[0]
	other.Dataset, other.DataID = "adult-sex", "other rows"
	if _, err := Candidates(append(recs, other)); err == nil {
		t.Error("candidates of two datasets: no error")
	}
}

func ExamplePick() {
	cands := []Candidate{
		{Record: records.Record{Method: "cheb", Lambda: 0, Risk: 0.60, ATO: 0.20, Accuracy: 0.70}, Dir: "run", Weights: "run/a.json"},
		{Record: records.Record{Method: "cheb", Lambda: 0.5, Risk: 0.62, ATO: 0.02, Accuracy: 0.67}, Dir: "run", Weights: "run/b.json"},
	}
	p, _ := Pick(cands, "ato", Rule{Kind: MaxUnfairness, Bound: 0.05}, Options{})
	_ = WriteText(os.Stdout, p)
	// Output:
	// picked from the 2 non-dominated of 2 candidates (risk vs ato, chosen on test metrics; test metrics shown):
	// run  method  penalty  split  λ    risk    accuracy  ato     dp      eo      eopp
	// run  cheb             0      0.5  0.6200  0.6700    0.0200  0.0000  0.0000  0.0000
	// network: run/b.json
}

// kneeFront has its knee at index 1 (risk 0.52); without that candidate,
// the knee is index 3 (risk 0.61).
var kneeFront = [][3]float64{{0.50, 0.30, 0.75}, {0.52, 0.10, 0.74}, {0.60, 0.08, 0.70}, {0.61, 0.02, 0.69}, {0.70, 0.015, 0.60}, {0.80, 0.01, 0.55}}

func TestPickLeavesOutDegenerateCandidates(t *testing.T) {
	constant := func(v float64) *float64 { return &v }
	cases := []struct {
		name  string
		mark  func(r *records.Record)
		risk  float64 // the knee picked
		left  LeftOut
		allow float64 // the knee picked with AllowDegenerate
	}{
		{"single class", func(r *records.Record) { r.SingleClass = true }, 0.61, LeftOut{SingleClass: 1}, 0.52},
		// Scores with a standard deviation of 2e-6: above the collapsed
		// threshold, below the near-constant one.
		{"near-constant", func(r *records.Record) { r.NearConstant = true }, 0.61, LeftOut{NearConstant: 1}, 0.52},
		{"worse than constant", func(r *records.Record) { r.ConstRisk = constant(0.51) }, 0.61, LeftOut{NoBetterThanConstant: 1}, 0.52},
		{"as good as constant", func(r *records.Record) { r.ConstRisk = constant(0.52) }, 0.61, LeftOut{NoBetterThanConstant: 1}, 0.52},
		{"better than constant", func(r *records.Record) { r.ConstRisk = constant(0.53) }, 0.52, LeftOut{}, 0.52},
		{"no const_risk recorded", func(r *records.Record) {}, 0.52, LeftOut{}, 0.52},
		// Collapsed candidates are left out even when degenerate ones are allowed.
		{"collapsed", func(r *records.Record) { r.Collapsed, r.SingleClass, r.NearConstant = true, true, true }, 0.61, LeftOut{Collapsed: 1}, 0.61},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cands := candidates(kneeFront)
			tc.mark(&cands[1].Record)
			p, err := Pick(cands, "ato", Rule{Kind: Knee}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if p.Risk != tc.risk || p.LeftOut != tc.left || p.Candidates != len(cands)-tc.left.Total() {
				t.Errorf("knee risk %v, left out %+v of %d; want %v, %+v", p.Risk, p.LeftOut, p.Candidates, tc.risk, tc.left)
			}
			p, err = Pick(cands, "ato", Rule{Kind: Knee}, Options{AllowDegenerate: true})
			if err != nil {
				t.Fatal(err)
			}
			if p.Risk != tc.allow {
				t.Errorf("allowing degenerate candidates: knee risk %v, want %v", p.Risk, tc.allow)
			}
		})
	}
	// Every candidate degenerate: a *LeftOutError counting them.
	cands := candidates(kneeFront[:2])
	cands[0].Record.SingleClass, cands[1].Record.NearConstant = true, true
	var lo *LeftOutError
	if _, err := Pick(cands, "ato", Rule{Kind: Knee}, Options{}); !errors.As(err, &lo) || lo.LeftOut != (LeftOut{SingleClass: 1, NearConstant: 1}) ||
		err.Error() != "every candidate is degenerate (1 single-class, 1 near-constant)" {
		t.Errorf("err = %v, want a *LeftOutError counting both", err)
	}
}

func TestPickShowsDegenerateFlags(t *testing.T) {
	cands := candidates(kneeFront)
	c := 0.5
	cands[1].Record.SingleClass, cands[1].Record.ConstRisk = true, &c
	p, err := Pick(cands, "ato", Rule{Kind: Knee}, Options{AllowDegenerate: true})
	if err != nil {
		t.Fatal(err)
	}
	if !p.SingleClass || p.Collapsed || p.NearConstant || p.ConstRisk == nil || *p.ConstRisk != 0.5 || !p.NoBetterThanConstant {
		t.Errorf("shown %+v, want single class and no better than constant 0.5", p.Shown)
	}
	var b strings.Builder
	if err := WriteText(&b, p); err != nil {
		t.Fatal(err)
	}
	if want := "note: the candidate is degenerate: it predicts one class for every test row; its risk is no better than the constant predictor's (0.5000)"; !strings.Contains(b.String(), want) {
		t.Errorf("text lacks %q:\n%s", want, b.String())
	}
	if got := (LeftOut{SingleClass: 2, NoBetterThanConstant: 1}).Note(9); got != "left out 3 of 9 candidates before forming the front: 2 single-class, 1 no better than constant" {
		t.Errorf("Note = %q", got)
	}
}

func TestPickKneeNotStandingOut(t *testing.T) {
	// A straight front (exact binary fractions, so that every trade-off is
	// exactly 1): no point stands out, and the best-balanced one is taken
	// with a note saying so.
	line := candidates([][3]float64{{0.5, 0.5, 0.7}, {0.625, 0.375, 0.7}, {0.75, 0.25, 0.7}, {0.875, 0.125, 0.7}, {1, 0, 0.7}})
	p, err := Pick(line, "ato", Rule{Kind: Knee}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Risk != 0.75 || p.Note != KneeNote || len(p.Among) != 5 || p.Among[0].Record.Risk != 0.5 || p.Among[4].Record.Risk != 1 {
		t.Errorf("picked risk %g, note %q, %d among; want the middle point with the note, and the front by risk", p.Risk, p.Note, len(p.Among))
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"note":"no point of the front stands out`) {
		t.Errorf("JSON %s lacks the note", b)
	}
	// A knee that stands out has no note.
	knee := candidates([][3]float64{{0.60, 0.20, 0.70}, {0.61, 0.10, 0.69}, {0.62, 0.02, 0.67}, {0.70, 0.01, 0.60}})
	if p, err := Pick(knee, "ato", Rule{Kind: Knee}, Options{}); err != nil || p.Note != "" || p.Risk != 0.62 {
		t.Errorf("a knee that stands out: %+v, %v", p, err)
	}
}

// Deciding on the selection rows, the screen reads the selection rows'
// flags and constant risk, never the test rows': a network one-class on
// the test rows but not on the selection rows is kept, and the other way
// round left out.
func TestScreenOnTheRowsThatDecide(t *testing.T) {
	cr := 0.69
	rec := func(testSingle, selSingle bool, selRisk float64) Candidate {
		return Candidate{Record: records.Record{Risk: 0.6, SingleClass: testSingle, ConstRisk: &cr,
			Selection: &records.Selection{SelRisk: selRisk, SelSingleClass: selSingle, SelConstRisk: &cr, NSel: 10}}}
	}
	cands := []Candidate{
		rec(true, false, 0.6),  // one class on the test rows only
		rec(false, true, 0.6),  // one class on the selection rows only
		rec(false, false, 0.7), // no better than constant on the selection rows only
	}
	// Almost one class on the selection rows only (99.6% alike at a base
	// rate of 30%: the limit is 1%).
	few, many, ce := 0.996, 0.9, 0.3
	c := rec(false, false, 0.6)
	c.Record.MajorityShare, c.Record.ConstError = &many, &ce
	c.Record.Selection.SelMajorityShare, c.Record.Selection.SelConstError = &few, &ce
	cands = append(cands, c)
	for _, tc := range []struct {
		d    records.Decide
		kept []int
		left LeftOut
	}{
		{records.DecideTest, []int{1, 2, 3}, LeftOut{SingleClass: 1}},
		{records.DecideSelection, []int{0}, LeftOut{SingleClass: 1, NearSingleClass: 1, NoBetterThanConstant: 1}},
	} {
		idx, left := screen(cands, false, tc.d)
		if !slices.Equal(idx, tc.kept) || left != tc.left {
			t.Errorf("decided on %s: kept %v, left out %+v; want %v, %+v", tc.d, idx, left, tc.kept, tc.left)
		}
	}
}
