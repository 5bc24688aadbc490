package model

import (
	"math"
	"math/rand/v2"
	"testing"
)

// FillMask draws the masks of the plain rule: 0 where Float64() < p.
func TestFillMaskIsThePlainRule(t *testing.T) {
	for _, p := range []float64{0.2, 0.5, 0.3, 1e-9, 0.999999, 0.1 + 0.2} {
		got := make([]float64, 20000)
		FillMask(rand.New(rand.NewPCG(4, 2)), got, p)
		rng := rand.New(rand.NewPCG(4, 2))
		keep, zeros := 1/(1-p), 0
		for i, v := range got {
			want := keep
			if rng.Float64() < p {
				want = 0
				zeros++
			}
			if v != want {
				t.Fatalf("p = %g, entry %d: %v, want %v", p, i, v, want)
			}
		}
		if p == 0.5 && (zeros < 9500 || zeros > 10500) {
			t.Errorf("p = 0.5: %d zeros of 20000", zeros)
		}
	}
}

// splitMix64 is SplitMix64's output sequence from seed, written plainly.
func splitMix64(seed uint64, n int) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		seed += 0x9e3779b97f4a7c15
		z := seed
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		out[i] = z ^ (z >> 31)
	}
	return out
}

// FillMaskBlocks: one draw of the generator per call, SplitMix64 from it,
// three 21-bit entries per output in the documented layout, 0 where the
// bits fall below ⌈p·2²¹⌉; the share of zeros is p. Lengths not a multiple
// of 12, and longer than one internal chunk, included.
func TestFillMaskBlocks(t *testing.T) {
	cases := []struct {
		p float64
		n int
	}{{0.2, 30000}, {0.5, 30001}, {0.3, 30011}, {1e-9, 7}, {0.999999, 2}, {0.2, 0}, {0.2, 769}, {0, 5}}
	for _, c := range cases {
		got := make([]float64, c.n)
		rng := rand.New(rand.NewPCG(4, 2))
		FillMaskBlocks(rng, got, c.p)
		twin := rand.New(rand.NewPCG(4, 2))
		if c.p > 0 {
			seed := twin.Uint64()
			words := splitMix64(seed, (c.n+11)/12*4)
			t0 := uint64(math.Ceil(c.p * (1 << 21)))
			keep, zeros := 1/(1-c.p), 0
			for i, v := range got {
				want := keep
				if words[i/12*4+i%4]>>(21*(i%12/4))&(1<<21-1) < t0 {
					want = 0
					zeros++
				}
				if v != want {
					t.Fatalf("p = %g, n = %d, entry %d: %v, want %v", c.p, c.n, i, v, want)
				}
			}
			if c.n > 10000 {
				if f := float64(zeros) / float64(c.n); math.Abs(f-c.p) > 0.01 {
					t.Errorf("p = %g: share of zeros %g", c.p, f)
				}
			}
		} else {
			for i, v := range got {
				if v != 1 {
					t.Fatalf("p = 0: entry %d is %v, want 1", i, v)
				}
			}
		}
		// Exactly one draw of the generator, whatever the length.
		if c.p > 0 && rng.Uint64() != twin.Uint64() {
			t.Errorf("p = %g, n = %d: the generator moved by more than one draw", c.p, c.n)
		}
	}
}
