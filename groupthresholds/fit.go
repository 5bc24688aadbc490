package groupthresholds

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/fpareto/fp/model"
)

// The constraints a fit trades against.
const (
	DP = "dp"
	EO = "eo"
)

// maxCuts is the most candidate thresholds per group: quantiles of the
// group's probabilities, so that a fit on many rows stays fast; the rates
// move by at most 1/maxCuts of the group's rows between two cuts.
const maxCuts = 256

// rateSteps is the resolution of the grid of selection-rate bands (DP) and
// of false-positive rates (EO) the fit searches.
const rateSteps = 100

// alphaSteps is the resolution of the path from each group's own best rule
// to the rules of exact equalized odds (EO).
const alphaSteps = 100

// Rows are the rows a fit reads: each row's probability P, label Y (0 or
// 1) and group code G (0 … Groups−1).
type Rows struct {
	P, Y   []float64
	G      []int
	Groups int
}

// Fit returns, for each trade-off weight λ of lambdas (each in [0, 1]),
// the rules that minimise (1 − λ)·error + λ·gap on rows, the gap being the
// decisions' dp_diff (DP: deterministic thresholds, one per group, chosen
// within a band of selection rates) or eo_diff (EO: each group's rule on
// the path from its own most accurate threshold to its share of the most
// accurate exact equalized-odds rule, which mixes two thresholds and a coin
// where the groups' ROC curves differ). Rates, error and gaps are computed
// on rows exactly, randomized rules by their expectation.
func Fit(rows Rows, constraint string, lambdas []float64) ([][]model.ThresholdRule, error) {
	if err := rows.check(constraint); err != nil {
		return nil, err
	}
	gs := make([]group, rows.Groups)
	for i := range rows.P {
		g := &gs[rows.G[i]]
		g.p = append(g.p, rows.P[i])
		g.y = append(g.y, rows.Y[i])
	}
	for r := range gs {
		gs[r].cuts()
	}
	n := float64(len(rows.P))
	switch constraint {
	case DP:
		return fitDP(gs, n, lambdas), nil
	case EO:
		return fitEO(gs, n, lambdas)
	}
	return nil, fmt.Errorf("constraint %q, want %s or %s", constraint, DP, EO)
}

func (rows Rows) check(constraint string) error {
	if constraint != DP && constraint != EO {
		return fmt.Errorf("constraint %q, want %s or %s", constraint, DP, EO)
	}
	if len(rows.Y) != len(rows.P) || len(rows.G) != len(rows.P) || len(rows.P) == 0 {
		return fmt.Errorf("fit rows: %d probabilities, %d labels, %d groups", len(rows.P), len(rows.Y), len(rows.G))
	}
	if rows.Groups < 2 {
		return fmt.Errorf("fit rows: %d groups, want at least two", rows.Groups)
	}
	seen := make([]int, rows.Groups)
	for i, g := range rows.G {
		if g < 0 || g >= rows.Groups {
			return fmt.Errorf("fit rows: row %d: group %d, want 0 … %d", i, g, rows.Groups-1)
		}
		if math.IsNaN(rows.P[i]) {
			return fmt.Errorf("fit rows: row %d: probability is NaN", i)
		}
		seen[g]++
	}
	for g, k := range seen {
		if k == 0 {
			return fmt.Errorf("fit rows: group %d has no row: give every group rows to fit its threshold on", g)
		}
	}
	return nil
}

// group holds one group's rows and, for each candidate threshold t (in
// increasing order), the rows selected (p ≥ t) among its positives and
// negatives.
type group struct {
	p, y     []float64
	n1, n0   float64   // positives, negatives
	t        []float64 // thresholds, increasing; t[0] = 0 selects all, the last > 1 none
	tp, fp   []float64 // selected positives and negatives at t[k]
	sel, err []float64 // selected rows and errors at t[k]
}

func (g *group) cuts() {
	idx := make([]int, len(g.p))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return g.p[idx[a]] < g.p[idx[b]] })
	ps := make([]float64, len(idx))
	for k, i := range idx {
		ps[k] = g.p[i]
		if g.y[i] == 1 {
			g.n1++
		} else {
			g.n0++
		}
	}
	// Candidate thresholds: 0 (every row), the distinct probabilities
	// (every row at or above one), thinned to quantiles, and 2 (none).
	uniq := slices.Compact(slices.Clone(ps))
	g.t = []float64{0}
	step := max(1, len(uniq)/maxCuts)
	for k := 0; k < len(uniq); k += step {
		if uniq[k] > 0 {
			g.t = append(g.t, uniq[k])
		}
	}
	g.t = append(g.t, 2)
	g.tp, g.fp = make([]float64, len(g.t)), make([]float64, len(g.t))
	g.sel, g.err = make([]float64, len(g.t)), make([]float64, len(g.t))
	// Walk the rows from the top: at threshold t every row with p ≥ t is
	// selected.
	j := len(idx)
	var tp, fp float64
	for k := len(g.t) - 1; k >= 0; k-- {
		for j > 0 && ps[j-1] >= g.t[k] {
			j--
			if g.y[idx[j]] == 1 {
				tp++
			} else {
				fp++
			}
		}
		g.tp[k], g.fp[k] = tp, fp
		g.sel[k] = tp + fp
		g.err[k] = fp + (g.n1 - tp)
	}
}

