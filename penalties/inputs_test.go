package penalties_test

import (
	"math"
	"testing"

	"github.com/fpareto/fp/penalties"
	"github.com/fpareto/fp/train"
)

// The built-in input columns on a batch worked by hand, padding included,
// and cleared on a batch that lacks a group.
func TestInputColumnsHandWorked(t *testing.T) {
	d := train.Data{N: 3, Dim: 2, X: []float64{1, 2, 3, 4, 5, 6}, Y: []float64{1, 0, 1}, A: []float64{1, 0, 0}, W: []float64{0.5, 0.25, 0.75}}
	b := train.NewBatch(5, 2, 1, 3, penalties.Contrast, penalties.Group1Mean, penalties.Group0Mean)
	b.Fill(d, []int{2, 0, 1})
	// Rows: (a=0,w=.75), (a=1,w=.5), (a=0,w=.25); Σ(1−a)w = 1, Σaw = 0.5.
	want := map[string][]float64{
		penalties.Contrast.Name:   {-0.75, 1, -0.25, 0, 0},
		penalties.Group1Mean.Name: {0, 1, 0, 0, 0},
		penalties.Group0Mean.Name: {0.5, 0, 0.5, 0, 0},
	}
	for name, w := range want {
		col := b.Column(name)
		for i := range w {
			if math.Abs(col[i]-w[i]) > 1e-15 {
				t.Errorf("%s = %v, want %v", name, col, w)
				break
			}
		}
	}
	b.Fill(d, []int{1})
	for name := range want {
		for i, v := range b.Column(name) {
			if v != 0 {
				t.Errorf("one-group batch: %s[%d] = %v, want 0", name, i, v)
			}
		}
	}
}
