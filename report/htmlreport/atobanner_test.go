package htmlreport_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/propensity"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/report/htmlreport"
	"github.com/fpareto/fp/runfolder"
)

// markReliability rewrites the records of the run in dir with their ATO
// judged reliable on every split but bad, and stores split bad's overlap
// summary, whose best predictor of the attribute is column.
func markReliability(t *testing.T, dir string, bad int, column string) {
	t.Helper()
	path := filepath.Join(dir, "records.jsonl")
	recs, err := records.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	w, err := records.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for i := range recs {
		reliable := recs[i].Split != bad
		recs[i].ATOReliable = &reliable
		if !reliable {
			recs[i].ATOUnreliableReason = "one row carries 40% of group a = 1's weight"
		}
		if err := w.Append(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	o := runfolder.SplitOverlap{Split: bad, Overlap: propensity.Overlap{Temperature: 1, N1: 100, N0: 100, ESS1: 90, ESS0: 90},
		Predictors: []propensity.Predictor{{Column: column, Corr: 0.95}}}
	o.SetTest(propensity.Overlap{Temperature: 1, N1: 100, N0: 100, ESS1: 2, ESS0: 90, MaxShare1: 0.4, MaxShare0: 0.05})
	if err := runfolder.WriteOverlap(dir, o); err != nil {
		t.Fatal(err)
	}
}

// The report's data carries the unreliable-ATO message for its first
// screen, naming the run, the split, the reason and the column to leave
// out, and marks the candidates of that split; runs whose ATO is reliable
// give no message.
func TestBuildCarriesUnreliableATOMessage(t *testing.T) {
	root := t.TempDir()
	a := syntheticRun(t, root, "cheb", "ato-penultimate", 2, 3, 1)
	b := syntheticRun(t, root, "linear", "ato-penultimate", 2, 3, 2)
	p, err := htmlreport.Build([]string{a, b}, htmlreport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.ATOWarnings != nil {
		t.Errorf("records without the judgement: messages %q, want none", p.ATOWarnings)
	}
	markReliability(t, b, 1, "zip")
	p, err = htmlreport.Build([]string{a, b}, htmlreport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.ATOWarnings) != 1 {
		t.Fatalf("messages %q, want one", p.ATOWarnings)
	}
	msg := p.ATOWarnings[0]
	for _, want := range []string{"The ATO is unreliable on 1 of 4 splits (" + b + ": split 1)", "one row carries 40%", "--exclude zip"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	marked := 0
	for _, c := range p.Data.Candidates {
		if c.ATOUnreliable != "" {
			marked++
			if p.Data.Runs[c.Run] != b || c.Split != 1 {
				t.Errorf("candidate of run %d split %d marked", c.Run, c.Split)
			}
		}
	}
	if marked != 3 {
		t.Errorf("%d candidates marked, want the 3 of split 1", marked)
	}
	for _, row := range p.Propensity {
		if p.Runs[row.Run].Path == b && row.Split == 1 && !strings.Contains(row.Warning, "the ATO is unreliable") {
			t.Errorf("propensity row of the split: warning %q", row.Warning)
		}
	}
}
