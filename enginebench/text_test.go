package enginebench_test

import (
	"os"
	"strings"
	"testing"

	"github.com/fpareto/fp/enginebench"
)

func TestWriteTextSpeedUp(t *testing.T) {
	for _, tc := range []struct {
		name  string
		res   []enginebench.Result
		sweep []enginebench.SweepResult
		want  []string
	}{
		{"both engines", []enginebench.Result{{Engine: "graph", USPerStep: 300}, {Engine: "backprop", USPerStep: 100}},
			nil, []string{"1.0×", "3.0×", "GOMAXPROCS=0"}},
		{"with a sweep", []enginebench.Result{{Engine: "backprop", USPerStep: 100}},
			[]enginebench.SweepResult{{Engine: "backprop", Workers: 2, Networks: 8, NetworksPerSec: 4, Speedup: 1.9}},
			[]string{"NETWORKS/S", "4.00", "1.90×"}},
		{"no graph engine", []enginebench.Result{{Engine: "backprop", USPerStep: 100}}, nil, []string{"backprop", "0.0      -\n", "GOMAXPROCS"}},
		{"median and range", []enginebench.Result{{Engine: "graph", Repeats: 5, USPerStep: 40,
			USPerStepSpread: enginebench.Spread{Median: 40, Min: 35.5, Max: 51.25}}},
			[]enginebench.SweepResult{{Engine: "backprop", Workers: 2, Repeats: 5, Speedup: 1.9,
				SpeedupSpread: enginebench.Spread{Median: 1.9, Min: 1.8, Max: 1.95}}},
			[]string{"REPEATS", "MIN–MAX", "40.0     35.5–51.2", "1.90×     1.80×–1.95×"}},
	} {
		var b strings.Builder
		if err := enginebench.WriteText(&b, tc.res, tc.sweep); err != nil {
			t.Fatal(err)
		}
		for _, w := range tc.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: text lacks %q:\n%s", tc.name, w, b.String())
			}
		}
	}
}

func ExampleWriteText() {
	_ = enginebench.WriteText(os.Stdout, []enginebench.Result{
		{Dataset: "compas", Engine: "graph", BLAS: "gonum", Arch: "4x4", Batch: 150, Steps: 100, Repeats: 5, USPerStep: 250,
			USPerStepSpread: enginebench.Spread{Median: 250, Min: 240, Max: 262}, GOMAXPROCS: 1},
		{Dataset: "compas", Engine: "backprop", BLAS: "gonum", Arch: "4x4", Batch: 150, Steps: 400, Repeats: 5, USPerStep: 50,
			USPerStepSpread: enginebench.Spread{Median: 50, Min: 49, Max: 53}, GOMAXPROCS: 1},
	}, nil)
	// Output:
	// DATASET  ENGINE    BLAS   KERNEL  ARCH  BATCH  STEPS  REPEATS  µs/STEP  MIN–MAX      ALLOCS/STEP  KB/STEP  SPEED-UP
	// compas   graph     gonum  -       4x4   150    100    5        250.0    240.0–262.0  0            0.0      1.0×
	// compas   backprop  gonum  -       4x4   150    400    5        50.0     49.0–53.0    0            0.0      5.0×
	// GOMAXPROCS=1; figures are wall-clock time and depend on the machine's load
}

// A figure whose repeats range over more than 20% of its median, or a
// speed-up above the number of workers, is warned about; steady figures
// are not.
func TestWarnings(t *testing.T) {
	steady := enginebench.Spread{Median: 50, Min: 48, Max: 55}  // 14%
	noisy := enginebench.Spread{Median: 50, Min: 40, Max: 1263} // one run disturbed
	for _, tc := range []struct {
		name  string
		res   []enginebench.Result
		sweep []enginebench.SweepResult
		want  []string // a substring of each warning, in order
	}{
		{"steady", []enginebench.Result{{Engine: "graph", Repeats: 5, USPerStepSpread: steady}},
			[]enginebench.SweepResult{{Engine: "backprop", Workers: 2, Repeats: 5, Speedup: 1.9,
				SecondsSpread: steady, OneWorkerSpread: steady, SpeedupSpread: enginebench.Spread{Median: 1.9, Min: 1.8, Max: 2}}}, nil},
		{"noisy step", []enginebench.Result{{Dataset: "compas", Engine: "graph", Repeats: 5, USPerStepSpread: noisy}}, nil,
			[]string{"compas graph µs/step varied by 2446% of its median over 5 repeats (40 µs–1.26e+03 µs)"}},
		{"noisy sweep", nil, []enginebench.SweepResult{{Engine: "backprop", Workers: 2, Repeats: 5, Speedup: 1.9,
			SecondsSpread: steady, OneWorkerSpread: noisy, SpeedupSpread: steady}},
			[]string{"sweep time on 1 worker varied"}},
		{"speed-up above the workers", nil, []enginebench.SweepResult{{Engine: "backprop", Workers: 2, Repeats: 5, Speedup: 6,
			SecondsSpread: steady, OneWorkerSpread: steady, SpeedupSpread: enginebench.Spread{Median: 6, Min: 5.8, Max: 6.1}}},
			[]string{"speed-up 6.00× on 2 workers is more than 2 workers can give"}},
	} {
		got := enginebench.Warnings(tc.res, tc.sweep)
		if len(got) != len(tc.want) {
			t.Errorf("%s: warnings %q, want %d", tc.name, got, len(tc.want))
			continue
		}
		for i, w := range tc.want {
			if !strings.Contains(got[i], w) || strings.Contains(got[i], "\n") {
				t.Errorf("%s: warning %q, want one line with %q", tc.name, got[i], w)
			}
		}
	}
}

func TestSpreadRel(t *testing.T) {
	if got := (enginebench.Spread{Median: 50, Min: 45, Max: 60}).Rel(); got != 0.3 {
		t.Errorf("Rel = %v, want 0.3", got)
	}
	if got := (enginebench.Spread{}).Rel(); got != 0 {
		t.Errorf("Rel of nothing = %v, want 0", got)
	}
}
