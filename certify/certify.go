package certify

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/fpareto/fp/choose"
	"github.com/fpareto/fp/intervals"
	"github.com/fpareto/fp/records"
)

// Bound is one candidate's one-sided confidence bound on the quantity a
// requirement constrains, from the rows that decide.
type Bound struct {
	// Value is the bound: an upper bound for a maximum (unfairness, risk),
	// a lower one for a minimum (accuracy, dp_ratio).
	Value float64
	// Estimate is the value the bound is built around (the unbiased
	// estimate for dp, eo and eopp).
	Estimate float64
	// Rows is the number of deciding rows; Basis names them ("selection"
	// or "test").
	Rows  int
	Basis string
	// Note says why no bound could be given ("" when one was).
	Note string
	// Caution is the caution of the interval the bound is an end of, on
	// the deciding rows: few rows within a class, few effective rows of
	// the overlap weights (intervals.CI.Caution); "" when none.
	Caution string
}

// OK reports whether a bound was given.
func (b Bound) OK() bool { return b.Note == "" }

// Quantity names what rule r constrains for a front of metric: the
// record key or metric name whose bound is taken, and whether the bound is
// an upper one.
func Quantity(r choose.Rule, metric string) (name string, upper bool, err error) {
	switch r.Kind {
	case choose.MaxUnfairness:
		return metric, true, nil
	case choose.MinRatio:
		return records.MetricDPRatio, false, nil
	case choose.MaxRisk:
		return "risk", true, nil
	case choose.MinAccuracy:
		return "accuracy", false, nil
	}
	return "", false, fmt.Errorf("a certified pick needs a stated requirement (--max-unfairness, --max-risk, --min-accuracy or --min-ratio), not %s", r)
}

// Holds reports whether bound b meets rule r.
func Holds(r choose.Rule, b Bound) bool {
	if !b.OK() || math.IsNaN(b.Value) {
		return false
	}
	switch r.Kind {
	case choose.MinAccuracy, choose.MinRatio:
		return b.Value >= r.Bound
	}
	return b.Value <= r.Bound
}

// Order is the fixed order in which the candidates are tested: by λ,
// from the end of the grid most likely to meet r — the largest λ first for
// a requirement on unfairness (λ weighs it), the smallest first for one on
// risk or accuracy — and, at equal λ, by split, by method and penalty, and
// by run folder, so that neither the order in which the runs are named nor
// the order of their records changes it. It reads nothing but λ and these
// names, which were fixed before any row was seen, and leaves out two
// kinds of candidate that a certified pick should not return and that can
// stop the sequence at its start for no reason the requirement cares about
// (at λ = 1, a network that selects no one has dp_ratio 0/0, whose lower
// bound is 0 at any number of rows; a near-constant network's rate gaps
// have wide bounds where a group has few rows):
//   - those that minimised the unfairness alone (unfairnessAlone), which
//     the grid decides;
//   - the constant predictors (records.Record.Collapsed): collapse is a
//     property of the network, judged on the test rows, which are not the
//     rows that decide when selection rows do (when the test rows decide,
//     the guarantee takes a network constant to 1e-6 on them to be
//     constant).
func Order(cands []choose.Candidate, r choose.Rule) []int {
	var idx []int
	for i := range cands {
		if rec := &cands[i].Record; !rec.Collapsed && !unfairnessAlone(rec) {
			idx = append(idx, i)
		}
	}
	desc := r.Kind == choose.MaxUnfairness || r.Kind == choose.MinRatio
	slices.SortStableFunc(idx, func(a, b int) int {
		ra, rb := &cands[a].Record, &cands[b].Record
		c := cmp.Compare(ra.Lambda, rb.Lambda)
		if desc {
			c = -c
		}
		return cmp.Or(c, cmp.Compare(ra.Split, rb.Split), cmp.Compare(ra.Key(), rb.Key()), cmp.Compare(cands[a].Dir, cands[b].Dir))
	})
	return idx
}

// unfairnessAlone reports whether the candidate minimised the unfairness
// alone: a scalarized candidate at λ = 1, the penalty's standardization
// run, whose objective gives the risk no weight.
func unfairnessAlone(r *records.Record) bool {
	return r.Family() == records.FamilyPenalty && r.Lambda == 1
}

