package runfolder

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fpareto/fp/model"
)

// A run appends its line to the invocations file as it ends; a run killed
// (SIGKILL, a node lost) never does. So that its line is not lost, a run
// keeps its line as it would begin in a file of its own while it runs
// (runningFile), removed once the real line is written. The next run of
// the same shard into the folder finds it and appends the killed run's
// line for it (RecoverKilledRun).

// StatusKilled is the status of the invocations line of a run that was
// killed, written by the next run into the folder.
const StatusKilled = "killed"

// runningFile is the name of the file that holds a running run's line,
// one per shard (as the records files).
func runningFile(s Shard) string {
	name := strings.TrimSuffix(RecordsFile(s), ".jsonl")
	return strings.Replace(name, "records", "running", 1) + ".json"
}

// running is the content of a runningFile.
type running struct {
	Invocation Invocation `json:"invocation"`
	// Before is the number of the shard's records when the run began: the
	// ones found later were trained by it.
	Before int `json:"records_before"`
}

// MarkRunning writes the runningFile of a run that begins as inv, with
// before records of its shard.
func MarkRunning(out string, inv Invocation, before int, s Shard) error {
	b, err := json.Marshal(running{Invocation: inv, Before: before})
	if err != nil {
		return err
	}
	if err := model.WriteFileAtomic(filepath.Join(out, runningFile(s)), b); err != nil {
		return fmt.Errorf("record the run: %w", err)
	}
	return nil
}

// UnmarkRunning removes the runningFile once the run's line is written.
func UnmarkRunning(out string, s Shard) error {
	if err := removeIfAny(filepath.Join(out, runningFile(s))); err != nil {
		return fmt.Errorf("record the run: %w", err)
	}
	return nil
}

// RecoverKilledRun appends the line of a killed run of shard s, if its
// runningFile is left, and removes the file. The caller holds the shard's
// records lock, so that run is over. It ended, as far as the folder tells,
// when it last wrote to its records file (lastWrite, taken before the lock
// could change it; zero when there is none) or else when it began; it
// trained the records of the shard beyond those it began with (now).
func RecoverKilledRun(out string, s Shard, lastWrite time.Time, now int) error {
	path := filepath.Join(out, runningFile(s))
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("record the killed run: %w", err)
	}
	var r running
	if err := json.Unmarshal(b, &r); err != nil || r.Invocation.Start.IsZero() {
		return fmt.Errorf("%s: not the line of a run (%v); delete it to go on", path, err)
	}
	inv := r.Invocation
	inv.Status, inv.End, inv.Trained = StatusKilled, inv.Start, max(0, now-r.Before)
	if lastWrite.After(inv.End) {
		inv.End = lastWrite
	}
	if err := AppendInvocation(out, inv); err != nil {
		return err
	}
	return UnmarkRunning(out, s)
}

// removeIfAny removes path, which may not exist.
func removeIfAny(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
