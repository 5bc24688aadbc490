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

// fp pick hands a record's network path on to fp predict: a path leaving
// the run folder is refused, not printed.
func TestPickRefusesEscapingWeights(t *testing.T) {
	dir := t.TempDir()
	rec := `{"dataset":"compas","sensitive":"race","method":"cheb","penalty":"ato-penultimate","split":0,"lambda":1,"risk":0.6,"weights":"../../elsewhere/net.json"}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "records.jsonl"), []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err := runFP(t, "pick", dir, "--knee")
	if err == nil || !strings.Contains(err.Error(), "inside the run folder") {
		t.Fatalf("err = %v, output %q; want the weights refused", err, out)
	}
	oneLine(t, err.Error())
	if strings.Contains(out, "elsewhere") {
		t.Errorf("the path was printed: %q", out)
	}
}
