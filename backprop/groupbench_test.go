package backprop_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/fpareto/fp/backprop"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// BenchmarkLockstep trains the 13 inner candidates of a log:15 grid at
// the COMPAS shape (3,086 training rows, 12 inputs, 4x4, batch 150,
// dropout 0.2) for five epochs, in lockstep and one network after another
// (the default mode), each with its mode's masks. ns/net-step is the time per network and step:
// compare the two sub-benchmarks. Run with GOMAXPROCS=1 for one core.
func BenchmarkLockstep(b *testing.B) {
	const n, dim, members = 3086, 12, 13
	arch := model.Arch{Layers: 4, Hidden: 4}
	d := randomData(rand.New(rand.NewPCG(1, 2)), n, dim)
	specs := make([]train.Spec, members)
	for k := range specs {
		obj := objective(scalarize.Chebyshev, float64(k+1)/(members+1))
		specs[k] = train.Spec{Arch: arch, Dim: dim, BatchSize: 150, Dropout: 0.2,
			Init: model.Init(arch, dim, rand.New(rand.NewPCG(3, uint64(k)))), Objective: obj, Penalty: penalties.ATOPenultimate}
	}
	plateau := optim.DefaultPlateau
	opt := train.Options{Epochs: 5, Adam: optim.DefaultAdam, Plateau: &plateau}
	steps := float64(opt.Epochs * members * ((n + 149) / 150))
	report := func(b *testing.B, cpu0 time.Duration) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/steps, "ns/net-step")
		b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N)/steps, "cpu-ns/net-step")
	}
	b.Run("lockstep", func(b *testing.B) {
		g, err := backprop.NewGroup(specs)
		if err != nil {
			b.Fatal(err)
		}
		opts := make([]train.Options, members)
		rngs := make([]*rand.Rand, members)
		for k := range opts {
			opts[k], rngs[k] = opt, rand.New(rand.NewPCG(5, uint64(k)))
			opts[k].BlockMasks = true // as lockstep runs draw them
		}
		order := rand.New(rand.NewPCG(7, 7))
		cpu0 := cpuTime()
		for b.Loop() {
			if _, err := train.FitGroup(context.Background(), g, d, opts, order, rngs, train.Checkpoints{}); err != nil {
				b.Fatal(err)
			}
		}
		report(b, cpu0)
	})
	b.Run("alone", func(b *testing.B) {
		trs := make([]*backprop.Trainer, members)
		for k, s := range specs {
			var err error
			if trs[k], err = backprop.New(s); err != nil {
				b.Fatal(err)
			}
		}
		rng := rand.New(rand.NewPCG(5, 5))
		cpu0 := cpuTime()
		for b.Loop() {
			for _, tr := range trs {
				if _, err := train.Fit(context.Background(), tr, d, opt, rng); err != nil {
					b.Fatal(err)
				}
			}
		}
		report(b, cpu0)
	})
}
