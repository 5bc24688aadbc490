package fairness

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// mvDirect is the O(n²) plug-in formula of docs/method.md §7, written literally.
func mvDirect(s []float64, z []int) float64 {
	n := len(s)
	size := map[int]int{}
	for _, g := range z {
		size[g]++
	}
	var mv float64
	for r, nr := range size {
		var sum float64
		for i := range n {
			var le, leR int
			for j := range n {
				if s[j] <= s[i] {
					le++
					if z[j] == r {
						leR++
					}
				}
			}
			d := float64(leR)/float64(nr) - float64(le)/float64(n)
			sum += d * d
		}
		mv += float64(nr) / float64(n) * sum / float64(n)
	}
	return mv
}

func TestMVHandWorked(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    []float64
		z    []int
		want float64
	}{
		// n = 4, two groups of 2, a tie across groups at 0.2.
		//   s    0.1  0.2  0.2  0.3
		//   F    1/4  3/4  3/4  1
		//   F0   1/2  1    1    1     (group 0 = {0.1, 0.2})
		//   F1   0    1/2  1/2  1     (group 1 = {0.2, 0.3})
		// group 0: (1/4)·[(1/4)² + 2·(1/4)² + 0] = 3/64; group 1 likewise 3/64.
		// MV = ½·3/64 + ½·3/64 = 3/64.
		{"tie across groups", []float64{0.1, 0.2, 0.2, 0.3}, []int{0, 0, 1, 1}, 3.0 / 64},
		// n = 5, group 0 = {1, 3}, group 1 = {1, 2, 3}.
		//   value  1    2    3
		//   F      2/5  3/5  1
		//   F0     1/2  1/2  1
		//   F1     1/3  2/3  1
		// examples at 1, 1, 2, 3, 3:
		// group 0: F0−F = 1/10, 1/10, −1/10, 0, 0 → mean square 3/500, × P̂ = 2/5 → 6/2500
		// group 1: F1−F = −1/15, −1/15, 1/15, 0, 0 → mean square 1/375, × 3/5 → 4/2500
		// MV = 10/2500 = 1/250.
		{"unequal groups", []float64{1, 1, 2, 3, 3}, []int{0, 1, 1, 0, 1}, 1.0 / 250},
		// Labels need not be 0/1: the same data with groups 7 and −3.
		{"any labels", []float64{1, 1, 2, 3, 3}, []int{7, -3, -3, 7, -3}, 1.0 / 250},
		// n = 2, one example per group: F = 1/2, 1; F_a = 1, 1; F_b = 0, 1.
		// each group: ½·[(1/2)² + 0] = 1/8; MV = ½·1/8 + ½·1/8 = 1/8.
		{"two examples", []float64{0.5, 0.6}, []int{1, 0}, 1.0 / 8},
		{"all tied", []float64{0.3, 0.3, 0.3}, []int{0, 1, 1}, 0},
		{"one group", []float64{0.1, 0.9}, []int{4, 4}, 0},
		{"empty", nil, nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := MV(tc.s, tc.z)
			if math.Abs(got-tc.want) > 1e-15 {
				t.Errorf("MV = %.17g, want %.17g", got, tc.want)
			}
		})
	}
}

// The same data as the hand-worked ATO case, now with labels:
//
//	p = 0.1  0.2  0.2  0.3  0.5  0.6
//	y = 1    1    1    1    0    0
//	a = 0    0    1    1    1    0
//
// y = 1: the "tie across groups" case above, MV = 3/64.
// y = 0: the "two examples" case, MV = 1/8.  EO = max = 1/8, EOpp = 3/64.
// DP over all six: group 0 = {0.1, 0.2, 0.6}, group 1 = {0.2, 0.3, 0.5};
// with P̂ = ½ each, MV = ¼·mean (F0 − F1)²:
//
//	value   0.1  0.2  0.3  0.5  0.6
//	F0      1/3  2/3  2/3  2/3  1
//	F1      0    1/3  2/3  1    1
//	F0−F1   1/3  1/3  0    −1/3 0     (0.2 occurs twice)
//
// mean square = (1 + 2 + 0 + 1 + 0)/9/6 = 2/27, DP = 1/54.
var labelY = []float64{1, 1, 1, 1, 0, 0}

func TestDPEOEOppHandWorked(t *testing.T) {
	for _, tc := range []struct {
		name      string
		got, want float64
	}{
		{"DP", DP(atoP, zOf(atoA)), 1.0 / 54},
		{"EO", EO(atoP, labelY, zOf(atoA)), 1.0 / 8},
		{"EOpp", EOpp(atoP, labelY, zOf(atoA)), 3.0 / 64},
	} {
		if math.Abs(tc.got-tc.want) > 1e-15 {
			t.Errorf("%s = %.17g, want %.17g", tc.name, tc.got, tc.want)
		}
	}
	// A subset with one group contributes 0: with every y = 1 example in
	// group 0, EOpp is 0 and EO is the y = 0 subset's index.
	y := []float64{1, 1, 0, 0}
	a := []int{0, 0, 0, 1}
	p := []float64{0.2, 0.9, 0.5, 0.6}
	if got := EOpp(p, y, a); got != 0 {
		t.Errorf("EOpp with one group among y=1 = %g, want 0", got)
	}
	if got, want := EO(p, y, a), MV([]float64{0.5, 0.6}, []int{0, 1}); got != want {
		t.Errorf("EO = %g, want the y=0 index %g", got, want)
	}
}

