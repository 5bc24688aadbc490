package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/runfolder"
	"github.com/fpareto/fp/runfolder/configfile"
)

// Every setting's flag and config.json key are keys of fp train's config
// file that set that flag.
func TestEveryConfigKeyIsReadOrRuled(t *testing.T) {
	var names [][]string
	for _, f := range trainCommand().Flags {
		names = append(names, f.Names())
	}
	keys := configfile.Keys(names)
	for _, s := range runfolder.Settings {
		if keys[s.Key] != s.Flag || keys[s.Flag] != s.Flag {
			t.Errorf("setting --%s: keys %q and %q set --%s and --%s", s.Flag, s.Key, s.Flag, keys[s.Key], keys[s.Flag])
		}
	}
	if keys["q"] != "quiet" || keys["config"] != "" {
		t.Errorf("q sets --%s, config --%s", keys["q"], keys["config"])
	}
}

// A config file's bad keys and values end fp train in one line that names
// the file, the line and the key, before anything is trained.
func TestTrainConfigFileRefusals(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"mistyped key", "splits: 1\nepoch: 10\n", []string{"a.yaml:2", `unknown key "epoch"`, "did you mean epochs?"}},
		{"mistyped config.json key", "propensity_epoch: 3\n", []string{`unknown key "propensity_epoch"`, "did you mean propensity_epochs?"}},
		{"far from any key", "colour: red\n", []string{`unknown key "colour"`, "flag's name"}},
		{"list", "lambdas: [0, 0.5, 1]\n", []string{`key "lambdas" holds a list`, `lambdas: "0,0.01,0.1,1"`}},
		{"table", "epochs:\n  a: 1\n", []string{`key "epochs" holds a table`}},
		{"no value", "epochs:\n", []string{`key "epochs" has no value`}},
		{"bad value", "epochs: ten\n", []string{"a.yaml:1", `"ten" is not a valid value of --epochs`}},
		{"one flag twice", "adv_epochs: 3\nadv-rounds: 4\n", []string{`"adv_epochs" and "adv-rounds" both set --adv-rounds`}},
		{"key twice", "epochs: 3\nepochs: 4\n", []string{`key "epochs" given twice`}},
		{"custom penalty", "penalty_version: v2\n", []string{"penalty_version", "library code"}},
		{"custom risk", "risk: focal\n", []string{"risk", "built-in risk"}},
		{"coding not a table", "coding: yes\n", []string{"coding: want a table"}},
		{"coding key", "coding:\n  target: y\n  target_positiv: 1\n", []string{`coding: unknown key "target_positiv"`, "did you mean target_positive?"}},
		{"coding incomplete", "coding:\n  target: y\n", []string{"coding: target_positive is missing"}},
		{"not a mapping", "- epochs\n", []string{"want one key: value per line"}},
		{"config in config", "config: other.yaml\n", []string{`unknown key "config"`}},
		{"too many aliases", "a: &a [x]\nb: [" + strings.Repeat("*a, ", 100) + "*a]\n", []string{"101 aliases, more than 100"}},
		{"too large", "# " + strings.Repeat("x", configfile.MaxBytes) + "\n", []string{"larger than 1048576 bytes"}},
		{"key twice, two spellings", "propensity_epochs: 3\npropensity-epochs: 4\n", []string{`"propensity_epochs" and "propensity-epochs" both set --propensity-epochs`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "a.yaml")
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "run")
			_, _, err := runFP(t, "train", "--config", path, "--out", out, "--quiet")
			if err == nil {
				t.Fatal("accepted")
			}
			oneLine(t, err.Error())
			for _, w := range append(tc.want, "--config "+path) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("a refused config file left %s", out)
			}
		})
	}
	// TOML tables and lists are refused alike.
	path := filepath.Join(t.TempDir(), "a.toml")
	os.WriteFile(path, []byte("lambdas = [0, 1]\n"), 0o644)
	if _, _, err := runFP(t, "train", "--config", path); err == nil || !strings.Contains(err.Error(), `key "lambdas" holds a list`) {
		t.Errorf("TOML list: err = %v", err)
	}
}

// A config file's data_id that is not the identity of the rows it names
// is refused before anything is written.
func TestTrainConfigDataIDChecked(t *testing.T) {
	data := writeToyCSV(t, 200)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.yaml")
	body := "data: " + data + "\ntarget: outcome\nsensitive: group\ndata_id: 0123456789abcdef\n"
	if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "run")
	_, _, err := runFP(t, "train", "--config", cfg, "--out", out, "--quiet", "--no-plot", "--epochs", "1")
	if err == nil || !strings.Contains(err.Error(), "data_id 0123456789abcdef is not the identity of these rows") {
		t.Fatalf("err = %v", err)
	}
	if _, serr := os.Stat(out); serr == nil {
		t.Fatal("the run folder was made")
	}
}

