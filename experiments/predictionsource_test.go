package experiments_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

// PredictionSource, which loads the data once, gives the predictions
// LoadPredictions gives one candidate at a time, and fails as it does.
func TestPredictionSourceMatchesLoadPredictions(t *testing.T) {
	dir := t.TempDir()
	r, err := experiments.NewRunner(smallConfig(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Run(context.Background())
	r.Close()
	if err != nil {
		t.Fatal(err)
	}
	recs, err := records.Read(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	src, err := runfolder.NewPredictionSource(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range recs {
		want, err := runfolder.LoadPredictions(dir, &recs[i])
		if err != nil {
			t.Fatal(err)
		}
		got, err := src.Predictions(&recs[i])
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.P, want.P) || !slices.Equal(got.Y, want.Y) || !slices.Equal(got.A, want.A) {
			t.Errorf("%s: predictions differ from LoadPredictions", recs[i].Key())
		}
	}

	noNet := recs[0]
	noNet.Weights = ""
	if _, err := src.Predictions(&noNet); err == nil || !strings.Contains(err.Error(), "no stored network") {
		t.Errorf("a record without a network: err = %v", err)
	}
	if err := os.Remove(filepath.Join(dir, recs[1].Weights)); err != nil {
		t.Fatal(err)
	}
	if _, err := src.Predictions(&recs[1]); err == nil {
		t.Error("a missing network file: want an error")
	}
	if _, err := runfolder.NewPredictionSource(t.TempDir()); err == nil || !strings.Contains(err.Error(), "configuration") {
		t.Errorf("a folder without config.json: err = %v", err)
	}
}
