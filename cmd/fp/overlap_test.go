package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeCSV writes n rows of x1, x2, proxy, g, y: proxy copies the sensitive
// attribute g when copyGroup is set and is noise otherwise.
func writeGroupCSV(t *testing.T, n int, copyGroup bool) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(11, uint64(n)))
	var b strings.Builder
	b.WriteString("x1,x2,proxy,g,y\n")
	for range n {
		g := rng.IntN(2)
		x1, x2 := rng.NormFloat64(), rng.NormFloat64()
		proxy := rng.NormFloat64()
		if copyGroup {
			proxy = float64(g)
		}
		y := 0
		if x1+0.5*rng.NormFloat64() > 0 {
			y = 1
		}
		fmt.Fprintf(&b, "%.4f,%.4f,%.4f,%d,%d\n", x1, x2, proxy, g, y)
	}
	path := filepath.Join(t.TempDir(), "groups.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A column that copies the sensitive attribute leaves the groups without
// overlap: fp train says so, even when quiet, and names the column.
func TestTrainWarnsOfPoorOverlap(t *testing.T) {
	for _, tc := range []struct {
		copyGroup bool
		quiet     bool
	}{{true, false}, {true, true}, {false, false}} {
		t.Run(fmt.Sprintf("copy=%v,quiet=%v", tc.copyGroup, tc.quiet), func(t *testing.T) {
			args := []string{"train", "--data", writeGroupCSV(t, 400, tc.copyGroup), "--target", "y", "--sensitive", "g",
				"--splits", "1", "--lambdas", "0,1", "--epochs", "2", "--engine", "backprop", "--no-plot",
				"--out", filepath.Join(t.TempDir(), "run")}
			if tc.quiet {
				args = append(args, "--quiet")
			}
			_, stderr, err := runFP(t, args...)
			if err != nil {
				t.Fatal(err)
			}
			warned := strings.Contains(stderr, "poor overlap")
			if warned != tc.copyGroup {
				t.Fatalf("poor-overlap warning printed: %v, want %v; stderr:\n%s", warned, tc.copyGroup, stderr)
			}
			if tc.copyGroup && !strings.Contains(stderr, "predict the sensitive attribute best are proxy (|r| = 1.00)") {
				t.Errorf("the warning does not name the proxy column first:\n%s", stderr)
			}
			if !tc.quiet && !strings.Contains(stderr, "split 0 overlap: T ") {
				t.Errorf("no overlap line for split 0:\n%s", stderr)
			}
		})
	}
}

// A CSV so small that every batch would hold a single row is refused
// before training, in one line.
func TestTrainRefusesTinyCSV(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	_, _, err := runFP(t, "train", "--data", writeGroupCSV(t, 20, false), "--target", "y", "--sensitive", "g",
		"--engine", "backprop", "--quiet", "--out", out)
	if err == nil || !strings.Contains(err.Error(), "every batch would lack one of the groups") {
		t.Fatalf("err = %v, want a refusal saying that every batch would lack a group", err)
	}
	oneLine(t, err.Error())
	if _, serr := os.Stat(out); serr == nil {
		t.Error("the refused sweep created its output folder")
	}
}
