package enginebench_test

import (
	"context"
	"testing"

	"github.com/fpareto/fp/backprop"
	"github.com/fpareto/fp/enginebench"
	"github.com/fpareto/fp/train"
)

func TestRunReportsEveryEngine(t *testing.T) {
	res, err := enginebench.Run(context.Background(), enginebench.Config{Dataset: "compas", Steps: 20, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 || res[0].Engine != "graph" || res[1].Engine != "backprop" {
		t.Fatalf("results %+v, want graph then backprop", res)
	}
	for _, r := range res {
		if r.Dataset != "compas" || r.Steps != 20 || r.Arch != "4x4" || r.Batch != 150 || !(r.USPerStep > 0) || r.GOMAXPROCS < 1 || r.BLAS == "" {
			t.Errorf("implausible result %+v", r)
		}
		sp := r.USPerStepSpread
		if r.Repeats != enginebench.DefaultRepeat || sp.Median != r.USPerStep || !(sp.Min > 0 && sp.Min <= sp.Median && sp.Median <= sp.Max) {
			t.Errorf("%s: %d repeats, µs/step %v, spread %+v: want %d repeats, the median inside the range",
				r.Engine, r.Repeats, r.USPerStep, sp, enginebench.DefaultRepeat)
		}
	}
	// The heap counters are the process's: the runtime's own background
	// work (a GC cycle's mark workers, the scavenger's timer) may add an
	// allocation or two to a run, but not one per step.
	if res[1].AllocsPerStep >= 0.5 {
		t.Errorf("backprop allocated %v times per step, want 0", res[1].AllocsPerStep)
	}
	if !(res[0].AllocsPerStep > 0) {
		t.Errorf("graph allocated %v times per step; the count is not working", res[0].AllocsPerStep)
	}
}

func TestRunBudget(t *testing.T) {
	res, err := enginebench.Run(context.Background(), enginebench.Config{
		Dataset: "compas", Budget: 1, Engines: []train.Engine{backprop.Engine{}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].Steps != 3 {
		t.Errorf("a 1 ns budget ran %+v, want the minimum of 3 steps", res)
	}
}

func TestRunRepeat(t *testing.T) {
	res, err := enginebench.Run(context.Background(), enginebench.Config{
		Dataset: "compas", Steps: 2, Repeat: 3, Engines: []train.Engine{backprop.Engine{}}})
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Repeats != 3 || res[0].Steps != 2 {
		t.Errorf("got %d repeats of %d steps, want 3 of 2", res[0].Repeats, res[0].Steps)
	}
	if _, err := enginebench.Run(context.Background(), enginebench.Config{Dataset: "compas", Steps: 1, Repeat: -1}); err == nil {
		t.Error("repeat −1 accepted")
	}
}

func TestRunErrors(t *testing.T) {
	for _, cfg := range []enginebench.Config{
		{Dataset: "mnist", Steps: 1},
		{Dataset: "compas", Steps: -1},
	} {
		if _, err := enginebench.Run(context.Background(), cfg); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := enginebench.Run(ctx, enginebench.Config{Dataset: "compas", Steps: 2}); err == nil {
		t.Error("a cancelled context ran to the end")
	}
}

func TestSweep(t *testing.T) {
	res, err := enginebench.Sweep(context.Background(), enginebench.SweepConfig{
		Dataset: "compas", Workers: 2, Networks: 3, Steps: 4, Seed: 1, Repeat: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 || res[0].Engine != "graph" || res[1].Engine != "backprop" {
		t.Fatalf("results %+v, want graph then backprop", res)
	}
	for _, r := range res {
		if r.Networks != 3 || r.StepsPerNetwork != 4 || r.Workers != 2 || r.Arch != "4x4" ||
			!(r.Seconds > 0) || !(r.OneWorkerSec > 0) || !(r.NetworksPerSec > 0) || !(r.Speedup > 0) {
			t.Errorf("implausible result %+v", r)
		}
		if d := r.NetworksPerSec*r.Seconds - 3; d > 1e-9 || d < -1e-9 {
			t.Errorf("%s: %v networks/s over %v s is not 3 networks", r.Engine, r.NetworksPerSec, r.Seconds)
		}
		// The figures are medians over the repeats: the speed-up is the
		// median of each repeat's ratio, inside the range of the ratios.
		if r.Repeats != 3 || r.Seconds != r.SecondsSpread.Median || r.OneWorkerSec != r.OneWorkerSpread.Median ||
			r.Speedup != r.SpeedupSpread.Median || !(r.SpeedupSpread.Min <= r.Speedup && r.Speedup <= r.SpeedupSpread.Max) ||
			!(r.SecondsSpread.Min > 0) || !(r.OneWorkerSpread.Min > 0) {
			t.Errorf("%s: figures not the medians of 3 repeats: %+v", r.Engine, r)
		}
	}
}

func TestSweepErrors(t *testing.T) {
	for _, cfg := range []enginebench.SweepConfig{
		{Dataset: "mnist", Workers: 1},
		{Dataset: "compas", Workers: 0},
		{Dataset: "compas", Workers: 1, Steps: -1},
		{Dataset: "compas", Workers: 1, Networks: -1},
	} {
		if _, err := enginebench.Sweep(context.Background(), cfg); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := enginebench.Sweep(ctx, enginebench.SweepConfig{Dataset: "compas", Workers: 2, Networks: 4, Steps: 2}); err == nil {
		t.Error("a cancelled context ran to the end")
	}
}
