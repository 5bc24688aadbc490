package pareto

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

func TestTradeoffsAndHighTradeoff(t *testing.T) {
	cases := []struct {
		name string
		pts  []Point
		mu   []float64 // worked out by hand; both axes already span [0, 1]
		knee []int
	}{
		{
			// The corner (0.1, 0.1) loses 8 units for every unit gained by
			// moving to its best neighbour; the others lose little.
			name: "convex front with a corner",
			pts:  []Point{{0, 1}, {0.05, 0.5}, {0.1, 0.1}, {0.5, 0.05}, {1, 0}},
			mu:   []float64{0.1, 0.125, 8, 0.125, 0.1},
			knee: []int{2},
		},
		{
			name: "straight line: no point stands out",
			pts:  []Point{{0, 1}, {0.5, 0.5}, {1, 0}},
			mu:   []float64{1, 1, 1},
			knee: nil,
		},
		{
			// Duplicates contribute 0/0 and are ignored.
			name: "duplicates",
			pts:  []Point{{0, 1}, {0, 1}, {1, 0}},
			mu:   []float64{1, 1, 1},
			knee: nil,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mu := Tradeoffs(tc.pts)
			for i := range mu {
				if math.Abs(mu[i]-tc.mu[i]) > 1e-12 {
					t.Errorf("μ = %v, want %v", mu, tc.mu)
					break
				}
			}
			if got := HighTradeoff(tc.pts); !slices.Equal(got, tc.knee) {
				t.Errorf("HighTradeoff = %v, want %v", got, tc.knee)
			}
		})
	}
	// Scaling an axis does not move the knee: coordinates are normalised.
	pts := []Point{{0, 100}, {0.05, 50}, {0.1, 10}, {0.5, 5}, {1, 0}}
	if got := HighTradeoff(pts); !slices.Equal(got, []int{2}) {
		t.Errorf("scaled axis: HighTradeoff = %v, want [2]", got)
	}
}

func ExampleHighTradeoff() {
	front := []Point{{0.60, 0.20}, {0.61, 0.10}, {0.62, 0.02}, {0.66, 0.015}, {0.70, 0.01}}
	fmt.Println(HighTradeoff(front))
	// Output: [2]
}
