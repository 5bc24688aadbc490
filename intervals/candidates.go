package intervals

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/fpareto/fp/candidate"
	"github.com/fpareto/fp/internal/printable"
	"github.com/fpareto/fp/pareto"
	"github.com/fpareto/fp/records"
)

// Compute returns the intervals of each candidate (resamples bootstrap
// resamples each), loading each run folder's data once and storing what it
// computed in the folders' caches, and the distinct notes of what could not
// be given, one line each.
func Compute(cands []candidate.Candidate, resamples int) ([]CI, []string, error) {
	out := make([]CI, len(cands))
	var dirs []string
	byDir := map[string][]int{}
	for i := range cands {
		d := cands[i].Dir
		if _, ok := byDir[d]; !ok {
			dirs = append(dirs, d)
		}
		byDir[d] = append(byDir[d], i)
	}
	for _, d := range dirs {
		f, err := Open(d, nil, resamples)
		if err != nil {
			return nil, nil, err
		}
		idx := byDir[d]
		recs := make([]*records.Record, len(idx))
		for k, i := range idx {
			recs[k] = &cands[i].Record
		}
		for k, c := range f.ForAll(recs) {
			out[idx[k]] = c
		}
		f.Save()
	}
	var notes []string
	for _, c := range out {
		for _, n := range []string{c.Note, c.Caution} {
			if n != "" && !slices.Contains(notes, n) {
				notes = append(notes, n)
			}
		}
	}
	return out, notes, nil
}

// ForShown computes the intervals of the candidate s shows (a pick's
// choice, say), one of cands.
// The network file alone does not name it: every λ of a split shares the
// file of a λ-conditioned network.
func ForShown(cands []candidate.Candidate, p *candidate.Shown, resamples int) (*CI, []string, error) {
	key := records.CandidateKey(p.Method, p.Penalty, p.Split, p.Lambda)
	for i := range cands {
		if cands[i].Weights == p.Weights && cands[i].Dir == p.Run && cands[i].Record.Key() == key {
			cis, notes, err := Compute(cands[i:i+1], resamples)
			if err != nil {
				return nil, nil, err
			}
			return &cis[0], notes, nil
		}
	}
	return nil, nil, fmt.Errorf("intervals: the candidate %s is not among the candidates", p.Weights)
}

// Row is a candidate as fp front --ci shows it: its facts and intervals.
type Row struct {
	candidate.Shown
	CI
}

// FrontCandidates returns the candidates not dominated in (risk, metric)
// within their dataset (records.SameData), decided on the metrics d names
// (records.Decide: the test or the selection rows'), by dataset and then
// by increasing risk; degenerate candidates are kept and marked, as fp
// train's closing table keeps them. pareto.Front is the same culling on
// plain points, returning their indices.
func FrontCandidates(cands []candidate.Candidate, metric string, d records.Decide) ([]candidate.Candidate, error) {
	return FrontCandidatesOn(cands, records.AxisRisk, metric, d)
}

// FrontCandidatesOn is FrontCandidates in (axis value, metric), the axis
// records.AxisRisk or records.AxisError (1 − accuracy), by dataset and
// then by increasing axis value.
func FrontCandidatesOn(cands []candidate.Candidate, axis, metric string, d records.Decide) ([]candidate.Candidate, error) {
	if !slices.Contains(records.Metrics, metric) {
		return nil, fmt.Errorf("metric %q: want one of %s", metric, strings.Join(records.Metrics, ", "))
	}
	var out []candidate.Candidate
	for _, g := range byData(cands) {
		pts := make([]pareto.Point, len(g))
		for k, i := range g {
			risk, _, err := d.Value(&cands[i].Record, axis)
			if err != nil {
				return nil, err
			}
			v, _, err := d.Value(&cands[i].Record, metric)
			if err != nil {
				return nil, err
			}
			pts[k] = pareto.Point{X: risk, Y: v}
		}
		for _, k := range pareto.Front(pts) {
			out = append(out, cands[g[k]])
		}
	}
	return out, nil
}

// Rows pairs the candidates with their intervals, each shown with the
// estimates its intervals are built around (CI.Apply).
func Rows(cands []candidate.Candidate, cis []CI) []Row {
	out := make([]Row, len(cands))
	for i := range cands {
		out[i] = Row{Shown: cands[i].Show(), CI: cis[i]}
		out[i].CI.Apply(&out[i].Shown)
	}
	return out
}

// Apply shows s with the estimates c's intervals are built around: dp, eo
// and eopp become their unbiased estimates, and c keeps the records'
// plug-in values as DPRaw, EORaw and EOppRaw. Without intervals it does
// nothing; applied twice, it changes nothing more.
func (c *CI) Apply(s *candidate.Shown) {
	if c == nil || c.Unbiased == nil || c.DPRaw != nil {
		return
	}
	dp, eo, eopp := s.DP, s.EO, s.EOpp
	c.DPRaw, c.EORaw, c.EOppRaw = &dp, &eo, &eopp
	s.DP, s.EO, s.EOpp = c.Unbiased.DP, c.Unbiased.EO, c.Unbiased.EOpp
}

