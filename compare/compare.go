package compare

import (
	"cmp"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"github.com/fpareto/fp/pareto"
	"github.com/fpareto/fp/records"
)

// Options set a comparison. Zero values take the defaults noted.
type Options struct {
	Metrics   []string         // default records.MetricsOf the records
	By        records.Grouping // default records.DefaultGrouping: one group per run
	Tolerance float64          // distinct-point ε; default pareto.DefaultTolerance
	Resamples int              // bootstrap resamples; default 10,000
	Seed      uint64           // bootstrap seed, with the metric and the pair; default 1
	// Decide says which metrics decide the fronts (records.Decide; the
	// zero value decides on the test metrics). Under
	// records.DecideSelection every group's front, its non-dominated count
	// and share are decided on the selection metrics, and its hypervolumes
	// are those of the test metrics of the candidates so chosen.
	Decide records.Decide
	// Rule is the front rule of the hypervolumes (docs/method.md §8.4);
	// default pareto.DefaultRule. Under pareto.RuleConstant every record
	// must carry its constant predictor's value on Axis.
	Rule pareto.Rule
	// Axis is the x axis of every plane, records.AxisRisk (default) or
	// records.AxisError.
	Axis string
	// Reference is both coordinates of the hypervolumes' reference point
	// in the normalised space, above 1 (default pareto.Reference's 1.1).
	// A second reference point is a check of how much a verdict owes to
	// the area the extremes of the fronts bound.
	Reference float64
}

// MaxReference bounds Options.Reference: far beyond the unit square the
// extremes' area swamps the front's shape.
const MaxReference = 10.0

// CheckReference checks a reference point coordinate (Options.Reference).
func CheckReference(r float64) error {
	if !(r > 1) || r > MaxReference {
		return fmt.Errorf("reference %v: want a number above 1 and at most %g", r, MaxReference)
	}
	return nil
}

// Result is a comparison of groups of candidates.
type Result struct {
	Tolerance float64 `json:"tolerance"`
	// Reference is the hypervolume reference point in normalised space.
	Reference [2]float64 `json:"reference"`
	// FrontRule names the rule that scaled the planes of the hypervolumes
	// (pareto.Rule) and Axis their x axis ("risk" or "error").
	FrontRule string      `json:"front_rule"`
	Axis      string      `json:"axis"`
	Pooled    []Pooled    `json:"pooled"`
	PerSplit  []SplitRow  `json:"per_split"`
	Paired    []PairedRow `json:"paired"`
	// Datasets lists the datasets compared (separately when grouped by
	// dataset).
	Datasets []string `json:"datasets"`
	// EvalOnlyLeftOut counts the records of a conditioned sweep at λ of
	// its evaluation grid only (records.Record.EvalOnly) left out because
	// groups were compared: a comparison is on the λ every group trained
	// for (docs/method.md §12).
	EvalOnlyLeftOut int `json:"eval_only_left_out,omitempty"`
	// BaseProbabilityLeftOut counts, by metric, the candidates left out
	// of that metric's plane because their probability is their base
	// network's (records.Record.InPlane: group thresholds outside the
	// (error, decision metric) planes).
	BaseProbabilityLeftOut map[string]int `json:"base_probability_left_out,omitempty"`
	// Groups names the sensitive attributes of more than two groups the
	// records were trained on (records.Record.Sensitive with its levels);
	// their dp, eo, eopp and ato are the R-group ones. Absent for two.
	Groups []string `json:"groups,omitempty"`
	// DecidedOn names the rows whose metrics decided the fronts: "test", or
	// "selection" (the hypervolumes are then of the test metrics of the
	// candidates non-dominated on the selection rows).
	DecidedOn string `json:"decided_on"`
}

