package choose

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/fpareto/fp/candidate"
	"github.com/fpareto/fp/fairness"
	"github.com/fpareto/fp/records"
)

// Candidate is a record that a pick may consider (candidate.Candidate).
type Candidate = candidate.Candidate

// Shown is one candidate as a pick reports it (candidate.Shown).
type Shown = candidate.Shown

// Candidates returns the candidates among recs (candidate.Of).
func Candidates(recs []records.Record) ([]Candidate, error) { return candidate.Of(recs) }

// CandidatesOn returns the candidates among recs that have a point in the
// plane (axis, metric) (candidate.OnPlane): with the error axis and a
// decision metric, the group-thresholds candidates too.
func CandidatesOn(recs []records.Record, axis, metric string) ([]Candidate, error) {
	return candidate.OnPlane(recs, axis, metric)
}

// NoCandidates says why the records recs of the folders where hold no
// candidate in the plane (axis, metric): none with a stored network, or
// only group-thresholds candidates, which have a point against the error
// with a decision metric alone.
func NoCandidates(recs []records.Record, where, axis, metric string) error {
	if records.CountBaseProbability(recs) > 0 {
		return fmt.Errorf("no successful candidate with a stored network in %s has a point in (%s, %s): "+
			"group-thresholds candidates have one against the error with a decision metric: give --axis error and --metric %s",
			where, axis, records.MetricHeading(metric), strings.Join(records.DecisionMetrics, ", "))
	}
	return fmt.Errorf("no successful candidate with a stored network in %s", where)
}

// CheckAxis parses the x axis axis (records.ParseAxis: records.AxisRisk,
// "" too, or records.AxisError) and refuses a rule that does not apply on
// it: a maximum risk on a front against the error.
func CheckAxis(axis string, r Rule) (string, error) {
	a, err := records.ParseAxis(axis)
	if err != nil {
		return "", err
	}
	if a == records.AxisError && r.Kind == MaxRisk {
		return "", fmt.Errorf("a maximum risk bounds the risk, and the front is against the error: give a minimum accuracy instead")
	}
	return a, nil
}

// metricsLine states the numbers the candidate was judged on.
func metricsLine(k *Candidate, metric string, d records.Decide) string {
	r, _, _ := d.Value(&k.Record, "risk")
	a, _, _ := d.Value(&k.Record, "accuracy")
	v, _, _ := d.Value(&k.Record, metric)
	on := ""
	if d.Selects() {
		on = " on the selection rows"
	}
	label, v := records.Shown(metric, v)
	return fmt.Sprintf("risk %.6g, accuracy %.6g, %s %.6g%s", r, a, label, v, on)
}

// LeftOut counts the candidates a pick leaves out, each under the first of
// its reasons in the order of the fields.
type LeftOut struct {
	Collapsed    int `json:"collapsed"`     // constant predictors: never chosen
	SingleClass  int `json:"single_class"`  // one class predicted for every test row
	NearConstant int `json:"near_constant"` // scores barely vary
	// NearSingleClass: the less frequent decision goes to fewer rows than
	// records.MinorityDecisionLimit allows.
	NearSingleClass int `json:"near_single_class"`
	// NoBetterThanConstant: test risk not below the constant predictor's at
	// the training base rate.
	NoBetterThanConstant int `json:"no_better_than_constant"`
}

// Total is the number of candidates left out.
func (l LeftOut) Total() int {
	return l.Collapsed + l.SingleClass + l.NearConstant + l.NearSingleClass + l.NoBetterThanConstant
}

