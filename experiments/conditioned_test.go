package experiments_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

func conditionedConfig() experiments.Config {
	cfg := experiments.DefaultConfig()
	cfg.Dataset, cfg.Splits, cfg.Lambdas, cfg.Epochs, cfg.Workers = "compas", 2, "log:5", 6, 1
	cfg.Engine, cfg.PropensityEpochs, cfg.Penalty = "backprop", 5, "ato-output"
	cfg.Conditioned, cfg.EvalLambdas = true, "0.02,0.1,0.5"
	return cfg
}

// cancelAfter is an observer that cancels a run once a record matching
// stop is written.
type cancelAfter struct {
	mu     sync.Mutex
	cancel context.CancelFunc
	stop   func(*records.Record) bool
}

func (c *cancelAfter) Start(int, int) {}
func (c *cancelAfter) Done(rec *records.Record) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stop(rec) {
		c.cancel()
	}
}

// A conditioned sweep records, per split, the λ = 0 and λ = 1 runs as plain
// networks and one conditioned network at every interior λ of the grid and
// of the evaluation grid (those not in the grid marked eval_only), all
// naming the split's one fp-network/3 file, each scored as that file
// folded at its λ. Workers and shards do not change the records, and a
// sweep stopped before a split's conditioned network trains, or after its
// first checkpoint, or killed after some of its records, resumes to the
// records of the uninterrupted sweep and leaves no checkpoint behind.
func TestConditionedSweepRecordsResumesAndShards(t *testing.T) {
	if testing.Short() {
		t.Skip("trains 8 networks several times; run without -short")
	}
	cfg := conditionedConfig()
	whole := filepath.Join(t.TempDir(), "whole")
	if err := runSweep(cfg, whole); err != nil {
		t.Fatal(err)
	}
	want := readRecords(t, whole)
	// The grid's interior λ and those of 0.02, 0.1 and 0.5 it lacks.
	grid, _ := scalarize.ParseGrid(cfg.Lambdas)
	n := len(grid)
	for _, l := range []float64{0.02, 0.1, 0.5} {
		if !slices.Contains(grid, l) {
			n++
		}
	}
	if len(want) != 2*n || n == len(grid) {
		t.Fatalf("%d records, want %d (grid %v)", len(want), 2*n, grid)
	}
	for _, r := range want {
		plain := r.Lambda == 0 || r.Lambda == 1
		evalOnly := !slices.Contains(grid, r.Lambda)
		if !r.OK() || r.Conditioned == plain || r.EvalOnly != evalOnly {
			t.Errorf("%s: status %s, conditioned %v, eval_only %v", r.Key(), r.Status, r.Conditioned, r.EvalOnly)
			continue
		}
		if plain {
			continue
		}
		if want := runfolder.ConditionedNetworkPath("cheb", "ato-output", r.Split); r.Weights != want {
			t.Errorf("%s: weights %q, want %q", r.Key(), r.Weights, want)
		}
		f, err := model.Load(filepath.Join(whole, r.Weights))
		if err != nil || !f.IsConditioned() {
			t.Fatalf("%s: %v (conditioned %v)", r.Key(), err, err == nil && f.IsConditioned())
		}
		if f.Card == nil || !f.Card.Conditioned {
			t.Errorf("%s: the conditioned file's card does not say it is conditioned: %+v", r.Key(), f.Card)
		}
		at, err := f.At(r.Lambda)
		if err != nil {
			t.Fatal(err)
		}
		met := scoreOnTestRows(t, whole, r.Split, at)
		if math.Abs(met.Risk-r.Risk) > 1e-12 || math.Abs(met.ATO-r.ATO) > 1e-12 {
			t.Errorf("%s: the stored file folded at λ scores risk %g ATO %g, the record %g %g", r.Key(), met.Risk, met.ATO, r.Risk, r.ATO)
		}
		if r.TrainU <= 0 || r.UMax <= r.UMin {
			t.Errorf("%s: train U %g, constants [%g, %g]", r.Key(), r.TrainU, r.UMin, r.UMax)
		}
	}

	noCheckpoints := func(t *testing.T, dir string) {
		t.Helper()
		if left, _ := filepath.Glob(filepath.Join(dir, "splits", "*", "conditioned-*.json")); len(left) != 0 {
			t.Errorf("checkpoints left after the sweep: %v", left)
		}
	}
	noCheckpoints(t, whole)

	t.Run("status", func(t *testing.T) {
		rep, err := experiments.Status(whole, 0)
		if err != nil {
			t.Fatal(err)
		}
		e := 2 * (n - len(grid))
		if !rep.Complete || rep.Overall.Expected != len(want) || rep.Overall.EvalOnlyExpected != e || rep.Overall.EvalOnlyDone != e || len(rep.Unexpected) != 0 {
			t.Errorf("status: complete %v, %d/%d, eval_only %d/%d, unexpected %v; want %d eval_only",
				rep.Complete, rep.Overall.Done, rep.Overall.Expected, rep.Overall.EvalOnlyDone, rep.Overall.EvalOnlyExpected, rep.Unexpected, e)
		}
		var b strings.Builder
		if err := rep.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), fmt.Sprintf("eval_only: %d/%d recorded", e, e)) {
			t.Errorf("status text does not count the eval_only records:\n%s", b.String())
		}
	})
	t.Run("workers", func(t *testing.T) {
		two := cfg
		two.Workers = 2
		d := filepath.Join(t.TempDir(), "two")
		if err := runSweep(two, d); err != nil {
			t.Fatal(err)
		}
		if got := readRecords(t, d); !reflect.DeepEqual(got, want) {
			t.Error("2 workers gave other records than 1")
		}
	})
	t.Run("shards", func(t *testing.T) {
		d := filepath.Join(t.TempDir(), "sharded")
		for i := range 2 {
			sh := cfg
			sh.Shard = experiments.Shard{Index: i, Count: 2}
			if err := runSweep(sh, d); err != nil {
				t.Fatal(err)
			}
		}
		if got := readRecords(t, d); !reflect.DeepEqual(got, want) {
			t.Error("two shards gave other records than one run")
		}
	})
	t.Run("stopped while training", func(t *testing.T) {
		d := filepath.Join(t.TempDir(), "stopped")
		ctx, cancel := context.WithCancel(context.Background())
		obs := &cancelAfter{cancel: cancel, stop: func(r *records.Record) bool { return r.Split == 0 && r.Lambda == 1 }}
		// One worker: with more, another split's conditioned network can
		// finish between the stop and its reaching the workers, on a busy
		// machine.
		stopCfg := cfg
		stopCfg.Workers = 1
		run, err := experiments.NewRunner(stopCfg, d, obs)
		if err != nil {
			t.Fatal(err)
		}
		_, err = run.Run(ctx)
		run.Close()
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("stopped run: err = %v, want context.Canceled", err)
		}
		// Split 1 may run first while split 0 waits for the worker.
		part := readRecords(t, d)
		for _, r := range part {
			if r.Split == 0 && r.Conditioned {
				t.Fatalf("%s recorded before the stop: the stop came too late to test anything", r.Key())
			}
		}
		if err := runSweep(cfg, d); err != nil {
			t.Fatal(err)
		}
		if got := readRecords(t, d); !reflect.DeepEqual(got, want) {
			t.Error("the resumed sweep's records differ from the uninterrupted sweep's")
		}
	})
	t.Run("stopped after a checkpoint", func(t *testing.T) {
		// A checkpoint every 2 epochs of the 6: saved after epochs 2 and 4.
		defer experiments.SetConditionedCheckpointEvery(2)()
		d := filepath.Join(t.TempDir(), "stopped")
		ck := runfolder.ConditionedCheckpointPath(d, 0, "cheb", "ato-output")
		ctx, cancel := context.WithCancel(context.Background())
		var mu sync.Mutex
		var saves []int // split 0's conditioned network's saved epochs
		experiments.SetCheckpointSaved(func(path string, epoch int) {
			mu.Lock()
			defer mu.Unlock()
			if path == ck {
				saves = append(saves, epoch)
				cancel()
			}
		})
		defer experiments.SetCheckpointSaved(nil)
		run, err := experiments.NewRunner(cfg, d, nil) // one worker
		if err != nil {
			t.Fatal(err)
		}
		_, err = run.Run(ctx)
		run.Close()
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("stopped run: err = %v, want context.Canceled", err)
		}
		if _, err := os.Stat(ck); err != nil || !slices.Equal(saves, []int{2}) {
			t.Fatalf("after the stop: %v, saved after epochs %v; want a checkpoint after epoch 2", err, saves)
		}
		for _, r := range readRecords(t, d) {
			if r.Split == 0 && r.Conditioned {
				t.Fatalf("%s recorded before the stop: the stop came too late to test anything", r.Key())
			}
		}
		experiments.SetCheckpointSaved(func(path string, epoch int) {
			mu.Lock()
			defer mu.Unlock()
			if filepath.Base(filepath.Dir(path)) == "split-000" {
				saves = append(saves, epoch)
			}
		})
		b, err := os.ReadFile(ck)
		if err != nil {
			t.Fatal(err)
		}
		// edit rewrites the checkpoint's JSON object.
		edit := func(f func(map[string]any)) []byte {
			var v map[string]any
			if err := json.Unmarshal(b, &v); err != nil {
				t.Fatal(err)
			}
			f(v)
			out, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			return out
		}
		for _, c := range []struct {
			name  string
			file  []byte
			err   string // "": resumed from the start
			saves []int
		}{
			{"corrupt", b[:len(b)/2], "delete it to train the network from the start", nil},
			{"of another split", edit(func(v map[string]any) { v["split"] = 1.0 }), "", []int{2, 4}},
			{"of another configuration", edit(func(v map[string]any) { v["config"] = "0123456789ab" }), "", []int{2, 4}},
			{"of another shape", edit(func(v map[string]any) {
				st := v["state"].(map[string]any)
				st["params"] = st["params"].([]any)[1:]
			}), "does not fit", nil},
			{"as saved", b, "", []int{4}},
		} {
			dir := filepath.Join(t.TempDir(), "resumed")
			if err := os.CopyFS(dir, os.DirFS(d)); err != nil {
				t.Fatal(err)
			}
			path := runfolder.ConditionedCheckpointPath(dir, 0, "cheb", "ato-output")
			if err := os.WriteFile(path, c.file, 0o644); err != nil {
				t.Fatal(err)
			}
			saves = nil
			err := runSweep(cfg, dir)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.err) || strings.Contains(err.Error(), "\n") {
					t.Errorf("%s checkpoint: err = %v, want one line naming %s and saying %q", c.name, err, path, c.err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s checkpoint: %v", c.name, err)
			}
			if !slices.Equal(saves, c.saves) {
				t.Errorf("%s checkpoint: split 0's network saved after epochs %v, want %v", c.name, saves, c.saves)
			}
			if got := readRecords(t, dir); !reflect.DeepEqual(got, want) {
				t.Errorf("%s checkpoint: the resumed sweep's records differ from the uninterrupted sweep's", c.name)
			}
			noCheckpoints(t, dir)
		}
	})
	t.Run("killed after some records", func(t *testing.T) {
		d := filepath.Join(t.TempDir(), "killed")
		if err := runSweep(cfg, d); err != nil {
			t.Fatal(err)
		}
		// Keep the records file up to split 1's second conditioned record,
		// as a process killed while writing them leaves it.
		path := filepath.Join(d, runfolder.RecordsFile(experiments.Shard{}))
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var kept []string
		seen := 0
		for _, line := range strings.SplitAfter(string(b), "\n") {
			if strings.Contains(line, `"split":1,`) && strings.Contains(line, `"conditioned":true`) {
				if seen++; seen > 2 {
					continue
				}
			}
			kept = append(kept, line)
		}
		if err := os.WriteFile(path, []byte(strings.Join(kept, "")), 0o644); err != nil {
			t.Fatal(err)
		}
		if n := len(readRecords(t, d)); n != len(want)-(len(want)/2-2-2) {
			t.Fatalf("%d records left, want %d", n, len(want)-(len(want)/2-2-2))
		}
		if err := os.Remove(filepath.Join(d, runfolder.ConditionedNetworkPath("cheb", "ato-output", 1))); err != nil {
			t.Fatal(err)
		}
		if err := runSweep(cfg, d); err != nil {
			t.Fatal(err)
		}
		if got := readRecords(t, d); !reflect.DeepEqual(got, want) {
			t.Error("the resumed sweep's records differ from the uninterrupted sweep's")
		}
	})
}

