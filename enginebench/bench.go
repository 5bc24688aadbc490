package enginebench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"time"

	"github.com/fpareto/fp/backprop"
	"github.com/fpareto/fp/datasets"
	"github.com/fpareto/fp/graph"
	"github.com/fpareto/fp/internal/gemm"
	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/optim"
	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// Config says what to time.
type Config struct {
	// Dataset is a built-in dataset ("compas", "adult-sex", "adult-race");
	// its default network and batch size (docs/method.md §2) are used.
	Dataset string
	// Steps is the number of timed steps per engine. 0 means as many as
	// fit in Budget.
	Steps int
	// Budget is the time each engine runs for when Steps is 0; 0 means 1 s.
	Budget time.Duration
	// Engines are timed in this order; nil means the graph engine, then backprop.
	Engines []train.Engine
	// Seed fixes the initial network, the batch order and the masks.
	Seed uint64
	// Repeat is the number of times each engine is timed (Steps steps, or
	// Budget / Repeat, each time); 0 means DefaultRepeat.
	Repeat int
}

// Result is one engine's figures. Every engine of a run took the same
// steps (the faster one may take more of them in a time budget).
type Result struct {
	Dataset   string  `json:"dataset"`
	Engine    string  `json:"engine"`
	Arch      string  `json:"arch"`
	Batch     int     `json:"batch"`
	Steps     int     `json:"steps"`       // timed steps per repeat (the fewest of any repeat in a time budget)
	Repeats   int     `json:"repeats"`     // times the engine was timed
	USPerStep float64 `json:"us_per_step"` // wall-clock µs per step: the median over the repeats
	// USPerStepSpread is the median, minimum and maximum µs per step over
	// the repeats.
	USPerStepSpread Spread  `json:"us_per_step_spread"`
	AllocsPerStep   float64 `json:"allocs_per_step"` // heap allocations per step
	BytesPerStep    float64 `json:"bytes_per_step"`  // heap bytes allocated per step
	GOMAXPROCS      int     `json:"gomaxprocs"`
	BLAS            string  `json:"blas"` // "gonum" (pure Go) or "openblas" (the blas build tag)
	// Kernel is fp's matrix kernel the wide products use instead of the
	// BLAS ("avx512-fma", "avx2-fma"), "" where the CPU or the build has none.
	Kernel string `json:"kernel"`
}

// shape is a dataset's default network and batch size (docs/method.md §2).
type shape struct {
	arch  model.Arch
	batch int
}

var shapes = map[string]shape{
	"compas":     {model.Arch{Layers: 4, Hidden: 4}, 150},
	"adult-sex":  {model.Arch{Layers: 10, Hidden: 32}, 1000},
	"adult-race": {model.Arch{Layers: 10, Hidden: 32}, 1000},
}

// The timed step's objective: Chebyshev with the penultimate-layer ATO
// penalty and dropout, the default of `fp train`. The standardization
// constants are fixed, plausible values; they do not change the work.
var (
	dropout   = 0.2
	objective = scalarize.Objective{Method: scalarize.Chebyshev, Lambda: 0.5,
		Std: scalarize.Standardizer{RMin: 0.3, RMax: 0.8, UMin: 0, UMax: 0.5}}
)

