package scalarize

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fpareto/fp/pareto"
)

// AdaptivePrefix starts an adaptive grid: "adaptive:N".
const AdaptivePrefix = "adaptive:"

// Adaptive is the grid "adaptive:N": N candidates per split, of which the
// first are a fixed coarse grid and the rest are placed one at a time where
// the split's front has its largest gap (Next).
type Adaptive struct {
	N int
	// Coarse is the fixed start: the grid log:K with K = max(3, ⌈N/3⌉),
	// so λ = 0 and λ = 1 (the standardization runs) and K − 2 values
	// between 10⁻³ and 1 (for N = 15: 0, 10⁻³, 10⁻², 10⁻¹, 1).
	Coarse []float64
}

// IsAdaptive reports whether s names an adaptive grid (well formed or not).
func IsAdaptive(s string) bool {
	return strings.HasPrefix(strings.TrimSpace(s), AdaptivePrefix)
}

// ParseAdaptive reads "adaptive:N", N ≥ 3.
func ParseAdaptive(s string) (Adaptive, error) {
	s = strings.TrimSpace(s)
	n, err := strconv.Atoi(strings.TrimPrefix(s, AdaptivePrefix))
	if !strings.HasPrefix(s, AdaptivePrefix) || err != nil || n < 3 {
		return Adaptive{}, fmt.Errorf("λ grid %q: adaptive:N needs a whole number N ≥ 3", s)
	}
	k := max(3, (n+2)/3)
	coarse, err := ParseGrid("log:" + strconv.Itoa(k))
	if err != nil {
		return Adaptive{}, err
	}
	return Adaptive{N: n, Coarse: coarse}, nil
}

// GapTries is how many λs Next tries inside one gap of the front: a
// gap whose λ interval already holds that many trained λs is passed over,
// since the front does not respond to λ there (at small λ, say, where the
// risk side of a Chebyshev scalarization always wins and candidates differ
// by their initial weights alone).
const GapTries = 2

// AdaptivePoint is a candidate already trained on a split: its λ and where
// it landed, R̃ and Ũ standardized with the split's constants, measured on
// training or validation data (never on test data).
type AdaptivePoint struct{ Lambda, R, U float64 }

// MinWidth is the narrowest λ interval Next halves inside a gap: 1/(N−1),
// the spacing of linear:N. Finer λs rarely move a standardized
// scalarization's solution by more than its training noise.
func (a Adaptive) MinWidth() float64 { return 1 / float64(a.N-1) }

// Next is the λ of the next candidate of the grid on a split. done holds
// every λ already trained on the split (failed ones included); pts the
// points of those that trained (non-finite ones are ignored).
//
// The non-dominated points of pts, ordered by R̃, are the split's current
// front; a gap is a pair of neighbours on it, measured by their Euclidean
// distance in (R̃, Ũ) with each axis divided by the front's extent along it
// (from its ideal to its nadir point). The extents make the measure
// indifferent to the scale of each axis: Ũ of risk-trained networks can be
// several times 1 when the λ = 1 run's mini-batch extremes underestimate
// U's range, and a steep stretch of the front at small λ, where R̃ barely
// moves, would otherwise draw every candidate.
//
// The next λ goes into the widest gap (ties: the gap whose smaller λ is
// smaller): it halves the widest interval between the done λs from one
// neighbour's λ to the other's, which is the midpoint of the two λs unless
// candidates were trained between them already (they did not land between
// the two on the front). A gap is passed over for the next widest when it
// holds GapTries such candidates, or when that interval is narrower than
// MinWidth. With no gap left (or fewer than two front points), the next λ
// halves the widest interval between neighbouring done λs. Interval ties go
// to the smaller λ.
//
// The result depends only on its arguments, in whatever order they come,
// and is never in done. done must hold 0 and 1.
func (a Adaptive) Next(pts []AdaptivePoint, done []float64) float64 {
	ds := slices.Clone(done)
	slices.Sort(ds)
	ds = slices.Compact(ds)
	isDone := func(l float64) bool { _, ok := slices.BinarySearch(ds, l); return ok }

	var fin []AdaptivePoint
	for _, p := range pts {
		if finite(p.R) && finite(p.U) && finite(p.Lambda) {
			fin = append(fin, p)
		}
	}
	// Independent of the input order: equal points are ordered by λ.
	slices.SortFunc(fin, func(a, b AdaptivePoint) int {
		return cmp.Or(cmp.Compare(a.R, b.R), cmp.Compare(a.U, b.U), cmp.Compare(a.Lambda, b.Lambda))
	})
	pp := make([]pareto.Point, len(fin))
	for i, p := range fin {
		pp[i] = pareto.Point{X: p.R, Y: p.U}
	}
	front := pareto.Front(pp) // ordered by R̃, so Ũ decreases along it
	var sr, su float64 = 1, 1 // the front's extent in R̃ and Ũ
	if n := len(front); n > 1 {
		first, last := fin[front[0]], fin[front[n-1]]
		if d := last.R - first.R; d > 0 {
			sr = d
		}
		if d := first.U - last.U; d > 0 {
			su = d
		}
	}
	type gap struct{ d, lo, hi float64 }
	var gaps []gap
	for k := 1; k < len(front); k++ {
		a, b := fin[front[k-1]], fin[front[k]]
		lo, hi := min(a.Lambda, b.Lambda), max(a.Lambda, b.Lambda)
		gaps = append(gaps, gap{d: math.Hypot((b.R-a.R)/sr, (b.U-a.U)/su), lo: lo, hi: hi})
	}
	slices.SortFunc(gaps, func(a, b gap) int {
		return cmp.Or(-cmp.Compare(a.d, b.d), cmp.Compare(a.lo, b.lo), cmp.Compare(a.hi, b.hi))
	})
	for _, g := range gaps {
		lo, _ := slices.BinarySearch(ds, g.lo)
		hi, _ := slices.BinarySearch(ds, g.hi)
		if hi < len(ds) && ds[hi] == g.hi {
			hi++
		}
		// ds[lo:hi] are the done λs in [g.lo, g.hi], both ends among them;
		// those between them were tries that did not split the gap.
		if hi-lo < 2 || hi-lo-2 >= GapTries {
			continue
		}
		if l, w := widestInterval(ds[lo:hi]); w >= a.MinWidth() && !isDone(l) {
			return l
		}
	}
	l, _ := widestInterval(ds)
	return l
}

// widestInterval is the midpoint and width of the widest interval between
// neighbouring values of the sorted, distinct ds (ties: the smaller one).
func widestInterval(ds []float64) (mid, width float64) {
	mid, width = 0.5, -1
	for k := 1; k < len(ds); k++ {
		if w := ds[k] - ds[k-1]; w > width {
			mid, width = (ds[k-1]+ds[k])/2, w
		}
	}
	return mid, width
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
