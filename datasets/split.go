package datasets

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Split is one train/test split: row indices into a Dataset, each list in
// increasing order.
type Split struct{ Train, Test []int }

// SplitOptions size a split: either TrainFraction (0 = 0.5; the test split
// gets the remaining rows) or row counts. With only TrainSize (TestSize) the
// test (train) split gets the remaining rows.
type SplitOptions struct {
	TrainFraction       float64
	TrainSize, TestSize int
}

// sizes returns the train and test row counts for n rows.
func (o SplitOptions) sizes(n int) (train, test int, err error) {
	switch {
	case o.TrainSize < 0 || o.TestSize < 0:
		return 0, 0, fmt.Errorf("split sizes must be ≥ 0, got train %d, test %d", o.TrainSize, o.TestSize)
	case o.TrainFraction != 0 && (o.TrainSize != 0 || o.TestSize != 0):
		return 0, 0, errors.New("give either a train fraction or row counts, not both")
	case o.TrainSize != 0 || o.TestSize != 0:
		train, test = o.TrainSize, o.TestSize
		if train == 0 {
			train = n - test
		}
		if test == 0 {
			test = n - train
		}
		if train+test > n {
			return 0, 0, fmt.Errorf("split of %d train and %d test rows: the dataset has only %d rows", train, test, n)
		}
	default:
		f := o.TrainFraction
		if f == 0 {
			f = 0.5
		}
		if !(f > 0 && f < 1) {
			return 0, 0, fmt.Errorf("train fraction %g: want a value in (0, 1)", f)
		}
		train = int(math.Round(f * float64(n)))
		test = n - train
	}
	if train < 1 || test < 1 {
		return 0, 0, fmt.Errorf("split of %d rows into %d train and %d test rows: each needs at least one row", n, train, test)
	}
	return train, test, nil
}

// Split draws a train/test split stratified by y: each class contributes to
// both parts in proportion to its size (largest remainders decide the
// rounding). With groups (d.Levels) it is stratified by (y, group) instead,
// and every (y, group) cell of the data must have a row in both parts. The
// split depends only on the data and the state of rng.
func (d *Dataset) Split(opt SplitOptions, rng *rand.Rand) (Split, error) {
	if rng == nil {
		return Split{}, errors.New("split: nil random generator")
	}
	nTrain, nTest, err := opt.sizes(d.N)
	if err != nil {
		return Split{}, fmt.Errorf("split: %w", err)
	}
	if d.Levels != nil {
		return d.splitGroups(nTrain, nTest, rng)
	}
	var class [2][]int
	for i, y := range d.Y {
		c := 0
		if y == 1 {
			c = 1
		}
		class[c] = append(class[c], i)
	}
	// Rows taken per class, then how many of those train on.
	take := apportion(nTrain+nTest, [2]int{len(class[0]), len(class[1])})
	train := apportion(nTrain, take)
	for c := range class {
		if len(class[c]) > 0 && (train[c] == 0 || take[c]-train[c] == 0) {
			return Split{}, fmt.Errorf("split: %d train and %d test rows leave no row with y=%d (%d such rows) in one part",
				nTrain, nTest, c, len(class[c]))
		}
	}
	return drawCells(class[:], train[:], take[:], rng), nil
}

// splitGroups is Split stratified by the cells (y, group), taken in the
// order y = 0 then y = 1, groups in level order within each.
func (d *Dataset) splitGroups(nTrain, nTest int, rng *rand.Rand) (Split, error) {
	R := len(d.Levels)
	cells := make([][]int, 2*R)
	for i, y := range d.Y {
		c := d.Groups[i]
		if y == 1 {
			c += R
		}
		cells[c] = append(cells[c], i)
	}
	sizes := make([]int, len(cells))
	for c := range cells {
		sizes[c] = len(cells[c])
	}
	take := apportionN(nTrain+nTest, sizes)
	train := apportionN(nTrain, take)
	for c := range cells {
		if len(cells[c]) > 0 && (train[c] == 0 || take[c]-train[c] == 0) {
			part := "training"
			if train[c] > 0 {
				part = "test"
			}
			return Split{}, fmt.Errorf("split: %d train and %d test rows leave the %s part without a row of group %q with y=%d (%d such rows in the data); every group needs rows of each of its classes in both parts: use more rows, or a larger --min-group-rows",
				nTrain, nTest, part, d.Levels[c%R], c/R, len(cells[c]))
		}
	}
	return drawCells(cells, train, take, rng), nil
}