// Run times one training step — Gradient of the Chebyshev + ato-penultimate
// objective with dropout masks, then an Adam update — of each engine on the
// dataset's rows, standardized, in shuffled batches as train.Fit walks them.
// Building the trainer and filling batches are not timed; a few untimed
// steps warm each engine up. Each engine is timed Repeat times, the engines
// taking turns, so that a slow spell of the machine falls on both; the
// figure is the median over the repeats.
func Run(ctx context.Context, cfg Config) ([]Result, error) {
	sh, ok := shapes[cfg.Dataset]
	if !ok {
		return nil, fmt.Errorf("bench: dataset %q: want compas, adult-sex or adult-race", cfg.Dataset)
	}
	if cfg.Steps < 0 {
		return nil, fmt.Errorf("bench: steps = %d, want ≥ 0 (0: as many as fit in the time budget)", cfg.Steps)
	}
	repeat, err := repeats(cfg.Repeat)
	if err != nil {
		return nil, err
	}
	budget := cfg.Budget
	if budget <= 0 {
		budget = time.Second
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
	timers := make([]*timer, len(engines))
	for i, eng := range engines {
		if timers[i], err = newTimer(eng, data, sh, cfg.Seed); err != nil {
			return nil, fmt.Errorf("bench: %s engine on %s: %w", eng.Name(), cfg.Dataset, err)
		}
	}
	for range repeat {
		for i, t := range timers {
			if err := t.time(ctx, cfg.Steps, budget/time.Duration(repeat)); err != nil {
				return nil, fmt.Errorf("bench: %s engine on %s: %w", engines[i].Name(), cfg.Dataset, err)
			}
		}
	}
	out := make([]Result, len(timers))
	for i, t := range timers {
		out[i] = t.result(engines[i], sh)
		out[i].Dataset = cfg.Dataset
	}
	return out, nil
}

// trainingData standardizes every row of d. Overlap weights are a constant
// ½: their values do not change the cost of a step, and a propensity model
// would only lengthen the run.
func trainingData(d *datasets.Dataset) train.Data {
	rows := make([]int, d.N)
	for i := range rows {
		rows[i] = i
	}
	x := datasets.FitStandardizer(d, rows).Apply(d, rows)
	w := make([]float64, d.N)
	for i := range w {
		w[i] = 0.5
	}
	return train.Data{X: x, N: d.N, Dim: d.Dim, Y: d.Y, A: d.A, W: w}
}

// warmUp is the number of untimed steps before the first timed one: the
// first steps of an engine fill its caches and buffers.
const warmUp = 3

// timer times one engine's steps, repeat after repeat, on one stream of
// batches.
type timer struct {
	s       *stream
	step    func() error
	us      []float64 // µs per step of each repeat
	steps   int       // timed steps in all
	fewest  int       // timed steps of the shortest repeat
	mallocs uint64
	bytes   uint64
}

func newTimer(eng train.Engine, d train.Data, sh shape, seed uint64) (*timer, error) {
	rng := rand.New(rand.NewPCG(seed, 0x62656e6368)) // the same stream for every engine
	s, step, err := newStepper(eng, d, sh, rng)
	if err != nil {
		return nil, err
	}
	for range warmUp {
		s.next()
		if err := step(); err != nil {
			return nil, err
		}
	}
	return &timer{s: s, step: step}, nil
}

// time runs one repeat: steps timed steps, or (steps = 0) as many as fit in
// budget, at least 3.
func (t *timer) time(ctx context.Context, steps int, budget time.Duration) error {
	runtime.GC() // the previous repeat's garbage is not this one's cost
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var spent time.Duration
	n := 0
	for (steps > 0 && n < steps) || (steps == 0 && (n < 3 || spent < budget)) {
		if err := ctx.Err(); err != nil {
			return err
		}
		t.s.next()
		t0 := time.Now()
		if err := t.step(); err != nil {
			return err
		}
		spent += time.Since(t0)
		n++
	}
	runtime.ReadMemStats(&after)
	t.us = append(t.us, float64(spent.Nanoseconds())/1e3/float64(n))
	if t.fewest == 0 || n < t.fewest {
		t.fewest = n
	}
	t.steps += n
	t.mallocs += after.Mallocs - before.Mallocs
	t.bytes += after.TotalAlloc - before.TotalAlloc
	return nil
}

func (t *timer) result(eng train.Engine, sh shape) Result {
	sp := spreadOf(t.us)
	return Result{
		Engine: eng.Name(), Arch: sh.arch.String(), Batch: sh.batch, Steps: t.fewest, Repeats: len(t.us),
		USPerStep: sp.Median, USPerStepSpread: sp,
		AllocsPerStep: float64(t.mallocs) / float64(t.steps),
		BytesPerStep:  float64(t.bytes) / float64(t.steps),
		GOMAXPROCS:    runtime.GOMAXPROCS(0),
		BLAS:          blasOf(eng),
		Kernel:        kernelOf(eng),
	}
}

// newStepper builds one benchmark network on eng (its initial weights
// from rng), its Adam and a stream of batches (drawn from rng as well), and
// returns the stream and a function taking one training step on the
// stream's current batch.
func newStepper(eng train.Engine, d train.Data, sh shape, rng *rand.Rand) (*stream, func() error, error) {
	spec := train.Spec{Arch: sh.arch, Dim: d.Dim, BatchSize: sh.batch, Dropout: dropout,
		Init: model.Init(sh.arch, d.Dim, rng), Objective: objective, Penalty: penalties.ATOPenultimate}
	tr, err := eng.NewTrainer(spec)
	if err != nil {
		return nil, nil, err
	}
	params, grads := tr.Params(), tr.Grads()
	adam, err := optim.NewAdamFor(optim.DefaultAdam, params)
	if err != nil {
		return nil, nil, err
	}
	s := newStream(d, sh, spec.Inputs(), rng)
	step := func() error {
		if _, err := tr.Gradient(s.b); err != nil {
			return err
		}
		adam.Step(params, grads)
		return nil
	}
	return s, step, nil
}

// blasOf names the BLAS behind an engine's matrix products, "" if unknown.
func blasOf(eng train.Engine) string {
	switch eng.(type) {
	case graph.Engine:
		return graph.BLAS()
	case backprop.Engine:
		return backprop.BLAS()
	}
	return ""
}

// kernelOf names fp's matrix kernel if the engine uses it: both do, with
// every BLAS, on CPUs that have it.
func kernelOf(eng train.Engine) string {
	switch eng.(type) {
	case graph.Engine, backprop.Engine:
		return gemm.Name()
	}
	return ""
}

// stream walks the rows in shuffled batches with fresh dropout masks, epoch
// after epoch, as train.Fit does; it allocates nothing, so the allocations
// counted are the engines' own.
type stream struct {
	d     train.Data
	b     *train.Batch
	perm  []int
	start int
	rng   *rand.Rand
}

func newStream(d train.Data, sh shape, inputs []train.Input, rng *rand.Rand) *stream {
	s := &stream{d: d, b: train.NewBatch(sh.batch, d.Dim, sh.arch.HiddenLayers(), sh.arch.Hidden, inputs...),
		perm: make([]int, d.N), start: d.N, rng: rng}
	for i := range s.perm {
		s.perm[i] = i
	}
	return s
}

func (s *stream) next() {
	if s.start >= s.d.N {
		for i := len(s.perm) - 1; i > 0; i-- { // Fisher–Yates, without rand.Shuffle's closure
			j := s.rng.IntN(i + 1)
			s.perm[i], s.perm[j] = s.perm[j], s.perm[i]
		}
		s.start = 0
	}
	end := min(s.start+s.b.Size, s.d.N)
	s.b.Fill(s.d, s.perm[s.start:end])
	s.start = end
	for _, m := range s.b.Masks {
		model.FillMask(s.rng, m, dropout)
	}
}
