package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/internal/cliusage"
)

// commandPaths lists every command as typed ("train", "datasets export"),
// with whether it takes arguments.
func commandPaths() map[string]bool {
	out := map[string]bool{}
	var walk func(prefix string, cmds []*cli.Command)
	walk = func(prefix string, cmds []*cli.Command) {
		for _, c := range cmds {
			if c.Name == "help" {
				continue
			}
			out[prefix+c.Name] = c.ArgsUsage != "" || len(c.Subcommands) > 0
			walk(prefix+c.Name+" ", c.Subcommands)
		}
	}
	walk("", newApp().Commands)
	return out
}

// fp train reads no arguments: one is refused, named, before anything is
// trained, and the flags after it are said to be unread (urfave/cli stops
// reading flags at the first argument).
func TestTrainRefusesArguments(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "run")
	_, _, err := runFP(t, "train", "--out", out, "--splits", "1", "--lambdas", "0,1", "--epochs", "1",
		"--propensity-epochs", "1", "--quiet", "--no-plot", "myrun")
	if err == nil || !strings.Contains(err.Error(), `train: unexpected argument "myrun"; fp train takes flags only`) {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a refused command wrote %s", out)
	}
	_, _, err = runFP(t, "train", "myrun", "--epochs", "1", "--splits", "1")
	want := `train: unexpected argument "myrun" (flags after it were not read); the output folder is --out myrun`
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
	_, _, err = runFP(t, "train", "a", "b c")
	if err == nil || !strings.Contains(err.Error(), `unexpected arguments "a", "b c"; the output folder is --out a`) {
		t.Errorf("two arguments: err = %v", err)
	}
}

// Every command that takes no arguments refuses one in one line; the
// commands that take files read the flags that follow them.
func TestCommandsRefuseArgumentsTheyDoNotTake(t *testing.T) {
	for path, takesArgs := range commandPaths() {
		if takesArgs && path != "datasets" {
			continue
		}
		t.Run(path, func(t *testing.T) {
			args := append(strings.Fields(path), "stray", "--json")
			_, _, err := runFP(t, args...)
			if err == nil || !strings.Contains(err.Error(), `unexpected argument "stray" (flags after it were not read)`) {
				t.Fatalf("fp %s: err = %v", strings.Join(args, " "), err)
			}
			oneLine(t, err.Error())
		})
	}
	for _, args := range [][]string{
		{"front", "x.jsonl", "--metrc", "dp"}, {"compare", "x.jsonl", "--tolerence", "0.1"},
		{"pick", "x.jsonl", "--knee", "--metrc", "dp"}, {"plot", "x.jsonl", "--metrc", "dp"},
		{"report", "x", "--titel", "t"}, {"status", "x", "--shard", "2"}, {"datasets", "export", "compas", "--presset", "full"},
	} {
		_, _, err := runFP(t, args...)
		var ue *cliusage.Error
		if err == nil || !errors.As(err, &ue) || !strings.Contains(err.Error(), "unknown flag "+args[len(args)-2]+"; did you mean --") {
			t.Errorf("fp %s: err = %v", strings.Join(args, " "), err)
		}
	}
}

// runMain runs the fp binary (this test binary as fp) and returns what it
// wrote.
func runMain(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "FP_TEST_RUN_MAIN=1")
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

// A mistyped or missing flag prints, on stderr, the error with the nearest
// flag and one usage line; nothing on stdout (not the whole help).
func TestUsageErrorsAreTwoLinesOnStderr(t *testing.T) {
	cases := map[string][]string{
		"train --epoch 3":  {"fp: train: unknown flag --epoch; did you mean --epochs?", "usage: fp train [flags]; fp train --help lists the flags"},
		"predict --model":  {"fp: predict: flag needs an argument: --model", "usage: fp predict [flags]; fp predict --help lists the flags"},
		"predict":          {"fp: predict: --model is required", "usage: fp predict [flags]; fp predict --help lists the flags"},
		"front x --metrc":  {"fp: front: unknown flag --metrc; did you mean --metric?", "usage: fp front [flags] FILE_OR_DIR...; fp front --help lists the flags"},
		"--verison":        {"fp: unknown flag --verison; did you mean --version?", "usage: fp COMMAND [flags]; fp --help lists the commands"},
		"train --epochs x": {`fp: train: invalid value "x" for flag --epochs: parse error`, "usage: fp train [flags]; fp train --help lists the flags"},
	}
	for path := range commandPaths() {
		cases[path+" --zzz-flag"] = []string{"fp: " + path + ": unknown flag --zzz-flag", "usage: "}
	}
	for line, want := range cases {
		t.Run(line, func(t *testing.T) {
			stdout, stderr, err := runMain(t, strings.Fields(line)...)
			if err == nil {
				t.Fatal("exit status 0")
			}
			lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
			if stdout != "" || len(lines) != 2 || !strings.HasPrefix(lines[0], want[0]) || !strings.HasPrefix(lines[1], want[1]) {
				t.Errorf("stdout %q, stderr:\n%s\nwant the two lines %q", stdout, stderr, want)
			}
		})
	}
}
