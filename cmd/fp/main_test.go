package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestMain lets tests run the real binary: with FP_TEST_RUN_MAIN=1 the test
// binary behaves as fp itself (used to kill a sweep from outside).
func TestMain(m *testing.M) {
	if os.Getenv("FP_TEST_RUN_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runFP runs fp in-process with args and returns what it wrote.
func runFP(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	app := newApp()
	var out, errb bytes.Buffer
	app.Writer, app.ErrWriter = &out, &errb
	err = app.Run(append([]string{"fp"}, args...))
	return out.String(), errb.String(), err
}

// oneLine fails the test unless msg is a single line.
func oneLine(t *testing.T, msg string) {
	t.Helper()
	if strings.Contains(strings.TrimSpace(msg), "\n") {
		t.Errorf("error is not one line:\n%s", msg)
	}
}
