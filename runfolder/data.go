package runfolder

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/fpareto/fp/datasets"
)

// LoadDataset loads the data a config names.
func LoadDataset(c Config) (*datasets.Dataset, error) {
	cols := datasets.ColumnChoice{Features: c.Features, Exclude: c.Exclude}
	groups, err := GroupOptions(c.SensitiveLevels, c.MinGroupRows, c.GroupMap)
	if err != nil {
		return nil, err
	}
	if c.CSV != "" {
		return datasets.LoadCSV(c.CSV, datasets.CSVOptions{
			Target: c.Target, Sensitive: c.Sensitive, Positive: c.Positive,
			SensitivePositive: c.SensitivePositive, DropMissing: c.DropMissing, Columns: cols, Groups: groups,
		})
	}
	preset := c.Preset
	if preset == "" {
		preset = datasets.DefaultPreset(c.Dataset)
	}
	return datasets.Load(c.Dataset, datasets.Options{Preset: preset, DataDir: c.DataDir, Columns: cols, Groups: groups})
}

// GroupOptionsOf is GroupOptions of the flags' text: the two lists as
// ParseList reads them, an error naming the flag whose list is malformed.
func GroupOptionsOf(levels string, minRows int, groupMap string) (datasets.GroupOptions, error) {
	l, err := ParseList(levels)
	if err != nil {
		return datasets.GroupOptions{}, fmt.Errorf("--sensitive-levels %w", err)
	}
	m, err := ParseList(groupMap)
	if err != nil {
		return datasets.GroupOptions{}, fmt.Errorf("--group-map %w", err)
	}
	return GroupOptions(l, minRows, m)
}

// GroupOptions reads the settings of groups (--sensitive-levels,
// --min-group-rows, --group-map): levels ["all"] makes every value a group,
// any other list keeps those values; nil asks for no groups (unless a map
// is given, which asks for every group). groupMap holds VALUE=GROUP
// entries in order; one without "=" is refused.
func GroupOptions(levels []string, minRows int, groupMap []string) (datasets.GroupOptions, error) {
	g := datasets.GroupOptions{MinRows: minRows}
	switch {
	case len(levels) == 1 && levels[0] == "all":
		g.All = true
	case levels != nil:
		g.Levels = levels
	}
	var err error
	g.Map, err = datasets.ParseGroupMap(groupMap)
	return g, err
}

// SplitOf draws split m of d, as every command that needs it does: the
// sweep that trains on it and every reader that recomputes predictions
// from its stored networks. Its Test rows are those the test metrics are
// measured on: without the selection rows, when the run keeps some
// (PartsOf).
func SplitOf(c Config, d *datasets.Dataset, m int) (datasets.Split, error) {
	p, err := PartsOf(c, d, m)
	return p.Split, err
}

// NewRand returns a generator seeded from the sweep's seed and the identity
// of what it is for (a purpose and its coordinates). Every stream of a run is
// derived this way, never from global state, so results do not depend on the
// order in which workers pick up work. It lives here because a folder's
// splits are redrawn from it whenever its networks are scored again.
func NewRand(seed uint64, purpose string, split int, method string, lambda float64) *rand.Rand {
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
