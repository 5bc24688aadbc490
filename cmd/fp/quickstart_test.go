package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// quickStartBlock returns the command lines of the README's quick start
// that follow make demo: the shell block that exports the data.
func quickStartBlock(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, block := range strings.Split(string(b), "```sh\n")[1:] {
		block, _, _ = strings.Cut(block, "```")
		if !strings.Contains(block, "datasets export") {
			continue
		}
		var lines []string
		for _, l := range strings.Split(block, "\n") {
			if l, _, _ = strings.Cut(l, "  #"); strings.TrimSpace(l) != "" {
				lines = append(lines, strings.TrimSpace(l))
			}
		}
		return lines
	}
	t.Fatal("README has no shell block with fp datasets export")
	return nil
}

// The README's quick start runs as written after make demo (here a small
// sweep into the same folder): export the embedded COMPAS rows, pick the
// knee, score the rows with its network and audit the scores.
func TestReadmeQuickStartRuns(t *testing.T) {
	lines := quickStartBlock(t)
	t.Chdir(t.TempDir())
	if _, _, err := runFP(t, "train", "--out", "runs/demo", "--splits", "1", "--lambdas", "log:15", "--epochs", "100",
		"--propensity-epochs", "5", "--engine", "backprop", "--quiet", "--no-plot"); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{}
	assign := regexp.MustCompile(`^(\w+)=\$\((.*)\)$`)
	var last string
	for _, line := range lines {
		name, cmd := "", line
		if m := assign.FindStringSubmatch(line); m != nil {
			name, cmd = m[1], m[2]
		}
		args := strings.Fields(cmd)
		if args[0] != "./bin/fp" {
			t.Fatalf("README line %q does not run ./bin/fp", line)
		}
		for i, a := range args {
			for v, val := range vars {
				a = strings.ReplaceAll(a, `"$`+v+`"`, val)
			}
			if strings.ContainsAny(a, `$"'`) {
				t.Fatalf("README line %q: cannot expand %s", line, a)
			}
			args[i] = a
		}
		stdout, stderr, err := runFP(t, args[1:]...)
		if err != nil {
			t.Fatalf("%s: %v\n%s", line, err, stderr)
		}
		if name != "" {
			vars[name] = strings.TrimSpace(stdout)
		}
		last = stdout
	}
	if net := vars["net"]; !strings.HasPrefix(net, filepath.Join("runs", "demo", "networks")) {
		t.Errorf("net = %q", net)
	}
	b, err := os.ReadFile("scores.csv")
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(b)), "\n")
	if rows[0] != "score,label,logit,propensity,y_coded,a_coded" || len(rows) != 6172+1 {
		t.Errorf("scores.csv: header %q, %d rows", rows[0], len(rows)-1)
	}
	for _, w := range []string{"ato", "dp", "eo", "accuracy"} {
		if !strings.Contains(last, w) {
			t.Errorf("fp audit printed no %s:\n%s", w, last)
		}
	}
}
