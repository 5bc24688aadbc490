package bootstrap

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/model"
)

// Sample is one set of predictions, prepared for resampling: the rows in
// score order with their loss, correctness, label, group and overlap
// weight. It is read-only once made and safe for concurrent use.
type Sample struct {
	p, y, w     []float64 // in score order; w nil without a propensity
	loss, right []float64 // each row's cross-entropy and 1 if classified right
	dec         []float64 // each row's decision: 1 if selected (p ≥ the threshold), or its selection probability (WithDecisions)
	g           []int32   // the group, 0 … r−1
	sub         []uint8   // the subset 1 + y
	last        []bool    // last[k]: row k ends a block of tied scores
	r           int       // the number of groups
	order       []int     // order[k]: the row, in the order given, at score-order position k
}

// New prepares predicted probabilities p with labels y, groups g (codes
// 0 … r−1, r ≥ 2; a 0/1 attribute is r = 2: fairness.BinaryGroups) and,
// when w is not nil, each row's overlap weight (fairness.OverlapWeights;
// for the ATO), so that with every multiplicity 1 the metrics are
// fairness.Evaluate(p, y, g, w)'s. The inputs are checked as
// fairness.Evaluate checks them, and every one of the r groups must occur;
// a resample is valid only when it holds each of them.
func New(p, y []float64, g []int, r int, w []float64) (*Sample, error) {
	c, err := check(p, y, g, r, w, fairness.Evaluate)
	if err != nil {
		return nil, err
	}
	return newSample(p, y, c, r, w, probLosses(p, y)), nil
}

// NewLogits is New for logits s (docs/method.md §1.9 for R groups):
// p = sigmoid(s) and each row's loss is softplus(s) − y·s, as
// fairness.EvaluateLogits computes it.
func NewLogits(s, y []float64, g []int, r int, w []float64) (*Sample, error) {
	c, err := check(s, y, g, r, w, fairness.EvaluateLogits)
	if err != nil {
		return nil, err
	}
	p, loss := logitLosses(s, y)
	return newSample(p, y, c, r, w, loss), nil
}

// check validates the inputs of New with evaluate and returns the groups as
// the sample stores them.
func check(s, y []float64, g []int, r int, w []float64, evaluate func(s, y []float64, g []int, w []float64) (fairness.Metrics, error)) ([]int32, error) {
	if r < 2 || r > math.MaxInt32 {
		return nil, fmt.Errorf("bootstrap: %d groups, want at least 2", r)
	}
	if _, err := evaluate(s, y, g, w); err != nil {
		return nil, fmt.Errorf("bootstrap: %w", err)
	}
	seen := make([]bool, r)
	codes := make([]int32, len(g))
	for i, v := range g {
		if v < 0 || v >= r {
			return nil, fmt.Errorf("bootstrap: row %d: group %d, want 0 … %d", i, v, r-1)
		}
		seen[v], codes[i] = true, int32(v)
	}
	if k := slices.Index(seen, false); k >= 0 {
		return nil, fmt.Errorf("bootstrap: group %d of %d has no rows", k, r)
	}
	return codes, nil
}

func probLosses(p, y []float64) []float64 {
	loss := make([]float64, len(p))
	for i, pi := range p {
		pc := min(max(pi, fairness.ProbClip), 1-fairness.ProbClip)
		if y[i] == 1 {
			loss[i] = -math.Log(pc)
		} else {
			loss[i] = -math.Log1p(-pc)
		}
	}
	return loss
}

func logitLosses(z, y []float64) (p, loss []float64) {
	p = make([]float64, len(z))
	loss = make([]float64, len(z))
	for i, zi := range z {
		p[i] = model.Sigmoid(zi)
		loss[i] = model.Softplus(zi) - y[i]*zi
	}
	return p, loss
}

