package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/model"
)

// Every flag line of every command's help shows at most one default, and
// never a zero value that stands for "not set".
func TestHelpShowsEachDefaultOnceAndTruly(t *testing.T) {
	for _, cmd := range newApp().Commands {
		t.Run(cmd.Name, func(t *testing.T) {
			out, _, err := runFP(t, cmd.Name, "--help")
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(out, "\n") {
				if !strings.HasPrefix(strings.TrimSpace(line), "-") {
					continue
				}
				if n := strings.Count(line, "default"); n > 1 {
					t.Errorf("%d defaults in %q", n, line)
				}
				for _, bad := range []string{"(default: 0)", "(default: false)", `(default: "")`} {
					if strings.Contains(line, bad) {
						t.Errorf("%q shows %s", line, bad)
					}
				}
			}
		})
	}
	out, _, err := runFP(t, "train", "--help")
	if err != nil {
		t.Fatal(err)
	}
	for flag, want := range map[string]string{
		"--train-fraction": "(default: 0.5)",
		"--batch":          "(default: the dataset's)",
		"--workers":        "(default: one per CPU)",
		"--shards":         "(default: from a Slurm array)",
		"--epochs":         "(default: 500)",
	} {
		var line string
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), flag+" ") {
				line = l
			}
		}
		if !strings.Contains(line, want) {
			t.Errorf("help line of %s is %q, want it to contain %q", flag, line, want)
		}
	}
}

func TestHelpCommand(t *testing.T) {
	out, _, err := runFP(t, "help", "train")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "fp train - find the fairness–accuracy Pareto front") || !strings.Contains(out, "--train-fraction") {
		t.Errorf("fp help train:\n%s", out)
	}
}

func TestUnknownCommandSuggestsTheNearest(t *testing.T) {
	for _, tc := range []struct{ arg, want string }{
		{"trian", `unknown command "trian": did you mean train?`},
		{"fornt", `did you mean front?`},
		{"stauts", `did you mean status?`},
		{"zzzz", `unknown command "zzzz": the commands are audit, bench, compare`},
	} {
		_, _, err := runFP(t, tc.arg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("fp %s: err = %v, want %q", tc.arg, err, tc.want)
		}
	} // fp help of a mistyped command, and a mistyped flag, get a suggestion too.
	if _, _, err := runFP(t, "help", "trian"); err == nil || !strings.Contains(err.Error(), `Did you mean "train"?`) {
		t.Errorf("fp help trian: err = %v", err)
	}
	if _, _, err := runFP(t, "train", "--epoch", "3"); err == nil || !strings.Contains(err.Error(), `did you mean --epochs?`) {
		t.Errorf("fp train --epoch 3: err = %v", err)
	}
}

func TestVersion(t *testing.T) {
	out, _, err := runFP(t, "--version")
	if err != nil {
		t.Fatal(err)
	}
	v := model.CommandVersion()
	if out != "fp version "+v+"\n" {
		t.Errorf("fp --version printed %q, want %q", out, "fp version "+v)
	}
	if !strings.HasPrefix(v, "(devel)") && !strings.HasPrefix(v, "v") {
		t.Errorf("version %q is neither a module version nor (devel)", v)
	}
}

func TestTrainJSON(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	stdout, _, err := runFP(t, "train", "--splits", "1", "--lambdas", "0,0.5,1", "--epochs", "3", "--propensity-epochs", "2",
		"--engine", "backprop", "--quiet", "--out", out, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var res experiments.Outcome
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, stdout)
	}
	if res.Out != out || res.Candidates != 3 || res.Trained != 3 || res.Metric != "ato" ||
		res.Comparison == nil || len(res.Comparison.Pooled) != 1 || res.Comparison.Pooled[0].Candidates != 3 || len(res.Front) == 0 {
		t.Fatalf("train --json: %+v", res)
	}
	for i, n := range res.Front {
		if _, err := os.Stat(n.Weights); err != nil {
			t.Errorf("front network %d: %v", i, err)
		}
		if i > 0 && n.Risk < res.Front[i-1].Risk {
			t.Errorf("front not sorted by risk: %+v", res.Front)
		}
	}
	if _, err := os.Stat(res.Figure); err != nil || filepath.Dir(res.Figure) != out {
		t.Errorf("figure %q: %v", res.Figure, err)
	}
}

// Without --quiet, fp train shows the propensity fit before the first
// candidate, not a silent wait.
func TestTrainShowsPropensityProgress(t *testing.T) {
	_, stderr, err := runFP(t, "train", "--splits", "1", "--lambdas", "0,1", "--epochs", "2", "--propensity-epochs", "20",
		"--engine", "backprop", "--no-plot", "--out", filepath.Join(t.TempDir(), "run"))
	if err != nil {
		t.Fatal(err)
	}
	first := strings.Index(stderr, "propensity model of split 0: epoch 2/20\n")
	last := strings.Index(stderr, "propensity model of split 0: epoch 20/20\n")
	cand := strings.Index(stderr, "[1/2] split 0")
	if first < 0 || last < first || cand < last || strings.Count(stderr, "propensity model") != 10 {
		t.Errorf("progress on stderr:\n%s", stderr)
	}
}
