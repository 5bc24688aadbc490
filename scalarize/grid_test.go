package scalarize

import (
	"math"
	"strings"
	"testing"
)

func TestParseGridLog15(t *testing.T) {
	g, err := ParseGrid(DefaultGrid)
	if err != nil {
		t.Fatal(err)
	}
	if len(g) != 15 {
		t.Fatalf("log:15 has %d values, want 15: %v", len(g), g)
	}
	// docs/method.md §3: λ_0 = 0, λ_k = 10^(−3 + 3(k−1)/13) for k = 1 … 14.
	if g[0] != 0 || g[14] != 1 {
		t.Errorf("ends are %v and %v, want 0 and 1", g[0], g[14])
	}
	if math.Abs(g[1]-0.001) > 1e-18 {
		t.Errorf("λ_1 = %v, want 0.001", g[1])
	}
	ratio := math.Pow(10, 3.0/13) // consecutive values are evenly spaced on the log scale
	for k := 2; k < 15; k++ {
		if r := g[k] / g[k-1]; math.Abs(r-ratio) > 1e-12 {
			t.Errorf("λ_%d/λ_%d = %v, want 10^(3/13) = %v", k, k-1, r, ratio)
		}
	}
	// A few values worked out by hand: 10^(−3+3/13) = 10^(−2.76923…) ≈ 0.0017013;
	// λ_7 = 10^(−3+18/13) = 10^(−1.61538…) ≈ 0.0242446.
	for k, want := range map[int]float64{2: 0.0017012542798525892, 7: 0.024244620170823284} {
		if math.Abs(g[k]-want) > 1e-15 {
			t.Errorf("λ_%d = %.17g, want %.17g", k, g[k], want)
		}
	}
}

func TestParseGrid(t *testing.T) {
	cases := []struct {
		in   string
		want []float64
	}{
		{"log:3", []float64{0, 0.001, 1}},
		{"log:4", []float64{0, 0.001, math.Pow(10, -1.5), 1}},
		{"linear:2", []float64{0, 1}},
		{"linear:5", []float64{0, 0.25, 0.5, 0.75, 1}},
		{" linear:3 ", []float64{0, 0.5, 1}},
		{"0.5, 0.1", []float64{0, 0.1, 0.5, 1}},     // sorted; 0 and 1 added
		{"1,0,0.3,0.3", []float64{0, 0.3, 1}},       // duplicates removed
		{"0", []float64{0, 1}},                      // a single value still gets both ends
		{"1e-3,0.02", []float64{0, 0.001, 0.02, 1}}, // any float syntax
		{"0.25,0.75,0.5", []float64{0, 0.25, 0.5, 0.75, 1}},
	}
	for _, tc := range cases {
		g, err := ParseGrid(tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if len(g) != len(tc.want) {
			t.Errorf("%q = %v, want %v", tc.in, g, tc.want)
			continue
		}
		for i := range g {
			if math.Abs(g[i]-tc.want[i]) > 1e-15 {
				t.Errorf("%q = %v, want %v", tc.in, g, tc.want)
				break
			}
		}
	}
}

func TestParseGridErrors(t *testing.T) {
	for _, in := range []string{"", "  ", "log:2", "log:x", "log:", "linear:1", "linear:-3",
		"0.5,abc", "1.5", "-0.1", "0.2,,0.3", "NaN", "Inf", "lin:4"} {
		g, err := ParseGrid(in)
		if err == nil {
			t.Errorf("%q: got %v, want an error", in, g)
			continue
		}
		if !strings.Contains(err.Error(), "λ grid") {
			t.Errorf("%q: error %q does not say it is about the λ grid", in, err)
		}
	}
}
