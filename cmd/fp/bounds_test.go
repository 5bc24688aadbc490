package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An oversized network or grid is refused in one line before any data is
// read or any folder written.
func TestTrainRefusesOversizedSweeps(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--arch", "100000x100000"}, "--arch"},
		{[]string{"--arch", "3x20000"}, "--arch"},
		{[]string{"--lambdas", "log:100000000000"}, "--lambdas"},
	} {
		out := filepath.Join(t.TempDir(), "run")
		args := append([]string{"train", "--out", out, "--quiet"}, tc.args...)
		_, _, err := runFP(t, args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err = %v, want a refusal naming %s", tc.args, err, tc.want)
			continue
		}
		oneLine(t, err.Error())
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: the run folder was created", tc.args)
		}
	}
}
