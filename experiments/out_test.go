package experiments_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fpareto/fp/experiments"
)

func TestDefaultOut(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*experiments.Config)
		want string
	}{
		{"defaults", func(*experiments.Config) {}, "runs/compas-cheb-ato-penultimate"},
		{"csv", func(c *experiments.Config) { c.Dataset, c.CSV, c.Method = "", "data/loans.v2.csv", "linear" }, "runs/loans.v2-linear-ato-penultimate"},
		{"adversarial", func(c *experiments.Config) { c.Method, c.Penalty, c.AdvBetaScale = "adversarial", "", 200 }, "runs/compas-adversarial-beta200"},
		{"adversarial at scale 1", func(c *experiments.Config) { c.Method, c.Penalty, c.AdvBetaScale = "adversarial", "", 1 }, "runs/compas-adversarial"},
	} {
		c := experiments.DefaultConfig()
		tc.edit(&c)
		if got := experiments.DefaultOut(c); got != filepath.FromSlash(tc.want) {
			t.Errorf("%s: DefaultOut = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestDataFile(t *testing.T) {
	write := func(cfg string) string {
		dir := t.TempDir()
		if cfg != "" {
			if err := os.WriteFile(filepath.Join(dir, experiments.ConfigFile), []byte(cfg), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	for _, tc := range []struct{ name, cfg, want string }{
		{"csv", `{"csv": "data/loans.csv"}`, "data/loans.csv"},
		{"built-in", `{"dataset": "compas"}`, "compas-scores-two-years.csv"},
		{"no configuration", "", ""},
		{"unreadable configuration", `{"csv": `, ""},
	} {
		if got := experiments.DataFile(write(tc.cfg)); got != tc.want {
			t.Errorf("%s: DataFile = %q, want %q", tc.name, got, tc.want)
		}
	}
}
