package pareto

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// Three splits worked out by hand (every split normalises over its own
// candidates, reference (1.1, 1.1)):
//
//	split 0: a (0,1),(1,0) → 0.21; b (0.5,0.5) → 0.6² = 0.36; D = −0.15
//	split 1: a (0,0) → 1.21;       b (1,1) → 0.01;           D = 1.2
//	split 2: a (10,0.3),(20,0.1) → (0,1),(1,0) → 0.21; b (20,0.3) → (1,1) → 0.01; D = 0.2
//
// Mean D = 1.25/3. Signed ranks of |D| = 0.15, 1.2, 0.2 are 1, 3, 2, so
// W⁺ = 5; of the 8 sign assignments of {1,2,3} two have W⁺ ≥ 5 (5 and 6),
// so p = 2·2/8 = 0.5. With three differences a resample of the minimum three
// times has probability 1/27 > 2.5%, so the percentile interval is
// [min D, max D] = [−0.15, 1.2].
func TestPairedHandWorked(t *testing.T) {
	splits := map[int]map[string][]Point{
		0: {"a": {{0, 1}, {1, 0}}, "b": {{0.5, 0.5}}},
		1: {"a": {{0, 0}}, "b": {{1, 1}}},
		2: {"a": {{10, 0.3}, {20, 0.1}}, "b": {{20, 0.3}}},
	}
	hv := PerSplit(splits)
	want := []SplitHypervolume{
		{"a", 0, 0.21}, {"b", 0, 0.36},
		{"a", 1, 1.21}, {"b", 1, 0.01},
		{"a", 2, 0.21}, {"b", 2, 0.01},
	}
	if len(hv) != len(want) {
		t.Fatalf("PerSplit = %+v", hv)
	}
	for i := range want {
		if hv[i].Group != want[i].Group || hv[i].Split != want[i].Split || math.Abs(hv[i].Hypervolume-want[i].Hypervolume) > 1e-12 {
			t.Errorf("row %d = %+v, want %+v", i, hv[i], want[i])
		}
	}
	pairs := ComparePairs(hv, PairedOptions{Seed: 1})
	if len(pairs) != 1 {
		t.Fatalf("ComparePairs = %+v", pairs)
	}
	p := pairs[0]
	if p.A != "a" || p.B != "b" || p.Splits != 3 || p.AWins != 2 {
		t.Errorf("pair %+v, want a vs b over 3 splits, a wins 2", p)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"mean", p.Mean, 1.25 / 3},
		{"ci_low", p.CILow, -0.15},
		{"ci_high", p.CIHigh, 1.2},
		{"p", p.PValue, 0.5},
	} {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("%s = %.17g, want %.17g", c.name, c.got, c.want)
		}
	}
	// The same seed gives the same interval; the pair's own stream does
	// not depend on other groups.
	splits[1]["c"] = []Point{{0.5, 0.5}}
	again := ComparePairs(PerSplit(map[int]map[string][]Point{0: splits[0], 2: splits[2]}), PairedOptions{Seed: 1})
	if again[0].Splits != 2 {
		t.Errorf("two splits: %+v", again[0])
	}
}

func TestPairedNoCommonSplit(t *testing.T) {
	p := ComparePairs([]SplitHypervolume{{"a", 0, 1}, {"b", 1, 1}}, PairedOptions{})
	if len(p) != 1 || p[0].Splits != 0 || p[0].PValue != 1 || !math.IsNaN(p[0].Mean) || !math.IsNaN(p[0].CILow) {
		t.Errorf("no common split: %+v", p)
	}
}

func TestSignedRank(t *testing.T) {
	for _, tc := range []struct {
		name string
		d    []float64
		want float64
	}{
		{"none", nil, 1},
		{"zeros dropped", []float64{0, 0}, 1},
		// All five positive: W⁺ = 15, P(W⁺ ≥ 15) = 1/32.
		{"all positive", []float64{1, 2, 3, 4, 5}, 2.0 / 32},
		{"all negative", []float64{-1, -2, -3, -4, -5}, 2.0 / 32},
		// The smallest negative: W⁺ = 14; W⁺ ≥ 14 for {2,3,4,5} and {1,…,5}.
		{"one negative", []float64{-1, 2, 3, 4, 5}, 4.0 / 32},
		// A zero is dropped: the same as "one negative".
		{"with zero", []float64{0, -1, 2, 3, 4, 5}, 4.0 / 32},
		// Ties: |d| = 1, 1, 2 → ranks 1.5, 1.5, 3. Signs −, +, +: W⁺ = 4.5.
		// Sums over the 8 sign assignments: 0, 1.5, 1.5, 3, 3, 4.5, 4.5, 6.
		// P(W⁺ ≥ 4.5) = 3/8, so p = 6/8.
		{"ties", []float64{-1, 1, 2}, 6.0 / 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := SignedRank(tc.d); math.Abs(got-tc.want) > 1e-12 {
				t.Errorf("SignedRank(%v) = %.17g, want %.17g", tc.d, got, tc.want)
			}
		})
	}
}

