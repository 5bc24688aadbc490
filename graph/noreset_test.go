package graph

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"unsafe"

	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

func rewind(vm any) {
	f := reflect.ValueOf(vm).Elem().FieldByName("pc")
	*(*int)(unsafe.Pointer(f.UnsafeAddr())) = 0
}

func BenchmarkNoReset(b *testing.B) {
	for _, bc := range []struct {
		name       string
		arch       model.Arch
		batch, dim int
	}{
		{"compas", model.Arch{Layers: 4, Hidden: 4}, 150, 12},
		{"adult", model.Arch{Layers: 10, Hidden: 32}, 1000, 93},
	} {
		for _, noreset := range []bool{false, true} {
			name := bc.name
			if noreset {
				name += "-noreset"
			}
			b.Run(name, func(b *testing.B) {
				rng := rand.New(rand.NewPCG(1, 2))
				d := synth(rng, bc.batch, bc.dim)
				spec := train.Spec{Arch: bc.arch, Dim: bc.dim, BatchSize: bc.batch, Dropout: 0.2,
					Init: model.Init(bc.arch, bc.dim, rng),
					Objective: scalarize.Objective{Method: scalarize.Chebyshev, Lambda: 0.3,
						Std: scalarize.Standardizer{RMin: 0.3, RMax: 0.9, UMin: 0, UMax: 1}},
					Penalty: fairness.ATOPenultimate}
				tr, _ := New(spec)
				batch := batchOf(d, bc.batch, bc.batch, bc.arch, 0.2, rng)
				var sizes []int
				for _, p := range tr.Params() {
					sizes = append(sizes, len(p))
				}
				adam, _ := optim.NewAdam(optim.DefaultAdam, sizes)
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					copy(tr.feedX, batch.X)
					for l, m := range tr.feedMasks {
						copy(m, batch.Masks[l])
					}
					for _, f := range tr.feeds {
						copy(f.data, field(batch, f.field))
					}
					if err := tr.trainVM.RunAll(); err != nil {
						b.Fatal(err)
					}
					if noreset {
						rewind(tr.trainVM)
					} else {
						tr.trainVM.Reset()
					}
					adam.Step(tr.Params(), tr.Grads())
				}
			})
		}
	}
}

func TestNoResetSame(t *testing.T) {
	for _, pen := range []fairness.Penalty{fairness.ATOAll, fairness.ATOPenultimate, probGap} {
		for _, arch := range []model.Arch{{Layers: 4, Hidden: 4}, {Layers: 3, Hidden: 7}, {Layers: 2, Hidden: 1}} {
			rng := rand.New(rand.NewPCG(1, 2))
			d := synth(rng, 200, 6)
			spec := train.Spec{Arch: arch, Dim: 6, BatchSize: 32, Dropout: 0.2,
				Init: model.Init(arch, 6, rng),
				Objective: scalarize.Objective{Method: scalarize.Chebyshev, Lambda: 0.3,
					Std: scalarize.Standardizer{RMin: 0.3, RMax: 0.9, UMin: 0, UMax: 0.2}},
				Penalty: pen}
			a, _ := New(spec)
			bb, _ := New(spec)
			var sizes []int
			for _, p := range a.Params() {
				sizes = append(sizes, len(p))
			}
			adA, _ := optim.NewAdam(optim.DefaultAdam, sizes)
			adB, _ := optim.NewAdam(optim.DefaultAdam, sizes)
			batch := train.NewBatch(32, 6, arch.HiddenLayers(), arch.Hidden)
			for step := 0; step < 300; step++ {
				n := 1 + rng.IntN(32)
				idx := rng.Perm(200)[:n]
				batch.Fill(d, idx)
				for _, m := range batch.Masks {
					model.FillMask(rng, m, 0.2)
				}
				la, err := a.Gradient(batch)
				if err != nil {
					t.Fatal(err)
				}
				copy(bb.feedX, batch.X)
				for l, m := range bb.feedMasks {
					copy(m, batch.Masks[l])
				}
				for _, f := range bb.feeds {
					copy(f.data, field(batch, f.field))
				}
				if err := bb.trainVM.RunAll(); err != nil {
					t.Fatal(err)
				}
				rewind(bb.trainVM)
				ob, _ := scalar(bb.objV)
				if ob != la.Objective || relDiff(a.Grads(), bb.Grads()) != 0 {
					t.Fatalf("%s %v step %d: %v vs %v", pen.Name(), arch, step, la.Objective, ob)
				}
				adA.Step(a.Params(), a.Grads())
				adB.Step(bb.Params(), bb.Grads())
			}
		}
	}
}
