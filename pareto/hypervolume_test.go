package pareto

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestHypervolumeHandWorked(t *testing.T) {
	ref := Point{1.1, 1.1}
	for _, tc := range []struct {
		name string
		pts  []Point
		want float64
	}{
		{"empty", nil, 0},
		// One rectangle [0, 1.1]²: 1.21.
		{"origin", []Point{{0, 0}}, 1.21},
		// [0,1.1]×[1,1.1] (0.11) ∪ [1,1.1]×[0,1.1] (0.11), overlap 0.1×0.1: 0.21.
		{"two extremes", []Point{{0, 1}, {1, 0}}, 0.21},
		// By horizontal strips: y ∈ [1, 1.1) has width 1.1, y ∈ [0.5, 1)
		// width 0.6, y ∈ [0, 0.5) width 0.1:
		// 0.1·1.1 + 0.5·0.6 + 0.5·0.1 = 0.11 + 0.3 + 0.05 = 0.46.
		{"three", []Point{{1, 0}, {0, 1}, {0.5, 0.5}}, 0.46},
		// A dominated point and a duplicate add nothing.
		{"dominated", []Point{{1, 0}, {0, 1}, {0.5, 0.5}, {0.7, 0.9}, {0.5, 0.5}}, 0.46},
		// Points on or beyond the reference bound no area; NaN neither.
		{"beyond ref", []Point{{1.1, 0}, {0, 1.2}, {math.NaN(), 0}}, 0},
		{"one inside", []Point{{1.1, 0}, {0.1, 0.1}}, 1.0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Hypervolume(tc.pts, ref); math.Abs(got-tc.want) > 1e-12 {
				t.Errorf("Hypervolume = %.17g, want %.17g", got, tc.want)
			}
		})
	}
}

// bruteHypervolume computes the area of the union of the rectangles
// [p, ref] on the grid of all coordinates: a cell lies inside the union iff
// its lower-left corner is dominated (weakly) by some point.
func bruteHypervolume(pts []Point, ref Point) float64 {
	xs, ys := []float64{ref.X}, []float64{ref.Y}
	for _, p := range pts {
		if p.X < ref.X && p.Y < ref.Y {
			xs, ys = append(xs, p.X), append(ys, p.Y)
		}
	}
	slices.Sort(xs)
	slices.Sort(ys)
	xs, ys = slices.Compact(xs), slices.Compact(ys)
	var area float64
	for i := 0; i+1 < len(xs); i++ {
		for j := 0; j+1 < len(ys); j++ {
			for _, p := range pts {
				if p.X <= xs[i] && p.Y <= ys[j] && p.X < ref.X && p.Y < ref.Y {
					area += (xs[i+1] - xs[i]) * (ys[j+1] - ys[j])
					break
				}
			}
		}
	}
	return area
}

func TestHypervolumeMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 500 {
		var pts []Point
		ref := Reference
		if trial%2 == 0 {
			// Integer grid: ties, duplicates and points on the reference.
			pts = gridPoints(rng, rng.IntN(30), 1+rng.IntN(6))
			ref = Point{float64(rng.IntN(7)), float64(rng.IntN(7))}
		} else {
			pts = make([]Point, rng.IntN(30))
			for i := range pts {
				pts[i] = Point{1.2 * rng.Float64(), 1.2 * rng.Float64()}
			}
		}
		got, want := Hypervolume(pts, ref), bruteHypervolume(pts, ref)
		if math.Abs(got-want) > 1e-12 {
			t.Fatalf("trial %d: Hypervolume %.17g, brute force %.17g\npoints %v ref %v", trial, got, want, pts, ref)
		}
	}
}

func TestNormalizer(t *testing.T) {
	n := NewNormalizer([]Point{{10, 0.3}, {20, 0.1}}, []Point{{15, 0.2}, {math.NaN(), 0.5}})
	if want := (Normalizer{MinX: 10, MaxX: 20, MinY: 0.1, MaxY: 0.5}); n != want {
		t.Fatalf("NewNormalizer = %+v, want %+v", n, want)
	}
	for _, tc := range []struct{ in, want Point }{
		{Point{10, 0.1}, Point{0, 0}},
		{Point{20, 0.5}, Point{1, 1}},
		{Point{15, 0.3}, Point{0.5, 0.5}},
	} {
		if got := n.Apply(tc.in); math.Abs(got.X-tc.want.X) > 1e-15 || math.Abs(got.Y-tc.want.Y) > 1e-15 {
			t.Errorf("Apply(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
	// A constant axis maps to 0.
	c := NewNormalizer([]Point{{1, 5}, {2, 5}})
	if got := c.Apply(Point{1.5, 5}); got != (Point{0.5, 0}) {
		t.Errorf("constant Y: Apply = %v, want {0.5 0}", got)
	}
	if got := NewNormalizer().Apply(Point{3, 4}); got != (Point{0, 0}) {
		t.Errorf("empty normalizer: Apply = %v, want {0 0}", got)
	}
}