// Corrected returns the unbiased estimate that metric's interval is built
// around (dp, eo, eopp); ok is false for the other metrics, whose
// intervals are built around the recorded value, and without intervals.
func (c *CI) Corrected(metric string) (v float64, ok bool) {
	if c == nil || c.Unbiased == nil {
		return 0, false
	}
	switch metric {
	case records.MetricDP:
		return c.Unbiased.DP, true
	case records.MetricEO:
		return c.Unbiased.EO, true
	case records.MetricEOpp:
		return c.Unbiased.EOpp, true
	}
	return 0, false
}

// RawNote is the line that says which values are shown as unbiased
// estimates and gives the records' values; "" when none is.
func (c *CI) RawNote() string {
	if c == nil || c.DPRaw == nil {
		return ""
	}
	return fmt.Sprintf("dp, eo and eopp are shown as the unbiased estimates their intervals are built around "+
		"(docs/method.md §7.1); the records' plug-in values: dp %.4f, eo %.4f, eopp %.4f", *c.DPRaw, *c.EORaw, *c.EOppRaw)
}

// columns are the metrics of a row, as tables print them: the decision
// metrics by their record keys, dp_ratio as the ratio itself.
var columns = []string{"risk", "accuracy", "ato", "dp", "eo", "eopp", "dp_diff", "dp_ratio", "eo_diff", "eopp_diff"}

// value is the point estimate of column name of s, written for a table;
// "–" for a decision metric of a record without them.
func value(s *candidate.Shown, name string) string {
	v := map[string]float64{"risk": s.Risk, "accuracy": s.Accuracy, "ato": s.ATO, "dp": s.DP, "eo": s.EO, "eopp": s.EOpp}
	if s.Decision != nil {
		v["dp_diff"], v["dp_ratio"], v["eo_diff"], v["eopp_diff"] = s.DPDiff, s.DPRatio, s.EODiff, s.EOppDiff
	}
	if x, ok := v[name]; ok {
		return fmt.Sprintf("%.4f", x)
	}
	return "–"
}

// interval is the interval of column name of c.
func interval(c *CI, name string) *Interval {
	switch name {
	case "dp_diff":
		return c.DPDiff
	case "dp_ratio":
		return c.DPRatio
	case "eo_diff":
		return c.EODiff
	case "eopp_diff":
		return c.EOppDiff
	}
	return c.Metric(name)
}

// span writes an interval as "[lo, hi]"; "–" when there is none.
func span(iv *Interval) string {
	if iv == nil {
		return "–"
	}
	return fmt.Sprintf("[%.4f, %.4f]", iv[0], iv[1])
}

// WriteFront prints rows (the non-dominated candidates in axis,
// records.AxisRisk or records.AxisError, against metric) as fp train's
// closing table, each with a second line holding
// its 95% intervals.
func WriteFront(w io.Writer, rows []Row, axis, metric string) error {
	by := "test risk"
	if axis == records.AxisError {
		by = "test error"
	}
	fmt.Fprintf(w, "\nthe front: %d non-dominated networks in (%s, %s), by %s, with 95%% intervals "+
		"(from each network's test rows, bootstrapped, the rate gaps by score intervals; the network, its decision rules and the propensity held fixed)\n",
		len(rows), axis, records.MetricHeading(metric), by)
	t := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(t, "split\tλ\t"+strings.Join(columns, "\t")+"\tnetwork\tnote")
	for _, r := range rows {
		vals := make([]string, len(columns))
		ivs := make([]string, len(columns))
		for i, m := range columns {
			vals[i] = value(&r.Shown, m)
			ivs[i] = span(interval(&r.CI, m))
		}
		note := records.DegenerateMark(r.Collapsed, r.SingleClass, r.NearConstant, r.NearSingleClass, r.NoBetterThanConstant)
		fmt.Fprintf(t, "%d\t%.4g\t%s\t%s\t%s\n", r.Split, r.Lambda, strings.Join(vals, "\t"), r.Weights, note)
		fmt.Fprintf(t, "\t95%%\t%s\t\t\n", strings.Join(ivs, "\t"))
	}
	if err := t.Flush(); err != nil {
		return err
	}
	if slices.ContainsFunc(rows, func(r Row) bool { return r.DPRaw != nil }) {
		_, err := fmt.Fprintln(w, "dp, eo and eopp are shown as the unbiased estimates their intervals are built around "+
			"(docs/method.md §7.1); --json keeps the records' plug-in values as dp_raw, eo_raw, eopp_raw")
		return err
	}
	return nil
}

