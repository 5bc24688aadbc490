package experiments_test

import (
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/records"
)

// The settings of the thresholds and reductions methods that cannot go
// together are refused in one line naming the setting, before anything is
// read.
func TestConstrainedSettingsRefused(t *testing.T) {
	for _, tc := range []struct {
		name, field, want string
		edit              func(*experiments.Config)
	}{
		{"unknown constraint", "constraint", "want dp or eo", func(c *experiments.Config) { c.Method, c.Constraint = experiments.MethodThresholds, "eopp" }},
		{"constraint of a penalty sweep", "constraint", "thresholds or reductions only", func(c *experiments.Config) { c.Constraint = "dp" }},
		{"base run of reductions", "base_run", "thresholds only", func(c *experiments.Config) { c.Method, c.BaseRun = experiments.MethodReductions, "runs/x" }},
		{"adaptive grid", "lambdas", "fixed grid", func(c *experiments.Config) { c.Method, c.Lambdas = experiments.MethodReductions, "adaptive:9" }},
		{"conditioned", "conditioned", "cannot be λ-conditioned", func(c *experiments.Config) { c.Method, c.Conditioned = experiments.MethodThresholds, true }},
		{"threshold", "threshold", "leave out --threshold", func(c *experiments.Config) { c.Method, c.Threshold = experiments.MethodThresholds, 0.4 }},
		{"lockstep", "lockstep", "cannot train in lockstep", func(c *experiments.Config) {
			c.Method, c.Engine, c.Lockstep = experiments.MethodReductions, "backprop", true
		}},
	} {
		c := experiments.DefaultConfig()
		tc.edit(&c)
		err := c.Validate()
		var fe *experiments.FieldError
		if err == nil || !errors.As(err, &fe) || fe.Field != tc.field || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line on %s mentioning %q", tc.name, err, tc.field, tc.want)
		}
	}
}

// A thresholds sweep on the λ = 0 networks of a sweep (--base-run) gives
// the records of one that trains them itself, since both train the λ = 0
// network of the same generator; a base run of another seed is refused in
// one line. Reductions records carry their family and multipliers and do
// not use the sensitive attribute.
func TestThresholdsOnABaseRun(t *testing.T) {
	dir := t.TempDir()
	base := experiments.DefaultConfig()
	base.Splits, base.Epochs, base.PropensityEpochs, base.Lambdas = 2, 15, 3, "0,1"
	base.Engine, base.Workers = "backprop", 1
	if err := runSweep(base, filepath.Join(dir, "cheb")); err != nil {
		t.Fatal(err)
	}
	thr := base
	thr.Method, thr.Constraint, thr.Lambdas = experiments.MethodThresholds, "eo", "0,0.5,0.9"
	if err := runSweep(thr, filepath.Join(dir, "own")); err != nil {
		t.Fatal(err)
	}
	thr.BaseRun = filepath.Join(dir, "cheb")
	if err := runSweep(thr, filepath.Join(dir, "on-base")); err != nil {
		t.Fatal(err)
	}
	own, onBase := readRecords(t, filepath.Join(dir, "own")), readRecords(t, filepath.Join(dir, "on-base"))
	if len(own) != 8 || len(onBase) != 8 {
		t.Fatalf("%d and %d records, want 8 each", len(own), len(onBase))
	}
	for i := range own {
		a, b := own[i], onBase[i]
		if a.Key() != b.Key() || !a.UsesSensitive || a.Family() != records.FamilyThresholds {
			t.Fatalf("%s / %s: uses_sensitive %v, family %s", a.Key(), b.Key(), a.UsesSensitive, a.Family())
		}
		for _, v := range [][2]float64{{a.Accuracy, b.Accuracy}, {a.EODiff, b.EODiff}, {a.Risk, b.Risk}, {a.DP, b.DP}} {
			if math.Abs(v[0]-v[1]) > 1e-12 {
				t.Errorf("%s: own base %v, base run's %v", a.Key(), v[0], v[1])
			}
		}
	}
	other := thr
	other.Seed = 2
	err := runSweep(other, filepath.Join(dir, "other-seed"))
	if err == nil || !strings.Contains(err.Error(), "seed") || strings.Contains(err.Error(), "\n") {
		t.Errorf("base run of another seed: %v, want one line naming the seed", err)
	}

	red := base
	red.Method, red.Constraint, red.Lambdas = experiments.MethodReductions, "dp", "linear:3"
	if err := runSweep(red, filepath.Join(dir, "red")); err != nil {
		t.Fatal(err)
	}
	for _, r := range readRecords(t, filepath.Join(dir, "red")) {
		if r.Family() != records.FamilyReductions || r.FamilyName == "" || r.UsesSensitive || len(r.Multipliers) != 1 || math.Abs(r.Multipliers[0]-2*(2*r.Lambda-1)) > 1e-12 {
			t.Errorf("%s: family %q, uses_sensitive %v, multipliers %v", r.Key(), r.FamilyName, r.UsesSensitive, r.Multipliers)
		}
	}
}
