package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fpareto/fp/experiments"
)

// TestTrainAdaptiveGrid runs an adaptive COMPAS sweep whole and sharded:
// every split gets N distinct λs (its coarse grid among them), fp status
// expects N per split before and after, and the shards' records are those of
// the whole run.
func TestTrainAdaptiveGrid(t *testing.T) {
	if testing.Short() {
		t.Skip("trains 32 networks; run without -short")
	}
	base := []string{"train", "--dataset", "compas", "--splits", "2", "--lambdas", "adaptive:8", "--epochs", "30",
		"--engine", "backprop", "--quiet", "--no-plot"}
	whole := filepath.Join(t.TempDir(), "whole")
	if _, _, err := runFP(t, append(base, "--out", whole)...); err != nil {
		t.Fatal(err)
	}
	recs := readRecords(t, whole)
	if len(recs) != 16 {
		t.Fatalf("%d records, want 2 splits × 8", len(recs))
	}
	perSplit := map[int][]float64{}
	for _, r := range recs {
		if !r.OK() || !(r.TrainR > 0) || !(r.TrainU > 0) || r.Lambdas != "adaptive:8" {
			t.Errorf("%s: status %s, training R %v, U %v, grid %q", r.Key(), r.Status, r.TrainR, r.TrainU, r.Lambdas)
		}
		perSplit[r.Split] = append(perSplit[r.Split], r.Lambda)
	}
	for m, ls := range perSplit {
		slices.Sort(ls)
		if len(slices.Compact(slices.Clone(ls))) != 8 || ls[0] != 0 || ls[7] != 1 || !slices.Contains(ls, 0.001) {
			t.Errorf("split %d: λs %v, want 8 distinct ones with 0, 0.001 and 1", m, ls)
		}
		t.Logf("split %d: λs %v", m, ls)
	}
	raw, err := os.ReadFile(filepath.Join(whole, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"train_r":`) || !strings.Contains(string(raw), `"train_u":`) {
		t.Error("records lack train_r or train_u")
	}
	out, _, err := runFP(t, "status", whole)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "2 splits × 8 λ (adaptive:8) = 16 candidates") || !strings.Contains(out, "complete") {
		t.Errorf("status of a finished adaptive sweep:\n%s", out)
	}

	// Shard 1 of 2 alone: status expects 8 per split and tells that split
	// 0's adaptive λs are not chosen yet.
	sharded := filepath.Join(t.TempDir(), "sharded")
	if _, _, err := runFP(t, append(base, "--out", sharded, "--shard", "1/2")...); err != nil {
		t.Fatal(err)
	}
	out, _, err = runFP(t, "status", "--json", sharded)
	if err != nil {
		t.Fatal(err)
	}
	var rep experiments.StatusReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.PerSplit != 8 || rep.Overall.Expected != 16 || rep.Overall.Done != 8 || len(rep.Overall.Missing) != 8 {
		t.Errorf("one shard of two: per split %d, %d/%d done, %d missing", rep.PerSplit, rep.Overall.Done, rep.Overall.Expected, len(rep.Overall.Missing))
	}
	out, _, err = runFP(t, "status", sharded)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "5 adaptive λ not chosen yet") {
		t.Errorf("status of a half-done adaptive sweep does not count the adaptive λs to come:\n%s", out)
	}
	if _, _, err := runFP(t, append(base, "--out", sharded, "--shard", "0/2")...); err != nil {
		t.Fatal(err)
	}
	if got := readRecords(t, sharded); !reflect.DeepEqual(got, recs) {
		t.Error("the two shards' records differ from those of the whole run")
	}
}
