package runfolder

import (
	"fmt"
	"math"

	"github.com/fpareto/fp/datasets"
)

// Parts is split m of a run as its candidates use it: the training rows,
// the selection rows and the test rows that remain (docs/method.md §1.4).
type Parts struct {
	// Split's Test rows are the test rows without the selection rows: the
	// rows of the records' test metrics.
	datasets.Split
	// Selection are the rows of the records' selection metrics (sel_*),
	// in increasing order; nil when the run keeps none.
	Selection []int
}

// PartsOf draws split m of d and sets c.SelectFraction of its test rows
// aside as selection rows. The test part is drawn as without selection
// rows (so --test-size sizes both together), and the selection rows are
// drawn from it with a generator of their own (seed, "selection", m): the
// fraction changes no other draw of the run.
func PartsOf(c Config, d *datasets.Dataset, m int) (Parts, error) {
	s, err := d.Split(datasets.SplitOptions{TrainFraction: c.TrainFraction, TrainSize: c.TrainSize, TestSize: c.TestSize},
		NewRand(c.Seed, "split", m, "", 0))
	if err != nil {
		return Parts{}, fmt.Errorf("split %d: %w", m, err)
	}
	p := Parts{Split: s}
	if !(c.SelectFraction > 0) {
		return p, nil
	}
	sel, rest := selectRows(c.Seed, m, d, s.Test, c.SelectFraction)
	if len(sel) == 0 || len(rest) == 0 {
		return Parts{}, fmt.Errorf("split %d: a select fraction of %g of %d test rows leaves %d selection and %d test rows; each needs at least one (use more test rows or another fraction)",
			m, c.SelectFraction, len(s.Test), len(sel), len(rest))
	}
	// Each part's fairness metrics compare the two groups: both must be
	// there, which is known now rather than after training.
	for _, part := range []struct {
		name string
		rows []int
	}{{"selection", sel}, {"test", rest}} {
		var n1 int
		for _, i := range part.rows {
			n1 += int(d.A[i])
		}
		if n1 == 0 || n1 == len(part.rows) {
			return Parts{}, fmt.Errorf("split %d: a select fraction of %g leaves %d %s rows, %d of them with a = 1: each part needs both groups (use more test rows or another fraction)",
				m, c.SelectFraction, len(part.rows), part.name, n1)
		}
	}
	p.Selection, p.Test = sel, rest
	return p, nil
}

// selectRows divides the test rows into selection rows, about frac of
// them, and the rest, stratified by (y, a) so that both keep the split's
// label and group mix: in each cell round(frac × its rows) are drawn. Both
// lists keep test's order.
func selectRows(seed uint64, m int, d *datasets.Dataset, test []int, frac float64) (sel, rest []int) {
	rng := NewRand(seed, "selection", m, "", 0)
	var cells [4][]int // positions in test, by 2y + a
	for k, i := range test {
		cell := 2*int(d.Y[i]) + int(d.A[i])
		cells[cell] = append(cells[cell], k)
	}
	isSel := make([]bool, len(test))
	for _, cell := range cells {
		rng.Shuffle(len(cell), func(i, j int) { cell[i], cell[j] = cell[j], cell[i] })
		for _, k := range cell[:int(math.Round(frac*float64(len(cell))))] {
			isSel[k] = true
		}
	}
	for k, i := range test {
		if isSel[k] {
			sel = append(sel, i)
		} else {
			rest = append(rest, i)
		}
	}
	return sel, rest
}
