package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/runfolder"
)

// writeToyCSV writes n rows of a CSV with a numeric and a categorical
// feature, a yes/no target and a two-valued sensitive column.
func writeToyCSV(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("x,colour,outcome,group\n")
	colours := []string{"red", "green", "blue"}
	for i := range n {
		y := "no"
		if (i*7)%5 < 2 {
			y = "yes"
		}
		g := "north"
		if i%3 == 0 {
			g = "south"
		}
		fmt.Fprintf(&b, "%d.5,%s,%s,%s\n", i%17, colours[i%3], y, g)
	}
	path := filepath.Join(t.TempDir(), "toy.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A CSV run states its 0/1 coding on stdout and in config.json, and its
// network files carry the raw schema and the card.
func TestTrainStatesCodingAndWritesSelfSufficientNetworks(t *testing.T) {
	data := writeToyCSV(t, 200)
	out := filepath.Join(t.TempDir(), "run")
	stdout, _, err := runFP(t, "train", "--data", data, "--target", "outcome", "--sensitive", "group",
		"--splits", "1", "--lambdas", "0,0.5,1", "--epochs", "3", "--propensity-epochs", "3",
		"--engine", "backprop", "--out", out, "--quiet", "--no-plot")
	if err != nil {
		t.Fatal(err)
	}
	want := `coding: y = 1 means outcome = "yes"; a = 1 means group = "south"`
	if !strings.Contains(stdout, want) {
		t.Errorf("stdout lacks %q:\n%s", want, stdout)
	}
	cfg, err := runfolder.ReadConfig(out)
	if err != nil {
		t.Fatal(err)
	}
	if c := cfg.Coding; c == nil || c.TargetPositive != "yes" || c.SensitivePositive != "south" || c.Target != "outcome" {
		t.Errorf("config.json coding = %+v", cfg.Coding)
	}
	recs := readRecords(t, out)
	if len(recs) != 3 {
		t.Fatalf("%d records, want 3", len(recs))
	}
	for _, r := range recs {
		f, err := model.Load(filepath.Join(out, r.Weights))
		if err != nil {
			t.Fatal(err)
		}
		if f.Format != model.FileFormat || f.Schema == nil || f.Card == nil {
			t.Fatalf("%s: format %q, schema %v, card %v", r.Weights, f.Format, f.Schema != nil, f.Card != nil)
		}
		s := f.Schema
		if s.Dataset != "" || s.TargetPositive != "yes" || s.SensitivePositive != "south" || len(s.Columns) != 2 ||
			s.Columns[0].Kind != datasets.KindNumeric || s.Columns[1].Kind != datasets.KindCategorical ||
			strings.Join(s.Columns[1].Levels, " ") != "blue green red" {
			t.Errorf("%s: schema %+v", r.Weights, s)
		}
		c := f.Card
		if c.Lambda != r.Lambda || c.Split != r.Split || c.Test.Risk != r.Risk || c.Test.ATO != r.ATO ||
			c.Config != r.Config || c.Method != r.Method || c.Engine != "backprop" || c.Epochs != 3 || c.Version == "" {
			t.Errorf("%s: card %+v does not match record %+v", r.Weights, c, r)
		}
	}
}
