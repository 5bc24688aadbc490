package predict

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/fpareto/fp/datasets"
)

// RunFile writes the whole output or, on a bad row, nothing: no partial
// file, no temporary file, and an older output untouched.
func TestRunFileAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	d, err := datasets.LoadCSV(write("train.csv", "x,colour,y,g\n1,red,0,m\n2,blue,1,f\n3,red,0,f\n4,blue,1,m\n"),
		datasets.CSVOptions{Target: "y", Sensitive: "g"})
	if err != nil {
		t.Fatal(err)
	}
	f := network(t, d, "2x2")
	out := filepath.Join(dir, "scores.csv")
	n, err := RunFile(f, write("good.csv", "x,colour\n1,red\n2,blue\n"), out, Options{Threshold: 0.5})
	if err != nil || n != 2 {
		t.Fatalf("RunFile = %d, %v", n, err)
	}
	good, err := os.ReadFile(out)
	if err != nil || len(strings.Split(strings.TrimSpace(string(good)), "\n")) != 3 {
		t.Fatalf("output %q, %v", good, err)
	}
	if st, _ := os.Stat(out); st.Mode().Perm() != 0o644 {
		t.Errorf("output mode %v, want 0644", st.Mode().Perm())
	}
	if _, err := RunFile(f, write("bad.csv", "x,colour\n1,red\n2,mauve\n"), out, Options{Threshold: 0.5}); !errors.Is(err, datasets.ErrUnknownLevel) {
		t.Fatalf("bad row: err = %v", err)
	}
	if now, _ := os.ReadFile(out); string(now) != string(good) {
		t.Errorf("a failed run changed the older output: %q", now)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	if _, err := RunFile(f, filepath.Join(dir, "missing.csv"), out, Options{}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing data: err = %v", err)
	}
}

// Stopped while it waits for rows (a pipe that stays open) or before it
// starts, RunFileContext returns the context's error and leaves no
// temporary file and no output.
func TestRunFileContextStopped(t *testing.T) {
	dir := t.TempDir()
	train := filepath.Join(dir, "train.csv")
	if err := os.WriteFile(train, []byte("x,colour,y,g\n1,red,0,m\n2,blue,1,f\n3,red,0,f\n4,blue,1,m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := datasets.LoadCSV(train, datasets.CSVOptions{Target: "y", Sensitive: "g"})
	if err != nil {
		t.Fatal(err)
	}
	f := network(t, d, "2x2")
	out := filepath.Join(dir, "scores.csv")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := RunFileContext(ctx, f, train, out, Options{Threshold: 0.5}); !errors.Is(err, context.Canceled) {
		t.Errorf("stopped before the start: err = %v", err)
	}

	fifo := filepath.Join(dir, "rows.csv")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipe: %v", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	type result struct {
		n   int
		err error
	}
	done := make(chan result, 1)
	go func() {
		n, err := RunFileContext(ctx, f, fifo, out, Options{Threshold: 0.5})
		done <- result{n, err}
	}()
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // waits for the reader
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.WriteString("x,colour\n1,red\n2,blue\n"); err != nil {
		t.Fatal(err)
	}
	// The temporary file exists while rows are awaited.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if left, _ := filepath.Glob(filepath.Join(dir, ".scores.csv.tmp*")); len(left) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no temporary file after 10 s")
		}
	}
	cancel()
	select {
	case r := <-done:
		if !errors.Is(r.err, context.Canceled) {
			t.Errorf("stopped while reading: n = %d, err = %v", r.n, r.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("still reading 10 s after the stop")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("output written: %v", err)
	}
}
