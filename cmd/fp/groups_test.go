package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/runfolder"
)

// What cannot train more than two groups (the adversarial baseline,
// λ-conditioned networks) and bad group settings are refused by fp train in
// one line before any folder is written.
func TestTrainRefusesMoreThanTwoGroups(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--dataset", "compas-race4", "--method", "adversarial"},
			"the adversarial baseline trains against a two-group adversary, not 4 sensitive groups (African-American, Caucasian, Hispanic, other); use the method cheb or linear"},
		{[]string{"--dataset", "compas", "--sensitive-levels", "all", "--min-group-rows", "5", "--conditioned", "--engine", "backprop"},
			"--conditioned trains two groups, not 6 sensitive groups"},
		{[]string{"--dataset", "compas", "--sensitive-levels", "Martian"}, `"Martian" is not a value of the column race`},
		{[]string{"--dataset", "compas", "--min-group-rows", "10"}, "--min-group-rows applies to groups"},
	} {
		out := filepath.Join(t.TempDir(), "run")
		args := append([]string{"train", "--out", out, "--quiet", "--no-plot"}, tc.args...)
		_, _, err := runFP(t, args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err = %v, want %q", tc.args, err, tc.want)
			continue
		}
		oneLine(t, err.Error())
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: the run folder was created", tc.args)
		}
	}
}

// Two groups from --sensitive-levels train as the binary a they code; the
// configuration records the levels (a config file may give them as a
// list), and the identity differs from that of the column without groups.
func TestTrainTwoGroupsFromLevels(t *testing.T) {
	dir := t.TempDir()
	cfgFile := filepath.Join(dir, "c.yaml")
	if err := os.WriteFile(cfgFile, []byte("dataset: compas\nsensitive-levels: [Caucasian]\nmin-group-rows: 40\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "run")
	_, stderr, err := runFP(t, "train", "--config", cfgFile, "--out", out, "--quiet", "--no-plot",
		"--epochs", "1", "--splits", "1", "--lambdas", "0,1", "--propensity-epochs", "1")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	c, err := runfolder.ReadConfig(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.SensitiveLevels) != 1 || c.SensitiveLevels[0] != "Caucasian" || c.MinGroupRows != 40 ||
		c.Coding.SensitivePositive != "Caucasian" || c.DataID == "b7a671cdf5106e4e" {
		b, _ := json.Marshal(c)
		t.Errorf("config %s", b)
	}
}

// fp datasets shows each group of the datasets with groups; fp datasets
// export writes a row's group in the sensitive column, with a note for
// each value merged.
func TestDatasetsGroups(t *testing.T) {
	stdout, _, err := runFP(t, "datasets")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "compas-race4 groups: African-American 3175 (P(y=1) 0.5231), Caucasian 2103") ||
		!strings.Contains(stdout, "adult-race5 (full) groups: Amer-Indian-Eskimo 435") {
		t.Errorf("fp datasets:\n%s", stdout)
	}
	out := filepath.Join(t.TempDir(), "c.csv")
	_, stderr, err := runFP(t, "datasets", "export", "compas", "--sensitive-levels", "all", "--out", out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, `note: group "Native American" has 11 rows, fewer than 30 (--min-group-rows): it joins the group "other"`) ||
		!strings.Contains(stderr, `race: the groups "African-American", "Asian", "Caucasian", "Hispanic", "other"`) {
		t.Errorf("stderr: %s", stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(string(b), "\n"); !strings.HasSuffix(lines[0], ",race") || !strings.HasSuffix(lines[1], ",other") {
		t.Errorf("file starts %q", lines[:2])
	}
}
