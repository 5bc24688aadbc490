package experiments

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
	"github.com/fpareto/fp/scalarize"
)

// adaptiveReads are the record fields the adaptive grid may read: what was
// trained and where it landed on training data. Every other field (the test
// metrics above all) must leave the next λ unchanged.
var adaptiveReads = map[string]bool{
	"Lambda": true, "TrainR": true, "TrainU": true, "Status": true, "Split": true,
	"Method": true, "Penalty": true, "Config": true,
}

var adaptive15 = scalarize.Adaptive{N: 15}

// splitOfRecords is a split after its coarse grid and two adaptive
// candidates, with made-up training and test figures.
func splitOfRecords() ([]*records.Record, scalarize.Standardizer) {
	std := scalarize.Standardizer{RMin: 0.55, RMax: 0.75, UMin: 0.001, UMax: 0.2}
	rows := []struct{ l, r, u float64 }{
		{0, 0.60, 0.40}, {0.001, 0.61, 0.25}, {1, 0.72, 0.004}, {0.5005, 0.68, 0.04}, {0.25075, 0.66, 0.10},
	}
	var recs []*records.Record
	for i, x := range rows {
		recs = append(recs, &records.Record{Method: "cheb", Penalty: "ato-penultimate", Lambda: x.l,
			TrainR: x.r, TrainU: x.u, Status: records.StatusOK, Risk: 0.6 + 0.01*float64(i), ATO: 0.01 / float64(i+1),
			RMin: std.RMin, RMax: std.RMax, UMin: std.UMin, UMax: std.UMax})
	}
	return recs, std
}

func TestNextLambdaReadsNoTestMetric(t *testing.T) {
	recs, std := splitOfRecords()
	want := nextLambda(adaptive15, recs, std)
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 20 {
		var pert []*records.Record
		for _, rec := range recs {
			c := *rec
			v := reflect.ValueOf(&c).Elem()
			for i := range v.NumField() {
				f := v.Field(i)
				if adaptiveReads[v.Type().Field(i).Name] {
					continue
				}
				switch f.Kind() {
				case reflect.Float64:
					f.SetFloat(rng.NormFloat64())
				case reflect.Int:
					f.SetInt(rng.Int64N(1000))
				case reflect.Bool:
					f.SetBool(rng.IntN(2) == 1)
				case reflect.String:
					f.SetString("x")
				}
			}
			pert = append(pert, &c)
		}
		if got := nextLambda(adaptive15, pert, std); got != want {
			t.Fatalf("trial %d: perturbing test metrics and other fields moved the next λ from %v to %v", trial, want, got)
		}
	}
	// The training figures do move it: the check above can fail.
	recs[2].TrainR = 0.95 // the widest gap is now λ = 0.5005 → 1
	if got := nextLambda(adaptive15, recs, std); got == want {
		t.Errorf("moving a training U left the next λ at %v", got)
	}
}

func TestNextLambdaLeavesFailedCandidatesOut(t *testing.T) {
	recs, std := splitOfRecords()
	want := nextLambda(adaptive15, recs, std)
	// A failed candidate counts as done but has no point: the same gap is
	// halved unless the failed λ is that midpoint.
	failed := &records.Record{Lambda: 0.9, Status: records.StatusFailed, TrainR: -5, TrainU: -5}
	if got := nextLambda(adaptive15, append(recs, failed), std); got != want {
		t.Errorf("a failed candidate moved the next λ from %v to %v", want, got)
	}
	failed.Lambda = want
	if got := nextLambda(adaptive15, append(recs, failed), std); got == want {
		t.Errorf("the next λ %v is a λ already recorded (failed)", got)
	}
}

func TestStatusAdaptiveExpectsNPerSplit(t *testing.T) {
	c := statusConfig()
	c.Splits, c.Lambdas = 2, "adaptive:6" // coarse grid {0, 0.001, 1}, 3 adaptive λ per split
	dir := t.TempDir()
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, runfolder.ConfigFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := records.Open(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	// Split 0: its coarse grid and two adaptive λ; split 1: λ = 0 and 1.
	for _, x := range []struct {
		m int
		l float64
	}{{0, 0}, {0, 1}, {0, 0.001}, {0, 0.5005}, {0, 0.25075}, {1, 0}, {1, 1}} {
		rec := records.Record{Method: c.Method, Penalty: c.Penalty, Split: x.m, Lambda: x.l, Status: records.StatusOK, Config: c.Digest()}
		if err := w.Append(&rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rep, err := Status(dir, 2)
	if err != nil {
		t.Fatal(err)
	}
	if rep.PerSplit != 6 || rep.Overall.Expected != 12 || rep.Overall.Done != 7 || rep.Complete {
		t.Fatalf("per split %d, %d/%d done, complete %v; want 6 per split, 7/12", rep.PerSplit, rep.Overall.Done, rep.Overall.Expected, rep.Complete)
	}
	key := func(m int, l float64) string { return records.CandidateKey(c.Method, c.Penalty, m, l) }
	ph := func(m, i int) Candidate {
		return Candidate{Split: m, Adaptive: true, Key: fmt.Sprintf("%s/%s/split=%d/adaptive=%d", c.Method, c.Penalty, m, i)}
	}
	want0 := []Candidate{ph(0, 3)}
	want1 := []Candidate{{Split: 1, Lambda: 0.001, Key: key(1, 0.001)}, ph(1, 1), ph(1, 2), ph(1, 3)}
	if !reflect.DeepEqual(rep.PerShard[0].Missing, want0) || !reflect.DeepEqual(rep.PerShard[1].Missing, want1) {
		t.Errorf("missing %v and %v, want %v and %v", rep.PerShard[0].Missing, rep.PerShard[1].Missing, want0, want1)
	}
	if rep.PerShard[0].Expected != 6 || rep.PerShard[0].Done != 5 || rep.PerShard[1].Done != 2 {
		t.Errorf("per shard %+v", rep.PerShard)
	}

	// A fourth adaptive λ on split 0 is one more than the sweep has.
	w, err = records.Open(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []float64{0.75025, 0.9} {
		rec := records.Record{Method: c.Method, Penalty: c.Penalty, Split: 0, Lambda: l, Status: records.StatusOK, Config: c.Digest()}
		if err := w.Append(&rec); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	rep, err = Status(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Overall.Done != 8 || len(rep.Unexpected) != 1 || rep.Unexpected[0].Lambda != 0.9 {
		t.Errorf("done %d, unexpected %v; want 8 done and λ = 0.9 unexpected", rep.Overall.Done, rep.Unexpected)
	}
}
