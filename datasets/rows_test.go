package datasets

import (
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
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

// Lines longer than the reader's buffer, CRLF endings, blank lines and a
// last line without a newline are all read as encoding/csv would.
func TestRowReaderLinesOfAnyLength(t *testing.T) {
	long := strings.Repeat("x", 200_000)
	text := "a,b\r\n1," + long + "\r\n\r\n2,y"
	r, err := NewRowReader(strings.NewReader(text), "f.csv", "")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	var lines []int
	for {
		f, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(f[0])+":"+strconv.Itoa(len(f[1])))
		lines = append(lines, r.Line())
	}
	if strings.Join(got, " ") != "1:200000 2:1" || !slices.Equal(lines, []int{2, 4}) || !slices.Equal(r.Header(), []string{"a", "b"}) {
		t.Errorf("rows %v on lines %v, header %v", got, lines, r.Header())
	}
}
