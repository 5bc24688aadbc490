package experiments_test

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

func smallConfig() experiments.Config {
	c := experiments.DefaultConfig()
	c.Splits, c.Lambdas, c.Epochs, c.PropensityEpochs, c.Engine = 2, "log:4", 3, 5, "backprop"
	return c
}

func TestConfigRefusesBadSettings(t *testing.T) {
	cases := []struct {
		name string
		edit func(*experiments.Config)
		want string
	}{
		{"no data", func(c *experiments.Config) { c.Dataset = "" }, "dataset or a CSV"},
		{"both data", func(c *experiments.Config) { c.CSV = "x.csv" }, "not both"},
		{"method", func(c *experiments.Config) { c.Method = "pareto" }, "method"},
		{"penalty", func(c *experiments.Config) { c.Penalty = "dp" }, "penalty"},
		{"grid", func(c *experiments.Config) { c.Lambdas = "log:2" }, "log:N"},
		{"splits", func(c *experiments.Config) { c.Splits = 0 }, "splits"},
		{"epochs", func(c *experiments.Config) { c.Epochs = 0 }, "epochs"},
		{"dropout", func(c *experiments.Config) { c.Dropout = 1 }, "dropout"},
		{"arch", func(c *experiments.Config) { c.Arch = "4by4" }, "LxH"},
		{"engine", func(c *experiments.Config) { c.Engine = "torch" }, "engine"},
		{"shard", func(c *experiments.Config) { c.Shard = experiments.Shard{Index: 3, Count: 2} }, "shard"},
		{"validation share", func(c *experiments.Config) { c.ValFraction = 0.9 }, "val_fraction"},
		{"adversarial validation", func(c *experiments.Config) { c.Method, c.ValFraction = "adversarial", 0.2 }, "held-out"},
		{"adversarial engine", func(c *experiments.Config) { c.Method, c.Engine = "adversarial", "backprop" }, "graph engine"},
		{"adversarial version", func(c *experiments.Config) { c.Method, c.Engine, c.AdvVersion = "adversarial", "graph", 3 }, "schedule version 3"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := experiments.DefaultConfig()
			tc.edit(&c)
			_, err := c.Resolved(100)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one mentioning %q", err, tc.want)
			}
			var fe *experiments.FieldError
			if !errors.As(err, &fe) || fe.Field == "" {
				t.Errorf("err = %v is not a *FieldError naming a config field", err)
			}
		})
	}
}

func TestConfigDefaultsPerDataset(t *testing.T) {
	for _, tc := range []struct {
		dataset, arch string
		batch         int
	}{
		{"compas", "4x4", 150}, {"adult-sex", "10x32", 1000}, {"adult-race", "10x32", 1000},
	} {
		c := experiments.DefaultConfig()
		c.Dataset = tc.dataset
		r, err := c.Resolved(15470)
		if err != nil || r.Arch != tc.arch || r.Batch != tc.batch {
			t.Errorf("%s: %v %s %d, want %s %d", tc.dataset, err, r.Arch, r.Batch, tc.arch, tc.batch)
		}
	}
	c := experiments.DefaultConfig()
	c.Dataset, c.CSV = "", "data.csv"
	r, err := c.Resolved(2000)
	if err != nil || r.Arch != "4x16" || r.Batch != 80 || r.ValFraction != experiments.DefaultValFraction {
		t.Errorf("CSV defaults: %v %s %d %g, want 4x16, 5%% of the 1600 rows trained on and a validation share of %g",
			err, r.Arch, r.Batch, r.ValFraction, experiments.DefaultValFraction)
	}
	c.ValFraction = 0
	if r, err := c.Resolved(2000); err != nil || r.Batch != 100 || r.ValFraction != 0 {
		t.Errorf("CSV without a validation part: %v batch %d, val %g; want 5%% of 2000 rows and none", err, r.Batch, r.ValFraction)
	}
	// The built-in datasets keep the paper's protocol: no validation part,
	// and a digest unchanged by the setting's existence.
	b := experiments.DefaultConfig()
	rb, err := b.Resolved(3086)
	if err != nil || rb.ValFraction != 0 {
		t.Errorf("compas: %v, validation share %g, want 0", err, rb.ValFraction)
	}
}

func TestDigestIgnoresWhatDoesNotChangeResults(t *testing.T) {
	a := experiments.DefaultConfig()
	b := a
	b.Workers, b.DataDir, b.Shard = 7, "/data", experiments.Shard{Index: 1, Count: 3}
	if a.Digest() != b.Digest() {
		t.Error("workers, data folder or shard changed the digest")
	}
	b.Epochs++
	if a.Digest() == b.Digest() {
		t.Error("epochs did not change the digest")
	}
	if d := a.Diff(b); len(d) != 1 || !strings.HasPrefix(d[0], "epochs:") {
		t.Errorf("diff = %v, want the epochs", d)
	}
}