// drawCells draws a split from the strata cells, in order: cell c's rows
// shuffled by rng, the first train[c] of them training rows and the next
// take[c] − train[c] test rows; each part sorted.
func drawCells(cells [][]int, train, take []int, rng *rand.Rand) Split {
	var s Split
	for c := range cells {
		idx := slices.Clone(cells[c])
		rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		s.Train = append(s.Train, idx[:train[c]]...)
		s.Test = append(s.Test, idx[train[c]:take[c]]...)
	}
	slices.Sort(s.Train)
	slices.Sort(s.Test)
	return s
}

// apportionN is apportion for any number of weights.
func apportionN(total int, w []int) []int {
	sum := 0
	for _, v := range w {
		sum += v
	}
	out := make([]int, len(w))
	if sum == 0 {
		return out
	}
	rem := make([]int, len(w))
	left := total
	for c := range w {
		out[c] = total * w[c] / sum
		rem[c] = total * w[c] % sum
		left -= out[c]
	}
	for ; left > 0; left-- {
		c := 0
		for k := range rem {
			if rem[k] > rem[c] {
				c = k
			}
		}
		out[c]++
		rem[c] = -1
	}
	return out
}

// apportion divides total in proportion to weights (largest remainder
// method, ties to the first); each share is at most its weight when total is
// at most their sum.
func apportion(total int, w [2]int) [2]int {
	sum := w[0] + w[1]
	var out [2]int
	if sum == 0 {
		return out
	}
	var rem [2]int
	left := total
	for c := range w {
		out[c] = total * w[c] / sum
		rem[c] = total * w[c] % sum
		left -= out[c]
	}
	for left > 0 {
		c := 0
		if rem[1] > rem[0] {
			c = 1
		}
		out[c]++
		rem[c] = -1
		left--
	}
	return out
}

// Standardizer maps each column to mean 0 and variance 1 with statistics of
// the training rows (docs/method.md §1). A column constant on those rows has SD 0 and
// becomes 0.
type Standardizer struct{ Mean, SD []float64 }

// FitStandardizer computes the mean and the population standard deviation
// of each column over rows.
func FitStandardizer(d *Dataset, rows []int) *Standardizer {
	s := &Standardizer{Mean: make([]float64, d.Dim), SD: make([]float64, d.Dim)}
	if len(rows) == 0 {
		return s
	}
	constant := make([]bool, d.Dim)
	first := d.X[rows[0]*d.Dim : (rows[0]+1)*d.Dim]
	for j := range constant {
		constant[j] = true
	}
	for _, i := range rows {
		for j, v := range d.X[i*d.Dim : (i+1)*d.Dim] {
			s.Mean[j] += v
			if v != first[j] {
				constant[j] = false
			}
		}
	}
	n := float64(len(rows))
	for j := range s.Mean {
		s.Mean[j] /= n
		if constant[j] {
			// Exact: a sum of equal values need not divide back to the value.
			s.Mean[j] = first[j]
		}
	}
	for _, i := range rows {
		for j, v := range d.X[i*d.Dim : (i+1)*d.Dim] {
			e := v - s.Mean[j]
			s.SD[j] += e * e
		}
	}
	for j := range s.SD {
		switch {
		case constant[j]:
			s.SD[j] = 0
		case math.IsInf(s.SD[j], 0):
			s.SD[j] = scaledSD(d, rows, j, s.Mean[j])
		default:
			s.SD[j] = math.Sqrt(s.SD[j] / n)
		}
	}
	return s
}

// scaledSD is column j's population standard deviation around mean when
// the sum of squares overflows (values near MaxMagnitude): the deviations
// are scaled by a power of two, exactly, so that the sum stays finite. The
// plain sum is kept wherever it is finite, so that the results of ordinary
// data do not change in the last bit.
func scaledSD(d *Dataset, rows []int, j int, mean float64) float64 {
	const scale = 0x1p-512 // |v − mean| ≤ 2·MaxMagnitude = 2⁵¹²
	var sum float64
	for _, i := range rows {
		e := (d.X[i*d.Dim+j] - mean) * scale
		sum += e * e
	}
	return math.Sqrt(sum/float64(len(rows))) / scale
}

// Apply returns the standardized rows of d, row-major len(rows)×d.Dim.
func (s *Standardizer) Apply(d *Dataset, rows []int) []float64 {
	if len(s.Mean) != d.Dim || len(s.SD) != d.Dim {
		panic(fmt.Sprintf("datasets: standardizer of %d columns applied to data of %d", len(s.Mean), d.Dim))
	}
	out := make([]float64, len(rows)*d.Dim)
	for r, i := range rows {
		dst := out[r*d.Dim : (r+1)*d.Dim]
		for j, v := range d.X[i*d.Dim : (i+1)*d.Dim] {
			if s.SD[j] != 0 {
				dst[j] = (v - s.Mean[j]) / s.SD[j]
			}
		}
	}
	return out
}
