package enginebench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fpareto/fp/backprop"
	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/graph"
	"github.com/fpareto/fp/train"
)

// SweepConfig says what sweep to time.
type SweepConfig struct {
	// Dataset is a built-in dataset, as in Config.
	Dataset string
	// Workers is the number of networks trained at once (≥ 1).
	Workers int
	// Networks is the number of networks in the sweep; 0 means 4 per worker.
	Networks int
	// Steps is the number of training steps per network; 0 means 50.
	Steps int
	// Engines are timed in this order; nil means the graph engine, then backprop.
	Engines []train.Engine
	// Seed fixes the networks, batch orders and masks.
	Seed uint64
	// Repeat is the number of times each sweep is timed; 0 means
	// DefaultRepeat.
	Repeat int
}

// SweepResult is one engine's sweep throughput, on Workers workers and on
// one worker, over the same networks.
type SweepResult struct {
	Dataset         string `json:"dataset"`
	Engine          string `json:"engine"`
	Arch            string `json:"arch"`
	Networks        int    `json:"networks"`
	StepsPerNetwork int    `json:"steps_per_network"`
	Workers         int    `json:"workers"`
	Repeats         int    `json:"repeats"`
	// The figures are medians over the repeats.
	Seconds        float64 `json:"seconds"`             // wall clock, Workers workers
	NetworksPerSec float64 `json:"networks_per_second"` // Workers workers
	OneWorkerSec   float64 `json:"one_worker_seconds"`
	Speedup        float64 `json:"speedup"` // one worker's time over Workers workers' time, repeat by repeat
	// The spreads give the median, minimum and maximum over the repeats.
	SecondsSpread   Spread `json:"seconds_spread"`
	OneWorkerSpread Spread `json:"one_worker_seconds_spread"`
	SpeedupSpread   Spread `json:"speedup_spread"`
}

// Sweep times a sweep as fp front runs one: Networks networks, each built
// (trainer and Adam) and trained for Steps steps of the Chebyshev +
// ato-penultimate objective on shuffled batches, taken by Workers workers
// in goroutines of their own. Each engine first trains one network untimed
// (a warm-up), then runs the sweep on one worker and on Workers, Repeat
// times, alternating which goes first so that a slow spell of the machine
// does not fall on one of them only; the speed-up of a repeat is the ratio
// of its two wall-clock times, and each figure is the median over the
// repeats.
func Sweep(ctx context.Context, cfg SweepConfig) ([]SweepResult, error) {
	sh, ok := shapes[cfg.Dataset]
	if !ok {
		return nil, fmt.Errorf("bench: dataset %q: want compas, adult-sex or adult-race", cfg.Dataset)
	}
	if cfg.Workers < 1 || cfg.Networks < 0 || cfg.Steps < 0 {
		return nil, fmt.Errorf("bench: sweep of %d networks × %d steps on %d workers: want ≥ 1 worker and no negative counts",
			cfg.Networks, cfg.Steps, cfg.Workers)
	}
	repeat, err := repeats(cfg.Repeat)
	if err != nil {
		return nil, err
	}
	networks, steps := cfg.Networks, cfg.Steps
	if networks == 0 {
		networks = 4 * cfg.Workers
	}
	if steps == 0 {
		steps = 50
	}
	engines := cfg.Engines
	if engines == nil {
		engines = []train.Engine{graph.Engine{}, backprop.Engine{}}
	}
	d, err := datasets.Load(cfg.Dataset, datasets.Options{})
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	data := trainingData(d)
	var out []SweepResult
	for _, eng := range engines {
		if err := trainNetwork(eng, data, sh, steps, cfg.Seed, uint64(networks)); err != nil {
			return out, fmt.Errorf("bench: %s engine warm-up: %w", eng.Name(), err)
		}
		var one, many, speedup []float64
		for r := range repeat {
			var t1, tn time.Duration
			runs := 2
			if cfg.Workers == 1 {
				runs = 1 // one worker is the whole comparison
			}
			for k := range runs {
				// Even repeats time one worker first, odd ones Workers first.
				w := 1
				if (k == 0) != (r%2 == 0) {
					w = cfg.Workers
				}
				t, err := sweepOnce(ctx, eng, data, sh, networks, steps, w, cfg.Seed)
				if err != nil {
					return out, fmt.Errorf("bench: %s engine sweep on %d workers: %w", eng.Name(), w, err)
				}
				if w == 1 && t1 == 0 {
					t1 = t
				} else {
					tn = t
				}
			}
			if runs == 1 {
				tn = t1
			}
			one = append(one, t1.Seconds())
			many = append(many, tn.Seconds())
			speedup = append(speedup, t1.Seconds()/tn.Seconds())
		}
		sOne, sMany, sUp := spreadOf(one), spreadOf(many), spreadOf(speedup)
		out = append(out, SweepResult{
			Dataset: cfg.Dataset, Engine: eng.Name(), Arch: sh.arch.String(),
			Networks: networks, StepsPerNetwork: steps, Workers: cfg.Workers, Repeats: repeat,
			Seconds: sMany.Median, NetworksPerSec: float64(networks) / sMany.Median,
			OneWorkerSec: sOne.Median, Speedup: sUp.Median,
			SecondsSpread: sMany, OneWorkerSpread: sOne, SpeedupSpread: sUp,
		})
	}
	return out, nil
}

// sweepOnce trains the sweep's networks on workers goroutines and returns
// the wall-clock time.
func sweepOnce(ctx context.Context, eng train.Engine, d train.Data, sh shape, networks, steps, workers int, seed uint64) (time.Duration, error) {
	var next atomic.Int64
	errs := make([]error, workers)
	var wg sync.WaitGroup
	t0 := time.Now()
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= networks || ctx.Err() != nil {
					return
				}
				if err := trainNetwork(eng, d, sh, steps, seed, uint64(i)); err != nil {
					errs[w] = fmt.Errorf("network %d: %w", i+1, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(t0)
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	for _, err := range errs {
		if err != nil {
			return 0, err
		}
	}
	return elapsed, nil
}

// trainNetwork builds network i of the sweep and trains it for steps steps.
func trainNetwork(eng train.Engine, d train.Data, sh shape, steps int, seed, i uint64) error {
	s, step, err := newStepper(eng, d, sh, rand.New(rand.NewPCG(seed, i)))
	if err != nil {
		return err
	}
	for range steps {
		s.next()
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}
