package experiments

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"

	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/scalarize"
	"github.com/fpareto/fp/train"
)

// MaxLambdas is the most λ values a grid may have. Each is one network
// trained per split (and one record and network file); fronts of fp's
// methods are drawn well by 15 to 30 values, so a thousand is far past any
// use, and more is a typo (log:15000 for log:15) that would otherwise run
// for weeks, or allocate the grid before anything could refuse it.
const MaxLambdas = 1000

// MaxParams is the most parameters a network may have. fp trains small
// multilayer perceptrons on tables (10×32, about 10⁴ parameters, for
// Adult); at 10⁸ one step on a batch of 1,000 rows already costs about
// 10¹¹ floating-point operations, and a sweep would take months.
const MaxParams = 100_000_000

// baseMemory is what a sweep holds besides its networks and its data: the
// program, its runtime and the run's bookkeeping (measured: a 2×4 network
// on COMPAS peaks at 40 MB resident).
const baseMemory = 64 << 20

// dataCopies is how many float64 copies of the encoded data a sweep holds
// at once: the encoded table and its split's parts (measured: Adult's
// 45,222 rows × 104 inputs add about 70 MB over COMPAS).
const dataCopies = 3

// evalRowsFloor is the evaluation block assumed before the data is read:
// the smallest a split's parts give on fp's datasets.
const evalRowsFloor = 1000

// checkBounds refuses a λ grid of more than MaxLambdas values (before the
// grid is built) and a network of more than MaxParams parameters.
func (c Config) checkBounds() error {
	if n, ok := gridSize(c.Lambdas); ok && n > MaxLambdas {
		return fieldErr("lambdas", "%q has %d values, want at most %d (each is one network per split; 15 to 30 draw a front)", c.Lambdas, n, MaxLambdas)
	}
	if c.Arch == "" {
		return nil
	}
	return checkArch("arch", c.Arch)
}

// checkArch refuses, as field, an architecture that does not parse or has
// more than MaxParams parameters.
func checkArch(field, s string) error {
	arch, err := model.ParseArch(s)
	if err != nil {
		return &FieldError{Field: field, Err: err}
	}
	if params := archParams(float64(arch.Layers), float64(arch.Hidden)); params > MaxParams {
		return fieldErr(field, "%s has at least %.3g parameters per network, want at most %.0e (fp trains small networks on tables: 10x32 has about 10⁴)", s, params, float64(MaxParams))
	}
	return nil
}

// Memory is the estimate of what a sweep holds at its peak, and the limit
// it is held to.
type Memory struct {
	Need     float64 // bytes: Nets × PerNet + the data and the program
	PerNet   float64 // bytes of one network training: trainer, evaluator, batches, optimizer
	Nets     int     // networks training at once
	Limit    float64 // bytes the process may still use (MemoryLimit)
	LimitBy  string  // what sets Limit
	fewerMsg string
}

// String says the estimate and the limit in one phrase.
func (m Memory) String() string {
	return fmt.Sprintf("%s; %s available (%s)", m.need(), gib(m.Limit), m.LimitBy)
}

// SoftLimit is the Go heap limit (runtime/debug.SetMemoryLimit) that holds
// the sweep near its estimate: a quarter above it, never above the limit.
// Without it the collector lets a finished network's buffers stand while
// the next network allocates its own, up to twice the memory in use.
func (m Memory) SoftLimit() int64 {
	return int64(math.Min(1.25*m.Need, m.Limit))
}

func (m Memory) need() string {
	return fmt.Sprintf("about %s (%d networks at once, %s each)", gib(m.Need), m.Nets, gib(m.PerNet))
}

