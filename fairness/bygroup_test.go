package fairness

import (
	"math"
	"strings"
	"testing"
)

func TestByGroup(t *testing.T) {
	for _, tc := range []struct {
		name    string
		p, y, a []float64
		want    []GroupMetrics
	}{
		{
			// The hand-worked case of the mv tests: group 0 has scores .1 .2 .6
			// with labels 1 1 0, group 1 has .2 .3 .5 with labels 1 1 0.
			name: "hand-worked",
			p:    []float64{0.1, 0.2, 0.2, 0.3, 0.5, 0.6},
			y:    []float64{1, 1, 1, 1, 0, 0},
			a:    []float64{0, 0, 1, 1, 1, 0},
			want: []GroupMetrics{
				{A: 0, Count: 3, BaseRate: 2.0 / 3, MeanScore: 0.3, SelectionRate: 1.0 / 3, Accuracy: 0},
				{A: 1, Count: 3, BaseRate: 2.0 / 3, MeanScore: 1.0 / 3, SelectionRate: 1.0 / 3, Accuracy: 0},
			},
		},
		{
			// p = 0.5 is selected; an unequal split of the groups.
			name: "threshold and sizes",
			p:    []float64{0.5, 0.49, 0.9, 0.0, 1.0},
			y:    []float64{1, 0, 1, 0, 0},
			a:    []float64{1, 1, 1, 1, 0},
			want: []GroupMetrics{
				{A: 0, Count: 1, BaseRate: 0, MeanScore: 1, SelectionRate: 1, Accuracy: 0},
				{A: 1, Count: 4, BaseRate: 0.5, MeanScore: 1.89 / 4, SelectionRate: 0.5, Accuracy: 1},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ByGroup(tc.p, tc.y, zOf(tc.a))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("%d groups, want %d", len(got), len(tc.want))
			}
			for g := range got {
				w, r := tc.want[g], got[g]
				if r.A != w.A || r.Count != w.Count || math.Abs(r.BaseRate-w.BaseRate) > 1e-15 ||
					math.Abs(r.MeanScore-w.MeanScore) > 1e-15 || math.Abs(r.SelectionRate-w.SelectionRate) > 1e-15 ||
					math.Abs(r.Accuracy-w.Accuracy) > 1e-15 {
					t.Errorf("group %d = %+v, want %+v", g, r, w)
				}
			}
		})
	}
}

func TestByGroupRefusesBadInput(t *testing.T) {
	for _, tc := range []struct {
		name    string
		p, y, a []float64
		want    string
	}{
		{"one group", []float64{0.5, 0.5}, []float64{0, 1}, []float64{1, 1}, "every example is in group 1"},
		{"lengths", []float64{0.5}, []float64{0, 1}, []float64{0, 1}, "equal lengths"},
		{"probability", []float64{0.5, 1.5}, []float64{0, 1}, []float64{0, 1}, "example 1: probability 1.5"},
		{"NaN", []float64{math.NaN(), 0.5}, []float64{0, 1}, []float64{0, 1}, "example 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ByGroup(tc.p, tc.y, zOf(tc.a))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
