package htmlreport

import (
	"github.com/fpareto/fp/internal/shellword"

	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/fpareto/fp/compare"
	"github.com/fpareto/fp/pareto"
	"github.com/fpareto/fp/records"
	"github.com/fpareto/fp/runfolder"
)

// Significance is the level below which a paired comparison's p-value is
// called significant.
const Significance = 0.05

// Comparison is fp compare's comparison of the runs of one dataset, with
// its default grouping: one group per run, named as fp compare names it.
type Comparison struct {
	Dataset   string
	Tolerance float64
	Reference [2]float64
	// Rule is the front rule that scaled the hypervolumes ("constant" or
	// "minmax", pareto.Rule).
	Rule    string
	Metrics []MetricComparison
}

// MetricComparison is the comparison on one unfairness metric, against
// the test risk or, for a decision metric, against the test error too
// (fp compare --axis error), where group-thresholds candidates compete.
type MetricComparison struct {
	Metric string // as printed, e.g. "ATO"
	// Axis is the x axis, "risk" or "error"; Rule the front rule that
	// scaled it, the comparison's unless records lack what it needs on
	// that axis.
	Axis   string
	Rule   string
	Pooled []compare.Pooled
	// Groups head the columns of Splits.
	Groups []string
	Splits []SplitHypervolumes
	Paired []Paired
}

// SplitHypervolumes are the groups' hypervolumes on one split, in the
// order of MetricComparison.Groups; NaN where a group has no candidate on
// the split.
type SplitHypervolumes struct {
	Split       int
	Hypervolume []float64
}

// Paired is one paired comparison of two groups over their common splits.
type Paired struct {
	compare.PairedRow
	// Significant is p < Significance.
	Significant bool
	// MinSplits is how many splits the test needs before any difference
	// can be significant; more than Splits means the verdict says nothing.
	MinSplits int
}

// minSplitsSignificant is the fewest paired splits with which the exact
// two-sided Wilcoxon signed-rank test can give p < Significance: its
// smallest p-value is 2/2^n.
func minSplitsSignificant() int {
	n := 1
	for 2/math.Pow(2, float64(n)) >= Significance {
		n++
	}
	return n
}

// labeller names each record's group as fp compare names it by default.
type labeller map[string]string

func recordID(r *records.Record) string { return r.Source + "\x00" + r.Config + "\x00" + r.Key() }

// runLabels names the group of every successful record of every dataset,
// as fp compare does when given the same paths (one dataset at a time).
func runLabels(data []records.DataGroup) labeller {
	l := labeller{}
	for _, d := range data {
		recs, _ := records.Succeeded(d.Records)
		for name, g := range records.Groups(recs, records.Grouping{records.DefaultGrouping}) {
			for i := range g {
				l[recordID(&g[i])] = name
			}
		}
	}
	return l
}

// of is r's group; a failed record is named by its method and penalty.
func (l labeller) of(r *records.Record) string {
	if name, ok := l[recordID(r)]; ok {
		return name
	}
	return records.Grouping{records.DefaultGrouping}.Key(r)
}

