package runfolder

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// outFixture lays out a run folder (its files need only exist: CheckOut
// reads none of them), a data file with a symbolic and a hard link to it,
// a hard link to the run's records, and a network file and a propensity
// file outside the run.
func outFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{
		"run/config.json", "run/records.jsonl", "run/runs.log", "run/running.json",
		"run/networks/split-000/net.json", "run/splits/split-000/propensity.json",
		"data.csv", "net.json", "prop.json",
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

// CheckOut refuses, in one line naming the command, the flag and what to
// do, an output that is an input (by path, another spelling, a symbolic or
// a hard link, or a link to a file of an input run folder) or a file a run
// keeps, wherever the run is. The commands' own tests check that each
// passes its inputs; the cases of the rule are here.
func TestCheckOutRefuses(t *testing.T) {
	dir := outFixture(t)
	p := func(f string) string { return filepath.Join(dir, f) }
	// The inputs of fp predict, and a run folder as fp report and fp plot
	// take it.
	predict := []Input{{"--data", p("data.csv")}, {"--model", p("net.json")}, {"--propensity-file", p("prop.json")}}
	run := []Input{{"", p("run")}}
	for _, tc := range []struct {
		name string
		ins  []Input
		out  string
		want string
	}{
		{"its data", predict, p("data.csv"), "is --data " + p("data.csv")},
		{"its data, another spelling", predict, p("run/../data.csv"), "is --data"},
		{"a symbolic link to its data", predict, p("sym.csv"), "is --data"},
		{"a hard link to its data", predict, p("hard.csv"), "same file as --data"},
		{"its network", predict, p("net.json"), "is --model"},
		{"its propensity file", predict, p("prop.json"), "is --propensity-file"},
		{"its run folder", run, p("run"), "is the input " + p("run")},
		{"a records file it reads", []Input{{"", p("run/records.jsonl")}}, p("run/records.jsonl"), "is the input"},
		{"a hard link to an input run's records", run, p("records-link.html"), "same file as " + p("run/records.jsonl")},
		{"a run's records", predict, p("run/records.jsonl"), "named as a records file"},
		{"a records name elsewhere", predict, p("elsewhere/records.jsonl"), "named as a records file"},
		{"a run's configuration", predict, p("run/config.json"), "the configuration of the run in"},
		{"a run's log", predict, p("run/runs.log"), "the invocation log"},
		{"a running run's line", run, p("run/running.json"), "invocation line of a running run"},
		{"a stored network", predict, p("run/networks/split-000/net.json"), "a stored network"},
		{"a new network file in a run", predict, p("run/networks/split-000/new.json"), "a stored network"},
		{"a propensity model", predict, p("run/splits/split-000/propensity.json"), "a per-split file"},
		{"no inputs", nil, p("run/config.json"), "the configuration of the run in"},
	} {
		err := CheckOut("predict", "--out", tc.out, tc.ins...)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "predict: --out "+tc.out) ||
			!strings.HasSuffix(err.Error(), ": write it elsewhere") || strings.ContainsAny(err.Error(), "\n\r") {
			t.Errorf("%s: --out %s: err = %v, want one line saying %q", tc.name, tc.out, err, tc.want)
		}
	}
}
