package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fpareto/fp/penalties"
)

// The demographic-parity and equalized-odds penalties train from the
// command line (backprop in lockstep, its default there, and the graph
// engine), and --help lists them.
func TestTrainParityPenalties(t *testing.T) {
	for _, tc := range []struct{ pen, eng string }{
		{"dp-mean", "backprop"}, {"eo-mean", "backprop"}, {"dp-mv", "backprop"}, {"eo-mv", "backprop"}, {"eo-mean", "graph"},
		{"dp-rate", "backprop"}, {"eo-rate", "graph"},
	} {
		t.Run(tc.pen+"/"+tc.eng, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "run")
			if _, _, err := runFP(t, "train", "--penalty", tc.pen, "--engine", tc.eng, "--splits", "1", "--lambdas", "0,0.5,1",
				"--epochs", "2", "--propensity-epochs", "2", "--quiet", "--no-plot", "--out", out); err != nil {
				t.Fatal(err)
			}
			recs := readRecords(t, out)
			if len(recs) != 3 {
				t.Fatalf("%d records, want 3", len(recs))
			}
			for _, r := range recs {
				if r.Penalty != tc.pen || r.Engine != tc.eng || !r.OK() || !(r.UMax > r.UMin) || (r.EngineMode == "lockstep") != (tc.eng == "backprop") {
					t.Errorf("record %+v", r)
				}
			}
		})
	}
	// The help's line points to the docs, where docs/training.md's table
	// lists every penalty.
	readme, err := os.ReadFile(filepath.Join("..", "..", "docs", "training.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range penalties.BuiltinNames {
		if !strings.Contains(string(readme), "| `"+p+"`") {
			t.Errorf("docs/training.md's table of penalties lacks %s", p)
		}
	}
}

// A conditioned network on a penalty of the probability reads it after the
// modulation; asked to read it before, it is refused in one line.
func TestTrainParityPenaltyConditionedBefore(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	_, _, err := runFP(t, "train", "--out", out, "--quiet", "--conditioned", "--engine", "graph", "--penalty", "dp-mv", "--film-penalty", "before")
	if err == nil || !strings.HasPrefix(err.Error(), "--film-penalty:") || !strings.Contains(err.Error(), "dp-mv reads the predicted probability") {
		t.Fatalf("err = %v", err)
	}
	oneLine(t, err.Error())
}
