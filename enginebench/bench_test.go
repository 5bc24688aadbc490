package enginebench_test

import (
	"context"
	"testing"

	"github.com/fpareto/fp/backprop"
	"github.com/fpareto/fp/enginebench"
	"github.com/fpareto/fp/train"
)

func TestRunReportsEveryEngine(t *testing.T) {
	res, err := enginebench.Run(context.Background(), enginebench.Config{Dataset: "compas", Steps: 5, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 || res[0].Engine != "graph" || res[1].Engine != "backprop" {
		t.Fatalf("results %+v, want graph then backprop", res)
	}
	for _, r := range res {
		if r.Dataset != "compas" || r.Steps != 5 || r.Arch != "4x4" || r.Batch != 150 || !(r.USPerStep > 0) || r.GOMAXPROCS < 1 || r.BLAS == "" {
			t.Errorf("implausible result %+v", r)
		}
	}
	if res[1].AllocsPerStep != 0 {
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