// Sequence runs the fixed-sequence test of r over the candidates in order,
// bounding each with bound, and returns the candidates certified (a prefix
// of order) and the bound of every candidate tested; the last one tested
// is the first not certified, unless all were.
func Sequence(order []int, r choose.Rule, bound func(i int) Bound) (certified []int, bounds map[int]Bound) {
	bounds = map[int]Bound{}
	for _, i := range order {
		b := bound(i)
		bounds[i] = b
		if !Holds(r, b) {
			break
		}
		certified = append(certified, i)
	}
	return certified, bounds
}

// RowsNeeded estimates how many deciding rows would make b meet r, its
// distance from its estimate shrinking as one over the square root of the
// rows; nil when the estimate itself does not meet r, or when the bound is
// a dp_ratio's lower bound of 0: the interval of a network that selects no
// one on the rows (a ratio 0/0, its estimate 1 by convention) is [0, 1] at
// any number of rows, so more rows would not help either.
func RowsNeeded(r choose.Rule, b Bound) *int {
	if !b.OK() || b.Rows == 0 || r.Kind == choose.MinRatio && b.Value <= 0 {
		return nil
	}
	width, room := b.Value-b.Estimate, r.Bound-b.Estimate
	if r.Kind == choose.MinAccuracy || r.Kind == choose.MinRatio {
		width, room = -width, -room
	}
	if !(room > 0) {
		return nil
	}
	if width <= room {
		n := b.Rows
		return &n
	}
	n := int(math.Ceil(float64(b.Rows)*(width/room)*(width/room) - 1e-9))
	return &n
}

// reachNeeds returns, for a candidate, about how many deciding rows the
// fixed sequence would need to reach and certify it: the largest
// RowsNeeded over it and every candidate before it in order, since each
// must hold for the sequence to get there; nil when one of them cannot be
// helped by rows (no bound, or an estimate that breaks r). bound gives a
// candidate's bound; each is asked once, in order, only as far as a call
// needs and never past a candidate that blocks the rest.
func reachNeeds(order []int, r choose.Rule, bound func(i int) Bound) func(i int) *int {
	need := map[int]*int{}
	done, most, stuck := 0, 0, false
	return func(i int) *int {
		for done < len(order) {
			if _, ok := need[i]; ok {
				break
			}
			j := order[done]
			done++
			if !stuck {
				if n := RowsNeeded(r, bound(j)); n == nil {
					stuck = true
				} else {
					most = max(most, *n)
				}
			}
			if stuck {
				need[j] = nil
			} else {
				n := most
				need[j] = &n
			}
		}
		return need[i]
	}
}

// Options adjust Pick.
type Options struct {
	// Confidence is C, in (0.5, 1).
	Confidence float64
	// Resamples is the number of bootstrap resamples of each bound.
	Resamples int
	// Decide names the rows that decide (records.Decide); the bounds are
	// taken on them.
	Decide records.Decide
	// AllowDegenerate and Axis are choose.Options'.
	AllowDegenerate bool
	Axis            string
}

// Certificate is what a certified pick states: its JSON form is the part
// of fp pick --confidence's output that says what holds.
type Certificate struct {
	Certified   bool    `json:"certified"`
	Confidence  float64 `json:"confidence"`
	Requirement string  `json:"requirement"`
	// Bound is the chosen candidate's confidence bound on the
	// requirement's quantity (the closest candidate's when none is
	// certified); BoundRows the rows it comes from, BoundOn which.
	Bound     *float64 `json:"bound"`
	Estimate  *float64 `json:"estimate"`
	BoundRows int      `json:"bound_rows"`
	BoundOn   string   `json:"bound_on"`
	// Tested is how many candidates the sequence tested; CertifiedCount
	// how many it certified (degenerate ones included, which are chosen
	// only with AllowDegenerate; the networks Order leaves out, λ = 1's
	// and the constant predictors, are not tested).
	Tested         int `json:"tested"`
	CertifiedCount int `json:"certified_candidates"`
	// Closest is, when none is certified, the non-dominated candidate
	// nearest to being certified, and RowsNeeded about how many deciding
	// rows the sequence would need to reach and certify it (null when its
	// estimate, or that of a candidate tested before it, breaks the
	// requirement: more rows would not help). ClosestHolds says that its
	// own bound already meets the requirement: only the sequence's stop
	// before it keeps it uncertified.
	Closest      *choose.Shown `json:"closest,omitempty"`
	RowsNeeded   *int          `json:"rows_needed"`
	ClosestHolds bool          `json:"-"`
	// Stopped says why the sequence stopped (the first candidate not
	// certified and its bound); Degenerate, that those certified are all
	// left out as degenerate.
	Stopped    string `json:"stopped,omitempty"`
	Degenerate string `json:"degenerate,omitempty"`
	// Caution says why the chosen candidate's bound may hold less often
	// than stated (caution): its interval's caution on the deciding rows
	// (few rows within a class, few effective rows), and for a requirement
	// on the ATO a split whose ATO fp judged unreliable
	// (records.Record.ATOUnreliable); "" when nothing says so.
	Caution string `json:"caution,omitempty"`
	// ratio says that the requirement is on dp_ratio, whose sequence a
	// network that selects no one stops for good.
	ratio bool
}