// newSample sorts the rows by score; g holds groups 0 … r−1 and w the
// overlap weights (nil without a propensity).
func newSample(p, y []float64, g []int32, r int, w, loss []float64) *Sample {
	n := len(p)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	// Stable, so rows of equal score keep their order and the sums below
	// run as fairness.Evaluate's do for the rows of one group.
	sort.SliceStable(order, func(i, j int) bool { return p[order[i]] < p[order[j]] })
	s := &Sample{
		p: make([]float64, n), y: make([]float64, n), g: make([]int32, n),
		loss: make([]float64, n), right: make([]float64, n), r: r, order: order,
	}
	if w != nil {
		s.w = make([]float64, n)
	}
	for k, i := range order {
		s.p[k], s.y[k], s.g[k], s.loss[k] = p[i], y[i], g[i], loss[i]
		if w != nil {
			s.w[k] = w[i]
		}
	}
	s.setThreshold(fairness.DefaultThreshold)
	s.sub, s.last = make([]uint8, n), make([]bool, n)
	for k := range n {
		s.sub[k] = 1 + uint8(s.y[k])
		s.last[k] = k == n-1 || s.p[k+1] != s.p[k]
	}
	return s
}

// setThreshold takes each row's decision, and whether it is right, at
// threshold t.
func (s *Sample) setThreshold(t float64) {
	s.dec = make([]float64, len(s.p))
	for k, p := range s.p {
		s.right[k] = 0
		if p >= t {
			s.dec[k] = 1
		}
		if s.dec[k] == s.y[k] {
			s.right[k] = 1
		}
	}
}

// WithThreshold returns a copy of s whose accuracy and decision metrics are
// taken at threshold t (fairness.DefaultThreshold unless set), t in (0, 1].
func (s *Sample) WithThreshold(t float64) (*Sample, error) {
	if !(t > 0 && t <= 1) {
		return nil, fmt.Errorf("bootstrap: threshold %v, want a number in (0, 1]", t)
	}
	c := *s
	c.right = make([]float64, len(s.p))
	c.setThreshold(t)
	return &c, nil
}

// WithDecisions returns a copy of s whose accuracy and decision metrics are
// those of the given decisions: d[i] is the probability that row i (in the
// order the rows were given to New or NewLogits) is selected, in [0, 1] —
// 0 or 1 for a deterministic rule, between for a randomised one (a
// group-thresholds candidate's rules, model.GroupThresholds). Each rate is
// then its expectation over the randomisation, as
// fairness.DecideRandomized computes it: a group's selected count is the
// sum of its rows' d, and a row is right with probability d (y = 1) or
// 1 − d (y = 0). With d[i] = 1{p_i ≥ t} it is WithThreshold(t).
func (s *Sample) WithDecisions(d []float64) (*Sample, error) {
	if len(d) != len(s.p) {
		return nil, fmt.Errorf("bootstrap: %d decisions for %d rows, want one per row", len(d), len(s.p))
	}
	c := *s
	c.dec, c.right = make([]float64, len(s.p)), make([]float64, len(s.p))
	for k, i := range s.order {
		v := d[i]
		if !(v >= 0 && v <= 1) {
			return nil, fmt.Errorf("bootstrap: row %d: decision %v, want a selection probability in [0, 1]", i, v)
		}
		c.dec[k] = v
		if s.y[k] == 1 {
			c.right[k] = v
		} else {
			c.right[k] = 1 - v
		}
	}
	return &c, nil
}

// Rates are the decision metrics of a resample (fairness.Decision's).
type Rates struct{ DPDiff, DPRatio, EODiff, EOppDiff float64 }

// Decision computes the decision metrics with row k (in score order, see
// Metrics) counted m[k] times: with every m[k] = 1 they are
// fairness.DecideScores' at the sample's threshold (fairness.DecideRandomized's
// of the decisions of WithDecisions). Groups absent from the
// resample are left out; a group without positives (negatives) is left out
// of the TPR (FPR) gap, as fairness leaves it out.
func (s *Sample) Decision(m []float64) Rates {
	r, gc := s.r, s.counts(m)
	n, pos, neg, sel, tp, fp := gc.n, gc.pos, gc.neg, gc.sel, gc.tp, gc.fp
	rate := func(num, den []float64) (lo, hi float64, count int) {
		lo, hi = math.Inf(1), math.Inf(-1)
		for g := range r {
			if den[g] > 0 {
				v := num[g] / den[g]
				lo, hi, count = min(lo, v), max(hi, v), count+1
			}
		}
		return lo, hi, count
	}
	gap := func(num, den []float64) float64 {
		lo, hi, c := rate(num, den)
		if c < 2 {
			return 0
		}
		return hi - lo
	}
	var out Rates
	lo, hi, c := rate(sel, n)
	out.DPRatio = 1
	if c >= 2 {
		out.DPDiff = hi - lo
		if hi > 0 {
			out.DPRatio = lo / hi
		}
	}
	out.EOppDiff = gap(tp, pos)
	out.EODiff = max(out.EOppDiff, gap(fp, neg))
	return out
}

