package main

import (
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/report/htmlreport"
)

// TestReportCommandResumesTheRun writes the report of a small run and runs
// the command the page gives to reproduce it: it must name the same
// configuration, so fp train resumes instead of refusing the folder.
func TestReportCommandResumesTheRun(t *testing.T) {
	run := filepath.Join(t.TempDir(), "run")
	if _, _, err := runFP(t, "train", "--splits", "2", "--lambdas", "0,1", "--epochs", "1", "--propensity-epochs", "1",
		"--engine", "backprop", "--seed", "7", "--dropout", "0.1", "--workers", "1", "--quiet", "--no-plot", "--out", run); err != nil {
		t.Fatal(err)
	}
	stdout, _, err := runFP(t, "report", run, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var res reportResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	if res.Out != filepath.Join(run, "report.html") || res.Candidates != 4 || res.Failed != 0 {
		t.Errorf("fp report --json = %+v, want report.html in the run with 4 candidates", res)
	}
	b, err := os.ReadFile(res.Out)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != res.Bytes {
		t.Errorf("page has %d bytes, --json says %d", len(b), res.Bytes)
	}
	m := regexp.MustCompile(`Reproduce: <code>([^<]*)</code>`).FindSubmatch(b)
	if m == nil {
		t.Fatal("the page shows no command that reproduces the run")
	}
	cmd := html.UnescapeString(string(m[1]))
	for _, want := range []string{"--seed 7", "--dropout 0.1", "--epochs 1", "--engine backprop", "--lambdas 0,1"} {
		if !strings.Contains(cmd, want) {
			t.Errorf("command %q lacks %s", cmd, want)
		}
	}
	args := strings.Fields(cmd)
	if args[0] != "fp" {
		t.Fatalf("command %q does not start with fp", cmd)
	}
	out, _, err := runFP(t, append(args[1:], "--quiet", "--no-plot")...)
	if err != nil {
		t.Fatalf("%s: %v", cmd, err)
	}
	if !strings.Contains(out, "0 trained now") || !strings.Contains(out, "4 already recorded") {
		t.Errorf("%s did not resume the run: %s", cmd, out)
	}
}

// TestTrainCommandRoundTrips parses the reproducing command of several
// configurations with fp train's flags and checks it gives the same
// configuration.
func TestTrainCommandRoundTrips(t *testing.T) {
	adv := experiments.DefaultConfig()
	adv.Method, adv.Penalty, adv.AdvBetaScale, adv.AdvEpochs, adv.Lambdas = "adversarial", "", 200, 50, "linear:5"
	csv := experiments.DefaultConfig()
	csv.Dataset, csv.CSV, csv.Target, csv.Sensitive, csv.Positive, csv.DropMissing = "", "data/loans.csv", "default", "group", "yes", true
	csv.Batch, csv.Arch, csv.TrainSize, csv.TestSize = 37, "3x8", 500, 200
	csv.Exclude = []string{"id", "name"}
	adult := experiments.DefaultConfig()
	adult.Dataset, adult.Preset, adult.Splits, adult.Seed, adult.Penalty, adult.LR = "adult-sex", "full", 10, 18446744073709551615, "ato-all", 3e-4
	adult.Features = []string{"age", "education"}
	adv2 := adv
	adv2.AdvBudget = experiments.AdvBudgetMatched
	adv3 := adv
	adv3.AdvClfSteps = 3
	cond := experiments.DefaultConfig()
	cond.Penalty, cond.Conditioned, cond.Lockstep, cond.FiLMWidth, cond.LambdaDraw = "ato-output", true, false, 8, "grid"
	cond.EvalLambdas, cond.ScheduleRows, cond.ConditionedEpochs, cond.ConditionedLR = "log:8", 500, 7, "constant"
	filmOutput := cond
	filmOutput.FiLMOutput, filmOutput.LambdasPerStep, filmOutput.ConditionedArch = true, 4, "4x8"
	before := cond
	before.Engine, before.Penalty, before.FiLMPenalty = "graph", "ato-penultimate", "before"
	groups := csv
	groups.SensitiveLevels, groups.GroupMap, groups.MinGroupRows, groups.ValFraction = []string{"a", "b"}, []string{"c=b", "d=other"}, 12, 0.1
	apart := experiments.DefaultConfig()
	apart.Lockstep = false
	for name, c := range map[string]experiments.Config{"default": experiments.DefaultConfig(), "adversarial": adv, "csv": csv, "adult": adult,
		"adversarial, matched": adv2, "adversarial, 3 steps": adv3, "conditioned": cond, "conditioned, before": before, "conditioned, film output": filmOutput, "groups": groups, "one after another": apart} {
		t.Run(name, func(t *testing.T) {
			line := htmlreport.TrainCommand(c.Config, experiments.CommandDefaults(), "runs/x")
			var got experiments.Config
			cmd, tf := newTrainCommand()
			cmd.Action = func(ctx *cli.Context) error {
				var err error
				got, err = tf.config(ctx)
				return err
			}
			app := &cli.App{Name: "fp", Commands: []*cli.Command{cmd}}
			if err := app.Run(strings.Fields(line)); err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			want, err := c.Resolved(1000)
			if err != nil {
				t.Fatal(err)
			}
			have, err := got.Resolved(1000)
			if err != nil {
				t.Fatal(err)
			}
			if d := want.Diff(have); len(d) > 0 || want.Digest() != have.Digest() {
				t.Errorf("%s gives another configuration: %s", line, strings.Join(d, "; "))
			}
		})
	}
}

func TestReportRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "records.jsonl")
	if err := os.WriteFile(bad, []byte("{\"split\": \"one\"}\n{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no run", []string{"report"}, "give one or more run folders"},
		{"missing folder", []string{"report", filepath.Join(dir, "nothing")}, "nothing"},
		{"bad records", []string{"report", bad}, "records.jsonl"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := runFP(t, tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one naming %q", err, tc.want)
			}
			oneLine(t, err.Error())
		})
	}
}

