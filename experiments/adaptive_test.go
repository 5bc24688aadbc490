package experiments_test

import (
	"context"
	"errors"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"testing"

	"github.com/fpareto/fp/experiments"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

func adaptiveConfig() experiments.Config {
	c := smallConfig()
	c.Lambdas, c.Epochs = "adaptive:6", 4 // coarse grid {0, 0.001, 1}, then 3 adaptive λ per split
	return c
}

// stopAfter cancels its run once n records have been written.
type stopAfter struct {
	n, seen int
	cancel  context.CancelFunc
}

func (s *stopAfter) Start(total, done int) {}

func (s *stopAfter) Done(*records.Record) {
	if s.seen++; s.seen == s.n {
		s.cancel()
	}
}

// runAdaptive runs c into dir until it completes, or until stop records
// have been written when stop > 0.
func runAdaptive(t *testing.T, c experiments.Config, dir string, stop int) (experiments.Summary, error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var obs experiments.Observer
	if stop > 0 {
		obs = &stopAfter{n: stop, cancel: cancel}
	}
	r, err := experiments.NewRunner(c, dir, obs)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	return r.Run(ctx)
}

// sequences reads a folder's records: per split, its λs in the order they
// were recorded, without the coarse grid (whose candidates train at once
// and may be recorded in any order), and every record by key.
func sequences(t *testing.T, dir string) (map[int][]float64, map[string]records.Record) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	sort.Strings(files)
	seq := map[int][]float64{}
	byKey := map[string]records.Record{}
	for _, f := range files {
		recs, err := records.Read(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, rec := range recs {
			if _, dup := byKey[rec.Key()]; dup {
				t.Errorf("%s recorded twice", rec.Key())
			}
			rec.TrainSeconds = 0
			byKey[rec.Key()] = rec
			if !slices.Contains([]float64{0, 0.001, 1}, rec.Lambda) {
				seq[rec.Split] = append(seq[rec.Split], rec.Lambda)
			}
		}
	}
	return seq, byKey
}

// TestAdaptiveIsDeterministicAndResumable trains the same adaptive sweep with
// one worker, with two, and interrupted then resumed: the λs chosen, their
// order and every record agree.
func TestAdaptiveIsDeterministicAndResumable(t *testing.T) {
	c := adaptiveConfig()
	c.Workers = 1
	one := t.TempDir()
	sum, err := runAdaptive(t, c, one, 0)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Total != 12 || sum.Trained != 12 || sum.Failed != 0 {
		t.Fatalf("summary %+v, want 2 splits × 6 candidates trained", sum)
	}
	seq, want := sequences(t, one)
	for m := range 2 {
		if len(seq[m]) != 3 {
			t.Fatalf("split %d: adaptive λs %v, want 3", m, seq[m])
		}
		for _, l := range seq[m] {
			if !(l > 0 && l < 1) {
				t.Errorf("split %d: adaptive λ %v outside (0, 1)", m, l)
			}
		}
	}
	for _, rec := range want {
		if rec.TrainR <= 0 || rec.TrainU <= 0 {
			t.Errorf("%s: training R %v and U %v, want both measured", rec.Key(), rec.TrainR, rec.TrainU)
		}
	}
	t.Logf("adaptive λs: split 0 %v, split 1 %v", seq[0], seq[1])

	check := func(name, dir string) {
		t.Helper()
		gotSeq, got := sequences(t, dir)
		if !reflect.DeepEqual(gotSeq, seq) {
			t.Errorf("%s: adaptive λs %v, want %v", name, gotSeq, seq)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the records differ from those of one worker", name)
		}
	}

	c.Workers = 2
	two := t.TempDir()
	if _, err := runAdaptive(t, c, two, 0); err != nil {
		t.Fatal(err)
	}
	check("two workers", two)

	// Interrupted after 8 records, in the adaptive part of at least one
	// split, then resumed.
	resumed := t.TempDir()
	if _, err := runAdaptive(t, c, resumed, 8); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: err = %v, want context.Canceled", err)
	}
	if _, got := sequences(t, resumed); len(got) < 8 || len(got) >= 12 {
		t.Fatalf("interrupted run recorded %d candidates, want 8 to 11", len(got))
	}
	sum, err = runAdaptive(t, c, resumed, 0)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Total != 12 || sum.Resumed < 8 || sum.Resumed+sum.Trained != 12 {
		t.Errorf("resumed summary %+v", sum)
	}
	check("resumed", resumed)

	rep, err := experiments.Status(resumed, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Complete || rep.PerSplit != 6 || rep.Overall.Expected != 12 || len(rep.Unexpected) != 0 {
		t.Errorf("status: complete %v, per split %d, expected %d, unexpected %v", rep.Complete, rep.PerSplit, rep.Overall.Expected, rep.Unexpected)
	}
}

func TestAdaptiveGridRefused(t *testing.T) {
	for _, tc := range []struct{ method, lambdas string }{
		{"cheb", "adaptive:2"},
		{"cheb", "adaptive:many"},
		{"adversarial", "adaptive:8"},
	} {
		c := experiments.DefaultConfig()
		c.Method, c.Lambdas = tc.method, tc.lambdas
		err := c.Validate()
		var fe *experiments.FieldError
		if !errors.As(err, &fe) || fe.Field != "lambdas" {
			t.Errorf("%s %s: err = %v, want a *FieldError for lambdas", tc.method, tc.lambdas, err)
		}
	}
	c := experiments.DefaultConfig()
	for _, g := range []string{"adaptive:8", "adaptive:15"} {
		c.Lambdas = g
		if err := c.Validate(); err != nil {
			t.Errorf("%s: %v", g, err)
		}
	}
	a, b := experiments.DefaultConfig(), experiments.DefaultConfig()
	a.Lambdas, b.Lambdas = "adaptive:8", "adaptive:9"
	if a.Digest() == b.Digest() {
		t.Error("the adaptive grid's N does not enter the digest")
	}
}

// TestTrainingFiguresAgreeAcrossEngines: both engines record the same
// training R and U, the λ = 0 run's measured U included.
func TestTrainingFiguresAgreeAcrossEngines(t *testing.T) {
	var got [2][]records.Record
	for i, engine := range []string{"backprop", "graph"} {
		c := smallConfig()
		c.Splits, c.Lambdas, c.Epochs, c.Engine, c.Workers = 1, "0,0.3,1", 2, engine, 1
		dir := t.TempDir()
		if _, err := runAdaptive(t, c, dir, 0); err != nil {
			t.Fatal(err)
		}
		recs, err := records.Read(filepath.Join(dir, runfolder.RecordsFile(runfolder.Shard{})))
		if err != nil {
			t.Fatal(err)
		}
		sort.Slice(recs, func(a, b int) bool { return recs[a].Lambda < recs[b].Lambda })
		got[i] = recs
	}
	if len(got[0]) != 3 || len(got[1]) != 3 {
		t.Fatalf("%d and %d records, want 3 each", len(got[0]), len(got[1]))
	}
	for k := range got[0] {
		a, b := got[0][k], got[1][k]
		if !(a.TrainR > 0 && a.TrainU > 0) || math.Abs(a.TrainR-b.TrainR) > 1e-9*a.TrainR || math.Abs(a.TrainU-b.TrainU) > 1e-9*a.TrainU {
			t.Errorf("λ = %g: backprop R %v U %v, graph R %v U %v", a.Lambda, a.TrainR, a.TrainU, b.TrainR, b.TrainU)
		}
	}
}
