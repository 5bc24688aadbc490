package report

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot"
)

func TestNiceTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		labels string // the labelled ticks, as drawn
	}{
		{0, 1, "0.00 0.25 0.50 0.75 1.00"},
		{0.003, 0.2, "0.05 0.10 0.15 0.20"},
		{0.32, 0.6, "0.35 0.40 0.45 0.50 0.55 0.60"},
		{-1, 1, "-1.0 -0.5 0.0 0.5 1.0"},
		{0, 8.4, "0 2 4 6 8"},
		{1e-9, 5e-9, "1e-09 2e-09 3e-09 4e-09 5e-09"},
		{0.31, 0.3105, "0.3100 0.3101 0.3102 0.3103 0.3104 0.3105"},
	} {
		var labels []string
		for _, tk := range (niceTicks{n: 5}).Ticks(tc.lo, tc.hi) {
			if tk.Value < tc.lo-1e-12 || tk.Value > tc.hi+1e-12 {
				t.Errorf("[%v, %v]: tick %v outside the range", tc.lo, tc.hi, tk.Value)
			}
			if tk.Label == "" {
				continue
			}
			v, err := strconv.ParseFloat(tk.Label, 64)
			if err != nil || math.Abs(v-tk.Value) > 1e-9*math.Max(1, math.Abs(tk.Value)) {
				t.Errorf("[%v, %v]: label %q for value %v", tc.lo, tc.hi, tk.Label, tk.Value)
			}
			labels = append(labels, tk.Label)
		}
		if got := strings.Join(labels, " "); got != tc.labels {
			t.Errorf("[%v, %v]: labels %q, want %q", tc.lo, tc.hi, got, tc.labels)
		}
	}
}

// A range too narrow for any nice step falls back to gonum's ticks rather
// than returning none.
func TestNiceTicksNarrow(t *testing.T) {
	ticks := (niceTicks{n: 5}).Ticks(1, math.Nextafter(1, 2))
	if len(ticks) == 0 {
		t.Fatal("no ticks")
	}
}

func TestPowerOfTen(t *testing.T) {
	for e, want := range map[int]string{-7: "1e-7", -3: "1e-3", -2: "0.01", 0: "1", 2: "100", 3: "1e3", 12: "1e12"} {
		if got := powerOfTen(e); got != want {
			t.Errorf("powerOfTen(%d) = %q, want %q", e, got, want)
		}
	}
}

func TestLogTicks(t *testing.T) {
	ticks := logTicks{floor: 1e-7}.Ticks(1e-7, 0.035)
	var labels []string
	for _, tk := range ticks {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	want := []string{"≤ 1e-7", "1e-6", "1e-5", "1e-4", "1e-3", "0.01"}
	if strings.Join(labels, " ") != strings.Join(want, " ") {
		t.Errorf("labels %q, want %q", labels, want)
	}
}

// The lowest value of a linear axis gets a label.
func TestSnapAxis(t *testing.T) {
	a := plot.Axis{Min: 0.6003, Max: 0.77}
	snapAxis(&a, 6)
	if a.Min != 0.6 {
		t.Errorf("min %v, want 0.6", a.Min)
	}
	ticks := niceTicks{n: 6}.Ticks(a.Min, a.Max)
	if math.Abs(ticks[0].Value-a.Min) > 1e-12 || ticks[0].Label == "" {
		t.Errorf("first tick %+v, want a label at %v", ticks[0], a.Min)
	}
	b := plot.Axis{Min: 0.3, Max: 0.5}
	snapAxis(&b, 6)
	if b.Min != 0.3 {
		t.Errorf("a minimum on a tick moved to %v", b.Min)
	}
}
