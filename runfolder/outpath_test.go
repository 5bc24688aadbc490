package runfolder

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// outFixture lays out a run folder (its files need only exist: every
// command refuses before reading them), a data file with a symbolic and a
// hard link to it, and a network file outside the run.
func outFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{
		"run/config.json", "run/records.jsonl", "run/runs.log",
		"run/networks/split-000/net.json", "run/splits/split-000/propensity.json",
		"data.csv", "net.json",
	} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("original "+f+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "data.csv"), filepath.Join(dir, "sym.csv")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(dir, "data.csv"), filepath.Join(dir, "hard.csv")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(dir, "run/records.jsonl"), filepath.Join(dir, "records-link.html")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// What commands write by default, or beside a run's files, passes.
func TestCheckOutAllows(t *testing.T) {
	dir := outFixture(t)
	p := func(f string) string { return filepath.Join(dir, f) }
	for _, out := range []string{"", p("scores.csv"), p("run/report.html"), p("run/front-ato.png"),
		p("run/networks/split-000/net.onnx"), p("new/folder/scores.csv")} {
		if err := CheckOut("predict", "--out", out, Input{"--data", p("data.csv")}, Input{"--model", p("run/networks/split-000/net.json")}); err != nil {
			t.Errorf("--out %q refused: %v", out, err)
		}
	}
	// A folder with a config.json of its own but nothing of a run's is
	// not taken for one.
	if err := os.MkdirAll(p("proj/networks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p("proj/config.json"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(p("proj/networks")); err != nil {
		t.Fatal(err)
	}
	if err := CheckOut("predict", "--out", p("proj/config2.json")); err != nil {
		t.Errorf("an output beside a config.json that is no run's refused: %v", err)
	}
}

// CheckOut refuses, in one line naming the flag, an output that is an
// input (by path, symbolic or hard link) or a file a run keeps.
func TestCheckOutRefuses(t *testing.T) {
	dir := outFixture(t)
	p := func(f string) string { return filepath.Join(dir, f) }
	ins := []Input{{"--data", p("data.csv")}, {"", p("run")}}
	for _, tc := range []struct{ out, want string }{
		{p("data.csv"), "is --data " + p("data.csv")},
		{p("run/../data.csv"), "is --data"},
		{p("sym.csv"), "is --data"},
		{p("hard.csv"), "same file as --data"},
		{p("run"), "is the input " + p("run")},
		{p("run/records.jsonl"), "records"},
		{p("run/config.json"), "of the run in"},
		{p("records-link.html"), "same file as " + p("run/records.jsonl")},
		{p("elsewhere/records.jsonl"), "named as a records file"},
	} {
		err := CheckOut("predict", "--out", tc.out, ins...)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "predict: --out "+tc.out) {
			t.Errorf("--out %s: err = %v, want %q", tc.out, err, tc.want)
		}
	}
}
