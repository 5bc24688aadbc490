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
	// A straight front has no knee; the closest is a point of finite trade-off.
	line := []Point{{0, 1, 0}, {0.5, 0.5, 0}, {1, 0, 0}}
	var none *NoneError
	if _, err := Choose(line, Rule{Kind: Knee}); !errors.As(err, &none) || none.Closest < 0 {
		t.Errorf("straight front: err = %v", err)
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

func TestKneeAlternatives(t *testing.T) {
	cases := []struct {
		name  string
		front []Point
		want  []int
	}{
		// Every trade-off is exactly 1: the first three by position.
		{"straight", []Point{{0.5, 0.5, 0}, {0.625, 0.375, 0}, {0.75, 0.25, 0}, {0.875, 0.125, 0}, {1, 0, 0}}, []int{0, 1, 2}},
		// Two points have no finite trade-off: both, nearest the ideal point first.
		{"two points", []Point{{0.5, 0.4, 0}, {0.6, 0.1, 0}}, []int{0, 1}},
		{"one point", []Point{{0.5, 0.4, 0}}, []int{0}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Choose(tc.front, Rule{Kind: Knee})
			var none *NoneError
			if !errors.As(err, &none) || !slices.Equal(none.Alternatives, tc.want) || none.Closest != tc.want[0] {
				t.Errorf("err = %v (%+v), want alternatives %v", err, none, tc.want)
			}
		})
	}
}
