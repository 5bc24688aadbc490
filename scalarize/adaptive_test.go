package scalarize

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// fine is an adaptive grid whose MinWidth (0.01) leaves the λs of the
// worked examples free.
var fine = Adaptive{N: 101}

func TestParseAdaptive(t *testing.T) {
	for _, tc := range []struct {
		in     string
		n      int
		coarse []float64
	}{
		{"adaptive:3", 3, []float64{0, 1e-3, 1}},
		{"adaptive:8", 8, []float64{0, 1e-3, 1}},
		{"adaptive:9", 9, []float64{0, 1e-3, 1}},
		{"adaptive:10", 10, []float64{0, 1e-3, 3.1622776601683794e-02, 1}},
		{" adaptive:15 ", 15, []float64{0, 1e-3, 1e-2, 1e-1, 1}},
	} {
		a, err := ParseAdaptive(tc.in)
		if err != nil || a.N != tc.n || len(a.Coarse) != len(tc.coarse) {
			t.Fatalf("%q: %+v, %v; want N = %d, coarse %v", tc.in, a, err, tc.n, tc.coarse)
		}
		for i := range tc.coarse {
			if math.Abs(a.Coarse[i]-tc.coarse[i]) > 1e-15 {
				t.Errorf("%q: coarse %v, want %v", tc.in, a.Coarse, tc.coarse)
			}
		}
		if !IsAdaptive(tc.in) {
			t.Errorf("IsAdaptive(%q) = false", tc.in)
		}
	}
	for _, bad := range []string{"adaptive:", "adaptive:2", "adaptive:x", "adaptive:-4", "log:5"} {
		if _, err := ParseAdaptive(bad); err == nil || !strings.Contains(err.Error(), "N ≥ 3") {
			t.Errorf("%q: err = %v, want one asking for N ≥ 3", bad, err)
		}
	}
	if IsAdaptive("log:15") {
		t.Error("IsAdaptive(log:15) = true")
	}
}

func TestNextWorkedByHand(t *testing.T) {
	// A front of four points ordered by R̃; the widest gap is between
	// λ = 0.1 (0.3, 0.4) and λ = 1 (1, 0): distance √(0.49 + 0.16) ≈ 0.81.
	// (0.5, 0.9) at λ = 0.05 is dominated and plays no part.
	pts := []AdaptivePoint{
		{Lambda: 0, R: 0, U: 1},
		{Lambda: 0.001, R: 0.1, U: 0.7},
		{Lambda: 0.1, R: 0.3, U: 0.4},
		{Lambda: 1, R: 1, U: 0},
		{Lambda: 0.05, R: 0.5, U: 0.9},
	}
	done := []float64{0, 0.001, 0.05, 0.1, 1}
	if got := fine.Next(pts, done); got != 0.55 {
		t.Fatalf("next λ = %v, want 0.55, the midpoint of the widest gap's λ", got)
	}
	// Once 0.55 is done and lands at (0.6, 0.25), the gaps are 0.316,
	// 0.361, 0.335 and, widest, λ 0.55 → 1: √(0.16 + 0.0625) ≈ 0.47.
	pts = append(pts, AdaptivePoint{Lambda: 0.55, R: 0.6, U: 0.25})
	done = append(done, 0.55)
	if got := fine.Next(pts, done); got != 0.775 {
		t.Fatalf("next λ = %v, want 0.775", got)
	}
}

func TestNextHalvesTheWidestIntervalInTheGap(t *testing.T) {
	// The widest gap, λ 0 → 0.2, has its midpoint 0.1 done already (a
	// dominated candidate sits there): the gap's λ interval is halved again,
	// on the side of the smaller λ since both halves are as wide.
	pts := []AdaptivePoint{
		{Lambda: 0, R: 0, U: 1},
		{Lambda: 0.2, R: 0.9, U: 0.1},
		{Lambda: 1, R: 1, U: 0},
		{Lambda: 0.1, R: 2, U: 2},
	}
	done := []float64{1, 0.1, 0, 0.2}
	if got := fine.Next(pts, done); got != 0.05 {
		t.Fatalf("next λ = %v, want 0.05", got)
	}
	// With 0.05 done and dominated too, the gap has had its GapTries = 2
	// tries: the next gap, λ 0.2 → 1, is halved.
	pts = append(pts, AdaptivePoint{Lambda: 0.05, R: 3, U: 3})
	if got := fine.Next(pts, append(done, 0.05)); got != 0.6 {
		t.Fatalf("next λ = %v, want 0.6", got)
	}
	// With no gap left to try, the widest interval of all done λs is halved.
	pts = append(pts, AdaptivePoint{Lambda: 0.6, R: 3, U: 3}, AdaptivePoint{Lambda: 0.8, R: 3, U: 3})
	if got := fine.Next(pts, append(done, 0.05, 0.6, 0.8)); got != 0.4 {
		t.Fatalf("next λ = %v, want 0.4", got)
	}
}

