package experiments

import (
	"errors"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// Each engine's memory estimate of a trainer (train.TrainerBytes, with its
// batch) covers what the trainer really holds after a gradient step, and
// by no more than half again, for shallow and deep networks.
func TestTrainerBytesMatchesAllocations(t *testing.T) {
	c := DefaultConfig()
	c.Dataset = "compas"
	pen, err := c.penalty()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"backprop", "graph"} {
		e, err := EngineByName(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, arch := range []model.Arch{{Layers: 2, Hidden: 1000}, {Layers: 3, Hidden: 400}} {
			const dim, size = 12, 150
			spec := train.Spec{Arch: arch, Dim: dim, BatchSize: size, Dropout: 0.1,
				Init:      model.Init(arch, dim, rand.New(rand.NewPCG(1, 2))),
				Objective: scalarize.Objective{Method: scalarize.Chebyshev, Lambda: 0.5, Std: scalarize.Standardizer{RMax: 1, UMax: 1}},
				Penalty:   pen}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			tr, err := e.NewTrainer(spec)
			if err != nil {
				t.Fatal(err)
			}
			b := train.NewBatch(size, dim, arch.HiddenLayers(), arch.Hidden, spec.Inputs()...)
			for i := range size {
				b.Y[i], b.A[i], b.W[i], b.SW[i] = float64(i%2), float64(i/2%2), 1, 1
			}
			b.N = size
			for _, m := range b.Masks {
				model.FillMask(nil, m, 0)
			}
			if _, err := tr.Gradient(b); err != nil {
				t.Fatal(err)
			}
			runtime.ReadMemStats(&after)
			runtime.KeepAlive(tr)
			real := float64(after.HeapInuse - before.HeapInuse)
			est := train.TrainerBytes(e, spec) + train.BatchBytes(spec)
			if real > 1.1*est || est > 1.6*real {
				t.Errorf("%s %v: holds %.1f MB, estimated %.1f MB", name, arch, real/1e6, est/1e6)
			}
		}
	}
}

// The rows of bad input: networks whose estimate passes the limit are
// refused in one line that says the estimate, the limit and what sets it,
// and what to change; the estimate counts the evaluator's block, not only
// the training batch (2×30000 passed at 0.3 GB and used 3 GB).
func TestMemoryRefusalsNameTheLimit(t *testing.T) {
	withMemory(t, 3<<30)
	for _, arch := range []string{"2x30000", "2x100000", "2x1000000"} {
		c := DefaultConfig()
		c.Dataset, c.Splits, c.Lambdas, c.Epochs, c.Arch, c.Engine, c.Workers = "compas", 1, "0,1", 1, arch, "backprop", 2
		err := c.Validate()
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != "arch" || !tooBigForMemory(err) || !strings.Contains(err.Error(), "the test's limit") ||
			!strings.Contains(err.Error(), "smaller --arch") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: err = %v", arch, err)
		}
	}
	m, err := func() (Memory, error) {
		c := DefaultConfig()
		c.Dataset, c.Splits, c.Lambdas, c.Arch, c.Engine, c.Workers = "compas", 1, "0,1", "2x30000", "backprop", 2
		return c.memory(12, 6172, 600)
	}()
	// Two networks, each a trainer of 150 rows and an evaluator of 600,
	// 5 values per row and hidden unit, are 2 × 8 × 5 × 750 × 30000 bytes.
	if err != nil || m.Need < 2*8*5*750*30000 {
		t.Errorf("2x30000 on COMPAS: estimate %v, %v", m, err)
	}
}

// The limit is the least of what the system reports; never more than the
// memory the system has available.
func TestMemoryLimitWithinMemAvailable(t *testing.T) {
	kb, ok := procField("/proc/meminfo", "MemAvailable:")
	if !ok {
		t.Skip("no /proc/meminfo")
	}
	if v, by := MemoryLimit(); v <= 0 || v > kb*1024 || by == "" {
		t.Errorf("MemoryLimit = %v (%s), MemAvailable %v", v, by, kb*1024)
	}
}