// Len is the number of rows.
func (s *Sample) Len() int { return len(s.p) }

// Groups is the number of groups.
func (s *Sample) Groups() int { return s.r }

// HasATO reports whether the sample has a propensity, so that the ATO is
// computed.
func (s *Sample) HasATO() bool { return s.w != nil }

// Metrics computes the metrics with row k of the original order counted
// m[k] times — except that m is indexed in score order (see Draw): the
// multiplicities of a bootstrap are exchangeable, so no mapping back is
// needed. With every m[k] = 1 the result is fairness.Evaluate's (or
// fairness.EvaluateLogits' for a sample of NewLogits). ok is
// false when the resample lacks a group (no contrast between all the
// groups can be measured); DP, EO and EOpp are then those of the groups
// present and the ATO is NaN. m must have Len() entries ≥ 0 with a
// positive sum.
func (s *Sample) Metrics(m []float64) (met fairness.Metrics, ok bool) {
	if len(m) != len(s.p) {
		panic(fmt.Sprintf("bootstrap: %d multiplicities for %d rows", len(m), len(s.p)))
	}
	r := s.r
	var total, loss, right float64
	// Group totals within each subset: W[0] every row, W[1] y = 0, W[2]
	// y = 1, each of r entries; then the ATO's weighted sums per group.
	buf := make([]float64, 5*r)
	W := [3][]float64{buf[:r], buf[r : 2*r], buf[2*r : 3*r]}
	sw, tw := buf[3*r:4*r], buf[4*r:]
	for k, mk := range m {
		if mk == 0 {
			continue
		}
		total += mk
		loss += mk * s.loss[k]
		right += mk * s.right[k]
		g, sub := s.g[k], s.sub[k]
		W[0][g] += mk
		W[sub][g] += mk
		if s.w != nil {
			mw := mk * s.w[k]
			sw[g] += mw
			tw[g] += mw * s.p[k]
		}
	}
	met.N = int(total)
	met.Risk = loss / total
	met.Accuracy = right / total
	ok = !slices.Contains(W[0], 0)
	if s.w != nil {
		met.HasATO = true
		if slices.Contains(sw, 0) {
			met.ATO, ok = math.NaN(), false
		} else {
			// max_r m_r − min_r m_r; at r = 2 exactly |m_1 − m_0|.
			lo, hi := math.Inf(1), math.Inf(-1)
			for g := range r {
				mean := tw[g] / sw[g]
				lo, hi = min(lo, mean), max(hi, mean)
			}
			met.ATO = hi - lo
		}
	}
	mv := s.mv(m, W)
	met.DP, met.EO, met.EOpp = mv[0], max(mv[1], mv[2]), mv[2]
	return met, ok
}

// mv is the weighted mean-variance index of the scores against the group in
// each subset (every row, y = 0, y = 1): fairness.MV with row k counted
// m[k] times, in one pass over the tie blocks. A group absent from a
// subset is left out of its index, as fairness.MV leaves out empty groups.
func (s *Sample) mv(m []float64, W [3][]float64) [3]float64 {
	r := s.r
	buf := make([]float64, 6*r)
	// cum[j][g]: group g's weight so far in subset j; inv[j][g] its
	// reciprocal total, 0 for a group absent from subset j (so that a
	// block costs multiplications only).
	cum := [3][]float64{buf[:r], buf[r : 2*r], buf[2*r : 3*r]}
	inv := [3][]float64{buf[3*r : 4*r], buf[4*r : 5*r], buf[5*r:]}
	var invT [3]float64
	var use [3]bool // the subset holds at least two groups
	for j := range 3 {
		var tot float64
		present := 0
		for g, wg := range W[j] {
			if wg > 0 {
				inv[j][g] = 1 / wg
				tot += wg
				present++
			}
		}
		if use[j] = present >= 2; use[j] {
			invT[j] = 1 / tot
		}
	}
	var sum [3]float64
	var bw [3]float64 // the current block's weight in each subset
	for k, mk := range m {
		if mk != 0 {
			g, sub := s.g[k], s.sub[k]
			cum[0][g] += mk
			cum[sub][g] += mk
			bw[0] += mk
			bw[sub] += mk
		}
		if !s.last[k] {
			continue
		}
		// The end of a block of tied scores: every row of it shares F̂ and
		// F̂_r, now counting the whole block.
		for j := range 3 {
			if bw[j] == 0 || !use[j] {
				continue
			}
			var c float64
			for _, v := range cum[j] {
				c += v
			}
			f := c * invT[j]
			// Σ_r W_r·(F̂_r − F̂)² over the groups present
			var block float64
			for g, wg := range W[j] {
				if wg > 0 {
					d := cum[j][g]*inv[j][g] - f
					block += wg * d * d
				}
			}
			sum[j] += bw[j] * block
		}
		bw = [3]float64{}
	}
	var out [3]float64
	for j := range 3 {
		if use[j] {
			out[j] = sum[j] * invT[j] * invT[j]
		}
	}
	return out
}