func TestNextMeasuresGapsRelativeToTheFront(t *testing.T) {
	// In raw (R̃, Ũ) the widest gap is λ 0 → 0.001 (Ũ falls by 2 while R̃
	// barely moves: distance 2.0, against 1.96 for λ 0.1 → 1). Relative to
	// the front's extent (1 in R̃, 4 in Ũ) it is 0.5 against 0.69.
	pts := []AdaptivePoint{{0, 0, 4}, {0.001, 0.01, 2}, {0.1, 0.5, 1.9}, {1, 1, 0}}
	if got := fine.Next(pts, []float64{0, 0.001, 0.1, 1}); got != 0.55 {
		t.Fatalf("next λ = %v, want 0.55", got)
	}
}

func TestNextTiesGoToTheSmallerLambda(t *testing.T) {
	pts := []AdaptivePoint{{0, 0, 2}, {0.5, 1, 1}, {1, 2, 0}}
	if got := fine.Next(pts, []float64{0, 0.5, 1}); got != 0.25 {
		t.Fatalf("next λ = %v, want 0.25 (two equal gaps: the smaller λ)", got)
	}
}

func TestNextWithoutAFront(t *testing.T) {
	// Failed candidates have no point: with fewer than two front points the
	// widest interval between done λs is halved.
	for _, tc := range []struct {
		pts  []AdaptivePoint
		done []float64
		want float64
	}{
		{nil, []float64{0, 1}, 0.5},
		{nil, []float64{0, 0.001, 1}, 0.5005},
		{[]AdaptivePoint{{0, 0, 1}}, []float64{0, 0.5, 1}, 0.25},
		{[]AdaptivePoint{{0, math.NaN(), 1}, {1, 1, math.Inf(1)}}, []float64{0, 1}, 0.5},
	} {
		if got := fine.Next(tc.pts, tc.done); got != tc.want {
			t.Errorf("Next(%v, %v) = %v, want %v", tc.pts, tc.done, got, tc.want)
		}
	}
}

// TestNextSequenceIsNewAndOrderFree runs an adaptive sequence on a
// made-up front and checks that every λ is new, in (0, 1), and the same
// whatever the order in which the points are given.
func TestNextSequenceIsNewAndOrderFree(t *testing.T) {
	land := func(l float64) AdaptivePoint { // a convex front, not linear in λ
		return AdaptivePoint{Lambda: l, R: math.Sqrt(l), U: math.Pow(1-l, 3)}
	}
	a, err := ParseAdaptive("adaptive:15")
	if err != nil {
		t.Fatal(err)
	}
	done := slices.Clone(a.Coarse)
	var pts []AdaptivePoint
	for _, l := range done {
		pts = append(pts, land(l))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for len(done) < a.N {
		l := a.Next(pts, done)
		if !(l > 0 && l < 1) || slices.Contains(done, l) {
			t.Fatalf("next λ = %v: not new in (0, 1) (done %v)", l, done)
		}
		sp, sd := slices.Clone(pts), slices.Clone(done)
		rng.Shuffle(len(sp), func(i, j int) { sp[i], sp[j] = sp[j], sp[i] })
		rng.Shuffle(len(sd), func(i, j int) { sd[i], sd[j] = sd[j], sd[i] })
		if l2 := a.Next(sp, sd); l2 != l {
			t.Fatalf("shuffled input gives λ = %v, not %v", l2, l)
		}
		done = append(done, l)
		pts = append(pts, land(l))
	}
	if len(done) != 15 {
		t.Fatal(fmt.Sprint(done))
	}
}

func ExampleAdaptive_Next() {
	a, _ := ParseAdaptive("adaptive:8")
	fmt.Println("coarse grid:", a.Coarse)
	// Standardized training R̃ and Ũ of the three coarse candidates.
	pts := []AdaptivePoint{{Lambda: 0, R: 0, U: 3}, {Lambda: 0.001, R: 0.05, U: 1.2}, {Lambda: 1, R: 4, U: 0}}
	fmt.Println("next λ:", a.Next(pts, a.Coarse))
	// Output:
	// coarse grid: [0 0.001 1]
	// next λ: 0.5005
}

func TestNextKeepsToMinWidth(t *testing.T) {
	// The widest gap, λ 0.92 → 1, is narrower than 1/(N−1) for N = 11: the
	// next widest, λ 0 → 0.92, is halved instead. For N = 101 it is not.
	pts := []AdaptivePoint{{0, 0, 1}, {0.92, 0.2, 0.9}, {1, 1, 0}}
	done := []float64{0, 0.92, 1}
	if got := (Adaptive{N: 11}).Next(pts, done); got != 0.46 {
		t.Errorf("N = 11: next λ = %v, want 0.46", got)
	}
	if got := fine.Next(pts, done); got != 0.96 {
		t.Errorf("N = 101: next λ = %v, want 0.96", got)
	}
	if w := (Adaptive{N: 15}).MinWidth(); math.Abs(w-1.0/14) > 1e-15 {
		t.Errorf("MinWidth of adaptive:15 = %v, want 1/14", w)
	}
}
