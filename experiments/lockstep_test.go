package experiments_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/fpareto/fp/backprop"
	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/records"
	G "gorgonia.org/gorgonia"
)

// What cannot train in lockstep is refused by NewRunner before anything is
// written, with one line naming the reason.
func TestLockstepRefusals(t *testing.T) {
	gap := penalties.NewPenalty("mean-gap", "1", nil,
		func(n penalties.Net, b penalties.BatchNodes) (*G.Node, error) { return G.Sum(n.Logit) })
	cases := []struct {
		name  string
		edit  func(*experiments.Config)
		field string
		want  string
	}{
		{"graph engine", func(c *experiments.Config) { c.Engine = "graph" }, "lockstep", "graph engine cannot train candidates in lockstep"},
		{"adversarial", func(c *experiments.Config) { c.Method = experiments.MethodAdversarial }, "engine", "adversarial baseline"},
		{"adversarial on graph", func(c *experiments.Config) {
			c.Engine, c.Method = "graph", experiments.MethodAdversarial
		}, "lockstep", "graph engine cannot"},
		{"adaptive grid", func(c *experiments.Config) { c.Lambdas = "adaptive:9" }, "lockstep", "adaptive grid"},
		{"custom penalty", func(c *experiments.Config) { c.CustomPenalty = gap }, "engine", `penalty "mean-gap"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := smallConfig()
			c.Lockstep = true
			tc.edit(&c)
			out := filepath.Join(t.TempDir(), "run")
			r, err := experiments.NewRunner(c, out, nil)
			if err == nil {
				r.Close()
				t.Fatal("accepted")
			}
			var fe *experiments.FieldError
			if !errors.As(err, &fe) || fe.Field != tc.field {
				t.Fatalf("err = %v, want an error on the %s field", err, tc.field)
			}
			if msg := err.Error(); !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") {
				t.Errorf("err = %q, want one line containing %q", msg, tc.want)
			}
			if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the run folder was created (%v)", err)
			}
		})
	}
	// The same settings without lockstep pass the lockstep checks.
	c := smallConfig()
	c.Engine, c.Lambdas = "graph", "adaptive:9"
	if err := c.Validate(); err != nil {
		t.Errorf("graph engine with the adaptive grid, not in lockstep: %v", err)
	}
}

// Lockstep enters the digest; the default mode's digest is as before (the
// field is left out of the config's JSON).
func TestLockstepEntersDigest(t *testing.T) {
	a := experiments.DefaultConfig()
	b := a
	b.Lockstep = true
	if a.Digest() == b.Digest() {
		t.Error("lockstep did not change the digest")
	}
	if d := a.Diff(b); len(d) != 1 || !strings.HasPrefix(d[0], "lockstep:") {
		t.Errorf("diff = %v, want lockstep", d)
	}
}

// A lockstep sweep writes records that say so; the number of workers does
// not change them; and a sweep stopped right after a group's checkpoint
// resumes from it to the records of the uninterrupted sweep.
func TestLockstepSweepResumesFromCheckpoint(t *testing.T) {
	if testing.Short() {
		t.Skip("trains 30 networks; run without -short")
	}
	cfg := experiments.DefaultConfig()
	cfg.Dataset, cfg.Splits, cfg.Lambdas, cfg.Epochs, cfg.Workers = "compas", 2, "log:5", experiments.CheckpointEvery+10, 1
	cfg.Engine, cfg.Lockstep, cfg.PropensityEpochs = "backprop", true, 5
	whole := filepath.Join(t.TempDir(), "whole")
	if err := runSweep(cfg, whole); err != nil {
		t.Fatal(err)
	}
	want := readRecords(t, whole)
	if len(want) != 10 {
		t.Fatalf("%d records, want 10", len(want))
	}
	for _, r := range want {
		if !r.OK() || r.EngineMode != "lockstep" || r.EngineVersion != backprop.Version || r.Engine != "backprop" {
			t.Errorf("%s: status %s, engine %q %q mode %q", r.Key(), r.Status, r.Engine, r.EngineVersion, r.EngineMode)
		}
	}
	left, _ := filepath.Glob(filepath.Join(whole, "splits", "*", "lockstep-*.json"))
	if len(left) != 0 {
		t.Errorf("checkpoints left after the sweep: %v", left)
	}

	two := cfg
	two.Workers = 2
	d2 := filepath.Join(t.TempDir(), "two")
	if err := runSweep(two, d2); err != nil {
		t.Fatal(err)
	}
	if got := readRecords(t, d2); !reflect.DeepEqual(got, want) {
		t.Error("2 workers gave other records than 1")
	}

	// Stop at the first checkpoint of split 0's λ group.
	stopped := filepath.Join(t.TempDir(), "stopped")
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	var saves []string
	experiments.SetCheckpointSaved(func(path string, epoch int) {
		mu.Lock()
		defer mu.Unlock()
		rel, _ := filepath.Rel(stopped, path)
		saves = append(saves, rel)
		if strings.HasSuffix(path, filepath.Join("split-000", "lockstep-cheb.json")) {
			cancel()
		}
	})
	defer experiments.SetCheckpointSaved(nil)
	r, err := experiments.NewRunner(cfg, stopped, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Run(ctx)
	r.Close()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped run: err = %v, want context.Canceled", err)
	}
	ck := filepath.Join(stopped, "splits", "split-000", "lockstep-cheb.json")
	if _, err := os.Stat(ck); err != nil {
		t.Fatalf("no checkpoint after the stop: %v (saves %v)", err, saves)
	}
	mu.Lock()
	saves = nil
	mu.Unlock()
	if err := runSweep(cfg, stopped); err != nil {
		t.Fatal(err)
	}
	if got := readRecords(t, stopped); !reflect.DeepEqual(got, want) {
		t.Error("the resumed sweep's records differ from the uninterrupted sweep's")
	}
	for _, s := range saves {
		if s == filepath.Join("splits", "split-000", "lockstep-cheb.json") {
			t.Errorf("split 0's λ group saved a checkpoint again after resuming at epoch %d: it started over", experiments.CheckpointEvery)
		}
	}
}

// A lockstep group resumed with some of its members on disk gives the
// others, bit for bit, the records and networks of the uninterrupted sweep:
// the last member of split 0's λ group alone, and the λ = 1 member of its
// standardization group alone.
func TestLockstepGroupResumedWithOneMemberLeft(t *testing.T) {
	if testing.Short() {
		t.Skip("trains 12 networks; run without -short")
	}
	cfg := experiments.DefaultConfig()
	cfg.Dataset, cfg.Splits, cfg.Lambdas, cfg.Epochs, cfg.Workers = "compas", 1, "log:6", 4, 1
	cfg.Engine, cfg.Lockstep, cfg.PropensityEpochs = "backprop", true, 3
	whole := filepath.Join(t.TempDir(), "whole")
	if err := runSweep(cfg, whole); err != nil {
		t.Fatal(err)
	}
	want := readRecords(t, whole)
	if len(want) != 6 {
		t.Fatalf("%d records, want 6", len(want))
	}
	// A group's records are written one after another as it ends: a sweep
	// killed meanwhile has all but the last on disk. A standardization
	// group's outcomes are kept (splits/*/std-*.json) before its records.
	cases := []struct {
		name string
		drop func(lambdas []float64) float64 // the λ whose record is removed
		also string                          // another file to remove
	}{
		{"last of the λ group", func(ls []float64) float64 {
			var last float64
			for _, l := range ls {
				if l < 1 && l > last {
					last = l
				}
			}
			return last
		}, ""},
		{"λ = 1 of the standardization group", func([]float64) float64 { return 1 },
			filepath.Join("splits", "split-000", "std-penalty.json")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "resumed")
			if err := os.CopyFS(dir, os.DirFS(whole)); err != nil {
				t.Fatal(err)
			}
			var lambdas []float64
			for _, r := range want {
				lambdas = append(lambdas, r.Lambda)
			}
			drop := tc.drop(lambdas)
			weights := dropRecord(t, dir, drop)
			for _, f := range []string{weights, tc.also} {
				if err := os.Remove(filepath.Join(dir, f)); f != "" && err != nil {
					t.Fatal(err)
				}
			}
			if err := runSweep(cfg, dir); err != nil {
				t.Fatal(err)
			}
			got := readRecords(t, dir)
			if !reflect.DeepEqual(got, want) {
				for i := range min(len(got), len(want)) {
					if !reflect.DeepEqual(got[i], want[i]) {
						t.Errorf("λ = %g: resumed\n%+v\nuninterrupted\n%+v", want[i].Lambda, got[i], want[i])
					}
				}
				t.Fatal("the resumed sweep's records differ from the uninterrupted sweep's")
			}
			a, errA := os.ReadFile(filepath.Join(whole, weights))
			b, errB := os.ReadFile(filepath.Join(dir, weights))
			if errA != nil || errB != nil {
				t.Fatal(errA, errB)
			}
			if !bytes.Equal(a, b) {
				t.Errorf("%s differs from the uninterrupted sweep's", weights)
			}
		})
	}
}

// dropRecord removes split 0's record of lambda from the records file in
// dir and returns its network's path.
func dropRecord(t *testing.T, dir string, lambda float64) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("records files %v, want one", files)
	}
	recs, err := records.Read(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var kept bytes.Buffer
	weights := ""
	for _, r := range recs {
		if r.Split == 0 && r.Lambda == lambda {
			weights = r.Weights
			continue
		}
		line, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		kept.Write(append(line, '\n'))
	}
	if weights == "" {
		t.Fatalf("no stored network of λ = %g in split 0", lambda)
	}
	if err := os.WriteFile(files[0], kept.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return weights
}

// A finished lockstep sweep long enough to checkpoint its groups, whose
// last one or two records are removed, resumes: the group of the missing
// members has no checkpoint left (it was removed with its outcomes), so it
// trains whole, as when none of it was recorded, and the missing records
// come back as the uninterrupted sweep wrote them. (Resuming with the done
// members untrained once failed writing their never-stepped state.)
func TestLockstepResumeWithoutCheckpoint(t *testing.T) {
	if testing.Short() {
		t.Skip("trains 12 networks for 51 epochs; run without -short")
	}
	cfg := experiments.DefaultConfig()
	cfg.Dataset, cfg.Splits, cfg.Lambdas, cfg.Epochs, cfg.Workers = "compas", 1, "log:6", experiments.CheckpointEvery+1, 1
	cfg.Engine, cfg.Lockstep, cfg.PropensityEpochs, cfg.Arch = "backprop", true, 3, "2x4"
	whole := filepath.Join(t.TempDir(), "whole")
	if err := runSweep(cfg, whole); err != nil {
		t.Fatal(err)
	}
	want := readRecords(t, whole)
	for _, drop := range []int{1, 2} {
		t.Run(fmt.Sprintf("%d records removed", drop), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "resumed")
			if err := os.CopyFS(dir, os.DirFS(whole)); err != nil {
				t.Fatal(err)
			}
			var inner []float64 // the λ group's members, largest first
			for _, r := range want {
				if r.Lambda > 0 && r.Lambda < 1 {
					inner = append(inner, r.Lambda)
				}
			}
			slices.SortFunc(inner, func(a, b float64) int { return cmp.Compare(b, a) })
			for _, l := range inner[:drop] {
				if err := os.Remove(filepath.Join(dir, dropRecord(t, dir, l))); err != nil {
					t.Fatal(err)
				}
			}
			if err := runSweep(cfg, dir); err != nil {
				t.Fatal(err)
			}
			if got := readRecords(t, dir); !reflect.DeepEqual(got, want) {
				t.Errorf("the resumed sweep's records differ from the uninterrupted sweep's:\n%+v\n%+v", got, want)
			}
		})
	}
}