// memory estimates the sweep's memory on data of dim inputs and rows rows,
// whose parts are measured in blocks of evalRows (splitData.evalBlock),
// from what its engine says a trainer holds (train.TrainerBytes) for the
// training batch and for the evaluator's block, with their batches, Adam's
// two moments and the best and initial weights kept.
func (c Config) memory(dim, rows, evalRows int) (Memory, error) {
	arch, err := model.ParseArch(c.Arch)
	if err != nil {
		return Memory{}, &FieldError{Field: "arch", Err: err}
	}
	eng, err := EngineByName(c.Engine)
	if err != nil {
		return Memory{}, &FieldError{Field: "engine", Err: err}
	}
	batch := c.Batch
	if batch == 0 {
		switch c.Dataset {
		case "compas":
			batch = 150
		case "adult-sex", "adult-race":
			batch = 1000
		}
	}
	batch = max(batch, 1)
	if rows > 0 {
		batch = min(batch, rows)
	}
	workers := c.Workers
	if workers == 0 {
		workers = runtime.NumCPU()
	}
	workers = max(workers, 1)
	// Networks in memory at once: one per worker, no more than the sweep
	// has; in lockstep, a split's group of λ values (all but 0 and 1) per
	// worker, no more workers than splits.
	m := Memory{Nets: workers, fewerMsg: "fewer --workers"}
	if n, ok := gridSize(c.Lambdas); ok && c.Splits > 0 {
		m.Nets = min(workers, c.Splits*n)
		if c.Lockstep {
			m.Nets = min(workers, c.Splits) * max(2, n-2)
			m.fewerMsg = "fewer --workers, or --lockstep=false"
		}
	}
	pen, err := c.penalty()
	if err != nil {
		pen = nil // Validate names the penalty's own error
	}
	spec := train.Spec{Arch: arch, Dim: dim, BatchSize: batch, Penalty: pen}
	eval := spec
	eval.BatchSize = max(evalRows, 1)
	m.PerNet = train.TrainerBytes(eng, spec) + train.BatchBytes(spec) +
		train.TrainerBytes(eng, eval) + train.BatchBytes(eval) +
		floatBytes*4*train.ParamCount(arch, dim) // Adam's moments, the best and the initial weights
	m.Need = float64(m.Nets)*m.PerNet + floatBytes*dataCopies*float64(rows)*float64(dim) + baseMemory
	m.Limit, m.LimitBy = memoryLimit()
	return m, nil
}

// floatBytes is the size of a float64.
const floatBytes = 8

// checkMemory refuses a sweep whose networks training at once would need
// more memory than the process may use (MemoryLimit). Before the data is
// read (Validate) the estimate is a floor: the input layer one column
// wide, the evaluation blocks evalRowsFloor rows; NewRunner checks again
// with the data's own sizes (checkMemoryOn).
func (c Config) checkMemory() error {
	if c.Arch == "" {
		return nil
	}
	_, err := c.checkMemoryOn(1, 0, evalRowsFloor)
	return err
}

// checkMemoryOn is checkMemory on data of dim inputs and rows rows measured
// in blocks of evalRows; it returns the estimate.
func (c Config) checkMemoryOn(dim, rows, evalRows int) (Memory, error) {
	m, err := c.memory(dim, rows, evalRows)
	if err != nil {
		return m, err
	}
	if m.Need > m.Limit {
		return m, &FieldError{Field: "arch", Err: fmt.Errorf("%w: %s needs %s, more than the %s available (%s); give a smaller --arch, a smaller --batch or %s",
			errMemory, c.Arch, m.need(), gib(m.Limit), m.LimitBy, m.fewerMsg)}
	}
	return m, nil
}

// errMemory marks a sweep refused for want of memory: a property of the
// machine at the time, not of the configuration.
var errMemory = errors.New("not enough memory")

// gridSize returns the number of λ values of the grid s without building
// it; false when s is not a grid (ParseGrid then says why).
func gridSize(s string) (int, bool) {
	s = strings.TrimSpace(s)
	for _, prefix := range []string{"log:", "linear:", scalarize.AdaptivePrefix} {
		if rest, ok := strings.CutPrefix(s, prefix); ok {
			n, err := strconv.Atoi(rest)
			return n, err == nil
		}
	}
	if s == "" {
		return 0, false
	}
	return strings.Count(s, ",") + 1, true
}

// gib writes a number of bytes in GiB.
func gib(b float64) string { return fmt.Sprintf("%.3g GiB", b/(1<<30)) }

// tooBigForMemory reports whether err refuses a sweep for want of memory.
func tooBigForMemory(err error) bool { return errors.Is(err, errMemory) }

// archParams is the number of parameters of an L×H network on inputs one
// column wide, a floor for any data: the input layer, L−2
// hidden-to-hidden layers and the output layer, weights and biases. It
// is a float64 so that absurd sizes do not overflow.
func archParams(L, H float64) float64 { return (H + H) + (L-2)*(H*H+H) + (H + 1) }
