package enginebench_test

import (
	"os"
	"strings"
	"testing"

	"github.com/fpareto/fp/enginebench"
)

func TestWriteTextSpeedUp(t *testing.T) {
	for _, tc := range []struct {
		name string
		res  []enginebench.Result
		want []string
	}{
		{"both engines", []enginebench.Result{{Engine: "graph", USPerStep: 300}, {Engine: "backprop", USPerStep: 100}},
			[]string{"1.0×", "3.0×", "GOMAXPROCS=0"}},
		{"no graph engine", []enginebench.Result{{Engine: "backprop", USPerStep: 100}}, []string{"backprop", "0.0      -\n", "GOMAXPROCS"}},
	} {
		var b strings.Builder
		if err := enginebench.WriteText(&b, tc.res); err != nil {
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
	})
	// Output:
	// DATASET  ENGINE    BLAS   ARCH  BATCH  STEPS  µs/STEP  ALLOCS/STEP  KB/STEP  SPEED-UP
	// compas   graph     gonum  4x4   150    100    250.0    0            0.0      1.0×
	// compas   backprop  gonum  4x4   150    400    50.0     0            0.0      5.0×
	// GOMAXPROCS=1; figures are wall-clock time and depend on the machine's load
}