// The adversarial schedule's version is part of an adversarial sweep's
// digest and of no other.
func TestDigestHasTheAdversarialVersion(t *testing.T) {
	resolved := func(method string, version int) experiments.Config {
		c := experiments.DefaultConfig()
		c.Method, c.Engine, c.AdvVersion = method, "graph", version
		r, err := c.Resolved(100)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if a, b := resolved("adversarial", 1), resolved("adversarial", 2); a.Digest() == b.Digest() {
		t.Error("both adversarial schedules have one digest")
	}
	if d := experiments.DefaultConfig().AdvVersion; d != 2 {
		t.Errorf("default adversarial schedule %d, want 2", d)
	}
	if a, b := resolved("cheb", 1), resolved("cheb", 2); a.Digest() != b.Digest() || a.AdvVersion != 0 {
		t.Errorf("the adversarial schedule enters a Chebyshev sweep's config (adv_version %d)", a.AdvVersion)
	}
}

// The classifier's budget of the adversarial baseline: the matched budget
// gives K = ⌈(E·B − P·B)/rounds⌉ (COMPAS: 53), K = 1 stays outside the
// config and its digest, and contradictions are refused naming the setting.
func TestAdversarialClassifierBudget(t *testing.T) {
	paper := experiments.DefaultConfig()
	paper.Method, paper.Engine = "adversarial", "graph"
	base, err := paper.Resolved(3086)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name       string
		set        func(c *experiments.Config)
		n          int
		steps      int    // resolved AdvClfSteps
		total      int    // AdvClfStepsTotal(n)
		sameDigest bool   // as the paper's
		wantErr    string // "" for none
		errField   string
	}{
		{name: "paper", set: func(c *experiments.Config) {}, n: 3086, steps: 0, total: 2*21 + 200, sameDigest: true},
		{name: "paper by name", set: func(c *experiments.Config) { c.AdvBudget = "paper" }, n: 3086, steps: 0, total: 242, sameDigest: true},
		{name: "K = 1 given", set: func(c *experiments.Config) { c.AdvClfSteps = 1 }, n: 3086, steps: 0, total: 242, sameDigest: true},
		{name: "K = 5", set: func(c *experiments.Config) { c.AdvClfSteps = 5 }, n: 3086, steps: 5, total: 42 + 1000},
		{name: "matched COMPAS", set: func(c *experiments.Config) { c.AdvBudget = "matched" }, n: 3086, steps: 53, total: 42 + 200*53},
		{name: "matched with its own K", set: func(c *experiments.Config) { c.AdvBudget, c.AdvClfSteps = "matched", 53 }, n: 3086, steps: 53, total: 10642},
		{name: "matched Adult", set: func(c *experiments.Config) { c.AdvBudget, c.Batch = "matched", 1000 }, n: 15470, steps: 40, total: 2*16 + 200*40},
		{name: "matched, 10 rounds", set: func(c *experiments.Config) { c.AdvBudget, c.AdvEpochs, c.Epochs = "matched", 10, 20 }, n: 3086, steps: 38, total: 42 + 380},
		{name: "matched contradicted", set: func(c *experiments.Config) { c.AdvBudget, c.AdvClfSteps = "matched", 40 }, n: 3086,
			wantErr: "40 contradicts --adv-budget matched, which gives 53", errField: "adv_clf_steps"},
		{name: "unknown budget", set: func(c *experiments.Config) { c.AdvBudget = "long" }, n: 3086, wantErr: `"long": want paper`, errField: "adv_budget"},
		{name: "negative K", set: func(c *experiments.Config) { c.AdvClfSteps = -1 }, n: 3086, wantErr: "want ≥ 1", errField: "adv_clf_steps"},
		{name: "pre-training reaches the epochs", set: func(c *experiments.Config) { c.AdvBudget, c.Epochs = "matched", 2 }, n: 3086,
			wantErr: "2 pre-training epochs already reach the 2 epochs", errField: "adv_budget"},
		{name: "earlier schedule", set: func(c *experiments.Config) { c.AdvVersion, c.AdvClfSteps = 1, 3 }, n: 3086,
			wantErr: "needs --adv-version 2", errField: "adv_clf_steps"},
		{name: "earlier schedule, matched", set: func(c *experiments.Config) { c.AdvVersion, c.AdvBudget = 1, "matched" }, n: 3086,
			wantErr: "needs --adv-version 2", errField: "adv_clf_steps"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := paper
			tc.set(&c)
			r, err := c.Resolved(tc.n)
			if tc.wantErr != "" {
				var fe *experiments.FieldError
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !errors.As(err, &fe) || fe.Field != tc.errField {
					t.Fatalf("err = %v, want %s: …%s…", err, tc.errField, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.AdvClfSteps != tc.steps || r.AdvClfStepsTotal(tc.n) != tc.total {
				t.Errorf("K = %d, total %d; want %d, %d", r.AdvClfSteps, r.AdvClfStepsTotal(tc.n), tc.steps, tc.total)
			}
			if (r.Digest() == base.Digest()) != tc.sameDigest {
				t.Errorf("digest %s, the paper's %s: same = %v, want %v", r.Digest(), base.Digest(), !tc.sameDigest, tc.sameDigest)
			}
			// A resolved configuration resolves to itself (a resumed run).
			again, err := r.Resolved(tc.n)
			if err != nil || again.Digest() != r.Digest() {
				t.Errorf("resolved again: %v, digest %s, want %s", err, again.Digest(), r.Digest())
			}
		})
	}
	// The budget is no setting of the other methods.
	c := experiments.DefaultConfig()
	c.AdvBudget, c.AdvClfSteps = "matched", 7
	r, err := c.Resolved(3086)
	if err != nil || r.AdvBudget != "" || r.AdvClfSteps != 0 {
		t.Errorf("Chebyshev sweep: %v, adv_budget %q, adv_clf_steps %d; want neither", err, r.AdvBudget, r.AdvClfSteps)
	}
}

func TestShardOwnsSplits(t *testing.T) {
	s := experiments.Shard{Index: 1, Count: 3}
	var owned []int
	for m := 0; m < 8; m++ {
		if s.Owns(m) {
			owned = append(owned, m)
		}
	}
	if len(owned) != 3 || owned[0] != 1 || owned[1] != 4 || owned[2] != 7 {
		t.Errorf("shard 1/3 owns %v, want [1 4 7]", owned)
	}
	if !(experiments.Shard{}).Owns(5) {
		t.Error("no sharding must own every split")
	}
}

func TestRunnerRecordsAndPredictions(t *testing.T) {
	dir := t.TempDir()
	r, err := experiments.NewRunner(smallConfig(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := r.Run(context.Background())
	r.Close()
	if err != nil {
		t.Fatal(err)
	}
	if sum.Total != 8 || sum.Trained != 8 || sum.Failed != 0 {
		t.Fatalf("summary %+v, want 8 candidates trained", sum)
	}
	recs, err := records.Read(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range recs {
		rec := &recs[i]
		// The stored network reproduces the recorded test metrics.
		p, err := runfolder.LoadPredictions(dir, rec)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.P) != rec.NTest {
			t.Fatalf("%d predictions, want %d", len(p.P), rec.NTest)
		}
		g, err := fairness.BinaryGroups(p.A)
		if err != nil {
			t.Fatal(err)
		}
		m, err := fairness.Evaluate(p.P, p.Y, g, nil)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(m.Risk-rec.Risk) > 1e-9 || m.Accuracy != rec.Accuracy || math.Abs(m.DP-rec.DP) > 1e-12 || math.Abs(m.EO-rec.EO) > 1e-12 {
			t.Errorf("%s: recomputed %+v, recorded risk %g acc %g dp %g eo %g", rec.Key(), m, rec.Risk, rec.Accuracy, rec.DP, rec.EO)
		}
		if rec.Engine != "backprop" || rec.Config == "" || rec.Lambdas != smallConfig().Lambdas {
			t.Errorf("%s: engine %q config %q lambdas %q", rec.Key(), rec.Engine, rec.Config, rec.Lambdas)
		}
		// Every prediction on one side of 0.5 is what single_class says.
		above := 0
		for _, v := range p.P {
			if v > 0.5 {
				above++
			}
		}
		if single := above == 0 || above == len(p.P); single != rec.SingleClass {
			t.Errorf("%s: %d of %d predictions above 0.5, single_class %v", rec.Key(), above, len(p.P), rec.SingleClass)
		}
	}
	// The folder belongs to its configuration.
	other := smallConfig()
	other.Seed = 99
	if _, err := experiments.NewRunner(other, dir, nil); err == nil || !strings.Contains(err.Error(), "seed") {
		t.Errorf("another seed under the same folder: err = %v, want a refusal naming the seed", err)
	}
}
