package datasets

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// The fast path of fastNumber gives strconv.ParseFloat's value, bit for bit.
func TestFastNumberMatchesParseFloat(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	cases := []string{"0", "-0", "+5", "1.", "0.1", "123456789012345", "1234567890123456", "0.000000000000001",
		"-98.7654321", "1e3", "0x1p-2", "Inf"}
	for range 20000 {
		digits := 1 + rng.IntN(16)
		s := ""
		for range digits {
			s += strconv.Itoa(rng.IntN(10))
		}
		if k := rng.IntN(digits + 1); k < digits {
			s = s[:k] + "." + s[k:]
		}
		if rng.IntN(2) == 0 {
			s = "-" + s
		}
		cases = append(cases, s)
	}
	for _, s := range cases {
		want, werr := strconv.ParseFloat(s, 64)
		got, err := fastNumber([]byte(s))
		if math.IsInf(want, 0) {
			if err == nil {
				t.Errorf("%q: no error for an infinite value", s)
			}
			continue
		}
		if werr != nil || err != nil {
			t.Errorf("%q: errors %v / %v", s, werr, err)
			continue
		}
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("%q: %v, ParseFloat %v", s, got, want)
		}
	}
}
