package datasets

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// toy is a dataset of n rows whose label is 1 on every k-th row.
func toy(n, k, dim int) *Dataset {
	d := &Dataset{N: n, Dim: dim, X: make([]float64, n*dim), Y: make([]float64, n), A: make([]float64, n)}
	for i := range n {
		if i%k == 0 {
			d.Y[i] = 1
		}
		d.A[i] = float64(i % 2)
		for j := range dim {
			d.X[i*dim+j] = float64((i*7+j*3)%11) + float64(j)
		}
	}
	return d
}

func TestSplitSizesAndStrata(t *testing.T) {
	d := toy(1001, 3, 2) // 334 positives, 667 negatives
	for _, tc := range []struct {
		opt               SplitOptions
		train, test       int
		trainPos, testPos int
	}{
		{SplitOptions{}, 501, 500, 167, 167}, // round(0.5 × 1001) = 501
		{SplitOptions{TrainFraction: 0.8}, 801, 200, 267, 67},
		{SplitOptions{TrainSize: 300, TestSize: 150}, 300, 150, 100, 50},
		{SplitOptions{TrainSize: 100}, 100, 901, 33, 301},
		{SplitOptions{TestSize: 100}, 901, 100, 301, 33},
		{SplitOptions{TrainSize: 10, TestSize: 5}, 10, 5, 3, 2},
	} {
		s, err := d.Split(tc.opt, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatalf("%+v: %v", tc.opt, err)
		}
		trainPos, testPos := count(sub(d.Y, s.Train)), count(sub(d.Y, s.Test))
		if len(s.Train) != tc.train || len(s.Test) != tc.test || trainPos != tc.trainPos || testPos != tc.testPos {
			t.Errorf("%+v: %d train rows (%d positive), %d test rows (%d positive); want %d (%d), %d (%d)",
				tc.opt, len(s.Train), trainPos, len(s.Test), testPos, tc.train, tc.trainPos, tc.test, tc.testPos)
		}
		if !slices.IsSorted(s.Train) || !slices.IsSorted(s.Test) {
			t.Errorf("%+v: indices not sorted", tc.opt)
		}
		seen := map[int]bool{}
		for _, i := range append(slices.Clone(s.Train), s.Test...) {
			if seen[i] || i < 0 || i >= d.N {
				t.Fatalf("%+v: row %d repeated or out of range", tc.opt, i)
			}
			seen[i] = true
		}
	}
}

func sub(v []float64, rows []int) []float64 {
	out := make([]float64, len(rows))
	for r, i := range rows {
		out[r] = v[i]
	}
	return out
}

func TestSplitDeterminism(t *testing.T) {
	d := toy(200, 4, 1)
	draw := func(seed uint64) Split {
		s, err := d.Split(SplitOptions{}, rand.New(rand.NewPCG(seed, 7)))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if a, b := draw(1), draw(1); !reflect.DeepEqual(a, b) {
		t.Error("the same generator state gave different splits")
	}
	if a, b := draw(1), draw(2); reflect.DeepEqual(a, b) {
		t.Error("different seeds gave the same split")
	}
}

func TestSplitPaperAdult(t *testing.T) {
	d, err := Load("adult-sex", Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := d.Split(SplitOptions{}, rand.New(rand.NewPCG(0, 0)))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Train) != 15470 || len(s.Test) != 15470 {
		t.Errorf("split %d / %d, want 15470 / 15470 (the paper's Table 1)", len(s.Train), len(s.Test))
	}
	if p, q := count(sub(d.Y, s.Train)), count(sub(d.Y, s.Test)); p != 3752 || q != 3752 {
		t.Errorf("%d and %d positives, want 3752 each", p, q)
	}
}

func TestSplitErrors(t *testing.T) {
	d := toy(20, 10, 1) // 2 positives
	rng := rand.New(rand.NewPCG(1, 1))
	for _, tc := range []struct {
		opt  SplitOptions
		want string
	}{
		{SplitOptions{TrainFraction: 0.5, TrainSize: 5}, "not both"},
		{SplitOptions{TrainFraction: 1}, "(0, 1)"},
		{SplitOptions{TrainFraction: -0.2}, "(0, 1)"},
		{SplitOptions{TrainSize: 15, TestSize: 10}, "only 20 rows"},
		{SplitOptions{TrainSize: -1}, "≥ 0"},
		{SplitOptions{TrainSize: 20}, "at least one row"},
		{SplitOptions{TrainSize: 3, TestSize: 3}, "no row with y=1"},
	} {
		if _, err := d.Split(tc.opt, rng); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one about %q", tc.opt, err, tc.want)
		}
	}
	if _, err := d.Split(SplitOptions{}, nil); err == nil {
		t.Error("nil generator: no error")
	}
}

