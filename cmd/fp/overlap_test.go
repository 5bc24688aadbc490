package main

import (
	"fmt"
	"math"
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
			out := filepath.Join(t.TempDir(), "run")
			args := []string{"train", "--data", writeGroupCSV(t, 400, tc.copyGroup), "--target", "y", "--sensitive", "g",
				"--splits", "1", "--lambdas", "0,1", "--epochs", "2", "--engine", "backprop", "--no-plot", "--out", out}
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
			if tc.copyGroup && !strings.Contains(stderr, "leave out a column that stands in for it with --exclude (e.g. --exclude proxy)") {
				t.Errorf("the warning does not say how to leave the column out:\n%s", stderr)
			}
			if !tc.quiet && !strings.Contains(stderr, "split 0 overlap: T ") {
				t.Errorf("no overlap line for split 0:\n%s", stderr)
			}
			// fp status repeats the line and the advice; fp front sums up.
			status, _, err := runFP(t, "status", out)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(status, "split 0 overlap: T ") || strings.Contains(status, "poor overlap") != tc.copyGroup {
				t.Errorf("fp status:\n%s", status)
			}
			front, _, err := runFP(t, "front", out)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(front, "overlap over 1 split: ") || strings.Contains(front, "POOR") != tc.copyGroup {
				t.Errorf("fp front:\n%s", front)
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

// A CSV sweep keeps a validation part unless told not to; a built-in
// dataset's does not (see TestTrainWritesResumesAndIgnoresWorkers).
func TestTrainCSVKeepsValidationPartByDefault(t *testing.T) {
	csv := writeGroupCSV(t, 400, false)
	for _, tc := range []struct {
		args []string
		nVal int
	}{{nil, 40}, {[]string{"--val-fraction", "0.1"}, 20}, {[]string{"--val-fraction", "0"}, 0}} {
		out := filepath.Join(t.TempDir(), "run")
		args := append([]string{"train", "--data", csv, "--target", "y", "--sensitive", "g", "--splits", "1",
			"--lambdas", "0,1", "--epochs", "3", "--engine", "backprop", "--quiet", "--no-plot", "--out", out}, tc.args...)
		if _, _, err := runFP(t, args...); err != nil {
			t.Fatal(err)
		}
		for _, r := range readRecords(t, out) {
			if r.NVal != tc.nVal || (r.ValR != nil) != (tc.nVal > 0) || r.NTrain != 200-tc.nVal {
				t.Errorf("%v: λ = %g: n_val %d, val_r %v, n_train %d; want %d validation rows of 200", tc.args, r.Lambda, r.NVal, r.ValR, r.NTrain, tc.nVal)
			}
			if tc.nVal > 0 && (r.KeptEpoch < 1 || r.KeptEpoch > 3) {
				t.Errorf("%v: kept epoch %d, want one of 1…3", tc.args, r.KeptEpoch)
			}
		}
	}
	_, _, err := runFP(t, "train", "--data", csv, "--target", "y", "--sensitive", "g", "--val-fraction", "0.7", "--out", filepath.Join(t.TempDir(), "x"))
	if err == nil || !strings.Contains(err.Error(), "--val-fraction: ") {
		t.Errorf("--val-fraction 0.7: err = %v, want one naming the flag", err)
	}
}

// writeRaceCSV writes n rows of id, leak (the target with a third of it
// flipped), score (the target's strongest predictor), x1, x2, race and y;
// race has five values, E under 2% of the rows. With proxy, score moves
// with race (A high, B low): it then stands in for race as well.
func writeRaceCSV(t *testing.T, n int, proxy bool) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(29, uint64(n)))
	var b strings.Builder
	b.WriteString("id,leak,score,x1,x2,race,y\n")
	for i := range n {
		race, shift := "A", 0.0
		switch u := rng.Float64(); {
		case u < 0.016:
			race = "E"
		case u < 0.07:
			race = "D"
		case u < 0.2:
			race = "C"
		case u < 0.45:
			race = "B"
		}
		if proxy {
			shift = map[string]float64{"A": 2.5, "B": -2.5, "C": 0, "D": -1, "E": 1}[race]
		}
		score, x1, x2 := shift+rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()
		y := 0
		if rng.Float64() < 1/(1+math.Exp(-1.6*score-0.4*x1)) {
			y = 1
		}
		leak := y
		if rng.Float64() < 0.35 {
			leak = 1 - y
		}
		fmt.Fprintf(&b, "%d,%d,%.4f,%.4f,%.4f,%s,%d\n", i+1, leak, score, x1, x2, race, y)
	}
	path := filepath.Join(t.TempDir(), "race.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The overlap warnings fit their cause (docs/method.md §4.3): a group of
// under 2% of the rows does not make features without a proxy read as extreme,
// and an unreliable ATO is put down to it by name, with its rows and the
// flags that merge it, not to a column; a column that stands in for the
// attribute and is the target's strongest predictor, or the only feature,
// is never suggested without what leaving it out costs.
func TestTrainOverlapAdviceFitsTheCause(t *testing.T) {
	train := func(t *testing.T, csv string, extra ...string) string {
		t.Helper()
		args := append([]string{"train", "--data", csv, "--target", "y", "--sensitive", "race", "--sensitive-levels", "all",
			"--splits", "1", "--lambdas", "0,1", "--epochs", "2", "--engine", "backprop", "--quiet", "--no-plot",
			"--out", filepath.Join(t.TempDir(), "run")}, extra...)
		_, stderr, err := runFP(t, args...)
		if err != nil {
			t.Fatal(err)
		}
		return stderr
	}
	t.Run("no proxy", func(t *testing.T) {
		stderr := train(t, writeRaceCSV(t, 2400, false), "--exclude", "id")
		if strings.Contains(stderr, "poor overlap") || strings.Contains(stderr, "rows have a propensity under") {
			t.Errorf("features without a proxy read as poor or extreme:\n%s", stderr)
		}
		for _, want := range []string{"the ATO is unreliable", `group "E" (`, "is too small to estimate", "--group-map E=GROUP"} {
			if !strings.Contains(stderr, want) {
				t.Errorf("the warning lacks %q:\n%s", want, stderr)
			}
		}
		if strings.Contains(stderr, "--exclude score") || strings.Contains(stderr, "stands in for") {
			t.Errorf("the small group's warning advises leaving a column out:\n%s", stderr)
		}
	})
	t.Run("the strongest predictor stands in", func(t *testing.T) {
		stderr := train(t, writeRaceCSV(t, 2400, true), "--exclude", "id")
		if !strings.Contains(stderr, "poor overlap") ||
			!strings.Contains(stderr, "score is also the strongest predictor of the target") ||
			!strings.Contains(stderr, "leaving it out (--exclude score) costs accuracy") {
			t.Errorf("the warning does not say what leaving score out costs:\n%s", stderr)
		}
		if strings.Contains(stderr, "e.g. --exclude score") {
			t.Errorf("score is suggested bare:\n%s", stderr)
		}
	})
	t.Run("the only feature stands in", func(t *testing.T) {
		stderr := train(t, writeRaceCSV(t, 2400, true), "--features", "score")
		if !strings.Contains(stderr, "score is the only feature, so it cannot be left out") &&
			!strings.Contains(stderr, "score, the column that predicts the sensitive attribute best") {
			t.Errorf("the warning does not say that score cannot be left out:\n%s", stderr)
		}
		if strings.Contains(stderr, "--exclude") {
			t.Errorf("the only feature is suggested for --exclude:\n%s", stderr)
		}
	})
}
