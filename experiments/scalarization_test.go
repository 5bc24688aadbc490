package experiments_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/graph/scalarizations"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/train"
	G "gorgonia.org/gorgonia"
)

// squares is (1−λ)R̃² + λŨ², a scalarization of one's own.
func squares(version string) scalarizations.Scalarization {
	return scalarizations.New("squares", version,
		func(rt, ut, lambda *G.Node) (*G.Node, error) {
			w := G.Must(G.Sub(G.NewConstant(1.0), lambda))
			return G.Add(G.Must(G.Mul(w, G.Must(G.Square(rt)))), G.Must(G.Mul(lambda, G.Must(G.Square(ut)))))
		},
		func(rt, ut, l float64) (float64, float64, float64) {
			return (1-l)*rt*rt + l*ut*ut, 2 * (1 - l) * rt, 2 * l * ut
		})
}

// ρ belongs to cheb-aug alone, which needs one > 0; a custom scalarization
// is the method of its own name. Each is refused in one line naming the field.
func TestScalarizationSettingsRefused(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(*experiments.Config)
		field string
		want  string
	}{
		{"rho with cheb", func(c *experiments.Config) { c.Rho = 0.01 }, "rho", `applies to the method cheb-aug only, not "cheb"`},
		{"rho with linear", func(c *experiments.Config) { c.Method, c.Rho = experiments.MethodLinear, 0.5 }, "rho", `not "linear"`},
		{"rho with adversarial", func(c *experiments.Config) { c.Method, c.Rho = experiments.MethodAdversarial, 0.5 }, "rho", `not "adversarial"`},
		{"cheb-aug without rho", func(c *experiments.Config) { c.Method = experiments.MethodChebAug }, "rho", "ρ = 0, want a finite value > 0"},
		{"cheb-aug negative rho", func(c *experiments.Config) { c.Method, c.Rho = experiments.MethodChebAug, -1 }, "rho", "ρ = -1"},
		{"custom under another name", func(c *experiments.Config) { c.Engine, c.CustomScalarization = "graph", squares("1") }, "method",
			`"cheb": with a custom scalarization the method is its name, "squares"`},
		{"custom named like a built-in", func(c *experiments.Config) {
			c.Engine, c.CustomScalarization = "graph", scalarizations.New("linear", "1", nil, nil)
			c.Method = "linear"
		}, "method", `needs a name of its own, not "linear"`},
		{"unknown method", func(c *experiments.Config) { c.Method = "squares" }, "method", "want cheb, linear, cheb-aug, adversarial, thresholds or reductions"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := smallConfig()
			tc.edit(&c)
			err := c.Validate()
			var fe *experiments.FieldError
			if !errors.As(err, &fe) || fe.Field != tc.field || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("err = %v, want one line on %s mentioning %q", err, tc.field, tc.want)
			}
		})
	}
}

// The handwritten engine refuses a custom scalarization through its
// capability check, before the run folder exists or the data is read.
func TestCustomScalarizationRefusedByBackprop(t *testing.T) {
	c := smallConfig() // the backprop engine
	c.CustomScalarization, c.Method = squares("1"), "squares"
	dir := t.TempDir()
	c.Dataset, c.CSV = "", filepath.Join(dir, "no-such-file.csv")
	out := filepath.Join(dir, "run")
	r, err := experiments.NewRunner(c, out, nil)
	if err == nil {
		r.Close()
		t.Fatal("accepted")
	}
	var fe *experiments.FieldError
	if !errors.Is(err, train.ErrUnsupported) || !errors.As(err, &fe) || fe.Field != "engine" ||
		!strings.Contains(err.Error(), `scalarization "squares"`) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("err = %v, want one line refusing the scalarization on the engine field", err)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the run folder was created (%v)", err)
	}
	c.Engine = "graph"
	if err := c.Validate(); err != nil {
		t.Errorf("the graph engine: %v", err)
	}
	if c.Lockstep = true; c.Validate() == nil {
		t.Error("lockstep with the graph engine accepted")
	}
}

// ρ and a custom scalarization's version enter the digest; cheb and linear
// keep the digests of folders written before scalarizations had settings.
func TestDigestFollowsScalarization(t *testing.T) {
	digest := func(edit func(*experiments.Config)) string {
		c := experiments.DefaultConfig()
		edit(&c)
		r, err := c.Resolved(1000)
		if err != nil {
			t.Fatal(err)
		}
		return r.Digest()
	}
	aug1 := digest(func(c *experiments.Config) { c.Method, c.Rho = experiments.MethodChebAug, 0.01 })
	aug2 := digest(func(c *experiments.Config) { c.Method, c.Rho = experiments.MethodChebAug, 0.1 })
	cheb := digest(func(*experiments.Config) {})
	sq1 := digest(func(c *experiments.Config) { c.CustomScalarization, c.Method = squares("1"), "squares" })
	sq2 := digest(func(c *experiments.Config) { c.CustomScalarization, c.Method = squares("2"), "squares" })
	if aug1 == aug2 || aug1 == cheb || sq1 == sq2 || sq1 == cheb {
		t.Errorf("digests: cheb-aug ρ 0.01 %s, ρ 0.1 %s, cheb %s, squares v1 %s, v2 %s: want all different", aug1, aug2, cheb, sq1, sq2)
	}
	// A cheb configuration stores neither key, so its digest is that of
	// folders written before they existed (TestDigestsOfCommittedRunsAreReproduced
	// checks those folders).
	c, err := experiments.DefaultConfig().Resolved(1000)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(c.Config)
	if strings.Contains(string(b), "rho") || strings.Contains(string(b), "scalarization") {
		t.Errorf("a cheb configuration stores ρ or a scalarization version: %s", b)
	}
}

// A cheb-aug sweep trains in lockstep on the backprop engine, and its
// records carry ρ; a cheb sweep's records do not.
func TestChebAugSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("trains networks")
	}
	c := smallConfig()
	c.Splits, c.Lambdas = 1, "0.5"
	c.Method, c.Rho, c.Lockstep = experiments.MethodChebAug, 0.05, true
	out := t.TempDir()
	r, err := experiments.NewRunner(c, out, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	recs, err := records.Read(filepath.Join(out, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var mid int
	for _, rec := range recs {
		if rec.Method != "cheb-aug" || rec.Rho != 0.05 {
			t.Errorf("record λ=%g: method %q, ρ %g", rec.Lambda, rec.Method, rec.Rho)
		}
		if rec.Lambda == 0.5 {
			mid++
			if rec.EngineMode != "lockstep" {
				t.Errorf("λ = 0.5 trained in mode %q, want lockstep", rec.EngineMode)
			}
		}
	}
	if mid != 1 || len(recs) != 3 {
		t.Errorf("%d records, %d at λ = 0.5", len(recs), mid)
	}
	if got := experiments.DefaultOut(r.Config()); got != filepath.Join("runs", "compas-cheb-aug-ato-penultimate-rho0.05") {
		t.Errorf("default folder %q", got)
	}
}
