package scalarize

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// DefaultGrid is the grid of docs/method.md §3: "log:15".
const DefaultGrid = "log:15"

// ParseGrid reads a λ grid: "log:N" (0, then N−1 values 10^(−3+3(k−1)/(N−2)),
// k = 1…N−1, N ≥ 3), "linear:N" (N values evenly spaced on [0, 1], N ≥ 2), or
// a comma-separated list of values in [0, 1]. The result is sorted, without
// duplicates, and always contains 0 and 1 (they define the standardization).
func ParseGrid(s string) ([]float64, error) {
	s = strings.TrimSpace(s)
	var g []float64
	switch {
	case strings.HasPrefix(s, "log:"):
		n, err := strconv.Atoi(strings.TrimPrefix(s, "log:"))
		if err != nil || n < 3 {
			return nil, fmt.Errorf("λ grid %q: log:N needs a whole number N ≥ 3", s)
		}
		g = append(g, 0)
		for k := 1; k <= n-1; k++ {
			g = append(g, math.Pow(10, -3+3*float64(k-1)/float64(n-2)))
		}
		g[n-1] = 1 // 10^0 exactly, whatever the rounding of the exponent
	case strings.HasPrefix(s, "linear:"):
		n, err := strconv.Atoi(strings.TrimPrefix(s, "linear:"))
		if err != nil || n < 2 {
			return nil, fmt.Errorf("λ grid %q: linear:N needs a whole number N ≥ 2", s)
		}
		for k := 0; k < n; k++ {
			g = append(g, float64(k)/float64(n-1))
		}
	default:
		if s == "" {
			return nil, fmt.Errorf("λ grid is empty: give log:N, linear:N or a list such as 0,0.1,1")
		}
		for _, f := range strings.Split(s, ",") {
			v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil || !(v >= 0 && v <= 1) {
				return nil, fmt.Errorf("λ grid %q: %q is not a number in [0, 1]", s, strings.TrimSpace(f))
			}
			g = append(g, v)
		}
		g = append(g, 0, 1)
	}
	sort.Float64s(g)
	out := g[:0]
	for i, v := range g {
		if i == 0 || v != g[i-1] {
			out = append(out, v)
		}
	}
	return out, nil
}