// Result is a certified pick: the certificate and, when certified, the
// pick.
type Result struct {
	Certificate
	Picked *choose.Picked
	// Candidate is the chosen candidate (nil when none is certified).
	Candidate *choose.Candidate
}

// ErrNotCertified is returned, with a Result that names the closest
// candidate, when no candidate a pick may choose is certified.
var ErrNotCertified = errors.New("no candidate is certified")

// Pick returns the candidate that choose.Pick with rule r would prefer
// among the candidates certified at opt.Confidence: with ErrNotCertified
// when none a pick may choose is.
func Pick(cands []choose.Candidate, metric string, r choose.Rule, opt Options) (*Result, error) {
	// A one-sided bound at level C is an end of the two-sided interval at
	// level 2C − 1, which needs C above one half.
	if !(opt.Confidence > 0.5 && opt.Confidence < 1) {
		return nil, fmt.Errorf("confidence %g: want a probability above 0.5 and below 1, such as 0.9", opt.Confidence)
	}
	name, upper, err := Quantity(r, metric)
	if err != nil {
		return nil, err
	}
	axis, err := choose.CheckAxis(opt.Axis, r)
	if err != nil {
		return nil, err
	}
	if len(cands) == 0 {
		return nil, errors.New("no candidate to pick from")
	}
	b := newBounder(cands, name, upper, opt)
	order := Order(cands, r)
	certified, bounds := Sequence(order, r, b.bound)
	res := &Result{Certificate: Certificate{Confidence: opt.Confidence, Requirement: choose.Requirement(r, metric),
		Tested: len(bounds), CertifiedCount: len(certified), ratio: r.Kind == choose.MinRatio}}
	if len(certified) < len(order) {
		last := cands[order[len(certified)]]
		lb := bounds[order[len(certified)]]
		res.Stopped = fmt.Sprintf("the sequence stopped at %s: %s", &last, describe(lb, name, upper))
	}
	if len(certified) > 0 {
		sub := make([]choose.Candidate, len(certified))
		for k, i := range certified {
			sub[k] = cands[i]
		}
		p, err := choose.Pick(sub, metric, trivial(r), choose.Options{AllowDegenerate: opt.AllowDegenerate, Decide: opt.Decide, Axis: opt.Axis})
		var left *choose.LeftOutError
		if err != nil && !errors.As(err, &left) {
			return nil, err
		}
		if left != nil {
			res.Degenerate = fmt.Sprintf("the %d certified are all degenerate (%s; --allow-degenerate keeps them)",
				len(certified), left.LeftOut)
		}
		if err == nil {
			k := slices.IndexFunc(certified, func(i int) bool { return sameCandidate(&cands[i], p) })
			i := certified[k]
			p.Of = "certified"
			res.Certified, res.Picked, res.Candidate = true, p, &cands[i]
			res.setBound(bounds[i])
			res.Caution = caution(&cands[i].Record, bounds[i], name)
			return res, nil
		}
	}
	// None a pick may choose: the closest of today's front.
	kept, _ := choose.Screen(cands, opt.AllowDegenerate, opt.Decide)
	front, err := frontOf(kept, axis, metric, opt.Decide)
	if err != nil {
		return nil, err
	}
	boundOf := func(i int) Bound {
		bb, ok := bounds[i]
		if !ok {
			bb = b.bound(i)
			bounds[i] = bb
		}
		return bb
	}
	reach := reachNeeds(order, r, boundOf)
	// Only a candidate the sequence tests can be the closest: not a λ = 1
	// network or a constant predictor, which Order leaves out.
	tested := map[int]bool{}
	for _, i := range order {
		tested[i] = true
	}
	best, bestN := -1, math.MaxInt
	var bestB Bound
	var bestNeed *int
	for _, i := range front {
		k := &kept[i]
		j := slices.IndexFunc(cands, func(c choose.Candidate) bool {
			return c.Dir == k.Dir && c.Record.Key() == k.Record.Key() && c.Weights == k.Weights
		})
		if !tested[j] {
			continue
		}
		bb := boundOf(j)
		if !bb.OK() {
			continue
		}
		need := reach(j)
		n := math.MaxInt - 1 // unreachable by rows: after every reachable one
		if need != nil {
			n = *need
		}
		if best < 0 || n < bestN || (n == bestN && excess(r, bb) < excess(r, bestB)) {
			best, bestN, bestB, bestNeed = j, n, bb, need
		}
	}
	if best >= 0 {
		shown := cands[best].Show()
		res.Closest = &shown
		res.RowsNeeded = bestNeed
		res.ClosestHolds = Holds(r, bestB)
		res.setBound(bestB)
	}
	return res, ErrNotCertified
}

