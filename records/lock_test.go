package records

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Environment of the writer process the two-writer test starts.
const (
	writerEnvPath  = "FP_TEST_WRITER_PATH"
	writerEnvStart = "FP_TEST_WRITER_START"
	writerRecords  = 150
)

// TestWriterProcess is the body of a writer process started by
// TestTwoWriterProcesses; run directly, it does nothing.
func TestWriterProcess(t *testing.T) {
	path := os.Getenv(writerEnvPath)
	if path == "" {
		return
	}
	for { // both processes open the file at the same moment
		if _, err := os.Stat(os.Getenv(writerEnvStart)); err == nil {
			break
		}
		time.Sleep(time.Millisecond)
	}
	w, err := Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	for i := range writerRecords {
		r := sample(i)
		if err := w.Append(&r); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(4)
		}
		time.Sleep(2 * time.Millisecond) // hold the file while the other tries
	}
	if err := w.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(4)
	}
	os.Exit(0)
}

// Two processes append to one records file at once: one writes every
// record, the other stops before writing anything and names the first's
// process ID, and the file holds whole records only.
func TestTwoWriterProcesses(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "records.jsonl")
	start := filepath.Join(dir, "start")
	type proc struct {
		cmd    *exec.Cmd
		stderr bytes.Buffer
	}
	procs := make([]*proc, 2)
	for i := range procs {
		p := &proc{cmd: exec.Command(os.Args[0], "-test.run=^TestWriterProcess$")}
		p.cmd.Env = append(os.Environ(), writerEnvPath+"="+path, writerEnvStart+"="+start)
		p.cmd.Stderr = &p.stderr
		if err := p.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		procs[i] = p
	}
	if err := os.WriteFile(start, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var won, lost []*proc
	for _, p := range procs {
		err := p.cmd.Wait()
		var exit *exec.ExitError
		switch {
		case err == nil:
			won = append(won, p)
		case errors.As(err, &exit) && exit.ExitCode() == 3:
			lost = append(lost, p)
		default:
			t.Fatalf("writer: %v\n%s", err, p.stderr.String())
		}
	}
	if len(won) != 1 || len(lost) != 1 {
		t.Fatalf("%d writers finished and %d were refused, want 1 and 1", len(won), len(lost))
	}
	msg := strings.TrimSpace(lost[0].stderr.String())
	want := fmt.Sprintf("records file %s is being written by process %d", path, won[0].cmd.Process.Pid)
	if !strings.HasPrefix(msg, want) || strings.Contains(msg, "\n") {
		t.Errorf("refused writer said %q, want one line starting %q", msg, want)
	}
	recs, err := Read(path)
	if err != nil {
		t.Fatalf("the file is not whole records: %v", err)
	}
	if len(recs) != writerRecords {
		t.Errorf("%d records, want %d", len(recs), writerRecords)
	}
	if _, err := os.Stat(path + lockSuffix); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock's PID file is left behind: %v", err)
	}
	// The lock is gone with its holder: a new writer opens the file.
	w, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Open(path); !errors.As(err, new(*LockedError)) {
		t.Errorf("second Open while the first is open: %v, want a *LockedError", err)
	}
	w.Close()
}