// Beyond the exact limit the normal approximation takes over; near the
// limit the two agree closely.
func TestSignedRankNormalApproximation(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	d := make([]float64, exactLimit)
	for i := range d {
		d[i] = rng.NormFloat64() + 0.3
	}
	exact := SignedRank(d)
	big := append(append([]float64{}, d...), 0.01) // n = 51: approximate
	approx := SignedRank(big)
	if exact <= 0 || exact >= 1 || math.Abs(exact-approx) > 0.02 {
		t.Errorf("exact p %g (n = %d), normal approximation %g (n = %d): want close", exact, len(d), approx, len(big))
	}
	// n = 60, all positive: z = (1830 − 915 − ½)/√(60·61·121/24).
	all := make([]float64, 60)
	for i := range all {
		all[i] = float64(i + 1)
	}
	z := (1830 - 915 - 0.5) / math.Sqrt(60*61*121/24.0)
	want := math.Erfc(z / math.Sqrt2)
	if got := SignedRank(all); math.Abs(got-want) > 1e-15 {
		t.Errorf("n = 60: p = %g, want %g", got, want)
	}
}

func TestPairedOrder(t *testing.T) {
	hv := []SplitHypervolume{{"a", 0, 1}, {"b", 0, 2}, {"c", 0, 3}}
	got := ComparePairs(hv, PairedOptions{Order: []string{"c", "a"}, Resamples: 10})
	var pairs []string
	for _, p := range got {
		pairs = append(pairs, p.A+"-"+p.B)
	}
	if want := "c-a c-b a-b"; strings.Join(pairs, " ") != want {
		t.Errorf("pairs %v, want %s", pairs, want)
	}
	if got[0].Mean != 2 || got[0].AWins != 1 {
		t.Errorf("c − a: %+v, want mean 2, c wins 1", got[0])
	}
}

// The smallest attainable p is SignedRank's value when every difference has
// the same sign; it falls below 0.05 from six differences on.
func TestMinSignedRankP(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want float64
	}{{0, 1}, {1, 1}, {2, 0.5}, {3, 0.25}, {5, 0.0625}, {6, 0.03125}, {10, 2.0 / 1024}} {
		if got := MinSignedRankP(tc.n); got != tc.want {
			t.Errorf("MinSignedRankP(%d) = %g, want %g", tc.n, got, tc.want)
		}
		if tc.n == 0 {
			continue
		}
		d := make([]float64, tc.n)
		for i := range d {
			d[i] = float64(i + 1)
		}
		if p := SignedRank(d); math.Abs(p-tc.want) > 1e-12 {
			t.Errorf("SignedRank of %d positive differences = %g, want the minimum %g", tc.n, p, tc.want)
		}
		for i := range d {
			d[i] = 1 // tied magnitudes reach it too
		}
		if p := SignedRank(d); math.Abs(p-tc.want) > 1e-12 {
			t.Errorf("SignedRank of %d equal differences = %g, want the minimum %g", tc.n, p, tc.want)
		}
	}
	if n := SplitsForLevel(0.05); n != 6 {
		t.Errorf("SplitsForLevel(0.05) = %d, want 6", n)
	}
	// ComparePairs counts only the splits that differ.
	hv := []SplitHypervolume{{Group: "a", Split: 0, Hypervolume: 1}, {Group: "b", Split: 0, Hypervolume: 1},
		{Group: "a", Split: 1, Hypervolume: 2}, {Group: "b", Split: 1, Hypervolume: 1},
		{Group: "a", Split: 2, Hypervolume: 3}, {Group: "b", Split: 2, Hypervolume: 1}}
	if p := ComparePairs(hv, PairedOptions{Resamples: 10})[0]; p.Splits != 3 || p.MinPValue != 0.5 {
		t.Errorf("paired %+v, want 3 splits and a minimum p of 0.5 (two differ)", p)
	}
}