// Pooled is one group's row of the pooled table of one metric: all its
// candidates over every split, normalised over every group's candidates.
type Pooled struct {
	Metric       string  `json:"metric"`
	Dataset      string  `json:"dataset,omitempty"` // when grouped by dataset
	Group        string  `json:"group"`
	Method       string  `json:"method,omitempty"`
	Penalty      string  `json:"penalty,omitempty"`
	BetaScale    float64 `json:"beta_scale,omitempty"`
	Candidates   int     `json:"candidates"`
	NonDominated int     `json:"nondominated"` // distinct points of the group's own front
	Hypervolume  float64 `json:"hypervolume"`
	Share        float64 `json:"share"`
	// Constant is, under the constant front rule, the x of the constant
	// predictor of the pooled plane: the mean over the splits of each
	// split's (docs/method.md §8.4).
	Constant *float64 `json:"constant,omitempty"`
	// FrontCollapsed and FrontSingleClass count the candidates on the
	// group's own front that are constant predictors or predict one class;
	// FrontNoBetter those whose test risk is no better than the constant
	// predictor's at the training base rate (records that carry it).
	FrontCollapsed   int `json:"front_collapsed"`
	FrontSingleClass int `json:"front_single_class"`
	FrontNoBetter    int `json:"front_no_better_than_constant"`
	// FrontWeak counts the candidates on the group's own front that are
	// weakly dominated within the tolerance (pareto.WeaklyDominated, on the
	// axes normalised as for the distinct points).
	FrontWeak int `json:"front_weakly_dominated"`
	// Configs counts the sweep configurations pooled in the group: more
	// than one when a grouping without "run" merges sweeps.
	Configs int `json:"configs"`
}

// SplitRow is one group's hypervolume on one split of one metric.
type SplitRow struct {
	Metric  string `json:"metric"`
	Dataset string `json:"dataset,omitempty"`
	pareto.SplitHypervolume
	// Constant is, under the constant front rule, the x of the split's
	// constant predictor.
	Constant *float64 `json:"constant,omitempty"`
}

// PairedRow compares groups A and B on one metric split by split. A is
// the group read from the earlier argument (Order).
type PairedRow struct {
	Metric  string `json:"metric"`
	Dataset string `json:"dataset,omitempty"`
	pareto.Paired
	// QValue is the Benjamini–Hochberg q-value of PValue over every paired
	// test of the comparison (all metrics, datasets and pairs): the false
	// discovery rate at which this difference still counts.
	QValue float64 `json:"q_value"`
	// ARuns and BRuns name the files or folders A's and B's records were
	// read from, in the order given.
	ARuns []string `json:"a_runs"`
	BRuns []string `json:"b_runs"`
}

// Run compares the groups of recs (successful candidates). Records of
// several datasets (records.ByData: the rows' identity, not the file's
// name) are refused unless the grouping includes the dataset; then each
// dataset is compared on its own. Runs on the same rows under different
// file names, or with different feature columns, are one dataset and are
// paired split by split.
func Run(recs []records.Record, opt Options) (*Result, error) {
	if len(recs) == 0 {
		return nil, errors.New("compare: no candidates")
	}
	if len(opt.Metrics) == 0 {
		opt.Metrics = records.MetricsOf(recs)
	}
	for _, m := range opt.Metrics {
		if !slices.Contains(records.Metrics, m) {
			return nil, fmt.Errorf("compare: metric %q: want one of %s", m, strings.Join(records.Metrics, ", "))
		}
	}
	axis, err := records.ParseAxis(opt.Axis)
	if err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	opt.Axis = axis
	if opt.Rule, err = pareto.ParseRule(string(opt.Rule)); err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	if len(opt.By) == 0 {
		opt.By = records.Grouping{records.DefaultGrouping}
	}
	if opt.Seed == 0 {
		opt.Seed = 1
	}
	ref := pareto.Reference
	if opt.Reference != 0 {
		if err := CheckReference(opt.Reference); err != nil {
			return nil, fmt.Errorf("compare: %w", err)
		}
		ref = pareto.Point{X: opt.Reference, Y: opt.Reference}
	}
	tol := opt.Tolerance
	if tol == 0 {
		tol = pareto.DefaultTolerance
	}
	escape := "--by dataset," + strings.Join(opt.By, ",")
	if opt.By.Has("dataset") {
		escape = ""
	}
	for i := range recs {
		r := &recs[i]
		for _, m := range opt.Metrics {
			if _, _, _, _, err := opt.Decide.PointOn(r, opt.Axis, m); err != nil {
				return nil, fmt.Errorf("compare: %s: %w", sourceOf(r), err)
			}
		}
	}
	// A conditioned sweep's eval_only records have no counterpart in a
	// sweep of one network per λ: groups are compared without them, while
	// a sweep shown alone keeps them on its front.
	var left int
	if len(records.Groups(recs, opt.By)) > 1 {
		kept := make([]records.Record, 0, len(recs))
		for _, r := range recs {
			if r.EvalOnly {
				left++
				continue
			}
			kept = append(kept, r)
		}
		recs = kept
	}
	data, err := records.OneDataPerGroup(recs, opt.By, escape)
	if err != nil {
		return nil, err // says what it is: the command names itself
	}
	for i := range recs {
		if r := &recs[i]; opt.Rule.NeedsConstant() {
			if _, err := r.ConstantOn(opt.Axis); err != nil {
				return nil, fmt.Errorf("compare: %s: %w (the constant predictor's test %s, by which the %s front rule scales the %s axis): "+
					"rerun the sweep into a new folder, or compare with --front-rule %s",
					sourceOf(r), err, opt.Axis, opt.Rule, opt.Axis, pareto.RuleMinMax)
			}
		}
	}
	slices.SortStableFunc(data, func(a, b records.DataGroup) int { return strings.Compare(a.Label, b.Label) })
	res := &Result{Tolerance: tol, Reference: [2]float64{ref.X, ref.Y}, DecidedOn: opt.Decide.String(),
		EvalOnlyLeftOut: left, FrontRule: string(opt.Rule), Axis: opt.Axis}
	for _, r := range recs {
		if len(r.GroupCounts) > 0 && !slices.Contains(res.Groups, r.Sensitive) {
			res.Groups = append(res.Groups, r.Sensitive)
		}
	}
	for _, d := range data {
		res.Datasets = append(res.Datasets, d.Label)
	}
	for _, metric := range opt.Metrics {
		for _, d := range data {
			label := ""
			if len(data) > 1 {
				label = d.Label
			}
			if err := res.add(metric, label, d.Records, opt, tol); err != nil {
				return nil, fmt.Errorf("compare: %w", err)
			}
		}
	}
	p := make([]float64, len(res.Paired))
	for i := range res.Paired {
		p[i] = res.Paired[i].PValue
	}
	for i, q := range pareto.BenjaminiHochberg(p) {
		res.Paired[i].QValue = q
	}
	return res, nil
}

