package experiments

import (
	"errors"
	"strings"
	"testing"
)

// withMemory makes memoryLimit report b bytes for the test.
func withMemory(t *testing.T, b uint64) {
	old := memoryLimit
	memoryLimit = func() (float64, string) { return float64(b), "the test's limit" }
	t.Cleanup(func() { memoryLimit = old })
}

// Oversized networks and grids are refused in one line naming the flag,
// before any data is read (Validate reads none) and before a grid is
// built.
func TestValidateBounds(t *testing.T) {
	withMemory(t, 16<<30)
	for _, tc := range []struct {
		name  string
		set   func(*Config)
		field string
		want  string
	}{
		{"huge network", func(c *Config) { c.Arch = "100000x100000" }, "arch", "at most 1e+08"},
		{"wide shallow network", func(c *Config) { c.Arch = "3x20000" }, "arch", "4e+08 parameters"},
		{"more λ than allowed", func(c *Config) { c.Lambdas = "log:1001" }, "lambdas", "1001 values, want at most 1000"},
		{"a grid too large to build", func(c *Config) { c.Lambdas = "linear:999999999999" }, "lambdas", "at most 1000"},
		{"adaptive grid", func(c *Config) { c.Lambdas = "adaptive:5000" }, "lambdas", "at most 1000"},
		{"a list", func(c *Config) { c.Lambdas = "0" + strings.Repeat(",0.5", 1000) }, "lambdas", "1001 values"},
		{"memory, one network after another", func(c *Config) {
			c.Arch, c.Workers, c.Lockstep, c.Splits = "3x3000", 8, false, 10 // 9e6 parameters, 2.1 GiB each
		}, "arch", "(8 networks at once"},
		{"memory, lockstep", func(c *Config) {
			c.Arch, c.Workers, c.Lockstep, c.Splits, c.Engine = "3x6000", 1, true, 1, "backprop" // 13 networks of 1.6 GiB
		}, "arch", "--lockstep=false"},
	} {
		c := DefaultConfig()
		c.Dataset = "compas"
		tc.set(&c)
		err := c.Validate()
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: err = %v, want one line on %s saying %q", tc.name, err, tc.field, tc.want)
		}
	}
}

// What fits passes: the grid at its bound, and the same networks on fewer
// workers, or one after another instead of in lockstep.
func TestValidateBoundsAllow(t *testing.T) {
	withMemory(t, 16<<30)
	for _, set := range []func(*Config){
		func(c *Config) { c.Lambdas = "log:1000" },
		func(c *Config) { c.Arch, c.Workers, c.Lockstep, c.Splits = "3x3000", 4, false, 10 },
		func(c *Config) { c.Arch, c.Workers, c.Lockstep, c.Splits, c.Lambdas = "3x3000", 8, false, 2, "0,1" }, // 4 networks in all
		func(c *Config) { c.Arch, c.Workers, c.Lockstep, c.Splits, c.Engine = "3x6000", 1, false, 1, "backprop" },
		func(c *Config) { c.Arch = "10x32" },
	} {
		c := DefaultConfig()
		c.Dataset = "compas"
		set(&c)
		if err := c.Validate(); err != nil {
			t.Errorf("arch %s, λ %s, %d workers, lockstep %v: %v", c.Arch, c.Lambdas, c.Workers, c.Lockstep, err)
		}
	}
}

// Whether a sweep trains in lockstep does not depend on the memory free
// when it starts: too large a sweep is refused in lockstep, not moved off.
func TestLockstepPossibleIgnoresMemory(t *testing.T) {
	c := DefaultConfig()
	c.Dataset, c.Engine, c.Arch, c.Workers, c.Splits = "compas", "backprop", "3x6000", 1, 1
	withMemory(t, 1<<20)
	if !c.LockstepPossible() {
		t.Error("lockstep judged impossible for want of memory")
	}
}

func TestGridSize(t *testing.T) {
	for _, tc := range []struct {
		s  string
		n  int
		ok bool
	}{
		{"log:15", 15, true}, {" linear:7", 7, true}, {"adaptive:30", 30, true},
		{"0,0.5,1", 3, true}, {"0.3", 1, true}, {"", 0, false}, {"log:x", 0, false},
	} {
		if n, ok := gridSize(tc.s); n != tc.n || ok != tc.ok {
			t.Errorf("gridSize(%q) = %d, %v; want %d, %v", tc.s, n, ok, tc.n, tc.ok)
		}
	}
}
