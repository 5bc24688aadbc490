package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/model"
)

// toyNetwork saves a network for the toy CSV and returns its path.
func toyNetwork(t *testing.T) (netPath, dataPath string) {
	t.Helper()
	dataPath = writeToyCSV(t, 60)
	d, err := datasets.LoadCSV(dataPath, datasets.CSVOptions{Target: "outcome", Sensitive: "group"})
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]int, d.N)
	for i := range rows {
		rows[i] = i
	}
	std := datasets.FitStandardizer(d, rows)
	f := model.NewFile(model.Init(model.Arch{Layers: 2, Hidden: 3}, d.Dim, rand.New(rand.NewPCG(1, 1))), d.Columns, std.Mean, std.SD)
	s := d.Schema
	f.Schema = &s
	netPath = filepath.Join(t.TempDir(), "net.json")
	if err := model.Save(netPath, f); err != nil {
		t.Fatal(err)
	}
	return netPath, dataPath
}

func TestPredictCommand(t *testing.T) {
	net, data := toyNetwork(t)
	out := filepath.Join(t.TempDir(), "scores.csv")
	_, stderr, err := runFP(t, "predict", "--model", net, "--data", data, "--out", out, "--keep", "outcome,group", "--logit", "--threshold", "0.3")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 61 || lines[0] != "outcome,group,score,label,logit" || !strings.Contains(stderr, `60 rows scored into `+out+`; score is P(outcome = "yes")`) {
		t.Errorf("output: %d lines, header %q, stderr %q", len(lines), lines[0], stderr)
	}
	// To standard output without --out.
	stdout, _, err := runFP(t, "predict", "--model", net, "--data", data)
	if err != nil || !strings.HasPrefix(stdout, "score,label\n") {
		t.Errorf("stdout %.40q, err %v", stdout, err)
	}

	// A bad row: one line naming it, and no partial file, not even over an old one.
	bad := filepath.Join(t.TempDir(), "bad.csv")
	text := "x,colour\n1.5,red\n2.5,mauve\n"
	if err := os.WriteFile(bad, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(t.TempDir(), "fresh.csv")
	_, _, err = runFP(t, "predict", "--model", net, "--data", bad, "--out", fresh)
	if err == nil || !strings.Contains(err.Error(), "line 3, column 2 (colour)") || !strings.Contains(err.Error(), `"mauve"`) {
		t.Fatalf("err = %v", err)
	}
	oneLine(t, err.Error())
	if _, err := os.Stat(fresh); !os.IsNotExist(err) {
		t.Errorf("a partial output exists: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(fresh), ".*tmp*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	if _, _, err := runFP(t, "predict", "--model", net, "--data", bad, "--out", out); err == nil {
		t.Fatal("bad data accepted")
	}
	if b2, _ := os.ReadFile(out); string(b2) != string(b) {
		t.Errorf("a failed run changed the existing output")
	}
}