// Draw fills m with the multiplicities of one bootstrap resample: Len()
// rows drawn uniformly with replacement from rng.
func (s *Sample) Draw(rng *rand.Rand, m []float64) {
	clear(m)
	n := len(m)
	for range n {
		m[rng.IntN(n)]++
	}
}

// Interval is a two-sided percentile interval [Lo, Hi].
type Interval struct{ Lo, Hi float64 }

// Contains reports whether v lies in the interval.
func (iv Interval) Contains(v float64) bool { return iv.Lo <= v && v <= iv.Hi }

// Intervals are the 95% (or Level) intervals of every metric of one sample
// (docs/method.md §7.1): percentile intervals of the risk and the accuracy;
// of the mean-variance indices' unbiased estimates (DP, EOpp; EO from its
// two conditional indices); and, for the ATO and the decision metrics, the
// image of their signed pairwise contrasts' simultaneous intervals.
type Intervals struct {
	Risk, Accuracy, ATO, DP, EO, EOpp Interval
	// The decision metrics' intervals, at the sample's threshold.
	DPDiff, DPRatio, EODiff, EOppDiff Interval
	// Corrected holds the unbiased estimates DP, EO and EOpp's intervals
	// are built around.
	Corrected Corrected
	// Resamples is how many resamples were drawn; Valid how many held both
	// groups (and positive overlap weight in each, when the ATO is
	// computed): the fairness intervals come from those. Level is the
	// coverage asked for, e.g. 0.95.
	Resamples, Valid int
	Level            float64
	// HasATO is false without a propensity; ATO is then zero.
	HasATO bool
	// SmallestCell is the fewest rows any group has within a class (y = 0
	// or y = 1) of the sample: what EO, EOpp and the TPR and FPR gaps
	// rest on.
	SmallestCell int
	// SmallestESS is, with a propensity, the smallest Kish effective size
	// (Σw)²/Σw² of a group under the overlap weights: what the ATO's
	// interval rests on (0 without a propensity).
	SmallestESS float64
}

// FewCellRows is the number of rows of a group within a class below which
// the intervals of eo and eopp are said to rest on few rows: with about 25
// such rows eopp's covered a population value near 0 in 83% of trained
// networks (results/certify.md), the bootstrap of so few rows understating their variation. (The
// rate gaps' score intervals keep their level with fewer.) The ATO's
// interval is said to rest on few rows below as many effective rows
// (SmallestESS): with about ten, a minority whose scores are a mixture (most
// at one value, a quarter spread far below) is covered by no resampling
// interval more than about 80% of the time.
const FewCellRows = 30

// MinValidShare is the least share of resamples that must hold both groups
// for the fairness intervals to be given: below it a group is so small that
// resamples without it are common and the percentile interval of the rest
// would be conditioned on a rare event.
const MinValidShare = 0.9