// sourceOf names where r was read from, for messages: its file, or its
// key when it was not read from one.
func sourceOf(r *records.Record) string {
	if r.Source != "" {
		return r.Source
	}
	return "candidate " + r.Key()
}

// constants returns, under a rule that needs them, the x of the constant
// predictor on each split of recs (docs/method.md §8.4): the mean of the
// split's records' values, which is their common value when they agree (the
// records of one split of one dataset do), and the pooled plane's, the mean
// over the splits. Run has checked that every record carries it.
func constants(recs []records.Record, opt Options) (bySplit map[int]float64, pooled float64) {
	if !opt.Rule.NeedsConstant() {
		return nil, 0
	}
	vals := map[int][]float64{}
	for i := range recs {
		c, _ := recs[i].ConstantOn(opt.Axis)
		vals[recs[i].Split] = append(vals[recs[i].Split], c)
	}
	bySplit = map[int]float64{}
	var all []float64
	for m, v := range vals {
		bySplit[m] = meanFrom(v)
		all = append(all, bySplit[m])
	}
	slices.Sort(all) // the pooled mean does not depend on map order
	return bySplit, meanFrom(all)
}

// meanFrom is the mean of v taken as v[0] plus the mean deviation from
// it, so that equal values give exactly their value.
func meanFrom(v []float64) float64 {
	var d float64
	for _, x := range v {
		d += x - v[0]
	}
	return v[0] + d/float64(len(v))
}

