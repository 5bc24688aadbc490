package runfolder

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A killed run's line is written once, by the next run of its shard, with
// the time its records file was last written (or its start) and the
// records it added; other shards' files are left to them; a file that
// does not hold a run's line is refused naming it.
func TestRecoverKilledRun(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	one, two := Shard{Index: 1, Count: 3}, Shard{Index: 2, Count: 3}
	if runningFile(Shard{}) != "running.json" || runningFile(one) != "running-shard-1-of-3.json" {
		t.Fatalf("names %q, %q", runningFile(Shard{}), runningFile(one))
	}
	begun := Invocation{Args: []string{"fp", "train"}, Dir: "/home/x", Shard: one.String(), Start: t0, Status: StatusKilled}
	if err := MarkRunning(dir, begun, 4, one); err != nil {
		t.Fatal(err)
	}
	if err := MarkRunning(dir, Invocation{Start: t0, Shard: two.String()}, 0, two); err != nil {
		t.Fatal(err)
	}
	// No records written since the start: the end is the start.
	if err := RecoverKilledRun(dir, one, t0.Add(-time.Hour), 4); err != nil {
		t.Fatal(err)
	}
	if err := RecoverKilledRun(dir, one, t0.Add(time.Hour), 9); err != nil { // nothing left to recover
		t.Fatal(err)
	}
	invs, err := ReadInvocations(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := begun
	want.End = t0
	if len(invs) != 1 || invs[0].Status != StatusKilled || !invs[0].End.Equal(t0) || invs[0].Trained != 0 || invs[0].Dir != "/home/x" {
		t.Errorf("lines %+v, want one like %+v", invs, want)
	}
	if _, err := os.Stat(filepath.Join(dir, runningFile(two))); err != nil {
		t.Errorf("another shard's file: %v", err)
	}
	// Records written after the start: the last write is the end.
	if err := RecoverKilledRun(dir, two, t0.Add(time.Minute), 3); err != nil {
		t.Fatal(err)
	}
	if invs, _ = ReadInvocations(dir); len(invs) != 2 || !invs[1].End.Equal(t0.Add(time.Minute)) || invs[1].Trained != 3 {
		t.Errorf("second line %+v, want an end at %v and 3 trained", invs[len(invs)-1], t0.Add(time.Minute))
	}

	bad := filepath.Join(dir, runningFile(Shard{}))
	if err := os.WriteFile(bad, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	err = RecoverKilledRun(dir, Shard{}, time.Time{}, 0)
	if err == nil || !strings.Contains(err.Error(), bad) || strings.Contains(err.Error(), "\n") {
		t.Errorf("bad file: err = %v, want one line naming %s", err, bad)
	}
}
