package experiments

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/scalarize"
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

// Memory estimate of a sweep, per network training at once: the weights,
// their gradient, Adam's two moments, the best weights kept for early
// stopping and the initial weights (6 copies of the parameters), and for
// each hidden unit and row of a batch its pre-activation, activation,
// dropout mask and gradient (4 values), all float64.
const (
	paramCopies     = 6
	activationFloat = 4
	floatBytes      = 8
)

// fallbackMemory is the memory assumed available where the system does
// not say (no /proc/meminfo): generous, so that it refuses only sweeps
// no workstation could hold.
const fallbackMemory = 64 << 30

// availableMemory returns the memory available to a new process, in bytes:
// MemAvailable of /proc/meminfo, else fallbackMemory. Tests replace it.
var availableMemory = func() uint64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return fallbackMemory
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return fallbackMemory
}

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

// checkMemory refuses a sweep whose networks training at once would need
// more memory than is available. The estimate is a floor: it counts the
// input layer as one column wide (the data, not read yet, is wider), the
// batch as the dataset's default only where that is known without the
// data, and each worker's networks only.
func (c Config) checkMemory() error {
	if c.Arch == "" {
		return nil
	}
	arch, err := model.ParseArch(c.Arch)
	if err != nil {
		return &FieldError{Field: "arch", Err: err}
	}
	L, H := float64(arch.Layers), float64(arch.Hidden)
	params := archParams(L, H)
	batch := c.Batch
	if batch == 0 {
		switch c.Dataset {
		case "compas":
			batch = 150
		case "adult-sex", "adult-race":
			batch = 1000
		}
	}
	workers := c.Workers
	if workers == 0 {
		workers = runtime.NumCPU()
	}
	workers = max(workers, 1)
	// Networks in memory at once: one per worker, no more than the sweep
	// has; in lockstep, a split's group of λ values (all but 0 and 1) per
	// worker, no more workers than splits.
	nets, fewer := workers, "fewer --workers"
	if n, ok := gridSize(c.Lambdas); ok && c.Splits > 0 {
		nets = min(workers, c.Splits*n)
		if c.Lockstep {
			nets = min(workers, c.Splits) * max(2, n-2)
			fewer = "fewer --workers, or --lockstep=false"
		}
	}
	perNet := floatBytes * (paramCopies*params + activationFloat*float64(max(batch, 0))*H*(L-1))
	need, avail := float64(nets)*perNet, availableMemory()
	if need > float64(avail) {
		return &FieldError{Field: "arch", Err: fmt.Errorf("%w: %s needs at least %s (%d networks at once, %s each), more than the %s available; give a smaller --arch, a smaller --batch or %s",
			errMemory, c.Arch, gib(need), nets, gib(perNet), gib(float64(avail)), fewer)}
	}
	return nil
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
