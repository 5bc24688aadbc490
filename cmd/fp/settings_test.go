package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/report/htmlreport"
	"github.com/fpareto/fp/runfolder"
)

// settingValues give every setting a value other than its default, with the
// flags that make it apply.
var settingValues = map[string][]string{
	"dataset": {"--dataset", "adult-sex"}, "preset": {"--preset", "full"}, "data-dir": {"--data-dir", "d"},
	"data": {"--data", "x.csv"}, "target": {"--target", "y"}, "sensitive": {"--sensitive", "a"},
	"positive": {"--positive", "1"}, "sensitive-positive": {"--sensitive-positive", "1"},
	"sensitive-levels": {"--sensitive-levels", "all"}, "group-map": {"--group-map", "a=b,c=other"},
	"min-group-rows": {"--min-group-rows", "12"}, "drop-missing": {"--drop-missing"},
	"features": {"--features", "a,b"}, "exclude": {"--exclude", "c,d"}, "splits": {"--splits", "3"},
	"train-fraction": {"--train-fraction", "0.3"}, "train-size": {"--train-size", "100"},
	"test-size": {"--test-size", "50"}, "val-fraction": {"--val-fraction", "0.3"},
	"select-fraction": {"--select-fraction", "0.3"},
	"method":          {"--method", "linear"}, "rho": {"--method", "cheb-aug", "--rho", "0.3"},
	"penalty": {"--penalty", "dp"}, "lambdas": {"--lambdas", "log:4"}, "threshold": {"--threshold", "0.3"},
	"propensity-epochs": {"--propensity-epochs", "7"}, "epochs": {"--epochs", "9"}, "batch": {"--batch", "77"},
	"arch": {"--arch", "3x5"}, "dropout": {"--dropout", "0.3"}, "lr": {"--lr", "0.01"}, "seed": {"--seed", "7"},
	"engine": {"--engine", "backprop"}, "lockstep": {"--engine", "backprop", "--lockstep=false"},
	"beta-scale":         {"--method", "adversarial", "--beta-scale", "30"},
	"adv-rounds":         {"--method", "adversarial", "--adv-rounds", "9"},
	"adv-pretrain-clf":   {"--method", "adversarial", "--adv-pretrain-clf", "3"},
	"adv-pretrain-adv":   {"--method", "adversarial", "--adv-pretrain-adv", "4"},
	"adv-version":        {"--method", "adversarial", "--adv-version", "1"},
	"adv-clf-steps":      {"--method", "adversarial", "--adv-clf-steps", "3"},
	"adv-budget":         {"--method", "adversarial", "--adv-budget", "matched"},
	"conditioned":        {"--conditioned"},
	"film-width":         {"--conditioned", "--film-width", "8"},
	"film-output":        {"--conditioned", "--film-output"},
	"conditioned-arch":   {"--conditioned", "--conditioned-arch", "3x8"},
	"lambdas-per-step":   {"--conditioned", "--lambdas-per-step", "4"},
	"lambda-draw":        {"--conditioned", "--lambda-draw", "grid"},
	"conditioned-epochs": {"--conditioned", "--conditioned-epochs", "7"},
	"conditioned-lr":     {"--conditioned", "--conditioned-lr", "constant"},
	"schedule-rows":      {"--conditioned", "--schedule-rows", "500"},
	"film-penalty":       {"--conditioned", "--film-penalty", "before"},
	"eval-lambdas":       {"--conditioned", "--eval-lambdas", "log:8"},
	"constraint":         {"--method", "reductions", "--constraint", "eo"},
	"base-run":           {"--method", "thresholds", "--base-run", "runs/base"},
}

// storedConfig parses fp train's arguments as fp does and returns the
// stored part of the configuration, without training.
func storedConfig(t *testing.T, args []string) runfolder.Config {
	t.Helper()
	cmd, tf := newTrainCommand()
	var cfg experiments.Config
	cmd.Action = func(c *cli.Context) error {
		var err error
		cfg, err = tf.config(c)
		return err
	}
	app := &cli.App{Name: "fp", Commands: []*cli.Command{cmd}, Writer: os.Stderr, ErrWriter: os.Stderr}
	if err := app.Run(append([]string{"fp", "train"}, args...)); err != nil {
		t.Fatalf("fp train %s: %v", strings.Join(args, " "), err)
	}
	return cfg.Config
}

