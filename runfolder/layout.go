package runfolder

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"

	"github.com/fpareto/fp/model"
	"github.com/fpareto/fp/records"
)

// Shard i of n runs the splits m with m mod n = i. The zero value is "no sharding".
type Shard struct{ Index, Count int }

// Active reports whether the run is sharded.
func (s Shard) Active() bool { return s.Count > 0 }

// Owns reports whether split m belongs to the shard.
func (s Shard) Owns(m int) bool { return !s.Active() || m%s.Count == s.Index }

func (s Shard) String() string {
	if !s.Active() {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Validate refuses impossible shards.
func (s Shard) Validate() error {
	if !s.Active() && s.Index == 0 {
		return nil
	}
	if s.Count < 1 || s.Index < 0 || s.Index >= s.Count {
		return fmt.Errorf("shard %d/%d: want i/n with n ≥ 1 and 0 ≤ i < n", s.Index, s.Count)
	}
	return nil
}

// RecordsFile is the name of the records file of a shard (the zero Shard
// for none).
func RecordsFile(s Shard) string {
	if !s.Active() {
		return "records.jsonl"
	}
	return fmt.Sprintf("records-shard-%d-of-%d.jsonl", s.Index, s.Count)
}

var shardFile = regexp.MustCompile(`^records-shard-(\d+)-of-(\d+)\.jsonl$`)

// ShardOfFile is the inverse of RecordsFile: the shard whose records file is
// named name (a base name), and false for any other name.
func ShardOfFile(name string) (Shard, bool) {
	m := shardFile.FindStringSubmatch(name)
	if m == nil {
		return Shard{}, false
	}
	i, err1 := strconv.Atoi(m[1])
	n, err2 := strconv.Atoi(m[2])
	s := Shard{Index: i, Count: n}
	if err1 != nil || err2 != nil || s.Validate() != nil || !s.Active() {
		return Shard{}, false
	}
	return s, true
}

// OpenRecords opens shard s's records file in dir for appending, with the
// lock package records takes on it (a *records.LockedError when another
// process writes it).
func OpenRecords(dir string, s Shard) (*records.Writer, error) {
	return records.Open(filepath.Join(dir, RecordsFile(s)))
}

// SplitDir is the folder of what a run keeps of split m besides its
// records and networks: its propensity model, its overlap summary, its
// standardization runs and training checkpoints until they are recorded.
func SplitDir(dir string, m int) string {
	return filepath.Join(dir, "splits", fmt.Sprintf("split-%03d", m))
}

// NetworkPath is where a candidate's network is stored, relative to the
// folder (records.Record.Weights).
func NetworkPath(method, penalty string, m int, lambda float64) string {
	name := method
	if penalty != "" {
		name += "-" + penalty
	}
	return filepath.Join("networks", fmt.Sprintf("split-%03d", m),
		fmt.Sprintf("%s-lambda-%s.json", name, strconv.FormatFloat(lambda, 'g', -1, 64)))
}

// ConditionedNetworkPath is the file of split m's λ-conditioned network
// (docs/method.md §12), relative to the output folder: one file that every
// record of the split's conditioned network names.
func ConditionedNetworkPath(method, penalty string, m int) string {
	name := method
	if penalty != "" {
		name += "-" + penalty
	}
	return filepath.Join("networks", fmt.Sprintf("split-%03d", m), name+"-conditioned.json")
}

// StandardizationPath is where the outcome of split m's λ = 0 or λ = 1 run
// (method "risk" or "penalty") is kept until the split's records are
// written.
func StandardizationPath(dir string, m int, method string) string {
	return filepath.Join(SplitDir(dir, m), "std-"+method+".json")
}

// ReadStandardization returns the stored outcome of split m's λ = 0 or
// λ = 1 run; nil (and no error) when there is none.
func ReadStandardization(dir string, m int, method string) (*records.Record, error) {
	path := StandardizationPath(dir, m, method)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var rec records.Record
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, fmt.Errorf("%s: %w (delete it to run again)", path, err)
	}
	return &rec, nil
}

// WriteStandardization stores the outcome of split m's λ = 0 or λ = 1 run.
func WriteStandardization(dir string, m int, method string, rec *records.Record) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	return writeAtomic(StandardizationPath(dir, m, method), b)
}

// GroupCheckpointPath is the checkpoint file of split m's lockstep group
// ordered by order; it is removed once the group's outcomes are written.
func GroupCheckpointPath(dir string, m int, order string) string {
	return filepath.Join(SplitDir(dir, m), "lockstep-"+order+".json")
}

// ConditionedCheckpointPath is the checkpoint file of split m's
// λ-conditioned network of method and penalty; it is removed once the
// network's records are written.
func ConditionedCheckpointPath(dir string, m int, method, penalty string) string {
	name := method
	if penalty != "" {
		name += "-" + penalty
	}
	return filepath.Join(SplitDir(dir, m), "conditioned-"+name+".json")
}

// writeAtomic writes path whole or not at all, making its folder.
func writeAtomic(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return model.WriteFileAtomic(path, b)
}
