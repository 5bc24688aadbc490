package reductions

import (
	"fmt"
	"math"
)

// The constraints (moments) of the grid search.
const (
	DP = "dp" // demographic parity: P(h = 1 | a) = P(h = 1)
	EO = "eo" // equalized odds: P(h = 1 | a, y) = P(h = 1 | y) for y = 0, 1
)

// GridLimit bounds the multipliers' L1 norm, Fairlearn's default
// grid_limit.
const GridLimit = 2.0

// A Moment is a DP or EO constraint over R groups, with the event and
// group-event probabilities of the rows it was loaded from. Its
// constraints are indexed by (event, group) for the first R − 1 groups
// (Fairlearn's basis): Dim of them.
type Moment struct {
	constraint string
	groups     int
	events     int
	pEvent     []float64   // P(event e)
	pGroup     [][]float64 // P(event e, group g)
}

// event is the row's event: 0 for DP; the label for EO.
func (m *Moment) event(y float64) int {
	if m.constraint == EO {
		return int(y)
	}
	return 0
}

// NewMoment loads a moment from rows of labels y (0 or 1) and group codes
// g (0 … groups−1).
func NewMoment(constraint string, y []float64, g []int, groups int) (*Moment, error) {
	m := &Moment{constraint: constraint, groups: groups}
	switch constraint {
	case DP:
		m.events = 1
	case EO:
		m.events = 2
	default:
		return nil, fmt.Errorf("constraint %q, want %s or %s", constraint, DP, EO)
	}
	if groups < 2 || len(y) != len(g) || len(y) == 0 {
		return nil, fmt.Errorf("moment: %d labels, %d groups of %d", len(y), len(g), groups)
	}
	m.pEvent = make([]float64, m.events)
	m.pGroup = make([][]float64, m.events)
	for e := range m.pGroup {
		m.pGroup[e] = make([]float64, groups)
	}
	n := float64(len(y))
	for i := range y {
		if y[i] != 0 && y[i] != 1 {
			return nil, fmt.Errorf("moment: row %d: label %v, want 0 or 1", i, y[i])
		}
		if g[i] < 0 || g[i] >= groups {
			return nil, fmt.Errorf("moment: row %d: group %d, want 0 … %d", i, g[i], groups-1)
		}
		e := m.event(y[i])
		m.pEvent[e] += 1 / n
		m.pGroup[e][g[i]] += 1 / n
	}
	for e := range m.pGroup {
		for r, p := range m.pGroup[e] {
			if p == 0 {
				what := "rows"
				if m.constraint == EO {
					what = fmt.Sprintf("rows of label %d", e)
				}
				return nil, fmt.Errorf("moment: group %d has no %s: the constraint compares it; use another split or --constraint dp", r, what)
			}
		}
	}
	return m, nil
}

// Dim is the number of multipliers: (R − 1) per event.
func (m *Moment) Dim() int { return m.events * (m.groups - 1) }

// Costs relabels rows for the multipliers mult (Dim of them, the signed
// coefficients of Fairlearn's basis: λ⁺ − λ⁻ of each constraint) as the
// cost-sensitive problem the Lagrangian's best response solves: the signed
// weight of a row is the error's, 2y − 1, plus Σ_c mult_c·(1{event}/P(event)
// − 1{event, group}/P(event, group)); the row's new label is 1 where that
// weight is positive, and its weight the weight's absolute value. The
// weights are scaled to mean 1 over the rows (a scale of the whole loss,
// which changes no minimiser). The probabilities are the moment's: rows
// other than those it was loaded from (a validation part) are weighted as
// the training rows are.
func (m *Moment) Costs(mult []float64, y []float64, g []int) (labels, weights []float64, err error) {
	if len(mult) != m.Dim() {
		return nil, nil, fmt.Errorf("%d multipliers, want %d", len(mult), m.Dim())
	}
	labels, weights = make([]float64, len(y)), make([]float64, len(y))
	var sum float64
	for i := range y {
		e := m.event(y[i])
		w := 2*y[i] - 1
		for r := 0; r < m.groups-1; r++ {
			c := mult[e*(m.groups-1)+r]
			if c == 0 {
				continue
			}
			u := 1 / m.pEvent[e]
			if g[i] == r {
				u -= 1 / m.pGroup[e][r]
			}
			w += c * u
		}
		if w > 0 {
			labels[i] = 1
		}
		weights[i] = math.Abs(w)
		sum += weights[i]
	}
	if sum == 0 {
		return labels, weights, fmt.Errorf("every row's weight is 0 at multipliers %v", mult)
	}
	mean := sum / float64(len(y))
	for i := range weights {
		weights[i] /= mean
	}
	return labels, weights, nil
}

// Gamma is the moment's constraint values of decisions d (probabilities of
// selection) on the rows it was loaded from, Fairlearn's gamma for the "+"
// sign: for each (event, group) of the basis, P(h = 1 | event, group) −
// P(h = 1 | event).
func (m *Moment) Gamma(d, y []float64, g []int) []float64 {
	sel := make([][]float64, m.events)
	for e := range sel {
		sel[e] = make([]float64, m.groups)
	}
	ev := make([]float64, m.events)
	n := float64(len(d))
	for i := range d {
		e := m.event(y[i])
		sel[e][g[i]] += d[i] / n
		ev[e] += d[i] / n
	}
	out := make([]float64, 0, m.Dim())
	for e := 0; e < m.events; e++ {
		for r := 0; r < m.groups-1; r++ {
			out = append(out, sel[e][r]/m.pGroup[e][r]-ev[e]/m.pEvent[e])
		}
	}
	return out
}

// Grid is the multipliers of a grid search of size points over dim
// coordinates, as Fairlearn's GridSearch makes them (its _GridGenerator
// with neg_allowed everywhere and no forced L1 norm): the points of the
// smallest integer lattice of L1 norm at most n that has size points, in
// its order, the first size of them, scaled by limit/n.
func Grid(size, dim int, limit float64) [][]float64 {
	if size < 1 || dim < 1 {
		return nil
	}
	units := int(math.Floor(math.Pow(float64(size)/math.Pow(2, float64(dim)), 1/float64(dim)) - 1))
	units = max(units, 0)
	for {
		var acc [][]float64
		entry := make([]float64, dim)
		var walk func(index, maxVal int)
		walk = func(index, maxVal int) {
			if index == dim {
				acc = append(acc, append([]float64(nil), entry...))
				return
			}
			for v := -maxVal; v <= maxVal; v++ {
				entry[index] = float64(v)
				walk(index+1, maxVal-abs(v))
			}
		}
		walk(0, units)
		if len(acc) >= size {
			acc = acc[:size]
			for _, p := range acc {
				for k := range p {
					if units > 0 {
						p[k] *= limit / float64(units)
					}
				}
			}
			return acc
		}
		units++
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