// Every setting goes from its flag to config.json, from config.json back
// through --config, and from there to the command that reproduces the run,
// and comes out as it went in.
func TestEverySettingRoundTrips(t *testing.T) {
	defaults := experiments.DefaultConfig().Config
	for _, s := range runfolder.Settings {
		args, ok := settingValues[s.Flag]
		if !ok {
			t.Errorf("setting --%s has no value in settingValues", s.Flag)
			continue
		}
		t.Run(s.Flag, func(t *testing.T) {
			fromFlags := storedConfig(t, args)
			// --lockstep=false differs from the default, which leaves the
			// mode to the sweep, in what is not stored.
			if s.Flag != "lockstep" && reflect.DeepEqual(s.Value(&fromFlags), s.Value(&defaults)) {
				t.Fatalf("%s leaves --%s at its default %v", strings.Join(args, " "), s.Flag, s.Value(&defaults))
			}
			b, err := json.MarshalIndent(fromFlags, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), runfolder.ConfigFile)
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			fromFile := storedConfig(t, []string{"--config", path})
			if !reflect.DeepEqual(fromFile, fromFlags) {
				t.Errorf("--config %s gives %+v, want %+v", b, fromFile, fromFlags)
			}
			line := htmlreport.TrainCommand(fromFile, defaults, "runs/x")
			fromCommand := storedConfig(t, strings.Fields(line)[2:])
			if !reflect.DeepEqual(fromCommand, fromFlags) {
				t.Errorf("%s gives %+v, want %+v", line, fromCommand, fromFlags)
			}
		})
	}
}

// fp train --help lists its flags in categories, in lines of at most 100
// characters.
func TestTrainHelpCategories(t *testing.T) {
	cmd, _ := newTrainCommand()
	var w strings.Builder
	app := &cli.App{Name: "fp", Commands: []*cli.Command{cmd}, Writer: &w, ErrWriter: &w}
	if err := app.Run([]string{"fp", "train", "--help"}); err != nil {
		t.Fatal(err)
	}
	out := w.String()
	for _, cat := range []string{runfolder.CategoryData, runfolder.CategoryMethod, runfolder.CategoryTraining,
		runfolder.CategoryOutput, runfolder.CategoryAdversarial, runfolder.CategoryConditioned} {
		if !strings.Contains(out, "\n   "+cat+"\n") {
			t.Errorf("fp train --help has no category %q:\n%s", cat, out)
		}
	}
	for line := range strings.Lines(out) {
		if n := utf8.RuneCountInString(strings.TrimRight(line, "\n")); n > 100 {
			t.Errorf("a help line of %d characters: %s", n, line)
		}
	}
}

// Every committed run folder's config.json, read through --config, is the
// configuration of its digest, and so is the command that reproduces it.
func TestCommittedConfigsRoundTrip(t *testing.T) {
	var paths []string
	err := filepath.WalkDir(filepath.Join("..", "..", "results"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == runfolder.ConfigFile {
			paths = append(paths, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no config.json under results/")
	}
	defaults := experiments.DefaultConfig().Config
	for _, path := range paths {
		want, err := runfolder.ReadConfig(filepath.Dir(path))
		if err != nil {
			t.Fatal(err)
		}
		got := storedConfig(t, []string{"--config", path})
		if got.Digest() != want.Digest() {
			t.Errorf("--config %s gives digest %s, want %s: %s", path, got.Digest(), want.Digest(), strings.Join(want.Diff(got), "; "))
		}
		line := htmlreport.TrainCommand(want, defaults, "runs/x")
		cmd, tf := newTrainCommand()
		var cfg experiments.Config
		cmd.Action = func(c *cli.Context) error {
			var err error
			cfg, err = tf.config(c)
			return err
		}
		app := &cli.App{Name: "fp", Commands: []*cli.Command{cmd}}
		if err := app.Run(strings.Fields(line)); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		resolved, err := cfg.Resolved(1000)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if want.AdvBudget == experiments.AdvBudgetMatched {
			// The matched budget's steps follow from the training rows,
			// which this test does not read.
			resolved.AdvClfSteps = want.AdvClfSteps
		}
		if resolved.Digest() != want.Digest() {
			t.Errorf("%s: %s gives digest %s, want %s: %s", path, line, resolved.Digest(), want.Digest(), strings.Join(want.Diff(resolved.Config), "; "))
		}
	}
	t.Logf("%d run folders", len(paths))
}

// docs/settings.md describes every setting, under its flag and its key.
func TestSettingsDocumented(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "settings.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range runfolder.Settings {
		if row := "| `--" + s.Flag + "` | `" + s.Key + "` |"; !strings.Contains(string(b), row) {
			t.Errorf("docs/settings.md has no row %s", row)
		}
	}
}
