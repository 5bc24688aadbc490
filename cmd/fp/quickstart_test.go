package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
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

// Every fp command line in the shell blocks of the README and of the
// pages under docs/ names a command that exists and flags that command has.
func TestReadmeAndDocsCommandsExist(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{filepath.Join("..", "..", "README.md")}, files...)
	flags := map[string]map[string]bool{}
	var walk func(prefix string, cmds []*cli.Command)
	walk = func(prefix string, cmds []*cli.Command) {
		for _, c := range cmds {
			if c.Name == "help" {
				continue // urfave/cli's, added once a command has run
			}
			names := map[string]bool{"help": true, "h": true}
			for _, f := range c.Flags {
				for _, n := range f.Names() {
					names[n] = true
				}
			}
			flags[prefix+c.Name] = names
			walk(prefix+c.Name+" ", c.Subcommands)
		}
	}
	walk("", newApp().Commands)
	n := 0
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, block := range strings.Split(string(b), "```sh\n")[1:] {
			block, _, _ = strings.Cut(block, "```")
			for _, line := range strings.Split(block, "\n") {
				line, _, _ = strings.Cut(line, "  #")
				for _, part := range strings.Split(line, "|") {
					args := strings.Fields(strings.NewReplacer("$(", " ", ")", " ").Replace(part))
					for len(args) > 0 && args[0] != "fp" && args[0] != "./bin/fp" {
						args = args[1:]
					}
					if len(args) < 2 {
						continue
					}
					n++
					cmd := args[1]
					rest := args[2:]
					if len(rest) > 0 && flags[cmd+" "+rest[0]] != nil {
						cmd, rest = cmd+" "+rest[0], rest[1:]
					}
					known := flags[cmd]
					if known == nil {
						t.Errorf("%s: %q: fp has no command %q", filepath.Base(file), strings.TrimSpace(part), cmd)
						continue
					}
					for _, a := range rest {
						name, ok := strings.CutPrefix(a, "--")
						if !ok {
							continue
						}
						name, _, _ = strings.Cut(name, "=")
						if !known[name] {
							t.Errorf("%s: %q: fp %s has no flag --%s", filepath.Base(file), strings.TrimSpace(part), cmd, name)
						}
					}
				}
			}
		}
	}
	if n < 20 {
		t.Errorf("only %d fp command lines found: the parsing is broken", n)
	}
}