// fp report marks, on each front, the network fp pick returns: by the
// knee, or by the requirement given, through fp pick's own rule flags.
func TestReportMarksThePick(t *testing.T) {
	_, csv := ciRun(t)
	// Trained long enough that fp pick finds networks that are not
	// degenerate.
	dir := filepath.Join(t.TempDir(), "run")
	if _, stderr, err := runFP(t, "train", "--data", csv, "--target", "label", "--sensitive", "group", "--splits", "2",
		"--lambdas", "0,0.01,0.1,1", "--epochs", "60", "--engine", "backprop", "--out", dir, "-q", "--no-plot"); err != nil {
		t.Fatalf("train: %v\n%s", err, stderr)
	}
	cases := []struct {
		name string
		args []string // fp pick's and fp report's
	}{
		{"knee", []string{"--knee"}},
		{"requirement", []string{"--max-risk", "0.7"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "report.html")
			reportArgs := []string{"report", dir, "--out", out, "--ci-resamples", "100"}
			if tc.name != "knee" { // the default
				reportArgs = append(reportArgs, tc.args...)
			}
			if _, _, err := runFP(t, reportArgs...); err != nil {
				t.Fatal(err)
			}
			pickOut, _, err := runFP(t, append([]string{"pick", dir, "--json", "--ci-resamples", "0"}, tc.args...)...)
			if err != nil {
				t.Fatal(err)
			}
			var picked struct {
				Weights string `json:"weights"`
			}
			if err := json.Unmarshal([]byte(pickOut), &picked); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			m := regexp.MustCompile(`(?s)<script type="application/json" id="fp-data">(.*?)</script>`).FindSubmatch(b)
			if m == nil {
				t.Fatal("no data in the page")
			}
			var data struct {
				Metrics    []string `json:"metrics"`
				PickFlags  string   `json:"pick_flags"`
				Candidates []struct {
					Net  string `json:"net"`
					Pick []int  `json:"pick"`
				} `json:"candidates"`
			}
			if err := json.Unmarshal(m[1], &data); err != nil {
				t.Fatal(err)
			}
			var marked []string
			for _, c := range data.Candidates {
				if len(c.Pick) > 0 && c.Pick[0] == 0 { // on the front of ato, fp pick's default metric
					marked = append(marked, c.Net)
				}
			}
			if data.Metrics[0] != "ato" || len(marked) != 1 || marked[0] != picked.Weights {
				t.Errorf("the page marks %q on the ato front, fp pick %s returns %s", marked, strings.Join(tc.args, " "), picked.Weights)
			}
			if want := strings.Join(tc.args, " "); data.PickFlags != want {
				t.Errorf("pick flags %q, want %q", data.PickFlags, want)
			}
			if want := "fp pick " + dir + " " + strings.Join(tc.args, " ") + " --metric ato"; !strings.Contains(html.UnescapeString(string(b)), want) {
				t.Errorf("the page does not show %q", want)
			}
		})
	}
	if _, _, err := runFP(t, "report", dir, "--knee", "--max-risk", "1"); err == nil || !strings.Contains(err.Error(), "at most one of") {
		t.Errorf("two requirements: err = %v", err)
	}
}
