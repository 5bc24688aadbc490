package runfolder

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// InvocationsFile is the name of the file, in an output folder, to which
// every run appends one JSON line saying how it was started and when it
// ran; a resumed or sharded sweep has several lines. It does not end in
// .jsonl, as every such file of a folder holds records.
const InvocationsFile = "runs.log"

// Invocation is one run of a sweep into its folder.
type Invocation struct {
	// Args are the command-line arguments as typed (os.Args); empty when
	// the run was started from the library without Config.Args.
	Args []string `json:"args,omitempty"`
	// Dir is the working directory the run was started in, against which
	// relative paths in Args resolve.
	Dir     string    `json:"dir,omitempty"`
	Shard   string    `json:"shard,omitempty"`
	Start   time.Time `json:"start"`
	End     time.Time `json:"end"`
	Trained int       `json:"trained"` // candidates recorded by this run
	// Status is "done", "interrupted", "failed: REASON" or "killed" (then
	// written by the next run, End the last the folder tells of it).
	Status string `json:"status"`
	// ColumnWarnings are the run's warnings about the data's feature
	// columns (a likely identifier, a likely leak), each with its advice,
	// as printed: the report shows them too, since they bear on every
	// network of the folder.
	ColumnWarnings []string `json:"column_warnings,omitempty"`
}

// AppendInvocation adds inv as one line to out's invocations file. The
// line is written with one call on a file opened for appending, so that
// shards ending at once do not interleave their lines.
func AppendInvocation(out string, inv Invocation) error {
	b, err := json.Marshal(inv)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(out, InvocationsFile), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("record the run: %w", err)
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("record the run: %w", err)
	}
	return f.Close()
}

// ReadInvocations reads the invocations recorded in the output folder dir,
// oldest first; none (and no error) for a folder written before they were
// recorded. A line that does not parse (a torn last line) is skipped.
func ReadInvocations(dir string) ([]Invocation, error) {
	f, err := os.Open(filepath.Join(dir, InvocationsFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Invocation
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		var inv Invocation
		if json.Unmarshal(sc.Bytes(), &inv) == nil && !inv.Start.IsZero() {
			out = append(out, inv)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, InvocationsFile), err)
	}
	return out, nil
}

// WallTime is the time during which at least one of invs was running: the
// sum of their durations when they ran one after another (a sweep resumed
// several times), less when shards ran side by side.
func WallTime(invs []Invocation) time.Duration {
	iv := slices.Clone(invs)
	slices.SortFunc(iv, func(a, b Invocation) int { return a.Start.Compare(b.Start) })
	var total time.Duration
	var end time.Time
	for _, inv := range iv {
		if !inv.End.After(inv.Start) {
			continue
		}
		start := inv.Start
		if start.Before(end) {
			start = end
		}
		if inv.End.After(start) {
			total += inv.End.Sub(start)
			end = inv.End
		}
	}
	return total
}