// WriteText prints one candidate's intervals under the table fp pick
// prints (choose.WriteText).
func WriteText(w io.Writer, c *CI, s *candidate.Shown) error {
	if !c.Given() {
		return nil
	}
	fmt.Fprintf(w, "95%% intervals from %d bootstrap resamples of its %d test rows (the rate gaps by score intervals; the network, its decision rules and the propensity held fixed), "+
		"each beside the estimate it is built around:\n", c.Resamples, c.Rows)
	t := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(t, "\t"+strings.Join(columns, "\t"))
	vals := make([]string, len(columns))
	ivs := make([]string, len(columns))
	for i, m := range columns {
		vals[i] = value(s, m)
		ivs[i] = span(interval(c, m))
	}
	fmt.Fprintln(t, "estimate\t"+strings.Join(vals, "\t"))
	fmt.Fprintln(t, "95%\t"+strings.Join(ivs, "\t"))
	if err := t.Flush(); err != nil {
		return err
	}
	if n := c.RawNote(); n != "" {
		_, err := fmt.Fprintln(w, n)
		return err
	}
	return nil
}

// FrontRows returns the non-dominated candidates of the records recs in
// (axis value, metric) — group-thresholds candidates among them in the
// (error, decision metric) planes (candidate.OnPlane) — decided on d, with their intervals from resamples
// bootstrap resamples (none when resamples is 0) and, for each dataset's
// front, how many of its points can be told apart from their neighbours;
// and notes, each once, on what could not be given.
func FrontRows(recs []records.Record, axis, metric string, d records.Decide, resamples int) ([]Row, []*Distinguishability, []string, error) {
	cands, err := candidate.OnPlane(recs, axis, metric)
	if err != nil {
		return nil, nil, nil, err
	}
	front, err := FrontCandidatesOn(cands, axis, metric, d)
	if err != nil {
		return nil, nil, nil, err
	}
	cis := make([]CI, len(front))
	var dist []*Distinguishability
	var notes []string
	if resamples > 0 {
		if cis, notes, err = Compute(front, resamples); err != nil {
			return nil, nil, nil, err
		}
		t, err := NewDistinguisher(d, resamples)
		if err != nil {
			return nil, nil, nil, err
		}
		for _, f := range Fronts(front) {
			one, err := t.Distinguish(f, axis, metric)
			if err != nil {
				return nil, nil, nil, err
			}
			dist = append(dist, one)
		}
		notes = append(notes, t.Notes()...)
	}
	var once []string
	for _, n := range notes {
		if !slices.Contains(once, n) {
			once = append(once, n)
		}
	}
	rows := Rows(front, cis)
	// Shown by the test value of the axis, as WriteFront's heading says,
	// not by the deciding rows' value that formed the front (and orders
	// its neighbours); each dataset's rows together, as formed.
	var out []Row
	for _, g := range byData(front) {
		g = slices.Clone(g)
		slices.SortStableFunc(g, func(a, b int) int {
			va, _, _ := records.DecideTest.Value(&front[a].Record, axis)
			vb, _, _ := records.DecideTest.Value(&front[b].Record, axis)
			return cmp.Compare(va, vb)
		})
		for _, i := range g {
			out = append(out, rows[i])
		}
	}
	return out, dist, once, nil
}

// ForPick returns the intervals of the picked candidate p (one of cands),
// applied to it (CI.Apply), and how many points of the front among it was
// picked from can be told apart from their neighbours on the rows that
// decided it (d), in (axis, metric); with notes, each once, on what could not be given.
func ForPick(cands []candidate.Candidate, p *candidate.Shown, among []candidate.Candidate, axis, metric string, d records.Decide, resamples int) (*CI, *Distinguishability, []string, error) {
	ci, notes, err := ForShown(cands, p, resamples)
	if err != nil {
		return nil, nil, nil, err
	}
	// The claim is about the front the pick was made from, on the rows
	// that decided it.
	dist, more, err := Distinguish(among, axis, metric, d, resamples)
	if err != nil {
		return nil, nil, nil, err
	}
	var once []string
	for _, n := range append(notes, more...) {
		if !slices.Contains(once, n) {
			once = append(once, n)
		}
	}
	ci.Apply(p)
	return ci, dist, once, nil
}

// WriteDistinguishable says, one line per front of dist (one per dataset,
// named when there are several), how many of its points can be told apart
// from their neighbours.
func WriteDistinguishable(w io.Writer, dist []*Distinguishability) {
	for _, d := range dist {
		what := "the front"
		if len(dist) > 1 {
			what = "the front of " + printable.String(d.Dataset)
		}
		fmt.Fprintf(w, "%s: %s\n", what, d)
	}
}
