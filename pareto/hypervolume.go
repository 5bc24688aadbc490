package pareto

import (
	"math"
	"slices"
)

// Reference is the reference point of the hypervolume in the normalised
// space (docs/method.md §8). It lies beyond (1, 1) so that the extreme points of the
// front, which normalise to X = 0 or Y = 0 and 1 in the other axis, still
// bound some area.
var Reference = Point{1.1, 1.1}

// Hypervolume returns the area of the region dominated by pts and bounded
// by ref: the union of the rectangles [p.X, ref.X] × [p.Y, ref.Y]. Points
// not strictly below ref in both coordinates (and points with NaN) add
// nothing. Dominated points may be included; they add nothing either.
// O(n log n).
func Hypervolume(pts []Point, ref Point) float64 {
	in := make([]Point, 0, len(pts))
	for _, p := range pts {
		if p.X < ref.X && p.Y < ref.Y {
			in = append(in, p)
		}
	}
	slices.SortFunc(in, comparePoints)
	// Sweep by increasing X: each point that lowers the staircase adds the
	// strip between its Y and the previous lowest Y, reaching to ref.X.
	var area float64
	top := ref.Y
	for _, p := range in {
		if p.Y < top {
			area += (ref.X - p.X) * (top - p.Y)
			top = p.Y
		}
	}
	return area
}

// Normalizer maps points min–max onto [0, 1]² with bounds taken over the
// union of every compared set, so that the sets' hypervolumes share one
// scale (docs/method.md §8).
type Normalizer struct{ MinX, MaxX, MinY, MaxY float64 }

// NewNormalizer returns the normalizer of the union of sets. NaN coordinates
// are ignored. With no points at all every point maps to (0, 0).
func NewNormalizer(sets ...[]Point) Normalizer {
	n := Normalizer{MinX: math.Inf(1), MaxX: math.Inf(-1), MinY: math.Inf(1), MaxY: math.Inf(-1)}
	for _, set := range sets {
		for _, p := range set {
			if !math.IsNaN(p.X) {
				n.MinX, n.MaxX = min(n.MinX, p.X), max(n.MaxX, p.X)
			}
			if !math.IsNaN(p.Y) {
				n.MinY, n.MaxY = min(n.MinY, p.Y), max(n.MaxY, p.Y)
			}
		}
	}
	if n.MinX > n.MaxX {
		n.MinX, n.MaxX = 0, 0
	}
	if n.MinY > n.MaxY {
		n.MinY, n.MaxY = 0, 0
	}
	return n
}

// Apply normalises p. An axis on which every point has the same value maps
// to 0 (all candidates are equally good there).
func (n Normalizer) Apply(p Point) Point {
	return Point{scale(p.X, n.MinX, n.MaxX), scale(p.Y, n.MinY, n.MaxY)}
}

func scale(v, lo, hi float64) float64 {
	if !(hi > lo) {
		return 0
	}
	return (v - lo) / (hi - lo)
}