// comparisons runs fp compare's comparison on each dataset's records under
// the front rule named by rule ("" for the default; see
// Options.FrontRule), against the test risk in every metric's plane and,
// for the decision metrics, against the test error as well, noting in
// warnings a dataset compared under min–max because its records predate
// the default rule.
func comparisons(data []records.DataGroup, resamples int, decide records.Decide, rule string, warnings *[]string) ([]Comparison, error) {
	var out []Comparison
	var errs []string
	r, err := pareto.ParseRule(rule)
	if err != nil {
		return nil, fmt.Errorf("method comparison: %w", err)
	}
	for _, d := range data {
		recs, _ := records.Succeeded(d.Records)
		if len(recs) == 0 {
			continue
		}
		var c *Comparison
		for _, axis := range records.Axes {
			metrics := records.MetricsOf(recs)
			if axis == records.AxisError {
				metrics = slices.DeleteFunc(slices.Clone(metrics), func(m string) bool { return !records.IsDecisionMetric(m) })
				if len(metrics) == 0 || c == nil {
					break
				}
			}
			// Every metric is compared on each axis, as fp compare --axis
			// compares them, so that the q-values are its; the page shows
			// the decision metrics' against the error.
			opt := compare.Options{Resamples: resamples, Decide: decide, Rule: r, Axis: axis}
			if rule == "" && r.NeedsConstant() && slices.ContainsFunc(recs, func(x records.Record) bool { _, err := x.ConstantOn(axis); return err != nil }) {
				opt.Rule = pareto.RuleMinMax
				key := "const_risk"
				if axis == records.AxisError {
					key = "const_error"
				}
				*warnings = append(*warnings, fmt.Sprintf("method comparison of %s against the test %s: some records were written before fp recorded %s, "+
					"so the hypervolumes are min–max normalised (--front-rule minmax) rather than scaled to the constant predictor", d.Label, axis, key))
			}
			res, err := compare.Run(recs, opt)
			if err != nil {
				errs = append(errs, err.Error())
				continue
			}
			if c == nil {
				c = &Comparison{Dataset: d.Label, Tolerance: res.Tolerance, Reference: res.Reference, Rule: res.FrontRule}
			}
			for _, metric := range metrics {
				c.Metrics = append(c.Metrics, metricComparison(res, metric))
			}
		}
		if c != nil {
			out = append(out, *c)
		}
	}
	if len(errs) > 0 {
		return out, fmt.Errorf("method comparison: %s", strings.Join(errs, "; "))
	}
	return out, nil
}

// metricComparison is res's comparison on metric.
func metricComparison(res *compare.Result, metric string) MetricComparison {
	mc := MetricComparison{Metric: metricNames[metric], Axis: res.Axis, Rule: res.FrontRule}
	for _, r := range res.Pooled {
		if r.Metric == metric {
			mc.Pooled = append(mc.Pooled, r)
			mc.Groups = append(mc.Groups, r.Group)
		}
	}
	var splits []int
	for _, h := range res.PerSplit {
		if h.Metric == metric && !slices.Contains(splits, h.Split) {
			splits = append(splits, h.Split)
		}
	}
	slices.Sort(splits)
	for _, m := range splits {
		row := SplitHypervolumes{Split: m, Hypervolume: make([]float64, len(mc.Groups))}
		for g := range row.Hypervolume {
			row.Hypervolume[g] = math.NaN()
		}
		for _, h := range res.PerSplit {
			if g := slices.Index(mc.Groups, h.Group); h.Metric == metric && h.Split == m && g >= 0 {
				row.Hypervolume[g] = h.Hypervolume
			}
		}
		mc.Splits = append(mc.Splits, row)
	}
	for _, pr := range res.Paired {
		if pr.Metric == metric {
			mc.Paired = append(mc.Paired, Paired{PairedRow: pr, Significant: pr.PValue < Significance,
				MinSplits: minSplitsSignificant()})
		}
	}
	return mc
}

// TypedCommand is a command that ran a sweep into its folder, as typed.
type TypedCommand struct {
	Command string
	Dir     string // the working directory it was typed in
	Runs    int    // how many times it ran (a resumed sweep runs it again)
}

// typedCommands lists the distinct commands among invs, first run first.
func typedCommands(invs []runfolder.Invocation) []TypedCommand {
	var out []TypedCommand
	for _, inv := range invs {
		if len(inv.Args) == 0 {
			continue
		}
		q := make([]string, len(inv.Args))
		for i, a := range inv.Args {
			q[i] = shellword.Quote(a)
		}
		tc := TypedCommand{Command: strings.Join(q, " "), Dir: inv.Dir}
		k := slices.IndexFunc(out, func(o TypedCommand) bool { return o.Command == tc.Command && o.Dir == tc.Dir })
		if k < 0 {
			out = append(out, tc)
			k = len(out) - 1
		}
		out[k].Runs++
	}
	return out
}
