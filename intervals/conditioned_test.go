package intervals_test

import (
	"path/filepath"
	"testing"

	"github.com/fpareto/fp/choose"
	"github.com/fpareto/fp/experiments/experimentstest"
	"github.com/fpareto/fp/intervals"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
	"github.com/fpareto/fp/runfolder/conditionedtest"
)

// The records of a λ-conditioned run share one network file per split: each
// is re-scored by that network at its own λ, and a picked candidate's
// intervals are its own, not those of another λ of the same file.
func TestIntervalsOfConditionedRun(t *testing.T) {
	c, dir, _ := csvConfig(t, 600)
	c.Splits, c.Lambdas, c.Epochs, c.PropensityEpochs, c.Engine, c.SelectFraction = 1, "0,0.5,1", 5, 10, "backprop", 0
	experimentstest.Run(t, c, dir)
	if _, err := conditionedtest.Convert(dir, 0.25); err != nil {
		t.Fatal(err)
	}
	recs, err := records.Read(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 {
		t.Fatalf("%d records, want 4", len(recs))
	}
	byLambda := map[float64]string{}
	for _, r := range recs {
		ci := open(t, dir, 200).For(&r)
		if !ci.Given() || ci.Note != "" {
			t.Fatalf("%s: no intervals: %s", r.Key(), ci.Note)
		}
		byLambda[r.Lambda] = text(t, ci)
	}
	if byLambda[0] == byLambda[1] {
		t.Fatal("the candidates at λ = 0 and λ = 1 have the same intervals")
	}

	all, _, err := runfolder.ReadAll([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	cands, err := choose.Candidates(all)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range cands {
		if k.Record.Lambda != 1 {
			continue
		}
		shown := k.Show()
		ci, _, err := intervals.ForShown(cands, &shown, 200)
		if err != nil {
			t.Fatal(err)
		}
		if got := text(t, *ci); got != byLambda[1] {
			t.Errorf("the intervals of the picked λ = 1 candidate are %s, want %s", got, byLambda[1])
		}
	}
}