func (res *Result) setBound(b Bound) {
	v, e := b.Value, b.Estimate
	res.Bound, res.Estimate, res.BoundRows, res.BoundOn = &v, &e, b.Rows, b.Basis
}

// caution says why the bound b of quantity name for rec may hold less
// often than stated, "" when nothing says so: on a fairness metric, the
// caution of its interval on the deciding rows; on the ATO, also the
// split's ATO judged unreliable (on its training, test or selection rows,
// as the reason says).
func caution(rec *records.Record, b Bound, name string) string {
	if name == "risk" || name == "accuracy" {
		return ""
	}
	var why []string
	if name == records.MetricATO && rec.ATOUnreliable() {
		why = append(why, fmt.Sprintf("its split's ATO is judged unreliable (%s)", rec.ATOUnreliableReason))
	}
	if b.Caution != "" {
		why = append(why, fmt.Sprintf("on its %d %s rows that decided, %s", b.Rows, b.Basis, b.Caution))
	}
	if len(why) == 0 {
		return ""
	}
	return "the bound may hold less often than stated: " + strings.Join(why, "; ")
}

// excess is how far b is from meeting r, in r's direction.
func excess(r choose.Rule, b Bound) float64 {
	if r.Kind == choose.MinAccuracy || r.Kind == choose.MinRatio {
		return r.Bound - b.Value
	}
	return b.Value - r.Bound
}

// trivial is r with a bound every candidate meets: choose.Pick then
// prefers among the certified ones as r would.
func trivial(r choose.Rule) choose.Rule {
	switch r.Kind {
	case choose.MinAccuracy, choose.MinRatio:
		return choose.Rule{Kind: r.Kind, Bound: math.Inf(-1)}
	}
	return choose.Rule{Kind: r.Kind, Bound: math.Inf(1)}
}

// describe says what a bound is, e.g. "upper 90% bound of dp_diff 0.13 on
// 250 selection rows".
func describe(b Bound, name string, upper bool) string {
	if !b.OK() {
		return b.Note
	}
	side := "lower"
	if upper {
		side = "upper"
	}
	return fmt.Sprintf("%s bound of %s %.4g (estimate %.4g) on its %d %s rows", side, label(name), b.Value, b.Estimate, b.Rows, b.Basis)
}

func label(name string) string {
	if name == records.MetricDPRatio {
		return "dp_ratio"
	}
	return name
}

func sameCandidate(c *choose.Candidate, p *choose.Picked) bool {
	return c.Dir == p.Run && c.Weights == p.Weights &&
		c.Record.Key() == records.CandidateKey(p.Method, p.Penalty, p.Split, p.Lambda)
}

// frontOf is the indices of the candidates not dominated in (axis value,
// metric) on the deciding rows; axis is parsed (choose.CheckAxis).
func frontOf(cands []choose.Candidate, axis, metric string, d records.Decide) ([]int, error) {
	all := make([]int, len(cands))
	for i := range all {
		all[i] = i
	}
	pts, err := choose.PointOf(cands, all, axis, metric, d)
	if err != nil {
		return nil, err
	}
	return choose.Front(pts), nil
}

// bounder computes the candidates' bounds, opening each run folder once.
type bounder struct {
	cands   []choose.Candidate
	name    string
	upper   bool
	opt     Options
	folders map[string]*intervals.Folder
}

func newBounder(cands []choose.Candidate, name string, upper bool, opt Options) *bounder {
	return &bounder{cands: cands, name: name, upper: upper, opt: opt, folders: map[string]*intervals.Folder{}}
}

// Purpose seeds the bounds' bootstrap generators (docs/method.md §10),
// apart from the intervals' own.
const Purpose = "certify"

