package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An oversized network or grid is refused in one line before any data is
// read or any folder written.
func TestTrainRefusesOversizedSweeps(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--arch", "100000x100000"}, "--arch"},
		{[]string{"--arch", "3x20000"}, "--arch"},
		{[]string{"--lambdas", "log:100000000000"}, "--lambdas"},
	} {
		out := filepath.Join(t.TempDir(), "run")
		args := append([]string{"train", "--out", out, "--quiet"}, tc.args...)
		_, _, err := runFP(t, args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err = %v, want a refusal naming %s", tc.args, err, tc.want)
			continue
		}
		oneLine(t, err.Error())
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: the run folder was created", tc.args)
		}
	}
}

// fp pick hands a record's network path on to fp predict: a path leaving
// the run folder is refused, not printed.
func TestPickRefusesEscapingWeights(t *testing.T) {
	dir := t.TempDir()
	rec := `{"dataset":"compas","sensitive":"race","method":"cheb","penalty":"ato-penultimate","split":0,"lambda":1,"risk":0.6,"weights":"../../elsewhere/net.json"}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "records.jsonl"), []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runFP(t, "pick", dir, "--knee")
	if err == nil || !strings.Contains(err.Error(), "inside the run folder") {
		t.Fatalf("err = %v, output %q; want the weights refused", err, out)
	}
	oneLine(t, err.Error())
	if strings.Contains(out, "elsewhere") {
		t.Errorf("the path was printed: %q", out)
	}
}

// What --conditioned cannot do is refused in one line naming the flag,
// before any folder is written; under the default lockstep it trains
// without lockstep, and its settings are stored in config.json.
func TestTrainConditionedRefusalsAndConfig(t *testing.T) {
	base := []string{"--conditioned", "--engine", "backprop"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--lambdas", "adaptive:6"}, "--conditioned:"},
		{[]string{"--method", "adversarial"}, "--conditioned:"},
		{[]string{"--lockstep"}, "--lockstep:"},
		{[]string{"--lambda-draw", "beta"}, "--lambda-draw:"},
		{[]string{"--conditioned-epochs", "-1"}, "--conditioned-epochs:"},
	} {
		out := filepath.Join(t.TempDir(), "run")
		args := append(append([]string{"train", "--out", out, "--quiet"}, base...), tc.args...)
		_, _, err := runFP(t, args...)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%v: err = %v, want a refusal starting %s", tc.args, err, tc.want)
			continue
		}
		oneLine(t, err.Error())
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: the run folder was created", tc.args)
		}
	}
	out := filepath.Join(t.TempDir(), "run")
	_, _, err := runFP(t, "train", "--out", out, "--quiet", "--eval-lambdas", "log:9", "--engine", "backprop")
	if err == nil || !strings.HasPrefix(err.Error(), "--eval-lambdas:") {
		t.Errorf("--eval-lambdas without --conditioned: err = %v", err)
	}
	_, _, err = runFP(t, "train", "--out", out, "--quiet", "--conditioned-epochs", "50", "--engine", "backprop")
	if err == nil || !strings.HasPrefix(err.Error(), "--conditioned-epochs:") || !strings.Contains(err.Error(), "--conditioned only") {
		t.Errorf("--conditioned-epochs without --conditioned: err = %v", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused sweep created its run folder")
	}
	if testing.Short() {
		return
	}
	_, _, err = runFP(t, "train", "--out", out, "--quiet", "--no-plot", "--conditioned", "--engine", "backprop",
		"--splits", "1", "--epochs", "2", "--conditioned-epochs", "3", "--propensity-epochs", "2", "--lambdas", "log:4", "--eval-lambdas", "0.5")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"conditioned": true`, `"film_width": 16`, `"lambda_draw": "log-uniform"`, `"eval_lambdas": "0.5"`, `"conditioned_epochs": 3`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("config.json lacks %s:\n%s", key, b)
		}
	}
	if strings.Contains(string(b), `"lockstep"`) {
		t.Errorf("a conditioned sweep was stored in lockstep:\n%s", b)
	}
	// The same command resumes: nothing is trained again.
	if _, _, err := runFP(t, "train", "--out", out, "--quiet", "--no-plot", "--config", filepath.Join(out, "config.json")); err != nil {
		t.Errorf("resuming from config.json: %v", err)
	}
}

// --film-penalty is refused in one line naming the flag that cannot go with
// it, before any folder is written: without --conditioned, with a penalty
// on the output, with an unknown position, and on the backprop engine
// (its capability check).
func TestTrainFiLMPenaltyRefusals(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--engine", "graph", "--film-penalty", "before"}, []string{"--film-penalty:", "--conditioned only"}},
		{[]string{"--engine", "graph", "--film-penalty", "after"}, []string{"--film-penalty:", "--conditioned only"}},
		{[]string{"--conditioned", "--engine", "graph", "--film-penalty", "inside"}, []string{"--film-penalty:", `"inside": want one of after, before`}},
		{[]string{"--conditioned", "--engine", "graph", "--penalty", "ato-output", "--film-penalty", "before"},
			[]string{"--film-penalty:", "ato-output reads the predicted probability"}},
		{[]string{"--conditioned", "--engine", "backprop", "--penalty", "ato-penultimate", "--film-penalty", "before"},
			[]string{"--engine:", `cannot train the penalty position "before"`, "use the graph engine"}},
	} {
		out := filepath.Join(t.TempDir(), "run")
		args := append([]string{"train", "--out", out, "--quiet"}, tc.args...)
		_, _, err := runFP(t, args...)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want[0]) {
			t.Errorf("%v: err = %v, want a refusal starting %s", tc.args, err, tc.want[0])
			continue
		}
		for _, w := range tc.want[1:] {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: err = %v, want it to say %s", tc.args, err, w)
			}
		}
		oneLine(t, err.Error())
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: the run folder was created", tc.args)
		}
	}
}

// --film-penalty before is stored in config.json and resumes from it;
// the default, after, is not stored, so the folder's configuration is that
// of a sweep made before the flag existed.
func TestTrainFiLMPenaltyConfig(t *testing.T) {
	if testing.Short() {
		t.Skip("trains two conditioned sweeps; run without -short")
	}
	for _, where := range []string{"after", "before"} {
		out := filepath.Join(t.TempDir(), "run")
		_, _, err := runFP(t, "train", "--out", out, "--quiet", "--no-plot", "--conditioned", "--engine", "graph",
			"--penalty", "ato-penultimate", "--film-penalty", where,
			"--splits", "1", "--epochs", "2", "--propensity-epochs", "2", "--lambdas", "log:4")
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		b, err := os.ReadFile(filepath.Join(out, "config.json"))
		if err != nil {
			t.Fatal(err)
		}
		if stored := strings.Contains(string(b), `"film_penalty": "before"`); stored != (where == "before") || strings.Contains(string(b), `"film_penalty": "after"`) {
			t.Errorf("%s: config.json:\n%s", where, b)
		}
		if _, _, err := runFP(t, "train", "--out", out, "--quiet", "--no-plot", "--config", filepath.Join(out, "config.json")); err != nil {
			t.Errorf("%s: resuming from config.json: %v", where, err)
		}
	}
}
