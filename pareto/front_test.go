package pareto

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestDominates(t *testing.T) {
	for _, tc := range []struct {
		p, q Point
		want bool
	}{
		{Point{0, 0}, Point{1, 1}, true},
		{Point{0, 1}, Point{1, 1}, true},  // better in X, equal in Y
		{Point{1, 0}, Point{1, 1}, true},  // equal in X, better in Y
		{Point{1, 1}, Point{1, 1}, false}, // a duplicate
		{Point{0, 2}, Point{1, 1}, false}, // a trade-off
		{Point{1, 1}, Point{0, 0}, false},
		{Point{math.NaN(), 0}, Point{1, 1}, false},
	} {
		if got := Dominates(tc.p, tc.q); got != tc.want {
			t.Errorf("Dominates(%v, %v) = %v, want %v", tc.p, tc.q, got, tc.want)
		}
	}
}

// bruteFront is the definition: the indices no other point dominates.
func bruteFront(pts []Point) []int {
	var out []int
	for i, q := range pts {
		dominated := false
		for _, p := range pts {
			if Dominates(p, q) {
				dominated = true
				break
			}
		}
		if !dominated {
			out = append(out, i)
		}
	}
	return out
}

// gridPoints draws n points from a k×k integer grid, so duplicates and ties
// in either coordinate are common.
func gridPoints(rng *rand.Rand, n, k int) []Point {
	pts := make([]Point, n)
	for i := range pts {
		pts[i] = Point{float64(rng.IntN(k)), float64(rng.IntN(k))}
	}
	return pts
}

func TestFrontMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 1000 {
		pts := gridPoints(rng, rng.IntN(40), 1+rng.IntN(6))
		got := Front(pts)
		for k := 1; k < len(got); k++ {
			if comparePoints(pts[got[k-1]], pts[got[k]]) > 0 {
				t.Fatalf("trial %d: front not ordered by X then Y: %v", trial, got)
			}
		}
		sorted := slices.Clone(got)
		slices.Sort(sorted)
		if want := bruteFront(pts); !slices.Equal(sorted, want) {
			t.Fatalf("trial %d: Front = %v, brute force = %v\npoints %v", trial, sorted, want, pts)
		}
	}
}

func TestFrontDuplicatesAndNaN(t *testing.T) {
	pts := []Point{
		{1, 1}, // 0: on the front, duplicated by 3
		{0, 2}, // 1: on the front
		{2, 2}, // 2: dominated
		{1, 1}, // 3
		{math.NaN(), 0},
		{2, 0}, // 5: on the front
		{1, 2}, // 6: dominated by 0 (same X) and by 1 (same Y)
	}
	got := Front(pts)
	if want := []int{1, 0, 3, 5}; !slices.Equal(got, want) {
		t.Errorf("Front = %v, want %v", got, want)
	}
	if n := CountDistinct(pts, got); n != 3 {
		t.Errorf("CountDistinct = %d, want 3 (the duplicate counts once)", n)
	}
	if got := Front(nil); len(got) != 0 {
		t.Errorf("Front(nil) = %v", got)
	}
}

func BenchmarkFront(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	pts := make([]Point, 100_000)
	for i := range pts {
		x := rng.Float64()
		pts[i] = Point{x, 1 - x + 0.1*rng.Float64()}
	}
	b.Run("n=1e5", func(b *testing.B) {
		for b.Loop() {
			Front(pts)
		}
	})
}