func (b *bounder) bound(i int) Bound {
	k := &b.cands[i]
	rec := &k.Record
	sel := b.opt.Decide == records.DecideSelection && rec.HasSelection()
	basis, rows := "test", rec.NTest
	if sel {
		basis, rows = "selection", rec.NSel
	}
	f, ok := b.folders[k.Dir]
	if !ok {
		var err error
		if f, err = intervals.Open(k.Dir, nil, max(2, b.opt.Resamples)); err != nil {
			return Bound{Note: err.Error(), Basis: basis}
		}
		b.folders[k.Dir] = f
	}
	// A one-sided bound at level C is the matching end of the two-sided
	// interval at level 2C − 1.
	ci := f.AtLevel(rec, sel, b.opt.Resamples, 2*b.opt.Confidence-1, Purpose)
	iv := ci.Metric(b.name)
	if b.name == records.MetricDPRatio && !b.upper {
		iv = ci.DPRatio
	}
	if iv == nil {
		note := ci.Note
		if note == "" {
			note = fmt.Sprintf("no bound of %s for %s", label(b.name), k)
		}
		return Bound{Note: note, Basis: basis, Rows: rows}
	}
	out := Bound{Value: iv[1], Rows: ci.Rows, Basis: basis, Caution: ci.Caution}
	if !b.upper {
		out.Value = iv[0]
	}
	// The estimate: the unbiased one for the mean-variance indices, the
	// record's deciding value otherwise.
	v, _, err := b.opt.Decide.Value(rec, b.name)
	if err != nil {
		return Bound{Note: err.Error(), Basis: basis, Rows: rows}
	}
	if b.name == records.MetricDPRatio && !b.upper {
		v = 1 - v // Value gives 1 − dp_ratio
	}
	out.Estimate = v
	if u, ok := ci.Corrected(b.name); ok {
		out.Estimate = u
	}
	return out
}

// cautionText is the caution as the end of the certificate's line.
func (c *Certificate) cautionText() string {
	if c.Caution == "" {
		return ""
	}
	return "; caution: " + c.Caution
}

// Text is the line fp pick prints about the certificate.
func (c *Certificate) Text() string {
	if c.Certified {
		return fmt.Sprintf("certified: %s holds with probability ≥ %g over the sampling of the %d %s rows that decided "+
			"(bound %.4g, estimate %.4g; fixed-sequence test along λ, %d candidates tested, %d certified; docs/method.md §8.7)",
			c.Requirement, c.Confidence, c.BoundRows, c.BoundOn, *c.Bound, *c.Estimate, c.Tested, c.CertifiedCount) + c.cautionText()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "no candidate is certified to have %s at confidence %g", c.Requirement, c.Confidence)
	if c.Degenerate != "" {
		fmt.Fprintf(&b, " that a pick may choose: %s", c.Degenerate)
	}
	if c.Stopped != "" {
		fmt.Fprintf(&b, " (%s)", c.Stopped)
	}
	if c.Closest != nil {
		fmt.Fprintf(&b, "; the closest is %s/%s split %d λ = %g in %s, bound %.4g (estimate %.4g) on %d %s rows",
			c.Closest.Method, c.Closest.Penalty, c.Closest.Split, c.Closest.Lambda, c.Closest.Run, *c.Bound, *c.Estimate, c.BoundRows, c.BoundOn)
		// What else rows would not help with: on dp_ratio, a network that
		// selects no one too.
		or := func(ratio, other string) string {
			if c.ratio {
				return ratio
			}
			return other
		}
		const noRows = ", so more rows would not certify it"
		switch {
		case c.ClosestHolds && c.RowsNeeded != nil:
			fmt.Fprintf(&b, ", which meets the requirement, but the sequence stops before it: about %d deciding rows would carry the sequence to it", *c.RowsNeeded)
		case c.ClosestHolds:
			b.WriteString(", which meets the requirement, but the sequence stops before it, and a candidate it tests before it has an estimate that breaks the requirement" +
				or(", no bound, or selects no one on the deciding rows (a dp_ratio 0/0)", " (or no bound)") + noRows)
		case c.RowsNeeded != nil:
			fmt.Fprintf(&b, ": about %d deciding rows would certify it", *c.RowsNeeded)
		default:
			b.WriteString(": its estimate, or that of a candidate the sequence tests before it, breaks the requirement" +
				or(", or one of them has no bound or selects no one on the deciding rows (a dp_ratio 0/0, whose lower bound is 0 at any number of rows)", " (or has no bound)") + noRows)
		}
	}
	return b.String()
}
