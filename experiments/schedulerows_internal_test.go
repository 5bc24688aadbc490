package experiments

import (
	"math/rand/v2"
	"testing"

	"github.com/fpareto/fp/train"
)

// scheduleRows keeps every row unless asked for fewer, and then a fixed
// sample of distinct rows in their order, each row whole.
func TestScheduleRows(t *testing.T) {
	const n, dim = 50, 3
	d := train.Data{N: n, Dim: dim, X: make([]float64, n*dim), Y: make([]float64, n), A: make([]float64, n), W: make([]float64, n)}
	for i := 0; i < n; i++ {
		for j := 0; j < dim; j++ {
			d.X[i*dim+j] = float64(i) + float64(j)/10
		}
		d.Y[i], d.A[i], d.W[i] = float64(i%2), float64(i/3%2), float64(i)
	}
	for _, c := range []struct {
		most, want int
	}{{0, n}, {n, n}, {n + 5, n}, {7, 7}, {1, 1}} {
		s := scheduleRows(d, c.most, rand.New(rand.NewPCG(1, 2)))
		if s.N != c.want || len(s.X) != c.want*dim || len(s.Y) != c.want || len(s.W) != c.want {
			t.Fatalf("most %d: %d rows (%d values), want %d", c.most, s.N, len(s.X), c.want)
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("most %d: %v", c.most, err)
		}
		prev := -1
		for k := 0; k < s.N; k++ {
			i := int(s.W[k]) // the weight names the original row
			if i <= prev {
				t.Fatalf("most %d: rows out of order or repeated (%d after %d)", c.most, i, prev)
			}
			prev = i
			if s.X[k*dim] != float64(i) || s.X[k*dim+dim-1] != float64(i)+float64(dim-1)/10 || s.Y[k] != d.Y[i] || s.A[k] != d.A[i] {
				t.Fatalf("most %d: row %d is not original row %d", c.most, k, i)
			}
		}
	}
	a := scheduleRows(d, 10, rand.New(rand.NewPCG(3, 4)))
	b := scheduleRows(d, 10, rand.New(rand.NewPCG(3, 4)))
	for k := range a.W {
		if a.W[k] != b.W[k] {
			t.Fatal("the same generator drew different rows")
		}
	}
}
