package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A run folder whose name holds the characters of file-name patterns ([,
// ] and \) reads as any other: the same command resumes it, fp pick finds
// its candidates, fp front --ci shows its networks with their intervals
// and fp report draws them, every command through the one reader of
// records files.
func TestRunFolderNamedWithPatternCharacters(t *testing.T) {
	root := t.TempDir()
	csv := filepath.Join(root, "data.csv")
	writeCIData(t, csv)
	dir := filepath.Join(root, `a[1]\b`)
	train := []string{"train", "--data", csv, "--target", "label", "--sensitive", "group", "--splits", "1",
		"--lambdas", "0,1", "--epochs", "2", "--engine", "backprop", "--out", dir, "-q", "--no-plot"}
	if _, stderr, err := runFP(t, train...); err != nil {
		t.Fatalf("train: %v\n%s", err, stderr)
	}
	stdout, _, err := runFP(t, train...)
	if err != nil || !strings.Contains(stdout, "0 trained now") {
		t.Errorf("the same command again: %v, want nothing trained:\n%s", err, stdout)
	}

	stdout, stderr, err := runFP(t, "pick", dir, "--knee", "--allow-degenerate", "--ci-resamples", "50", "--json")
	if err != nil {
		t.Fatalf("pick: %v\n%s", err, stderr)
	}
	var picked struct {
		Weights string `json:"weights"`
	}
	if err := json.Unmarshal([]byte(stdout), &picked); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(picked.Weights, dir+string(filepath.Separator)) {
		t.Errorf("pick: network %q, want one in %s", picked.Weights, dir)
	}
	if _, err := os.Stat(picked.Weights); err != nil {
		t.Errorf("pick: %v", err)
	}

	stdout, stderr, err = runFP(t, "front", dir, "--ci", "--ci-resamples", "50", "--json")
	if err != nil {
		t.Fatalf("front --ci: %v\n%s", err, stderr)
	}
	var front struct {
		Front []map[string]any `json:"front"`
	}
	if err := json.Unmarshal([]byte(stdout), &front); err != nil {
		t.Fatal(err)
	}
	if len(front.Front) == 0 {
		t.Fatalf("front --ci shows no network:\n%s", stdout)
	}
	for _, row := range front.Front {
		if row["risk_ci"] == nil {
			t.Errorf("front --ci: a network without intervals: %v", row)
		}
	}
	if stdout, _, err = runFP(t, "front", dir, "--ci", "--ci-resamples", "50"); err != nil || strings.Contains(stdout, "0 non-dominated networks") {
		t.Errorf("front --ci: %v\n%s", err, stdout)
	}

	stdout, stderr, err = runFP(t, "report", dir, "--ci-resamples", "50", "--json")
	if err != nil {
		t.Fatalf("report: %v\n%s", err, stderr)
	}
	var rep reportResult
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Candidates != 2 || filepath.Dir(rep.Out) != dir {
		t.Errorf("report: %d candidates in %s, want 2 in %s", rep.Candidates, rep.Out, dir)
	}
	page, err := os.ReadFile(rep.Out)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(page), "Score distributions not available") {
		t.Error("the report could not read the networks of the run")
	}
}
