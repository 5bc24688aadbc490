package model

import "runtime/debug"

// Card says where a stored network came from: the data, the method and its
// weight λ, the split and the seed, how it was trained, its metrics on the
// test rows of its split, the digest of the sweep configuration and the fp
// version that wrote it.
type Card struct {
	Dataset   string  `json:"dataset"`
	Preset    string  `json:"preset,omitempty"`
	Sensitive string  `json:"sensitive"`
	Method    string  `json:"method"`
	Penalty   string  `json:"penalty,omitempty"`
	Lambda    float64 `json:"lambda"`
	Split     int     `json:"split"`
	Seed      uint64  `json:"seed"`
	Engine    string  `json:"engine"`
	Epochs    int     `json:"epochs"`
	Test      Metrics `json:"test"`
	Config    string  `json:"config"`
	Version   string  `json:"fp_version"`
	// Conditioned marks a card of a λ-conditioned network (docs/method.md
	// §12), and of a plain network folded from one (File.At), whose Lambda
	// is then the λ it was folded at. The card of the conditioned file
	// itself has no meaningful Lambda, and its Test metrics are zero: they
	// differ with λ, and the records of the run hold them for each λ.
	Conditioned bool `json:"conditioned,omitempty"`
	// Levels name, in code order, the groups of a sensitive attribute of
	// R > 2 groups the network was trained on (docs/method.md §3.3), and
	// GroupColumns the columns they come from; both absent for two groups.
	// The test metrics dp, eo, eopp and ato are then the R-group ones.
	Levels       []string `json:"levels,omitempty"`
	GroupColumns []string `json:"group_columns,omitempty"`
	// GroupMap holds the --group-map entries (VALUE=GROUP, as the run's
	// config stores them) the groups were formed with, so that a row's
	// group can be formed again from its raw values
	// (datasets.NewGroupRule); absent for two groups and without a map.
	GroupMap []string `json:"group_map,omitempty"`
}

// Metrics are a network's metrics on a set of rows, as records hold them.
type Metrics struct {
	Risk     float64 `json:"risk"`
	Accuracy float64 `json:"accuracy"`
	ATO      float64 `json:"ato"`
	DP       float64 `json:"dp"`
	EO       float64 `json:"eo"`
	EOpp     float64 `json:"eopp"`
}

// stamp is the version `make build` writes into the binary
// (-ldflags "-X github.com/fpareto/fp/model.stamp=…": git describe, or a
// digest of the sources where git is not at hand), so that a binary built
// where Go records no VCS information (-buildvcs=false, a source tree
// without .git) still says which sources it came from.
var stamp string

// Stamp returns the version `make build` stamped into the binary, "" when
// it was built otherwise.
func Stamp() string { return stamp }

// Version is the version of the fp module in this binary: its module
// version, else the version `make build` stamped, else the commit it was
// built from, else "devel".
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	return versionOf(bi, ok, stamp)
}

func versionOf(bi *debug.BuildInfo, ok bool, stamp string) string {
	if ok {
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			return v
		}
	}
	if stamp != "" {
		return stamp
	}
	if !ok {
		return "devel"
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "+dirty"
	}
	return rev
}
