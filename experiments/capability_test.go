package experiments_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/losses"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/train"
	G "gorgonia.org/gorgonia"
)

// An unsupported engine is refused by NewRunner before anything is read or
// written: no run folder (so no propensity model and no standardization
// run), and with a CSV that does not exist the capability error is the one
// reported.
func TestUnsupportedEngineRefusedBeforeAnything(t *testing.T) {
	gap := penalties.NewPenalty("mean-gap", "1", []train.Input{penalties.Group1Mean, penalties.Group0Mean},
		func(n penalties.Net, b penalties.BatchNodes) (*G.Node, error) { return G.Sum(n.Logit) })
	focal := losses.NewRisk("focal", "1", func(z, y, sw *G.Node) (*G.Node, error) { return G.Sum(z) })
	cases := []struct {
		name string
		edit func(*experiments.Config)
		want string
	}{
		{"custom penalty", func(c *experiments.Config) { c.CustomPenalty = gap }, `penalty "mean-gap"`},
		{"custom risk", func(c *experiments.Config) { c.CustomRisk = focal }, `risk "focal"`},
		{"adversarial", func(c *experiments.Config) { c.Method = experiments.MethodAdversarial }, "adversarial baseline"},
	}
	for _, tc := range cases {
		for _, missingCSV := range []bool{false, true} {
			name := tc.name
			if missingCSV {
				name += ", missing CSV"
			}
			t.Run(name, func(t *testing.T) {
				c := smallConfig() // the backprop engine
				tc.edit(&c)
				dir := t.TempDir()
				if missingCSV {
					c.Dataset, c.CSV = "", filepath.Join(dir, "no-such-file.csv")
				}
				out := filepath.Join(dir, "run")
				r, err := experiments.NewRunner(c, out, nil)
				if err == nil {
					r.Close()
					t.Fatal("accepted")
				}
				var fe *experiments.FieldError
				if !errors.Is(err, train.ErrUnsupported) || !errors.As(err, &fe) || fe.Field != "engine" {
					t.Fatalf("err = %v, want an unsupported-engine error on the engine field", err)
				}
				if msg := err.Error(); !strings.Contains(msg, tc.want) || !strings.Contains(msg, "graph engine") || strings.Contains(msg, "\n") {
					t.Errorf("err = %q, want one line naming %s and the graph engine", msg, tc.want)
				}
				if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("the run folder was created (%v)", err)
				}
			})
		}
	}
}

// The same terms are accepted by the graph engine, and Validate needs no
// data: a CSV that does not exist passes it.
func TestValidateNeedsNoData(t *testing.T) {
	c := smallConfig()
	c.Engine = "graph"
	c.CustomPenalty = penalties.NewPenalty("mean-gap", "1", nil,
		func(n penalties.Net, b penalties.BatchNodes) (*G.Node, error) { return G.Sum(n.Logit) })
	c.CustomRisk = losses.NewRisk("focal", "1", func(z, y, sw *G.Node) (*G.Node, error) { return G.Sum(z) })
	c.Dataset, c.CSV = "", filepath.Join(t.TempDir(), "later.csv")
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	c.Method = experiments.MethodAdversarial
	c.CustomRisk = nil
	if err := c.Validate(); err != nil {
		t.Fatalf("adversarial on the graph engine: %v", err)
	}
}

// A custom penalty's version, and a custom risk, enter the digest.
func TestDigestFollowsCustomTermVersions(t *testing.T) {
	digest := func(version string, risk bool) string {
		c := experiments.DefaultConfig()
		c.CustomPenalty = penalties.NewPenalty("mean-gap", version, nil,
			func(n penalties.Net, b penalties.BatchNodes) (*G.Node, error) { return G.Sum(n.Logit) })
		if risk {
			c.CustomRisk = losses.NewRisk("focal", "1", func(z, y, sw *G.Node) (*G.Node, error) { return G.Sum(z) })
		}
		r, err := c.Resolved(1000)
		if err != nil {
			t.Fatal(err)
		}
		return r.Digest()
	}
	v1, v2, withRisk := digest("1", false), digest("2", false), digest("1", true)
	if v1 == v2 || v1 == withRisk {
		t.Errorf("digests: version 1 %s, version 2 %s, with a custom risk %s: want all different", v1, v2, withRisk)
	}
	if v1 != digest("1", false) {
		t.Error("the digest is not a function of the config")
	}
}