// Intervals draws resamples bootstrap resamples from rng and returns the
// interval at level (in (0, 1)) of every metric. When fewer than
// MinValidShare of the resamples hold every group, the fairness intervals
// are NaN and the error says why; the risk and accuracy intervals are still
// given. A one-sided bound at level 1 − α is the matching end of the
// interval at level 1 − 2α.
func (s *Sample) Intervals(resamples int, level float64, rng *rand.Rand) (Intervals, error) {
	if resamples < 2 {
		return Intervals{}, fmt.Errorf("bootstrap: %d resamples, want ≥ 2", resamples)
	}
	if !(level > 0 && level < 1) {
		return Intervals{}, fmt.Errorf("bootstrap: level %g, want a value in (0, 1)", level)
	}
	m := make([]float64, s.Len())
	risk := make([]float64, 0, resamples)
	acc := make([]float64, 0, resamples)
	var dp, eo, eopp []float64
	ato := newPairs(s.r)
	for range resamples {
		s.Draw(rng, m)
		rk, ac := s.riskAccuracy(m)
		risk, acc = append(risk, rk), append(acc, ac)
		W := s.totals(m)
		if !hasAll(W) {
			continue
		}
		g := s.rates(m)
		if s.w != nil && slices.ContainsFunc(g.ato, math.IsNaN) {
			continue // a group without overlap weight: no ATO contrast
		}
		u := s.mvUnbiased(m, W)
		dp, eo, eopp = append(dp, u[0]), append(eo, max(u[1], u[2])), append(eopp, u[2])
		if s.w != nil {
			ato.add(g.ato)
		}
	}
	u := s.unbiased() // the sample's own: what the indices' intervals are built around
	out := Intervals{Resamples: resamples, Valid: len(dp), Level: level, HasATO: s.HasATO(), Corrected: correctedOf(u),
		SmallestCell: s.smallestCell()}
	if s.HasATO() {
		out.SmallestESS = slices.Min(s.pairESS())
	}
	out.Risk, out.Accuracy = percentile(risk, level), percentile(acc, level)
	if float64(len(dp)) < MinValidShare*float64(resamples) {
		nan := Interval{math.NaN(), math.NaN()}
		out.ATO, out.DP, out.EO, out.EOpp = nan, nan, nan, nan
		out.DPDiff, out.DPRatio, out.EODiff, out.EOppDiff = nan, nan, nan, nan
		return out, fmt.Errorf("bootstrap: only %d of %d resamples hold both groups: a group is too small for fairness intervals", len(dp), resamples)
	}
	out.DP, out.EOpp = recentred(dp, u[0], level), recentred(eopp, u[2], level)
	// eo is bootstrapped as the maximum itself, whose bias the re-centring
	// removes too (cover.go).
	out.EO = recentred(eo, max(u[1], u[2]), level)
	// The rate gaps and the ratio: score intervals from the counts
	// (newcombe.go).
	rc := s.counts(ones(s.Len()))
	out.DPDiff = gapImage(level, [2][]float64{rc.sel, rc.n})
	out.EOppDiff = gapImage(level, [2][]float64{rc.tp, rc.pos})
	out.EODiff = gapImage(level, [2][]float64{rc.tp, rc.pos}, [2][]float64{rc.fp, rc.neg})
	out.DPRatio = ratioImage(level, rc.sel, rc.n)
	if s.HasATO() {
		out.ATO = absMaxImage(level, ato, s.pairESS())
	}
	return out, nil
}

// smallestCell is Intervals.SmallestCell, over the groups and classes
// present.
func (s *Sample) smallestCell() int {
	W := s.totals(ones(s.Len()))
	least := math.MaxInt
	for _, sub := range W[1:] {
		for _, w := range sub {
			if w > 0 {
				least = min(least, int(w))
			}
		}
	}
	if least == math.MaxInt {
		return 0
	}
	return least
}

// riskAccuracy are the risk and the accuracy with row k counted m[k] times.
func (s *Sample) riskAccuracy(m []float64) (risk, accuracy float64) {
	var total, loss, right float64
	for k, mk := range m {
		if mk != 0 {
			total += mk
			loss += mk * s.loss[k]
			right += mk * s.right[k]
		}
	}
	return loss / total, right / total
}

// percentile is the equal-tailed interval of v at level, by the linear
// interpolation between order statistics (type 7 of Hyndman and Fan, the
// default of R and numpy). It sorts v.
func percentile(v []float64, level float64) Interval {
	slices.Sort(v)
	a := (1 - level) / 2
	return Interval{quantile(v, a), quantile(v, 1-a)}
}

func quantile(sorted []float64, q float64) float64 {
	h := q * float64(len(sorted)-1)
	lo := int(math.Floor(h))
	if lo >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	a, b := sorted[lo], sorted[lo+1]
	if a == b || math.IsInf(b, 0) || math.IsInf(a, 0) {
		// Equal neighbours, or an infinite ratio: no interpolation (it
		// would give NaN between two infinities).
		if h-float64(lo) > 0 {
			return b
		}
		return a
	}
	return a + (h-float64(lo))*(b-a)
}
