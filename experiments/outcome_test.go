package experiments_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/records"
)

func TestOutcome(t *testing.T) {
	constRisk := 0.7 // above every candidate's risk
	rec := func(lambda, risk, ato float64, collapsed bool) records.Record {
		return records.Record{Dataset: "compas", Method: "cheb", Penalty: "ato-penultimate", Config: "abc", Status: records.StatusOK,
			Lambda: lambda, Risk: risk, ATO: ato, DP: ato, Collapsed: collapsed, Weights: "networks/net.json", ConstRisk: &constRisk}
	}
	// λ = 0.5 is dominated by λ = 1; the front by risk is 0, 1, then the collapsed 0.9.
	recs := []records.Record{rec(1, 0.62, 0.01, false), rec(0.5, 0.63, 0.02, false), rec(0, 0.60, 0.2, false), rec(0.9, 0.69, 0, true)}
	// λ = 1 is no better than the constant predictor at the training base rate.
	constant := 0.61
	recs[0].ConstRisk = &constant
	sum := experiments.Summary{Total: 5, Trained: 3, Resumed: 1, Failed: 1, Elapsed: 1234 * time.Millisecond}
	o, err := experiments.NewOutcome(sum, "runs/x", recs, "ato")
	if err != nil {
		t.Fatal(err)
	}
	var lambdas []float64
	for _, r := range o.Front {
		lambdas = append(lambdas, r.Lambda)
		if r.Weights != filepath.Join("runs/x", "networks/net.json") {
			t.Errorf("weights %q not resolved against the run folder", r.Weights)
		}
	}
	if len(lambdas) != 3 || lambdas[0] != 0 || lambdas[1] != 1 || lambdas[2] != 0.9 {
		t.Errorf("front λ = %v, want 0, 1, 0.9", lambdas)
	}
	if o.Comparison == nil || len(o.Comparison.Pooled) != 1 || o.Comparison.Pooled[0].Candidates != 4 || o.ElapsedSeconds != 1.234 {
		t.Errorf("outcome %+v", o)
	}
	o.Figure = "runs/x/front.png"
	var b strings.Builder
	if err := o.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"5 candidates in runs/x (3 trained now in 1.2s, 1 already recorded, 1 failed)",
		"the front: 3 non-dominated networks, by test risk", "constant predictor", "no better than constant", "figure: runs/x/front.png"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
	var fe *experiments.FieldError
	if _, err := experiments.NewOutcome(sum, "runs/x", recs, "auc"); !errors.As(err, &fe) || fe.Field != "metric" {
		t.Errorf("unknown metric: err = %v, want a field error for metric", err)
	}
}

// The closing output ends with the warning of an unreliable ATO, and says
// nothing of it otherwise.
func TestOutcomeWarnsOfUnreliableATO(t *testing.T) {
	constRisk := 0.7
	recs := []records.Record{{Dataset: "x.csv", Method: "cheb", Penalty: "ato-penultimate", Config: "abc", Status: records.StatusOK, Risk: 0.6, ConstRisk: &constRisk}}
	for _, warning := range []string{"", "the ATO is unreliable on 1 of 1 splits (split 0): at split 0, few rows; leave out proxy"} {
		o, err := experiments.NewOutcome(experiments.Summary{Total: 1, Trained: 1}, "runs/x", recs, "ato")
		if err != nil {
			t.Fatal(err)
		}
		o.ATOWarning = warning
		var b strings.Builder
		if err := o.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(b.String(), "\nwarning: the ATO is unreliable"); got != (warning != "") {
			t.Errorf("warning %q: printed %v:\n%s", warning, got, b.String())
		}
	}
}
