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
		{Dataset: "compas", Engine: "graph", BLAS: "gonum", Arch: "4x4", Batch: 150, Steps: 100, USPerStep: 250, GOMAXPROCS: 1},
		{Dataset: "compas", Engine: "backprop", BLAS: "gonum", Arch: "4x4", Batch: 150, Steps: 400, USPerStep: 50, GOMAXPROCS: 1},
	}, nil)
	// Output:
	// DATASET  ENGINE    BLAS   KERNEL  ARCH  BATCH  STEPS  µs/STEP  ALLOCS/STEP  KB/STEP  SPEED-UP
	// compas   graph     gonum  -       4x4   150    100    250.0    0            0.0      1.0×
	// compas   backprop  gonum  -       4x4   150    400    50.0     0            0.0      5.0×
	// GOMAXPROCS=1; figures are wall-clock time and depend on the machine's load
}