// add compares the records of one dataset on one metric.
func (res *Result) add(metric, dataset string, recs []records.Record, opt Options, tol float64) error {
	in := make([]records.Record, 0, len(recs))
	for _, r := range recs {
		if r.InPlane(opt.Axis, metric) {
			in = append(in, r)
		}
	}
	if left := len(recs) - len(in); left > 0 {
		if res.BaseProbabilityLeftOut == nil {
			res.BaseProbabilityLeftOut = map[string]int{}
		}
		res.BaseProbabilityLeftOut[metric] += left
	}
	if recs = in; len(recs) == 0 {
		return nil
	}
	groups := records.Groups(recs, opt.By)
	names := make([]string, 0, len(groups))
	for name := range groups {
		names = append(names, name)
	}
	// The paper's order seeds each pair's bootstrap, so that comparing B
	// with A draws the resamples of A with B; the rows follow the
	// arguments.
	slices.SortFunc(names, func(a, b string) int { return rowOrder(a, groups[a], b, groups[b]) })
	canonical := slices.Clone(names)
	arg := sourceOrder(recs)
	runs := map[string][]string{}
	for _, name := range names {
		runs[name] = sourcesOf(groups[name])
	}
	slices.SortStableFunc(names, func(a, b string) int {
		return cmp.Compare(arg[groups[a][0].Source], arg[groups[b][0].Source])
	})

	// points are shown (test metrics), decide decides the fronts.
	points, decide := map[string][]pareto.Point{}, map[string][]pareto.Point{}
	splits, decideSplits := map[int]map[string][]pareto.Point{}, map[int]map[string][]pareto.Point{}
	for _, name := range names {
		for i := range groups[name] {
			r := &groups[name][i]
			dr, du, sr, su, _ := opt.Decide.PointOn(r, opt.Axis, metric) // checked by Run
			p, q := pareto.Point{X: sr, Y: su}, pareto.Point{X: dr, Y: du}
			points[name] = append(points[name], p)
			decide[name] = append(decide[name], q)
			if splits[r.Split] == nil {
				splits[r.Split], decideSplits[r.Split] = map[string][]pareto.Point{}, map[string][]pareto.Point{}
			}
			splits[r.Split][name] = append(splits[r.Split][name], p)
			decideSplits[r.Split][name] = append(decideSplits[r.Split][name], q)
		}
	}
	bySplit, pooled := constants(recs, opt)
	ref := pareto.Point{X: res.Reference[0], Y: res.Reference[1]}
	popt := pareto.Options{Tolerance: tol, Rule: opt.Rule, Constant: pooled, Reference: ref}
	if !opt.Decide.Selects() {
		decide, decideSplits = points, nil
	} else {
		popt.Decide = decide
	}
	var decAll []pareto.Point
	for _, name := range names {
		decAll = append(decAll, decide[name]...)
	}
	decNorm := pareto.NewNormalizer(decAll) // as CompareWith's for distinct points
	sums := map[string]pareto.Summary{}
	for _, s := range pareto.CompareWith(points, popt) {
		sums[s.Group] = s
	}
	for _, name := range names {
		s, first := sums[name], &groups[name][0]
		row := Pooled{Metric: metric, Dataset: dataset, Group: name, Candidates: s.Candidates,
			NonDominated: s.NonDominated, Hypervolume: s.Hypervolume, Share: s.Share}
		if opt.Rule.NeedsConstant() {
			row.Constant = &pooled
		}
		if uniform(groups[name], func(r *records.Record) string { return r.MethodLabel() + "\x00" + r.Penalty }) {
			row.Method, row.Penalty, row.BetaScale = first.Method, first.Penalty, first.BetaScale
		}
		configs := map[string]bool{}
		for i := range groups[name] {
			configs[groups[name][i].Config] = true
		}
		row.Configs = len(configs)
		front := pareto.Front(decide[name])
		row.FrontWeak = pareto.WeaklyDominated(decide[name], front, decNorm, tol)
		for _, i := range front {
			if groups[name][i].Collapsed {
				row.FrontCollapsed++
			}
			if groups[name][i].SingleClass {
				row.FrontSingleClass++
			}
			if groups[name][i].NoBetterThanConstant() {
				row.FrontNoBetter++
			}
		}
		res.Pooled = append(res.Pooled, row)
	}
	perSplit, err := pareto.PerSplitWith(splits, pareto.SplitOptions{Decide: decideSplits, Rule: opt.Rule, Constants: bySplit, Reference: ref})
	if err != nil {
		return err // Run has checked every record's constant: not reached
	}
	for _, h := range perSplit {
		row := SplitRow{Metric: metric, Dataset: dataset, SplitHypervolume: h}
		if c, ok := bySplit[h.Split]; ok {
			row.Constant = &c
		}
		res.PerSplit = append(res.PerSplit, row)
	}
	hash := fnv.New64a()
	hash.Write([]byte(metric + "\x00" + dataset))
	pairs := pareto.ComparePairs(perSplit, pareto.PairedOptions{
		Resamples: opt.Resamples, Seed: opt.Seed ^ hash.Sum64(), Order: names, SeedOrder: canonical})
	for _, p := range pairs {
		if p.Splits == 0 {
			continue // no split in common: nothing to pair
		}
		res.Paired = append(res.Paired, PairedRow{Metric: metric, Dataset: dataset, Paired: p, ARuns: runs[p.A], BRuns: runs[p.B]})
	}
	return nil
}

