package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Ctrl-C during fp predict --out removes the temporary output beside
// --out: fp, run as its own process, waits for rows from a pipe, is sent
// SIGINT, and ends with one line and no file left behind.
func TestPredictInterruptRemovesTemporaryFile(t *testing.T) {
	net, _ := toyNetwork(t)
	dir := t.TempDir()
	fifo, out := filepath.Join(dir, "rows.csv"), filepath.Join(dir, "scores.csv")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipe: %v", err)
	}
	cmd := exec.Command(os.Args[0], "predict", "--model", net, "--data", fifo, "--out", out)
	cmd.Env = append(os.Environ(), "FP_TEST_RUN_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // waits for fp to open it
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.WriteString("x,colour\n1.5,red\n2.5,blue\n"); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if left, _ := filepath.Glob(filepath.Join(dir, ".scores.csv.tmp*")); len(left) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no temporary file after 20 s; stderr %q", stderr.String())
		}
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("fp predict still runs 20 s after Ctrl-C")
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Errorf("exit: %v, want status 1", err)
	}
	msg := stderr.String()
	oneLine(t, msg)
	if !strings.Contains(msg, "interrupted") || !strings.Contains(msg, out) {
		t.Errorf("stderr %q does not say it was interrupted and what was not written", msg)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
		t.Errorf("files left: %v", left)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("output written: %v", err)
	}
}