func (g *group) rows() float64 { return g.n0 + g.n1 }

// fitDP chooses, for each λ, one threshold per group: for every band
// [lo, hi] of selection rates on a grid, each group's most accurate
// threshold whose rate lies in it; then the band whose thresholds minimise
// (1 − λ)·error + λ·dp_diff.
func fitDP(gs []group, n float64, lambdas []float64) [][]model.ThresholdRule {
	type choice struct {
		k        []int
		err, gap float64
	}
	var choices []choice
	for lo := 0; lo <= rateSteps; lo++ {
		for hi := lo; hi <= rateSteps; hi++ {
			l, h := float64(lo)/rateSteps, float64(hi)/rateSteps
			ks := make([]int, len(gs))
			var errs float64
			rmin, rmax := math.Inf(1), math.Inf(-1)
			ok := true
			for r := range gs {
				g := &gs[r]
				best := -1
				for k := range g.t {
					rate := g.sel[k] / g.rows()
					if rate < l-1e-12 || rate > h+1e-12 {
						continue
					}
					if best < 0 || g.err[k] < g.err[best] {
						best = k
					}
				}
				if best < 0 {
					ok = false
					break
				}
				ks[r] = best
				errs += g.err[best]
				rate := g.sel[best] / g.rows()
				rmin, rmax = min(rmin, rate), max(rmax, rate)
			}
			if ok {
				choices = append(choices, choice{k: ks, err: errs / n, gap: rmax - rmin})
			}
		}
	}
	out := make([][]model.ThresholdRule, len(lambdas))
	for i, best := range bestPerLambda(lambdas, len(choices), func(c int) (float64, float64) { return choices[c].err, choices[c].gap }) {
		rules := make([]model.ThresholdRule, len(gs))
		for r := range gs {
			rules[r] = model.ThresholdRule{Thresholds: []float64{gs[r].t[choices[best].k[r]]}, Weights: []float64{1}}
		}
		out[i] = rules
	}
	return out
}

// score is the fit's objective; ties go to the earlier choice.
func score(err, gap, lambda float64) float64 { return (1-lambda)*err + lambda*gap }

// bestPerLambda returns, for each trade-off weight of lambdas, the index of
// the best of n candidates (errGap gives candidate c's error and gap) by
// better, ties to the earliest: the one choice rule of both fits.
func bestPerLambda(lambdas []float64, n int, errGap func(c int) (err, gap float64)) []int {
	out := make([]int, len(lambdas))
	for i, lam := range lambdas {
		best := 0
		be, bg := errGap(0)
		for c := 1; c < n; c++ {
			if e, g := errGap(c); better(e, g, be, bg, lam) {
				best, be, bg = c, e, g
			}
		}
		out[i] = best
	}
	return out
}

// better reports whether (err, gap) beats (err0, gap0) at λ: a lower
// objective, or an equal one with fewer errors (at λ = 1 every rule of
// equal gap ties, the constant ones among them).
func better(err, gap, err0, gap0, lambda float64) bool {
	s, s0 := score(err, gap, lambda), score(err0, gap0, lambda)
	return s < s0 || (s == s0 && err < err0)
}

// mix is a randomized rule as weights on a group's candidate thresholds
// (those not listed never select), with its expected selected positives
// and negatives.
type mix struct {
	w      map[int]float64
	tp, fp float64
}

func (m mix) scaled(a float64) mix {
	out := mix{w: map[int]float64{}, tp: a * m.tp, fp: a * m.fp}
	for k, w := range m.w {
		out.w[k] = a * w
	}
	return out
}

func (m mix) plus(o mix) mix {
	out := mix{w: map[int]float64{}, tp: m.tp + o.tp, fp: m.fp + o.fp}
	for k, w := range m.w {
		out.w[k] += w
	}
	for k, w := range o.w {
		out.w[k] += w
	}
	return out
}

func (g *group) pure(k int) mix { return mix{w: map[int]float64{k: 1}, tp: g.tp[k], fp: g.fp[k]} }

func (g *group) rule(m mix) model.ThresholdRule {
	ks := make([]int, 0, len(m.w))
	for k, w := range m.w {
		if w > 0 && g.t[k] <= 1 {
			ks = append(ks, k)
		}
	}
	slices.Sort(ks)
	r := model.ThresholdRule{}
	for _, k := range ks {
		r.Thresholds = append(r.Thresholds, g.t[k])
		r.Weights = append(r.Weights, m.w[k])
	}
	return r
}

