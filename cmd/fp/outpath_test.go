package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every command that writes a file passes its output and each of its inputs
// to runfolder.CheckOut before reading anything, and prints its refusal
// as the one line it is. The cases of the rule itself (spellings, links,
// every file a run keeps) are runfolder's TestCheckOutRefuses; here each
// command is caught with each input it passes and with one file a run
// keeps. The files are not what they are named (a line of text each), so
// a command that read one before checking would fail otherwise.
func TestOutputNeverOverwritesInputs(t *testing.T) {
	dir := t.TempDir()
	p := func(f string) string { return filepath.Join(dir, f) }
	files := []string{"run/config.json", "run/records.jsonl", "run/networks/split-000/net.json",
		"run/splits/split-000/propensity.json", "data.csv", "net.json", "prop.json"}
	for _, f := range files {
		if err := os.MkdirAll(filepath.Dir(p(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p(f), []byte("original "+f+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	predict := func(out string) []string {
		return []string{"predict", "--model", p("net.json"), "--data", p("data.csv"), "--propensity-file", p("prop.json"), "--out", out}
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"predict onto its data", predict(p("data.csv")), "is --data"},
		{"predict onto its network", predict(p("net.json")), "is --model"},
		{"predict onto its propensity file", predict(p("prop.json")), "is --propensity-file"},
		{"predict onto a propensity model", predict(p("run/splits/split-000/propensity.json")), "a per-split file"},
		{"export onto its network", []string{"export", "--model", p("net.json"), "--out", p("net.json")}, "is --model"},
		{"export onto a stored network", []string{"export", "--model", p("net.json"), "--out", p("run/networks/split-000/net.json")}, "a stored network"},
		{"datasets export onto records", []string{"datasets", "export", "compas", "--out", p("run/records.jsonl")}, "records file"},
		{"report onto its run folder", []string{"report", p("run"), "--out", p("run")}, "is the input"},
		{"report onto a records file given", []string{"report", p("run/records.jsonl"), "--out", p("run/records.jsonl")}, "is the input"},
		{"report onto the configuration", []string{"report", p("run"), "--out", p("run/config.json")}, "the configuration"},
		{"plot onto its run folder", []string{"plot", p("run"), "--out", p("run")}, "is the input"},
		{"plot onto the configuration", []string{"plot", p("run"), "--out", p("run/config.json")}, "the configuration"},
		{"plot --dist onto a propensity model", []string{"plot", p("run"), "--dist", "--out", p("run/splits/split-000/propensity.json")}, "a per-split file"},
	} {
		stdout, _, err := runFP(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasSuffix(err.Error(), "write it elsewhere") {
			t.Errorf("%s: err = %v, want a refusal saying %q", tc.name, err, tc.want)
			continue
		}
		oneLine(t, err.Error())
		if stdout != "" {
			t.Errorf("%s: refused, yet printed %q", tc.name, stdout)
		}
	}
	for _, f := range files {
		if b, err := os.ReadFile(p(f)); err != nil || string(b) != "original "+f+"\n" {
			t.Errorf("%s was changed: %q, %v", f, b, err)
		}
	}
}
