package experiments

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strconv"
)

// newRand returns a generator seeded from the sweep's seed and the identity
// of what it is for (a purpose and its coordinates). Every stream of a run is
// derived this way, never from global state, so results do not depend on the
// order in which workers pick up work.
func newRand(seed uint64, purpose string, split int, method string, lambda float64) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(purpose))
	h.Write([]byte{0})
	h.Write([]byte(strconv.Itoa(split)))
	h.Write([]byte{0})
	h.Write([]byte(method))
	h.Write([]byte{0})
	h.Write([]byte(strconv.FormatUint(math.Float64bits(lambda), 16)))
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}