// hull is the upper concave hull of the group's ROC points (FPR, TPR),
// from (0, 0) (threshold above 1) to (1, 1) (threshold 0), as candidate
// indices.
func (g *group) hull() []int {
	// The ROC points in increasing FPR: thresholds from the top.
	var h []int
	x := func(k int) float64 { return g.fp[k] / g.n0 }
	y := func(k int) float64 { return g.tp[k] / g.n1 }
	for k := len(g.t) - 1; k >= 0; k-- {
		for len(h) >= 2 {
			a, b := h[len(h)-2], h[len(h)-1]
			// Drop b when it lies on or under the segment from a to k.
			if (x(b)-x(a))*(y(k)-y(a))-(y(b)-y(a))*(x(k)-x(a)) >= 0 {
				h = h[:len(h)-1]
				continue
			}
			break
		}
		if len(h) == 1 && x(h[0]) == x(k) && y(h[0]) <= y(k) {
			h[0] = k
			continue
		}
		h = append(h, k)
	}
	return h
}

// onHull is the rule on the group's upper hull at FPR x: a mixture of two
// adjacent hull vertices.
func (g *group) onHull(h []int, x float64) mix {
	fx := func(k int) float64 { return g.fp[k] / g.n0 }
	for i := 1; i < len(h); i++ {
		a, b := h[i-1], h[i]
		if x <= fx(b)+1e-15 {
			d := fx(b) - fx(a)
			if d <= 0 {
				return g.pure(b)
			}
			q := min(max((x-fx(a))/d, 0), 1)
			return g.pure(a).scaled(1 - q).plus(g.pure(b).scaled(q))
		}
	}
	return g.pure(h[len(h)-1])
}

// fitEO places each group's rule on the path from its own most accurate
// threshold (α = 0) to its rule of the most accurate exact equalized-odds
// point (α = 1), and chooses, for each λ, the α whose rules minimise
// (1 − λ)·error + λ·eo_diff. The exact point is Hardt et al.'s: the FPR x
// on a grid whose common TPR, the lowest of the groups' hulls at x, gives
// the fewest errors; a group whose hull lies above it mixes its hull rule
// with a coin of rate x.
func fitEO(gs []group, n float64, lambdas []float64) ([][]model.ThresholdRule, error) {
	hulls := make([][]int, len(gs))
	for r := range gs {
		g := &gs[r]
		if g.n1 == 0 || g.n0 == 0 {
			return nil, fmt.Errorf("group %d has no %s among the rows fitted on: equalized odds compares both labels in every group; use --constraint dp", r, map[bool]string{true: "positive row", false: "negative row"}[g.n1 == 0])
		}
		hulls[r] = g.hull()
	}
	bestX, bestErr := 0.0, math.Inf(1)
	for s := 0; s <= rateSteps; s++ {
		x := float64(s) / rateSteps
		y := math.Inf(1)
		for r := range gs {
			m := gs[r].onHull(hulls[r], x)
			y = min(y, m.tp/gs[r].n1)
		}
		var e float64
		for r := range gs {
			e += gs[r].n0*x + gs[r].n1*(1-y)
		}
		if e < bestErr {
			bestX, bestErr = x, e
		}
	}
	var ty float64 = math.Inf(1)
	for r := range gs {
		ty = min(ty, gs[r].onHull(hulls[r], bestX).tp/gs[r].n1)
	}
	exact := make([]mix, len(gs))
	own := make([]mix, len(gs))
	for r := range gs {
		g := &gs[r]
		h := g.onHull(hulls[r], bestX)
		hy := h.tp / g.n1
		w := 1.0
		if hy-bestX > 1e-15 {
			w = min(max((ty-bestX)/(hy-bestX), 0), 1)
		}
		// The coin: every row (threshold 0) with probability x.
		coin := g.pure(0).scaled(bestX)
		exact[r] = h.scaled(w).plus(coin.scaled(1 - w))
		best := 0
		for k := range g.t {
			if g.err[k] < g.err[best] {
				best = k
			}
		}
		own[r] = g.pure(best)
	}
	type choice struct {
		m        []mix
		err, gap float64
	}
	choices := make([]choice, 0, alphaSteps+1)
	for s := 0; s <= alphaSteps; s++ {
		a := float64(s) / alphaSteps
		ms := make([]mix, len(gs))
		var e float64
		tmin, tmax, fmin, fmax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
		for r := range gs {
			g := &gs[r]
			ms[r] = own[r].scaled(1 - a).plus(exact[r].scaled(a))
			e += ms[r].fp + g.n1 - ms[r].tp
			tpr, fpr := ms[r].tp/g.n1, ms[r].fp/g.n0
			tmin, tmax, fmin, fmax = min(tmin, tpr), max(tmax, tpr), min(fmin, fpr), max(fmax, fpr)
		}
		choices = append(choices, choice{m: ms, err: e / n, gap: max(tmax-tmin, fmax-fmin)})
	}
	out := make([][]model.ThresholdRule, len(lambdas))
	for i, best := range bestPerLambda(lambdas, len(choices), func(c int) (float64, float64) { return choices[c].err, choices[c].gap }) {
		rules := make([]model.ThresholdRule, len(gs))
		for r := range gs {
			rules[r] = gs[r].rule(choices[best].m[r])
		}
		out[i] = rules
	}
	return out, nil
}