// sourceOrder numbers the files or folders recs were read from in the order
// their first records come: the order of the arguments, which read them
// one after another.
func sourceOrder(recs []records.Record) map[string]int {
	at := map[string]int{}
	for i := range recs {
		if _, ok := at[recs[i].Source]; !ok {
			at[recs[i].Source] = len(at)
		}
	}
	return at
}

// sourcesOf lists the files or folders recs were read from, in order of
// their first record (none for records not read from one).
func sourcesOf(recs []records.Record) []string {
	out := []string{}
	for i := range recs {
		if recs[i].Source != "" && !slices.Contains(out, recs[i].Source) {
			out = append(out, recs[i].Source)
		}
	}
	return out
}

// uniform reports whether f gives one value for every record.
func uniform(recs []records.Record, f func(*records.Record) string) bool {
	for i := 1; i < len(recs); i++ {
		if f(&recs[i]) != f(&recs[0]) {
			return false
		}
	}
	return true
}

// methodOrder is the paper's order of methods in its tables.
var methodOrder = map[string]int{"cheb": 0, "cheb-aug": 1, "linear": 2, "adversarial": 3}

// rowOrder orders groups as the paper's tables do when each group is one
// method: Chebyshev, linear, adversarial; penultimate-layer ATO before ATO
// on all layers; smaller β scale first. Other groups follow by name. It
// orders the groups read from one argument, and seeds each pair's
// bootstrap whatever the order of the arguments.
func rowOrder(a string, ra []records.Record, b string, rb []records.Record) int {
	x, y := &ra[0], &rb[0]
	ox, okx := methodOrder[x.Method]
	oy, oky := methodOrder[y.Method]
	if !okx {
		ox = len(methodOrder)
	}
	if !oky {
		oy = len(methodOrder)
	}
	return cmp.Or(cmp.Compare(ox, oy), -cmp.Compare(x.Penalty, y.Penalty), cmp.Compare(x.BetaScale, y.BetaScale), cmp.Compare(a, b))
}

// MixedSweeps returns the pooled rows of the first metric whose group pools
// candidates of several sweep configurations although grouping by asks for
// one group per method: most likely two sweeps merged by mistake. Grouping
// by run or config keeps sweeps apart; grouping by λ or split pools them on
// purpose.
func (res *Result) MixedSweeps(by records.Grouping) []Pooled {
	if by.Has("run") || by.Has("config") || !by.Has("method") || len(res.Pooled) == 0 {
		return nil
	}
	var out []Pooled
	for _, r := range res.Pooled {
		if r.Configs > 1 && r.Metric == res.Pooled[0].Metric {
			out = append(out, r)
		}
	}
	return out
}

// ParseOptions reads the options of a comparison as fp's flags give them:
// the grouping (--by), the distinct-point tolerance (--tolerance, in (0,
// 1)), the x axis (--axis), the front rule (--front-rule) and the
// hypervolume reference (--reference, CheckReference). Each error names its
// flag.
func ParseOptions(by string, tolerance float64, axis, rule string, reference float64) (Options, error) {
	g, err := records.ParseGrouping(by)
	if err != nil {
		return Options{}, fmt.Errorf("--by: %w", err)
	}
	if !(tolerance > 0) || tolerance >= 1 {
		return Options{}, fmt.Errorf("--tolerance %v: want a number between 0 and 1", tolerance)
	}
	a, err := records.ParseAxis(axis)
	if err != nil {
		return Options{}, fmt.Errorf("--axis: %w", err)
	}
	r, err := pareto.ParseRule(rule)
	if err != nil {
		return Options{}, fmt.Errorf("--front-rule: %w", err)
	}
	if err := CheckReference(reference); err != nil {
		return Options{}, fmt.Errorf("--%w", err)
	}
	return Options{By: g, Tolerance: tolerance, Axis: a, Rule: r, Reference: reference}, nil
}
