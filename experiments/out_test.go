package experiments_test

import (
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
