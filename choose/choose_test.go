package choose

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

func TestFrontAndChoose(t *testing.T) {
	pts := []Point{
		{0.60, 0.20, 0.70},
		{0.62, 0.12, 0.68}, // dominated by the next
		{0.61, 0.10, 0.69},
		{0.62, 0.02, 0.67},
		{0.70, 0.01, 0.60},
	}
	idx := Front(pts)
	if !slices.Equal(idx, []int{0, 2, 3, 4}) {
		t.Fatalf("Front = %v", idx)
	}
	front := make([]Point, len(idx))
	for k, i := range idx {
		front[k] = pts[i]
	}
	cases := []struct {
		rule    Rule
		want    int // index into front, −1 for none
		closest int
	}{
		{Rule{MaxUnfairness, 0.05}, 2, 0},
		{Rule{MaxUnfairness, 0.1}, 1, 0},
		{Rule{MaxUnfairness, 0.001}, -1, 3},
		{Rule{MaxRisk, 0.615}, 1, 0},
		{Rule{MaxRisk, 0.5}, -1, 0},
		{Rule{MinAccuracy, 0.7}, 0, 0},
		{Rule{MinAccuracy, 0.95}, -1, 0},
		{Rule{Knee, 0}, 2, 0},
	}
	for _, tc := range cases {
		t.Run(tc.rule.String(), func(t *testing.T) {
			got, err := Choose(front, tc.rule)
			if tc.want >= 0 {
				if err != nil || got != tc.want {
					t.Fatalf("Choose = %d, %v; want %d", got, err, tc.want)
				}
				return
			}
			var none *NoneError
			if !errors.As(err, &none) || !errors.Is(err, ErrNone) || none.Closest != tc.closest {
				t.Fatalf("Choose = %d, %v; want no point, closest %d", got, err, tc.closest)
			}
		})
	}
	// A straight front has no knee: its best-balanced point, the middle.
	line := []Point{{0, 1, 0}, {0.5, 0.5, 0}, {1, 0, 0}}
	if got, err := Choose(line, Rule{Kind: Knee}); got != 1 || err != nil {
		t.Errorf("straight front: Choose = %d, %v; want 1", got, err)
	}
	// Only an empty front has no knee.
	var none *NoneError
	if _, err := Choose(nil, Rule{Kind: Knee}); !errors.As(err, &none) || none.Closest != -1 {
		t.Errorf("empty front: err = %v", err)
	}
}

func ExampleChoose() {
	front := []Point{{0.60, 0.20, 0.70}, {0.61, 0.10, 0.69}, {0.62, 0.02, 0.67}, {0.70, 0.01, 0.60}}
	i, _ := Choose(front, Rule{Kind: MaxUnfairness, Bound: 0.05})
	fmt.Println("lowest risk with unfairness ≤ 0.05:", front[i])
	_, err := Choose(front, Rule{Kind: MinAccuracy, Bound: 0.8})
	var none *NoneError
	if errors.As(err, &none) {
		fmt.Println(err, "; closest:", front[none.Closest])
	}
	// Output:
	// lowest risk with unfairness ≤ 0.05: {0.62 0.02 0.67}
	// no point of the front has accuracy ≥ 0.8 ; closest: {0.6 0.2 0.7}
}

func TestKneeOf(t *testing.T) {
	cases := []struct {
		name   string
		front  []Point
		want   int
		stands bool
		note   string
	}{
		// The front of TestFrontAndChoose: its knee stands out.
		{"a knee", []Point{{0.60, 0.20, 0.70}, {0.61, 0.10, 0.69}, {0.62, 0.02, 0.67}, {0.70, 0.01, 0.60}}, 2, true, ""},
		// Every trade-off is exactly 1: the point whose larger normalised
		// coordinate is smallest, the middle.
		{"straight", []Point{{0.5, 0.5, 0}, {0.625, 0.375, 0}, {0.75, 0.25, 0}, {0.875, 0.125, 0}, {1, 0, 0}}, 2, false, KneeNote},
		// Normalised, the two points are (0, 1) and (1, 0): equally
		// balanced, the first by position.
		{"two points", []Point{{0.5, 0.4, 0}, {0.6, 0.1, 0}}, 0, false, KneeNote},
		{"one point", []Point{{0.5, 0.4, 0}}, 0, false, "the front is one point: it was taken as the knee"},
		{"empty", nil, -1, false, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, stands := KneeOf(tc.front)
			if got != tc.want || stands != tc.stands {
				t.Errorf("KneeOf = %d, %v; want %d, %v", got, stands, tc.want, tc.stands)
			}
			if tc.front == nil {
				return
			}
			if note := kneeNote(tc.front, Rule{Kind: Knee}); note != tc.note {
				t.Errorf("note %q, want %q", note, tc.note)
			}
			if note := kneeNote(tc.front, Rule{Kind: MaxRisk, Bound: 1}); note != "" {
				t.Errorf("note of a requirement %q, want none", note)
			}
		})
	}
}

func TestBalanced(t *testing.T) {
	cases := []struct {
		name  string
		front []Point
		want  int
	}{
		// Normalised: (0, 1), (0.1, 0.6), (0.45, 0.45), (1, 0). The third
		// gives up least on either axis (0.45), though the second is
		// nearer (0, 0) in Euclidean distance (0.61 against 0.64).
		{"chebyshev, not euclidean", []Point{{0, 1, 0}, {0.1, 0.6, 0}, {0.45, 0.45, 0}, {1, 0, 0}}, 2},
		// (0.4, 0.5) and (0.5, 0.2) give up 0.5 at most: the nearer to
		// (0, 0) in Euclidean distance, though later.
		{"ties by euclidean distance", []Point{{0, 1, 0}, {0.4, 0.5, 0}, {0.5, 0.2, 0}, {1, 0, 0}}, 2},
		// Scaled axes: the normalisation makes them weigh alike.
		{"scaled", []Point{{100, 0.001, 0}, {160, 0.0004, 0}, {200, 0, 0}}, 1},
		{"one axis constant", []Point{{1, 0.3, 0}, {1, 0.3, 0}}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Balanced(tc.front); got != tc.want {
				t.Errorf("Balanced = %d, want %d", got, tc.want)
			}
		})
	}
}