// String gives the counts by reason, e.g. "2 single-class, 1 no better
// than constant"; "none" when nothing was left out.
func (l LeftOut) String() string {
	var parts []string
	for _, c := range []struct {
		n    int
		what string
	}{{l.Collapsed, "collapsed"}, {l.SingleClass, "single-class"}, {l.NearConstant, "near-constant"},
		{l.NearSingleClass, "almost single-class"},
		{l.NoBetterThanConstant, "no better than constant"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// Screen returns the candidates a pick chooses among and counts the rest.
// Constant predictors (collapsed) are always left out; single-class,
// near-constant, almost single-class candidates and those no better than the constant predictor
// at the training base rate are left out unless allowDegenerate, judged on
// the rows d decides on (the selection rows' flags for DecideSelection).
// Records that do not carry the constant predictor's risk are not tested
// against it.
func Screen(cands []Candidate, allowDegenerate bool, d records.Decide) ([]Candidate, LeftOut) {
	idx, out := screen(cands, allowDegenerate, d)
	kept := make([]Candidate, len(idx))
	for k, i := range idx {
		kept[k] = cands[i]
	}
	return kept, out
}

// screen is Screen giving the indices of the candidates kept.
func screen(cands []Candidate, allowDegenerate bool, d records.Decide) ([]int, LeftOut) {
	var kept []int
	var out LeftOut
	for i := range cands {
		r := &cands[i].Record
		single, near, few, noBetter := r.SingleClass, r.NearConstant, r.NearSingleClass(), r.NoBetterThanConstant()
		if d.Selects() && r.HasSelection() {
			// Decided on the selection rows: screened on them too, so
			// that no test-row figure enters the choice. Collapsed (the
			// network's scores barely vary) is a property of the network.
			s := r.Selection
			single, near, few = s.SelSingleClass, s.SelNearConstant, s.SelNearSingleClass()
			noBetter = s.SelConstRisk != nil && s.SelRisk >= *s.SelConstRisk
		}
		switch {
		case r.Collapsed:
			out.Collapsed++
		case allowDegenerate:
			kept = append(kept, i)
		case single:
			out.SingleClass++
		case near:
			out.NearConstant++
		case few:
			out.NearSingleClass++
		case noBetter:
			out.NoBetterThanConstant++
		default:
			kept = append(kept, i)
		}
	}
	return kept, out
}

// Picked is the outcome of Pick; its JSON form is fp pick's output: the
// chosen candidate's keys, and what was left out before the front was
// formed.
type Picked struct {
	Shown
	LeftOut LeftOut `json:"left_out"`

	// Selection holds the chosen candidate's metrics on the selection
	// rows, when its run kept some (keys sel_risk, …, n_sel).
	*records.Selection

	// Basis names the rows whose metrics the choice was made on: "test",
	// or "selection" (the metrics above are then of the test rows, which
	// the choice did not see).
	Basis string `json:"decided_on"`

	Axis       string `json:"axis"` // the front's x axis: risk or error
	Metric     string `json:"-"`    // the unfairness metric of the front
	Rule       Rule   `json:"-"`    // the requirement the pick was made by
	Front      int    `json:"-"`    // the non-dominated candidates the choice was made among
	Candidates int    `json:"-"`    // the candidates the front was formed of (those left out aside)
	// Of qualifies Candidates when they are a subset ("certified": those
	// a certified pick chooses among); "" for every candidate.
	Of string `json:"-"`

	// Among are the Front candidates, by increasing deciding risk.
	Among []Candidate `json:"-"`
	// Note says how the candidate was chosen where the rule alone does not
	// (KneeNote, for a knee that does not stand out); "" otherwise.
	Note string `json:"note,omitempty"`
}

// PickError says that no candidate meets the rule, naming the closest one
// (nil when there is none). It wraps the *NoneError.
type PickError struct {
	None    *NoneError
	Metric  string
	Closest *Candidate
	LeftOut LeftOut
	Decide  records.Decide // the metrics the rule was applied to
}

func (e *PickError) Error() string {
	why := strings.Replace(e.None.Error(), "unfairness", e.Metric, 1)
	if e.Closest == nil {
		return why
	}
	return fmt.Sprintf("%s; the closest is %s (%s)", why, e.Closest, metricsLine(e.Closest, e.Metric, e.Decide))
}

func (e *PickError) Unwrap() error { return e.None }

// LeftOutError says that Screen left every candidate out.
type LeftOutError struct{ LeftOut LeftOut }

func (e *LeftOutError) Error() string {
	return fmt.Sprintf("every candidate is degenerate (%s)", e.LeftOut)
}

// Options adjust Pick.
type Options struct {
	// AllowDegenerate keeps the single-class, near-constant and
	// no-better-than-constant candidates (see Screen).
	AllowDegenerate bool
	// Axis is the front's x axis: records.AxisRisk ("" too) or
	// records.AxisError (1 − accuracy), the plane where group-thresholds
	// candidates have a point with a decision metric.
	Axis string
	// Decide names the metrics the front and the rule are decided on
	// (records.Decide; the zero value: the test metrics, which then
	// flatter the chosen candidate). The metrics reported are the test
	// ones either way.
	Decide records.Decide
}

// Pick leaves out the candidates Screen leaves out, keeps those not
// dominated in (risk, metric) — (error, metric) with opt.Axis — among the rest and picks one by r, both
// decided on the metrics opt.Decide names (Basis says which). When no
// candidate meets r the error is a *PickError; when every candidate is
// left out, a *LeftOutError.
func Pick(cands []Candidate, metric string, r Rule, opt Options) (*Picked, error) {
	d := opt.Decide
	if !slices.Contains(records.Metrics, metric) {
		return nil, fmt.Errorf("metric %q: want one of %s", metric, strings.Join(records.Metrics, ", "))
	}
	if r.Kind == MinRatio && metric != records.MetricDPRatio {
		return nil, fmt.Errorf("a minimum ratio is a requirement on %s, not %s", records.MetricDPRatio, metric)
	}
	axis, err := CheckAxis(opt.Axis, r)
	if err != nil {
		return nil, err
	}
	if len(cands) == 0 {
		return nil, errors.New("no candidate to pick from")
	}
	kept, left := screen(cands, opt.AllowDegenerate, d)
	if len(kept) == 0 {
		return nil, &LeftOutError{LeftOut: left}
	}
	pts, err := PointOf(cands, kept, axis, metric, d)
	if err != nil {
		return nil, err
	}
	idx := Front(pts)
	front := make([]Point, len(idx))
	for k, i := range idx {
		front[k] = pts[i]
		idx[k] = kept[i] // from now on, indices into cands
	}
	k, err := Choose(front, r)
	var none *NoneError
	if errors.As(err, &none) {
		pe := &PickError{None: none, Metric: metric, LeftOut: left, Decide: d}
		if none.Closest >= 0 {
			pe.Closest = &cands[idx[none.Closest]]
		}
		return nil, pe
	}
	if err != nil {
		return nil, err
	}
	c := &cands[idx[k]]
	rec := &c.Record
	p := &Picked{Shown: c.Show(), LeftOut: left, Rule: r, Axis: axis,
		Metric: metric, Basis: d.String(), Front: len(front), Candidates: len(kept), Note: kneeNote(front, r)}
	for _, i := range idx {
		p.Among = append(p.Among, cands[i])
	}
	if rec.HasSelection() {
		sel := *rec.Selection
		p.Selection = &sel
	}
	return p, nil
}

// PointOf returns the points of cands[idx[0]], cands[idx[1]], … as d
// decides them: the x axis (records.AxisRisk or records.AxisError), metric
// and accuracy on the deciding rows.
func PointOf(cands []Candidate, idx []int, axis, metric string, d records.Decide) ([]Point, error) {
	pts := make([]Point, len(idx))
	for i, c := range idx {
		k := &cands[c]
		risk, _, err := d.Value(&k.Record, axis)
		if err != nil {
			return nil, err
		}
		v, _, err := d.Value(&k.Record, metric)
		if err != nil {
			return nil, err
		}
		acc, _, _ := d.Value(&k.Record, "accuracy")
		pts[i] = Point{Risk: risk, Unfairness: v, Accuracy: acc}
	}
	return pts, nil
}

// WriteText prints p as a one-row table under a line saying what it was
// picked from, then its network file.
func WriteText(w io.Writer, p *Picked) error {
	axis := p.Axis
	if axis == "" {
		axis = records.AxisRisk
	}
	of := ""
	if p.Of != "" {
		of = p.Of + " "
	}
	fmt.Fprintf(w, "picked from the %d non-dominated of %d %scandidates (%s vs %s, chosen on %s metrics; test metrics shown):\n",
		p.Front, p.Candidates, of, axis, p.Metric, p.Basis)
	t := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	// A shown value that breaks the stated requirement is marked: chosen
	// on other rows (or by point estimate), it need not meet it here.
	broken := p.Breaks()
	f := func(name string, v float64) string {
		if name == broken {
			return fmt.Sprintf("%.4f!", v)
		}
		return fmt.Sprintf("%.4f", v)
	}
	head := "run\tmethod\tpenalty\tsplit\tλ\trisk\taccuracy\tato\tdp\teo\teopp"
	row := fmt.Sprintf("%s\t%s\t%s\t%d\t%g\t%s\t%s\t%s\t%s\t%s\t%s", p.Run, p.Method, p.Penalty, p.Split, p.Lambda,
		f("risk", p.Risk), f("accuracy", p.Accuracy), f("ato", p.ATO), f("dp", p.DP), f("eo", p.EO), f("eopp", p.EOpp))
	if p.Decision != nil {
		head += "\tdp_diff\tdp_ratio\teo_diff\teopp_diff"
		row += fmt.Sprintf("\t%s\t%s\t%s\t%s", f(records.MetricDPDiff, p.DPDiff), f(records.MetricDPRatio, p.DPRatio),
			f(records.MetricEODiff, p.EODiff), f(records.MetricEOppDiff, p.EOppDiff))
	}
	fmt.Fprintln(t, head)
	fmt.Fprintln(t, row)
	if err := t.Flush(); err != nil {
		return err
	}
	if broken != "" {
		fmt.Fprintf(w, "! breaks the stated requirement (%s) on the test rows shown\n", p.Requirement())
	}
	if p.Decision != nil {
		how := fmt.Sprintf("decisions at threshold %g", p.Threshold)
		if p.UsesSensitive {
			how = "decisions by a rule per group on the probability (group thresholds, docs/method.md §13.1)"
		}
		fmt.Fprintf(w, "%s; %s\n", how, strings.ReplaceAll(fairness.ScaleNote, "\n", "; "))
	}
	if p.Basis == string(records.DecideSelection) && p.Selection != nil {
		v, _ := p.Selection.Value(p.Metric)
		label, v := records.Shown(p.Metric, v)
		fmt.Fprintf(w, "on the %d selection rows it was chosen on: risk %.4f, accuracy %.4f, %s %.4f\n",
			p.NSel, p.SelRisk, p.SelAccuracy, label, v)
	}
	if why := p.Degenerate(); why != "" {
		fmt.Fprintf(w, "note: the candidate is degenerate: %s\n", why)
	}
	if p.Conditioned {
		_, err := fmt.Fprintf(w, "network: %s (λ-conditioned: the candidate is this network at --lambda %s)\n", p.Weights, records.FormatLambda(p.Lambda))
		return err
	}
	_, err := fmt.Fprintf(w, "network: %s\n", p.Weights)
	return err
}

// Requirement states the rule the pick was made by, on its metric.
func (p *Picked) Requirement() string { return Requirement(p.Rule, p.Metric) }

// Requirement states rule r on a front of metric, e.g. "dp-diff ≤ 0.1".
func Requirement(r Rule, metric string) string {
	if r.Kind == MaxUnfairness {
		return fmt.Sprintf("%s ≤ %g", records.MetricHeading(metric), r.Bound)
	}
	return r.String()
}

// Breaks names the shown (test) value that breaks the pick's requirement:
// the metric's name, "risk", "accuracy" or records.MetricDPRatio; "" when
// none does (and for the knee, which states none).
func (p *Picked) Breaks() string {
	switch p.Rule.Kind {
	case MaxRisk:
		if p.Risk > p.Rule.Bound {
			return "risk"
		}
	case MinAccuracy:
		if p.Accuracy < p.Rule.Bound {
			return "accuracy"
		}
	case MinRatio:
		if p.Decision != nil && p.DPRatio < p.Rule.Bound {
			return records.MetricDPRatio
		}
	case MaxUnfairness:
		if v, ok := p.shownValue(p.Metric); ok && v > p.Rule.Bound {
			return p.Metric
		}
	}
	return ""
}

// shownValue is the shown value of metric as fronts minimise it (1 −
// dp_ratio for records.MetricDPRatio).
func (p *Picked) shownValue(metric string) (float64, bool) {
	switch metric {
	case records.MetricATO:
		return p.ATO, true
	case records.MetricDP:
		return p.DP, true
	case records.MetricEO:
		return p.EO, true
	case records.MetricEOpp:
		return p.EOpp, true
	}
	if p.Decision == nil {
		return 0, false
	}
	switch metric {
	case records.MetricDPDiff:
		return p.DPDiff, true
	case records.MetricDPRatio:
		return 1 - p.DPRatio, true
	case records.MetricEODiff:
		return p.EODiff, true
	case records.MetricEOppDiff:
		return p.EOppDiff, true
	}
	return 0, false
}

// Note is the line fp pick prints about the candidates Screen left out of
// all n: "" when none was.
func (l LeftOut) Note(n int) string {
	if l.Total() == 0 {
		return ""
	}
	return fmt.Sprintf("left out %d of %d candidates before forming the front: %s", l.Total(), n, l)
}

// NoteAllowing is Note, with the flag that keeps all but the constant
// predictors named where the degenerate ones were left out (allow false).
func (l LeftOut) NoteAllowing(n int, allow bool) string {
	note := l.Note(n)
	if note != "" && !allow && l.Total() > l.Collapsed {
		note += " (--allow-degenerate keeps all but the constant predictors)"
	}
	return note
}

// Notes are what a user should know of the pick p: its own note, and, when
// it was decided on the test rows its metrics come from, that they are
// optimistic.
func (p *Picked) Notes() []string {
	var out []string
	if p.Note != "" {
		out = append(out, p.Note)
	}
	if p.Basis == "test" {
		out = append(out, "the candidate was chosen on the test rows its metrics come from, "+
			"so they are optimistic; check it on fresh data (fp predict, then fp audit)")
	}
	return out
}

// PathNote is what --print-path adds on standard error for the pick p: for
// a λ-conditioned network, that the candidate is it at the pick's λ; "" for
// any other.
func (p *Picked) PathNote() string {
	if !p.Conditioned {
		return ""
	}
	l := records.FormatLambda(p.Lambda)
	return fmt.Sprintf("%s is a λ-conditioned network: the candidate is it at --lambda %s (fp predict --model NET --lambda %s …)", p.Weights, l, l)
}

// OfSplit narrows recs and cands to split m.
func OfSplit(recs []records.Record, cands []Candidate, m int) ([]records.Record, []Candidate) {
	return slices.DeleteFunc(recs, func(r records.Record) bool { return r.Split != m }),
		slices.DeleteFunc(cands, func(k Candidate) bool { return k.Record.Split != m })
}

// In says that every candidate of the sweeps at paths is degenerate, with
// the flag that keeps all but the constant predictors where the others
// were left out (allow false).
func (e *LeftOutError) In(paths []string, allow bool) string {
	msg := e.Error() + " in " + strings.Join(paths, ", ")
	if !allow && e.LeftOut.Total() > e.LeftOut.Collapsed {
		msg += "; --allow-degenerate keeps all but the constant predictors"
	}
	return msg
}
