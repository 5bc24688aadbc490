package pareto

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

func TestCompareHandWorked(t *testing.T) {
	// Raw X ∈ [10, 20], Y ∈ [0.1, 0.3] normalise to
	// a: (10, 0.3) → (0, 1), (20, 0.1) → (1, 0), (20, 0.3) → (1, 1) dominated
	// b: (15, 0.2) → (0.5, 0.5)
	// HV(a) = 0.21 (two extremes, see TestHypervolumeHandWorked);
	// HV(b) = 0.6 × 0.6 = 0.36. The pooled front is the three distinct
	// non-dominated points, two from a and one from b.
	got := Compare(map[string][]Point{
		"b": {{15, 0.2}},
		"a": {{10, 0.3}, {20, 0.1}, {20, 0.3}},
	})
	want := []Summary{
		{Group: "a", Candidates: 3, NonDominated: 2, Hypervolume: 0.21, Share: 2.0 / 3},
		{Group: "b", Candidates: 1, NonDominated: 1, Hypervolume: 0.36, Share: 1.0 / 3},
	}
	checkSummaries(t, got, want)
}

// A point on the pooled front reached by two groups counts for both.
func TestCompareSharedPoint(t *testing.T) {
	got := Compare(map[string][]Point{
		"a": {{0, 1}, {1, 0}},
		"b": {{1, 0}, {1, 0}, {2, 2}},
		"c": {{2, 2}},
	})
	// Pooled front: (0,1) and (1,0). a has both, b has (1,0).
	// b's own front is the duplicated (1,0): one distinct point.
	// Normalisation: X, Y ∈ [0, 2]; b's (1,0) → (0.5, 0), HV = 0.6 × 1.1.
	// c's (2,2) → (1,1), HV = 0.1 × 0.1.
	want := []Summary{
		{Group: "a", Candidates: 2, NonDominated: 2, Hypervolume: 0.6*1.1 + 1.1*0.6 - 0.6*0.6, Share: 1},
		{Group: "b", Candidates: 3, NonDominated: 1, Hypervolume: 0.6 * 1.1, Share: 0.5},
		{Group: "c", Candidates: 1, NonDominated: 1, Hypervolume: 0.01, Share: 0},
	}
	checkSummaries(t, got, want)
}

func checkSummaries(t *testing.T, got, want []Summary) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d summaries, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Group != w.Group || g.Candidates != w.Candidates || g.NonDominated != w.NonDominated ||
			math.Abs(g.Hypervolume-w.Hypervolume) > 1e-12 || math.Abs(g.Share-w.Share) > 1e-12 {
			t.Errorf("summary %d = %+v, want %+v", i, g, w)
		}
	}
}

// With continuous coordinates no point is shared between groups: the shares
// sum to 1, each group's front is a subset of the pooled analysis, and a
// group's hypervolume never exceeds that of the union.
func TestCompareSharesSumToOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := range 200 {
		groups := map[string][]Point{}
		var all []Point
		for g := range 1 + rng.IntN(4) {
			pts := make([]Point, 1+rng.IntN(20))
			for i := range pts {
				x := rng.Float64()
				pts[i] = Point{x, (1 - x) * (0.5 + rng.Float64())}
			}
			groups[fmt.Sprint("g", g)] = pts
			all = append(all, pts...)
		}
		var sum float64
		norm := NewNormalizer(all)
		normAll := make([]Point, len(all))
		for i, p := range all {
			normAll[i] = norm.Apply(p)
		}
		hvAll := Hypervolume(normAll, Reference)
		for _, s := range Compare(groups) {
			sum += s.Share
			if s.Hypervolume > hvAll+1e-12 {
				t.Fatalf("trial %d: %s has HV %g above the union's %g", trial, s.Group, s.Hypervolume, hvAll)
			}
			if s.NonDominated < 1 || s.NonDominated > s.Candidates {
				t.Fatalf("trial %d: %s: %d non-dominated of %d", trial, s.Group, s.NonDominated, s.Candidates)
			}
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Fatalf("trial %d: shares sum to %.17g, want 1", trial, sum)
		}
	}
}

func TestCompareEmpty(t *testing.T) {
	got := Compare(map[string][]Point{"none": nil})
	checkSummaries(t, got, []Summary{{Group: "none"}})
	if got := Compare(nil); len(got) != 0 {
		t.Errorf("Compare(nil) = %v", got)
	}
}