// randomTies draws n scores from a grid of few values (so ties are common)
// and groups from labels.
func randomTies(rng *rand.Rand, n, grid int, labels []int) ([]float64, []int) {
	s := make([]float64, n)
	z := make([]int, n)
	for i := range n {
		s[i] = float64(rng.IntN(grid)) / float64(grid)
		z[i] = labels[rng.IntN(len(labels))]
	}
	return s, z
}

func TestMVMatchesDirectFormula(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	labelSets := [][]int{{0, 1}, {0, 1, 2}, {-5, 7, 1 << 40}}
	for trial := range 300 {
		n := 1 + rng.IntN(60)
		labels := labelSets[trial%len(labelSets)]
		s, z := randomTies(rng, n, 1+rng.IntN(8), labels)
		got, want := MV(s, z), mvDirect(s, z)
		if math.Abs(got-want) > 1e-14 {
			t.Fatalf("trial %d (n=%d): MV %.17g, direct formula %.17g\ns=%v\nz=%v", trial, n, got, want, s, z)
		}
	}
}

// When every score occurs once in each group, the groups have the same
// empirical distribution and MV must be exactly 0.
func TestMVZeroForIdenticalGroups(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := range 100 {
		m := 1 + rng.IntN(50)
		groups := 2 + trial%3
		var s []float64
		var z []int
		for range m {
			v := float64(rng.IntN(10)) / 10
			for g := range groups {
				s = append(s, v)
				z = append(z, g)
			}
		}
		rng.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i]; z[i], z[j] = z[j], z[i] })
		if got := MV(s, z); got != 0 {
			t.Fatalf("trial %d: MV of identically distributed groups = %g, want 0", trial, got)
		}
	}
}

// MV depends on the scores only through their order: a strictly increasing
// transform (here the logit) leaves it unchanged, and so does a permutation
// of the examples.
func TestMVRankInvariance(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for range 50 {
		n := 2 + rng.IntN(100)
		s, z := randomTies(rng, n, 20, []int{0, 1})
		for i := range s {
			s[i] = 0.01 + 0.98*s[i]
		}
		base := MV(s, z)
		logit := make([]float64, n)
		for i, v := range s {
			logit[i] = math.Log(v / (1 - v))
		}
		if got := MV(logit, z); got != base {
			t.Fatalf("MV(logit(s)) = %.17g, MV(s) = %.17g", got, base)
		}
		perm := rng.Perm(n)
		ps, pz := make([]float64, n), make([]int, n)
		for i, j := range perm {
			ps[i], pz[i] = s[j], z[j]
		}
		if got := MV(ps, pz); math.Abs(got-base) > 1e-15 {
			t.Fatalf("MV of a permutation = %.17g, MV = %.17g", got, base)
		}
	}
}

func TestBinaryIndicesInRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := range 500 {
		n := 1 + rng.IntN(80)
		p, y, a := make([]float64, n), make([]float64, n), make([]int, n)
		shift := rng.Float64() // how strongly p depends on a
		for i := range n {
			a[i] = rng.IntN(2)
			y[i] = float64(rng.IntN(2))
			p[i] = min(1, rng.Float64()*(1-shift)+shift*float64(a[i]))
			if trial%2 == 0 {
				p[i] = math.Round(p[i]*4) / 4 // ties
			}
		}
		for name, v := range map[string]float64{"DP": DP(p, a), "EO": EO(p, y, a), "EOpp": EOpp(p, y, a)} {
			if !(v >= 0 && v <= 0.25) {
				t.Fatalf("trial %d: %s = %g outside [0, 1/4]", trial, name, v)
			}
		}
	}
	// Complete separation with large groups approaches the supremum for
	// continuous scores, 1/12 (= ¼·∫∫ of the squared CDF gap), and stays below ¼.
	const m = 2000
	p, a := make([]float64, 2*m), make([]int, 2*m)
	for i := range m {
		p[i], a[i] = float64(i)/(2*m), 0
		p[m+i], a[m+i] = float64(m+i)/(2*m), 1
	}
	if got := DP(p, a); math.Abs(got-1.0/12) > 1e-3 {
		t.Errorf("DP of separated groups = %g, want ≈ 1/12", got)
	}
}

func TestMVNaNAndLengths(t *testing.T) {
	if got := MV([]float64{0.1, math.NaN()}, []int{0, 1}); !math.IsNaN(got) {
		t.Errorf("MV with a NaN score = %g, want NaN", got)
	}
	for name, f := range map[string]func(){
		"MV":   func() { MV([]float64{1}, nil) },
		"DP":   func() { DP([]float64{1}, nil) },
		"EO":   func() { EO([]float64{1}, []float64{1}, nil) },
		"EOpp": func() { EOpp([]float64{1}, []float64{1}, nil) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s with mismatched lengths did not panic", name)
				}
			}()
			f()
		}()
	}
}

func BenchmarkMV(b *testing.B) {
	for _, n := range []int{1e5, 1e6} {
		rng := rand.New(rand.NewPCG(1, uint64(n)))
		s := make([]float64, n)
		z := make([]int, n)
		for i := range n {
			z[i] = rng.IntN(2)
			s[i] = rng.Float64() + 0.1*float64(z[i])
		}
		b.Run(fmt.Sprintf("n=1e%d", int(math.Log10(float64(n)))), func(b *testing.B) {
			for b.Loop() {
				MV(s, z)
			}
		})
	}
}
