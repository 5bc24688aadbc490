package pareto

import (
	"math"
	"slices"
	"testing"
)

func TestClusters(t *testing.T) {
	for _, tc := range []struct {
		name string
		pts  []Point
		tol  float64
		want []int
	}{
		{"empty", nil, 1e-4, []int{}},
		// Each step is 0.6e-4 < 1e-4, so the chain is one point although
		// its ends are 1.8e-4 apart.
		{"chain", []Point{{0, 0}, {1.2e-4, 0}, {0.6e-4, 0}, {1.8e-4, 0}, {0.5, 0.5}}, 1e-4, []int{0, 0, 0, 0, 1}},
		// Near in X but not in Y: two points.
		{"one axis", []Point{{0, 0}, {0.5e-4, 2e-4}}, 1e-4, []int{0, 1}},
		// A difference of exactly tol keeps points apart.
		{"at tol", []Point{{0, 0}, {0.25, 0}}, 0.25, []int{0, 1}},
		// Chains link through Y too, in any input order.
		{"zigzag", []Point{{0.3, 0.00015}, {0.3, 0}, {0.30005, 0.00008}}, 1e-4, []int{0, 0, 0}},
		// Without tolerance only exact duplicates merge.
		{"exact", []Point{{1, 1}, {1, 1 + 1e-12}, {1, 1}}, -1, []int{0, 1, 0}},
		{"nan", []Point{{math.NaN(), 0}, {math.NaN(), 0}}, 1e-4, []int{0, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Clusters(tc.pts, tc.tol); !slices.Equal(got, tc.want) {
				t.Errorf("Clusters = %v, want %v", got, tc.want)
			}
		})
	}
}

// A constant predictor reached on many splits with float-noise differences
// is one distinct point of the front, in the group's count and in the
// pooled front's share.
func TestCompareMergesNearDuplicates(t *testing.T) {
	// X over [0.6, 0.7], Y over [0, 0.1]: 1e-4 normalised is 1e-5 raw.
	lin := []Point{{0.6, 0.1}}
	for k := range 8 {
		lin = append(lin, Point{0.7 - float64(k)*1e-7, float64(k) * 1e-9})
	}
	cheb := []Point{{0.65, 0.05}, {0.7, 0}}
	got := CompareWith(map[string][]Point{"lin": lin, "cheb": cheb}, Options{})
	// lin's eight copies (0.7 − k·1e-7, k·1e-9) trade X for Y, so all are
	// non-dominated, and they lie within 1e-5 normalised of each other and
	// of cheb's (0.7, 0) (the first copy is that very point): one distinct
	// point. lin's own front is (0.6, 0.1) and that point; cheb's is
	// (0.65, 0.05) and that point.
	if got[1].Group != "lin" || got[1].NonDominated != 2 {
		t.Errorf("lin: %+v, want 2 distinct non-dominated points", got[1])
	}
	if got[0].Group != "cheb" || got[0].NonDominated != 2 {
		t.Errorf("cheb: %+v, want 2 distinct non-dominated points", got[0])
	}
	// Three distinct pooled points: lin has two of them, cheb two.
	if math.Abs(got[1].Share-2.0/3) > 1e-12 || math.Abs(got[0].Share-2.0/3) > 1e-12 {
		t.Errorf("shares %g (cheb), %g (lin), want 2/3 each", got[0].Share, got[1].Share)
	}
	// Merging exact duplicates only, lin's copies are eight points.
	exact := CompareWith(map[string][]Point{"lin": lin, "cheb": cheb}, Options{Tolerance: -1})
	if exact[1].NonDominated != 9 {
		t.Errorf("without tolerance lin has %d non-dominated, want 9", exact[1].NonDominated)
	}
}

func TestDistinct(t *testing.T) {
	pts := []Point{{0, 0}, {10, 10}, {0.0005, 0.0005}, {5, 5}}
	norm := NewNormalizer(pts) // both axes over [0, 10]: 0.0005 → 5e-5
	if got := Distinct(pts, []int{0, 1, 2, 3}, norm, 1e-4); got != 3 {
		t.Errorf("Distinct = %d, want 3", got)
	}
	if got := Distinct(pts, []int{0, 2}, norm, 1e-5); got != 2 {
		t.Errorf("Distinct with tol 1e-5 = %d, want 2", got)
	}
}

// A front point counts when another candidate is within tol in one axis
// and better by at least tol in the other; nearer pairs are one distinct
// point and do not count.
func TestWeaklyDominated(t *testing.T) {
	norm := NewNormalizer([]Point{{0, 0}, {1, 1}})
	const tol = 1e-4
	cases := []struct {
		name string
		pts  []Point
		want int
	}{
		{"clean front", []Point{{0, 1}, {0.5, 0.5}, {1, 0}}, 0},
		// (0.5, 0.5) beats (0.49995, 0.9) in Y by 0.4 and loses in X by 5e-5 < tol.
		{"same risk, worse unfairness", []Point{{0.49995, 0.9}, {0.5, 0.5}, {1, 0}}, 1},
		{"same unfairness, worse risk", []Point{{0.9, 0.29997}, {0.5, 0.3}, {1, 0}}, 1},
		// Within tol in both axes: one distinct point, not weak dominance.
		{"one distinct point", []Point{{0.5, 0.50005}, {0.50005, 0.5}}, 0},
		// More than tol apart in both axes: an ordinary trade-off.
		{"tol apart", []Point{{0.5, 0.9}, {0.5002, 0.5}}, 0},
		{"nan ignored", []Point{{0.5, 0.9}, {0.50001, math.NaN()}}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := WeaklyDominated(c.pts, Front(c.pts), norm, tol); got != c.want {
				t.Errorf("got %d, want %d (front %v)", got, c.want, Front(c.pts))
			}
		})
	}
}
