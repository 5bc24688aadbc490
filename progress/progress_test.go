package progress_test

import (
	"os"
	"strings"
	"testing"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/progress"
	"github.com/fpareto/fp/records"
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
