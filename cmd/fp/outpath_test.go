package main

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
		"data.csv", "net.json", "prop.json", "run/running.json",
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

// Every command that writes a file refuses, in one line and before reading
// anything, an output that is one of its inputs or a file a run keeps.
func TestOutputNeverOverwritesInputs(t *testing.T) {
	dir := outFixture(t)
	p := func(f string) string { return filepath.Join(dir, f) }
	predict := func(out string) []string {
		return []string{"predict", "--model", p("net.json"), "--data", p("data.csv"), "--out", out}
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"predict onto its data", predict(p("data.csv")), "is --data"},
		{"predict onto its data, another spelling", predict(p("run/../data.csv")), "is --data"},
		{"predict onto a symbolic link to its data", predict(p("sym.csv")), "is --data"},
		{"predict onto a hard link to its data", predict(p("hard.csv")), "same file as --data"},
		{"predict onto its network", predict(p("net.json")), "is --model"},
		{"predict onto a records file", predict(p("run/records.jsonl")), "records"},
		{"predict onto a records name elsewhere", predict(p("records.jsonl")), "named as a records file"},
		{"predict onto a run's configuration", predict(p("run/config.json")), "the configuration of the run"},
		{"predict onto a run's log", predict(p("run/runs.log")), "the invocation log"},
		{"predict onto a stored network", predict(p("run/networks/split-000/net.json")), "a stored network"},
		{"predict into a new network file", predict(p("run/networks/split-000/new.json")), "a stored network"},
		{"predict onto a propensity model", predict(p("run/splits/split-000/propensity.json")), "a per-split file"},
		{"predict onto its propensity file", append(predict(p("prop.json")), "--propensity-file", p("prop.json")), "is --propensity-file"},
		{"report onto a running run's line", []string{"report", p("run"), "--out", p("run/running.json")}, "invocation line of a running run"},
		{"export onto its network", []string{"export", "--model", p("net.json"), "--out", p("net.json")}, "is --model"},
		{"export onto a stored network", []string{"export", "--model", p("net.json"), "--out", p("run/networks/split-000/net.json")}, "a stored network"},
		{"datasets export onto records", []string{"datasets", "export", "compas", "--out", p("run/records.jsonl")}, "records file"},
		{"report onto the records", []string{"report", p("run"), "--out", p("run/records.jsonl")}, "records"},
		{"report onto a records file given", []string{"report", p("run/records.jsonl"), "--out", p("run/records.jsonl")}, "is the input"},
		{"report onto its run folder", []string{"report", p("run"), "--out", p("run")}, "is the input"},
		{"report onto a hard link to the records", []string{"report", p("run"), "--out", p("records-link.html")}, "same file as"},
		{"report onto the configuration", []string{"report", p("run"), "--out", p("run/config.json")}, "the configuration"},
		{"plot onto the records", []string{"plot", p("run"), "--out", p("run/records.jsonl")}, "records"},
		{"plot onto the configuration", []string{"plot", p("run"), "--out", p("run/config.json")}, "the configuration"},
		{"plot --dist onto a propensity model", []string{"plot", p("run"), "--dist", "--out", p("run/splits/split-000/propensity.json")}, "a per-split file"},
	} {
		_, _, err := runFP(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "write it elsewhere") {
			t.Errorf("%s: err = %v, want a refusal saying %q", tc.name, err, tc.want)
			continue
		}
		oneLine(t, err.Error())
	}
	for _, f := range []string{"run/config.json", "run/records.jsonl", "run/runs.log", "run/networks/split-000/net.json",
		"run/splits/split-000/propensity.json", "data.csv", "net.json", "prop.json", "run/running.json"} {
		if b, err := os.ReadFile(p(f)); err != nil || string(b) != "original "+f+"\n" {
			t.Errorf("%s was changed: %q, %v", f, b, err)
		}
	}
	for _, f := range []string{"records.jsonl", "run/networks/split-000/new.json"} {
		if _, err := os.Stat(p(f)); err == nil {
			t.Errorf("%s was written", f)
		}
	}
}
