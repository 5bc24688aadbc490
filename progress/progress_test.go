package progress_test

import (
	"os"
	"strings"
	"testing"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/progress"
	"github.com/fpareto/fp/propensity"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

// The displays are what a sweep is told to report to; progress does not
// import experiments, so these say that it still fits.
var (
	_ experiments.PropensityObserver = (*progress.Sweep)(nil)
	_ experiments.OverlapObserver    = (*progress.Sweep)(nil)
	_ experiments.OverlapObserver    = progress.Warnings{}
	_ experiments.Observer           = progress.Warnings{}
)

// Off a terminal every candidate is one line, a failed one with its reason,
// and the propensity fit a line at every tenth of its epochs.
func TestLogLines(t *testing.T) {
	var b strings.Builder
	p := progress.New(&b)
	p.Start(3, 1)
	for e := 1; e <= 20; e++ {
		p.PropensityEpoch(0, e, 20)
	}
	p.Done(&records.Record{Split: 0, Lambda: 0.5, Status: records.StatusOK, Risk: 0.61, Accuracy: 0.7, ATO: 0.02, TrainSeconds: 1.25})
	p.Done(&records.Record{Split: 1, Lambda: 1, Status: records.StatusFailed, FailReason: "loss is NaN"})
	p.Finish()
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	want := []string{"training 3 candidates (1 already recorded)", "propensity model of split 0: epoch 2/20"}
	if len(lines) != 1+10+2 || lines[0] != want[0] || lines[1] != want[1] || lines[10] != "propensity model of split 0: epoch 20/20" {
		t.Fatalf("lines:\n%s", b.String())
	}
	if got := lines[11]; got != "[2/3] split 0  λ 0.5      risk 0.6100  acc 0.700  ato 0.0200  (1.2s)" {
		t.Errorf("candidate line %q", got)
	}
	if got := lines[12]; !strings.HasPrefix(got, "[3/3] split 1") || !strings.Contains(got, "FAILED: loss is NaN") {
		t.Errorf("failed candidate line %q", got)
	}
}

func ExampleNew() {
	p := progress.New(os.Stdout) // not a terminal here: log lines
	p.Start(2, 0)
	p.Done(&records.Record{Split: 0, Lambda: 0, Risk: 0.6, Accuracy: 0.7, ATO: 0.1, TrainSeconds: 2})
	p.Finish()
	// Output:
	// training 2 candidates (0 already recorded)
	// [1/2] split 0  λ 0        risk 0.6000  acc 0.700  ato 0.1000  (2.0s)
}

// A split whose ATO is unreliable is told as soon as its propensity model
// is ready, with the test rows' overlap, by both displays; a good split
// draws no warning.
func TestOverlapTellsTheTestRowsAndUnreliableATO(t *testing.T) {
	good := propensity.Overlap{Temperature: 1, ESS1: 90, ESS0: 90, N1: 100, N0: 100, MaxShare1: 0.02, MaxShare0: 0.02}
	poorTest := propensity.Overlap{Temperature: 1, Extreme: 0.3, ESS1: 4, ESS0: 90, N1: 100, N0: 100, MaxShare1: 0.4, MaxShare0: 0.02}
	for _, tc := range []struct {
		test propensity.Overlap
		warn bool
	}{{good, false}, {poorTest, true}} {
		o := runfolder.SplitOverlap{Split: 3, Overlap: good, Predictors: []propensity.Predictor{{Column: "proxy", Corr: 0.9}}}
		o.SetTest(tc.test)
		var sweep, quiet strings.Builder
		progress.New(&sweep).Overlap(o)
		progress.Warnings{W: &quiet}.Overlap(o)
		if !strings.Contains(sweep.String(), "split 3 overlap on the test rows: extreme ") {
			t.Errorf("no test-row line:\n%s", sweep.String())
		}
		for name, out := range map[string]string{"sweep": sweep.String(), "quiet": quiet.String()} {
			warned := strings.Contains(out, "warning: split 3: the ATO is unreliable (") && strings.Contains(out, "--exclude proxy")
			if warned != tc.warn {
				t.Errorf("%s: unreliable-ATO warning %v, want %v:\n%s", name, warned, tc.warn, out)
			}
		}
	}
}