// A run's own config.json, given back as --config (as JSON, or converted to
// YAML), gives the same configuration: a second folder gets the same
// config.json, and the first folder resumes with nothing to train. The CSV
// run sets the two settings whose absence in config.json means something
// other than the flag's default (--val-fraction 0, --lockstep=false).
func TestTrainConfigFromRunConfigJSON(t *testing.T) {
	data := writeToyCSV(t, 200)
	for name, args := range map[string][]string{
		"compas": {"--splits", "1", "--lambdas", "0,1", "--epochs", "2", "--propensity-epochs", "2", "--engine", "backprop",
			"--seed", "5", "--arch", "2x3"},
		"csv": {"--data", data, "--target", "outcome", "--sensitive", "group", "--splits", "1", "--lambdas", "0,1",
			"--epochs", "2", "--propensity-epochs", "2", "--engine", "backprop", "--lockstep=false", "--val-fraction", "0",
			"--train-size", "120"},
		"csv-exclude": {"--data", data, "--target", "outcome", "--sensitive", "group", "--exclude", "colour", "--splits", "1", "--lambdas", "0,1",
			"--epochs", "2", "--propensity-epochs", "2", "--engine", "backprop", "--val-fraction", "0", "--train-size", "120"},
		"adversarial": {"--method", "adversarial", "--splits", "1", "--lambdas", "0,1", "--adv-rounds", "2",
			"--adv-pretrain-clf", "0", "--adv-pretrain-adv", "1", "--beta-scale", "30", "--propensity-epochs", "2"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			first := filepath.Join(dir, "first")
			if _, _, err := runFP(t, append([]string{"train", "--out", first, "--quiet", "--no-plot"}, args...)...); err != nil {
				t.Fatal(err)
			}
			orig, err := os.ReadFile(filepath.Join(first, runfolder.ConfigFile))
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(orig, &m); err != nil {
				t.Fatal(err)
			}
			y, err := yaml.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			yamlPath := filepath.Join(dir, "config.yaml")
			if err := os.WriteFile(yamlPath, y, 0o644); err != nil {
				t.Fatal(err)
			}
			for i, cfgFile := range []string{filepath.Join(first, runfolder.ConfigFile), yamlPath} {
				again := filepath.Join(dir, "again-"+filepath.Ext(cfgFile)[1:])
				if _, _, err := runFP(t, "train", "--config", cfgFile, "--out", again, "--quiet", "--no-plot"); err != nil {
					t.Fatalf("--config %s: %v", cfgFile, err)
				}
				got, err := os.ReadFile(filepath.Join(again, runfolder.ConfigFile))
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != string(orig) {
					t.Errorf("config %d: config.json\n%s\nwant\n%s", i, got, orig)
				}
			}
			stdout, _, err := runFP(t, "train", "--config", filepath.Join(first, runfolder.ConfigFile), "--out", first, "--no-plot", "--json")
			if err != nil {
				t.Fatalf("resume from its own config.json: %v", err)
			}
			var res experiments.Outcome
			if err := json.Unmarshal([]byte(stdout), &res); err != nil || res.Trained != 0 || res.Resumed != 2 {
				t.Errorf("resume from its own config.json: %+v, %v", res, err)
			}
		})
	}
}

// A coding that is not what the data codes means the file describes other
// data: it is refused before anything is written.
func TestTrainConfigCodingMustMatchTheData(t *testing.T) {
	dir := t.TempDir()
	good := "coding:\n  target: two_year_recid\n  target_positive: \"1\"\n  sensitive: race\n  sensitive_positive: African-American\n" +
		"splits: 1\nlambdas: \"0,1\"\nepochs: 1\npropensity-epochs: 1\n"
	path := filepath.Join(dir, "good.yaml")
	os.WriteFile(path, []byte(good), 0o644)
	if _, _, err := runFP(t, "train", "--config", path, "--out", filepath.Join(dir, "ok"), "--quiet", "--no-plot"); err != nil {
		t.Fatalf("consistent coding refused: %v", err)
	}
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte(strings.Replace(good, "African-American", "Caucasian", 1)), 0o644)
	out := filepath.Join(dir, "bad")
	_, _, err := runFP(t, "train", "--config", bad, "--out", out, "--quiet", "--no-plot")
	if err == nil || !strings.Contains(err.Error(), `race = "Caucasian"`) || !strings.Contains(err.Error(), `race = "African-American"`) {
		t.Fatalf("inconsistent coding: err = %v", err)
	}
	oneLine(t, err.Error())
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a refused coding left %s", out)
	}
}