func TestApportion(t *testing.T) {
	for total := 0; total <= 30; total++ {
		for w0 := 0; w0 <= 15; w0++ {
			for w1 := 0; w1 <= 15; w1++ {
				if w0+w1 == 0 || total > w0+w1 {
					continue
				}
				got := apportion(total, [2]int{w0, w1})
				exact0 := float64(total) * float64(w0) / float64(w0+w1)
				if got[0]+got[1] != total || got[0] > w0 || got[1] > w1 || math.Abs(float64(got[0])-exact0) >= 1 {
					t.Fatalf("apportion(%d, %d, %d) = %v", total, w0, w1, got)
				}
			}
		}
	}
}

func TestStandardizer(t *testing.T) {
	d := &Dataset{N: 5, Dim: 3, X: []float64{
		1, 0.1, 10,
		2, 0.1, 0,
		3, 0.1, 0,
		4, 0.1, 0,
		100, 7, 0, // a test row: must not move the statistics
	}}
	train := []int{0, 1, 2, 3}
	s := FitStandardizer(d, train)
	wantMean, wantSD := []float64{2.5, 0.1, 2.5}, []float64{math.Sqrt(1.25), 0, math.Sqrt(3*2.5*2.5/4 + 7.5*7.5/4)}
	for j := range 3 {
		if math.Abs(s.Mean[j]-wantMean[j]) > 1e-12 || math.Abs(s.SD[j]-wantSD[j]) > 1e-12 {
			t.Errorf("column %d: mean %v SD %v, want %v %v", j, s.Mean[j], s.SD[j], wantMean[j], wantSD[j])
		}
	}
	z := s.Apply(d, train)
	for j := range 3 {
		var m, v float64
		for r := range train {
			m += z[r*3+j] / 4
		}
		for r := range train {
			v += (z[r*3+j] - m) * (z[r*3+j] - m) / 4
		}
		want := 1.0
		if j == 1 {
			want = 0 // constant on the training rows
		}
		if math.Abs(m) > 1e-12 || math.Abs(v-want) > 1e-12 {
			t.Errorf("standardized column %d: mean %v variance %v, want 0 and %v", j, m, v, want)
		}
	}
	test := s.Apply(d, []int{4})
	if want := []float64{(100 - 2.5) / math.Sqrt(1.25), 0, -1 / math.Sqrt(3)}; math.Abs(test[0]-want[0]) > 1e-9 || test[1] != 0 || math.Abs(test[2]-want[2]) > 1e-12 {
		t.Errorf("test row %v, want %v", test, want)
	}
	for _, v := range test {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Errorf("non-finite value %v", v)
		}
	}
}

func TestStatsAndSubset(t *testing.T) {
	d := &Dataset{N: 5, Dim: 0, Y: []float64{1, 0, 1, 1, 0}, A: []float64{0, 0, 1, 1, 1}}
	got := d.Stats()
	want := Stats{Rows: 5, PY: 0.6, PA: 0.6, PYA0: 0.5, PYA1: 2.0 / 3}
	if got != want {
		t.Errorf("Stats() = %+v, want %+v", got, want)
	}
	y, a := d.Subset([]int{4, 0})
	if !reflect.DeepEqual(y, []float64{0, 1}) || !reflect.DeepEqual(a, []float64{1, 0}) {
		t.Errorf("Subset = %v, %v", y, a)
	}
}

// Values up to MaxMagnitude, whose squares summed overflow, are
// standardized without an infinity: the statistics and every standardized
// value are finite and right.
func TestStandardizerLargeValues(t *testing.T) {
	const a = MaxMagnitude
	cases := []struct {
		name     string
		col      []float64
		mean, sd float64
	}{
		{"alternating at the limit", []float64{a, -a, a, -a, a, -a}, 0, a},
		{"one large value", []float64{a, 0, 0, 0}, a / 4, a * math.Sqrt(3) / 4},
		{"squares overflow only when summed", []float64{3e153, -3e153, 3e153, -3e153, 3e153, -3e153, 3e153, -3e153, 3e153, -3e153, 3e153, -3e153, 3e153, -3e153, 3e153, -3e153, 3e153, -3e153, 3e153, -3e153}, 0, 3e153},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := &Dataset{N: len(tc.col), Dim: 2}
			rows := make([]int, len(tc.col))
			for i, v := range tc.col {
				d.X = append(d.X, v, float64(i))
				rows[i] = i
			}
			s := FitStandardizer(d, rows)
			if s.Mean[0] != tc.mean || math.Abs(s.SD[0]-tc.sd) > 1e-15*tc.sd {
				t.Errorf("mean %g SD %g, want %g %g", s.Mean[0], s.SD[0], tc.mean, tc.sd)
			}
			for i, v := range s.Apply(d, rows) {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("standardized value %d is %g", i, v)
				}
			}
		})
	}
}
