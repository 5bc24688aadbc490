package experiments

import (
	"math/rand/v2"

	"github.com/fpareto/fp/runfolder"
)

// newRand returns the generator of one stream of the sweep
// (runfolder.NewRand): seeded from the sweep's seed and what it is for.
func newRand(seed uint64, purpose string, split int, method string, lambda float64) *rand.Rand {
	return runfolder.NewRand(seed, purpose, split, method, lambda)
}