// testRows are a split's test rows as the runner scores them.
type testRows struct{ x, y, a, e []float64 }

// scoreOnTestRows scores net on the test rows of split m of the run in dir,
// as the records do.
func scoreOnTestRows(t *testing.T, dir string, m int, net *model.File) fairness.Metrics {
	t.Helper()
	sp := testSplit(t, dir, m)
	z, err := net.Logits(sp.x, len(sp.y))
	if err != nil {
		t.Fatal(err)
	}
	g, w, err := fairness.Binary(sp.a, sp.e)
	if err != nil {
		t.Fatal(err)
	}
	met, err := fairness.EvaluateLogits(z, sp.y, g, w)
	if err != nil {
		t.Fatal(err)
	}
	return met
}

func testSplit(t *testing.T, dir string, m int) testRows {
	t.Helper()
	ts, err := runfolder.LoadTestSplit(dir, m)
	if err != nil {
		t.Fatal(err)
	}
	d := ts.Data
	var x []float64
	for _, i := range ts.Rows {
		x = append(x, d.X[i*d.Dim:(i+1)*d.Dim]...)
	}
	y, a := d.Subset(ts.Rows)
	return testRows{x: x, y: y, a: a, e: ts.Propensity}
}

// What a conditioned sweep cannot do is refused in one line naming the
// setting, before anything is read or written.
func TestConditionedRefusals(t *testing.T) {
	for _, c := range []struct {
		name  string
		set   func(*experiments.Config)
		field string
		want  string
	}{
		{"adaptive grid", func(c *experiments.Config) { c.Lambdas = "adaptive:9" }, "conditioned", "fixed grid"},
		{"adversarial", func(c *experiments.Config) { c.Method = experiments.MethodAdversarial }, "conditioned", "adversarial baseline"},
		{"lockstep", func(c *experiments.Config) { c.Lockstep = true }, "lockstep", "one network per split"},
		{"no interior λ", func(c *experiments.Config) { c.Lambdas = "0,1" }, "lambdas", "no λ strictly between 0 and 1"},
		{"unknown draw", func(c *experiments.Config) { c.LambdaDraw = "beta" }, "lambda_draw", `"beta": want one of grid, log-uniform`},
		{"negative width", func(c *experiments.Config) { c.FiLMWidth = -2 }, "film_width", "want ≥ 1"},
		{"bad evaluation grid", func(c *experiments.Config) { c.EvalLambdas = "log:x" }, "eval_lambdas", ""},
		{"adaptive evaluation grid", func(c *experiments.Config) { c.EvalLambdas = "adaptive:5" }, "eval_lambdas", "fixed grid"},
		{"width without --conditioned", func(c *experiments.Config) { c.Conditioned, c.EvalLambdas, c.FiLMWidth = false, "", 8 }, "film_width", "--conditioned only"},
		{"draw without --conditioned", func(c *experiments.Config) { c.Conditioned, c.EvalLambdas, c.LambdaDraw = false, "", "grid" }, "lambda_draw", "--conditioned only"},
		{"evaluation grid without --conditioned", func(c *experiments.Config) { c.Conditioned = false }, "eval_lambdas", "--conditioned"},
		{"negative schedule rows", func(c *experiments.Config) { c.ScheduleRows = -1 }, "schedule_rows", "want ≥ 1"},
		{"schedule rows without --conditioned", func(c *experiments.Config) { c.Conditioned, c.EvalLambdas, c.ScheduleRows = false, "", 100 }, "schedule_rows", "--conditioned only"},
		{"negative conditioned epochs", func(c *experiments.Config) { c.ConditionedEpochs = -1 }, "conditioned_epochs", "-1, want ≥ 1 (0: --epochs)"},
		{"conditioned epochs without --conditioned", func(c *experiments.Config) { c.Conditioned, c.EvalLambdas, c.ConditionedEpochs = false, "", 100 }, "conditioned_epochs", "--conditioned only"},
		{"an unknown learning-rate schedule", func(c *experiments.Config) { c.ConditionedLR = "cosine" }, "conditioned_lr", `"cosine": want constant`},
		{"output modulation without --conditioned", func(c *experiments.Config) { c.Conditioned, c.EvalLambdas, c.FiLMOutput = false, "", true }, "film_output", "--conditioned only"},
		{"conditioned architecture without --conditioned", func(c *experiments.Config) { c.Conditioned, c.EvalLambdas, c.ConditionedArch = false, "", "4x8" }, "conditioned_arch", "--conditioned only"},
		{"bad conditioned architecture", func(c *experiments.Config) { c.ConditionedArch = "4by8" }, "conditioned_arch", ""},
		{"too large a conditioned architecture", func(c *experiments.Config) { c.ConditionedArch = "40x4000" }, "conditioned_arch", "want at most"},
		{"negative λ per step", func(c *experiments.Config) { c.LambdasPerStep = -1 }, "lambdas_per_step", "-1, want 1 to 64 (0: one)"},
		{"too many λ per step", func(c *experiments.Config) { c.LambdasPerStep = 1000 }, "lambdas_per_step", "1000, want 1 to 64"},
		{"λ per step without --conditioned", func(c *experiments.Config) { c.Conditioned, c.EvalLambdas, c.LambdasPerStep = false, "", 2 }, "lambdas_per_step", "--conditioned only"},
		{"a constant learning rate without --conditioned", func(c *experiments.Config) { c.Conditioned, c.EvalLambdas, c.ConditionedLR = false, "", "constant" }, "conditioned_lr", "--conditioned only"},
		{"penalty position without --conditioned", func(c *experiments.Config) {
			c.Conditioned, c.EvalLambdas, c.Engine, c.Penalty, c.FiLMPenalty = false, "", "graph", "ato-penultimate", "before"
		}, "film_penalty", "--conditioned only"},
		{"unknown penalty position", func(c *experiments.Config) { c.Engine, c.FiLMPenalty = "graph", "inside" }, "film_penalty", `"inside": want one of after, before`},
		{"output penalty before the modulation", func(c *experiments.Config) { c.Engine, c.FiLMPenalty = "graph", "before" }, "film_penalty", "ato-output reads the predicted probability"},
		{"before the modulation on the backprop engine", func(c *experiments.Config) { c.Penalty, c.FiLMPenalty = "ato-penultimate", "before" }, "engine",
			`the backprop engine cannot train the penalty position "before"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := conditionedConfig()
			c.set(&cfg)
			out := filepath.Join(t.TempDir(), "out")
			_, err := experiments.NewRunner(cfg, out, nil)
			var fe *experiments.FieldError
			if !errors.As(err, &fe) || fe.Field != c.field || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v, want a one-line error of field %s saying %q", err, c.field, c.want)
			}
			if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the refused sweep made its folder (%v)", err)
			}
		})
	}
	// Without --conditioned every setting of it is empty: the digest of a
	// sweep of one network per λ is that of folders written before.
	plain := experiments.DefaultConfig()
	plain.Engine = "backprop"
	if !plain.LockstepPossible() {
		t.Fatal("the default configuration cannot train in lockstep")
	}
	cond := plain
	cond.Conditioned = true
	if cond.LockstepPossible() {
		t.Error("a conditioned sweep says it can train in lockstep")
	}
	if cond.Digest() == plain.Digest() {
		t.Error("--conditioned does not change the digest")
	}
	// The conditioned network's epochs are stored only when given: 0 (the
	// sweep's epochs) keeps the digest of folders written before.
	longer := cond
	longer.ConditionedEpochs = 2 * cond.Epochs
	if longer.Digest() == cond.Digest() {
		t.Error("--conditioned-epochs does not change the digest")
	}
	if b, _ := json.Marshal(cond.Config); strings.Contains(string(b), "conditioned_epochs") || strings.Contains(string(b), "conditioned_lr") || strings.Contains(string(b), "film_output") {
		t.Errorf("a sweep without --conditioned-epochs, --conditioned-lr or --film-output stores them: %s", b)
	}
	filmOutput := cond
	filmOutput.FiLMOutput = true
	if filmOutput.Digest() == cond.Digest() {
		t.Error("--film-output does not change the digest")
	}
	wider := cond
	wider.ConditionedArch = "4x8"
	if wider.Digest() == cond.Digest() {
		t.Error("--conditioned-arch does not change the digest")
	}
	same := cond
	same.Dataset, same.ConditionedArch = "compas", "4x4" // COMPAS's own architecture
	if r, err := same.Resolved(1000); err != nil || r.ConditionedArch != "" {
		t.Errorf("--conditioned-arch equal to --arch resolves to %q (%v), want the default \"\"", r.ConditionedArch, err)
	}
	perStep := cond
	perStep.LambdasPerStep = 4
	if perStep.Digest() == cond.Digest() {
		t.Error("--lambdas-per-step does not change the digest")
	}
	if b, _ := json.Marshal(cond.Config); strings.Contains(string(b), "lambdas_per_step") {
		t.Errorf("a sweep without --lambdas-per-step stores it: %s", b)
	}
	constant := cond
	constant.ConditionedLR = experiments.ConditionedLRConstant
	if constant.Digest() == cond.Digest() {
		t.Error("--conditioned-lr constant does not change the digest")
	}
	// The default penalty position is stored as its absence: the digest of
	// a sweep made before the setting existed; "before" changes it.
	cond.Engine, cond.Penalty = "graph", "ato-penultimate"
	after := cond
	after.FiLMPenalty = "after"
	ra, err := after.Resolved(1000)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := cond.Resolved(1000)
	if err != nil {
		t.Fatal(err)
	}
	if ra.FiLMPenalty != "" || ra.Digest() != rc.Digest() {
		t.Errorf("position after: stored %q, digest %s; want \"\" and the default's %s", ra.FiLMPenalty, ra.Digest(), rc.Digest())
	}
	before := cond
	before.FiLMPenalty = "before"
	rb, err := before.Resolved(1000)
	if err != nil {
		t.Fatal(err)
	}
	if rb.FiLMPenalty != "before" || rb.Digest() == rc.Digest() {
		t.Errorf("position before: stored %q, digest %s (the default's %s)", rb.FiLMPenalty, rb.Digest(), rc.Digest())
	}
}

// On the graph engine a sweep whose penalty reads before the modulation
// trains, and its conditioned records say so (film_penalty), unlike its
// plain λ = 0 and λ = 1 records and unlike a sweep with the default
// position; the two sweeps' λ = 0 and λ = 1 records are the same networks.
func TestConditionedSweepPenaltyBeforeModulation(t *testing.T) {
	if testing.Short() {
		t.Skip("trains two conditioned sweeps on the graph engine; run without -short")
	}
	byPosition := map[string][]records.Record{}
	for _, where := range []string{"", "before"} {
		cfg := conditionedConfig()
		cfg.Splits, cfg.EvalLambdas, cfg.Epochs, cfg.Lambdas = 1, "", 2, "log:4"
		cfg.Engine, cfg.Penalty, cfg.FiLMPenalty = "graph", "ato-penultimate", where
		d := filepath.Join(t.TempDir(), "out")
		if err := runSweep(cfg, d); err != nil {
			t.Fatal(err)
		}
		recs := readRecords(t, d)
		slices.SortFunc(recs, func(a, b records.Record) int { return cmpFloat(a.Lambda, b.Lambda) })
		byPosition[where] = recs
		conditioned := 0
		for _, r := range recs {
			if !r.OK() {
				t.Fatalf("position %q: λ = %g: %s", where, r.Lambda, r.FailReason)
			}
			want := ""
			if r.Conditioned {
				conditioned++
				want = where
			}
			if r.FiLMPenalty != want {
				t.Errorf("position %q: λ = %g (conditioned %v): film_penalty %q, want %q", where, r.Lambda, r.Conditioned, r.FiLMPenalty, want)
			}
		}
		if conditioned != 2 {
			t.Errorf("position %q: %d conditioned records, want 2", where, conditioned)
		}
	}
	after, before := byPosition[""], byPosition["before"]
	if len(after) != len(before) {
		t.Fatalf("%d records after the modulation, %d before", len(after), len(before))
	}
	for k := range after {
		a, b := after[k], before[k]
		if a.Config == b.Config {
			t.Errorf("λ = %g: both sweeps have digest %s", a.Lambda, a.Config)
		}
		if same := a.Risk == b.Risk && a.ATO == b.ATO; same != !a.Conditioned {
			t.Errorf("λ = %g (conditioned %v): risk %g and %g, ato %g and %g", a.Lambda, a.Conditioned, a.Risk, b.Risk, a.ATO, b.ATO)
		}
	}
}

// With --film-output a conditioned sweep trains on both engines, and the
// stored network modulates its output layer and scores as its records do.
func TestConditionedSweepFiLMOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a conditioned sweep per engine; run without -short")
	}
	for _, engine := range []string{"backprop", "graph"} {
		t.Run(engine, func(t *testing.T) {
			cfg := conditionedConfig()
			cfg.Splits, cfg.EvalLambdas, cfg.Epochs, cfg.Lambdas = 1, "", 2, "log:4"
			cfg.Engine, cfg.FiLMOutput = engine, true
			d := filepath.Join(t.TempDir(), "out")
			if err := runSweep(cfg, d); err != nil {
				t.Fatal(err)
			}
			conditioned := 0
			for _, r := range readRecords(t, d) {
				if !r.OK() {
					t.Fatalf("λ = %g: %s", r.Lambda, r.FailReason)
				}
				if !r.Conditioned {
					continue
				}
				conditioned++
				f, err := model.Load(filepath.Join(d, r.Weights))
				if err != nil {
					t.Fatal(err)
				}
				if f.FiLM == nil || !f.FiLM.Output {
					t.Fatalf("λ = %g: the stored conditioning network does not modulate the output layer", r.Lambda)
				}
				at, err := f.At(r.Lambda)
				if err != nil {
					t.Fatal(err)
				}
				if met := scoreOnTestRows(t, d, r.Split, at); math.Abs(met.Risk-r.Risk) > 1e-9 {
					t.Errorf("λ = %g: the stored network's risk %g, the record's %g", r.Lambda, met.Risk, r.Risk)
				}
			}
			if conditioned != 2 {
				t.Errorf("%d conditioned records, want 2", conditioned)
			}
		})
	}
}

// With --conditioned-arch the conditioned network has its own
// architecture, which its records and file carry, while the λ = 0 and λ = 1
// networks keep --arch; the file scores as the records say.
func TestConditionedSweepOwnArchitecture(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a conditioned sweep; run without -short")
	}
	cfg := conditionedConfig()
	cfg.Splits, cfg.EvalLambdas, cfg.Epochs, cfg.Lambdas = 1, "", 2, "log:4"
	cfg.Arch, cfg.ConditionedArch = "3x4", "3x7"
	d := filepath.Join(t.TempDir(), "out")
	if err := runSweep(cfg, d); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range readRecords(t, d) {
		if !r.OK() {
			t.Fatalf("λ = %g: %s", r.Lambda, r.FailReason)
		}
		f, err := model.Load(filepath.Join(d, r.Weights))
		if err != nil {
			t.Fatal(err)
		}
		want := "3x4"
		if r.Conditioned {
			want = "3x7"
			n++
		}
		at := f
		if r.Conditioned {
			if at, err = f.At(r.Lambda); err != nil {
				t.Fatal(err)
			}
		}
		if r.Arch != want || at.Arch != want {
			t.Fatalf("λ = %g (conditioned %v): record arch %s, network %s, want %s", r.Lambda, r.Conditioned, r.Arch, at.Arch, want)
		}
		if met := scoreOnTestRows(t, d, r.Split, at); math.Abs(met.Risk-r.Risk) > 1e-9 {
			t.Errorf("λ = %g: the stored network's risk %g, the record's %g", r.Lambda, met.Risk, r.Risk)
		}
	}
	if n != 2 {
		t.Errorf("%d conditioned records, want 2", n)
	}
	rep, err := experiments.Status(d, 0)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if line := "the conditioned networks are 3x7, the λ = 0 and λ = 1 networks 3x4\n"; !strings.Contains(b.String(), line) {
		t.Errorf("fp status does not name the conditioned networks' architecture (%q):\n%s", line, b.String())
	}
}

// With several λ per step a conditioned sweep trains on both engines to
// the same records (the engines' gradients agree, and the step's mean is
// engine-independent code), and to other records than with one λ per step.
func TestConditionedSweepSeveralLambdasPerStep(t *testing.T) {
	if testing.Short() {
		t.Skip("trains three conditioned sweeps; run without -short")
	}
	sweep := func(engine string, perStep int) []records.Record {
		cfg := conditionedConfig()
		cfg.Splits, cfg.EvalLambdas, cfg.Epochs, cfg.Lambdas = 1, "", 3, "log:4"
		cfg.Engine, cfg.LambdasPerStep = engine, perStep
		d := filepath.Join(t.TempDir(), "out")
		if err := runSweep(cfg, d); err != nil {
			t.Fatal(err)
		}
		var out []records.Record
		for _, r := range readRecords(t, d) {
			if !r.OK() {
				t.Fatalf("%s, %d per step, λ = %g: %s", engine, perStep, r.Lambda, r.FailReason)
			}
			if r.Conditioned {
				out = append(out, r)
			}
		}
		slices.SortFunc(out, func(a, b records.Record) int { return cmpFloat(a.Lambda, b.Lambda) })
		if len(out) != 2 {
			t.Fatalf("%s: %d conditioned records, want 2", engine, len(out))
		}
		return out
	}
	bp, gr, one := sweep("backprop", 3), sweep("graph", 3), sweep("backprop", 0)
	for i := range bp {
		if d := math.Abs(bp[i].Risk - gr[i].Risk); d > 1e-8 || math.Abs(bp[i].ATO-gr[i].ATO) > 1e-8 {
			t.Errorf("λ = %g: backprop risk %.12g ato %.12g, graph %.12g %.12g", bp[i].Lambda, bp[i].Risk, bp[i].ATO, gr[i].Risk, gr[i].ATO)
		}
		if bp[i].Risk == one[i].Risk {
			t.Errorf("λ = %g: three λ per step gave the risk of one (%g)", bp[i].Lambda, bp[i].Risk)
		}
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Each built-in penalty and the three built-in scalarizations train a
// conditioned network.
func TestConditionedSweepEveryPenaltyAndMethod(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a sweep per penalty and method; run without -short")
	}
	type job struct{ method, penalty string }
	var jobs []job
	for _, p := range []string{"ato-penultimate", "ato-all", "ato-penultimate-normalized", "ato-output"} {
		jobs = append(jobs, job{experiments.MethodCheb, p})
	}
	jobs = append(jobs, job{experiments.MethodLinear, "ato-output"}, job{experiments.MethodChebAug, "ato-output"})
	for _, j := range jobs {
		t.Run(j.method+"/"+j.penalty, func(t *testing.T) {
			cfg := conditionedConfig()
			cfg.Splits, cfg.EvalLambdas, cfg.Epochs = 1, "", 2
			cfg.Method, cfg.Penalty = j.method, j.penalty
			if j.method == experiments.MethodChebAug {
				cfg.Rho = scalarize.DefaultRho
			}
			d := filepath.Join(t.TempDir(), "out")
			if err := runSweep(cfg, d); err != nil {
				t.Fatal(err)
			}
			recs := readRecords(t, d)
			n := 0
			for _, r := range recs {
				if r.Conditioned && r.OK() && r.Method == j.method && r.Penalty == j.penalty {
					n++
				}
			}
			if n != 3 {
				t.Errorf("%d conditioned records, want 3", n)
			}
		})
	}
}

// The graph engine's conditioned network resumes from its checkpoint to the
// records of the uninterrupted sweep too, with the penalty read before the
// modulation (an option of that engine only).
func TestConditionedGraphResumesFromCheckpoint(t *testing.T) {
	if testing.Short() {
		t.Skip("trains the graph engine's networks twice; run without -short")
	}
	cfg := conditionedConfig()
	cfg.Engine, cfg.Penalty, cfg.FiLMPenalty, cfg.Splits, cfg.EvalLambdas = "graph", "ato-penultimate", train.PenaltyBeforeFiLM, 1, ""
	whole := filepath.Join(t.TempDir(), "whole")
	if err := runSweep(cfg, whole); err != nil {
		t.Fatal(err)
	}
	want := readRecords(t, whole)

	defer experiments.SetConditionedCheckpointEvery(2)()
	d := filepath.Join(t.TempDir(), "stopped")
	ck := runfolder.ConditionedCheckpointPath(d, 0, "cheb", "ato-penultimate")
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	var saves []int
	experiments.SetCheckpointSaved(func(path string, epoch int) {
		mu.Lock()
		defer mu.Unlock()
		if path == ck {
			saves = append(saves, epoch)
			cancel()
		}
	})
	defer experiments.SetCheckpointSaved(nil)
	run, err := experiments.NewRunner(cfg, d, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = run.Run(ctx)
	run.Close()
	if !errors.Is(err, context.Canceled) || !slices.Equal(saves, []int{2}) {
		t.Fatalf("stopped run: err = %v, saved after epochs %v; want context.Canceled after epoch 2", err, saves)
	}
	saves = nil
	if err := runSweep(cfg, d); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(saves, []int{4}) {
		t.Errorf("resumed: saved after epochs %v, want [4] (a resume from epoch 2)", saves)
	}
	if got := readRecords(t, d); !reflect.DeepEqual(got, want) {
		t.Errorf("the resumed sweep's records differ from the uninterrupted sweep's")
	}
	for _, r := range want {
		if r.Conditioned && r.FiLMPenalty != train.PenaltyBeforeFiLM {
			t.Errorf("%s: film_penalty %q, want %q", r.Key(), r.FiLMPenalty, train.PenaltyBeforeFiLM)
		}
	}
}

// ConditionedEpochs trains the conditioned network that many epochs,
// checkpointing and resuming on that count, and says so in its records and
// its file's card; the λ = 0 and λ = 1 runs, and with them the split's
// standardization constants, train Epochs as without it: their records are
// those of the sweep without it but for the configuration's digest.
func TestConditionedEpochs(t *testing.T) {
	if testing.Short() {
		t.Skip("trains three conditioned sweeps; run without -short")
	}
	const epochs, conditioned = 2, 4
	cfg := conditionedConfig()
	cfg.Splits, cfg.EvalLambdas, cfg.Epochs, cfg.Lambdas = 1, "", epochs, "log:4"
	plain := filepath.Join(t.TempDir(), "plain")
	if err := runSweep(cfg, plain); err != nil {
		t.Fatal(err)
	}
	without := readRecords(t, plain)

	cfg.ConditionedEpochs = conditioned
	defer experiments.SetConditionedCheckpointEvery(1)()
	d := filepath.Join(t.TempDir(), "longer")
	ck := runfolder.ConditionedCheckpointPath(d, 0, "cheb", "ato-output")
	var mu sync.Mutex
	var saves []int
	experiments.SetCheckpointSaved(func(path string, epoch int) {
		mu.Lock()
		defer mu.Unlock()
		if path == ck {
			saves = append(saves, epoch)
		}
	})
	defer experiments.SetCheckpointSaved(nil)
	if err := runSweep(cfg, d); err != nil {
		t.Fatal(err)
	}
	rep, err := experiments.Status(d, 0)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if line := fmt.Sprintf("the conditioned networks train %d epochs, the λ = 0 and λ = 1 networks %d\n", conditioned, epochs); !strings.Contains(b.String(), line) {
		t.Errorf("fp status does not say the conditioned networks' epochs (%q):\n%s", line, b.String())
	}
	if want := []int{1, 2, 3}; !slices.Equal(saves, want) {
		t.Errorf("checkpoints after epochs %v, want %v", saves, want)
	}
	with := readRecords(t, d)
	if len(with) != len(without) || len(with) != 4 {
		t.Fatalf("%d records with the setting, %d without; want 4", len(with), len(without))
	}
	for k := range with {
		a, b := with[k], without[k]
		if !a.OK() || a.Conditioned != b.Conditioned || a.Lambda != b.Lambda {
			t.Fatalf("record %d: λ %g (conditioned %v, %s) against λ %g (conditioned %v)", k, a.Lambda, a.Conditioned, a.Status, b.Lambda, b.Conditioned)
		}
		if a.Config == b.Config {
			t.Errorf("λ = %g: both sweeps have digest %s", a.Lambda, a.Config)
		}
		if !a.Conditioned {
			a.Config = b.Config
			if !reflect.DeepEqual(a, b) {
				t.Errorf("λ = %g: the plain run's record changed with the conditioned network's epochs:\n%+v\n%+v", a.Lambda, a, b)
			}
			continue
		}
		if a.Epochs != conditioned || b.Epochs != epochs {
			t.Errorf("λ = %g: conditioned records say %d epochs (want %d) and %d without the setting (want %d)", a.Lambda, a.Epochs, conditioned, b.Epochs, epochs)
		}
		if a.RMin != b.RMin || a.RMax != b.RMax || a.UMin != b.UMin || a.UMax != b.UMax {
			t.Errorf("λ = %g: standardization constants %v, want those without the setting %v",
				a.Lambda, []float64{a.RMin, a.RMax, a.UMin, a.UMax}, []float64{b.RMin, b.RMax, b.UMin, b.UMax})
		}
		if a.Risk == b.Risk && a.ATO == b.ATO {
			t.Errorf("λ = %g: the network trained %d epochs scores as the one trained %d", a.Lambda, conditioned, epochs)
		}
		f, err := model.Load(filepath.Join(d, a.Weights))
		if err != nil {
			t.Fatal(err)
		}
		if f.Card == nil || f.Card.Epochs != conditioned {
			t.Errorf("the conditioned network's card: %+v, want %d epochs", f.Card, conditioned)
		}
	}

	// Stopped after its third epoch, more than Epochs, the network resumes
	// from that checkpoint to the uninterrupted sweep's records.
	stopped := filepath.Join(t.TempDir(), "stopped")
	ck = runfolder.ConditionedCheckpointPath(stopped, 0, "cheb", "ato-output")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	saves = nil
	experiments.SetCheckpointSaved(func(path string, epoch int) {
		mu.Lock()
		defer mu.Unlock()
		if path == ck {
			saves = append(saves, epoch)
			if epoch == 3 {
				cancel()
			}
		}
	})
	run, err := experiments.NewRunner(cfg, stopped, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = run.Run(ctx)
	run.Close()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped run: err = %v, saved after epochs %v; want context.Canceled after epoch 3", err, saves)
	}
	saves = nil
	if err := runSweep(cfg, stopped); err != nil {
		t.Fatal(err)
	}
	if len(saves) != 0 {
		t.Errorf("resumed: saved after epochs %v, want none (a resume from epoch 3 of 4)", saves)
	}
	if got := readRecords(t, stopped); !reflect.DeepEqual(got, with) {
		t.Errorf("the resumed sweep's records differ from the uninterrupted sweep's")
	}
}
